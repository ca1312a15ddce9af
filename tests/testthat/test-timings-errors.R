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
  expect_file_error(suppressWarnings(read_timings(e4)), "speeduptest_error_empty", e4, "warm-ups")
  e5 <- timings_tempfile("benchmark,version,time", ".csv")
  expect_file_error(read_timings(e5), "speeduptest_error_empty", e5, "no rows")
  e6 <- timings_tempfile('{"results": [{"command": "a", "times": []}]}')
  expect_file_error(suppressWarnings(read_timings(e6)), "speeduptest_error_empty", e6, "no")
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
  # a name given to two files makes them two processes of one version,
  # which compare cannot compare with anything
  t <- read_timings(c(a = g[1], a = g[2]))
  expect_identical(levels(t$version), "a")
  expect_identical(length(unique(t$process)), 2L)
})

# ---- what a path is, checked before it is opened ------------------------------

# A FIFO at a fresh path; a background writer that gives up after 20 s
# unblocks a reader that (wrongly) opened it, so a regression fails instead
# of hanging the tests.
make_fifo <- function() {
  if (.Platform$OS.type != "unix" || !nzchar(Sys.which("mkfifo")) ||
      !nzchar(Sys.which("timeout"))) {
    testthat::skip("mkfifo and timeout are needed")
  }
  f <- tempfile(fileext = ".json")
  if (system2("mkfifo", f) != 0L) testthat::skip("mkfifo failed")
  system(sprintf("timeout 20 sh -c ': > %s' >/dev/null 2>&1 &", shQuote(f)))
  f
}

# The condition an expression raises, and the seconds it took.
timed_condition <- function(expr) {
  t0 <- proc.time()[["elapsed"]]
  cnd <- tryCatch({
    expr
    NULL
  }, error = function(e) e)
  list(cnd = cnd, seconds = proc.time()[["elapsed"]] - t0)
}

test_that("a FIFO is refused at once by every reader", {
  f <- make_fifo()
  r <- timed_condition(read_timings(f))
  expect_s3_class(r$cnd, "speeduptest_error_file")
  expect_match(conditionMessage(r$cnd), "named pipe")
  expect_lt(r$seconds, 5)
  for (fmt in c("hyperfine", "csv", "speeduptest", "google-benchmark")) {
    expect_error(read_timings(f, format = fmt), "named pipe",
                 class = "speeduptest_error_file")
  }
  expect_error(read_speedup_config(f), "named pipe", class = "speeduptest_error_file")
  out <- capture.output(status <- cli_compare(f), type = "message")
  expect_identical(status, 2L)
  expect_match(paste(out, collapse = "\n"), "named pipe")
})

test_that("a FIFO sample file in a configuration skips its benchmark only", {
  fifo <- make_fifo()
  d <- tempfile()
  dir.create(d)
  writeLines(format(1 + (1:20) / 100), file.path(d, "a.txt"))
  writeLines(format(0.8 + (1:20) / 100), file.path(d, "b.txt"))
  cfg <- file.path(d, "config.csv")
  writeLines(c("Name,Sample1,Sample2,ConfLevel,Coef", "good,a.txt,b.txt,,",
               sprintf("stuck,a.txt,%s,,", fifo), "device,/dev/zero,b.txt,,"), cfg)
  r <- timed_condition(x <- suppressWarnings(read_speedup_config(cfg)))
  expect_null(r$cnd)
  expect_lt(r$seconds, 5)
  expect_identical(names(x), "good")
  p <- attr(x, "problems")
  expect_setequal(p$benchmark, c("stuck", "device"))
  expect_match(p$message[p$benchmark == "stuck"], "named pipe")
  expect_match(p$message[p$benchmark == "device"], "device")
})

test_that("devices and oversized files are refused before reading", {
  skip_if_not(file.exists("/dev/urandom"))
  r <- timed_condition(read_timings("/dev/urandom", format = "csv"))
  expect_s3_class(r$cnd, "speeduptest_error_file")
  expect_match(conditionMessage(r$cnd), "device")
  expect_lt(r$seconds, 5)
  expect_error(read_timings("/dev/null"), class = "speeduptest_error_file")
  h <- timings_fixture("hyperfine-slowdown.json")
  old <- options(speeduptest.max_file_size = 100)
  on.exit(options(old))
  expect_error(read_timings(h), "larger than the limit", class = "speeduptest_error_file")
})

test_that("binary files are classed errors, in every format", {
  set.seed(31)
  f <- tempfile(fileext = ".json")
  writeBin(as.raw(sample(0:255, 5000, replace = TRUE)), f)
  for (fmt in c("auto", "hyperfine", "google-benchmark", "pyperf", "criterion", "csv")) {
    expect_file_error(read_timings(f, format = fmt), "speeduptest_error_format", f, "binary")
  }
  expect_error(read_speedup_config(f), "binary", class = "speeduptest_error_file")
  # text first, then a NUL byte far into the file
  g <- tempfile(fileext = ".csv")
  writeBin(c(charToRaw(paste0("benchmark,version,time\n",
                              strrep("a,old,1\na,new,2\n", 400))),
             as.raw(0), charToRaw("a,new,3\n")), g)
  expect_error(read_timings(g), class = "speeduptest_error_format")
  j <- tempfile(fileext = ".json")
  writeBin(c(charToRaw(paste0('{"results": [{"command": "a", "times": [',
                              strrep("0.1, ", 1000))), as.raw(0), charToRaw("0.1]}]}")), j)
  expect_error(read_timings(j), "not valid JSON", class = "speeduptest_error_format")
})

# The bytes of `text` (UTF-8) in another encoding, with or without a mark.
encode_as <- function(text, enc, bom = TRUE) {
  raw <- iconv(list(charToRaw(enc2utf8(text))), "UTF-8", enc, toRaw = TRUE)[[1L]]
  mark <- switch(enc, "UTF-16LE" = c(0xff, 0xfe), "UTF-16BE" = c(0xfe, 0xff),
                 "UTF-32LE" = c(0xff, 0xfe, 0, 0), "UTF-32BE" = c(0, 0, 0xfe, 0xff))
  c(if (bom) as.raw(mark), raw)
}

test_that("UTF-16 and UTF-32 exports are decoded and read as their UTF-8 text", {
  h <- timings_fixture("hyperfine-slowdown.json")
  txt <- paste(readLines(h), collapse = "\n")
  want <- read_timings(h, benchmark = "slow")
  for (enc in c("UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE")) {
    f <- tempfile(fileext = ".json")
    writeBin(encode_as(txt, enc), f)
    got <- read_timings(f, benchmark = "slow")
    expect_identical(lapply(got, identity), lapply(want, identity), label = enc)
  }
  # UTF-16 without a byte-order mark (ASCII text)
  f <- tempfile(fileext = ".json")
  writeBin(encode_as(txt, "UTF-16LE", bom = FALSE), f)
  expect_identical(lapply(read_timings(f, benchmark = "slow"), identity),
                   lapply(want, identity))
  # a UTF-8 byte-order mark
  f <- tempfile(fileext = ".json")
  writeBin(c(as.raw(c(0xef, 0xbb, 0xbf)), charToRaw(txt)), f)
  expect_identical(lapply(read_timings(f, benchmark = "slow"), identity),
                   lapply(want, identity))
  # a CSV and a configuration's sample file in UTF-16
  csv <- "benchmark,version,time\nn\u00e9on,old,1.5\nn\u00e9on,old,1.6\nn\u00e9on,new,1.2\n"
  f <- tempfile(fileext = ".csv")
  writeBin(encode_as(csv, "UTF-16LE"), f)
  t <- read_timings(f)
  expect_identical(unique(t$benchmark), "n\u00e9on")
  expect_equal(t$time, c(1.5, 1.6, 1.2))
  d <- tempfile()
  dir.create(d)
  writeBin(encode_as("1.5\n1.6\n1.7\n", "UTF-16BE"), file.path(d, "a.txt"))
  writeLines(c("1.2", "1.3", "1.4"), file.path(d, "b.txt"))
  writeBin(encode_as("Name,Sample1,Sample2,ConfLevel,Coef\nx,a.txt,b.txt,,\n", "UTF-16LE"),
           file.path(d, "c.csv"))
  cfg <- read_speedup_config(file.path(d, "c.csv"))
  expect_equal(cfg$x$x, c(1.5, 1.6, 1.7))
  # bytes that are not valid UTF-16
  f <- tempfile(fileext = ".json")
  writeBin(c(as.raw(c(0xff, 0xfe)), charToRaw("{"), as.raw(0), as.raw(c(0x00, 0xdc))), f)
  expect_error(read_timings(f), class = "speeduptest_error_format")
})

# ---- bad benchmarks cost only themselves ---------------------------------------

# Runs `expr` and returns list(value, warnings).
with_warnings <- function(expr) {
  w <- list()
  v <- withCallingHandlers(expr, warning = function(c) {
    w[[length(w) + 1L]] <<- c
    invokeRestart("muffleWarning")
  })
  list(value = v, warnings = w)
}

test_that("a hyperfine command that cannot be read is skipped with its reason", {
  good <- '{"command": "good", "times": [0.1, 0.11, 0.12], "exit_codes": [0, 0, 0]}'
  cases <- list(
    "no times" = '{"command": "bad", "mean": 0.1}',
    "null" = '{"command": "bad", "times": [0.1, null, 0.2]}',
    "string" = '{"command": "bad", "times": [0.1, "a", 0.2]}',
    "too large" = '{"command": "bad", "times": [0.1, 1e400, 0.2]}',
    "array command" = '{"command": ["bad", "x"], "times": [0.1, 0.2]}',
    "nested" = '{"command": "bad", "times": [[0.1, 0.3], 0.2]}',
    "not an object" = '"bad"')
  why <- c("no times" = "missing", null = "null", string = '"a"',
           "too large" = "too large", "array command" = "not a string",
           nested = "array", "not an object" = "not a JSON object")
  for (k in names(cases)) {
    f <- timings_tempfile(sprintf('{"results": [%s, %s]}', good, cases[[k]]))
    r <- with_warnings(read_timings(f))
    t <- r$value
    expect_identical(levels(t$version), "good", label = k)
    expect_equal(t$time, c(0.1, 0.11, 0.12), label = k)
    p <- attr(t, "problems")
    expect_identical(nrow(p), 1L, label = k)
    expect_match(p$message, why[[k]], fixed = TRUE, label = k)
    expect_true(inherits(r$warnings[[1L]], "speeduptest_warning_skipped"), label = k)
    expect_false(anyNA(t$time))
  }
  # every command bad: a classed error with the reasons
  f <- timings_tempfile('{"results": [{"command": "a", "times": [null]},
                                      {"command": "b", "times": ["x"]}]}')
  expect_error(suppressWarnings(read_timings(f)), "every command was skipped",
               class = "speeduptest_error_format")
})

test_that("a pyperf benchmark in another unit is skipped, the others kept", {
  p <- timings_fixture("pyperf-base.json")
  j <- jsonlite::read_json(p)
  n_good <- length(j$benchmarks)
  bad <- list(metadata = list(name = "rss", unit = "byte"),
              runs = list(list(values = list(1000, 2000, 3000))))
  odd <- list(metadata = list(name = "odd"),
              runs = list(list(values = list(0.1, "x"))))
  j$benchmarks <- c(j$benchmarks, list(bad, odd))
  f <- tempfile(fileext = ".json")
  jsonlite::write_json(j, f, auto_unbox = TRUE, digits = NA)
  r <- with_warnings(read_timings(f))
  want <- read_timings(p)
  got <- r$value
  expect_identical(sort(unique(got$benchmark)), sort(unique(want$benchmark)))
  expect_equal(got$time, want$time)
  expect_setequal(attr(got, "problems")$benchmark, c('benchmark "rss"', 'benchmark "odd"'))
  expect_match(attr(got, "problems")$message, "byte", all = FALSE)
  expect_length(r$warnings, 2L)
})

test_that("a Google Benchmark benchmark with an unreadable run is skipped whole", {
  g <- timings_fixture("gbench-base.json")
  j <- jsonlite::read_json(g)
  names_all <- vapply(j$benchmarks, `[[`, "", "run_name")
  target <- names_all[1L]
  first <- which(names_all == target)[2L]
  j$benchmarks[[first]]$real_time <- "fast"
  f <- tempfile(fileext = ".json")
  jsonlite::write_json(j, f, auto_unbox = TRUE, digits = NA)
  r <- with_warnings(read_timings(f))
  want <- read_timings(g)
  expect_identical(sort(unique(r$value$benchmark)),
                   sort(setdiff(unique(want$benchmark), target)))
  expect_equal(r$value$time, want$time[want$benchmark != target])
  expect_match(attr(r$value, "problems")$message, target, fixed = TRUE)
})

test_that("a CSV benchmark with text for a time is skipped, the others kept", {
  f <- timings_tempfile(c("benchmark,version,time", "a,old,1", "a,new,2", "b,old,1",
                          "b,new,fast", "c,old,1", "c,new,1e400"), ".csv")
  r <- with_warnings(read_timings(f))
  expect_identical(unique(r$value$benchmark), "a")
  expect_match(attr(r$value, "problems")$message, '"fast"', all = FALSE)
  expect_setequal(attr(r$value, "problems")$benchmark, c('benchmark "b"', 'benchmark "c"'))
})

test_that("CSV names that are not valid UTF-8 are kept apart and print as <xx>", {
  set.seed(5)
  f <- tempfile(fileext = ".csv")
  lines <- "benchmark,version,time"
  # Latin-1 names, and one mixing a Latin-1 byte with UTF-8 text (bytes
  # only: pasting them with UTF-8 strings would translate them)
  nm <- c("caf\xe9", "caf\xe8", "na\xefve \xc3\xa9t\xc3\xa9")
  for (b in nm) for (v in c("old", "new")) {
    lines <- c(lines, paste0(b, ",", v, ",", format(rlnorm(8, if (v == "old") 0 else -0.1, 0.02))))
  }
  writeLines(lines, f, useBytes = TRUE)
  t <- read_timings(f)
  expect_true(all(validUTF8(t$benchmark)))
  expect_setequal(unique(t$benchmark),
                  c("caf<e9>", "caf<e8>", paste0("na<ef>ve ", "\u00e9t\u00e9")))
  expect_output(print(t), "caf<e9>", fixed = TRUE)
  expect_output(print(summary(t)), "caf<e8>", fixed = TRUE)
  s <- speedup_suite(t)
  expect_identical(nrow(s$benchmarks), 3L)
  expect_output(print(s))
  expect_output(print(summary(s)))
  out <- capture.output(status <- cli_compare(f))
  expect_identical(status, 0L)
  expect_match(paste(out, collapse = "\n"), "caf<e9>", fixed = TRUE)
})

test_that("a JSON file is parsed once", {
  calls <- new.env()
  calls$n <- 0L
  count <- function() calls$n <- calls$n + 1L
  suppressMessages(trace("parse_json", where = asNamespace("jsonlite"), print = FALSE,
                         tracer = bquote(.(count)())))
  on.exit(suppressMessages(untrace("parse_json", where = asNamespace("jsonlite"))))
  for (f in c("hyperfine-slowdown.json", "gbench-base.json", "pyperf-base.json")) {
    calls$n <- 0L
    read_timings(timings_fixture(f))
    expect_identical(calls$n, 1L, label = f)
  }
})

test_that("a Google Benchmark benchmark that reported an error is reported", {
  g <- timings_fixture("gbench-base.json")
  j <- jsonlite::read_json(g)
  names_all <- vapply(j$benchmarks, `[[`, "", "run_name")
  target <- names_all[1L]
  k <- which(names_all == target)[1L]
  j$benchmarks[[k]]$error_occurred <- TRUE
  j$benchmarks[[k]]$error_message <- "out of memory"
  f <- tempfile(fileext = ".json")
  jsonlite::write_json(j, f, auto_unbox = TRUE, digits = NA)
  r <- with_warnings(read_timings(f))
  want <- read_timings(g)
  expect_identical(sort(unique(r$value$benchmark)),
                   sort(setdiff(unique(want$benchmark), target)))
  expect_match(attr(r$value, "problems")$message, "out of memory", fixed = TRUE)
})

test_that("a criterion.rs folder with an unreadable sample keeps the others", {
  src <- timings_fixture("criterion")
  d <- tempfile()
  dir.create(d)
  file.copy(src, d, recursive = TRUE)
  root <- file.path(d, "criterion")
  samples <- list.files(root, "^sample\\.json$", recursive = TRUE, full.names = TRUE)
  want <- read_timings(root)
  writeLines('{"sampling_mode": "Linear", "iters": [1, 2], "times": [null, 5]}', samples[1L])
  r <- with_warnings(read_timings(root))
  p <- attr(r$value, "problems")
  expect_identical(nrow(p), 1L)
  expect_match(p$message, "null", fixed = TRUE)
  # the damaged sample's runs only are missing
  key_want <- paste(want$benchmark, want$version)
  missing <- setdiff(unique(key_want), unique(paste(r$value$benchmark, r$value$version)))
  expect_length(missing, 1L)
  expect_match(missing, paste0(" ", basename(dirname(samples[1L])), "$"))
  expect_equal(r$value$time, want$time[key_want != missing])
})
