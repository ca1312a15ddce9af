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

test_that("the chunk results agree with the one-pass core", {
  suite <- chunk_suite(40, seed = 12)
  old <- options(speeduptest.suite_chunk = 6)
  on.exit(options(old), add = TRUE)
  res <- suppressWarnings(speedup_suite(suite, weights = "fraction"))
  packed <- suppressWarnings(speeduptest:::suite_from_list(suite, FALSE))
  one <- .Call(speeduptest:::ffi_speedup_suite, as.double(packed$values),
               as.double(packed$x_start), as.double(packed$x_len),
               as.double(packed$y_start), as.double(packed$y_len),
               rep(0.05, length(packed$names)), TRUE, 2L, double(), 0.95, 0L,
               0.05)
  expect_identical(res$benchmarks$mean_p_value, one$benchmarks$mean_p_value)
  expect_identical(res$benchmarks$median_ci_low, one$benchmarks$median_ci_low)
  expect_identical(res$benchmarks$weight_mean, one$benchmarks$weights[, 2])
  expect_identical(res$overall$gain, one$summary$gain)
  expect_identical(res$proportion$conf_low, one$summary$conf_low)
})

test_that("chunks on future workers give the same result", {
  skip_if_not_installed("future.apply")
  skip_if_not_installed("future")
  skip_on_cran()
  suite <- chunk_suite(30, seed = 13)
  local <- suppressWarnings(speedup_suite(suite))
  old_plan <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old_plan), add = TRUE)
  old <- options(speeduptest.suite_chunk = 8)
  on.exit(options(old), add = TRUE)
  remote <- suppressWarnings(speedup_suite(suite))
  expect_identical(strip_call(remote), strip_call(local))
})
