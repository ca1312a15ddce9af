# The exact null distributions at the edges of the sizes they accept: the
# sizes where floating-point counts used to cancel (n = m = 300 to 813
# without ties), the refusal limits, and statistics whose p-values are near
# 1e-300 or near 1.  References: R's exact functions where they are exact
# and quick (dwilcox, pwilcox, psignrank up to n = m = 200), the tied
# counting algorithm (only additions of non-negative numbers, a different
# recurrence), partition numbers over a big-integer binomial coefficient
# (gmp), closed sums of multivariate hypergeometric and binomial terms for
# samples with two or three distinct values, and the normal approximation.

null_probs <- function(n, m) {
  .Call(ffi_ranksum_null, as.integer(n), as.integer(m))
}
# c(status, P[S2 <= s2], P[S2 >= s2]) from doubled mid-ranks: the rank sum
# of an n-subset (n >= 0) or the signed rank (n = -1)
exact_tails <- function(rank2, n, s2) {
  .Call(ffi_exact_tails, as.double(rank2), as.integer(n), as.double(s2))
}
# Samples without ties of sizes n, m whose Mann-Whitney W is u (u <= m):
# x takes the n - 1 lowest ranks and rank n + u.
samples_w <- function(n, m, u) {
  x <- c(seq_len(n - 1L), n + u)
  list(x = as.double(x), y = as.double(setdiff(seq_len(n + m), x)))
}
# Samples without ties of sizes n, m whose W is any w in 0 .. n m: x_i
# (i = n, n - 1, ...) has as many y below it as are left to place.
samples_w_any <- function(n, m, w) {
  a <- integer(n)
  for (i in n:1) {
    a[i] <- min(w, m)
    w <- w - a[i]
  }
  x <- seq_len(n) + a
  list(x = as.double(x), y = as.double(setdiff(seq_len(n + m), x)))
}
# Number of partitions of 0 .. v (exact in doubles far beyond v = 100).
partitions <- function(v) {
  p <- c(1, rep(0, v))
  for (part in seq_len(v)) {
    for (s in part:v) p[s + 1] <- p[s + 1] + p[s + 1 - part]
  }
  p
}

test_that("the no-ties table stays a distribution where double counts cancelled", {
  for (n in c(300L, 350L, 400L)) {
    p <- null_probs(n, n)
    expect_length(p, n * n + 1)
    expect_true(all(p >= 0 & p <= 1))
    expect_equal(sum(p), 1, tolerance = 1e-14)
    expect_identical(p, rev(p))
    # unimodal: non-decreasing up to the mean
    half <- p[seq_len(n * n / 2 + 1)]
    expect_true(all(diff(half) >= 0))
    # the smallest probabilities are partitions over choose(2n, n)
    expect_equal(p[1:6] / p[1], c(1, 1, 2, 3, 5, 7))
  }
})

test_that("the no-ties table equals dwilcox where R is exact and quick", {
  for (nm in list(c(200L, 200L), c(37L, 250L), c(1L, 400L))) {
    p <- null_probs(nm[1], nm[2])
    d <- stats::dwilcox(seq(0, nm[1] * nm[2]), nm[1], nm[2])
    keep <- d > 1e-290
    expect_lt(max(abs(p[keep] - d[keep]) / d[keep]), 1e-12)
    expect_true(all(abs(p[!keep] - d[!keep]) < 1e-290))
  }
})

test_that("no-ties p-values agree with the tied counting algorithm at 300 and 350", {
  set.seed(18)
  for (n in c(300L, 350L)) {
    x <- stats::rnorm(n)
    y <- stats::rnorm(n, 0.15)
    for (alt in c("less", "greater")) {
      a <- wilcoxon_test(x, y, alternative = alt, exact = TRUE)
      expect_true(a$exact)
      expect_true(a$p.value >= 0 && a$p.value <= 1)
      # the same tail from the subset-sum count on the ranks 2, 4, ..., 4n
      s2 <- 2 * (a$statistic + n * (n + 1) / 2)
      b <- exact_tails(seq(2, 4 * n, by = 2), n, s2)
      expect_identical(b[1], 0)
      ref <- if (alt == "less") b[2] else b[3]
      expect_lt(abs(a$p.value - ref) / ref, 1e-10)
    }
  }
})

test_that("p-values near 1e-300 equal partition counts over choose(1000, 500)", {
  skip_if_not_installed("gmp")
  n <- 500L
  total <- gmp::chooseZ(2 * n, n)
  cum <- cumsum(partitions(20))
  p <- null_probs(n, n)
  for (u in c(0L, 1L, 5L, 20L)) {
    s <- samples_w(n, n, u)
    a <- wilcoxon_test(s$x, s$y, alternative = "less", exact = TRUE)
    expect_equal(a$statistic[[1]], u)
    ref <- as.double(gmp::as.bigq(cum[u + 1]) / gmp::as.bigq(total))
    expect_lt(abs(a$p.value - ref) / ref, 1e-10)
    # and near 1 on the other side: 1 - P[W <= u - 1]
    g <- wilcoxon_test(s$x, s$y, alternative = "greater", exact = TRUE)
    below <- if (u == 0L) 0 else as.double(gmp::as.bigq(cum[u]) /
                                             gmp::as.bigq(total))
    expect_identical(g$p.value, 1 - below)
    expect_lte(g$p.value, 1)
  }
  expect_equal(p[1], as.double(1 / gmp::as.bigq(total)), tolerance = 1e-14)
  expect_gt(p[1], 0)
  expect_lt(p[1], 1e-299)
})

test_that("upper tails near 1 equal pwilcox's complement at every W", {
  for (nm in list(c(20L, 20L), c(12L, 31L))) {
    n <- nm[1]
    m <- nm[2]
    for (w in c(0:5, seq(6, n * m, by = 7))) {
      s <- samples_w_any(n, m, w)
      a <- wilcoxon_test(s$x, s$y, alternative = "greater", exact = TRUE)
      ref <- stats::pwilcox(w - 1, n, m, lower.tail = FALSE)
      expect_lt(abs(a$p.value - ref), 4e-16 * ref + 1e-300)
      expect_lte(a$p.value, 1)
      # 1 - p keeps its relative accuracy where p is near 1
      q <- wilcoxon_test(s$x, s$y, alternative = "less", exact = TRUE)
      expect_lt(abs(q$p.value - stats::pwilcox(w, n, m)),
                1e-12 * stats::pwilcox(w, n, m))
    }
  }
})

test_that("the exact tails meet the normal approximation at large sizes", {
  n <- 600L
  p <- null_probs(n, n)
  mu <- n * n / 2
  sigma <- sqrt(n * n * (2 * n + 1) / 12)
  cdf <- cumsum(p)
  for (z in c(1, 2, 3, 4)) {
    w <- floor(mu - z * sigma)
    normal <- stats::pnorm((w + 0.5 - mu) / sigma)
    # the Edgeworth term is O(z^4 / n): a few percent at most here
    expect_lt(abs(cdf[w + 1] - normal) / normal, 0.005 * z^2)
  }
  expect_equal(cdf[length(cdf)], 1, tolerance = 1e-14)
})

test_that("samples with three distinct values: a closed sum, at 200 and 300", {
  # x takes c1, c2, c3 of the t1, t2, t3 pooled 1s, 2s and 3s with
  # multivariate hypergeometric probability; the rank sum is linear in c
  set.seed(181)
  for (n in c(200L, 300L)) {
    x <- sample(3, n, TRUE, prob = c(0.3, 0.5, 0.2))
    y <- sample(3, n, TRUE, prob = c(0.25, 0.5, 0.25))
    pooled <- c(x, y)
    tk <- tabulate(pooled, 3)
    mid <- cumsum(tk) - (tk - 1) / 2
    grid <- expand.grid(c1 = 0:min(tk[1], n), c2 = 0:min(tk[2], n))
    grid$c3 <- n - grid$c1 - grid$c2
    grid <- grid[grid$c3 >= 0 & grid$c3 <= tk[3], ]
    lp <- lchoose(tk[1], grid$c1) + lchoose(tk[2], grid$c2) +
      lchoose(tk[3], grid$c3) - lchoose(2 * n, n)
    rs <- grid$c1 * mid[1] + grid$c2 * mid[2] + grid$c3 * mid[3]
    obs <- sum(mid[x])
    ref_le <- sum(exp(lp[rs <= obs + 1e-7]))
    ref_ge <- sum(exp(lp[rs >= obs - 1e-7]))
    a <- wilcoxon_test(x, y, alternative = "less", exact = TRUE)$p.value
    b <- wilcoxon_test(x, y, alternative = "greater", exact = TRUE)$p.value
    expect_lt(abs(a - ref_le) / ref_le, 1e-10)
    expect_lt(abs(b - ref_ge) / ref_ge, 1e-10)
  }
})

test_that("signed ranks with ties and zeros beyond 1000 values: a closed sum", {
  # |d| in {1, 2} plus zeros: V is a sum of two independent binomials
  # scaled by the mid-ranks of the two groups
  set.seed(182)
  n <- 1400L
  d <- sample(c(-2, -1, 0, 1, 2), n, TRUE, prob = c(0.2, 0.3, 0.05, 0.25, 0.2))
  v <- d[d != 0]
  t1 <- sum(abs(v) == 1)
  t2 <- sum(abs(v) == 2)
  mid <- c((t1 + 1) / 2, t1 + (t2 + 1) / 2)
  obs <- sum(ifelse(v == 1, mid[1], 0)) + sum(ifelse(v == 2, mid[2], 0))
  g <- outer(0:t1, 0:t2, function(a, b) a * mid[1] + b * mid[2])
  lp <- outer(stats::dbinom(0:t1, t1, 0.5, log = TRUE),
              stats::dbinom(0:t2, t2, 0.5, log = TRUE), "+")
  ref_le <- sum(exp(lp[g <= obs + 1e-7]))
  ref_ge <- sum(exp(lp[g >= obs - 1e-7]))
  a <- signed_rank_test(d, alternative = "less", exact = TRUE)
  b <- signed_rank_test(d, alternative = "greater", exact = TRUE)
  expect_true(a$exact)
  expect_lt(abs(a$p.value - ref_le) / ref_le, 1e-10)
  expect_lt(abs(b$p.value - ref_ge) / ref_ge, 1e-10)
})

test_that("signed ranks without ties: psignrank up to 1000, the halved table beyond", {
  set.seed(183)
  d <- stats::rnorm(1000, 0.03)
  for (alt in c("less", "greater")) {
    a <- signed_rank_test(d, alternative = alt, exact = TRUE)
    v <- a$statistic[[1]]
    ref <- if (alt == "less") stats::psignrank(v, 1000)
           else stats::psignrank(v - 1, 1000, lower.tail = FALSE)
    expect_lt(abs(a$p.value - ref) / ref, 1e-10)
  }
  # beyond 1000 values: the tail P[V <= 5] of 1010 values is the number of
  # sign patterns with positive ranks summing to at most 5 (1, 1, 1, 2, 2,
  # 3 of them) over 2^1010; from 1075 values on it is below 2^-1074: 0
  s <- exact_tails(seq(2, 2 * 1010, by = 2), -1L, 10)
  expect_identical(s[1], 0)
  expect_equal(s[2], 10 * 2^-1010, tolerance = 1e-13)
  expect_identical(s[3], 1)
  s <- exact_tails(seq(2, 2 * 1500, by = 2), -1L, 10)
  expect_identical(s[2], 0)
  expect_lte(s[3], 1)
  # the middle of a large table against the normal approximation
  n <- 1900L
  V <- floor(n * (n + 1) / 4 - 2 * sqrt(n * (n + 1) * (2 * n + 1) / 24))
  s <- exact_tails(seq(2, 2 * n, by = 2), -1L, 2 * V)
  normal <- stats::pnorm((V + 0.5 - n * (n + 1) / 4) /
                           sqrt(n * (n + 1) * (2 * n + 1) / 24))
  expect_lt(abs(s[2] - normal) / normal, 0.01)
  expect_lte(s[2] + s[3], 1 + 1e-3)
})

test_that("Smirnov's exact tails at their extremes", {
  skip_if_not_installed("gmp")
  # fully separated samples: D+ = 1 with probability 1 / choose(n + m, n)
  for (n in c(300L, 400L)) {
    x <- as.double(seq_len(n))
    y <- x + n
    p <- ks_test(x, y, alternative = "greater", exact = TRUE)$p.value
    ref <- as.double(1 / gmp::as.bigq(gmp::chooseZ(2 * n, n)))
    expect_lt(abs(p - ref) / ref, 1e-10)
  }
  # beyond the double range: 0, never negative
  x <- as.double(seq_len(700))
  p <- ks_test(x, x + 700, alternative = "greater", exact = TRUE)$p.value
  expect_gte(p, 0)
  expect_lt(p, 1e-300)
  # ties: every value tied across the samples gives D = 0 and p = 1
  p <- ks_test(rep(1:5, 200), rep(1:5, 200), exact = TRUE)$p.value
  expect_identical(p, 1)
})

test_that("exact tests refuse only beyond their limits, with a classed error", {
  # no ties: n = m = 813 is accepted (in about 10 s), 814 refused at once
  expect_error(wilcoxon_test(as.double(1:814), 1:814 + 0.5, exact = TRUE),
               class = "speeduptest_error_exact_too_large",
               regexp = "exact = FALSE")
  expect_error(wilcoxon_test(as.double(1:814), 1:814 + 0.5, exact = TRUE),
               class = "speeduptest_error_data")
  # ties: about n = m = 600
  set.seed(184)
  x <- round(stats::rnorm(650), 1)
  y <- round(stats::rnorm(650), 1)
  expect_error(wilcoxon_test(x, y, exact = TRUE),
               class = "speeduptest_error_exact_too_large")
  expect_error(signed_rank_test(stats::rnorm(2000), exact = TRUE),
               class = "speeduptest_error_exact_too_large",
               regexp = "exact = FALSE")
  expect_error(ks_test(as.double(1:10001), as.double(1:10001), exact = TRUE),
               class = "speeduptest_error_exact_too_large")
  # the same sizes with the normal approximation work
  expect_false(wilcoxon_test(x, y, exact = FALSE)$exact)
  expect_identical(null_probs(814L, 814L), 2L)
})
