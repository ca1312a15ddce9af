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
