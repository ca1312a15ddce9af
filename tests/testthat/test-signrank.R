# Reference: stats::wilcox.test(d) (same statistic, psignrank without ties
# or zeros, same normal approximation) and brute-force enumeration of all
# 2^n sign patterns for the exact distribution with ties and zeros.

brute_signrank <- function(d, mu = 0) {
  v <- d - mu
  v <- v[v != 0]
  n <- length(v)
  r <- rank(abs(v))
  v_obs <- sum(r[v > 0])
  signs <- as.matrix(expand.grid(rep(list(0:1), n)))
  s <- as.vector(signs %*% r)
  null_tails(s, v_obs)
}

test_that("agrees with wilcox.test on at least 1000 random cases", {
  set.seed(20261122)
  alts <- c("two.sided", "less", "greater")
  n_cmp <- 0L
  n_exact <- 0L
  n_tied_asym <- 0L
  for (i in 1:1500) {
    n <- sample(c(3:15, 25, 40, 49, 50, 51, 70, 120), 1)
    alt <- sample(alts, 1)
    mu <- if (runif(1) < 0.5) 0 else round(rnorm(1, sd = 0.3), 2)
    correct <- runif(1) < 0.5
    tied <- runif(1) < 0.3
    d <- rnorm(n, 0.2)
    if (tied) d <- round(d, 1)
    v <- d - mu
    ties <- any(v == 0) || anyDuplicated(abs(v[v != 0])) > 0
    k <- sum(v != 0)
    exact_arg <- if (runif(1) < 0.2) FALSE else NULL
    exact_r <- is.null(exact_arg) && k < 50
    if (exact_r && ties) next     # R falls back to the normal approximation
    ci <- exact_r && runif(1) < 0.5
    wa <- with_level_warning(
      signed_rank_test(d, alternative = alt, mu = mu, exact = exact_arg,
                       correct = correct, conf_int = ci))
    wb <- with_level_warning(
      wilcox.test(d, alternative = alt, mu = mu, exact = exact_arg,
                  correct = correct, conf.int = ci))
    a <- wa$value
    b <- wb$value
    expect_identical(wa$warned, wb$warned)
    expect_identical(unname(a$statistic), unname(b$statistic))
    expect_lt(rel_diff(a$p.value, b$p.value), 1e-10)
    expect_identical(a$method, b$method)
    if (ci) {
      expect_lt(max(rel_diff(a$conf.int, b$conf.int)), 1e-10)
      expect_lt(rel_diff(a$estimate, b$estimate), 1e-10)
      expect_equal(attr(a$conf.int, "conf.level"),
                   attr(b$conf.int, "conf.level"), tolerance = 1e-12)
    }
    n_cmp <- n_cmp + 1L
    n_exact <- n_exact + exact_r
    n_tied_asym <- n_tied_asym + (ties && !exact_r)
  }
  expect_gte(n_cmp, 1000L)
  expect_gte(n_exact, 300L)
  expect_gte(n_tied_asym, 100L)
})

test_that("paired form equals wilcox.test(paired = TRUE)", {
  set.seed(4)
  x <- rnorm(20, 1)
  y <- x - rnorm(20, 0.3)
  a <- signed_rank_test(x - y, conf_int = TRUE)
  b <- wilcox.test(x, y, paired = TRUE, conf.int = TRUE)
  expect_lt(rel_diff(a$p.value, b$p.value), 1e-10)
  expect_lt(max(rel_diff(a$conf.int, b$conf.int)), 1e-10)
})

test_that("exact p-values with and without ties equal enumeration of sign patterns", {
  set.seed(8)
  cases <- list(
    list(d = c(0, 1, 1, 2, -1, 3, 3)),
    list(d = c(-2, -2, 1, 2, 2, 4, -4, 5, 1, 0, 0, 3)),
    list(d = round(rnorm(12), 1)),
    list(d = round(rnorm(10, 0.5)), mu = 1),
    list(d = rnorm(12)),                         # no ties
    list(d = rnorm(6) + 1),                      # no ties
    list(d = c(1, 1, 1)),
    list(d = c(-1, 1, -1, 1, 2, -2, 0.5, 0.5, 0.5, -0.5, 3, 3))
  )
  for (cs in cases) {
    mu <- if (is.null(cs$mu)) 0 else cs$mu
    ref <- brute_signrank(cs$d, mu)
    for (alt in names(ref)) {
      a <- signed_rank_test(cs$d, alternative = alt, mu = mu, exact = TRUE)
      expect_true(a$exact)
      expect_equal(a$p.value, ref[[alt]], tolerance = 1e-12)
    }
  }
})

test_that("exact p-values without ties equal psignrank beyond the automatic range", {
  set.seed(9)
  d <- rnorm(120, 0.2)
  for (alt in c("two.sided", "less", "greater")) {
    a <- signed_rank_test(d, alternative = alt, exact = TRUE)
    b <- wilcox.test(d, alternative = alt, exact = TRUE)
    expect_lt(rel_diff(a$p.value, b$p.value), 1e-10)
  }
})

test_that("all values equal to mu: V = 0 and p = 1", {
  a <- signed_rank_test(c(2, 2, 2), mu = 2)
  expect_identical(unname(a$statistic), 0)
  expect_identical(a$p.value, 1)
})

test_that("exact interval with ties: Walsh averages at qsignrank positions", {
  set.seed(6)
  d <- round(rnorm(15, 0.5), 1)
  w <- outer(d, d, "+")
  w <- sort(w[!lower.tri(w)]) / 2
  a <- signed_rank_test(d, conf_int = TRUE)
  qu <- qsignrank(0.025, 15)
  expect_identical(as.vector(a$conf.int), c(w[qu], w[120 - qu + 1]))
  expect_identical(unname(a$estimate), median(w))
})

test_that("asymptotic estimate and interval: exact roots, within uniroot's tolerance of R", {
  # As for the rank-sum test: R's uniroot(tol = 1e-4) stops within 1e-4 of
  # the sign change, which is exactly at a Walsh average; the estimate's
  # equation W(d) = 0 holds on the whole gap between the two middle Walsh
  # averages when n (n + 1) / 2 is even.
  set.seed(98)
  tol <- 1.01e-4
  for (i in 1:40) {
    n <- sample(c(20, 55, 80, 150), 1)
    d <- rnorm(n, 0.2)
    if (i %% 4 == 0) d <- round(d, 1) + 0.01   # ties, no zeros
    alt <- sample(c("two.sided", "less", "greater"), 1)
    correct <- i %% 2 == 0
    cl <- sample(c(0.8, 0.9, 0.95, 0.99), 1)
    a <- signed_rank_test(d, alternative = alt, exact = FALSE,
                          correct = correct, conf_int = TRUE, conf_level = cl)
    b <- wilcox.test(d, alternative = alt, exact = FALSE, correct = correct,
                     conf.int = TRUE, conf.level = cl)
    w <- outer(d, d, "+")
    w <- sort(w[!lower.tri(w)]) / 2
    fin <- is.finite(a$conf.int)
    expect_identical(is.finite(b$conf.int), fin)
    expect_lt(max(abs(a$conf.int[fin] - b$conf.int[fin])), tol)
    expect_true(all(a$conf.int[fin] %in% w))
    expect_identical(unname(a$estimate), median(w))
    M <- length(w)
    expect_gte(unname(b$estimate), w[ceiling(M / 2)] - tol)
    expect_lte(unname(b$estimate), w[floor(M / 2) + 1] + tol)
  }
})

test_that("the interval does not depend on mu (R's drops the values equal to mu)", {
  set.seed(12)
  d <- round(rnorm(80, 0.3), 1)
  a <- signed_rank_test(d, exact = FALSE, conf_int = TRUE)
  b <- signed_rank_test(d, mu = d[3], exact = FALSE, conf_int = TRUE)
  expect_identical(a$conf.int, b$conf.int)
  expect_identical(a$estimate, b$estimate)
  expect_false(identical(a$p.value, b$p.value))
  # where no value equals mu both agree with R to its root tolerance
  r <- wilcox.test(d, mu = 0.05, exact = FALSE, conf.int = TRUE)
  expect_lt(max(abs(a$conf.int - r$conf.int)), 1.01e-4)
})

test_that("R's widening of an unreachable asymptotic level is reproduced", {
  d <- c(0.3, 1.2, 2.2, -0.4, 0.8)
  expect_warning(a <- signed_rank_test(d, exact = FALSE, conf_int = TRUE,
                                       conf_level = 0.99),
                 class = "speeduptest_warning")
  b <- suppressWarnings(wilcox.test(d, exact = FALSE, conf.int = TRUE,
                                    conf.level = 0.99))
  expect_equal(attr(a$conf.int, "conf.level"), attr(b$conf.int, "conf.level"))
  expect_lt(max(abs(a$conf.int - b$conf.int)), 1.01e-4)
})

test_that("input errors are classed and name the argument", {
  expect_error(signed_rank_test("a"), class = "speeduptest_error_input",
               regexp = "`d`")
  expect_error(signed_rank_test(c(1, NA)), class = "speeduptest_error_input",
               regexp = "`d`")
  expect_error(signed_rank_test(c(1, -Inf)), class = "speeduptest_error_input",
               regexp = "`d`")
  expect_error(signed_rank_test(numeric(0)), class = "speeduptest_error_data",
               regexp = "`d`")
  expect_error(signed_rank_test(1:5, conf_level = 0),
               class = "speeduptest_error_input", regexp = "`conf_level`")
  expect_error(signed_rank_test(1:5, alternative = "up"),
               class = "speeduptest_error_input", regexp = "`alternative`")
  expect_error(signed_rank_test(1:5, mu = Inf),
               class = "speeduptest_error_input", regexp = "`mu`")
  expect_error(signed_rank_test(rnorm(2000), exact = TRUE),
               class = "speeduptest_error_data", regexp = "`exact")
})

test_that("one million values: asymptotic path with the interval completes", {
  set.seed(2)
  d <- rnorm(1e6, 0.001)
  a <- signed_rank_test(d, alternative = "greater", conf_int = TRUE)
  expect_false(a$exact)
  expect_true(is.finite(a$p.value) && is.finite(a$estimate))
  expect_true(a$conf.int[1] < a$estimate)
})

test_that("constant differences agree with wilcox.test", {
  for (v in c(-2.5, 0.7, 3)) {
    for (n in c(3, 10, 55)) {
      d <- rep(v, n)
      for (alt in c("two.sided", "less", "greater")) {
        ours <- signed_rank_test(d, alternative = alt, exact = FALSE)
        ref <- suppressWarnings(wilcox.test(d, alternative = alt, exact = FALSE))
        expect_equal(unname(ours$statistic), unname(ref$statistic))
        expect_equal(ours$p.value, ref$p.value, tolerance = 1e-10)
      }
    }
  }
})

test_that("small samples: Walsh averages' order statistics at qsignrank positions", {
  # Up to 2048 Walsh averages (n <= 63) take the sub-grid path of select.c
  # (with vector code); the reference is the averages formed and sorted.
  set.seed(20261128)
  for (n in c(5, 10, 17, 31, 44, 63, sample(6:63, 10))) {
    for (kind in 0:1) {
      d <- if (kind) round(rnorm(n, 0.5), 1) else rnorm(n, 0.5)
      w <- outer(d, d, "+")
      w <- sort(w[!lower.tri(w)]) / 2
      a <- suppressWarnings(signed_rank_test(d, conf_int = TRUE, exact = TRUE))
      expect_identical(unname(a$estimate), median(w))
      qu <- max(qsignrank(0.025, n), 1)
      expect_identical(as.vector(a$conf.int), c(w[qu], w[length(w) - qu + 1]))
    }
  }
})
