# f_test(): the F test of a ratio of variances, twin of stats::var.test.

test_that("f_test agrees with var.test on 1,200 random cases", {
  set.seed(20261122)
  draw <- list(
    function(n) rnorm(n, 5, 3),
    function(n) rlnorm(n, 1, 0.5),
    function(n) runif(n, 10, 11),
    function(n) round(rnorm(n, 100, 2))
  )
  alts <- c("two.sided", "less", "greater")
  worst <- c(statistic = 0, parameter = 0, p = 0, conf = 0, estimate = 0)
  for (i in seq_len(1200)) {
    n <- round(exp(runif(1, log(2), log(2000))))
    m <- round(exp(runif(1, log(2), log(2000))))
    x <- draw[[1 + i %% 4]](n)
    y <- draw[[1 + (i %/% 4) %% 4]](m)
    if (var(x) == 0 || var(y) == 0) next
    alt <- alts[1 + i %% 3]
    ratio <- if (i %% 2) 1 else exp(rnorm(1))
    cl <- sample(c(0.8, 0.9, 0.95, 0.99, 0.999), 1)
    r <- var.test(x, y, ratio = ratio, alternative = alt, conf.level = cl)
    s <- f_test(x, y, ratio = ratio, alternative = alt, conf_level = cl)
    worst["statistic"] <- max(worst["statistic"], rel_diff(s$statistic, r$statistic))
    worst["parameter"] <- max(worst["parameter"], rel_diff(s$parameter, r$parameter))
    worst["estimate"] <- max(worst["estimate"], rel_diff(s$estimate, r$estimate))
    worst["conf"] <- max(worst["conf"], rel_diff(s$conf.int, r$conf.int))
    # var.test forms the upper tail as 1 - pf(F), exact only to about 1e-16
    # in absolute terms; f_test calls pf(lower.tail = FALSE).  Allow that
    # absolute rounding on top of the relative 1e-10.
    pd <- abs(s$p.value - r$p.value) / (abs(r$p.value) + 1e-5)
    worst["p"] <- max(worst["p"], pd)
    expect_identical(s$alternative, r$alternative)
  }
  expect_true(all(worst < 1e-10), label = paste(names(worst), worst, collapse = " "))
})

test_that("the htest object has var.test's fields and names", {
  x <- c(2.799, 2.046, 1.259, 1.877, 2.244)
  y <- c(1.046, 0.259, 0.877, 1.244, 1.799, 1.5)
  s <- f_test(x, y, alternative = "gr", ratio = 2)
  r <- var.test(x, y, alternative = "greater", ratio = 2)
  expect_s3_class(s, c("speeduptest_htest", "htest"))
  for (f in c("statistic", "parameter", "conf.int", "estimate", "null.value")) {
    expect_identical(names(s[[f]]), names(r[[f]]))
    expect_equal(as.double(s[[f]]), as.double(r[[f]]), tolerance = 1e-12)
  }
  expect_equal(attr(s$conf.int, "conf.level"), 0.95)
  expect_identical(s[c("alternative", "method", "data.name")],
                   r[c("alternative", "method", "data.name")])
  expect_identical(s$data.name, "x and y")
})

test_that("a tiny upper tail keeps its relative accuracy", {
  set.seed(5)
  x <- rnorm(200, sd = 10)
  y <- rnorm(200, sd = 1)
  s <- f_test(x, y, alternative = "greater")
  f <- unname(s$statistic)
  expect_equal(s$p.value, pf(f, 199, 199, lower.tail = FALSE), tolerance = 1e-12)
  expect_gt(s$p.value, 0)   # 1 - pf() rounds this one to 0
  expect_equal(f_test(x, y)$p.value, 2 * s$p.value, tolerance = 1e-12)
})

test_that("one constant sample gives the limits, two are an error", {
  x <- c(1, 2, 3, 5)
  y <- c(2, 2, 2)
  s <- f_test(x, y)
  r <- suppressWarnings(var.test(x, y))
  expect_identical(unname(s$statistic), Inf)
  expect_identical(s$p.value, r$p.value)
  expect_identical(f_test(y, x, alternative = "less")$p.value, 0)
  expect_identical(f_test(y, x, alternative = "greater")$p.value, 1)
  expect_error(f_test(y, c(4, 4)), class = "speeduptest_error_data",
               regexp = "`x` and `y`")
})

test_that("input errors are classed and name the argument", {
  x <- c(1.2, 2.3, 1.9, 3.1)
  y <- c(0.5, 0.9, 1.4)
  expect_error(f_test("a", y), class = "speeduptest_error_input", regexp = "`x`")
  expect_error(f_test(x, list(1, 2)), class = "speeduptest_error_input", regexp = "`y`")
  expect_error(f_test(x, c(y, NA)), class = "speeduptest_error_input",
               regexp = "`y`.*na_rm")
  expect_equal(f_test(c(NA, x), c(y, NA), na_rm = TRUE)$p.value,
               var.test(x, y)$p.value, tolerance = 1e-12)
  expect_error(f_test(c(x, -Inf), y), class = "speeduptest_error_input",
               regexp = "`x`.*finite")
  expect_error(f_test(x, 1), class = "speeduptest_error_data", regexp = "`y`.*at least 2")
  expect_error(f_test(x, y, conf_level = 1), class = "speeduptest_error_input",
               regexp = "`conf_level`")
  expect_error(f_test(x, y, conf_level = c(0.9, 0.95)), class = "speeduptest_error_input",
               regexp = "`conf_level`")
  expect_error(f_test(x, y, ratio = 0), class = "speeduptest_error_input",
               regexp = "`ratio`")
  expect_error(f_test(x, y, ratio = NA), class = "speeduptest_error_input",
               regexp = "`ratio`")
  expect_error(f_test(x, y, alternative = "bigger"), class = "speeduptest_error_input",
               regexp = "`alternative`")
})

test_that("n = 1e6 works and is fast", {
  set.seed(8)
  x <- rnorm(1e6, 10, 1)
  y <- rnorm(1e6, 10, 1.001)
  t0 <- proc.time()[["elapsed"]]
  s <- f_test(x, y)
  expect_lt(proc.time()[["elapsed"]] - t0, 2)
  r <- var.test(x, y)
  expect_lt(rel_diff(s$statistic, r$statistic), 1e-10)
  expect_lt(rel_diff(s$p.value, r$p.value), 1e-10)
  expect_lt(rel_diff(s$conf.int, r$conf.int), 1e-10)
})

test_that("the two-sided p-value is twice the smaller of pf()'s two tails, bit for bit", {
  # only the tail the test needs is computed (its partner when the first is
  # not below 1/4): the answer must be the minimum of both tails, as when
  # both were computed, including statistics right at the boundaries
  set.seed(36)
  df <- list(c(4, 9), c(9, 9), c(30, 30), c(2, 50), c(60, 3))
  for (d in df) {
    q <- c(stats::qf(c(0.25, 0.75), d[1], d[2]), 1, runif(30, 0.05, 8))
    q <- c(q, q * (1 + 1e-15), q * (1 - 1e-15))
    for (f in q) {
      # samples of sizes d + 1 whose variance ratio is f: scaled copies
      x <- c(-1, 1, rep(0, d[1] - 1))
      y <- c(-1, 1, rep(0, d[2] - 1))
      x <- x * sqrt(f * stats::var(y) / stats::var(x))
      r <- f_test(x, y)
      fs <- unname(r$statistic)
      lower <- stats::pf(fs, d[1], d[2], lower.tail = TRUE)
      upper <- stats::pf(fs, d[1], d[2], lower.tail = FALSE)
      expect_identical(r$p.value, min(1, 2 * min(lower, upper)))
      expect_identical(f_test(x, y, alternative = "greater")$p.value, upper)
      expect_identical(f_test(x, y, alternative = "less")$p.value, lower)
    }
  }
})
