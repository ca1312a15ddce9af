# print() and summary() of a suite: the text people read.

two_versions <- function(benchmarks) {
  d <- cpu_runs[cpu_runs$version %in% c("O1", "O3") &
                  cpu_runs$benchmark %in% benchmarks, ]
  d$version <- droplevels(d$version)
  d$benchmark <- droplevels(d$benchmark)
  d
}

test_that("print and summary of a suite", {
  d <- two_versions(c("crc", "fft", "lz", "matmul"))
  expect_snapshot({
    speedup_suite(d, weights = "equal")
    summary(speedup_suite(d, conf_level = NA))
  })
})

test_that("NaN never shows: no significant benchmark, as.data.frame and print", {
  s <- suppressWarnings(speedup_suite(list(
    few = list(x = c(1, 2), y = c(1, 1.5, 2)),
    same = list(x = c(1, 2, 3, 4), y = c(1, 2, 3, 4)))))
  expect_true(any(is.nan(s$overall$gain_significant)))
  df <- as.data.frame(s)
  expect_false(any(vapply(df, function(col) any(is.nan(col)), NA)))
  expect_true(anyNA(df$mean_p_value))
  out <- capture.output(print(summary(s)))
  expect_false(any(grepl("NaN", out)))
  expect_true(any(grepl("not defined (proportion 0 or 1)", out, fixed = TRUE)))
  expect_snapshot(print(s))
})

test_that("print() lists the benchmarks with each protocol's decision", {
  set.seed(291)
  l <- list(faster = list(rlnorm(30, 0, 0.02), rlnorm(30, -0.1, 0.02)),
            slower = list(rlnorm(30, 0, 0.02), rlnorm(30, 0.1, 0.02)),
            same = list(rlnorm(30, 0, 0.02), rlnorm(30, 0, 0.02)))
  s <- speedup_suite(l)
  out <- utils::capture.output(print(s))
  expect_true(any(grepl("^  faster +[0-9.]+ +speedup +speedup$", out)))
  expect_true(any(grepl("^  slower +[0-9.]+ +slowdown +slowdown$", out)))
  expect_true(all(nchar(out) <= 80))
  # a long suite lists its first 20 and says how many more
  many <- rep(l["same"], 25)
  names(many) <- sprintf("b%02d", 1:25)
  out <- utils::capture.output(print(speedup_suite(many)))
  expect_true(any(grepl("and 5 more benchmarks: summary() lists them all", out, fixed = TRUE)))
})
