gbench_runs <- function(f) {
  b <- jsonlite::fromJSON(f)$benchmarks
  b[b$run_type == "iteration", ]
}

test_that("every repetition of a Google Benchmark file comes through, per iteration, in seconds", {
  f <- timings_fixture("gbench-base.json")
  ref <- gbench_runs(f)
  t <- read_timings(f)
  expect_identical(attr(t, "source"), "google-benchmark")
  expect_identical(levels(t$version), "gbench-base")
  expect_identical(unique(t$benchmark), c("BM_lcg/20000", "BM_lcg/80000", "BM_sum"))
  expect_equal(nrow(t), nrow(ref))
  expect_identical(as.vector(table(t$benchmark)[unique(t$benchmark)]), c(35L, 35L, 35L))
  expect_true(all(ref$time_unit == "ns"))
  expect_equal(t$time, ref$real_time * 1e-9)
  expect_equal(t$iterations, ref$iterations)
  # runs in the order of the repetitions
  expect_identical(t$run, as.integer(ref$repetition_index) + 1L)
  # the medians agree with the aggregates Google Benchmark wrote
  all <- jsonlite::fromJSON(f)$benchmarks
  med <- all[all$run_type == "aggregate" & all$aggregate_name == "median", ]
  expect_equal(vapply(med$run_name, function(b) median(t$time[t$benchmark == b]), 1),
               setNames(med$real_time * 1e-9, med$run_name))
})

test_that("metric = \"cpu_time\" reads the CPU time", {
  f <- timings_fixture("gbench-slower.json")
  t <- read_timings(f, metric = "cpu_time")
  expect_equal(t$time, gbench_runs(f)$cpu_time * 1e-9)
})

test_that("time units are converted and repeats/aggregate suffixes dropped", {
  f <- timings_tempfile('{"context": {}, "benchmarks": [
    {"name": "BM_a/8/repeats:2", "run_name": "BM_a/8", "run_type": "iteration",
     "iterations": 10, "real_time": 1.5, "cpu_time": 1.4, "time_unit": "ms"},
    {"name": "BM_a/8/repeats:2", "run_name": "BM_a/8", "run_type": "iteration",
     "iterations": 10, "real_time": 2.5, "cpu_time": 2.4, "time_unit": "ms"},
    {"name": "BM_a/8/repeats:2_mean", "run_name": "BM_a/8", "run_type": "aggregate",
     "aggregate_name": "mean", "iterations": 2, "real_time": 2, "cpu_time": 1.9, "time_unit": "ms"},
    {"name": "BM_b", "run_type": "iteration", "iterations": 3, "real_time": 7,
     "cpu_time": 6, "time_unit": "us"},
    {"name": "BM_c", "run_type": "iteration", "iterations": 3, "real_time": 2,
     "cpu_time": 2, "time_unit": "s"}]}')
  t <- read_timings(f)
  expect_identical(t$benchmark, c("BM_a/8", "BM_a/8", "BM_b", "BM_c"))
  expect_equal(t$time, c(1.5e-3, 2.5e-3, 7e-6, 2))
  expect_identical(t$run, c(1L, 2L, 1L, 1L))
})

test_that("Google Benchmark built and run live: its JSON is read run for run", {
  skip_on_cran()
  cxx <- Sys.which("g++")
  skip_if(!nzchar(cxx), "no C++ compiler")
  skip_if(!file.exists("/usr/include/benchmark/benchmark.h"), "libbenchmark-dev is not installed")
  exe <- tempfile()
  status <- system2(cxx, c("-O2", shQuote(timings_fixture("loop_bench.cc")), "-o", exe,
                           "-lbenchmark", "-lpthread"), stdout = FALSE, stderr = FALSE)
  skip_if(status != 0, "cannot build against libbenchmark")
  out <- tempfile(fileext = ".json")
  status <- system2(exe, c("--benchmark_filter=BM_sum", "--benchmark_repetitions=4",
                           "--benchmark_min_time=0.001",
                           paste0("--benchmark_out=", out), "--benchmark_out_format=json"),
                    stdout = FALSE, stderr = FALSE)
  skip_if(status != 0 || !file.exists(out), "the benchmark failed to run")
  t <- read_timings(out)
  ref <- gbench_runs(out)
  expect_identical(unique(t$benchmark), "BM_sum")
  expect_equal(nrow(t), 4L)
  expect_equal(t$time, ref$real_time * c(ns = 1e-9, us = 1e-6, ms = 1e-3, s = 1)[ref$time_unit],
               ignore_attr = TRUE)
})

test_that("`benchmark` keeps the benchmarks named", {
  t <- read_timings(timings_fixture("gbench-base.json"), benchmark = c("BM_sum", "BM_lcg/80000"))
  expect_setequal(unique(t$benchmark), c("BM_sum", "BM_lcg/80000"))
  expect_equal(nrow(t), 70L)
  expect_error(read_timings(timings_fixture("gbench-base.json"), benchmark = "BM_nope"),
               "BM_nope", class = "speeduptest_error_input")
})

test_that("Google Benchmark repetitions keep their order in the process", {
  f <- timings_tempfile('{"context": {}, "benchmarks": [
    {"name": "BM_a", "run_name": "BM_a", "run_type": "iteration", "repetitions": 3,
     "repetition_index": 2, "iterations": 10, "real_time": 30, "cpu_time": 30, "time_unit": "ns"},
    {"name": "BM_a", "run_name": "BM_a", "run_type": "iteration", "repetitions": 3,
     "repetition_index": 0, "iterations": 10, "real_time": 10, "cpu_time": 10, "time_unit": "ns"},
    {"name": "BM_a", "run_name": "BM_a", "run_type": "iteration", "repetitions": 3,
     "repetition_index": 1, "iterations": 10, "real_time": 20, "cpu_time": 20, "time_unit": "ns"}]}')
  t <- read_timings(f)
  expect_identical(t$iteration, c(3L, 1L, 2L))
  expect_identical(t$process, rep(1L, 3))
  w <- warmup_classify(t)
  expect_equal(warmup_series(w)$time, c(10, 20, 30) * 1e-9)
})

test_that("runs and repetition order of many benchmarks match a per-benchmark count", {
  set.seed(21)
  nb <- 40
  recs <- list()
  for (j in seq_len(nb)) {
    k <- 1 + j %% 6
    idx <- switch(j %% 4 + 1, sample(k) - 1, rep(0, k), NA, seq_len(k) - 1)
    for (i in seq_len(k)) {
      r <- list(name = sprintf("B%02d", j %% 13), run_type = "iteration",
                iterations = 10, real_time = runif(1, 1, 2), time_unit = "ns")
      if (!is.na(idx[i])) r$repetition_index <- idx[i]
      recs[[length(recs) + 1L]] <- r
    }
  }
  recs <- recs[sample(length(recs))]
  f <- withr::local_tempfile(fileext = ".json")
  jsonlite::write_json(list(context = list(), benchmarks = recs), f, auto_unbox = TRUE,
                       digits = NA)
  t <- read_timings(f, format = "google-benchmark")
  nm <- vapply(recs, `[[`, "", "name")
  ri <- vapply(recs, function(r) if (is.null(r$repetition_index)) NA_real_ else r$repetition_index, 0)
  # brute force: per benchmark, the runs in file order, the iterations by
  # repetition_index when every run has a distinct one
  run <- integer(length(nm))
  it <- integer(length(nm))
  for (b in unique(nm)) {
    i <- which(nm == b)
    run[i] <- seq_along(i)
    r <- ri[i]
    it[i] <- if (!anyNA(r) && !anyDuplicated(r)) as.integer(rank(r)) else seq_along(i)
  }
  expect_identical(as.character(t$benchmark), nm)
  expect_identical(as.integer(t$iteration), it)
})

test_that("the fields of many records are what `[[` finds in each", {
  # reference: lapply(records, `[[`, key) and the type of each value, for
  # records of every shape parse_json() gives (objects, arrays, scalars,
  # null, repeated names)
  recs <- jsonlite::parse_json(paste0(
    '[{"a": "x", "n": 1.5, "b": true}, {"a": 3, "n": "2", "b": 1}, ',
    '{"a": null, "n": null, "b": null}, {"a": [], "n": {}, "b": [true]}, ',
    '{"a": ["y"], "n": [1, 2], "b": false}, {}, [1, 2], 5, null, "s", ',
    '{"a": "first", "a": "second", "n": 7, "n": 8}, {"n": 1e400, "a": "", "b": "true"}, ',
    '{"x": 1}, {"n": 42, "a": "\\u00e9"}]'), simplifyVector = FALSE)
  keys <- c("a", "n", "b", "zz")
  types <- c("s", "n", "b", "s")
  got <- speeduptest:::json_fields(recs, keys, types)
  expect_named(got, keys)
  is_type <- list(s = is.character, n = is.numeric, b = is.logical)
  na <- list(s = NA_character_, n = NA_real_, b = NA)
  for (k in seq_along(keys)) {
    v <- lapply(recs, function(r) if (is.list(r)) r[[keys[k]]])
    absent <- vapply(recs, function(r) !is.list(r) || !(keys[k] %in% names(r)), NA)
    one <- lengths(v) == 1L & vapply(v, is_type[[types[k]]], NA)
    kind <- ifelse(absent, 0L, ifelse(lengths(v) == 0L, 1L, ifelse(one, 2L, 3L)))
    value <- rep(na[[types[k]]], length(v))
    value[one] <- unlist(v[one])
    if (types[k] == "n") value <- as.double(value)
    expect_identical(got[[k]]$kind, kind)
    expect_identical(got[[k]]$value, value)
  }
  expect_identical(got$a$value[11], "first")
  expect_identical(got$n$value[12], Inf)
})

test_that("a clean file read in one pass of C gives what the checked path gives", {
  # reference: import_gbench(fast = FALSE), the R path with every check,
  # on files of every shape the one pass reads (aggregates, units, names
  # from run_name or name, integer times, repetition indices missing,
  # repeated or shuffled, iterations missing, keys repeated) and on files
  # it hands back to the checks (errors, bad units, times, names, entries)
  ns <- asNamespace("speeduptest")
  set.seed(36)
  rec <- function(j, i, unit) {
    r <- list(name = sprintf("BM_%d/repeats:3", j %% 7), run_type = "iteration",
              repetitions = 3, iterations = 100 + j, real_time = runif(1, 1, 1e4),
              cpu_time = round(runif(1, 1, 1e4)), time_unit = unit)
    if (j %% 3) r$run_name <- sprintf("BM_%d", j %% 7)
    if (j %% 5) r$repetition_index <- if (j %% 4) i - 1 else 0
    if (j %% 11 == 0) r$iterations <- NULL
    if (j %% 13 == 0) r$time_unit <- NULL
    r
  }
  files <- list()
  for (case in 1:6) {
    recs <- list()
    for (j in 1:30) for (i in 1:3) {
      recs[[length(recs) + 1L]] <- rec(j, i, c("ns", "us", "ms", "s")[1 + (j + case) %% 4])
    }
    if (case %% 2) recs <- recs[sample(length(recs))]
    # aggregates among the runs
    recs <- c(recs, list(list(name = "BM_1_mean", run_name = "BM_1", run_type = "aggregate",
                              aggregate_name = "mean", real_time = 5, cpu_time = 5,
                              time_unit = "ns")))
    files[[length(files) + 1L]] <- recs
  }
  clean <- length(files)
  bad <- list(
    list(error_occurred = TRUE, error_message = "gave up"),
    list(time_unit = "ks"), list(time_unit = 3), list(real_time = "fast"),
    list(real_time = NULL), list(name = NULL, run_name = NULL), list(name = 5, run_name = NULL))
  for (b in bad) {
    recs <- files[[1L]]
    recs[[4]][names(b)] <- b
    files[[length(files) + 1L]] <- recs
  }
  files[[length(files) + 1L]] <- c(files[[2L]], list(5))
  # a key given twice: the first one counts, as `[[` finds it
  twice <- files[[2L]]
  twice[[1]] <- c(twice[[1]], list(real_time = 99))
  files[[length(files) + 1L]] <- twice
  for (k in seq_along(files)) {
    f <- withr::local_tempfile(fileext = ".json")
    txt <- jsonlite::toJSON(list(context = list(), benchmarks = files[[k]]),
                            auto_unbox = TRUE, digits = NA, null = "null")
    writeLines(txt, f)
    j <- jsonlite::parse_json(file(f, "rb"))
    fast <- .Call(ns$ffi_gbench_runs, j$benchmarks, "real_time", names(ns$gbench_units),
                  unname(ns$gbench_units), FALSE, FALSE)
    # the one pass reads the clean files and the repeated key, and no other
    expect_identical(is.null(fast), k > clean && k < length(files), info = k)
    for (metric in c("real_time", "cpu_time")) for (multi in c(FALSE, TRUE)) {
      quiet <- function(expr) withCallingHandlers(expr, warning = function(w) {
        invokeRestart("muffleWarning")
      })
      a <- quiet(ns$import_gbench(f, metric = metric, multi = multi))
      b <- quiet(ns$import_gbench(f, metric = metric, multi = multi, fast = FALSE))
      expect_identical(a, b, info = paste(k, metric, multi))
    }
  }
})
