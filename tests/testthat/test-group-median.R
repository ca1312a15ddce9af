test_that("the medians of many groups are stats::median() of each, bit for bit", {
  # reference: stats::median() group by group; even and odd sizes, ties,
  # middle values whose ratio is far beyond 2^11 (the long double sum of
  # mean() rounds), very large values whose sum overflows, and non-finite
  # middle values (mean() itself)
  set.seed(36)
  k <- 400L
  n <- sample(0:9, k, replace = TRUE)
  g <- rep.int(seq_len(k), n)
  v <- rlnorm(length(g), 0, 3) * sample(c(1, 1e-12, 1e12), length(g), replace = TRUE)
  v[sample(length(v), 20)] <- 1
  big <- g %in% (1:k)[n == 2L][1:5]
  v[big] <- .Machine$double.xmax * runif(sum(big), 0.6, 1)
  inf <- g %in% (1:k)[n == 4L][1:3]
  v[inf][1:3] <- c(Inf, -Inf, NaN)
  v[g == (1:k)[n == 6L][1]] <- c(1, 2, NA, 4, 5, 6)
  got <- speeduptest:::group_median(v, g, k)
  want <- vapply(seq_len(k), function(j) {
    x <- v[g == j]
    if (!length(x)) NA_real_ else stats::median(x)
  }, 0)
  plain <- vapply(seq_len(k), function(j) !anyNA(v[g == j]), NA)
  expect_identical(got[plain], want[plain])
  expect_true(all(is.na(got[n == 0L])))
})

test_that("R's mean() of pairs is made bit for bit", {
  set.seed(7)
  a <- c(rlnorm(2000, 0, 20), 1, 0.1, 3e300, -5)
  b <- c(rlnorm(2000, 0, 20), 1 + 2^-52, 0.3, 1.7e308, 5)
  got <- .Call(speeduptest:::ffi_mean_pairs, a, b)
  expect_identical(got, vapply(seq_along(a), function(i) mean(c(a[i], b[i])), 0))
})
