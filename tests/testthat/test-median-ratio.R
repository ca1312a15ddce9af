# The ratio of the medians with the Bonett-Price interval, and the check
# that the Hodges-Lehmann factor is not that ratio where the shapes differ
# (R/median-ratio.R; issue 29).  References: coverage by simulation with
# fixed seeds, and the distribution-free order-statistic interval of one
# median (binomial).

test_that("the Bonett-Price variance is read off the exact order-statistic interval of the median", {
  set.seed(7)
  s <- sort(rnorm(25))
  # c = round(13 - 5) = 8: [s_8, s_18] covers the median with probability
  # 1 - 2 P(Binom(25, 1/2) <= 7)
  a <- 2 * stats::pbinom(7, 25, 0.5)
  expect_equal(speeduptest:::median_var_bp(s),
               ((s[18] - s[8]) / (2 * stats::qnorm(1 - a / 2)))^2)
  # the variance of the median of n normal values is about pi / (2 n)
  big <- sort(rnorm(20000))
  expect_equal(speeduptest:::median_var_bp(big) * 20000, pi / 2, tolerance = 0.1)
})

test_that("its 90% interval covers the ratio of the medians in about 90% of experiments, shapes differing", {
  set.seed(2901)
  theta <- 1.01
  cover <- 0
  R <- 400
  for (r in seq_len(R)) {
    x <- exp(rnorm(200, 0, 0.05))
    g <- rgamma(200, 2)
    y <- exp(-log(theta) + 0.05 * (g - qgamma(0.5, 2)) / sqrt(2))
    b <- speeduptest:::median_ratio_bp(x, y, 0.05)
    cover <- cover + (b[["low"]] <= theta && theta <= b[["high"]])
  }
  # binomial standard error at 0.9 and 400 experiments: 0.015
  expect_gt(cover / R, 0.86)
  expect_lt(cover / R, 0.95)
})

test_that("a median verdict prints the ratio of the medians with its interval", {
  set.seed(4)
  v <- median_test(rlnorm(40, log(10), 0.1), rlnorm(40, log(9), 0.1))
  r <- v$median_ratio
  expect_equal(r[["estimate"]], median(v$x) / median(v$y))
  expect_true(r[["low"]] < r[["estimate"]] && r[["estimate"]] < r[["high"]])
  expect_true(any(grepl("^  ratio of the medians: .* \\(Bonett-Price 90% interval\\)$",
                        format(v))))
  # the mean protocol has no such part
  expect_false("median_ratio" %in% names(mean_test(v$x, v$y)))
})

test_that("where the shapes differ the verdict says the Hodges-Lehmann factor is not the ratio of the medians", {
  set.seed(2902)
  g <- rgamma(1000, 2)
  x <- exp(rnorm(1000, 0, 0.05))
  y <- exp(-log(1.01) + 0.05 * (g - qgamma(0.5, 2)) / sqrt(2))
  v <- median_test(x, y)
  expect_true(speeduptest:::shapes_differ(v))
  cav <- paste(v$caveats, collapse = " ")
  expect_match(cav, "is not the ratio of the medians", fixed = TRUE)
  expect_match(cav, "Bonett-Price 90% interval", fixed = TRUE)
  # same shapes: the check rarely fires (about alpha)
  set.seed(2903)
  fired <- 0
  for (r in 1:100) {
    w <- median_test(exp(rnorm(300, 0, 0.05)), exp(rnorm(300, -0.01, 0.05)))
    fired <- fired + speeduptest:::shapes_differ(w)
  }
  expect_lt(fired, 15)
})
