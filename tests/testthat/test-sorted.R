# The median path sorts the data once (src/sorted.c) and selects order
# statistics of the pairwise differences without forming them
# (src/select.c).  These tests check it against references that form
# everything: outer() with sort() for the Hodges-Lehmann order statistics,
# stats::wilcox.test and stats::ks.test for the tests, at sizes where the
# selection samples and walks (n m above its gathering threshold).

hl_reference <- function(x, y, conf_level) {
  d <- sort(as.vector(outer(x, y, "-")))
  nm <- length(d)
  est <- if (nm %% 2) d[(nm + 1) / 2] else (d[nm / 2] + d[nm / 2 + 1]) / 2
  list(d = d, est = est)
}

test_that("the Hodges-Lehmann estimate and interval match the formed differences", {
  set.seed(101)
  for (kind in c("continuous", "ties", "few values")) {
    n <- 1200
    m <- 900
    x <- switch(kind, continuous = rlnorm(n, 0.1), ties = round(rlnorm(n, 0.1), 1),
                "few values" = sample(1:4, n, TRUE))
    y <- switch(kind, continuous = rlnorm(m), ties = round(rlnorm(m), 1),
                "few values" = sample(1:4, m, TRUE))
    ours <- wilcoxon_test(x, y, conf_int = TRUE, conf_level = 0.9)
    ref <- suppressWarnings(stats::wilcox.test(x, y, conf.int = TRUE,
                                               conf.level = 0.9))
    expect_identical(unname(ours$estimate), unname(hl_reference(x, y)$est))
    # R finds the ends with uniroot; ours are the differences it converges to
    expect_lt(max(rel_diff(ours$conf.int, ref$conf.int, scale = 1)), 1e-4)
    d <- hl_reference(x, y)$d
    expect_true(all(ours$conf.int %in% d))
    expect_equal(ours$p.value, ref$p.value, tolerance = 1e-12)
  }
})

test_that("the median protocol's intervals are order statistics of the differences", {
  set.seed(102)
  x <- rlnorm(1500, log(10), 0.1)
  y <- rlnorm(1400, log(9.9), 0.1)
  v <- median_test(x, y, alpha = 0.1)
  d <- hl_reference(x, y)$d
  expect_identical(v$shift, hl_reference(x, y)$est)
  expect_true(all(v$shift_ci %in% d))
  ld <- hl_reference(log(x), log(y))$d
  for (end in log(v$speedup_ci)) expect_lt(min(abs(ld - end)), 1e-12)
  # and not just any difference: the ones the log-scale interval selects
  # (two-sided at 1 - 2 alpha: each end the one-sided 1 - alpha bound)
  lw <- wilcoxon_test(log(x), log(y), conf_int = TRUE, conf_level = 0.8)
  expect_identical(as.vector(v$speedup_ci), exp(as.vector(lw$conf.int)))
  expect_identical(attr(v$speedup_ci, "estimate"), exp(unname(lw$estimate)))
  w <- stats::wilcox.test(x, y, alternative = "greater")
  expect_equal(v$p_value, w$p.value, tolerance = 1e-12)
  k <- suppressWarnings(stats::ks.test(x - median(x), y - median(y)))
  expect_equal(v$steps[[1]]$p.value, k$p.value, tolerance = 1e-12)
})

test_that("non-finite values give a domain error in the core, never a hang", {
  ns <- asNamespace("speeduptest")
  for (bad in list(c(1, 2, Inf, 4), c(1, NaN, 3, 4), c(-Inf, 1, 2, 3))) {
    r <- .Call(ns$ffi_wilcoxon_test, bad, c(2, 3, 5, 7), 0L, 0, 0L, TRUE,
               TRUE, 0.95)
    expect_identical(r$status, 5L)
    r <- .Call(ns$ffi_run_protocol, bad, c(2, 3, 5, 7), 1L, FALSE, 0.05,
               TRUE, 7L)
    expect_identical(r$status, 5L)
  }
  r <- .Call(ns$ffi_wilcoxon_test, c(1, 2, 3), c(2, 3, 5), 0L, Inf, 0L, TRUE,
             TRUE, 0.95)
  expect_identical(r$status, 5L)
})
