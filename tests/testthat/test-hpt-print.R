# What a person sees of hpt() and hpt_speedup(): numbers, plurals and the
# 80-column width of the prints.

lines_of <- function(x) {
  old <- options(width = 80)
  on.exit(options(old))
  utils::capture.output(print(x))
}

test_that("a confidence of 0 prints as 0, a tiny one in scientific notation", {
  set.seed(21)
  a <- matrix(rlnorm(8 * 6, 0.6, 0.05), 8)   # A slower everywhere
  b <- matrix(rlnorm(8 * 6, 0, 0.05), 8)
  h <- hpt(a, b)
  expect_identical(h$confidence, 0)
  out <- lines_of(h)
  expect_true(any(grepl("^confidence = 0 \\(exact signed-rank\\)$", out)))
  expect_false(any(grepl("0\\.[^0-9]|0\\.$", out)))
  expect_match(h$conclusion, "\\(confidence 0\\)\\.$")
  # 30 benchmarks: the normal approximation gives a tiny positive value
  a <- matrix(rlnorm(30 * 6, 0.6, 0.05), 30)
  b <- matrix(rlnorm(30 * 6, 0, 0.05), 30)
  h <- hpt(a, b)
  expect_gt(h$confidence, 0)
  expect_lt(h$confidence, 1e-4)
  out <- lines_of(h)
  expect_true(any(grepl("^confidence = [0-9.]+e-[0-9]+ \\(signed-rank, normal", out)))
})

test_that("one benchmark is singular, skipped ones are counted", {
  set.seed(22)
  h <- hpt(matrix(rlnorm(6), 1), matrix(rlnorm(6, 0.4), 1))
  expect_true(any(grepl("^1 benchmark; ", lines_of(h))))
  a <- matrix(rlnorm(18), 3)
  b <- matrix(rlnorm(18, 0.4), 3)
  a[2, 1] <- NA
  h <- suppressWarnings(hpt(a, b))
  expect_true(any(grepl("^2 benchmarks \\(1 skipped: see `\\$problems`\\)", lines_of(h))))
  sp <- suppressWarnings(hpt_speedup(a, b, confidence = 0.6))
  expect_true(any(grepl("^Over 2 benchmarks \\(1 skipped", lines_of(sp))))
})

test_that("the prints of hpt(), summary() and hpt_speedup() fit 80 columns", {
  x <- splash2_hpt
  x$score[x$machine == "X"] <- 1.76 * x$score[x$machine == "X"]
  h <- hpt(splash2_hpt, higher_is_better = TRUE)
  sp <- hpt_speedup(x, higher_is_better = TRUE)
  set.seed(23)
  a <- matrix(rlnorm(25 * 5), 25)
  b <- matrix(rlnorm(25 * 5, 0.3), 25)
  rownames(a) <- rownames(b) <- sprintf("benchmark_number_%02d", 1:25)
  a[4, 1] <- -1
  h2 <- suppressWarnings(hpt(a, b, speedup = 1.05))
  for (obj in list(h, summary(h), sp, h2, summary(h2))) {
    out <- lines_of(obj)
    expect_gt(length(out), 5L)
    expect_true(all(nchar(out, type = "width") <= 80), info = out[nchar(out) > 80])
  }
})
