# The Speedup-Test protocols (mean_test, median_test, highest_confidence).
#
# References used here:
#   - the two flowcharts written again below with R's stats functions
#     (ref_mean_flowchart, ref_median_flowchart);
#   - direct R formulas for the observed speedups, P[X > Y], Fieller's pivot
#     and the Hodges-Lehmann intervals (stats::wilcox.test);
#   - a brute-force scan of alpha for highest_confidence().

# ---- the reference flowcharts, with stats ----------------------------------

ref_sw_p <- function(v) {
  if (all(v == v[1L]) || length(v) > 5000L) NA_real_ else stats::shapiro.test(v)$p.value
}

ref_mean_flowchart <- function(x, y, alpha, rigorous) {
  n <- length(x)
  m <- length(y)
  stop_with <- function(branch) list(decision = "insufficient data", branch = branch,
                                     p_value = NA_real_)
  if (n < 3L || m < 3L) return(stop_with("too_few_values"))
  if (all(x == x[1L]) && all(y == y[1L])) return(stop_with("constant_samples"))
  px <- ref_sw_p(x)
  py <- ref_sw_p(y)
  normal_x <- !is.na(px) && px > alpha
  normal_y <- !is.na(py) && py > alpha
  if (rigorous && ((!normal_x && n <= 30) || (!normal_y && m <= 30))) {
    return(stop_with("need_more_runs"))
  }
  equal <- stats::var.test(x, y)$p.value > alpha
  p <- stats::t.test(x, y, alternative = "greater", var.equal = equal)$p.value
  list(decision = if (p <= alpha) "significant" else "not significant",
       branch = paste0(if (equal) "student" else "welch",
                       if (normal_x && normal_y) "_normal" else "_not_normal"),
       p_value = p)
}

# ks_p / w_p: p-values to use instead of R's (see the random-pairs test).
ref_median_flowchart <- function(x, y, alpha, rigorous, ks_p = NULL, w_p = NULL) {
  n <- length(x)
  m <- length(y)
  stop_with <- function(branch) list(decision = "insufficient data", branch = branch,
                                     p_value = NA_real_)
  if (n < 3L || m < 3L) return(stop_with("too_few_values"))
  if (all(c(x, y) == x[1L])) return(stop_with("constant_samples"))
  if (is.null(ks_p)) {
    ks_p <- suppressWarnings(stats::ks.test(x - stats::median(x),
                                            y - stats::median(y))$p.value)
  }
  model <- ks_p > alpha
  if (!model && rigorous && (n <= 30 || m <= 30)) return(stop_with("need_more_runs"))
  if (is.null(w_p)) {
    w_p <- suppressWarnings(stats::wilcox.test(x, y, alternative = "greater")$p.value)
  }
  list(decision = if (w_p <= alpha) "significant" else "not significant",
       branch = if (model) "wilcoxon_model_holds" else "wilcoxon_model_rejected",
       p_value = w_p)
}

# Deterministic samples with a known shape: normal and exponential scores.
# Deterministic samples in an order without trend (a golden-ratio shuffle of
# the quantiles): the run-order check sees independent-looking runs.
mix <- function(v) v[order((seq_along(v) * 0.6180339887) %% 1)]
norm_s <- function(n, mean, sd) mix(mean + sd * stats::qnorm(stats::ppoints(n)))
expo_s <- function(n, base, scale) mix(base + scale * stats::qexp(stats::ppoints(n)))

step_names <- function(v) names(v$steps)

# ---- every branch of the mean flowchart ----------------------------------------

test_that("mean: fewer than 3 values gives insufficient data, not an error", {
  v <- mean_test(c(1, 2), mix(1:10))
  expect_s3_class(v, c("speedup_verdict_mean", "speedup_verdict"))
  expect_identical(outcome(v), "insufficient data")
  expect_identical(v$significant, NA)
  expect_identical(v$branch, "too_few_values")
  expect_length(v$steps, 0L)
  expect_false(v$confidence_guaranteed)
  expect_match(v$advice, "more than 30 runs of c\\(1, 2\\)")
  expect_identical(mean_test(numeric(0), 1:5)$branch, "too_few_values")
  expect_identical(mean_test(1:5, 4)$branch, "too_few_values")
  expect_identical(median_test(1:2, 1:2)$branch, "too_few_values")
})

test_that("mean: two constant samples give insufficient data", {
  v <- mean_test(rep(2, 10), rep(1, 12))
  expect_identical(outcome(v), "insufficient data")
  expect_identical(v$branch, "constant_samples")
  expect_equal(v$speedup, 2)
  expect_match(v$caveats, "constant")
  expect_true(is.na(v$p_value))
})

test_that("mean: a small non-normal sample stops the rigorous protocol", {
  x <- mix(c(1:9, 40))            # Shapiro-Wilk p ~ 4e-5
  y <- norm_s(10, 5, 1)
  expect_lt(stats::shapiro.test(x)$p.value, 0.05)
  v <- mean_test(x, y)
  expect_identical(outcome(v), "insufficient data")
  expect_identical(v$branch, "need_more_runs")
  expect_identical(step_names(v), c("shapiro_x", "shapiro_y"))
  expect_match(v$advice, "perform more than 30 runs of x")
  expect_false(grepl("of y", v$advice))
  # the same for y, and for both
  v <- mean_test(y, x)
  expect_identical(v$branch, "need_more_runs")
  expect_match(v$advice, "runs of x$")   # labels follow the arguments
  v <- mean_test(x, x + 1)
  expect_match(v$advice, "more than 30 runs of x and x \\+ 1")
})

test_that("mean: rigorous = FALSE goes on without a guaranteed confidence", {
  x <- mix(c(1:9, 40)) + 20
  y <- norm_s(10, 5, 1)
  v <- mean_test(x, y, rigorous = FALSE)
  expect_identical(outcome(v), "significant")
  expect_identical(v$branch, "welch_not_normal")
  expect_false(v$confidence_guaranteed)
  expect_identical(step_names(v), c("shapiro_x", "shapiro_y", "f_test", "t_test"))
  expect_true(any(grepl("may not be the correct confidence level", v$caveats)))
  expect_match(v$advice, "more than 30 runs of x")
  # equal variances, not normal, not significant
  x2 <- mix(c(1:9, 40)) + 5
  v2 <- mean_test(x2, x2 + 0.01, rigorous = FALSE)
  expect_identical(v2$branch, "student_not_normal")
  expect_identical(outcome(v2), "not significant")
})

test_that("mean: normal samples take the Student or Welch branch, guaranteed", {
  x <- norm_s(20, 10, 1)
  v <- mean_test(x, norm_s(20, 9, 1))
  expect_identical(v$branch, "student_normal")
  expect_identical(outcome(v), "significant")
  expect_true(v$confidence_guaranteed)
  expect_identical(v$steps$t_test$method, "Two Sample t-test")
  expect_length(v$caveats, 0L)
  expect_length(v$advice, 0L)
  v <- mean_test(x, norm_s(20, 9.9, 1))
  expect_identical(v$branch, "student_normal")
  expect_identical(outcome(v), "not significant")
  v <- mean_test(x, norm_s(25, 9, 0.1))
  expect_identical(v$branch, "welch_normal")
  expect_identical(outcome(v), "significant")
  expect_identical(v$steps$t_test$method, "Welch Two Sample t-test")
  v <- mean_test(x, norm_s(25, 10.2, 0.1))
  expect_identical(v$branch, "welch_normal")
  expect_identical(outcome(v), "not significant")
})

test_that("mean: large non-normal samples go on with a caveat, even rigorous", {
  x <- expo_s(40, 10, 1)
  y <- expo_s(40, 9, 1)
  expect_lt(stats::shapiro.test(x)$p.value, 0.05)
  v <- mean_test(x, y)
  expect_identical(v$branch, "student_not_normal")
  expect_identical(outcome(v), "significant")
  expect_false(v$confidence_guaranteed)
  expect_length(v$advice, 0L)
  v <- mean_test(x, norm_s(40, 9, 0.1))
  expect_identical(v$branch, "welch_not_normal")
})

test_that("mean: one constant sample cannot be checked for normality", {
  y <- norm_s(40, 4, 0.1)
  v <- mean_test(rep(5, 40), y)
  expect_identical(v$branch, "welch_not_normal")
  expect_identical(outcome(v), "significant")
  expect_true(is.na(v$steps$shapiro_x$p.value))
  expect_match(v$steps$shapiro_x$method, "not run: constant sample")
  expect_true(any(grepl("cannot be checked for normality \\(constant sample\\)", v$caveats)))
  ref <- ref_mean_flowchart(rep(5, 40), y, 0.05, TRUE)
  expect_equal(v$p_value, ref$p_value, tolerance = 1e-10)
  # small constant sample: rigorous stop
  expect_identical(mean_test(rep(5, 10), y)$branch, "need_more_runs")
})

test_that("mean: more than 5000 runs cannot be checked but the test goes on", {
  x <- norm_s(5001, 10, 1)
  v <- mean_test(x, norm_s(50, 9.5, 1))
  expect_match(v$steps$shapiro_x$method, "more than 5000 values")
  expect_identical(v$branch, "student_not_normal")
  expect_true(any(grepl("more than 5000 runs", v$caveats)))
})

# ---- every branch of the median flowchart ----------------------------------------

test_that("median: location model accepted, significant or not", {
  x <- norm_s(20, 10, 1)
  v <- median_test(x, x - 1)
  expect_s3_class(v, c("speedup_verdict_median", "speedup_verdict"))
  expect_identical(v$branch, "wilcoxon_model_holds")
  expect_identical(outcome(v), "significant")
  expect_true(v$confidence_guaranteed)
  expect_identical(step_names(v), c("ks_test", "wilcoxon"))
  v <- median_test(x, x - 0.05)
  expect_identical(outcome(v), "not significant")
  expect_identical(v$branch, "wilcoxon_model_holds")
})

test_that("median: model rejected with small samples, rigorous or not", {
  x <- expo_s(20, 10, 2)
  y <- norm_s(20, 8, 0.05)
  expect_lt(ks_test(x - median(x), y - median(y))$p.value, 0.05)
  v <- median_test(x, y)
  expect_identical(v$branch, "need_more_runs")
  expect_identical(outcome(v), "insufficient data")
  expect_identical(step_names(v), "ks_test")
  expect_match(v$advice, "more than 30 runs of x and y")
  v <- median_test(x, y, rigorous = FALSE)
  expect_identical(v$branch, "wilcoxon_model_rejected")
  expect_identical(outcome(v), "significant")
  expect_false(v$confidence_guaranteed)
  expect_true(any(grepl("do not differ by a shift only", v$caveats)))
  # one large and one small sample: the small one gets the advice
  v <- median_test(expo_s(40, 10, 2), y)
  expect_identical(v$branch, "need_more_runs")
  expect_match(v$advice, "more than 30 runs of y$")
})

test_that("median: model rejected with large samples goes on with a caveat", {
  x <- expo_s(40, 10, 2)
  y <- norm_s(40, 12, 0.05)
  v <- median_test(x, y)
  expect_identical(v$branch, "wilcoxon_model_rejected")
  expect_identical(outcome(v), "not significant")
  expect_false(v$confidence_guaranteed)
  expect_length(v$advice, 0L)
})

test_that("median: constant samples", {
  v <- median_test(rep(3, 5), rep(3, 6))
  expect_identical(v$branch, "constant_samples")
  expect_identical(outcome(v), "insufficient data")
  # two different constants are a clear order: the exact conditional
  # rank-sum p-value is 1 / choose(10, 5) (R's normal approximation differs)
  v <- median_test(rep(2, 5), rep(1, 5))
  expect_identical(v$branch, "wilcoxon_model_holds")
  expect_equal(v$p_value, 1 / choose(10, 5), tolerance = 1e-12)
  expect_identical(outcome(v), "significant")
  expect_equal(v$prob_greater, 1)
  expect_equal(as.numeric(v$speedup_ci), c(2, 2))
  # one constant sample: the centred samples differ, model rejected
  expect_identical(median_test(rep(5, 20), norm_s(20, 4, 0.5))$branch, "need_more_runs")
})

# ---- what the verdicts report ----------------------------------------------------

test_that("observed speedups, P[X > Y] and the Hodges-Lehmann intervals match R", {
  set.seed(11)
  for (i in 1:10) {
    x <- round(rlnorm(sample(5:45, 1), log(10), 0.2), if (i <= 5) 8 else 1)
    y <- round(rlnorm(sample(5:45, 1), log(9), 0.2), if (i <= 5) 8 else 1)
    v <- median_test(x, y, rigorous = FALSE)
    w <- mean_test(x, y, rigorous = FALSE)
    sp <- c(min = min(x) / min(y), mean = mean(x) / mean(y),
            median = median(x) / median(y))
    expect_equal(v$speedups, sp, tolerance = 1e-14)
    expect_equal(w$speedups, sp, tolerance = 1e-14)
    expect_equal(v$speedup, sp[["median"]])
    expect_equal(w$speedup, sp[["mean"]])
    pg <- mean(outer(x, y, ">")) + mean(outer(x, y, "==")) / 2
    expect_equal(v$prob_greater, pg, tolerance = 1e-12)
    if (!anyDuplicated(c(x, y)) && !anyDuplicated(outer(x, y, "-"))) {
      # no ties: R's exact Hodges-Lehmann intervals are the reference
      r <- wilcox.test(x, y, conf.int = TRUE)
      expect_equal(v$shift, unname(r$estimate), tolerance = 1e-10)
      expect_equal(as.numeric(v$shift_ci), as.numeric(r$conf.int), tolerance = 1e-10)
      # the speedup's interval is two-sided at 1 - 2 alpha (each end a
      # one-sided 1 - alpha bound), with its Hodges-Lehmann estimate
      rl <- wilcox.test(log(x), log(y), conf.int = TRUE, conf.level = 0.9)
      expect_equal(as.numeric(v$speedup_ci), exp(as.numeric(rl$conf.int)),
                   tolerance = 1e-10)
      expect_equal(attr(v$speedup_ci, "estimate"), exp(unname(rl$estimate)),
                   tolerance = 1e-10)
    } else {
      expect_true(v$speedup_ci[1] <= v$speedup_ci[2])
    }
    expect_equal(attr(v$speedup_ci, "conf.level"), 0.9)
  }
})

# Fieller's pivot at the ends of the interval: (a - rho b)^2 = t^2 (v11 + rho^2 v22).
fieller_pivot <- function(x, y, rho, pooled, alpha) {
  a <- mean(x); b <- mean(y); n <- length(x); m <- length(y)
  if (pooled) {
    sp2 <- ((n - 1) * var(x) + (m - 1) * var(y)) / (n + m - 2)
    v11 <- sp2 / n; v22 <- sp2 / m; df <- n + m - 2
  } else {
    v11 <- var(x) / n; v22 <- var(y) / m; r <- a / b
    df <- (v11 + r^2 * v22)^2 / (v11^2 / (n - 1) + r^4 * v22^2 / (m - 1))
  }
  # two-sided at 1 - 2 alpha: each end a one-sided 1 - alpha bound
  q <- qt(1 - alpha, df)
  ((a - rho * b)^2 - q^2 * (v11 + rho^2 * v22)) / (a^2)
}

test_that("the mean's Fieller interval solves Fieller's equation", {
  set.seed(12)
  for (i in 1:10) {
    x <- rnorm(sample(6:40, 1), 10, 1)
    y <- rnorm(sample(6:40, 1), 9, sample(c(0.2, 1), 1))
    v <- mean_test(x, y, alpha = 0.1)
    if (is.na(v$significant)) next
    pooled <- v$branch %in% c("student_normal", "student_not_normal")
    ci <- as.numeric(v$speedup_ci)
    expect_lt(ci[1], v$speedup)
    expect_gt(ci[2], v$speedup)
    expect_equal(fieller_pivot(x, y, ci, pooled, 0.1), c(0, 0), tolerance = 1e-9)
    expect_identical(attr(v$speedup_ci, "method"), "Fieller")
  }
  # a mean of y indistinguishable from 0: Fieller's set is unbounded,
  # [0, Inf); the significant speedup rejects every ratio up to 1, so the
  # interval printed with it is (1, Inf), open at 1 (R/attainable.R)
  v <- mean_test(c(10, 11, 12, 10.5), c(0.001, 5, 0.002, 0.01), rigorous = FALSE)
  expect_identical(v$direction, "speedup")
  expect_equal(as.numeric(v$speedup_ci), c(1, Inf))
  expect_identical(attr(v$speedup_ci, "open"), c(TRUE, FALSE))
})

test_that("the Fieller interval covers the true ratio of means at the nominal level", {
  # Normal samples, true ratio 12 / 10.  Equal variances (the pooled branch,
  # exact for normal samples) and unequal ones (Welch branch, Satterthwaite
  # degrees of freedom: approximate).  The interval is two-sided at
  # 1 - 2 alpha = 90%.  400 replications each: the standard error of a 90%
  # coverage is 0.015, so [0.86, 0.94] is about +-2.7 SE.
  set.seed(13)
  cover <- function(sd_y, n, m) {
    hits <- replicate(400, {
      v <- mean_test(rnorm(n, 12, 1), rnorm(m, 10, sd_y), rigorous = FALSE)
      ci <- v$speedup_ci
      ci[1] <= 1.2 && 1.2 <= ci[2]
    })
    mean(hits)
  }
  c1 <- cover(1, 10, 10)
  c2 <- cover(2, 8, 25)
  expect_gt(c1, 0.86)
  expect_lt(c1, 0.94)
  expect_gt(c2, 0.86)
  expect_lt(c2, 0.94)
})

# ---- the flowcharts against the stats reference on random benchmarks ----------------

test_that("decisions equal the stats flowcharts on 200 random benchmark pairs", {
  # Differences are legitimate only where the package's exact p-values with
  # ties differ from R's (R 4.2's ks.test and wilcox.test fall back to
  # approximations with ties; the package computes the exact conditional
  # distributions).  Centring at the median makes a tie at 0 whenever n and
  # m are both odd, so the KS p-value of the median protocol often differs.
  # For such cases the reference flowchart is run again with the package's
  # own KS / rank-sum p-values, and must then agree.  A quarter of the pairs
  # are rounded to create ties in the rank-sum test as well.
  set.seed(2013)
  n_diff <- 0L
  for (i in 1:200) {
    n <- sample(5:100, 1)
    m <- sample(5:100, 1)
    shifted <- runif(1) < 0.5
    if (runif(1) < 0.5) {
      x <- rnorm(n, 10, 1)
      y <- rnorm(m, 10 - shifted * runif(1, 0, 1), sample(c(1, 1, 0.5, 2), 1))
    } else {
      x <- rlnorm(n, log(10), 0.3)
      y <- rlnorm(m, log(10) - shifted * runif(1, 0, 0.3), sample(c(0.3, 0.3, 0.6), 1))
    }
    tied <- i %% 4 == 0
    if (tied) {
      x <- round(x, 1)
      y <- round(y, 1)
    }
    alpha <- sample(c(0.01, 0.05, 0.1), 1)
    rigorous <- runif(1) < 0.5
    info <- sprintf("pair %d (n = %d, m = %d, alpha = %g, rigorous = %s)", i, n, m,
                    alpha, rigorous)

    v <- mean_test(x, y, alpha = alpha, rigorous = rigorous)
    r <- ref_mean_flowchart(x, y, alpha, rigorous)
    expect_identical(outcome(v), r$decision, info = info)
    expect_identical(v$branch, r$branch, info = info)
    expect_equal(v$p_value, r$p_value, tolerance = 1e-9, info = info)

    v <- median_test(x, y, alpha = alpha, rigorous = rigorous)
    r <- ref_median_flowchart(x, y, alpha, rigorous)
    xc <- x - median(x)
    yc <- y - median(y)
    if (!anyDuplicated(c(xc, yc)) && !anyDuplicated(c(x, y))) {
      expect_identical(outcome(v), r$decision, info = info)
      expect_identical(v$branch, r$branch, info = info)
      expect_equal(v$p_value, r$p_value, tolerance = 1e-9, info = info)
    } else {
      if (!identical(outcome(v), r$decision) || !identical(v$branch, r$branch)) {
        n_diff <- n_diff + 1L
      }
      ks_p <- ks_test(xc, yc)$p.value
      w_p <- wilcoxon_test(x, y, alternative = "greater")$p.value
      r2 <- ref_median_flowchart(x, y, alpha, rigorous, ks_p = ks_p, w_p = w_p)
      expect_identical(outcome(v), r2$decision, info = info)
      expect_identical(v$branch, r2$branch, info = info)
      expect_equal(v$p_value, r2$p_value, tolerance = 1e-12, info = info)
    }
  }
  # ties change a decision only now and then
  expect_lt(n_diff, 20L)
})

# ---- highest_confidence ------------------------------------------------------------

decide <- function(x, y, alpha, test, rigorous) {
  res <- .Call(speeduptest:::ffi_run_protocol, x, y,
               speeduptest:::protocol_code(test), FALSE, alpha, rigorous, 0L)
  res$decision == 1L
}

exact_alpha <- function(x, y, test, rigorous) {
  .Call(speeduptest:::ffi_highest_confidence, as.double(x), as.double(y),
        speeduptest:::protocol_code(test), rigorous)$alpha
}

test_that("highest_confidence is exact and agrees with a brute-force scan of alpha", {
  set.seed(14)
  grid <- seq(0.0025, 0.5, by = 0.0025)
  for (i in 1:20) {
    n <- sample(c(8:25, 31:60), 1)
    m <- sample(c(8:25, 31:60), 1)
    x <- if (i %% 2) rnorm(n, 10, 1) else rlnorm(n, log(10), 0.4)
    y <- if (i %% 3) rnorm(m, 9.6, runif(1, 0.3, 2)) else rlnorm(m, log(9.5), 0.4)
    for (test in c("mean", "median")) {
      for (rigorous in c(TRUE, FALSE)) {
        info <- sprintf("case %d, %s, rigorous = %s", i, test, rigorous)
        a <- exact_alpha(x, y, test, rigorous)
        hc <- highest_confidence(x, y, test = test, rigorous = rigorous)
        sig <- vapply(grid, function(al) decide(x, y, al, test, rigorous), NA)
        if (is.na(a)) {
          expect_true(is.na(hc), info = info)
          expect_false(any(sig), info = info)
          expect_false(decide(x, y, 0.5, test, rigorous), info = info)
        } else {
          expect_equal(as.numeric(hc), 1 - a, info = info)
          expect_true(a > 0 && a <= 0.5, info = info)
          # significant exactly at the breakpoint, not just below it
          expect_true(decide(x, y, a, test, rigorous), info = info)
          expect_false(decide(x, y, a * (1 - 1e-9), test, rigorous), info = info)
          # the scan never finds a significant alpha below the exact one
          expect_false(any(sig[grid < a]), info = info)
          if (any(sig)) expect_gte(min(grid[sig]), a)
        }
      }
    }
  }
})

test_that("highest_confidence: breakpoints at the sub-tests' p-values", {
  # rigorous median with small samples: significant only for
  # p_wilcoxon <= alpha < p_ks
  x <- expo_s(20, 10, 2)
  y <- norm_s(20, 8, 0.3)
  ks_p <- ks_test(x - median(x), y - median(y))$p.value
  w_p <- wilcoxon_test(x, y, alternative = "greater")$p.value
  expect_lt(w_p, ks_p)
  expect_equal(exact_alpha(x, y, "median", TRUE), w_p)
  # NA when the protocol cannot conclude for any alpha, or never significant
  expect_true(is.na(highest_confidence(c(1, 2), 1:5)))
  expect_true(is.na(highest_confidence(rep(1, 5), rep(1, 5), test = "mean")))
  expect_true(is.na(highest_confidence(norm_s(10, 10, 1), norm_s(10, 11, 1))))
  # mean: the final p-value switches between Welch and Student at the
  # F-test's p-value
  x <- norm_s(12, 10, 1)
  y <- norm_s(12, 9.3, 1.9)
  pf <- var.test(x, y)$p.value
  a <- exact_alpha(x, y, "mean", TRUE)
  p_student <- t.test(x, y, alternative = "greater", var.equal = TRUE)$p.value
  p_welch <- t.test(x, y, alternative = "greater")$p.value
  expect_true(any(abs(a - c(p_student, p_welch, pf)) < 1e-12))
  # formula form
  runs <- data.frame(time = c(x, y),
                     version = factor(rep(c("old", "new"), each = 12), c("old", "new")))
  expect_equal(highest_confidence(time ~ version, data = runs, test = "mean"),
               highest_confidence(x, y, test = "mean"))
})

# ---- the formula interface --------------------------------------------------------

test_that("formula and data frame: the first level is the initial code", {
  x <- norm_s(15, 10, 1)
  y <- norm_s(15, 9, 1)
  runs <- data.frame(time = c(y, x), version = factor(rep(c("new", "old"), each = 15),
                                                       levels = c("old", "new")))
  v <- median_test(time ~ version, data = runs)
  w <- median_test(x, y)
  expect_identical(v$decision, w$decision)
  expect_equal(v$p_value, w$p_value)
  expect_identical(v$labels, c("old", "new"))
  expect_identical(v$data_name, "time by version (old vs new)")
  expect_equal(mean_test(time ~ version, data = runs)$p_value, mean_test(x, y)$p_value)
  # character grouping: the order of first appearance, not alphabetical
  runs2 <- data.frame(time = c(y, x), version = rep(c("b", "a"), each = 15))
  expect_identical(median_test(time ~ version, data = runs2)$labels, c("b", "a"))
  expect_equal(median_test(time ~ version, data = runs2)$p_value,
               median_test(y, x)$p_value)
  expect_equal(median_test(time ~ version, data = runs2, initial = "a")$p_value,
               w$p_value)
  # from the formula's environment
  time <- c(x, y)
  version <- rep(1:2, each = 15)
  expect_equal(mean_test(time ~ version)$p_value, mean_test(x, y)$p_value)
  expect_identical(mean_test(time ~ version)$call[[1]], quote(mean_test))
})

# ---- bad input ----------------------------------------------------------------------

test_that("bad input gives classed errors that name the argument", {
  err <- "speeduptest_error_input"
  expect_error(mean_test("a", 1:5), class = err)
  expect_error(mean_test(1:5, list(1)), class = err)
  expect_error(median_test(c(1, NA, 3), 1:5), "na_rm", class = err)
  expect_error(median_test(c(1, Inf, 3), 1:5), "finite", class = err)
  expect_error(median_test(c(1, 0, 3), 1:5), "positive", class = err)
  expect_error(mean_test(1:5, c(-1, 2, 3)), "`y`", class = err)
  expect_error(mean_test(1:5, 1:5, alpha = 0), "alpha", class = err)
  expect_error(mean_test(1:5, 1:5, alpha = 1), "alpha", class = err)
  expect_error(mean_test(1:5, 1:5, alpha = NA), "alpha", class = err)
  expect_error(mean_test(1:5, 1:5, alpha = c(0.1, 0.2)), "alpha", class = err)
  expect_error(mean_test(1:5, 1:5, rigorous = NA), "rigorous", class = err)
  expect_error(mean_test(1:5, 1:5, na_rm = "yes"), "na_rm", class = err)
  expect_error(mean_test(1:5, 1:5, conf_level = 0.9), "conf_level", class = err)
  expect_error(mean_test(1:5), "`y` is missing", class = err)
  expect_error(highest_confidence(1:5, 1:5, test = "min"), "test", class = err)
  expect_error(highest_confidence(1:5), "`y` is missing", class = err)
  d <- data.frame(time = 1:9, version = rep(c("a", "b", "c"), 3))
  expect_error(median_test(time ~ version, data = d), "exactly 2 levels",
               class = "speeduptest_error_data")
  d$time <- letters[1:9]
  expect_error(median_test(time ~ version, data = d), "numeric", class = err)
  expect_error(median_test(time ~ nope, data = d), "nope", class = err)
  expect_error(median_test(~ version, data = d), "formula", class = err)
  expect_error(median_test(time ~ version, data = "d"), "data", class = err)
  d <- data.frame(time = 1:6, version = c("a", "b", NA, "a", "b", "a"))
  expect_error(median_test(time ~ version, data = d), "missing", class = err)
  expect_identical(median_test(time ~ version, data = d, na_rm = TRUE)$n, 3L)
})

test_that("na_rm = TRUE drops missing values", {
  x <- c(norm_s(10, 10, 1), NA)
  v <- mean_test(x, norm_s(10, 9, 1), na_rm = TRUE)
  expect_identical(v$n, 10L)
  expect_equal(v$p_value, mean_test(x[1:10], norm_s(10, 9, 1))$p_value)
  expect_identical(outcome(median_test(c(1, NA, NA), 1:5, na_rm = TRUE)),
                   "insufficient data")
})

test_that("observed_speedups() gives the min, mean and median ratios", {
  set.seed(11)
  for (i in 1:50) {
    x <- rlnorm(sample(1:60, 1), 1, 0.3)
    y <- rlnorm(sample(1:60, 1), 0.9, 0.3)
    s <- observed_speedups(x, y)
    expect_named(s, c("min", "mean", "median"))
    expect_equal(unname(s), c(min(x) / min(y), mean(x) / mean(y),
                              median(x) / median(y)), tolerance = 1e-14)
    if (length(x) >= 3 && length(y) >= 3) {
      expect_equal(s, median_test(x, y)$speedups, tolerance = 1e-14)
    }
  }
  runs <- data.frame(time = c(4, 5, 6, 2, 3, 3.5),
                     version = factor(rep(c("old", "new"), each = 3), c("old", "new")))
  expect_equal(observed_speedups(time ~ version, data = runs),
               c(min = 2, mean = 5 / mean(c(2, 3, 3.5)), median = 5 / 3))
  expect_error(observed_speedups(c(1, 0), 1:3), class = "speeduptest_error_input",
               regexp = "`x`")
  expect_error(observed_speedups(1:3), class = "speeduptest_error_input", regexp = "`y`")
  expect_error(observed_speedups(c(1, NA), 1:3), regexp = "na_rm")
  expect_equal(observed_speedups(c(2, NA), c(1, 1), na_rm = TRUE)[["mean"]], 2)
})

# ---- direction: speedup, slowdown, none ---------------------------------------------

test_that("the slowdown comes from the mirrored test on the same path", {
  set.seed(31)
  x <- rlnorm(40, log(10), 0.05)
  y <- rlnorm(40, log(11.2), 0.05)            # 12 % slower
  for (test in list(mean_test, median_test)) {
    v <- test(x, y)
    expect_identical(v$direction, "slowdown")
    expect_false(v$significant)
    expect_identical(outcome(v), "not significant")
    expect_lt(v$speedup, 1)
    expect_lt(v$speedup_ci[2], 1)
    # the mirrored test is the speedup test of the swapped samples
    expect_equal(v$p_value_slowdown, test(y, x)$p_value)
    expect_identical(test(y, x)$direction, "speedup")
    expect_identical(test(x, x * 1.0001)$direction, "none")
  }
  # against R: t.test's and wilcox.test's other tail
  v <- mean_test(x, y)
  ref <- stats::t.test(x, y, alternative = "less", var.equal = v$branch == "student_normal")
  expect_equal(v$p_value_slowdown, ref$p.value, tolerance = 1e-10)
  w <- median_test(x, y)
  expect_equal(w$p_value_slowdown,
               stats::wilcox.test(x, y, alternative = "less", exact = TRUE)$p.value,
               tolerance = 1e-12)
  # insufficient data: no direction
  expect_identical(median_test(1:2, 1:5)$direction, NA_character_)
  expect_identical(mean_test(rep(1, 5), rep(1, 5))$direction, NA_character_)
})

test_that("the mirrored rank-sum test is exact with ties when the speedup test is", {
  x <- mix(c(rep(10, 8), rep(11, 8), rep(12, 8), rep(13, 8)))
  y <- mix(c(rep(11, 8), rep(12, 8), rep(13, 8), rep(14, 8)))
  v <- median_test(x, y, rigorous = FALSE)
  expect_true(v$steps$wilcoxon$exact)
  expect_equal(v$p_value_slowdown, median_test(y, x, rigorous = FALSE)$p_value)
  # brute force over a subsample small enough to enumerate
  xs <- c(10, 11, 11, 12)
  ys <- c(11, 12, 12, 13, 13)
  all <- c(xs, ys)
  r <- rank(all)
  w_obs <- sum(r[1:4]) - 10
  w_all <- apply(utils::combn(9, 4), 2, function(ix) sum(r[ix]) - 10)
  v <- median_test(xs, ys, rigorous = FALSE)
  expect_true(v$steps$wilcoxon$exact)
  expect_equal(v$p_value_slowdown, mean(w_all <= w_obs + 1e-9))
})

test_that("highest_confidence() keeps its meaning: speedups only", {
  set.seed(32)
  x <- rlnorm(40, log(10), 0.05)
  y <- rlnorm(40, log(11.2), 0.05)
  expect_true(is.na(highest_confidence(x, y)))
  expect_gt(highest_confidence(y, x), 0.999)
})

# ---- the baseline -------------------------------------------------------------------

test_that("the reversed-baseline trap: \"old\"/\"new\" keep the order of the data", {
  set.seed(33)
  old <- rlnorm(35, log(10), 0.05)
  new <- rlnorm(35, log(9), 0.05)
  runs <- data.frame(time = c(old, new), version = rep(c("old", "new"), each = 35))
  v <- median_test(time ~ version, data = runs)
  expect_identical(v$labels, c("old", "new"))
  expect_identical(v$direction, "speedup")
  expect_identical(v$baseline, "\"old\" (first in the data)")
  expect_gt(v$speedup, 1)
  m <- mean_test(time ~ version, data = runs)
  expect_identical(m$direction, "speedup")
  expect_equal(observed_speedups(time ~ version, data = runs),
               observed_speedups(old, new))
  expect_equal(highest_confidence(time ~ version, data = runs),
               highest_confidence(old, new))
  # initial = picks the other one
  w <- median_test(time ~ version, data = runs, initial = "new")
  expect_identical(w$labels, c("new", "old"))
  expect_identical(w$direction, "slowdown")
  expect_identical(w$baseline, "\"new\" (initial =)")
  expect_equal(highest_confidence(time ~ version, data = runs, initial = "new", test = "mean"),
               highest_confidence(new, old, test = "mean"))
  expect_error(median_test(time ~ version, data = runs, initial = "newer"),
               "\"old\", \"new\"", class = "speeduptest_error_input")
  # a factor keeps its levels
  runs$version <- factor(runs$version, levels = c("new", "old"))
  f <- median_test(time ~ version, data = runs)
  expect_identical(f$baseline, "\"new\" (first level of the factor)")
  expect_identical(median_test(old, new)$baseline, "`old` (first argument)")
})

test_that("timings methods pick the benchmark and the versions", {
  set.seed(34)
  nst <- speeduptest:::new_speedup_timings
  t <- nst(rep(c("parse", "eval"), each = 60),
           rep(rep(c("v1", "v2", "v3"), each = 20), 2),
           rlnorm(120, log(10), 0.05))
  expect_error(median_test(t), "\"parse\", \"eval\"", class = "speeduptest_error_input")
  expect_error(median_test(t, benchmark = "parse"), "versions =",
               class = "speeduptest_error_data")
  expect_error(median_test(t, benchmark = "parse", initial = "v1"), "\"v1\", \"v2\", \"v3\"")
  expect_error(median_test(t, benchmark = "nope"), "\"parse\", \"eval\"")
  expect_error(median_test(t, benchmark = "parse", versions = c("v1", "v9")), "versions")
  v <- median_test(t, benchmark = "eval", versions = c("v3", "v1"))
  sel <- t[t$benchmark == "eval", ]
  expect_equal(v$x, sel$time[sel$version == "v3"])
  expect_equal(v$y, sel$time[sel$version == "v1"])
  expect_equal(v$p_value, median_test(v$x, v$y)$p_value)
  expect_identical(v$baseline, "\"v3\" (versions =)")
  expect_identical(v$labels, c("v3", "v1"))
  two <- t[t$benchmark == "parse" & t$version != "v3", ]
  two$version <- droplevels(two$version)
  m <- mean_test(two)
  expect_match(m$baseline, "^\"v1\" \\(first version in the timings\\)$")
  expect_identical(mean_test(two, initial = "v2")$labels, c("v2", "v1"))
  expect_equal(highest_confidence(two, initial = "v2"),
               highest_confidence(two$time[two$version == "v2"],
                                  two$time[two$version == "v1"]))
  expect_equal(observed_speedups(t, benchmark = "eval", versions = c("v1", "v2")),
               observed_speedups(sel$time[sel$version == "v1"], sel$time[sel$version == "v2"]))
  # runs sorted into recorded order
  shuffled <- two[c(40:1), ]
  expect_equal(median_test(shuffled)$x, two$time[two$version == "v1"])
})

test_that("the observed minimum and median ratios are the sorted samples' at every size", {
  set.seed(12)
  for (n in c(1:5, 15:18, 47:50, 101, 1000, 5001, 20000)) {
    for (ties in c(FALSE, TRUE)) {
      x <- rlnorm(n, 1, 0.3)
      y <- rlnorm(n + 1L, 0.9, 0.3)
      if (ties) {
        x <- round(x, 1) + 0.1
        y <- round(y, 1) + 0.1
      }
      # sorted and reversed inputs: the worst orders for a naive selection
      for (xx in list(x, sort(x), rev(sort(x)))) {
        s <- observed_speedups(xx, y)
        xs <- sort(xx)
        ys <- sort(y)
        med <- function(v) {
          h <- length(v) %/% 2
          if (length(v) %% 2) v[h + 1] else (v[h] + v[h + 1]) / 2
        }
        expect_identical(s[["min"]], xs[1] / ys[1])
        expect_identical(s[["median"]], med(xs) / med(ys))
      }
    }
  }
})

test_that("a data frame of runs points to the formula or as_timings()", {
  d <- data.frame(benchmark = "b", version = rep(c("old", "new"), each = 5),
                  time = c(1, 1.1, 1.2, 1.05, 1.15, 0.9, 0.95, 1, 0.92, 0.97))
  for (f in list(median_test, mean_test)) {
    err <- tryCatch(f(d), error = function(e) e)
    expect_s3_class(err, "speeduptest_error_argument")
    expect_match(conditionMessage(err), "time ~ version", fixed = TRUE)
    expect_match(conditionMessage(err), "as_timings(d)", fixed = TRUE)
    expect_no_match(conditionMessage(err), "`y` is missing", fixed = TRUE)
  }
  # what it points to works
  expect_equal(median_test(time ~ version, data = d)$p_value,
               median_test(as_timings(d))$p_value)
})

test_that("seconds mixed with milliseconds give a plausibility warning", {
  set.seed(41)
  s <- rlnorm(20, log(0.9), 0.02)            # seconds
  ms <- rlnorm(20, log(0.9), 0.02) * 1000     # the same code in milliseconds
  expect_warning(v <- median_test(s, ms), class = "speeduptest_warning_implausible")
  expect_lt(v$speedup, 0.01)
  expect_warning(median_test(ms, s), "same unit",
                 class = "speeduptest_warning_implausible")
  expect_warning(mean_test(ms, s), class = "speeduptest_warning_implausible")
  # a plausible change says nothing of units
  expect_no_warning(median_test(s, s * 0.5))
  expect_no_warning(median_test(s, s / 50))
})
