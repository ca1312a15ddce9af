# ks_test() against stats::ks.test (two-sample), against R's C routine for
# the exact no-ties two-sided distribution (psmirnov2x), and against
# brute-force enumeration of all choose(n + m, n) splits of the pooled
# values (exact conditional distribution with ties).

alts <- c("two.sided", "less", "greater")

# R's exact two-sided p without ties: 1 - psmirnov2x(D) (R's own C code).
r_psmirnov2x_upper <- function(d, n, m) {
  1 - .Call(getFromNamespace("C_pSmirnov2x", "stats"), d, n, m)
}

# Brute force: every split of the pooled sorted values into n "x" and
# m "y" positions; the ECDFs are compared at the ends of the tie blocks.
# Returns the lattice statistics (integers i m - j n) of every split.
brute_stats <- function(w, n) {
  N <- length(w)
  m <- N - n
  ws <- sort(w)
  ends <- c(diff(ws) != 0, TRUE)
  cmb <- utils::combn(N, n)
  S <- ncol(cmb)
  memb <- matrix(0L, N, S)
  memb[cbind(as.vector(cmb), rep(seq_len(S), each = n))] <- 1L
  cx <- apply(memb, 2L, cumsum)
  if (N == 1L) cx <- matrix(cx, 1L)
  cy <- seq_len(N) - cx
  d <- (cx * m - cy * n)[ends, , drop = FALSE]
  list(ws = ws, cmb = cmb,
       two.sided = apply(abs(d), 2L, max),
       greater = apply(d, 2L, max),
       less = apply(-d, 2L, max))
}

test_that("exact p-values equal brute-force enumeration, with and without ties", {
  set.seed(20260101)
  configs <- list(c(1, 1), c(1, 4), c(2, 3), c(3, 3), c(4, 5), c(5, 3),
                  c(6, 6), c(7, 5), c(8, 6), c(8, 8))
  checked <- 0L
  for (nm in configs) {
    n <- nm[1]; m <- nm[2]; N <- n + m
    pools <- list(
      rnorm(N),                                    # no ties
      sample(1:3, N, replace = TRUE),              # heavy ties
      round(rnorm(N), 1),                          # some ties
      rep(c(1, 2), length.out = N)                 # two values only
    )
    for (w in pools) {
      bf <- brute_stats(w, n)
      cols <- unique(c(1L, ncol(bf$cmb), sample(ncol(bf$cmb), min(6L, ncol(bf$cmb)))))
      for (k in cols) {
        ix <- bf$cmb[, k]
        x <- bf$ws[ix]
        y <- bf$ws[-ix]
        # shuffle so that the input order does not matter
        x <- x[sample(length(x))]
        y <- y[sample(length(y))]
        for (a in alts) {
          res <- ks_test(x, y, alternative = a, exact = TRUE)
          stat_int <- bf[[a]][k]
          expect_equal(res$statistic[[1]], stat_int / (n * m), tolerance = 1e-12)
          expect_equal(res$p.value, mean(bf[[a]] >= stat_int), tolerance = 1e-12)
          expect_true(res$exact)
          checked <- checked + 1L
        }
      }
    }
  }
  expect_gt(checked, 500L)
})

test_that("exact two-sided p without ties equals R's psmirnov2x; ks.test agrees", {
  set.seed(1)
  p_ours <- p_r <- p_ks <- d_ours <- d_ks <- numeric(0)
  for (i in 1:400) {
    n <- sample(1:60, 1)
    m <- sample(1:60, 1)
    if (n * m >= 10000) next
    shift <- sample(c(0, 0.5, 1), 1)
    x <- rnorm(n) + shift
    y <- rnorm(m)
    res <- ks_test(x, y)
    expect_true(res$exact)
    ref <- stats::ks.test(x, y)
    p_ours <- c(p_ours, res$p.value)
    p_r <- c(p_r, r_psmirnov2x_upper(ref$statistic[[1]], n, m))
    p_ks <- c(p_ks, ref$p.value)
    d_ours <- c(d_ours, res$statistic[[1]])
    d_ks <- c(d_ks, ref$statistic[[1]])
  }
  expect_gt(length(p_ours), 350L)
  expect_lt(max(abs(d_ours - d_ks)), 1e-12)
  expect_lt(max(abs(p_ours - p_r)), 1e-10)
  expect_lt(max(abs(p_ours - p_ks)), 1e-10)
  # relative agreement where the p-values are not tiny
  big <- p_r > 1e-6
  expect_lt(max(abs(p_ours[big] / p_r[big] - 1)), 1e-9)
})

test_that("asymptotic p-values match ks.test(exact = FALSE) to 1e-10", {
  set.seed(2)
  out <- list()
  for (i in 1:400) {
    n <- sample(2:80, 1)
    m <- sample(2:80, 1)
    ties <- i %% 2 == 0
    x <- rnorm(n, mean = sample(c(0, 0.3, 1), 1))
    y <- rnorm(m)
    if (ties) { x <- round(x, 1); y <- round(y, 1) }
    a <- alts[i %% 3 + 1]
    res <- suppressWarnings(ks_test(x, y, alternative = a, exact = FALSE))
    ref <- suppressWarnings(stats::ks.test(x, y, alternative = a, exact = FALSE))
    expect_false(res$exact)
    expect_identical(names(res$statistic), names(ref$statistic))
    expect_identical(res$alternative, ref$alternative)
    expect_identical(res$method, ref$method)
    out[[i]] <- c(res$statistic[[1]], ref$statistic[[1]], res$p.value, ref$p.value)
  }
  out <- do.call(rbind, out)
  expect_lt(max(abs(out[, 1] - out[, 2])), 1e-12)
  expect_lt(max(abs(out[, 3] - out[, 4])), 1e-10)
  big <- out[, 4] > 1e-8
  expect_lt(max(abs(out[big, 3] / out[big, 4] - 1)), 1e-9)
  # the range of the limit distribution was covered (both series)
  expect_true(any(out[, 4] < 0.01) && any(out[, 4] > 0.5))
})

test_that("large samples: default asymptotic path matches ks.test", {
  set.seed(3)
  for (i in 1:40) {
    n <- sample(100:3000, 1)
    m <- sample(100:3000, 1)
    x <- rexp(n) * sample(c(1, 1.05, 1.2), 1)
    y <- rexp(m)
    if (i %% 4 == 0) { x <- round(x, 2); y <- round(y, 2) }
    a <- alts[i %% 3 + 1]
    res <- suppressWarnings(ks_test(x, y, alternative = a))
    ref <- suppressWarnings(stats::ks.test(x, y, alternative = a))
    expect_false(res$exact)
    expect_equal(res$statistic[[1]], ref$statistic[[1]], tolerance = 1e-10)
    expect_lt(abs(res$p.value - ref$p.value), 1e-10)
  }
})

test_that("statistic D with ties equals ks.test's", {
  set.seed(4)
  d_ours <- d_ref <- numeric(0)
  for (i in 1:300) {
    n <- sample(1:50, 1)
    m <- sample(1:50, 1)
    x <- sample(1:8, n, replace = TRUE)
    y <- sample(1:8, m, replace = TRUE) + sample(0:1, 1)
    a <- alts[i %% 3 + 1]
    res <- suppressWarnings(ks_test(x, y, alternative = a, exact = FALSE))
    ref <- suppressWarnings(stats::ks.test(x, y, alternative = a, exact = FALSE))
    d_ours <- c(d_ours, res$statistic[[1]])
    d_ref <- c(d_ref, ref$statistic[[1]])
  }
  # R's cumsum of 1/n and -1/m can leave a few ulps where the exact
  # statistic is 0 or a fraction k/(n m); compare on the absolute scale.
  expect_lt(max(abs(d_ours - d_ref)), 1e-12)
})

test_that("exact p-values with ties agree with R's psmirnov where R has it", {
  # R >= 4.3 (and this patched 4.2 build) compute the exact conditional
  # distribution with ties in ks.test; plain R 4.2 falls back to the
  # asymptotic p-value there, so the comparison is skipped.
  skip_if_not(exists("psmirnov", envir = asNamespace("stats"), inherits = FALSE),
              "stats::psmirnov not available")
  set.seed(5)
  p_ours <- p_ref <- numeric(0)
  for (i in 1:150) {
    n <- sample(1:40, 1)
    m <- sample(1:40, 1)
    x <- sample(1:6, n, replace = TRUE)
    y <- sample(1:6, m, replace = TRUE)
    # Only "two.sided" and "greater": R's psmirnov checks the one-sided
    # boundary on F_x - F_y for both one-sided alternatives.  Without ties
    # reversing the order makes D^- and D^+ equally distributed, but with
    # ties the tie blocks are not symmetric and R's "less" p-value is not
    # the conditional one (see the enumerated example below).
    a <- c("two.sided", "greater")[i %% 2 + 1]
    p_ours <- c(p_ours, ks_test(x, y, alternative = a)$p.value)
    p_ref <- c(p_ref, stats::ks.test(x, y, alternative = a)$p.value)
  }
  expect_lt(max(abs(p_ours - p_ref)), 1e-10)
})

test_that("one-sided 'less' with ties: enumerated by hand", {
  # x = 2, y = (1, 1, 1, 3, 4, 4, 4, 5, 6): D^- = F_y(1) - F_x(1) = 3/9.
  # Of the 10 equally likely choices of the x value among the pooled values
  # (1, 1, 1, 2, 3, 4, 4, 4, 5, 6), D^- >= 1/3 unless x is one of the 1's
  # (then F_x = 1 from the first block on): P = 7/10.  (R's psmirnov gives
  # 0.5 here, the P(D^+ >= 1/3) of the same tie pattern.)
  res <- ks_test(2, c(3, 4, 5, 4, 6, 1, 1, 1, 4), alternative = "less")
  expect_equal(res$statistic[["D^-"]], 1 / 3)
  expect_equal(res$p.value, 7 / 10)
  expect_true(res$exact)
})

test_that("exact computation is stable beyond the range of path counts", {
  # choose(n + m, n) overflows a double above n + m = 1029; the scaled
  # recursion must stay accurate.  R's psmirnov2x (also scaled) is the
  # reference for the two-sided no-ties case.
  set.seed(6)
  x <- rnorm(700) + 0.1
  y <- rnorm(650)
  res <- ks_test(x, y, exact = TRUE)
  expect_true(res$exact)
  ref <- r_psmirnov2x_upper(res$statistic[[1]], 700, 650)
  expect_lt(abs(res$p.value - ref), 1e-10)
  # n = m = 2000: still equal to psmirnov2x; at n = m = 3000 R's routine
  # underflows (returns p = 1) while ours stays next to the limit law.
  x2 <- rnorm(2000) + 0.05
  y2 <- rnorm(2000)
  r2 <- ks_test(x2, y2, exact = TRUE)
  expect_lt(abs(r2$p.value - r_psmirnov2x_upper(r2$statistic[[1]], 2000, 2000)), 1e-10)
  x3 <- rnorm(3000) + 0.05
  y3 <- rnorm(3000)
  r3 <- ks_test(x3, y3, exact = TRUE)
  expect_lt(abs(r3$p.value - ks_test(x3, y3, exact = FALSE)$p.value), 2e-3)
  # one-sided without ties: the exact tail is close to exp(-2 n D^2) here
  for (a in c("less", "greater")) {
    pe <- ks_test(x, y, alternative = a, exact = TRUE)$p.value
    pa <- ks_test(x, y, alternative = a, exact = FALSE)$p.value
    expect_true(is.finite(pe) && pe > 0 && pe <= 1)
    expect_lt(abs(pe / pa - 1), 0.1)
  }
  # with ties near the largest size R's path counts can hold (n + m = 950)
  skip_if_not(exists("psmirnov", envir = asNamespace("stats"), inherits = FALSE),
              "stats::psmirnov not available")
  xe <- round(rnorm(500) + 0.1, 1)
  ye <- round(rnorm(450), 1)
  for (a in c("two.sided", "greater")) {
    pe <- ks_test(xe, ye, alternative = a, exact = TRUE)$p.value
    pr <- stats::ks.test(xe, ye, alternative = a, exact = TRUE)$p.value
    expect_lt(abs(pe - pr), 1e-10)
  }
})

test_that("the asymptotic path handles a million values quickly", {
  set.seed(7)
  x <- rnorm(1e6)
  y <- rnorm(5e5, 0.002)
  tm <- system.time(res <- ks_test(x, y))[["elapsed"]]
  expect_false(res$exact)
  expect_lt(tm, 5)
  ref <- stats::ks.test(x, y)
  expect_equal(res$statistic[[1]], ref$statistic[[1]], tolerance = 1e-10)
  expect_lt(abs(res$p.value - ref$p.value), 1e-10)
})

test_that("edge cases: single values, identical samples, D = 0", {
  expect_equal(ks_test(1, 2)$p.value, 1)
  expect_equal(ks_test(1, 2)$statistic[["D"]], 1)
  expect_equal(ks_test(c(1, 2), c(1, 2))$p.value, 1)
  expect_equal(ks_test(c(1, 2), c(1, 2))$statistic[["D"]], 0)
  # x entirely below y: F_x lies above F_y
  r <- ks_test(1:5, 6:10, alternative = "greater")
  expect_equal(r$statistic[["D^+"]], 1)
  expect_equal(r$p.value, 1 / choose(10, 5))
  expect_equal(ks_test(1:5, 6:10, alternative = "less")$p.value, 1)
  expect_equal(ks_test(1:5, 6:10)$p.value, 2 / choose(10, 5))
})

test_that("output mirrors ks.test", {
  x <- c(0.61, 0.29, 0.06, 0.59, -1.73, -0.74, 0.51, -0.56, 0.39, 1.64)
  y <- c(-0.25, 1.38, 0.91, 1.18, 1.87, 1.65, 1.32, 0.97, 0.47, 0.62, 1.28)
  res <- ks_test(x, y)
  ref <- stats::ks.test(x, y)
  expect_s3_class(res, "htest")
  expect_s3_class(res, "speeduptest_htest")
  expect_identical(res$method, ref$method)
  expect_identical(res$data.name, ref$data.name)
  expect_identical(res$alternative, ref$alternative)
  expect_identical(names(res$statistic), "D")
  expect_identical(names(ks_test(x, y, "less")$statistic), "D^-")
  expect_identical(names(ks_test(x, y, "greater")$statistic), "D^+")
  expect_identical(ks_test(x, y, exact = FALSE)$method,
                   "Asymptotic two-sample Kolmogorov-Smirnov test")
})

test_that("asymptotic p-value with ties warns as ks.test does", {
  expect_warning(ks_test(c(1, 2, 2, 3), c(2, 3, 4), exact = FALSE),
                 class = "speeduptest_warning_data")
  expect_no_warning(ks_test(c(1, 2, 2, 3), c(2, 3, 4)))
})

test_that("missing values: error unless na_rm", {
  expect_error(ks_test(c(1, NA, 3), 1:4), class = "speeduptest_error_input")
  r <- ks_test(c(1, NA, 3.5), c(2, 4, 5), na_rm = TRUE)
  expect_equal(r$p.value, ks_test(c(1, 3.5), c(2, 4, 5))$p.value)
})

test_that("bad inputs are classed errors naming the argument", {
  expect_error(ks_test("a", 1:3), class = "speeduptest_error_input", regexp = "`x`")
  expect_error(ks_test(1:3, list(1)), class = "speeduptest_error_input", regexp = "`y`")
  expect_error(ks_test(numeric(0), 1:3), class = "speeduptest_error_data", regexp = "`x`")
  expect_error(ks_test(1:3, c(1, Inf)), class = "speeduptest_error_input", regexp = "`y`")
  expect_error(ks_test(1:3, 1:4, alternative = "bigger"),
               class = "speeduptest_error_input", regexp = "`alternative`")
  expect_error(ks_test(1:3, 1:4, exact = NA),
               class = "speeduptest_error_input", regexp = "`exact`")
  expect_error(ks_test(1:3, 1:4, na_rm = "yes"),
               class = "speeduptest_error_input", regexp = "`na_rm`")
  expect_error(ks_test(as.double(1:20000), as.double(1:20000), exact = TRUE),
               class = "speeduptest_error_input", regexp = "`exact")
})

test_that("a constant sample against a varying one agrees with ks.test", {
  set.seed(43)
  for (i in 1:40) {
    n <- sample(3:60, 1)
    m <- sample(3:60, 1)
    x <- rep(round(runif(1, 1, 5), 1), n)
    y <- rnorm(m, 3, 1)
    for (alt in c("two.sided", "less", "greater")) {
      ours <- suppressWarnings(ks_test(x, y, alternative = alt, exact = FALSE))
      ref <- suppressWarnings(ks.test(x, y, alternative = alt, exact = FALSE))
      expect_equal(unname(ours$statistic), unname(ref$statistic), tolerance = 1e-12)
      # Far in the tail R obtains the p-value as 1 minus a probability close
      # to 1, which leaves an absolute error near 1e-16; ks_test sums the
      # tail directly.  Relative agreement to 1e-10, or absolute to 1e-15.
      expect_lte(abs(ours$p.value - ref$p.value), max(1e-10 * ref$p.value, 1e-15))
    }
  }
})
