# A chunk of speedup_suite() keeps, across its benchmarks, what depends only
# on the sample sizes and the level: the Shapiro-Wilk constants per sample
# size, the exact rank-sum table with its tails and the interval's quantile,
# the exact Smirnov tails, the quantile of t of the mean's interval.  With
# one benchmark per chunk nothing is kept from one benchmark to the next,
# so the two must agree bit for bit, whatever the mix of sizes and levels.

one_per_chunk <- function(packed, levels, rig) {
  old <- options(speeduptest.suite_chunk = 1)
  on.exit(options(old))
  speeduptest:::suite_core(packed, levels, rig, "equal", double(), 0.95, 0L,
                           0.05)$benchmarks
}

cache_suite <- function(seed = 21) {
  set.seed(seed)
  # sizes on both sides of every limit: Shapiro-Wilk's small-sample
  # transformation (n <= 11), the exact rank-sum test (n, m < 50), the
  # constants kept per size (n < 512), the sorted copy on the stack
  # (n + m <= 512); equal and unequal sizes, interleaved so that the kept
  # values are met again after other sizes
  sizes <- list(c(3, 3), c(4, 7), c(11, 12), c(31, 31), c(12, 11), c(31, 31),
                c(49, 50), c(50, 50), c(31, 40), c(200, 200), c(3, 3),
                c(255, 257), c(511, 300), c(512, 40), c(513, 513), c(31, 31),
                c(600, 31), c(40, 31), c(11, 12), c(31, 31))
  suite <- lapply(seq_along(sizes), function(j) {
    n <- sizes[[j]][1]
    m <- sizes[[j]][2]
    base <- runif(1, 1, 5)
    s <- sample(c(1, 1.02, 1.2, 0.9), 1)
    x <- rlnorm(n, log(base), 0.05)
    y <- rlnorm(m, log(base / s), 0.05)
    if (j %% 3 == 0) {             # ties
      x <- round(x, 2)
      y <- round(y, 2)
    }
    list(x = x, y = y)
  })
  names(suite) <- sprintf("b%02d", seq_along(suite))
  suite
}

test_that("a chunk's kept tables give the answers of fresh ones", {
  suite <- cache_suite()
  packed <- speeduptest:::suite_from_list(suite, FALSE)
  nb <- length(packed$names)
  # levels changing from benchmark to benchmark, and repeated
  levels <- rep(c(0.95, 0.9, 0.99, 0.95, 0.8), length.out = nb)
  old <- options(speeduptest.suite_chunk = 1000)
  on.exit(options(old), add = TRUE)
  for (rig in c(TRUE, FALSE)) {
    chunk <- speeduptest:::suite_core(packed, levels, rig, "equal", double(),
                                      0.95, 0L, 0.05)$benchmarks
    one <- one_per_chunk(packed, levels, rig)
    for (col in setdiff(names(one), "weights")) {
      expect_identical(chunk[[col]], one[[col]], label = col)
    }
  }
})

test_that("the kept tables agree on many benchmarks of mixed sizes and levels", {
  # a wrong constant kept for a size shows as a different caveat or
  # decision at some of the many levels (each decision compares a p-value
  # with the benchmark's own alpha)
  set.seed(25)
  sizes <- c(3:12, 20, 31, 49, 50, 120, 511, 512, 513)
  suite <- lapply(1:300, function(j) {
    n <- sample(sizes, 1)
    m <- if (runif(1) < 0.5) n else sample(sizes, 1)
    list(x = rlnorm(n, 0, runif(1, 0.01, 0.5)),
         y = rlnorm(m, log(sample(c(1, 0.97, 0.8), 1)), runif(1, 0.01, 0.5)))
  })
  names(suite) <- sprintf("r%03d", seq_along(suite))
  packed <- speeduptest:::suite_from_list(suite, FALSE)
  nb <- length(packed$names)
  old <- options(speeduptest.suite_chunk = 1000)
  on.exit(options(old), add = TRUE)
  # levels of their own, then one level for all (the kept quantiles then
  # meet the same level with other sizes)
  for (levels in list(runif(nb, 0.5, 0.99), rep(0.95, nb))) {
    chunk <- speeduptest:::suite_core(packed, levels, TRUE, "equal", double(),
                                      0.95, 0L, 0.05)$benchmarks
    one <- one_per_chunk(packed, levels, TRUE)
    for (col in setdiff(names(one), "weights")) {
      expect_identical(chunk[[col]], one[[col]], label = col)
    }
  }
})

test_that("the suite's p-values are those of mean_test() and median_test()", {
  suite <- cache_suite(22)
  levels <- rep(c(0.95, 0.9, 0.99), length.out = length(suite))
  for (j in seq_along(suite)) suite[[j]]$conf_level <- levels[j]
  res <- suppressWarnings(speedup_suite(suite, rigorous = FALSE))
  bm <- res$benchmarks
  for (j in seq_along(suite)) {
    a <- 1 - levels[j]
    vm <- mean_test(suite[[j]]$x, suite[[j]]$y, alpha = a, rigorous = FALSE)
    vd <- median_test(suite[[j]]$x, suite[[j]]$y, alpha = a, rigorous = FALSE)
    expect_identical(bm$mean_p_value[j], as.double(vm$p_value))
    expect_identical(bm$mean_p_value_slowdown[j], as.double(vm$p_value_slowdown))
    expect_identical(bm$median_p_value[j], as.double(vd$p_value))
    expect_identical(bm$median_p_value_slowdown[j], as.double(vd$p_value_slowdown))
    expect_identical(c(bm$mean_ci_low[j], bm$mean_ci_high[j]),
                     as.double(vm$speedup_ci))
    expect_identical(c(bm$median_ci_low[j], bm$median_ci_high[j]),
                     as.double(vd$speedup_ci))
  }
})

test_that("pt() forms its two tails from one value, as the suite's t-tests assume", {
  # st_t_test asked for both one-sided tails at once asks pt() for the tail
  # away from t and forms the other as 0.5 - p + 0.5, which is how pt()
  # forms it (finite df <= 4e5)
  set.seed(23)
  t <- c(rnorm(5000, 0, 3), rt(5000, 2) * 20, 0, 1e-300, -1e-300, 50, -50)
  df <- c(runif(5000, 1, 100), exp(runif(5000, 0, log(4e5))), 3, 5, 5, 2, 2)
  up <- pt(t, df, lower.tail = FALSE)
  lo <- pt(t, df)
  pos <- t > 0
  expect_identical(lo[pos], 0.5 - up[pos] + 0.5)
  expect_identical(up[!pos], 0.5 - lo[!pos] + 0.5)
})

test_that("suite text figures are as.character() of the rounded values", {
  set.seed(24)
  x <- c(0, -0, -1e-4, 4e-4, NA, NaN, Inf, -Inf, 1e-20, 1e300, 1 / 3,
         0.0005, 0.0015, 1.0005, runif(2000), rlnorm(2000, 0, 3),
         round(runif(500), 3))
  plain <- function(x, d) {
    out <- as.character(round(x, d))
    out[is.na(x)] <- "NA"
    out
  }
  expect_identical(speeduptest:::fmt3(x), plain(x, 3))
  expect_identical(speeduptest:::format_level(x), plain(x, 4))
  expect_identical(speeduptest:::fmt3(double()), character())
})
