# BenchmarkDotNet's full JSON export, from a fixture written to its
# documented format (inst/extdata/timings/make-warmup-fixtures.R): each
# launch a process, its workload warm-ups (marked) then actual iterations.

test_that("the workload's warm-up and actual measurements come through, in order", {
  f <- timings_fixture("bdn-full.json")
  j <- jsonlite::parse_json(readLines(f, warn = FALSE))
  t <- read_timings(f)
  expect_identical(attr(t, "source"), "benchmarkdotnet")
  expect_identical(unique(t$benchmark),
                   c("BenchmarkDotNet.Samples.IntroWarmup.Parse",
                     "BenchmarkDotNet.Samples.IntroWarmup.Format(N=100)"))
  for (k in seq_along(j$Benchmarks)) {
    m <- j$Benchmarks[[k]]$Measurements
    rows <- t[t$benchmark == unique(t$benchmark)[k], ]
    for (launch in 1:2) {
      pick <- function(stage) Filter(function(e) e$IterationMode == "Workload" &&
                                       e$IterationStage == stage && e$LaunchIndex == launch, m)
      w <- pick("Warmup")
      a <- pick("Actual")
      per_op <- function(l) vapply(l, function(e) e$Nanoseconds / e$Operations * 1e-9, 0)
      p <- rows[rows$process == launch, ]
      expect_equal(p$time, c(per_op(w), per_op(a)))
      expect_identical(p$warmup, rep(c(TRUE, FALSE), c(length(w), length(a))))
      expect_identical(p$iteration, seq_len(nrow(p)))
    }
  }
  # the analyses leave the marked warm-ups out; detect classifies them too
  w <- warmup_classify(t)
  expect_true(all(w$class %in% c("warm-up", "flat")))
  expect_identical(w$iterations, rep(38L, 4))
})

test_that("a brief export without measurements is refused with the reason", {
  f <- timings_tempfile('{"Title": "x", "HostEnvironmentInfo": {}, "Benchmarks":
    [{"FullName": "N.T.M", "Statistics": {"Mean": 10}}]}')
  expect_error(suppressWarnings(read_timings(f)), "full JSON")
  f <- timings_tempfile('{"Title": "x", "Benchmarks": [{"Type": "T", "Method": "M",
    "Parameters": "N=1", "Measurements": [
    {"IterationMode": "Workload", "IterationStage": "Actual", "LaunchIndex": 1,
     "IterationIndex": 2, "Operations": 4, "Nanoseconds": 40},
    {"IterationMode": "Workload", "IterationStage": "Actual", "LaunchIndex": 1,
     "IterationIndex": 1, "Operations": 4, "Nanoseconds": 80},
    {"IterationMode": "Overhead", "IterationStage": "Actual", "LaunchIndex": 1,
     "IterationIndex": 1, "Operations": 4, "Nanoseconds": 4}]}]}')
  t <- read_timings(f)
  expect_identical(t$benchmark, rep("T.M(N=1)", 2))
  expect_equal(t$time, c(20, 10) * 1e-9)
  expect_identical(t$iteration, 1:2)
})
