# t_test() and t_test_summary(): Student's and Welch's tests, twins of
# stats::t.test and scipy.stats.ttest_ind_from_stats.

# Largest relative difference over the numeric fields of two t tests.  The
# interval ends are compared relative to |end| + stderr: an end close to 0
# is a difference of two nearly equal numbers, whose relative error says
# nothing about the test.
t_diff <- function(s, r) {
  c(statistic = rel_diff(s$statistic, r$statistic),
    df = rel_diff(s$parameter, r$parameter),
    p = rel_diff(s$p.value, r$p.value),
    conf = rel_diff(s$conf.int, r$conf.int, scale = r$stderr),
    estimate = rel_diff(s$estimate, r$estimate),
    stderr = rel_diff(s$stderr, r$stderr))
}

draw <- list(
  normal = function(n) rnorm(n, 10, 2),
  lognormal = function(n) rlnorm(n, 0, 0.7),
  uniform = function(n) runif(n, 1, 1.1),
  ties = function(n) sample(c(1.1, 1.2, 1.3), n, replace = TRUE)
)
alts <- c("two.sided", "less", "greater")

test_that("two-sample t_test agrees with t.test on 1,500 random cases", {
  set.seed(20261123)
  worst <- 0
  done <- 0L
  for (i in seq_len(1500)) {
    var_equal <- i %% 2 == 0
    lo <- if (var_equal) 1 else 2
    n <- max(lo, round(exp(runif(1, 0, log(3000)))))
    m <- max(lo, round(exp(runif(1, 0, log(3000)))))
    if (n + m < 3) m <- 2
    x <- draw[[1 + i %% 4]](n)
    y <- draw[[1 + (i %/% 4) %% 4]](m) + sample(c(0, 0.5), 1)
    alt <- alts[1 + (i %/% 2) %% 3]
    mu <- if (i %% 3 == 0) 0 else rnorm(1, 0, 0.5)
    cl <- sample(c(0.5, 0.9, 0.95, 0.99), 1)
    r <- tryCatch(t.test(x, y, alternative = alt, mu = mu, var.equal = var_equal,
                         conf.level = cl), error = function(e) NULL)
    if (is.null(r)) {
      # R's "data are essentially constant": so is ours
      expect_error(t_test(x, y, alternative = alt, mu = mu, var_equal = var_equal,
                          conf_level = cl), class = "speeduptest_error_data")
      next
    }
    s <- t_test(x, y, alternative = alt, mu = mu, var_equal = var_equal,
                conf_level = cl)
    worst <- max(worst, t_diff(s, r))
    done <- done + 1L
  }
  expect_gt(done, 1400)
  expect_lt(worst, 1e-10)
})

test_that("one-sample t_test (y = NULL) agrees with t.test on 500 cases", {
  set.seed(99)
  worst <- 0
  for (i in seq_len(500)) {
    n <- round(exp(runif(1, log(2), log(3000))))
    x <- draw[[1 + i %% 3]](n)
    mu <- if (i %% 2) 0 else mean(x) + rnorm(1)
    alt <- alts[1 + i %% 3]
    r <- t.test(x, alternative = alt, mu = mu)
    s <- t_test(x, alternative = alt, mu = mu)
    worst <- max(worst, t_diff(s, r))
  }
  expect_lt(worst, 1e-10)
  s <- t_test(c(1.2, 3.4, 2.2), mu = 1)
  r <- t.test(c(1.2, 3.4, 2.2), mu = 1)
  expect_identical(s$method, r$method)
  expect_identical(names(s$estimate), "mean of x")
  expect_identical(s$null.value, r$null.value)
  expect_identical(s$data.name, "c(1.2, 3.4, 2.2)")
})

test_that("the htest object has t.test's fields, names and methods", {
  x <- c(2.799, 2.046, 1.259, 1.877, 2.244)
  y <- c(1.046, 0.259, 0.877, 1.244, 1.799, 1.5)
  for (ve in c(TRUE, FALSE)) {
    s <- t_test(x, y, alternative = "l", mu = 0.5, var_equal = ve, conf_level = 0.9)
    r <- t.test(x, y, alternative = "less", mu = 0.5, var.equal = ve, conf.level = 0.9)
    expect_s3_class(s, c("speeduptest_htest", "htest"))
    expect_setequal(setdiff(names(s), "exact"), names(r))
    for (f in c("statistic", "parameter", "conf.int", "estimate", "null.value")) {
      expect_identical(names(s[[f]]), names(r[[f]]))
    }
    expect_identical(attributes(s$conf.int), attributes(r$conf.int))
    expect_identical(s[c("alternative", "method", "data.name")],
                     r[c("alternative", "method", "data.name")])
  }
  expect_identical(t_test(x, y, var_equal = TRUE)$method, " Two Sample t-test")
  expect_identical(t_test(x, y)$method, "Welch Two Sample t-test")
})

test_that("t_test_summary equals t_test on the same data", {
  set.seed(4)
  worst <- 0
  for (i in seq_len(300)) {
    x <- rlnorm(sample(2:200, 1))
    y <- rlnorm(sample(2:200, 1), 0.2)
    ve <- i %% 2 == 0
    alt <- alts[1 + i %% 3]
    mu <- if (i %% 4) 0 else 0.1
    s <- t_test_summary(mean(x), sd(x), length(x), mean(y), sd(y), length(y),
                        alternative = alt, mu = mu, var_equal = ve)
    d <- t_test(x, y, alternative = alt, mu = mu, var_equal = ve)
    # sd() rounds sqrt(var()); squaring it back costs a few ulps.
    worst <- max(worst, t_diff(s, d))
    expect_identical(s$method, d$method)
  }
  expect_lt(worst, 1e-12)
  expect_match(t_test_summary(1, 0.5, 10, 2, 0.5, 12)$data.name, "n 10.*n 12")
})

test_that("the 2009 report's Example 2.1: one-sided Student intervals at 99 % and 95 %", {
  # Touati et al. (2009) print [-0.02, +inf] at 99 % (so no speedup can be
  # claimed) and [0.34, +inf] at 95 %; the interval of mean(T1) - mean(T2).
  # The paper's -0.02 is -0.0257 cut to two decimals (truncated, not rounded).
  T1 <- c(2.799, 2.046, 1.259, 1.877, 2.244)
  T2 <- c(1.046, 0.259, 0.877, 1.244, 1.799)
  ci99 <- t_test(T1, T2, alternative = "greater", var_equal = TRUE,
                 conf_level = 0.99)$conf.int
  ci95 <- t_test(T1, T2, alternative = "greater", var_equal = TRUE,
                 conf_level = 0.95)$conf.int
  expect_equal(trunc(ci99[1] * 100) / 100, -0.02)
  expect_lt(ci99[1], 0)
  expect_equal(round(ci95[1], 2), 0.34)
  expect_identical(c(ci99[2], ci95[2]), c(Inf, Inf))
  # the same from the summary figures
  s <- t_test_summary(mean(T1), sd(T1), 5, mean(T2), sd(T2), 5,
                      alternative = "greater", var_equal = TRUE, conf_level = 0.95)
  expect_equal(round(s$conf.int[1], 2), 0.34)
})

test_that("the blog's Welch and summary-statistics p-values", {
  # statistics-for-performance blog, scipy.stats.ttest_ind(equal_var = FALSE)
  # and ttest_ind_from_stats (with equal_var = False: the pooled test gives
  # 7.4e-7, not the printed 1.6e-4).
  setBuf <- c(0.09, 0.12, 0.12, 0.10, 0.09)
  memset <- c(0.03, 0.03, 0.03, 0.03, 0.03)
  expect_equal(signif(t_test(setBuf, memset)$p.value, 12), 0.000400683895549)
  expect_equal(signif(t_test_summary(0.104, 0.012, 5, 0.03, 0, 5)$p.value, 12),
               0.000160299988656)
  setBuf <- c(0.030776, 0.031715, 0.030640, 0.030457, 0.030453)
  memset <- c(0.034914, 0.032352, 0.030277, 0.030767, 0.030747)
  expect_equal(signif(t_test(setBuf, memset)$p.value, 12), 0.311610406138)
})

test_that("constant data are a classed data error, as R's 'essentially constant'", {
  expect_error(t_test(c(2, 2, 2), c(2, 2)), class = "speeduptest_error_data",
               regexp = "constant")
  expect_error(t_test(c(2, 2, 2), c(3, 3), var_equal = TRUE),
               class = "speeduptest_error_data", regexp = "`x` and `y`")
  expect_error(t_test(c(0, 0), c(0, 0, 0)), class = "speeduptest_error_data")
  expect_error(t_test(rep(1e6, 4)), class = "speeduptest_error_data", regexp = "`x`")
  expect_error(t_test_summary(1, 0, 5, 2, 0, 5), class = "speeduptest_error_data",
               regexp = "`sd_x` and `sd_y`")
  # one constant sample is fine (the blog's memset)
  expect_equal(t_test(c(1, 2, 4), c(3, 3, 3))$p.value,
               t.test(c(1, 2, 4), c(3, 3, 3))$p.value, tolerance = 1e-12)
})

test_that("input errors are classed and name the argument", {
  x <- c(1.2, 2.3, 1.9, 3.1)
  y <- c(0.5, 0.9, 1.4)
  expect_error(t_test("a", y), class = "speeduptest_error_input", regexp = "`x`")
  expect_error(t_test(x, factor(1:3)), class = "speeduptest_error_input", regexp = "`y`")
  expect_error(t_test(c(x, NA), y), class = "speeduptest_error_input",
               regexp = "`x`.*na_rm")
  expect_equal(t_test(c(x, NA), c(NA, y), na_rm = TRUE)$p.value,
               t.test(x, y)$p.value, tolerance = 1e-12)
  expect_error(t_test(x, c(y, Inf)), class = "speeduptest_error_input",
               regexp = "`y`.*finite")
  expect_error(t_test(x, 1), class = "speeduptest_error_data", regexp = "`y`.*at least 2")
  expect_error(t_test(1), class = "speeduptest_error_data", regexp = "`x`")
  expect_error(t_test(1, 2, var_equal = TRUE), class = "speeduptest_error_data",
               regexp = "at least 3")
  expect_equal(t_test(1, y, var_equal = TRUE)$p.value,
               t.test(1, y, var.equal = TRUE)$p.value, tolerance = 1e-12)
  expect_error(t_test(x, y, conf_level = 0), class = "speeduptest_error_input",
               regexp = "`conf_level`")
  expect_error(t_test(x, y, conf_level = "0.9"), class = "speeduptest_error_input",
               regexp = "`conf_level`")
  expect_error(t_test(x, y, mu = NA), class = "speeduptest_error_input", regexp = "`mu`")
  expect_error(t_test(x, y, var_equal = "yes"), class = "speeduptest_error_input",
               regexp = "`var_equal`")
  expect_error(t_test(x, y, alternative = "up"), class = "speeduptest_error_input",
               regexp = "`alternative`")
  expect_error(t_test_summary("1", 1, 5, 2, 1, 5), class = "speeduptest_error_input",
               regexp = "`mean_x`")
  expect_error(t_test_summary(1, -1, 5, 2, 1, 5), class = "speeduptest_error_input",
               regexp = "`sd_x`")
  expect_error(t_test_summary(1, 1, 5, 2, Inf, 5), class = "speeduptest_error_input",
               regexp = "`sd_y`")
  expect_error(t_test_summary(1, 1, 4.5, 2, 1, 5), class = "speeduptest_error_input",
               regexp = "`n_x`")
  expect_error(t_test_summary(1, 1, 5, 2, 1, 1), class = "speeduptest_error_data",
               regexp = "`n_y`")
  expect_error(t_test_summary(1, 1, 5, 2, 1, 5, conf_level = 2),
               class = "speeduptest_error_input", regexp = "`conf_level`")
})

test_that("n = 1e6 works and is fast", {
  set.seed(10)
  x <- rlnorm(1e6)
  y <- rlnorm(1e6, 0.001)
  t0 <- proc.time()[["elapsed"]]
  s <- t_test(x, y, alternative = "greater")
  expect_lt(proc.time()[["elapsed"]] - t0, 2)
  r <- t.test(x, y, alternative = "greater")
  expect_lt(max(t_diff(s, r)), 1e-10)
})
