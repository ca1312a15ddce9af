# speedup_suite() streams the benchmarks through the core in chunks
# (getOption("speeduptest.suite_chunk")) and, under a future plan, on the
# plan's workers: neither may change a single number.

chunk_suite <- function(nb = 23, seed = 11) {
  set.seed(seed)
  suite <- lapply(seq_len(nb), function(j) {
    n <- sample(c(2, 5, 12, 31, 40), 1)
    base <- runif(1, 1, 5)
    list(x = rlnorm(n, log(base), 0.05),
         y = rlnorm(n + sample(0:3, 1), log(base / sample(c(1, 1.05, 1.3), 1)), 0.05),
         weight = runif(1))
  })
  names(suite) <- sprintf("b%03d", seq_len(nb))
  suite[[5]]$x[2] <- NA          # a skipped benchmark inside a chunk
  suite
}

strip_call <- function(res) {
  res$call <- NULL
  res
}

test_that("the chunk size does not change the result", {
  suite <- chunk_suite()
  for (lev in list(NULL, NA)) {
    whole <- suppressWarnings(speedup_suite(suite, conf_level = lev,
                                            weights = "custom"))
    for (size in c(1, 4, 7)) {
      old <- options(speeduptest.suite_chunk = size)
      on.exit(options(old), add = TRUE)
      chunked <- suppressWarnings(speedup_suite(suite, conf_level = lev,
                                                weights = "custom"))
      expect_identical(strip_call(chunked), strip_call(whole))
    }
  }
})

test_that("the chunked summary is the one of the benchmarks' columns", {
  # the overall gains and speedups (eq. 2 of the 2013 paper with the 2009
  # report's time-proportional weights) and the proportions, recomputed in
  # R from the per-benchmark centres and decisions of a chunked run
  suite <- chunk_suite(40, seed = 12)
  old <- options(speeduptest.suite_chunk = 6)
  on.exit(options(old), add = TRUE)
  res <- suppressWarnings(speedup_suite(suite, weights = "fraction"))
  bm <- res$benchmarks
  expect_false("b005" %in% bm$benchmark)     # skipped (an NA run)
  ok <- !is.na(bm$weight_mean)
  expect_gt(sum(ok), 30)
  for (centre in c("min", "mean", "median")) {
    cx <- bm[[paste0(centre, "_x")]][ok]
    cy <- bm[[paste0(centre, "_y")]][ok]
    w <- cx / sum(cx)
    expect_equal(bm[[paste0("weight_", centre)]][ok], w, tolerance = 1e-14)
    expect_true(all(is.na(bm[[paste0("weight_", centre)]][!ok])))
    k <- match(centre, c("min", "mean", "median"))
    expect_equal(res$overall$gain[k], sum(w * (cx - cy)) / sum(w * cx),
                 tolerance = 1e-12)
    expect_equal(res$overall$speedup[k], sum(w * cx) / sum(w * cy),
                 tolerance = 1e-12)
  }
  a <- c(sum(bm$mean_significant[ok] %in% TRUE),
         sum(bm$median_significant[ok] %in% TRUE))
  expect_identical(as.double(res$proportion$a), as.double(a))
  expect_equal(res$proportion$estimate, a / sum(ok))
})

test_that("chunks on future workers give the same result", {
  skip_if_not_installed("future.apply")
  skip_if_not_installed("future")
  skip_on_cran()
  suite <- chunk_suite(30, seed = 13)
  local <- suppressWarnings(speedup_suite(suite))
  old_plan <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old_plan), add = TRUE)
  # chunks sent to the workers whatever the suite's size
  old <- options(speeduptest.suite_chunk = 8, speeduptest.suite_parallel_min = 0)
  on.exit(options(old), add = TRUE)
  remote <- suppressWarnings(speedup_suite(suite))
  expect_identical(strip_call(remote), strip_call(local))
})

test_that("the list reader's fast path and the R checks give the same suite", {
  # the C scan takes clean benchmarks as they are; the same benchmarks given
  # in forms it leaves to the R checks (integer times, a class, a NULL
  # level, element order) must give an identical result
  set.seed(14)
  base <- lapply(1:12, function(j) {
    list(x = round(rlnorm(9, log(100), 0.1)), y = round(rlnorm(9, log(95), 0.1)))
  })
  names(base) <- paste0("b", 1:12)
  slow <- base
  slow$b1 <- list(x = as.integer(base$b1$x), y = as.integer(base$b1$y))
  slow$b2 <- list(x = structure(base$b2$x, class = "my_times"), y = base$b2$y)
  slow$b3 <- list(y = base$b3$y, x = base$b3$x, conf_level = NULL)
  slow$b4 <- list(base$b4$x, base$b4$y)
  slow$b5 <- as.pairlist(base$b5)
  expect_identical(strip_call(speedup_suite(slow)), strip_call(speedup_suite(base)))
  # NA and NaN dropped with na_rm on both paths
  na <- base
  na$b6$x <- c(NA, base$b6$x, NaN)
  na$b7$y <- c(base$b7$y, NA)
  expect_identical(strip_call(speedup_suite(na, na_rm = TRUE)),
                   strip_call(speedup_suite(base)))
  # a bad value in a clean-looking benchmark still skips it, with its message
  bad <- base
  bad$b8$y[2] <- -1
  res <- suppressWarnings(speedup_suite(bad))
  expect_false("b8" %in% res$benchmarks$benchmark)
  expect_match(res$problems$message, "b8.*<= 0", all = FALSE)
})
