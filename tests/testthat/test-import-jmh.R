# JMH's JSON (-rf json), from a fixture written to JMH's documented format
# (inst/extdata/timings/make-warmup-fixtures.R): each fork a process, its
# raw iteration scores in order, times per operation.

test_that("every raw iteration score of every fork comes through, in order", {
  f <- timings_fixture("jmh-result.json")
  j <- jsonlite::parse_json(readLines(f, warn = FALSE))
  t <- read_timings(f)
  expect_identical(attr(t, "source"), "jmh")
  expect_identical(unique(t$benchmark),
                   c("org.example.bench.ListBench.arrayList:size=1000",
                     "org.example.bench.ListBench.arrayList:size=10000",
                     "org.example.bench.MapBench.hashMapGet"))
  for (k in seq_along(j)) {
    r <- j[[k]]
    rows <- t[t$benchmark == unique(t$benchmark)[k], ]
    raw <- r$primaryMetric$rawData
    expect_identical(rows$process, rep(seq_along(raw), lengths(raw)))
    expect_identical(rows$iteration, unlist(lapply(lengths(raw), seq_len)))
    v <- unlist(raw)
    expected <- if (r$mode == "thrpt") 1e-3 / v else v * 1e-9
    expect_equal(rows$time, expected)
  }
  # the slow start of fork 2 of the first benchmark is found
  w <- warmup_classify(t[t$benchmark == unique(t$benchmark)[1], ])
  expect_identical(as.character(w$class), c("flat", "warm-up", "flat"))
})

test_that("JMH files that cannot be read say why", {
  f <- timings_tempfile('[{"benchmark": "a.B.c", "mode": "sample", "primaryMetric":
    {"score": 1, "scoreUnit": "us/op", "rawDataHistogram": []}},
    {"benchmark": "a.B.d", "mode": "avgt", "primaryMetric":
    {"score": 1, "scoreUnit": "us/op", "rawData": [[1.0, 1.1], [1.2, 0.9]]}}]')
  expect_warning(read_timings(f), class = "speeduptest_warning")
  t <- suppressWarnings(read_timings(f))
  expect_identical(unique(t$benchmark), "a.B.d")
  expect_equal(t$time, c(1, 1.1, 1.2, 0.9) * 1e-6)
  expect_match(attr(t, "problems")$message, "sample mode", all = FALSE)
  f <- timings_tempfile('[{"benchmark": "a.B.c", "mode": "avgt", "primaryMetric":
    {"score": 1, "scoreUnit": "furlongs", "rawData": [[1]]}}]')
  expect_error(suppressWarnings(read_timings(f)), class = "speeduptest_error_format")
  f <- timings_tempfile('[{"benchmark": "a.B.c", "mode": "avgt", "primaryMetric":
    {"score": 1, "scoreUnit": "ns/op", "rawData": [[1, null]]}}]')
  expect_error(suppressWarnings(read_timings(f)), class = "speeduptest_error_format")
  expect_error(read_timings(f, format = "jmh", metric = "x"), class = "speeduptest_error_input")
})
