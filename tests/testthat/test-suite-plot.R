# plot() of a suite: speedups with their intervals on a log scale.

draw_png <- function(x, ..., width = 480, height = 480, res = 72, units = "px") {
  f <- tempfile(fileext = ".png")
  grDevices::png(f, width = width, height = height, res = res, units = units)
  on.exit(if (file.exists(f)) unlink(f))
  out <- withVisible(plot(x, ...))
  grDevices::dev.off()
  expect_gt(file.size(f), 1000)
  out
}

test_that("plot() of a suite draws both protocols at both sizes", {
  two <- cpu_runs[cpu_runs$version %in% c("O1", "O3"), ]
  two$version <- droplevels(two$version)
  s <- speedup_suite(two)
  out <- draw_png(s)
  expect_false(out$visible)
  expect_identical(out$value, s)
  draw_png(s, which = "mean", width = 7, height = 5, res = 96, units = "in")
  # a benchmark with insufficient data (no interval) and a slowdown
  suite <- list(fast = list(x = 10 + 1:12 / 10, y = 9 + 1:12 / 10),
                slow = list(x = 9 + 1:12 / 10, y = 10 + 1:12 / 10),
                few = list(x = c(1, 2), y = c(1, 1.5, 2)))
  s2 <- suppressWarnings(speedup_suite(suite))
  draw_png(s2)
  empty <- s2
  empty$benchmarks <- empty$benchmarks[0, ]
  expect_error(plot(empty), class = "speeduptest_error_data")
})
