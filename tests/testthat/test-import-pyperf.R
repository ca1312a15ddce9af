test_that("every value of every pyperf run comes through; warm-ups and calibration excluded", {
  f <- timings_fixture("pyperf-base.json")
  j <- jsonlite::parse_json(readLines(f, warn = FALSE))
  t <- read_timings(f)
  expect_identical(attr(t, "source"), "pyperf")
  expect_identical(unique(t$benchmark), c("json_dumps", "regex_compile"))
  for (b in j$benchmarks) {
    vals <- unlist(lapply(b$runs, function(r) unlist(r$values)))
    warm <- unlist(lapply(b$runs, function(r) vapply(r$warmups, `[[`, 1, 2)))
    rows <- t[t$benchmark == b$metadata$name, ]
    expect_equal(rows$time, vals)
    expect_equal(nrow(rows), 36L)
    expect_false(any(rows$time %in% warm))
    expect_identical(rows$run, seq_along(vals))
    # which worker process each value came from (the calibration run is the first)
    n_per <- vapply(b$runs, function(r) length(r$values), 1)
    expect_identical(rows$process, rep(seq_along(b$runs), n_per))
  }
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
  expect_identical(t$benchmark, rep("telco", 3))
  expect_equal(t$time, c(0.1, 0.11, 0.12))
})
