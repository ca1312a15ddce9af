# `speeduptest measure`: measure() on the command line, its CSV read back
# by read_timings(), and the Google Benchmark harness.

measure_cli <- function(...) {
  err <- character()
  status <- NULL
  err_con <- textConnection("err", "w", local = TRUE)
  sink(err_con, type = "message")
  out <- tryCatch(utils::capture.output(status <- speeduptest:::cli_measure(c(...))),
                  finally = { sink(type = "message"); close(err_con) })
  list(status = as.vector(status), timings = attr(status, "timings"), out = out, err = err)
}

test_that("the options are hyperfine's: -n names the next command", {
  p <- speeduptest:::measure_parse_args
  o <- p(c("-r", "7", "-w", "2", "-n", "old", "sleep 0.1", "-n", "new", "sleep 0.2",
           "--prepare", "sync", "--timeout", "5", "-N"))
  expect_identical(o$versions, c(old = "sleep 0.1", new = "sleep 0.2"))
  expect_identical(o$runs, 7L)
  expect_identical(o$warmup, 2L)
  expect_identical(o$prepare, "sync")
  expect_identical(o$timeout, 5)
  expect_identical(o$shell, "never")
  # an unnamed command is named by itself; the defaults
  o <- p(c("-n", "a", "sleep 0.1", "sleep 0.2"))
  expect_identical(names(o$versions), c("a", "sleep 0.2"))
  expect_identical(o$runs, 31L)
  expect_identical(o$order, "interleaved")
  expect_identical(p(c("--harness", "gbench", "./b"))$runs, 10L)
  # no progress line in a pipe (the tests' standard error is not a terminal)
  expect_false(o$progress)
  expect_true(p(c("--progress", "x"))$progress)
  for (bad in list(character(), c("-n", "a", "-n", "b", "x"), c("-n", "a", "x", "-n", "a", "y"),
                   c("--runs", "0", "x"), c("--runs", "2.5", "x"), c("--bogus", "x"),
                   c("--metric", "cpu_time", "x"), c("--until", "later", "x"),
                   c("--alpha", "0.95", "x"), c("--harness", "gbench", "--until", "decided", "x"),
                   c("x", "-r"))) {
    r <- measure_cli(bad)
    expect_identical(r$status, 2L, label = paste(bad, collapse = " "))
    expect_match(r$err[1], "^speeduptest measure: ")
  }
  expect_identical(measure_cli("--help")$status, 0L)
})

test_that("measure interleaves, and its CSV is read back with rounds and processes", {
  skip_on_cran()
  skip_on_os("windows")
  f <- tempfile(fileext = ".csv")
  r <- measure_cli("-r", "7", "--export", f, "-q", "-n", "a", "sleep 0.002",
                   "-n", "b", "sleep 0.004")
  expect_identical(r$status, 0L)
  expect_length(r$out, 0L)
  t <- read_timings(f)
  expect_identical(levels(t$version), c("a", "b"))
  expect_identical(unique(t$benchmark), "sleep")
  expect_identical(nrow(t), 14L)
  expect_setequal(t$round, 1:7)
  expect_true(all(table(t$round) == 2L))
  expect_identical(anyDuplicated(t$process), 0L)
  # the global order of the runs: each round holds both versions
  expect_setequal(t$run, 1:14)
  expect_true(all(tapply(t$run, t$round, function(r) diff(range(r))) == 1L))
  expect_true(all(t$time > 0.0015))
  # compare pairs the runs by round
  out <- utils::capture.output(st <- speeduptest:::cli_compare(c(f, "--tolerance", "0")))
  expect_match(grep("^sleep", out, value = TRUE), "paired by round, 7 rounds", fixed = TRUE)
  # the summary names the versions with their times
  r <- measure_cli("-r", "3", "-w", "0", "--benchmark", "naps", "-n", "a", "sleep 0.002",
                   "-n", "b", "sleep 0.004")
  expect_identical(r$status, 0L)
  expect_match(r$out[1], "^naps: 2 versions, interleaved rounds")
  expect_match(r$out[2], "^  a +[0-9.]+ ms .* \\(3 runs, 3 processes\\)$")
  # a failing command is exit 2 with the reason
  r <- measure_cli("-r", "2", "-q", "-n", "a", "sleep 0.001", "-n", "b", "false")
  expect_identical(r$status, 2L)
  expect_match(paste(r$err, collapse = " "), "exited with status 1", fixed = TRUE)
  r <- measure_cli("-r", "2", "-q", "--setup", "exit 3", "sleep 0.001")
  expect_identical(r$status, 2L)
  expect_match(paste(r$err, collapse = " "), "--setup", fixed = TRUE)
})

test_that("the benchmark is named after what the commands have in common", {
  nm <- speeduptest:::hyperfine_benchmark_name
  expect_identical(nm(c("../base/prog in.txt", "../head/prog in.txt"), "f"), "prog in.txt")
  expect_identical(nm(c("./a/prog 1", "./b/prog 2"), "f"), "prog")
  expect_identical(nm(c("old", "new"), "times"), "times")
  expect_identical(nm(c("sleep 0.1", "sleep 0.2"), "f"), "sleep")
  expect_identical(nm(NA_character_, "f"), "f")
  # a hyperfine file of two builds is named after the program, not the file
  j <- list(results = list(
    list(command = "../base/prog in.txt", command_name = "base", times = as.list(1:5 / 100)),
    list(command = "../head/prog in.txt", command_name = "head", times = as.list(1:5 / 100))))
  f <- tempfile("times", fileext = ".json")
  writeLines(jsonlite::toJSON(j, auto_unbox = TRUE), f)
  t <- read_timings(f)
  expect_identical(unique(t$benchmark), "prog in.txt")
  expect_identical(levels(t$version), c("base", "head"))
  expect_identical(unique(read_timings(f, benchmark = "mine")$benchmark), "mine")
})

test_that("--harness gbench runs the program in interleaved processes and keeps every repetition", {
  skip_on_cran()
  skip_on_os("windows")
  cxx <- Sys.which("g++")
  skip_if(!nzchar(cxx), "no C++ compiler")
  exe <- tempfile("bench")
  st <- system2(cxx, c("-O2", "-o", exe, shQuote(timings_fixture("loop_bench.cc")),
                       "-lbenchmark", "-lpthread"), stdout = FALSE, stderr = FALSE)
  skip_if(st != 0, "cannot build loop_bench.cc (libbenchmark-dev missing?)")
  f <- tempfile(fileext = ".csv")
  cmd <- paste(exe, "--benchmark_repetitions=2 --benchmark_min_time=0.001")
  r <- measure_cli("--harness", "gbench", "-r", "3", "--export", f, "-q",
                   "-n", "base", cmd, "-n", "head", cmd)
  expect_identical(r$status, 0L)
  t <- read_timings(f)
  expect_setequal(unique(t$benchmark), c("BM_lcg/20000", "BM_lcg/80000", "BM_sum"))
  # 3 benchmarks x 2 versions x 3 processes x 2 repetitions
  expect_identical(nrow(t), 36L)
  per <- tapply(t$process, list(t$benchmark, t$version), function(p) length(unique(p)))
  expect_true(all(per == 3L))
  # every process is one run of the program: all its benchmarks, one round,
  # one version
  expect_true(all(tapply(t$round, t$process, function(r) length(unique(r))) == 1L))
  expect_true(all(tapply(as.integer(t$version), t$process,
                         function(v) length(unique(v))) == 1L))
  expect_true(all(table(t$process) == 6L))
  expect_setequal(t$round, 1:3)
  # the CPU time is another column of the same runs
  r <- measure_cli("--harness", "gbench", "--metric", "cpu_time", "-r", "2", "-w", "0",
                   "--export", f, "-q", "-n", "base", cmd, "-n", "head", cmd)
  expect_identical(r$status, 0L)
  expect_identical(nrow(read_timings(f)), 24L)
})

test_that("compare --metric reads another column of a CSV that also has a time column", {
  set.seed(7)
  d <- data.frame(benchmark = "b", version = rep(c("base", "head"), 31),
                  time = 1 + 0.01 * rnorm(62), run = 1:62, round = rep(1:31, each = 2),
                  process = 1:62)
  d$cpu <- d$time * rep(c(1, 1.2), 31)
  f <- tempfile(fileext = ".csv")
  utils::write.csv(d, f, row.names = FALSE)
  t <- read_timings(f, metric = "cpu")
  expect_equal(t$time, d$cpu)
  expect_null(t[["cpu"]])
  out <- utils::capture.output(st <- speeduptest:::cli_compare(c(f, "--metric", "cpu")))
  expect_identical(st, 1L)
  expect_match(grep("^b ", out, value = TRUE), "significant slowdown", fixed = TRUE)
})

test_that("--until steady measures until the runs reach a steady state", {
  skip_on_cran()
  skip_on_os("windows")
  f <- tempfile(fileext = ".csv")
  r <- measure_cli("-r", "10", "--until", "steady", "--max-runs", "40", "--export", f,
                   "-q", "-n", "a", "true", "-n", "b", "true")
  expect_identical(r$status, 0L)
  t <- read_timings(f)
  n <- table(t$version)
  expect_true(all(n >= 10L & n <= 40L))
  r <- measure_cli("--until", "steady", "--harness", "gbench", "-n", "a", "x")
  expect_identical(r$status, 2L)
  r <- measure_cli("--until", "sometimes", "-n", "a", "true")
  expect_identical(r$status, 2L)
})
