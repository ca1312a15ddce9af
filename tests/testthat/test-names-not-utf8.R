# Names whose bytes are not valid UTF-8 are shown with the bad bytes
# written as <e9>; empty timings print and summarise.

latin1_frame <- function() {
  set.seed(7)
  d <- data.frame(benchmark = rep(c("g1", "b\xe9d"), each = 20),
                  version = rep(rep(c("old", "new"), each = 10), 2),
                  time = stats::rexp(40) + 1)
  d
}

test_that("print() and summary() of timings escape bytes that are not UTF-8", {
  t <- as_timings(latin1_frame())
  out <- capture.output(print(t))
  expect_true(any(grepl("b<e9>d", out, fixed = TRUE)))
  expect_true(all(validUTF8(out)))
  out <- capture.output(print(summary(t)))
  expect_true(any(grepl("b<e9>d", out, fixed = TRUE)))
  # the data keep their bytes
  expect_true("b\xe9d" %in% t$benchmark)
  # print() returns the timings themselves, not the escaped copy
  capture.output(r <- print(t))
  expect_identical(r, t)
})

test_that("summary() of a suite and plots escape bytes that are not UTF-8", {
  s <- speedup_suite(latin1_frame())
  out <- capture.output(print(summary(s)))
  expect_true(any(grepl("b<e9>d", out, fixed = TRUE)))
  d <- latin1_frame()
  h <- hpt(split(d$time[d$version == "old"], d$benchmark[d$version == "old"]),
           split(d$time[d$version == "new"], d$benchmark[d$version == "new"]))
  f <- tempfile(fileext = ".pdf")
  on.exit(unlink(f))
  grDevices::pdf(f)
  expect_no_warning(plot(s))
  expect_no_warning(plot(h))
  expect_no_warning(plot(as_timings(d)))
  grDevices::dev.off()
})

test_that("print() and summary() of timings with no runs", {
  t <- as_timings(latin1_frame())[0, ]
  out <- capture.output(print(t))
  expect_match(out[1], "<speedup_timings> 0 runs")
  expect_true(any(grepl("no runs", out)))
  out <- capture.output(print(summary(t)))
  expect_match(out[1], "<speedup_timings> 0 runs")
  expect_equal(nrow(summary(t)), 0L)
})

test_that("measure() refuses a command that is not valid UTF-8 with a classed error", {
  expect_error(measure(a = "\xff\xfe", .runs = 3L, .warmup = 0L, .progress = FALSE),
               "not valid UTF-8 text: \"<ff><fe>\"", class = "speeduptest_error")
  expect_error(measure(a = 1 + 1, .setup = "\xff", .runs = 3L, .warmup = 0L,
                       .progress = FALSE),
               "`.setup`: the command is not valid UTF-8", class = "speeduptest_error")
})

test_that("read_timings() refuses a format that is not UTF-8 with a classed error", {
  expect_error(read_timings(tempfile(), format = "\xff\xfe"),
               "`format` must be one of .*, not \"<ff><fe>\"",
               class = "speeduptest_error_input")
})
