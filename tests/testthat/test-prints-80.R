# Snapshots of the prints a person reads, at 80 columns: each line fits,
# and each decision is named in its words.

# Normal quantiles in a fixed shuffled order (sorted runs would show a
# trend over the run order).
norm_s <- function(n, mean, sd) {
  v <- mean + sd * stats::qnorm(stats::ppoints(n))
  v[order((seq_len(n) * 37) %% 101)]
}

fits_80 <- function(x) {
  out <- utils::capture.output(print(x))
  expect_true(all(nchar(out, type = "width") <= 80L),
              info = paste(out[nchar(out) > 80L], collapse = "\n"))
  invisible(out)
}

test_that("verdict prints at 80 columns", {
  local_reproducible_output(width = 80)
  x <- norm_s(40, 10, 0.3)
  y <- norm_s(40, 9, 0.3)
  faster <- median_test(x, y)
  slower <- median_test(y, x)
  same <- mean_test(x, norm_s(40, 10.02, 0.3))
  few <- median_test(c(10, 10.5), y)
  for (v in list(faster, slower, same, few)) {
    fits_80(v)
    fits_80(summary(v))
  }
  expect_snapshot({
    faster
    slower
    same
    few
    summary(slower)
    glance(slower)[, c("decision", "direction", "p.value")]
  })
})

test_that("highest_confidence() says why there is no level", {
  local_reproducible_output(width = 80)
  x <- norm_s(40, 10, 0.3)
  y <- norm_s(40, 9, 0.3)
  hc <- highest_confidence(y, x)
  expect_true(is.na(hc))
  expect_false(is.null(attr(hc, "slowdown")))
  out <- fits_80(hc)
  expect_match(paste(out[-1L], collapse = " "),
               "a significant slowdown, up to confidence\\s+1 - ")
  expect_snapshot({
    highest_confidence(y, x)
    highest_confidence(x, norm_s(40, 10.02, 0.3))
    highest_confidence(x, y)
  })
})

test_that("suite prints at 80 columns, NA (not NaN) where no level was found", {
  local_reproducible_output(width = 80)
  d <- omp_runs[omp_runs$version %in% c("seq", "omp1"), ]
  d$version <- droplevels(d$version)
  s <- speedup_suite(d)
  fits_80(s)
  fits_80(summary(s))
  s2 <- speedup_suite(d, conf_level = NA)
  fits_80(summary(s2))
  expect_false(any(is.nan(s2$benchmarks$mean_highest)))
  expect_false(any(is.nan(s2$benchmarks$median_highest)))
  expect_true(anyNA(s2$benchmarks$mean_highest))
  # long benchmark names are cut to keep the summary's tables in 80 columns
  long <- d
  long$benchmark <- paste0(long$benchmark, "_with_a_rather_long_name_here")
  fits_80(summary(speedup_suite(long)))
  expect_snapshot({
    summary(s)
  })
})

test_that("an alpha above 0.5 warns that it looks like a confidence", {
  x <- norm_s(40, 10, 0.3)
  y <- norm_s(40, 9, 0.3)
  expect_warning(median_test(x, y, alpha = 0.95), class = "speeduptest_warning_alpha")
  expect_warning(mean_test(x, y, alpha = 0.95), "alpha = 0.05", fixed = TRUE)
  expect_no_warning(median_test(x, y, alpha = 0.5))
  expect_no_warning(median_test(x, y, alpha = 0.05))
})
