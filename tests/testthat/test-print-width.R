# Every printed line fits in 80 columns.

expect_fits <- function(x, width = 80L) {
  out <- capture.output(print(x))
  long <- out[nchar(out, type = "width") > width]
  expect(length(long) == 0L,
         sprintf("%d line(s) wider than %d columns, e.g.\n%s", length(long),
                 width, paste(utils::head(long, 3L), collapse = "\n")))
  invisible(out)
}

test_that("suite prints fit in 80 columns", {
  d <- cpu_runs[cpu_runs$version %in% c("O1", "O3"), ]
  d$version <- droplevels(d$version)
  s <- speedup_suite(d, conf_level = NA)
  expect_fits(s)
  expect_fits(summary(s))
})

test_that("HPT prints fit in 80 columns", {
  h <- hpt(splash2_hpt, higher_is_better = TRUE)
  expect_fits(h)
  expect_fits(summary(h))
  x <- splash2_hpt
  x$score[x$machine == "X"] <- 1.76 * x$score[x$machine == "X"]
  expect_fits(hpt_speedup(x, higher_is_better = TRUE))
  a <- matrix(c(1, 1.1, 1.2, 2, 2.1, 2.2), 2, byrow = TRUE,
              dimnames = list(c("first benchmark", "second"), NULL))
  expect_fits(hpt(a, a * 1.5, speedup = 1.1))
})

test_that("verdict prints and summaries fit in 80 columns", {
  d <- cpu_runs[cpu_runs$benchmark == "fft", ]
  x <- d$time[d$version == "O1"]
  y <- d$time[d$version == "O3"]
  long_name_for_the_initial_code <- x
  for (v in list(median_test(x, y), mean_test(x, y),
                 mean_test(long_name_for_the_initial_code, y * 1.3),
                 median_test(x[1:5], y[1:5]), mean_test(c(1, 2), y))) {
    expect_fits(v)
    expect_fits(summary(v))
  }
})
