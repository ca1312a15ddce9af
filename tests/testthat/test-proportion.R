# proportion_ci() against stats::prop.test / binom.test, the Speedup-Test
# paper's printed figures, and min_benchmarks().

pairs_for_test <- function() {
  set.seed(42)
  b <- c(1:20, sample(21:500, 1000, replace = TRUE))
  a <- vapply(b, function(bb) sample(0:bb, 1), numeric(1))
  # a = 0, a = b and a = b/2 (where prop.test's correction vanishes) for many b
  b0 <- c(1:60, 100, 1000)
  be <- seq(2, 120, by = 2)
  conf <- c(0.5, 0.8, 0.9, 0.95, 0.99, 0.999)
  data.frame(a = c(a, rep(0, length(b0)), b0, be / 2),
             b = c(b, b0, b0, be),
             conf = rep_len(conf, length(b) + 2 * length(b0) + length(be)))
}

test_that("method 'prop.test' equals prop.test(a, b)$conf.int (>= 1000 pairs)", {
  d <- pairs_for_test()
  expect_gt(nrow(d), 1000L)
  expect_true(any(d$a == 0) && any(d$a == d$b))
  ours <- ref <- matrix(NA_real_, nrow(d), 2)
  for (k in seq_len(nrow(d))) {
    ours[k, ] <- proportion_ci(d$a[k], d$b[k], d$conf[k])$conf.int
    ref[k, ] <- suppressWarnings(
      stats::prop.test(d$a[k], d$b[k], conf.level = d$conf[k])$conf.int)
  }
  expect_lt(max(abs(ours - ref)), 1e-10)
  expect_lt(max(abs(ours[ref > 0] / ref[ref > 0] - 1)), 1e-10)
})

test_that("method 'wilson' equals prop.test(correct = FALSE)", {
  d <- pairs_for_test()[seq(1, 1200, by = 3), ]
  for (k in seq_len(nrow(d))) {
    ours <- proportion_ci(d$a[k], d$b[k], d$conf[k], method = "wilson")$conf.int
    ref <- suppressWarnings(stats::prop.test(d$a[k], d$b[k], conf.level = d$conf[k],
                                             correct = FALSE)$conf.int)
    expect_equal(as.vector(ours), as.vector(ref), tolerance = 1e-10)
  }
})

test_that("method 'clopper-pearson' equals binom.test(a, b)$conf.int (>= 1000 pairs)", {
  d <- pairs_for_test()
  ours <- ref <- matrix(NA_real_, nrow(d), 2)
  for (k in seq_len(nrow(d))) {
    ours[k, ] <- proportion_ci(d$a[k], d$b[k], d$conf[k],
                               method = "clopper-pearson")$conf.int
    ref[k, ] <- stats::binom.test(d$a[k], d$b[k], conf.level = d$conf[k])$conf.int
  }
  expect_lt(max(abs(ours - ref)), 1e-10)
  expect_lt(max(abs(ours[ref > 0] / ref[ref > 0] - 1)), 1e-10)
})

test_that("agresti-coull and normal intervals follow their formulas, clipped", {
  d <- pairs_for_test()[1:300, ]
  for (k in seq_len(nrow(d))) {
    a <- d$a[k]; b <- d$b[k]; cl <- d$conf[k]
    z <- stats::qnorm(1 - (1 - cl) / 2)
    nt <- b + z^2
    pt <- (a + z^2 / 2) / nt
    h <- z * sqrt(pt * (1 - pt) / nt)
    ac <- proportion_ci(a, b, cl, method = "agresti-coull")
    expect_equal(as.vector(ac$conf.int), c(max(0, pt - h), min(1, pt + h)),
                 tolerance = 1e-12)
    C <- a / b
    h <- z * sqrt(C * (1 - C) / b)
    nr <- proportion_ci(a, b, cl, method = "normal")
    expect_equal(as.vector(nr$conf.int), c(max(0, C - h), min(1, C + h)),
                 tolerance = 1e-12)
    expect_equal(nr$estimate[["p"]], C)
  }
  # the normal interval is clipped, not widened past [0, 1]
  expect_equal(as.vector(proportion_ci(1, 2, 0.95, "normal")$conf.int), c(0, 1))
  expect_equal(as.vector(proportion_ci(34, 34, 0.9, "normal")$conf.int), c(1, 1))
})

test_that("the Speedup-Test paper's printed intervals are reproduced", {
  # Section 4, Example 1: prop.test(17, 30, conf.level = 0.90) prints
  # 0.4027157 0.7184049.
  ci <- proportion_ci(17, 30, conf_level = 0.90)$conf.int
  expect_equal(round(as.vector(ci), 7), c(0.4027157, 0.7184049))
  # The same example at alpha = 50 % is printed as [49.84%, 64.23%]:
  # prop.test gives 0.4884442 and 0.6423572, so the printed upper bound is
  # truncated to two decimals and the lower one has a typo (48.84).
  ci50 <- proportion_ci(17, 30, conf_level = 0.50)$conf.int
  expect_equal(floor(1e4 * ci50[2]) / 100, 64.23)
  expect_equal(floor(1e4 * ci50[1]) / 100, 48.84)
  # Section 6, the tool's output (3 digits, default method prop.test):
  expect_equal(round(as.vector(proportion_ci(34, 34, 0.90)$conf.int), 3), c(0.901, 1))
  expect_equal(round(as.vector(proportion_ci(31, 45, 0.95)$conf.int), 3), c(0.532, 0.814))
  expect_equal(round(as.vector(proportion_ci(41, 54, 0.95)$conf.int), 3), c(0.621, 0.861))
  expect_equal(round(proportion_ci(31, 45)$estimate[["p"]], 3), 0.689)
  expect_equal(round(proportion_ci(41, 54)$estimate[["p"]], 3), 0.759)
  # the validity warning for 34/34: a (1 - a/b) = 0 <= 5
  expect_false(proportion_ci(34, 34, 0.9)$valid)
  expect_true(proportion_ci(17, 30, 0.9)$valid)
  # the other methods do not give the printed figures (the tool used prop.test)
  expect_false(isTRUE(all.equal(
    round(as.vector(proportion_ci(31, 45, method = "wilson")$conf.int), 3),
    c(0.532, 0.814))))
})

test_that("the paper's minimal numbers of benchmarks are reproduced", {
  # Section 6: 330 for 31/45 and 281 for 41/54 (r = 0.05, 95 %).  The tool
  # used the exact fractions and z = qnorm(0.975): with the rounded 0.759
  # the second figure would be 282.
  expect_identical(min_benchmarks(31 / 45), 330)
  expect_identical(min_benchmarks(41 / 54), 281)
  expect_identical(min_benchmarks(0.759), 282)
  expect_identical(min_benchmarks(0.689), 330)
  expect_identical(min_benchmarks(c(31 / 45, 41 / 54), 0.05, 0.95), c(330, 281))
  # Section 4, Example 2: 1.960^2 x 0.566 x (1 - 0.566) / 0.05^2 = 377.46
  # (printed truncated), hence 378 benchmarks; z = qnorm(0.975) gives the
  # same answer, with C = 0.566 or with the exact 17/30 (377.32).
  expect_identical(min_benchmarks(0.566), 378)
  expect_identical(min_benchmarks(17 / 30), 378)
})

test_that("min_benchmarks: formula, vectorisation and whole numbers", {
  set.seed(9)
  C <- runif(200)
  r <- 0.03
  cl <- 0.9
  z <- stats::qnorm((1 + cl) / 2)
  expect_identical(min_benchmarks(C, r, cl), ceiling(z^2 * C * (1 - C) / r^2))
  expect_identical(min_benchmarks(c(0, 1)), c(0, 0))
  expect_identical(names(min_benchmarks(c(a = 0.5, b = 0.2))), c("a", "b"))
  # z = 1 and z = 2 (conf_level = 2 pnorm(z) - 1): the quotient is
  # mathematically a whole number but computes as N + a few ulps, which a
  # plain ceiling would round up to N + 1.
  cl1 <- 2 * stats::pnorm(1) - 1
  cl2 <- 2 * stats::pnorm(2) - 1
  expect_gt(ceiling(stats::qnorm((1 + cl1) / 2)^2 * 0.1 * 0.9 / 0.03^2), 100)
  expect_identical(min_benchmarks(0.1, 0.03, cl1), 100)
  expect_identical(min_benchmarks(0.2, 0.02, cl1), 400)
  expect_identical(min_benchmarks(0.1, 0.01, cl2), 3600)
  expect_identical(min_benchmarks(0.2, 0.01, cl2), 6400)
  expect_identical(min_benchmarks(0.5, 0.05, cl2), 400)
  # and a genuine fraction is still rounded up
  expect_identical(min_benchmarks(0.3, 0.03, cl1), 234)
})

test_that("proportion_ci output", {
  res <- proportion_ci(17, 30, conf_level = 0.9)
  expect_s3_class(res, "htest")
  expect_equal(res$estimate, c(p = 17 / 30))
  expect_equal(attr(res$conf.int, "conf.level"), 0.9)
  expect_null(res$p.value)
  expect_identical(res$data.name, "17 out of 30")
  expect_match(res$method, "prop.test")
  expect_match(proportion_ci(1, 3, method = "clop")$method, "Clopper-Pearson")
  # a = 0 and a = b
  expect_equal(as.vector(proportion_ci(0, 10, method = "clopper-pearson")$conf.int)[1], 0)
  expect_equal(as.vector(proportion_ci(10, 10, method = "clopper-pearson")$conf.int)[2], 1)
  expect_equal(as.vector(proportion_ci(0, 10)$conf.int)[1], 0)
  expect_equal(as.vector(proportion_ci(10, 10)$conf.int)[2], 1)
  # counts given as integers or whole doubles
  expect_equal(proportion_ci(3L, 7L)$conf.int, proportion_ci(3, 7)$conf.int)
})

test_that("bad inputs are classed errors naming the argument", {
  e <- "speeduptest_error_input"
  expect_error(proportion_ci("3", 7), class = e, regexp = "`a`")
  expect_error(proportion_ci(3, "7"), class = e, regexp = "`b`")
  expect_error(proportion_ci(NA, 7), class = e, regexp = "`a`")
  expect_error(proportion_ci(3, NA_real_), class = e, regexp = "`b`")
  expect_error(proportion_ci(8, 7), class = e, regexp = "`a`")
  expect_error(proportion_ci(-1, 7), class = e, regexp = "`a`")
  expect_error(proportion_ci(1, -7), class = e, regexp = "`b`")
  expect_error(proportion_ci(0, 0), class = e, regexp = "`b`")
  expect_error(proportion_ci(1.5, 7), class = e, regexp = "`a`")
  expect_error(proportion_ci(1, 7.2), class = e, regexp = "`b`")
  expect_error(proportion_ci(c(1, 2), c(7, 7)), class = e, regexp = "`a`")
  expect_error(proportion_ci(1, Inf), class = e, regexp = "`b`")
  expect_error(proportion_ci(1, 7, conf_level = 1), class = e, regexp = "`conf_level`")
  expect_error(proportion_ci(1, 7, conf_level = "0.9"), class = e, regexp = "`conf_level`")
  expect_error(proportion_ci(1, 7, conf_level = NA), class = e, regexp = "`conf_level`")
  expect_error(proportion_ci(1, 7, method = "bayes"), class = e, regexp = "`method`")
  expect_error(proportion_ci(1, 7, method = 1), class = e, regexp = "`method`")
  expect_error(min_benchmarks("0.5"), class = e, regexp = "`proportion`")
  expect_error(min_benchmarks(NA_real_), class = e, regexp = "`proportion`")
  expect_error(min_benchmarks(1.2), class = e, regexp = "`proportion`")
  expect_error(min_benchmarks(numeric(0)), class = e, regexp = "`proportion`")
  expect_error(min_benchmarks(0.5, precision = 0), class = e, regexp = "`precision`")
  expect_error(min_benchmarks(0.5, precision = NA), class = e, regexp = "`precision`")
  expect_error(min_benchmarks(0.5, precision = c(0.1, 0.2)), class = e,
               regexp = "`precision`")
  expect_error(min_benchmarks(0.5, conf_level = 0), class = e, regexp = "`conf_level`")
})
