# Draws plot(x, ...) to a PNG file in a temporary directory and checks that
# something was drawn; returns what plot() returned, with its visibility.
draw_png <- function(x, ..., width = 480, height = 480, res = 72, units = "px") {
  f <- tempfile(fileext = ".png")
  grDevices::png(f, width = width, height = height, res = res, units = units)
  on.exit(if (file.exists(f)) unlink(f))
  out <- withVisible(plot(x, ...))
  grDevices::dev.off()
  expect_gt(file.size(f), 1000)
  out
}
