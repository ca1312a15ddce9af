# The paired design's verdicts at many rounds: the observed speedups of
# large samples (the median by a bracket drawn from a sample, src/util.c)
# and the parts of a paired verdict made when read (R/paired.R).

# the median as a sort gives it: the middle value, or the mean of the two
# middle values in double arithmetic (st_median_sorted())
sorted_median <- function(x) {
  s <- sort(x)
  n <- length(s)
  h <- n %/% 2
  if (n %% 2) s[h + 1] else (s[h] + s[h + 1]) / 2
}

test_that("observed_speedups() of large samples are the ratios of the sorted samples' values", {
  set.seed(361)
  # the stride of the sample st_median_select() draws its bracket from
  stride <- function(n) n %/% floor((as.double(n) * n)^(1 / 3))
  cases <- list()
  for (n in c(8191, 8192, 8193, 20000, 100001, 2^17)) {
    cases[[length(cases) + 1L]] <- rlnorm(n, 1, 0.05)
  }
  n <- 100001
  # sorted and reversed runs (a drift)
  cases <- c(cases, list(sort(rlnorm(n)), rev(sort(rlnorm(n + 1)))))
  # every value the stride samples is the largest: the bracket misses the
  # middle, and the median is selected in a copy of the sample
  x <- runif(n, 1, 2)
  x[seq(1, n, by = stride(n))] <- 1e6
  cases <- c(cases, list(x))
  # a few distinct values: the bracket holds more values than its buffer
  cases <- c(cases, list(rep(c(1, 2, 3), length.out = n), rep(c(5, 7), length.out = 2e4),
                         c(rep(1, 5e4), rep(2, 5e4))))
  # heavy tails and ties around the middle
  cases <- c(cases, list(round(rlnorm(n, 0, 2), 1) + 0.1, abs(rcauchy(n)) + 1))
  y <- rlnorm(3e4, 0.9, 0.1)
  for (i in seq_along(cases)) {
    x <- cases[[i]]
    s <- observed_speedups(x, y)
    expect_identical(s[["median"]], sorted_median(x) / sorted_median(y), info = i)
    expect_identical(s[["min"]], min(x) / min(y), info = i)
    expect_identical(s[["mean"]], mean(x) / mean(y), info = i)
    # the other way round: the bracket on y
    r <- observed_speedups(y, x)
    expect_identical(r[["median"]], sorted_median(y) / sorted_median(x), info = i)
  }
})

test_that("the trend check of a paired verdict is made when read unless it decides the guarantee", {
  set.seed(362)
  k <- 6000
  x <- rlnorm(k, 1, 0.05)
  # a drift of the ratio between the versions over the rounds
  y <- x / 1.002 * exp(rnorm(k, 0, 0.01) - 2e-6 * seq_len(k))
  d <- log(x) - log(y)
  ref <- stats::cor.test(d, seq_len(k), method = "kendall", exact = FALSE)
  # the mean of more than 5000 rounds is never guaranteed (no Shapiro-Wilk
  # test of the differences): the check only tells, so it waits
  v <- mean_test(x, y, design = "paired")
  raw <- unclass(v)
  expect_null(raw$run_order)
  expect_null(raw$rounds)
  expect_false(v$confidence_guaranteed)
  expect_equal(v$run_order$ratio$p.value, ref$p.value, tolerance = 1e-12)
  expect_true(v$run_order$trend)
  expect_true(v$run_order$paired)
  expect_identical(v$rounds$d, d)
  expect_identical(v$rounds$x, x)
  expect_identical(v$rounds$y, y)
  expect_match(paste(v$caveats, collapse = " "),
               "the ratio x / y increases with the rounds (Mann-Kendall", fixed = TRUE)
  expect_identical(v[["run_order"]], v$run_order)
  expect_identical(glance(v)$run_order_flagged, TRUE)
  # the same verdict read in another order
  w <- mean_test(x, y, design = "paired")
  expect_identical(w$caveats, v$caveats)
  expect_identical(w$rounds, v$rounds)
  expect_identical(format(w), format(v))
  # the median is guaranteed by its core: the check is made at once and
  # takes the guarantee away
  m <- median_test(x, y, design = "paired")
  expect_false(is.null(unclass(m)$run_order))
  expect_false(is.null(unclass(m)$rounds))
  expect_true(m$run_order$trend)
  expect_false(m$confidence_guaranteed)
  expect_identical(m$rounds$d, d)
  expect_equal(m$run_order$ratio$p.value, ref$p.value, tolerance = 1e-12)
  # without the drift, the median keeps its guarantee
  y2 <- x / 1.002 * exp(rnorm(k, 0, 0.01))
  m2 <- median_test(x, y2, design = "paired")
  expect_false(m2$run_order$trend)
  expect_true(m2$confidence_guaranteed)
  # the mean of few normal rounds is guaranteed by its core: made at once
  x3 <- rlnorm(40, 1, 0.05)
  v3 <- mean_test(x3, x3 / 1.01 * exp(rnorm(40, 0, 0.005)), design = "paired")
  expect_false(is.null(unclass(v3)$run_order))
  expect_identical(v3$confidence_guaranteed, !v3$run_order$trend &&
                     identical(v3$branch, "paired_t_normal"))
})

test_that("a paired verdict whose check waits reads the same as one made at once", {
  set.seed(363)
  for (k in c(7, 30, 5001)) {
    x <- rlnorm(k, 1, 0.05)
    y <- x / 1.003 * exp(rnorm(k, 0, 0.01))
    v <- mean_test(x, y, design = "paired", rigorous = FALSE)
    full <- speeduptest:::complete_verdict(v)
    d <- log(x) - log(y)
    expect_identical(full$run_order, speeduptest:::paired_run_order(d, c("x", "y")))
    expect_identical(full$rounds, list(x = x, y = y, d = d))
    expect_identical(full$confidence_guaranteed,
                     identical(v$branch, "paired_t_normal") && !full$run_order$trend)
    expect_identical(names(full), names(unclass(v)))
  }
})
