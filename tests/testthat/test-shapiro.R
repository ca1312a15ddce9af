# shapiro_wilk(): Royston's AS R94, the algorithm of stats::shapiro.test.

test_that("W and p agree with shapiro.test on 1,200 random samples", {
  set.seed(20261121)
  draw <- list(
    normal = function(n) rnorm(n, 10, 2),
    lognormal = function(n) rlnorm(n, 0, 0.7),
    uniform = function(n) runif(n),
    ties = function(n) round(rnorm(n), 1),
    heavy_ties = function(n) sample(c(1, 1, 2, 3, 5), n, replace = TRUE),
    timer = function(n) 1000 + round(rexp(n), 2)
  )
  worst_w <- worst_p <- 0
  done <- 0L
  for (i in seq_len(1200)) {
    n <- if (i %% 5 == 0) sample(3:12, 1) else round(exp(runif(1, log(3), log(3000))))
    x <- draw[[1 + i %% length(draw)]](n)
    if (length(unique(x)) < 2) next
    r <- shapiro.test(x)
    s <- shapiro_wilk(x)
    worst_w <- max(worst_w, rel_diff(s$statistic, r$statistic))
    worst_p <- max(worst_p, rel_diff(s$p.value, r$p.value))
    done <- done + 1L
  }
  expect_gt(done, 1150)
  expect_lt(worst_w, 1e-10)
  expect_lt(worst_p, 1e-10)
})

test_that("the extreme sizes and n = 3 agree with shapiro.test", {
  set.seed(7)
  for (x in list(c(1, 2, 4), c(1, 1, 2), c(3, 1, 2), rnorm(3), c(0, 0, 0, 1),
                 rnorm(4), rexp(5), rnorm(11), rnorm(12), rnorm(5000),
                 rlnorm(5000), round(runif(5000), 2))) {
    r <- shapiro.test(x)
    s <- shapiro_wilk(x)
    expect_lt(rel_diff(s$statistic, r$statistic), 1e-10)
    expect_lt(rel_diff(s$p.value, r$p.value), 1e-10)
  }
  # n = 3 with W = 3/4 (two equal values) sits at the bottom of the exact
  # distribution: p = 0.
  expect_identical(shapiro_wilk(c(1, 1, 2))$p.value, 0)
  expect_true(shapiro_wilk(c(1, 2, 4))$exact)
  expect_false(shapiro_wilk(1:10 + 0.5)$exact)
})

test_that("the htest object has shapiro.test's fields", {
  x <- c(2.799, 2.046, 1.259, 1.877, 2.244)
  s <- shapiro_wilk(x)
  r <- shapiro.test(x)
  expect_s3_class(s, c("speeduptest_htest", "htest"))
  expect_named(s$statistic, "W")
  expect_identical(s$method, r$method)
  expect_identical(s$data.name, "x")
  expect_output(print(s), "W = 0.98619, p-value = 0.9647")
})

test_that("the 2009 report's Example 2.1: W = 0.9862, p = 0.9647 for T1 and T2", {
  # Touati et al. (2009) print the same result for both vectors: T2 is T1
  # shifted by -1 (and reordered), and W is location- and order-invariant.
  T1 <- c(2.799, 2.046, 1.259, 1.877, 2.244)
  T2 <- c(1.046, 0.259, 0.877, 1.244, 1.799)
  for (s in list(shapiro_wilk(T1), shapiro_wilk(T2))) {
    expect_equal(round(unname(s$statistic), 4), 0.9862)
    expect_equal(round(s$p.value, 4), 0.9647)
  }
  # the paper's table check: W >= 0.986, the 5 % critical value for n = 5
  expect_gte(unname(shapiro_wilk(T1)$statistic), 0.986)
})

test_that("W is invariant to location, scale and order", {
  set.seed(3)
  x <- rgamma(40, 2)
  w <- shapiro_wilk(x)
  v <- shapiro_wilk(rev(5 + 1e3 * x))
  expect_equal(unname(v$statistic), unname(w$statistic), tolerance = 1e-12)
  expect_equal(v$p.value, w$p.value, tolerance = 1e-10)
})

test_that("input errors are classed and name the argument", {
  expect_error(shapiro_wilk("a"), class = "speeduptest_error_input", regexp = "`x`")
  expect_error(shapiro_wilk(c(1, 2, NA, 4)), class = "speeduptest_error_input",
               regexp = "`x`.*na_rm")
  expect_equal(shapiro_wilk(c(1, 2, NA, 4), na_rm = TRUE)$p.value,
               shapiro.test(c(1, 2, 4))$p.value, tolerance = 1e-12)
  expect_error(shapiro_wilk(c(1, 2, Inf, 4)), class = "speeduptest_error_input",
               regexp = "`x`")
  expect_error(shapiro_wilk(c(1, 2)), class = "speeduptest_error_data", regexp = "`x`")
  expect_error(shapiro_wilk(rnorm(5001)), class = "speeduptest_error_data",
               regexp = "`x`.*5000")
  expect_error(shapiro_wilk(rep(2.5, 10)), class = "speeduptest_error_data",
               regexp = "`x`.*equal")
  expect_error(shapiro_wilk(1:5, na_rm = NA), class = "speeduptest_error_input",
               regexp = "`na_rm`")
})

test_that("n = 5000, the largest size, is fast", {
  set.seed(11)
  x <- rnorm(5000)
  t0 <- proc.time()[["elapsed"]]
  for (i in 1:20) s <- shapiro_wilk(x)
  expect_lt(proc.time()[["elapsed"]] - t0, 2)
  expect_gt(s$p.value, 0)
})
