# The parts of many verdicts made at once (R/verdict-batch.R): each must be
# the part the verdict makes when read alone (the reference: the verdict's
# own lazy part, made in a copy whose cache was never primed), bit for bit.

# a copy of verdict v with an empty cache of its own
fresh_copy <- function(v) {
  lz <- attr(v, "lazy", exact = TRUE)
  lz$cache <- new.env(parent = emptyenv())
  attr(v, "lazy") <- lz
  v
}

batch_verdicts <- function() {
  set.seed(3601)
  out <- list()
  sizes <- list(c(2, 5), c(3, 3), c(4, 6), c(9, 12), c(10, 10), c(20, 20),
                c(31, 17), c(60, 45))
  for (sz in sizes) for (k in 1:3) {
    x <- rlnorm(sz[1], log(10), 0.05)
    y <- rlnorm(sz[2], log(10 / c(1, 1.03, 1.2)[k]), 0.05)
    if (k == 3) {
      # ties at the timer's resolution
      x <- round(x, 1)
      y <- round(y, 1)
    }
    for (s0 in c(1, 1.01)) for (a in c(0.01, 0.05)) {
      for (test in c("median_test", "mean_test", "prob_test")) {
        f <- get(test, envir = asNamespace("speeduptest"))
        v <- tryCatch(suppressWarnings(f(x, y, alpha = a, min_speedup = s0)),
                      error = function(e) e)
        out[[length(out) + 1L]] <- v
      }
    }
  }
  # the paired design and an error are left to the verdicts themselves
  x <- rlnorm(12, log(10), 0.05)
  out[[length(out) + 1L]] <- median_test(x, x * rlnorm(12, 0, 0.01), design = "paired")
  out[[length(out) + 1L]] <- simpleError("no runs")
  out
}

test_that("the ratios of the medians and the smallest attainable alphas made at once are those each verdict makes", {
  vs <- batch_verdicts()
  primed <- lapply(vs, function(v) if (inherits(v, "speedup_verdict")) fresh_copy(v) else v)
  speeduptest:::verdicts_prime(primed)
  n_mr <- n_ma <- 0
  for (i in seq_along(vs)) {
    v <- vs[[i]]
    if (!inherits(v, "speedup_verdict")) next
    ref <- fresh_copy(v)
    cache <- attr(primed[[i]], "lazy")$cache
    if ("median_ratio" %in% names(v)) {
      expect_identical(primed[[i]]$median_ratio, ref$median_ratio)
      n_mr <- n_mr + exists("median_ratio", envir = cache, inherits = FALSE)
    }
    expect_identical(primed[[i]]$min_alpha, ref$min_alpha)
    n_ma <- n_ma + exists("min_alpha", envir = cache, inherits = FALSE)
    expect_identical(primed[[i]]$caveats, ref$caveats)
    expect_identical(primed[[i]]$advice, ref$advice)
  }
  # the vector forms did make most parts (not the verdicts' own reading)
  expect_gt(n_mr, 50)
  expect_gt(n_ma, 200)
})

test_that("a part already made is kept, and a changed verdict makes its parts again", {
  set.seed(1)
  v <- median_test(rlnorm(20), rlnorm(20))
  v <- fresh_copy(v)
  speeduptest:::verdict_keep(v, "min_alpha", c(speedup = 0.5, slowdown = 0.5))
  expect_identical(v$min_alpha, c(speedup = 0.5, slowdown = 0.5))
  speeduptest:::verdict_keep(v, "min_alpha", c(speedup = 1, slowdown = 1))
  expect_identical(v$min_alpha, c(speedup = 0.5, slowdown = 0.5))
  w <- v
  w$n <- 20L + 0L
  w$x <- w$x * 1
  w$alpha <- 0.1
  expect_identical(w$min_alpha, speeduptest:::verdict_min_alpha(w))
})

test_that("the detectable speedups made at once are verdict_detectable() of each verdict", {
  vs <- batch_verdicts()
  want <- rep(c(TRUE, FALSE, TRUE), length.out = length(vs))
  for (a in c(0.05, 0.001)) {
    got <- speeduptest:::verdicts_detectable(vs, want, a)
    ref <- vapply(seq_along(vs), function(i) {
      v <- vs[[i]]
      if (!want[i] || !inherits(v, "speedup_verdict")) return(NA_real_)
      speeduptest:::verdict_detectable(fresh_copy(v), alpha = a)
    }, 0)
    expect_identical(got, ref)
    expect_true(any(is.finite(got)))
  }
})
