test_that("every value of every pyperf run comes through, its warm-ups kept and marked; calibration excluded", {
  f <- timings_fixture("pyperf-base.json")
  j <- jsonlite::parse_json(readLines(f, warn = FALSE))
  t <- read_timings(f)
  expect_identical(attr(t, "source"), "pyperf")
  expect_identical(unique(t$benchmark), c("json_dumps", "regex_compile"))
  for (b in j$benchmarks) {
    # the runs with values; the calibration run (warm-ups only) is left out
    runs <- Filter(function(r) length(r$values) > 0L, b$runs)
    k <- which(vapply(b$runs, function(r) length(r$values) > 0L, NA))
    rows <- t[t$benchmark == b$metadata$name, ]
    expect_equal(nrow(rows), 36L + sum(vapply(runs, function(r) length(r$warmups), 1L)))
    for (i in seq_along(runs)) {
      r <- runs[[i]]
      p <- rows[rows$process == k[i], ]
      warm <- vapply(r$warmups, `[[`, 1, 2)
      # in the process: its warm-ups first, then its values, in order
      expect_equal(p$time, c(warm, unlist(r$values)))
      expect_identical(p$warmup, rep(c(TRUE, FALSE), c(length(warm), length(r$values))))
      expect_identical(p$iteration, seq_len(nrow(p)))
      expect_equal(p$loops, c(vapply(r$warmups, `[[`, 1, 1),
                              rep(b$metadata$loops, length(r$values))))
    }
    expect_equal(rows$time[!rows$warmup], unlist(lapply(runs, function(r) unlist(r$values))))
  }
  # the analyses leave the marked warm-ups out
  v <- median_test(read_timings(timings_fixture(c("pyperf-base.json", "pyperf-new.json"))),
                   benchmark = "json_dumps")
  expect_identical(v$replication$runs, c(36L, 36L))
})

test_that("two pyperf files are two versions; a non-time unit is refused", {
  f <- timings_fixture(c("pyperf-base.json", "pyperf-new.json"))
  t <- read_timings(c(base = f[1], new = f[2]))
  expect_identical(levels(t$version), c("base", "new"))
  f <- timings_tempfile('{"version": "1.0", "benchmarks": [{"metadata":
    {"name": "mem", "unit": "byte"}, "runs": [{"values": [100, 200]}]}]}')
  expect_error(suppressWarnings(read_timings(f)), class = "speeduptest_error_format")
  expect_error(suppressWarnings(read_timings(f)), basename(f), fixed = TRUE)
})

test_that("pyperf's common metadata names a benchmark", {
  f <- timings_tempfile('{"version": "1.0", "metadata": {"name": "telco", "unit": "second"},
    "benchmarks": [{"runs": [{"warmups": [[1, 0.5]]}, {"warmups": [[1, 0.2]], "values": [0.1, 0.11]},
                            {"values": [0.12]}]}]}')
  t <- read_timings(f)
  expect_identical(t$benchmark, rep("telco", 4))
  expect_equal(t$time, c(0.2, 0.1, 0.11, 0.12))
  expect_identical(t$warmup, c(TRUE, FALSE, FALSE, FALSE))
})
