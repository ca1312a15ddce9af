# The speedup_verdict methods: print/format, summary, as.data.frame, plot.
# Deterministic samples (normal and exponential scores), no random numbers,
# so that the snapshots pin the exact text.

# Deterministic samples in an order without trend (a golden-ratio shuffle of
# the quantiles): the run-order check sees independent-looking runs.
mix <- function(v) v[order((seq_along(v) * 0.6180339887) %% 1)]
norm_s <- function(n, mean, sd) mix(mean + sd * stats::qnorm(stats::ppoints(n)))
expo_s <- function(n, base, scale) mix(base + scale * stats::qexp(stats::ppoints(n)))

before <- norm_s(20, 10, 1)
after <- norm_s(20, 9, 1)
skewed <- expo_s(40, 10, 2)

test_that("print tells the story of the mean protocol", {
  expect_snapshot({
    mean_test(before, after)
    mean_test(before, after + 0.9, alpha = 0.01)
    mean_test(mix(c(1:9, 40)), norm_s(10, 5, 1))
    mean_test(c(1:9, 40) + 20, norm_s(10, 5, 1), rigorous = FALSE)
    mean_test(c(1, 2), before)
    mean_test(rep(2, 10), rep(1, 12))
    mean_test(rep(5, 40), norm_s(40, 4, 0.1))
  })
})

test_that("print tells the story of the median protocol", {
  expect_snapshot({
    median_test(before, after)
    median_test(before, before - 0.05)
    median_test(skewed, norm_s(40, 9, 0.05))
    median_test(expo_s(20, 10, 2), norm_s(20, 8, 0.05))
    median_test(expo_s(20, 10, 2), norm_s(20, 8, 0.05), rigorous = FALSE)
    median_test(rep(3, 4), rep(3, 4))
  })
})

test_that("summary shows every step", {
  runs <- data.frame(time = c(before, after), version = rep(c("O2", "O3"), each = 20))
  expect_snapshot({
    summary(mean_test(time ~ version, data = runs))
    summary(median_test(time ~ version, data = runs))
    summary(mean_test(mix(c(1:9, 40)), norm_s(10, 5, 1)))
    summary(mean_test(c(1, 2), before))
  })
})

test_that("the headline states decision, confidence and guarantee", {
  v <- median_test(before, after)
  lines <- format(v)
  expect_type(lines, "character")
  expect_identical(lines[1], paste("Speedup-Test (median): significant speedup at",
                                   "95% confidence (guaranteed)"))
  expect_match(lines, "P\\[X > Y\\] = ", all = FALSE)
  expect_output(expect_identical(print(v), v), "significant speedup")
  w <- mean_test(c(1:9, 40) + 20, norm_s(10, 5, 1), rigorous = FALSE)
  expect_match(format(w)[1], "\\(not guaranteed\\)$")
  expect_match(format(mean_test(before, after, alpha = 0.025))[1], "97.5% confidence")
})

test_that("intervals are printed rounded outwards", {
  expect_identical(speeduptest:::fmt_ci(c(0.99985, 1.04549)), "[0.999, 1.05]")
  expect_identical(speeduptest:::fmt_ci(c(-0.04961, 0.4871)), "[-0.0497, 0.488]")
  expect_identical(speeduptest:::fmt_ci(c(0, Inf)), "[0, Inf]")
})

test_that("as.data.frame gives one row", {
  v <- median_test(before, after)
  d <- as.data.frame(v)
  expect_s3_class(d, "data.frame")
  expect_identical(nrow(d), 1L)
  expect_named(d, c("test", "decision", "significant", "direction", "branch",
                    "p_value", "p_value_slowdown", "alpha",
                    "confidence", "confidence_guaranteed", "speedup",
                    "speedup_estimate", "speedup_low", "speedup_high",
                    "interval_level", "speedup_min", "speedup_mean", "speedup_median",
                    "prob_greater", "n", "m", "rigorous", "min_speedup",
                    "p_value_equivalence", "detectable", "run_order_flag",
                    "baseline", "caveats"))
  expect_identical(d$direction, "speedup")
  expect_identical(d$decision, "significant speedup")
  expect_equal(as.numeric(d$p_value), v$p_value)
  expect_true(d$p_value <= 0.05)
  expect_equal(d$speedup_low, v$speedup_ci[[1]])
  expect_equal(d$prob_greater, v$prob_greater)
  d2 <- as.data.frame(mean_test(mix(c(1:9, 40)), norm_s(10, 5, 1)))
  expect_true(is.na(d2$significant))
  expect_true(is.na(d2$prob_greater))
  expect_match(d2$caveats, "not shown normal")
  both <- rbind(d, d2)
  expect_identical(nrow(both), 2L)
})

test_that("the verdict carries the fields of SPEC section 4", {
  v <- mean_test(before, after)
  expect_true(all(c("significant", "decision", "p_value", "alpha", "confidence",
                    "confidence_guaranteed", "speedup", "speedups", "steps",
                    "caveats", "advice", "n", "m", "call", "rigorous", "branch",
                    "speedup_ci") %in% names(v)))
  expect_named(v$speedups, c("min", "mean", "median"))
  expect_true(all(vapply(v$steps, inherits, NA, what = "htest")))
  expect_equal(v$steps$t_test$p.value,
               t.test(before, after, alternative = "greater", var.equal = TRUE)$p.value,
               tolerance = 1e-10)
  expect_identical(v$confidence, 0.95)
  expect_identical(v$call, quote(mean_test(x = before, y = after)))
  # each step prints as an htest
  expect_output(print(v$steps$shapiro_x), "Shapiro-Wilk normality test")
})

test_that("plot draws both samples", {
  pdf(NULL)
  on.exit(dev.off())
  v <- median_test(before, after)
  expect_identical(plot(v), v)
  v2 <- mean_test(c(1, 2), before)
  expect_identical(plot(v2), v2)
})

test_that("a verdict's parts are made once, kept, and made again for a changed verdict", {
  x <- exp(seq(0, 0.3, length.out = 30)) * rlnorm(30, 0, 0.01)
  v <- median_test(x, rlnorm(30, -0.1, 0.05))
  cache <- attr(v, "lazy")$cache
  expect_identical(ls(cache), character())
  ro <- v$run_order
  expect_identical(ls(cache), "run_order")
  # the same object, not a second computation of it
  expect_true(identical(v$run_order, ro))
  cav <- v$caveats
  # (the story reads the ratio of the medians and the attainable alpha,
  # parts made when read, kept as well)
  expect_setequal(setdiff(ls(cache), c("median_ratio", "min_alpha")),
                  c("run_order", "story", "caveats"))
  expect_identical(v$advice, speeduptest:::verdict_story(v)$advice)
  expect_identical(cav, speeduptest:::verdict_story(v)$caveats)
  expect_identical(ro, speeduptest:::run_order_check(v$x, v$y, v$labels))
  # a changed verdict makes its parts from what it now holds
  w <- v
  w$labels <- c("before", "after")
  expect_identical(w$run_order, speeduptest:::run_order_check(w$x, w$y, c("before", "after")))
  expect_identical(v$run_order, ro)
  lz <- attr(w, "lazy")
  lz$flags <- 0L
  attr(w, "lazy") <- lz
  expect_identical(w$caveats, speeduptest:::verdict_story(w)$caveats)
  u <- unclass(v)
  u$x <- rev(u$x)
  class(u) <- class(v)
  expect_identical(u$run_order, speeduptest:::run_order_check(rev(v$x), v$y, v$labels))
  expect_false(identical(u$run_order, ro))
  expect_identical(u$caveats, speeduptest:::verdict_story(u)$caveats)
})

test_that("print says \"significant slowdown\" with the speedup and its interval", {
  slower <- norm_s(20, 10.9, 1)
  expect_snapshot(print(mean_test(before, slower)))
  expect_snapshot(print(median_test(before, slower)))
  expect_snapshot(print(median_test(before, before * 1.001)))
})

test_that("print names the baseline and shows run-order flags within 80 columns", {
  runs <- data.frame(time = c(before, after), version = rep(c("old", "new"), each = 20))
  v <- median_test(time ~ version, data = runs)
  expect_snapshot(print(v))
  drift <- before + seq(0, 4, length.out = 20)
  expect_true(median_test(drift, after)$run_order$trend)
  w <- median_test(drift, after)
  expect_snapshot(print(w))
  t <- speeduptest:::new_speedup_timings("b", rep(c("old", "new"), each = 20),
                                         c(before, after), run_order = "global")
  u <- mean_test(t)
  expect_snapshot(print(u))
  for (x in list(v, w, u)) expect_true(all(nchar(format(x)) <= 80))
})

test_that("knitr::kable() of a verdict keeps small p-values readable", {
  skip_if_not_installed("knitr")
  set.seed(1)
  v <- median_test(rlnorm(35, log(2), 0.05), rlnorm(35, log(1.6), 0.05))
  expect_lt(v$p_value, 1e-15)
  tab <- paste(knitr::kable(v), collapse = "\n")
  expect_match(tab, formatC(v$p_value, format = "e", digits = 2), fixed = TRUE)
  d <- as.data.frame(v)
  expect_equal(as.numeric(round(d$p_value, 3)), signif(v$p_value, 3))
  expect_identical(format(d$p_value), formatC(v$p_value, format = "e", digits = 2))
})

test_that("highest_confidence() near 1 prints its risk", {
  set.seed(1)
  x <- rlnorm(35, log(2), 0.05)
  y <- rlnorm(35, log(1.6), 0.05)
  hc <- highest_confidence(x, y)
  expect_equal(as.numeric(hc), 1)
  expect_lt(attr(hc, "alpha"), 1e-15)
  expect_match(format(hc), "^1 - [0-9.]+e-[0-9]+$")
  expect_false(identical(format(hc), "1"))
})
