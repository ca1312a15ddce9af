# PELT (src/pelt.c) against the CRAN package changepoint (cpt.meanvar /
# cpt.mean, method "PELT", test.stat "Normal": its documented examples and
# 1,000 random series) and against a brute-force optimal partitioning
# written here from the definition (every segmentation's penalised cost).

cp_reference <- function(x, cost, penalty, pen_value = 0, minseg) {
  f <- if (cost == "meanvar") changepoint::cpt.meanvar else changepoint::cpt.mean
  res <- suppressWarnings(f(x, penalty = penalty, pen.value = pen_value,
                            method = "PELT", test.stat = "Normal",
                            minseglen = minseg))
  as.integer(changepoint::cpts(res))
}

# Optimal partitioning by dynamic programming over every last change (no
# pruning), the costs written from the normal likelihood.
brute_pelt <- function(x, cost, beta, minseg, mbic = FALSE) {
  n <- length(x)
  seg_cost <- function(a, b) {
    v <- x[a:b]
    k <- length(v)
    c0 <- if (cost == "meanvar") {
      s2 <- max(mean((v - mean(v))^2), 1e-11)
      k * (log(2 * pi) + log(s2) + 1)
    } else sum((v - mean(v))^2)
    if (mbic) c0 + log(k) else c0
  }
  F <- c(-beta, rep(Inf, n))
  last <- integer(n + 1L)
  for (t in seq_len(n)) {
    if (t < minseg) next
    for (tau in 0:(t - minseg)) {
      if (tau > 0 && tau < minseg) next
      if (!is.finite(F[tau + 1L])) next
      v <- F[tau + 1L] + seg_cost(tau + 1L, t) + beta
      if (v < F[t + 1L] - 1e-9) {
        F[t + 1L] <- v
        last[t + 1L] <- tau
      }
    }
  }
  out <- integer()
  at <- last[n + 1L]
  while (at > 0L) {
    out <- c(at, out)
    at <- last[at + 1L]
  }
  list(cpts = out, value = F[n + 1L])
}

test_that("pelt_changepoints() finds the segmentation of least penalised cost", {
  set.seed(20)
  for (i in 1:60) {
    n <- sample(8:40, 1)
    cost <- if (i %% 2) "meanvar" else "mean"
    k <- sample(0:3, 1)
    cp <- sort(sample.int(n - 1L, k))
    x <- rnorm(n, rep(rnorm(k + 1, 0, 3), diff(c(0, cp, n))),
               rep(exp(rnorm(k + 1)), diff(c(0, cp, n))))
    minseg <- if (cost == "meanvar") sample(2:3, 1) else sample(1:3, 1)
    beta <- runif(1, 1, 20)
    got <- pelt_changepoints(x, cost, beta, minseg)
    ref <- brute_pelt(x, cost, beta, minseg)
    # the same optimal value (a tie may be broken differently)
    bounds <- c(0L, got, n)
    value <- if (n < 2 * minseg) ref$value else {
      sum(vapply(seq_len(length(bounds) - 1L), function(j) {
        v <- x[(bounds[j] + 1L):bounds[j + 1L]]
        if (cost == "meanvar") {
          length(v) * (log(2 * pi) + log(max(mean((v - mean(v))^2), 1e-11)) + 1)
        } else sum((v - mean(v))^2)
      }, 0)) + beta * length(got)
    }
    expect_equal(value, ref$value, tolerance = 1e-8)
    expect_true(all(diff(bounds) >= minseg))
  }
})

test_that("pelt_changepoints() equals changepoint on its documented examples", {
  skip_if_not_installed("changepoint")
  # ?cpt.meanvar: changes in mean and variance at 50, 100, 150
  set.seed(1)
  x <- c(rnorm(50, 0, 1), rnorm(50, 5, 3), rnorm(50, 10, 1), rnorm(50, 3, 10))
  n <- length(x)
  for (pen in c("MBIC", "BIC", "SIC", "AIC", "Hannan-Quinn", "None")) {
    expect_identical(pelt_changepoints(x, penalty = pen),
                     cp_reference(x, "meanvar", pen, minseg = 2))
  }
  expect_identical(pelt_changepoints(x, penalty = 4 * log(n)),
                   cp_reference(x, "meanvar", "Manual", "4*log(n)", 2))
  # the example's asymptotic penalty, as changepoint computes its value
  asym <- suppressWarnings(changepoint:::penalty_decision("Asymptotic", 0.01, n, 2,
                                         "meanvar.norm", "PELT"))
  expect_identical(pelt_changepoints(x, penalty = asym),
                   cp_reference(x, "meanvar", "Asymptotic", 0.01, 2))
  set.seed(1)
  x <- c(rnorm(50, 0, 1), rnorm(50, 5, 3), rnorm(50, 10, 1), rnorm(50, 3, 10))
  y <- rnorm(200, 0, 1)
  expect_identical(pelt_changepoints(y, penalty = asym),
                   cp_reference(y, "meanvar", "Asymptotic", 0.01, 2))
  # the CROPS example's ends as manual penalties
  for (b in c(2 * log(n), 100 * log(n))) {
    expect_identical(pelt_changepoints(x, penalty = b),
                     cp_reference(x, "meanvar", "Manual", b, 2))
  }
  expect_identical(pelt_changepoints(x), c(50L, 100L, 150L))

  # ?cpt.mean: changes in mean at 50, 100, 150; and at 100
  set.seed(1)
  x <- c(rnorm(50, 0, 1), rnorm(50, 5, 1), rnorm(50, 10, 1), rnorm(50, 3, 1))
  for (pen in c("MBIC", "BIC", "AIC", "Hannan-Quinn", "None")) {
    expect_identical(pelt_changepoints(x, "mean", pen, 1),
                     cp_reference(x, "mean", pen, minseg = 1))
  }
  expect_identical(pelt_changepoints(x, "mean", 2 * log(n), 1),
                   cp_reference(x, "mean", "Manual", "2*log(n)", 1))
  expect_identical(pelt_changepoints(x, "mean", 4, 1),
                   cp_reference(x, "mean", "Manual", 4, 1))
  expect_identical(pelt_changepoints(x, "mean", 1500, 1),
                   cp_reference(x, "mean", "Manual", 1500, 1))
  expect_identical(pelt_changepoints(x, "mean", "MBIC", 1), c(50L, 100L, 150L))
  set.seed(1)
  x <- c(rnorm(100, 0, 1), rnorm(100, 10, 1))
  expect_identical(pelt_changepoints(x, "mean", "BIC", 1),
                   cp_reference(x, "mean", "BIC", minseg = 1))
  expect_identical(pelt_changepoints(x, "mean", "BIC", 1), 100L)
})

test_that("pelt_changepoints() equals changepoint on 1,000 random series", {
  skip_if_not_installed("changepoint")
  set.seed(32)
  for (i in 1:1000) {
    n <- sample(c(4:60, 100, 300, 1000), 1)
    cost <- if (i %% 3 == 0) "mean" else "meanvar"
    minseg <- if (cost == "meanvar") sample(2:6, 1) else sample(1:6, 1)
    n <- max(n, 2 * minseg)
    k <- sample(0:4, 1)
    cp <- sort(sample.int(n, k))
    lens <- diff(c(0, cp, n))
    x <- rnorm(n, rep(rnorm(k + 1, 0, 3), lens), rep(exp(rnorm(k + 1)), lens))
    if (i %% 7 == 0) x <- round(x)          # ties and constant stretches
    if (i %% 11 == 0) x <- 1e-3 * exp(x / 10) # run times in seconds
    pen <- sample(c("MBIC", "BIC", "AIC", "Hannan-Quinn", "Manual", "15logn"), 1)
    pen_value <- switch(pen, Manual = runif(1, 0, 40), "15logn" = 15 * log(n), 0)
    ref <- cp_reference(x, cost, if (pen %in% c("Manual", "15logn")) "Manual" else pen,
                        pen_value, minseg)
    got <- pelt_changepoints(x, cost, if (pen %in% c("Manual")) pen_value else pen,
                             minseg)
    expect_identical(got, ref, info = sprintf("series %d (n = %d, %s, %s)", i, n,
                                              cost, pen))
  }
})

test_that("pelt_changepoints() handles short and constant series", {
  expect_identical(pelt_changepoints(c(1, 2, 3)), integer())
  expect_identical(pelt_changepoints(5), integer())
  expect_identical(pelt_changepoints(rep(2, 50)), integer())
  # a constant stretch then a noisy one: a change between them
  set.seed(3)
  x <- c(rep(1, 30), rnorm(30, 1, 1))
  expect_identical(pelt_changepoints(x), 30L)
  expect_identical(pelt_changepoints(c(rep(0, 20), rep(5, 20)), "mean",
                                     "BIC", 1), 20L)
})

test_that("the batched C entry gives each series its own answer", {
  set.seed(5)
  xs <- lapply(1:30, function(i) {
    n <- sample(20:200, 1)
    c(rnorm(n %/% 3, 2), rnorm(n - n %/% 3, 0))
  })
  lens <- lengths(xs)
  got <- pelt_many(unlist(xs), c(0, cumsum(lens)[-30]), lens, "meanvar",
                   "MBIC", 2)
  expect_identical(got, lapply(xs, pelt_changepoints))
  got <- pelt_many(unlist(xs), c(0, cumsum(lens)[-30]), lens, "meanvar",
                   "15logn", 5)
  expect_identical(got, lapply(xs, pelt_changepoints, penalty = "15logn",
                               minseg = 5))
})

test_that("pelt_changepoints() refuses bad arguments with classed errors", {
  expect_error(pelt_changepoints("a"), class = "speeduptest_error_input")
  expect_error(pelt_changepoints(c(1, NA, 3)), class = "speeduptest_error_input")
  expect_error(pelt_changepoints(c(1, Inf, 3)), class = "speeduptest_error_input")
  expect_error(pelt_changepoints(numeric()), class = "speeduptest_error_data")
  expect_error(pelt_changepoints(1:10, penalty = -1), class = "speeduptest_error_input")
  expect_error(pelt_changepoints(1:10, penalty = "XYZ"), class = "speeduptest_error_input")
  expect_error(pelt_changepoints(1:10, minseg = 1), class = "speeduptest_error_input")
  expect_error(pelt_changepoints(1:10, cost = "var"), class = "speeduptest_error_input")
  expect_identical(pelt_changepoints(1:10, cost = "mean", minseg = 1,
                                     penalty = 0), 1:9)
})

test_that("on a grid, PELT finds the exact changes of clear series", {
  set.seed(9)
  same <- 0L
  for (i in 1:100) {
    n <- sample(c(300, 1000, 2000), 1)
    k <- sample(0:3, 1)
    cp <- sort(sample(seq(50, n - 50), k))
    if (k > 1 && any(diff(cp) < 50)) cp <- cp[c(TRUE, diff(cp) >= 50)]
    lens <- diff(c(0, cp, n))
    x <- rnorm(n, rep(sample(c(-2, 0, 2), length(lens), TRUE), lens),
               rep(exp(rnorm(length(lens), 0, 0.5)), lens))
    b <- ceiling(n / 250)
    grid <- pelt_changepoints(x, penalty = 15 * log(n), minseg = 10, step = b)
    exact <- pelt_changepoints(x, penalty = 15 * log(n), minseg = 10)
    same <- same + identical(grid, exact)
    # never a better penalised cost than the exact optimum
    cost_of <- function(cps) {
      bnd <- c(0L, cps, n)
      sum(vapply(seq_len(length(bnd) - 1L), function(j) {
        v <- x[(bnd[j] + 1L):bnd[j + 1L]]
        length(v) * (log(2 * pi) + log(mean((v - mean(v))^2)) + 1)
      }, 0)) + 15 * log(n) * length(cps)
    }
    expect_gte(cost_of(grid), cost_of(exact) - 1e-6 * abs(cost_of(exact)))
    expect_true(all(diff(c(0L, grid, n)) >= 10))
  }
  expect_gte(same, 95L)
})
