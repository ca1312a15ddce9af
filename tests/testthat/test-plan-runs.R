# plan_runs(), `detectable` and the advice: one computation, one plan
# (SPEC section 10, issue 29).

test_that("the suite's detectable is the verdict's, for every protocol", {
  # the issue's example: the suite read the 90 % interval with the normal
  # quantile of a 95 % one (1.00893 against the verdict's 1.01065)
  set.seed(3)
  x <- rlnorm(40, 0, .02)
  y <- rlnorm(40, 0, .02)
  s <- speedup_suite(list(a = list(x, y)), protocols = c("mean", "median", "prob"))
  for (p in c("mean", "median", "prob")) {
    v <- speeduptest:::protocol_fun(p, "default")(x, y)
    expect_identical(v$direction, "none")
    expect_identical(s$benchmarks[[paste0(p, "_detectable")]], v$detectable)
  }
  # the median's detectable from the interval's own level: 1.01065
  v <- median_test(x, y)
  ci <- v$speedup_ci
  se <- diff(log(as.double(ci))) / (2 * qnorm((1 + attr(ci, "conf.level")) / 2))
  expect_equal(v$detectable, exp((qnorm(0.95) + qnorm(0.8)) * se))
  expect_equal(round(v$detectable, 5), 1.01065)
})

test_that("a suite's detectable equals the verdicts' at other levels and sizes", {
  set.seed(29)
  suite <- lapply(1:30, function(i) {
    n <- sample(c(5, 12, 40), 1)
    list(x = rlnorm(n, 0, runif(1, 0.005, 0.05)), y = rlnorm(n, 0, 0.02))
  })
  names(suite) <- paste0("b", seq_along(suite))
  for (cl in c(0.95, 0.99)) {
    s <- speedup_suite(suite, conf_level = cl, protocols = c("mean", "median", "prob"))
    for (p in c("mean", "median", "prob")) {
      f <- speeduptest:::protocol_fun(p, "default")
      d <- vapply(suite, function(b) {
        v <- f(b$x, b$y, alpha = 1 - cl)
        if (identical(v$direction, "none")) v$detectable else NA_real_
      }, 0)
      got <- s$benchmarks[[paste0(p, "_detectable")]]
      expect_identical(is.na(got), is.na(unname(d)))
      expect_equal(got, unname(d), tolerance = 1e-12)
    }
  }
})
