# history_series(), plot() and autoplot() of a series.

series_history <- function(env = parent.frame()) {
  h <- local_history(env)
  t <- history_sim(commits = 40, benchmarks = 1, step_at = 15, step = 1.1, seed = 2)
  history_add(h, t, machine = "m1")
  history_annotate(h, "m1", commit = "c030", note = "new kernel")
  history_changes(h, method = toy_series_changes)
  h
}

test_that("a series holds its values, changes, stretches and machine changes", {
  h <- series_history()
  s <- history_series(h, "bench1")
  expect_s3_class(s, "speedup_history_series")
  expect_equal(nrow(s$values), 40 * 3)
  expect_equal(nrow(s$changes), 1L)
  expect_equal(s$changes$first_bad, "c015")
  # a change before the machine change is not at the head of the branch
  expect_false(s$changes$at_head)
  # stretches: before the change, up to the machine change, after it
  expect_equal(s$stretches$from, c(1, 15, 30))
  expect_equal(s$stretches$to, c(14, 29, 40))
  v <- s$values
  expect_equal(s$stretches$level[2], stats::median(v$value[v$position >= 15 & v$position < 30]))
  expect_equal(s$annotations$note, "new kernel")
  expect_output(print(s), "1 change\\(s\\), 3 stable stretch\\(es\\), 1 machine change")
  expect_error(history_series(h, "nope"), class = "speeduptest_error_input")
})

test_that("plot() and autoplot() draw a series", {
  h <- series_history()
  s <- history_series(h, "bench1")
  out <- draw_png(s)
  expect_false(out$visible)
  draw_png(h, benchmark = "bench1")
  draw_png(s, log = FALSE)
  skip_if_not_installed("ggplot2")
  g <- ggplot2::autoplot(s)
  expect_s3_class(g, "ggplot")
  f <- tempfile(fileext = ".png")
  on.exit(unlink(f))
  expect_silent(ggplot2::ggsave(f, g, width = 8, height = 5, dpi = 72))
  expect_gt(file.size(f), 1000)
})
