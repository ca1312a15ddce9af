# E-divisive (src/edivisive.c) against the CRAN package ecp: the splits
# without tests (k fixed: no permutation, ecp's deterministic part) on
# random series and exponents, and the changes with the permutation tests
# on ecp's documented examples, where the decisions are clear.

ecp_k <- function(x, k, min_size, a) {
  ecp::e.divisive(matrix(x), k = k, min.size = min_size, alpha = a)
}

test_that("the splits are ecp's, in the order ecp finds them", {
  skip_if_not_installed("ecp")
  set.seed(31)
  for (i in 1:25) {
    n <- sample(40:160, 1)
    cuts <- sort(sample(10:(n - 10), sample(0:3, 1)))
    x <- rnorm(n, rep(rnorm(length(cuts) + 1, 0, 2), diff(c(0, cuts, n))),
               rep(exp(rnorm(length(cuts) + 1, 0, 0.5)), diff(c(0, cuts, n))))
    if (i %% 5 == 0) x <- round(x)          # ties
    min_size <- sample(c(2, 5, 10, 30), 1)
    k <- sample(1:4, 1)
    a <- sample(c(1, 0.5, 1.5, 2), 1)
    ref <- ecp_k(x, k, min_size, a)
    me <- edivisive_changepoints(x, k = k, min_size = min_size, exponent = a)
    # ecp lists 1 and n + 1 first in order.found
    expect_equal(me$order_found, ref$order.found[-(1:2)])
    expect_equal(me$estimates, ref$estimates)
  }
})

test_that("ecp's documented examples give ecp's changes", {
  skip_if_not_installed("ecp")
  # ?e.divisive: three normal periods, a change in mean then in variance
  set.seed(100)
  x1 <- c(rnorm(100), rnorm(100, 3), rnorm(100, 0, 2))
  ref <- ecp::e.divisive(matrix(x1), sig.lvl = 0.05, R = 199, k = NULL,
                         min.size = 30, alpha = 1)
  me <- edivisive_changepoints(x1, sig_level = 0.05, R = 199, min_size = 30)
  expect_equal(me$estimates, ref$estimates)
  expect_true(all(me$p_values <= 0.05))
  # the vignette's four periods (mean and variance changes)
  set.seed(250)
  x <- c(rnorm(100), rnorm(100, 0, 3), rnorm(100, 2, 1), rnorm(100, 2, 4))
  ref <- ecp::e.divisive(matrix(x), R = 199, alpha = 1)
  me <- edivisive_changepoints(x, R = 199)
  expect_equal(me$estimates, ref$estimates)
  expect_equal(me$order_found, ref$order.found[-(1:2)])
  expect_true(all(me$p_values <= 0.05))
})

test_that("without a change the permutation test keeps alpha", {
  # 200 series of 60 iid values: a split is kept in at most sig_level of
  # them (+ 3 binomial standard errors)
  set.seed(32)
  kept <- vapply(1:200, function(i) {
    length(edivisive_changepoints(rnorm(60), R = 49, min_size = 10,
                                  seed = i)$order_found) > 0
  }, TRUE)
  expect_lt(mean(kept), 0.05 + 3 * sqrt(0.05 * 0.95 / 200))
})

test_that("a seed gives the same answer; bad input is a classed error", {
  set.seed(33)
  x <- c(rnorm(50), rnorm(50, 0.8))
  a <- edivisive_changepoints(x, R = 99, min_size = 10, seed = 5)
  expect_identical(a, edivisive_changepoints(x, R = 99, min_size = 10, seed = 5))
  expect_error(edivisive_changepoints(c(x, NA)), class = "speeduptest_error_input")
  expect_error(edivisive_changepoints(x, min_size = 1), class = "speeduptest_error_input")
  expect_error(edivisive_changepoints(x, exponent = 3), class = "speeduptest_error_input")
  expect_error(edivisive_changepoints(x, sig_level = 1), class = "speeduptest_error_input")
  expect_error(edivisive_changepoints(x, R = 0), class = "speeduptest_error_input")
  expect_error(edivisive_changepoints(rnorm(20001)), class = "speeduptest_error_data")
  # too short to split: no change
  expect_equal(edivisive_changepoints(rnorm(10), min_size = 30)$estimates, c(1, 11))
})
