# Run-order checks: the Mann-Kendall trend test and the runs test against
# independent references (cor.test, enumeration), their place in verdicts
# and suites, and their error rates by simulation with fixed seeds.

test_that("trend_test() gives cor.test()'s Kendall p-values, exact and not", {
  set.seed(11)
  # (8 to 64 values: all pairs compared at once where the processor can)
  for (n in c(3L, 7L, 8L, 12L, 49L, 50L, 64L, 65L, 120L)) {
    for (ties in c(FALSE, TRUE)) {
      x <- rnorm(n) + 0.03 * seq_len(n)
      if (ties) x <- round(x, 1)
      if (length(unique(x)) < 2L) next
      ref <- suppressWarnings(stats::cor.test(x, seq_len(n), method = "kendall"))
      tt <- trend_test(x)
      expect_equal(tt$p.value, ref$p.value, tolerance = 1e-10)
      expect_equal(unname(tt$estimate), unname(ref$estimate), tolerance = 1e-12)
      expect_identical(tt$exact, n < 50L && !anyDuplicated(x))
    }
  }
})

test_that("Kendall's S is counted right on a long sequence (merge count)", {
  set.seed(12)
  x <- round(rnorm(300), 1)
  s_ref <- sum(outer(seq_along(x), seq_along(x), "<") * sign(outer(x, x, function(a, b) b - a)))
  expect_equal(unname(trend_test(x)$statistic), s_ref)
})

test_that("Kendall's S equals the pair count at sizes around the merge widths", {
  # runs of 16 sorted by insertion, then merged two at a time: sizes just
  # below and above the powers of two, ordered stretches, ties, -0 and 0
  s_ref <- function(x) {
    sum(outer(seq_along(x), seq_along(x), "<") *
          sign(outer(x, x, function(a, b) b - a)))
  }
  set.seed(13)
  for (n in c(8L, 9L, 15L, 16L, 17L, 31L, 33L, 63L, 64L, 65L, 129L, 257L, 1000L)) {
    xs <- list(rnorm(n), sort(rnorm(n)), rev(sort(rnorm(n))),
               c(sort(rnorm(n %/% 2)), rnorm(n - n %/% 2)),
               sample(c(-0, 0, -1, 1, 2), n, replace = TRUE))
    for (x in xs) {
      if (length(unique(x)) < 2L) next
      expect_equal(unname(trend_test(x)$statistic), s_ref(x))
    }
  }
})

test_that("median_test() makes the trend tests with its sort, and both are right", {
  # the median protocol sorts each sample by the trend test's merge sort
  # (two halves through a scratch of half the size, then merged in place):
  # S must be the pair count and the sorted samples right (read back as
  # the observed minimum and median), at sizes around the half split and
  # the merge widths, odd and even, ordered stretches and ties
  s_ref <- function(x) {
    sum(outer(seq_along(x), seq_along(x), "<") *
          sign(outer(x, x, function(a, b) b - a)))
  }
  set.seed(31)
  for (n in c(6L, 7L, 8L, 9L, 31L, 32L, 33L, 65L, 127L, 1001L, 2048L, 2049L)) {
    m <- n + sample(c(0L, 1L, 5L), 1L)
    xs <- list(rlnorm(n), sort(rlnorm(n)), rev(sort(rlnorm(n))),
               c(sort(rlnorm(n %/% 2)), rlnorm(n - n %/% 2)),
               sample(c(1, 2, 3, 5), n, replace = TRUE))
    for (x in xs) {
      y <- rlnorm(m, 0.1)
      v <- median_test(x, y)
      expect_equal(v$speedups[["min"]], min(x) / min(y))
      expect_equal(v$speedups[["median"]], median(x) / median(y))
      # the rank-sum test made alone sorts by radix sort
      w <- wilcoxon_test(x, y, alternative = "greater")
      expect_identical(v$p_value, w$p.value)
      w <- wilcoxon_test(x, y, conf_int = TRUE, conf_level = 0.95)
      expect_identical(unname(v$shift), unname(w$estimate))
      expect_identical(as.vector(v$shift_ci), as.vector(w$conf.int))
      for (s in list(list(x, v$run_order$x), list(y, v$run_order$y))) {
        if (length(s[[1L]]) < 7L || length(unique(s[[1L]])) < 2L) {
          expect_null(s[[2L]])
          next
        }
        expect_equal(unname(s[[2L]]$statistic), s_ref(s[[1L]]))
        tt <- trend_test(s[[1L]])
        expect_identical(s[[2L]]$p.value, tt$p.value)
        expect_identical(s[[2L]]$estimate, tt$estimate)
      }
    }
  }
  # a long sample: S against the merge count of trend_test() made alone
  x <- rlnorm(70001)
  y <- rlnorm(70000, 0.001) + 1e-4 * seq_len(70000) / 70000
  v <- median_test(x, y)
  expect_identical(v$run_order$y$statistic, trend_test(y)$statistic)
  expect_identical(v$run_order$x$statistic, trend_test(x)$statistic)
  expect_identical(v$speedups[["median"]], median(x) / median(y))
})

test_that("the runs test equals enumeration of all orders", {
  runs_of <- function(lab) 1 + sum(lab[-1L] != lab[-length(lab)])
  for (nn in list(c(4L, 3L), c(5L, 5L), c(2L, 7L), c(1L, 4L))) {
    n1 <- nn[1L]
    n2 <- nn[2L]
    pos <- utils::combn(n1 + n2, n1)
    R <- apply(pos, 2L, function(ix) {
      lab <- rep(2L, n1 + n2)
      lab[ix] <- 1L
      runs_of(lab)
    })
    for (r in sort(unique(R))) {
      lab <- c(rep(1L, n1), rep(2L, n2))
      # an order with r runs: the first column with that many
      ix <- pos[, which(R == r)[1L]]
      lab <- rep("b", n1 + n2)
      lab[ix] <- "a"
      expect_equal(interleaving_test(lab)$p.value, mean(R <= r), tolerance = 1e-12)
    }
  }
})

test_that("blocks are flagged, interleaved runs are not", {
  expect_lt(interleaving_test(rep(c("old", "new"), each = 10))$p.value, 1e-4)
  expect_equal(interleaving_test(rep(c("old", "new"), 10))$p.value, 1)
  expect_error(interleaving_test(c("a", "a")), class = "speeduptest_error_input")
  expect_error(trend_test(rep(1, 10)), class = "speeduptest_error_data")
})

test_that("a verdict keeps the run-order checks as the contract says", {
  set.seed(13)
  v <- median_test(rlnorm(30), rlnorm(30))
  ro <- v$run_order
  expect_named(ro, c("x", "y", "interleaving", "positions", "trend"))
  expect_s3_class(ro$x, "htest")
  expect_s3_class(ro$y, "htest")
  expect_null(ro$interleaving)
  expect_null(ro$positions)
  expect_identical(ro$trend, ro$x$p.value <= 0.0025 || ro$y$p.value <= 0.0025)
  expect_equal(ro$x$p.value, trend_test(v$x)$p.value)
  # short samples: no check, no flag
  w <- median_test(c(3, 2, 1), c(1, 2, 3, 4, 5, 6))
  expect_null(w$run_order$x)
  expect_null(w$run_order$y)
  expect_false(w$run_order$trend)
})

test_that("a trend adds a caveat, drops the guarantee and gives advice", {
  set.seed(14)
  x <- rnorm(40, 10, 0.1) + seq(0, 1, length.out = 40)
  y <- rnorm(40, 10, 0.1)
  v <- mean_test(x, y)
  expect_true(v$run_order$trend)
  expect_false(v$confidence_guaranteed)
  expect_true(any(grepl("increase with the run order", v$caveats)))
  expect_true(any(grepl("measure\\(\\)", v$advice)))
  expect_gt(v$run_order$y$p.value, 0.0025)
})

test_that("timings with a global order are checked for interleaving", {
  set.seed(15)
  time <- rlnorm(40, log(10), 0.02)
  blocks <- speeduptest:::new_speedup_timings("b", rep(c("old", "new"), each = 20), time,
                                run_order = "global")
  v <- median_test(blocks)
  expect_false(v$run_order$interleaving$interleaved)
  expect_identical(v$run_order$positions, list(x = 1:20, y = 21:40))
  expect_true(v$run_order$trend)
  expect_false(v$confidence_guaranteed)
  expect_true(any(grepl("measured in blocks", v$caveats)))
  inter <- speeduptest:::new_speedup_timings("b", rep(c("old", "new"), 20), time,
                               run_order = "global")
  w <- median_test(inter)
  expect_true(w$run_order$interleaving$interleaved)
  expect_identical(w$run_order$positions$x, seq(1L, 39L, by = 2L))
  # per-sample order only: no interleaving check
  sep <- speeduptest:::new_speedup_timings("b", rep(c("old", "new"), each = 20), time)
  expect_null(median_test(sep)$run_order$interleaving)
  # timestamps give the global order
  ts <- as.POSIXct("2026-01-01", tz = "UTC") + c(seq(1, 39, 2), seq(2, 40, 2))
  st <- speeduptest:::new_speedup_timings("b", rep(c("old", "new"), each = 20), time,
                            timestamp = ts)
  expect_true(median_test(st)$run_order$interleaving$interleaved)
})

test_that("the drifting A/A pair in blocks never gets a guaranteed verdict (60 of 60 seeds)", {
  # two identical programs on a machine that slows down by 0.1 % per run,
  # all runs of A, then all runs of B
  guaranteed <- significant <- logical(60)
  for (seed in 1:60) {
    set.seed(seed)
    time <- 10 * (1 + 0.001 * (1:60)) + rnorm(60, 0, 0.1)
    t <- speeduptest:::new_speedup_timings("aa", rep(c("A", "B"), each = 30), time,
                             run_order = "global")
    v <- median_test(t)
    m <- mean_test(t)
    significant[seed] <- identical(v$direction, "slowdown")
    guaranteed[seed] <- v$confidence_guaranteed || m$confidence_guaranteed
  }
  expect_true(mean(significant) > 0.9)   # the drift alone looks like a slowdown
  expect_identical(sum(guaranteed), 0L)
})

test_that("at most 1 % of comparisons of independent runs lose their guarantee", {
  set.seed(16)
  flagged <- vapply(1:2000, function(i) {
    n <- c(10L, 30L, 60L)[i %% 3L + 1L]
    isTRUE(median_test(rlnorm(n, 0, 0.2), rlnorm(n, 0, 0.2))$run_order$trend)
  }, logical(1))
  expect_lte(mean(flagged), 0.01)
  # interleaved in random order with a global order: three checks
  flagged_g <- vapply(1:1000, function(i) {
    lab <- sample(rep(c("A", "B"), 25))
    t <- speeduptest:::new_speedup_timings("b", lab, rlnorm(50, 0, 0.2), run_order = "global")
    isTRUE(median_test(t)$run_order$trend)
  }, logical(1))
  expect_lte(mean(flagged_g), 0.01)
})

test_that("the suite checks every benchmark, vectorised, in its caveats", {
  set.seed(17)
  suite <- lapply(1:5, function(i) list(x = rlnorm(30), y = rlnorm(30)))
  suite[[3]]$x <- sort(suite[[3]]$x)
  names(suite) <- paste0("b", 1:5)
  s <- speedup_suite(suite)
  bm <- s$benchmarks
  expect_equal(bm$trend_p_x, vapply(suite, function(b) trend_test(b$x)$p.value, 0),
               ignore_attr = TRUE)
  expect_equal(bm$trend_p_y, vapply(suite, function(b) trend_test(b$y)$p.value, 0),
               ignore_attr = TRUE)
  expect_identical(bm$run_order_flag, pmin(bm$trend_p_x, bm$trend_p_y) <= 0.0025)
  expect_true(bm$run_order_flag[3])
  expect_false(bm$median_guaranteed[3])
  expect_match(bm$median_caveats[3], "initial times drift with the run order")
  expect_true(all(is.na(bm$interleaving_p)))
  # a long data frame with a global run order: blocks are flagged
  df <- do.call(rbind, lapply(names(suite), function(nm) {
    data.frame(benchmark = nm, version = rep(c("A", "B"), each = 30),
               time = c(sample(suite[[nm]]$x), suite[[nm]]$y), run = 1:60)
  }))
  attr(df, "run_order") <- "global"
  s2 <- speedup_suite(df)
  expect_true(all(s2$benchmarks$interleaving_p < 1e-10))
  expect_true(all(s2$benchmarks$run_order_flag))
  expect_match(s2$benchmarks$mean_caveats, "measured in blocks")
})

test_that("one call over samples of many sizes reuses the exact tables correctly", {
  set.seed(18)
  lens <- c(3, 49, 7, 20, 49, 12, 60, 3, 30)
  samples <- lapply(lens, function(n) rnorm(n) + 0.02 * seq_len(n))
  samples[[6]] <- round(samples[[6]])          # ties: normal approximation
  res <- .Call(speeduptest:::ffi_mann_kendall, unlist(samples),
               as.double(cumsum(c(0, lens))[seq_along(lens)]), as.double(lens))
  ref <- vapply(samples, function(x) {
    suppressWarnings(stats::cor.test(x, seq_along(x), method = "kendall"))$p.value
  }, 0)
  expect_equal(res$p_value, ref, tolerance = 1e-10)
})

test_that("the suite reads the run order of timings, also after na_rm", {
  set.seed(19)
  nst <- speeduptest:::new_speedup_timings
  time <- rlnorm(80, log(10), 0.02)
  time[5] <- NA
  t <- nst(rep(c("p", "q"), each = 40), rep(rep(c("old", "new"), each = 20), 2),
           time, run_order = "global")
  s <- speedup_suite(t, na_rm = TRUE)
  expect_true(all(s$benchmarks$interleaving_p < 1e-6))
  expect_identical(s$versions, c("old", "new"))
  # recorded order comes from `run`, not from the rows
  shuffled <- t[c(40:1, 80:41), ]
  attr(shuffled, "run_order") <- "global"
  s2 <- speedup_suite(shuffled, na_rm = TRUE, initial = "old")
  expect_equal(s2$benchmarks$trend_p_x, s$benchmarks$trend_p_x)
})

test_that("interleaving_test() refuses what is not a vector of labels", {
  for (v in list(sum, quote(x), new.env(), NULL)) {
    expect_error(interleaving_test(v), class = "speeduptest_error_input",
                 regexp = "`version` must be a vector")
  }
})

test_that("a suite's trend p-values are cor.test()'s, NA where no check is made", {
  # samples of every size the vector code counts (8 to 64) and beyond,
  # with and without ties, constant ones and ones too short to be checked
  set.seed(23)
  lens <- c(3, 6, 7, 8, 9, 10, 15, 16, 17, 31, 33, 49, 50, 63, 64, 65, 100, 12, 31, 40)
  samples <- lapply(seq_along(lens), function(i) {
    n <- lens[i]
    x <- rlnorm(n) + 0.01 * seq_len(n)
    if (i %% 3 == 0) x <- round(x, 1)                  # ties
    if (i %% 3 == 1 && n > 8) x[c(2, 5)] <- x[1]        # one tie group of three
    x
  })
  samples[[18]] <- rep(2.5, 12)                          # constant: no test
  samples[[19]][] <- c(-0, 0)[seq_len(31) %% 2 + 1] + 1  # -0 and +0 tie
  starts <- as.double(cumsum(c(0, lens))[seq_along(lens)])
  p <- .Call(speeduptest:::ffi_trend_p, unlist(samples), starts, as.double(lens), 7L)
  ref <- vapply(samples, function(x) {
    if (length(x) < 7 || length(unique(x)) == 1L) return(NA_real_)
    suppressWarnings(stats::cor.test(x, seq_along(x), method = "kendall"))$p.value
  }, 0)
  expect_equal(p, ref, tolerance = 1e-10)
  expect_identical(is.na(p), is.na(ref))
  # and bit for bit what the five columns of ffi_mann_kendall() give
  full <- .Call(speeduptest:::ffi_mann_kendall, unlist(samples), starts, as.double(lens))
  want <- full$p_value
  want[lens < 7 | full$status != 0L] <- NA
  expect_identical(p, want)
})

test_that("suite_run_order() flags a benchmark from any of its checks", {
  set.seed(24)
  n <- 12
  drift <- function() 10 + 0.5 * seq_len(n) + rnorm(n, sd = 0.01)
  flat <- function() 10 + rnorm(n, sd = 0.5)
  suite <- list(a = list(x = flat(), y = flat()), b = list(x = drift(), y = flat()),
                c = list(x = flat(), y = drift()), d = list(x = 1:5 + 0, y = drift()))
  s <- speedup_suite(suite)
  ro <- s$benchmarks[c("trend_p_x", "trend_p_y", "run_order_flag")]
  expect_identical(is.na(ro$trend_p_x), c(FALSE, FALSE, FALSE, TRUE))
  expect_identical(ro$run_order_flag,
                   (!is.na(ro$trend_p_x) & ro$trend_p_x <= 0.0025) |
                     (!is.na(ro$trend_p_y) & ro$trend_p_y <= 0.0025))
  expect_identical(ro$run_order_flag, c(FALSE, TRUE, TRUE, TRUE))
})
