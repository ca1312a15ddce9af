# A bad value in a structure column (`round`, `process`) costs only its
# benchmark, with the reason in the problems, in as_timings(),
# read_timings(), speedup_suite() and compare.

structure_frame <- function() {
  set.seed(34)
  do.call(rbind, lapply(c("g1", "g2", "g3", "bad"), function(b) data.frame(
    benchmark = b, version = rep(c("old", "new"), each = 10),
    time = c(rlnorm(10, 0, 0.05), rlnorm(10, -0.2, 0.05)),
    round = rep(1:10, 2), process = 1:20)))
}

expect_skipped_bad <- function(t, what) {
  expect_identical(unique(as.character(t$benchmark)), c("g1", "g2", "g3"))
  pr <- attr(t, "problems")
  expect_identical(pr$benchmark, "bad")
  expect_match(pr$message, what, fixed = TRUE)
  # the good benchmarks are as they were
  d <- structure_frame()
  keep <- d$benchmark != "bad"
  expect_identical(t$time, d$time[keep])
}

test_that("a non-integer round skips its benchmark only", {
  d <- structure_frame()
  d$round[d$benchmark == "bad"][3] <- 2.5
  expect_warning(t <- as_timings(d), "benchmark \"bad\" skipped", class = "speeduptest_warning_skipped")
  expect_skipped_bad(t, "`round` column holds \"2.5\"")
  expect_identical(t$round, rep(rep(1:10, 2), 3))
  # text among the rounds, an infinite round, a round past the integers
  for (v in list("x", Inf, 2^40)) {
    d <- structure_frame()
    if (is.character(v)) d$round <- as.character(d$round)
    d$round[d$benchmark == "bad"][1] <- v
    t <- suppressWarnings(as_timings(d))
    expect_identical(unique(t$benchmark), c("g1", "g2", "g3"), info = format(v))
  }
  # NA rounds are runs outside any round, not an error
  d <- structure_frame()
  d$round[d$benchmark == "bad"][1] <- NA
  expect_identical(unique(as_timings(d)$benchmark), c("g1", "g2", "g3", "bad"))
})

test_that("a logical process column skips the benchmarks it labels", {
  d <- structure_frame()
  d$process <- NA
  d$process[d$benchmark == "bad"] <- TRUE
  expect_warning(t <- as_timings(d), "not a process label", class = "speeduptest_warning_skipped")
  expect_skipped_bad(t, "`process` column holds \"TRUE\"")
  expect_true(all(is.na(t$process)))
  # every benchmark spoiled: an error naming the column
  d$process <- TRUE
  expect_error(as_timings(d), "no benchmark is left.*`process` column",
               class = "speeduptest_error_data")
})

test_that("read_timings(), speedup_suite() and compare keep the good benchmarks", {
  d <- structure_frame()
  d$round[d$benchmark == "bad"][3] <- 2.5
  f <- tempfile(fileext = ".csv")
  on.exit(unlink(f))
  utils::write.csv(d, f, row.names = FALSE)
  expect_warning(t <- read_timings(f), "skipped", class = "speeduptest_warning_skipped")
  expect_identical(unique(t$benchmark), c("g1", "g2", "g3"))
  expect_match(attr(t, "problems")$message, "not a whole number")
  s <- speedup_suite(t)
  expect_identical(s$benchmarks$benchmark, c("g1", "g2", "g3"))
  expect_true("bad" %in% s$problems$benchmark)
  out <- utils::capture.output(st <- speeduptest:::cli_compare(c(f, "--output", "json")))
  expect_identical(st, 0L)
  js <- jsonlite::fromJSON(paste(out, collapse = "\n"))
  expect_identical(js$comparisons$benchmark, c("g1", "g2", "g3"))
  expect_identical(js$skipped$benchmark, "bad")
  expect_match(js$skipped$message, "`round` column holds \"2.5\"", fixed = TRUE)
})
