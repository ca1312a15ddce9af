# plot() of a suite: speedups with their intervals on a log scale.

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
