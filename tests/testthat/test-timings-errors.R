# Bad input to read_timings(): each a classed error naming the file and
# what was wrong.
expect_file_error <- function(expr, class, file, what) {
  cnd <- tryCatch(expr, error = function(e) e)
  expect_s3_class(cnd, class)
  expect_s3_class(cnd, "speeduptest_error")
  expect_match(conditionMessage(cnd), basename(file), fixed = TRUE)
  expect_match(conditionMessage(cnd), what)
}

test_that("malformed JSON", {
  f <- timings_tempfile('{"results": [{"command": "a", "times": [0.1, 0.2,]}')
  expect_file_error(read_timings(f), "speeduptest_error_format", f, "not valid JSON")
  expect_file_error(read_timings(f, format = "hyperfine"), "speeduptest_error_format", f,
                    "not valid JSON")
})

test_that("JSON of another tool", {
  f <- timings_tempfile('{"reason": "benchmark-complete", "id": "x", "measured_values": [1, 2]}')
  expect_file_error(read_timings(f), "speeduptest_error_format", f,
                    "not the output of a tool")
  # a Google Benchmark file read as hyperfine, and the reverse
  g <- timings_fixture("gbench-base.json")
  expect_file_error(read_timings(g, format = "hyperfine"), "speeduptest_error_format", g,
                    "not a hyperfine export")
  h <- timings_fixture("hyperfine-slowdown.json")
  expect_file_error(read_timings(h, format = "google-benchmark"), "speeduptest_error_format",
                    h, "not a Google Benchmark file")
  expect_file_error(read_timings(h, format = "pyperf"), "speeduptest_error_format", h,
                    "not a pyperf file")
  txt <- timings_tempfile(c("hello", "world"), ".txt")
  expect_file_error(read_timings(txt), "speeduptest_error_format", txt,
                    "not a file format")
})

test_that("empty results", {
  e1 <- timings_tempfile("")
  expect_file_error(read_timings(e1), "speeduptest_error_empty", e1, "empty")
  e2 <- timings_tempfile('{"results": []}')
  expect_file_error(read_timings(e2), "speeduptest_error_empty", e2, "without results")
  e3 <- timings_tempfile('{"context": {}, "benchmarks": []}')
  expect_file_error(read_timings(e3), "speeduptest_error_empty", e3, "no benchmark")
  e4 <- timings_tempfile('{"version": "1.0", "benchmarks": [{"metadata": {"name": "a"},
                          "runs": [{"warmups": [[1, 0.1]]}]}]}')
  expect_file_error(read_timings(e4), "speeduptest_error_empty", e4, "warm-ups")
  e5 <- timings_tempfile("benchmark,version,time", ".csv")
  expect_file_error(read_timings(e5), "speeduptest_error_empty", e5, "no rows")
  e6 <- timings_tempfile('{"results": [{"command": "a", "times": []}]}')
  expect_file_error(read_timings(e6), "speeduptest_error_empty", e6, "no")
})

test_that("a Google Benchmark file with only aggregates", {
  f <- timings_fixture("gbench-aggregates.json")
  expect_file_error(read_timings(f), "speeduptest_error_aggregates", f, "only Google Benchmark aggregates")
  expect_error(read_timings(f), class = "speeduptest_error_empty")
})

test_that("an unknown metric", {
  g <- timings_fixture("gbench-base.json")
  expect_file_error(read_timings(g, metric = "wall_time"), "speeduptest_error_input", g,
                    "real_time")
  h <- timings_fixture("hyperfine-slowdown.json")
  expect_file_error(read_timings(h, metric = "cpu_time"), "speeduptest_error_input", h,
                    "metric")
  p <- timings_fixture("pyperf-base.json")
  expect_file_error(read_timings(p, metric = "x"), "speeduptest_error_input", p, "metric")
})

test_that("mismatched benchmark names between two files: a reported skip", {
  a <- timings_tempfile(c("benchmark,time", paste0("alpha,", 1:5), paste0("beta,", 1:5)), ".csv")
  b <- timings_tempfile(c("benchmark,time", paste0("alpha,", 1:5), paste0("gamma,", 1:5)), ".csv")
  t <- read_timings(c(old = a, new = b))
  w <- list()
  s <- withCallingHandlers(speedup_suite(t), warning = function(c) {
    w[[length(w) + 1L]] <<- c
    invokeRestart("muffleWarning")
  })
  expect_true(all(vapply(w, inherits, TRUE, "speeduptest_warning_unpaired")))
  expect_setequal(vapply(w, `[[`, "", "benchmark"), c("beta", "gamma"))
  expect_identical(s$benchmarks$benchmark, "alpha")
  expect_setequal(s$problems$benchmark, c("beta", "gamma"))
})

test_that("bad arguments and missing files", {
  expect_error(read_timings(1), class = "speeduptest_error_input")
  expect_error(read_timings("a.json", format = "perf"), class = "speeduptest_error_input")
  f <- file.path(tempdir(), "no-such-file.json")
  expect_file_error(read_timings(f), "speeduptest_error_file", f, "no such file")
  expect_error(read_timings(timings_fixture("hyperfine-slowdown.json"),
                            benchmark = c("a", "b")), "not found",
               class = "speeduptest_error_input")
  d <- tempfile(); dir.create(d)
  expect_file_error(read_timings(d), "speeduptest_error_format", d, "folder")
  g <- timings_fixture(c("gbench-base.json", "gbench-slower.json"))
  expect_error(read_timings(c(a = g[1], a = g[2])), "unique", class = "speeduptest_error_input")
})
