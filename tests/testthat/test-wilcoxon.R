# Reference: stats::wilcox.test (same statistic, same exact distribution
# without ties, same normal approximation), brute-force enumeration of all
# splits for the exact distribution with ties, and the n m differences
# formed explicitly for the Hodges-Lehmann quantities.

# All choose(N, n) splits: p-values of the exact conditional test.
brute_ranksum <- function(x, y, mu = 0) {
  v <- c(x - mu, y)
  r <- rank(v)
  n <- length(x)
  n_all <- length(v)
  w_obs <- sum(r[seq_len(n)]) - n * (n + 1) / 2
  splits <- utils::combn(n_all, n)
  w <- colSums(matrix(r[splits], nrow = n)) - n * (n + 1) / 2
  null_tails(w, w_obs)
}

test_that("agrees with wilcox.test on at least 1000 random cases", {
  set.seed(20261121)
  alts <- c("two.sided", "less", "greater")
  n_cmp <- 0L
  n_exact <- 0L
  n_tied_asym <- 0L
  for (i in 1:1200) {
    n <- sample(c(1:12, 20, 35, 49, 50, 51, 60, 80), 1)
    m <- sample(c(1:12, 20, 35, 49, 50, 51, 60, 80), 1)
    if (n + m < 3) next
    alt <- sample(alts, 1)
    mu <- if (runif(1) < 0.5) 0 else round(rnorm(1, sd = 0.5), 3)
    correct <- runif(1) < 0.5
    tied <- runif(1) < 0.3
    x <- rnorm(n, 0.3)
    y <- rnorm(m)
    if (tied) {
      x <- round(x, 1)
      y <- round(y, 1)
      mu <- round(mu, 1)
    }
    ties <- anyDuplicated(c(x - mu, y)) > 0
    exact_r <- n < 50 && m < 50
    exact_arg <- if (runif(1) < 0.2) FALSE else NULL
    if (isFALSE(exact_arg)) exact_r <- FALSE
    # With ties and an exact test R uses the normal approximation; we do
    # not (checked against enumeration below), so those cases are skipped.
    if (exact_r && ties) next
    ci <- exact_r && runif(1) < 0.5
    wa <- with_level_warning(
      wilcoxon_test(x, y, alternative = alt, mu = mu, exact = exact_arg,
                    correct = correct, conf_int = ci))
    wb <- with_level_warning(
      wilcox.test(x, y, alternative = alt, mu = mu, exact = exact_arg,
                  correct = correct, conf.int = ci))
    a <- wa$value
    b <- wb$value
    expect_identical(wa$warned, wb$warned)
    expect_identical(unname(a$statistic), unname(b$statistic))
    expect_lt(rel_diff(a$p.value, b$p.value), 1e-10)
    expect_identical(a$method, b$method)
    expect_identical(a$exact, exact_r)
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

test_that("exact p-values with and without ties equal enumeration of all splits", {
  set.seed(7)
  cases <- list(
    list(x = c(1, 2, 2, 3, 5), y = c(2, 3, 3, 4, 6, 7)),
    list(x = c(3, 3, 3), y = c(1, 3, 5, 5)),
    list(x = c(1, 1, 2, 2, 2, 4, 4, 6), y = c(2, 3, 3, 4, 4, 5, 6, 6)),
    list(x = round(runif(8) * 4), y = round(runif(8) * 4)),
    list(x = round(rnorm(7), 1), y = round(rnorm(6), 1), mu = 0.2),
    list(x = rnorm(8), y = rnorm(8) + 1),               # no ties
    list(x = rnorm(3), y = rnorm(9)),                   # no ties
    list(x = c(0.5), y = c(0.1, 0.5, 0.5, 0.9)),
    list(x = c(1, 2, 2), y = c(2, 2))
  )
  for (cs in cases) {
    mu <- if (is.null(cs$mu)) 0 else cs$mu
    ref <- brute_ranksum(cs$x, cs$y, mu)
    for (alt in names(ref)) {
      a <- wilcoxon_test(cs$x, cs$y, alternative = alt, mu = mu, exact = TRUE)
      expect_true(a$exact)
      expect_equal(a$p.value, ref[[alt]], tolerance = 1e-12)
    }
  }
})

test_that("exact p-values without ties equal pwilcox also beyond the automatic range", {
  set.seed(3)
  x <- rnorm(60)
  y <- rnorm(70) + 0.4
  for (alt in c("two.sided", "less", "greater")) {
    a <- wilcoxon_test(x, y, alternative = alt, exact = TRUE)
    b <- wilcox.test(x, y, alternative = alt, exact = TRUE)
    expect_lt(rel_diff(a$p.value, b$p.value), 1e-10)
  }
})

test_that("all values tied gives p = 1 and a point interval", {
  # 3 + 2 values cannot reach 95%: the level warning, as in R
  expect_warning(a <- wilcoxon_test(c(2, 2, 2), c(2, 2), conf_int = TRUE),
                 "not achievable")
  expect_identical(a$p.value, 1)
  expect_identical(unname(a$estimate), 0)
  b <- wilcoxon_test(rep(5, 60), rep(3, 60), mu = 2, conf_int = TRUE)
  expect_identical(b$p.value, 1)
  expect_equal(as.vector(b$conf.int), c(2, 2))
})

test_that("W / (n m) estimates P[X > Y] + P[X = Y] / 2", {
  set.seed(11)
  x <- round(rnorm(30), 1)
  y <- round(rnorm(25), 1)
  a <- wilcoxon_test(x, y)
  pxy <- mean(outer(x, y, ">")) + mean(outer(x, y, "==")) / 2
  expect_equal(unname(a$statistic) / (30 * 25), pxy, tolerance = 1e-14)
})

test_that("exact interval with ties: order statistics at qwilcox positions", {
  # Noether (1967): the closed interval between these order statistics keeps
  # coverage >= conf_level for discrete data.
  set.seed(5)
  x <- round(rnorm(9, 1), 1)
  y <- round(rnorm(11), 1)
  d <- sort(outer(x, y, "-"))
  a <- wilcoxon_test(x, y, conf_int = TRUE, conf_level = 0.9)
  qu <- qwilcox(0.05, 9, 11)
  expect_identical(as.vector(a$conf.int), c(d[qu], d[99 - qu + 1]))
  expect_identical(unname(a$estimate), median(d))
  g <- wilcoxon_test(x, y, conf_int = TRUE, alternative = "greater")
  expect_identical(as.vector(g$conf.int), c(d[qwilcox(0.05, 9, 11)], Inf))
})

test_that("unreachable exact level is reported with a warning, as R does", {
  x <- c(1.1, 2.3)
  y <- c(0.2, 0.9, 1.7)
  expect_warning(a <- wilcoxon_test(x, y, conf_int = TRUE), class = "speeduptest_warning")
  b <- suppressWarnings(wilcox.test(x, y, conf.int = TRUE))
  expect_equal(attr(a$conf.int, "conf.level"), attr(b$conf.int, "conf.level"))
  expect_equal(as.vector(a$conf.int), as.vector(b$conf.int))
})

test_that("asymptotic estimate and interval: exact roots, within uniroot's tolerance of R", {
  # R inverts the normal approximation with uniroot(tol = 1e-4): its answer
  # is within 1e-4 (+ a few ulps) of the sign change, which lies exactly at
  # a pairwise difference; we return that difference.  The estimate solves
  # W(d) = 0, true on the whole gap between the two middle differences when
  # n m is even, where uniroot may stop anywhere; ours is their midpoint.
  set.seed(99)
  tol <- 1.01e-4
  for (i in 1:40) {
    n <- sample(c(30, 55, 80, 120), 1)
    m <- sample(c(40, 52, 90), 1)
    x <- rnorm(n, 0.2)
    y <- rnorm(m)
    if (i %% 4 == 0) {
      x <- round(x, 1)
      y <- round(y, 1)
    }
    alt <- sample(c("two.sided", "less", "greater"), 1)
    correct <- i %% 2 == 0
    cl <- sample(c(0.8, 0.9, 0.95, 0.99), 1)
    a <- wilcoxon_test(x, y, alternative = alt, exact = FALSE,
                       correct = correct, conf_int = TRUE, conf_level = cl)
    b <- wilcox.test(x, y, alternative = alt, exact = FALSE,
                     correct = correct, conf.int = TRUE, conf.level = cl)
    d <- sort(outer(x, y, "-"))
    fin <- is.finite(a$conf.int)
    expect_identical(is.finite(b$conf.int), fin)
    expect_lt(max(abs(a$conf.int[fin] - b$conf.int[fin])), tol)
    expect_true(all(a$conf.int[fin] %in% d))
    expect_identical(unname(a$estimate), median(d))
    nm <- n * m
    lo <- d[ceiling(nm / 2)]
    hi <- d[floor(nm / 2) + 1]
    expect_gte(unname(b$estimate), lo - tol)
    expect_lte(unname(b$estimate), hi + tol)
  }
})

test_that("selection of order statistics matches the sorted differences", {
  set.seed(17)
  for (i in 1:5) {
    x <- rexp(sample(200:400, 1))
    y <- round(rexp(sample(150:300, 1)), 2)
    d <- sort(outer(x, y, "-"))
    a <- wilcoxon_test(x, y, conf_int = TRUE, conf_level = 0.9)
    expect_identical(unname(a$estimate), median(d))
  }
})

test_that("input errors are classed and name the argument", {
  expect_error(wilcoxon_test("a", 1:3), class = "speeduptest_error_input",
               regexp = "`x`")
  expect_error(wilcoxon_test(1:3, list(1)), class = "speeduptest_error_input",
               regexp = "`y`")
  expect_error(wilcoxon_test(c(1, NA, 3), 1:3), class = "speeduptest_error_input",
               regexp = "`x`")
  expect_silent(wilcoxon_test(c(1, NA, 3), 1:3, na_rm = TRUE))
  expect_error(wilcoxon_test(c(1, Inf), 1:3), class = "speeduptest_error_input",
               regexp = "`x`")
  expect_error(wilcoxon_test(1:3, numeric(0)), class = "speeduptest_error_data",
               regexp = "`y`")
  expect_error(wilcoxon_test(1:3, 4:6, conf_level = 1.5),
               class = "speeduptest_error_input", regexp = "`conf_level`")
  expect_error(wilcoxon_test(1:3, 4:6, alternative = "bigger"),
               class = "speeduptest_error_input", regexp = "`alternative`")
  expect_error(wilcoxon_test(1:3, 4:6, mu = NA), class = "speeduptest_error_input",
               regexp = "`mu`")
  expect_error(wilcoxon_test(1:3, 4:6, exact = "yes"),
               class = "speeduptest_error_input", regexp = "`exact`")
  expect_error(wilcoxon_test(1:3, 4:6, correct = NA),
               class = "speeduptest_error_input", regexp = "`correct`")
  # an exact test whose counting table would be too large
  expect_error(wilcoxon_test(seq_len(3000), seq_len(3000) + 0.5, exact = TRUE),
               class = "speeduptest_error_data", regexp = "`exact")
})

test_that("one million values: asymptotic path with the interval completes", {
  set.seed(1)
  x <- rlnorm(5e5)
  y <- rlnorm(5e5) * 0.98
  a <- wilcoxon_test(x, y, alternative = "greater", conf_int = TRUE)
  expect_false(a$exact)
  expect_true(is.finite(a$p.value) && is.finite(a$estimate))
  expect_true(a$conf.int[1] < a$estimate)
})

# Samples of sizes n and m without ties whose Mann-Whitney statistic is w:
# the ranks of x are i + d_i with 0 <= d_1 <= ... <= d_n <= m summing to w.
split_with_w <- function(n, m, w) {
  d <- integer(n)
  left <- w
  for (i in n:1) {
    d[i] <- min(m, left)
    left <- left - d[i]
  }
  rx <- seq_len(n) + d
  list(x = as.numeric(rx), y = as.numeric(setdiff(seq_len(n + m), rx)))
}

test_that("the exact no-ties distribution (Harding) equals pwilcox in all tails", {
  # statistics at both extremes, next to them, and in the body, for sizes
  # up to 49 x 49; pwilcox counts with cwilcox's recursion, independently
  set.seed(11)
  sizes <- rbind(as.matrix(expand.grid(n = c(1:6, 10, 25, 49),
                                       m = c(1:6, 10, 25, 49))),
                 cbind(n = sample(1:49, 60, TRUE), m = sample(1:49, 60, TRUE)))
  worst <- 0
  wrong_w <- 0L
  n_cmp <- 0L
  for (s in seq_len(nrow(sizes))) {
    n <- sizes[s, 1]
    m <- sizes[s, 2]
    nm <- n * m
    ws <- unique(pmin(nm, pmax(0, c(0, 1, 2, 5, nm %/% 4, nm %/% 2,
                                    (nm + 1) %/% 2, nm - 5, nm - 2, nm - 1,
                                    nm, sample(0:nm, 2)))))
    for (w in ws) {
      sp <- split_with_w(n, m, w)
      le <- pwilcox(w, n, m)
      ge <- pwilcox(w - 1, n, m, lower.tail = FALSE)
      ref <- c(less = le, greater = ge, two.sided = min(1, 2 * min(le, ge)))
      for (alt in names(ref)) {
        a <- wilcoxon_test(sp$x, sp$y, alternative = alt, exact = TRUE)
        wrong_w <- wrong_w + !identical(unname(a$statistic), as.numeric(w))
        worst <- max(worst, rel_diff(a$p.value, ref[[alt]]))
        n_cmp <- n_cmp + 1L
      }
    }
  }
  expect_identical(wrong_w, 0L)
  expect_gte(n_cmp, 3000L)
  expect_lt(worst, 1e-12)
})

test_that("the exact interval's quantiles use the same table as the p-value", {
  set.seed(12)
  for (i in 1:20) {
    n <- sample(2:49, 1)
    m <- sample(2:49, 1)
    x <- rnorm(n, 0.2)
    y <- rnorm(m)
    a <- wilcoxon_test(x, y, conf_int = TRUE)
    b <- wilcoxon_test(x, y)
    r <- wilcox.test(x, y, conf.int = TRUE)
    expect_identical(a$p.value, b$p.value)
    expect_lt(max(rel_diff(a$conf.int, r$conf.int)), 1e-10)
  }
})

test_that("exact p-values with ties (tail-pruned counting) equal enumeration", {
  # random tie patterns, both group orders (n < m and n > m), statistics in
  # both tails and in the body, so that every pruning and reflection branch
  # of the counting runs
  set.seed(13)
  worst <- 0
  for (i in 1:60) {
    n <- sample(1:8, 1)
    m <- sample(1:8, 1)
    if (n + m < 3) next
    levels <- sample(2:6, 1)
    shift <- sample(c(-3, -1, 0, 1, 3), 1)
    x <- sample(levels, n, TRUE) + shift
    y <- sample(levels, m, TRUE)
    if (length(unique(c(x, y))) < 2) next
    ref <- brute_ranksum(x, y)
    for (alt in names(ref)) {
      a <- wilcoxon_test(x, y, alternative = alt, exact = TRUE)
      worst <- max(worst, rel_diff(a$p.value, ref[[alt]]))
    }
  }
  expect_lt(worst, 1e-12)
})

test_that("a constant sample against a varying one agrees with wilcox.test", {
  set.seed(42)
  for (i in 1:40) {
    n <- sample(3:60, 1)
    m <- sample(3:60, 1)
    x <- rep(round(runif(1, 1, 5), 1), n)
    y <- round(rnorm(m, 3, 1), 1)
    for (alt in c("two.sided", "less", "greater")) {
      for (correct in c(TRUE, FALSE)) {
        ours <- wilcoxon_test(x, y, alternative = alt, exact = FALSE, correct = correct)
        ref <- suppressWarnings(wilcox.test(x, y, alternative = alt, exact = FALSE,
                                            correct = correct))
        expect_equal(unname(ours$statistic), unname(ref$statistic), tolerance = 1e-12)
        expect_equal(ours$p.value, ref$p.value, tolerance = 1e-10)
        # and the same roles swapped: the varying sample first
        ours <- wilcoxon_test(y, x, alternative = alt, exact = FALSE, correct = correct)
        ref <- suppressWarnings(wilcox.test(y, x, alternative = alt, exact = FALSE,
                                            correct = correct))
        expect_equal(ours$p.value, ref$p.value, tolerance = 1e-10)
      }
    }
  }
})

test_that("exact p-values with ties equal coin's exact test at larger sizes", {
  skip_if_not_installed("coin")
  coin_p <- function(x, y, alt) {
    d <- data.frame(v = c(x, y), g = factor(rep(c("x", "y"),
                                                c(length(x), length(y)))))
    as.numeric(coin::pvalue(coin::wilcox_test(v ~ g, data = d,
                                              distribution = "exact",
                                              alternative = alt)))
  }
  set.seed(31)
  cases <- list(
    list(x = round(rnorm(60), 1), y = round(rnorm(45, 0.3), 1)),
    list(x = sample(4, 70, TRUE), y = sample(4, 30, TRUE)),
    list(x = sample(10, 25, TRUE), y = sample(10, 90, TRUE) + 1),
    # n = m = 200 with ties: refused before the band-pruned count
    list(x = round(rnorm(200), 1), y = round(rnorm(200, 0.1), 1))
  )
  # coin's two-sided p-value is P[|T - E T| >= |t - E T|]; ours is twice
  # the smaller tail (as documented), built from the one-sided ones
  for (cs in cases) {
    ref <- c(less = coin_p(cs$x, cs$y, "less"),
             greater = coin_p(cs$x, cs$y, "greater"))
    ref[["two.sided"]] <- min(1, 2 * min(ref))
    for (alt in names(ref)) {
      a <- wilcoxon_test(cs$x, cs$y, alternative = alt, exact = TRUE)
      expect_true(a$exact)
      expect_lt(rel_diff(a$p.value, ref[[alt]]), 1e-9)
    }
  }
})

test_that("exact p-values with ties in far tails keep their relative accuracy", {
  # the tail sums only add non-negative terms: a p-value of 1e-40 is
  # still exact; checked against the same count with the samples swapped
  # (the other tail of the other group), an independent path
  set.seed(5)
  x <- sample(1:8, 120, TRUE)
  y <- sample(6:14, 110, TRUE)
  a <- wilcoxon_test(x, y, alternative = "less", exact = TRUE)
  b <- wilcoxon_test(y, x, alternative = "greater", exact = TRUE)
  expect_lt(a$p.value, 1e-30)
  expect_lt(rel_diff(a$p.value, b$p.value), 1e-12)
})

test_that("the exact test with ties runs at n = m = 200 and beyond, and refuses what is too large", {
  set.seed(200)
  x <- round(rnorm(200), 1)
  y <- round(rnorm(200, 0.25), 1)
  a <- wilcoxon_test(x, y, exact = TRUE)
  expect_true(a$exact)
  # close to the normal approximation at this size, and the two tails of
  # the swapped samples agree
  b <- wilcoxon_test(x, y, exact = FALSE, correct = FALSE)
  expect_lt(abs(a$p.value - b$p.value), 0.01)
  expect_lt(rel_diff(wilcoxon_test(x, y, alternative = "less", exact = TRUE)$p.value,
                     wilcoxon_test(y, x, alternative = "greater", exact = TRUE)$p.value),
            1e-12)
  expect_error(wilcoxon_test(round(rnorm(1500), 1), round(rnorm(1500), 1),
                             exact = TRUE),
               class = "speeduptest_error_data", regexp = "`exact")
})

test_that("small samples: estimate and exact interval are the formed differences' order statistics", {
  # Up to 2048 differences take the sub-grid path of select.c (with vector
  # code); the reference is the n m differences formed and sorted, read at
  # R's positions (qwilcox, as stats::wilcox.test).
  set.seed(20261128)
  sizes <- rbind(c(10, 10), c(31, 31), c(2, 2), c(3, 40), c(45, 45),
                 cbind(sample(2:49, 40, TRUE), sample(2:49, 40, TRUE)))
  for (s in seq_len(nrow(sizes))) {
    n <- sizes[s, 1]
    m <- sizes[s, 2]
    kind <- s %% 4
    x <- switch(kind + 1, rlnorm(n, 1, 0.03), round(rnorm(n), 1),
                rexp(n) * 1e307, rep(c(1, 2), length.out = n))
    y <- switch(kind + 1, rlnorm(m, 1.02, 0.03), round(rnorm(m, 0.3), 1),
                -rexp(m) * 1e307, rep(c(1, 3), length.out = m))
    d <- sort(outer(x, y, "-"))
    cl <- c(0.9, 0.95, 0.8)[s %% 3 + 1]
    a <- suppressWarnings(wilcoxon_test(x, y, conf_int = TRUE, conf_level = cl))
    expect_identical(unname(a$estimate), median(d))
    qu <- max(qwilcox((1 - cl) / 2, n, m), 1)
    expect_identical(as.vector(a$conf.int), c(d[qu], d[n * m - qu + 1]))
  }
})
