# plot() of a verdict: runs in order, the speedup's interval and its label,
# the run-order flags.  Drawn to PNG files in a temporary directory.

norm_s <- function(n, mean, sd) mean + sd * stats::qnorm(stats::ppoints(n))

test_that("plot() of a verdict draws at the default size and at 7 x 5 in", {
  v <- median_test(norm_s(20, 10, 1), norm_s(20, 9, 1))
  out <- draw_png(v)
  expect_false(out$visible)
  expect_identical(out$value, v)
  draw_png(v, width = 7, height = 5, res = 96, units = "in")
  draw_png(mean_test(norm_s(20, 10, 1), norm_s(20, 9, 1)))
  # insufficient data: no interval, still drawn
  draw_png(mean_test(c(1, 2), norm_s(20, 9, 1)))
  expect_error(plot(structure(list(n = 0L, m = 0L), class = "speedup_verdict")),
               class = "speeduptest_error_data")
})

test_that("the speedup is labelled with its estimator, level and method", {
  v <- median_test(norm_s(20, 10, 1), norm_s(20, 9, 1))
  lab <- speeduptest:::speedup_plot_label(v)
  expect_match(lab, "^speedup [0-9.]+ \\[[0-9.]+, [0-9.]+\\]")
  expect_match(lab, "(Hodges-Lehmann estimate on log times; 90% interval)", fixed = TRUE)
  if (speeduptest:::fmt_num(attr(v$speedup_ci, "estimate")) != speeduptest:::fmt_num(v$speedup)) {
    expect_match(lab, "observed ratio of the medians", fixed = TRUE)
  }
  vm <- mean_test(norm_s(20, 10, 1), norm_s(20, 9, 1), alpha = 0.01)
  expect_match(speeduptest:::speedup_plot_label(vm),
               "^speedup .* \\(ratio of the means; Fieller 98% interval\\)")
})

test_that("samples are named by their versions, not by long expressions", {
  runs <- data.frame(time = c(norm_s(10, 10, 1), norm_s(10, 9, 1)),
                     version = factor(rep(c("O1", "O3"), each = 10)))
  v <- median_test(time ~ version, data = runs)
  expect_identical(speeduptest:::plot_sample_labels(v), c("O1", "O3"))
  w <- median_test(runs$time[runs$version == "O1"], runs$time[runs$version == "O3"])
  expect_identical(speeduptest:::plot_sample_labels(w),
                   c("initial (x)", "transformed (y)"))
})

test_that("a flagged run order is written on the plot and positions are used", {
  # sorted samples: the run-order checks flag a trend in both
  sorted <- median_test(norm_s(20, 10, 1), norm_s(20, 9, 1))
  expect_match(speeduptest:::run_order_flags(sorted, c("a", "b")),
               "get slower over time")
  draw_png(sorted)
  set.seed(3)
  v <- median_test(sample(norm_s(20, 10, 1)), sample(norm_s(20, 9, 1)))
  expect_identical(speeduptest:::run_order_flags(v, c("a", "b")), character())
  v$run_order <- list(x = list(p.value = 0.001, estimate = c(tau = 0.5)),
                      y = list(p.value = 0.4, estimate = c(tau = 0.1)),
                      interleaving = list(interleaved = FALSE, p.value = 0.01),
                      positions = list(x = seq(1, 39, 2), y = seq(2, 40, 2)),
                      trend = TRUE)
  fl <- speeduptest:::run_order_flags(v, c("a", "b"))
  expect_identical(fl, c("the runs of a get slower over time (Mann-Kendall p = 0.00100)",
                         "the versions were measured in blocks, not interleaved"))
  # flagged at the run-order checks' own level, not at alpha
  v$run_order$x$p.value <- 0.01
  expect_identical(speeduptest:::run_order_flags(v, c("a", "b")),
                   "the versions were measured in blocks, not interleaved")
  pos <- speeduptest:::run_positions(v)
  expect_true(pos$global)
  expect_identical(pos$y, as.numeric(seq(2, 40, 2)))
  draw_png(v)
  # no flag, no positions: indices within each sample
  v$run_order <- list(x = NULL, y = NULL, interleaving = NULL,
                      positions = NULL, trend = FALSE)
  expect_identical(speeduptest:::run_order_flags(v, c("a", "b")), character())
  expect_false(speeduptest:::run_positions(v)$global)
  draw_png(v)
})
