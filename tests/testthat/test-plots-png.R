# Every plot() and autoplot() drawn to a PNG in tests/testthat/_plots/ (not
# kept in git), for a person to look at.

plots_dir <- function() {
  d <- testthat::test_path("_plots")
  dir.create(d, showWarnings = FALSE)
  d
}

png_of <- function(name, draw, width = 900, height = 600, res = 100) {
  f <- file.path(plots_dir(), paste0(name, ".png"))
  grDevices::png(f, width = width, height = height, res = res)
  ok <- FALSE
  on.exit(if (!ok) grDevices::dev.off())
  draw()
  grDevices::dev.off()
  ok <- TRUE
  expect_gt(file.size(f), 5000)
  invisible(f)
}

gg_png <- function(name, g, width = 9, height = 6) {
  expect_s3_class(g, "ggplot")
  f <- file.path(plots_dir(), paste0(name, ".png"))
  ggplot2::ggsave(f, g, width = width, height = height, dpi = 100)
  expect_gt(file.size(f), 5000)
  invisible(f)
}

story <- function() {
  set.seed(4)
  list(faster = median_test(rlnorm(40, log(10), 0.1), rlnorm(40, log(9), 0.1)),
       slower = mean_test(rlnorm(40, log(9), 0.1), rlnorm(40, log(10), 0.1)))
}

test_that("plot() of timings: runs in order and distributions, 12 benchmarks", {
  t <- as_timings(cpu_runs)
  png_of("timings-12-benchmarks", function() plot(t), 1000, 1100, 110)
  png_of("timings-2-benchmarks", function() plot(t, benchmarks = c("fft", "matmul")),
         900, 450)
  png_of("timings-1-benchmark-linear", function() plot(t, benchmarks = "sort", log = FALSE),
         600, 450)
  expect_error(plot(t, benchmarks = "nope"), class = "speeduptest_error_argument")
  g <- speeduptest:::timings_plot_data(t, c("fft", "sort"))
  # every run is drawn, at its recorded position
  expect_identical(nrow(g$points), sum(t$benchmark %in% c("fft", "sort")))
  # the distributions lie right of the runs, the medians on them
  expect_true(all(g$violins$x > max(g$points$x)))
  med <- g$medians[g$medians$benchmark == "fft" & g$medians$version == "O3", ]
  expect_equal(med$time, median(t$time[t$benchmark == "fft" & t$version == "O3"]))
})

test_that("plot() of verdicts, suites and HPT results", {
  v <- story()
  png_of("verdict-speedup", function() plot(v$faster))
  png_of("verdict-slowdown", function() plot(v$slower))
  d <- omp_runs[omp_runs$version %in% c("seq", "omp1"), ]
  d$version <- droplevels(d$version)
  s <- speedup_suite(d)
  png_of("suite-median", function() plot(s))
  png_of("suite-mean", function() plot(s, which = "mean"))
  png_of("hpt", function() plot(hpt(splash2_hpt, higher_is_better = TRUE)), 1000, 550)
})

test_that("autoplot() draws what plot() draws", {
  skip_if_not_installed("ggplot2")
  t <- as_timings(cpu_runs)
  g <- ggplot2::autoplot(t)
  gg_png("autoplot-timings-12-benchmarks", g, 10, 10)
  # the same runs, violins and medians as plot()
  ref <- speeduptest:::timings_plot_data(t)
  expect_identical(nrow(g$layers[[4L]]$data), nrow(ref$points))
  expect_identical(g$layers[[2L]]$data, ref$violins)
  v <- story()
  gg_png("autoplot-verdict-speedup", ggplot2::autoplot(v$faster), 8, 5)
  gg_png("autoplot-verdict-slowdown", ggplot2::autoplot(v$slower), 8, 5)
  d <- omp_runs[omp_runs$version %in% c("seq", "omp1"), ]
  d$version <- droplevels(d$version)
  s <- speedup_suite(d)
  gs <- ggplot2::autoplot(s)
  gg_png("autoplot-suite", gs, 8, 5)
  est <- s$benchmarks$median_ci_estimate
  expect_equal(gs$data$point, ifelse(is.na(est), s$benchmarks$speedup_median, est))
  h <- hpt(splash2_hpt, higher_is_better = TRUE)
  gg_png("autoplot-hpt", ggplot2::autoplot(h), 10, 5)
  x <- splash2_hpt
  x$score[x$machine == "X"] <- 1.76 * x$score[x$machine == "X"]
  gg_png("autoplot-hpt-speedup",
         ggplot2::autoplot(hpt_speedup(x, higher_is_better = TRUE)), 10, 5)
})
