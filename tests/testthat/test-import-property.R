# Property tests of the importers: a generator of timing files with good
# benchmarks and malformed ones (wrong types, non-finite numbers, missing
# fields, another unit), in each tool's format, optionally damaged as a
# whole (truncated, binary, re-encoded in UTF-16, behind a byte-order mark).
# Whatever the file, read_timings() gives a classed error or timings; an
# intact file keeps every good benchmark, exactly, and reports every bad one.

# JSON numbers of good run times (as text).
prop_times <- function(n) sprintf("%.6g", stats::rlnorm(n, log(0.01), 0.1))

# The JSON text of a value that is not a run time.
# `whole`: in place of a whole array (where an array of numbers is good).
prop_bad_value <- function(whole = FALSE) {
  sample(c("null", '"a"', "1e400", "-1e400", if (!whole) "[0.1, 0.2]", "{}", "true"), 1L)
}

# A file with `good` good and `bad` malformed benchmarks in format `fmt`;
# list(text, good = the good names, bad = the bad names).
prop_file <- function(fmt, good, bad) {
  n_all <- good + bad
  names <- sprintf("bench_%02d", seq_len(n_all))
  is_bad <- sample(rep(c(FALSE, TRUE), c(good, bad)))
  one <- function(name, broken) {
    n <- sample(3:6, 1L)
    times <- prop_times(n)
    kind <- if (broken) sample(1:4, 1L) else 0L
    bi <- sample(n, 1L)
    if (kind == 1L && fmt != "csv") times[bi] <- prop_bad_value()
    switch(fmt,
      hyperfine = {
        field <- sprintf('"times": [%s]', paste(times, collapse = ", "))
        cmd <- sprintf('"command": "%s"', name)
        if (kind == 2L) field <- '"mean": 0.1'
        if (kind == 3L) cmd <- sprintf('"command": ["%s", "x"]', name)
        if (kind == 4L) field <- sprintf('"times": %s', prop_bad_value(whole = TRUE))
        sprintf("{%s, %s, \"exit_codes\": [%s]}", cmd, field,
                paste(rep("0", n), collapse = ", "))
      },
      "google-benchmark" = {
        unit <- if (kind == 2L) "parsec" else "ns"
        vapply(seq_len(n), function(i) {
          rt <- if (kind == 3L && i == 1L) prop_bad_value() else
            sprintf("%.6g", suppressWarnings(as.numeric(times[i])) * 1e9)
          if (rt %in% c("NA", "Inf", "-Inf")) rt <- "null"
          if (kind == 4L && i == n) rt <- '"fast"'
          if (kind == 1L && i == bi) rt <- times[i]
          sprintf('{"name": "%s", "run_name": "%s", "run_type": "iteration", "repetitions": %d, "repetition_index": %d, "iterations": 10, "real_time": %s, "cpu_time": 1, "time_unit": "%s"}',
                  name, name, n, i - 1L, rt, unit)
        }, "")
      },
      pyperf = {
        unit <- if (kind == 2L) "byte" else "second"
        values <- sprintf("[%s]", paste(times, collapse = ", "))
        if (kind == 3L) values <- prop_bad_value(whole = TRUE)
        runs <- sprintf('[{"metadata": {"loops": 4}, "warmups": [[1, 0.5]], "values": %s}]', values)
        if (kind == 4L) runs <- '[{"values": [0.1, 0.2]}, {"values": [0.3, "x"]}]'
        sprintf('{"metadata": {"name": "%s", "unit": "%s"}, "runs": %s}', name, unit, runs)
      },
      csv = {
        if (kind >= 2L) times[1L] <- sample(c("fast", "1e400", "0x1g", "--"), 1L)
        if (kind == 1L) times[1L] <- "n/a"
        v <- rep(c("old", "new"), length.out = n)
        paste(name, v, times, sep = ",")
      })
  }
  parts <- lapply(seq_len(n_all), function(i) one(names[i], is_bad[i]))
  text <- switch(fmt,
    hyperfine = sprintf('{"results": [%s]}', paste(unlist(parts), collapse = ",\n")),
    "google-benchmark" = sprintf('{"context": {"num_cpus": 2}, "benchmarks": [%s]}',
                                 paste(unlist(parts), collapse = ",\n")),
    pyperf = sprintf('{"version": "1.0", "benchmarks": [%s]}',
                     paste(unlist(parts), collapse = ",\n")),
    csv = paste(c("benchmark,version,time", unlist(parts)), collapse = "\n"))
  list(text = text, good = names[!is_bad], bad = names[is_bad])
}

# The file's bytes after a damage: "none", "bom", "utf16" keep its content;
# "truncate", "binary", "garbage" do not.
prop_damage <- function(text, how) {
  raw <- charToRaw(text)
  switch(how,
    none = raw,
    bom = c(as.raw(c(0xef, 0xbb, 0xbf)), raw),
    utf16 = c(as.raw(c(0xff, 0xfe)), iconv(list(raw), "UTF-8", "UTF-16LE", toRaw = TRUE)[[1L]]),
    truncate = raw[seq_len(sample(length(raw) - 1L, 1L))],
    binary = as.raw(sample(0:255, length(raw), replace = TRUE)),
    garbage = {
      k <- sample(length(raw), 1L)
      c(raw[seq_len(k)], as.raw(sample(0:255, 50L, replace = TRUE)),
        raw[-seq_len(k)])
    })
}

# The benchmarks of timings as the generator names them (hyperfine's
# commands are the versions of one benchmark).
prop_read_names <- function(t, fmt) {
  if (fmt == "hyperfine") levels(t$version) else unique(t$benchmark)
}

test_that("malformed timing files: classed errors, every good benchmark kept", {
  set.seed(20261125)
  fmts <- c("hyperfine", "google-benchmark", "pyperf", "csv")
  damages <- c("none", "none", "bom", "utf16", "truncate", "binary", "garbage")
  checked <- 0L
  for (iter in seq_len(160)) {
    fmt <- fmts[(iter - 1L) %% 4L + 1L]
    good <- sample(0:4, 1L)
    bad <- sample(0:3, 1L)
    if (good + bad == 0L) good <- 1L
    gen <- prop_file(fmt, good, bad)
    how <- sample(damages, 1L)
    f <- tempfile(fileext = if (fmt == "csv") ".csv" else ".json")
    writeBin(prop_damage(gen$text, how), f)
    for (given in c("auto", fmt)) {
      label <- sprintf("case %d (%s, %s, %d good, %d bad, format %s)", iter, fmt, how,
                       good, bad, given)
      res <- tryCatch(suppressWarnings(read_timings(f, format = given)),
                      error = function(e) e)
      if (inherits(res, "error")) {
        expect_s3_class(res, "speeduptest_error")
        if (!inherits(res, "speeduptest_error")) print(list(label, res))
        if (how %in% c("none", "bom", "utf16")) {
          # an intact file fails only when it has no good benchmark
          expect_identical(good, 0L, label = label)
          expect_s3_class(res, "speeduptest_error_format")
        }
        next
      }
      expect_s3_class(res, "speedup_timings")
      expect_true(all(is.finite(res$time[!is.na(res$time)])), label = label)
      if (how %in% c("none", "bom", "utf16")) {
        expect_setequal(prop_read_names(res, fmt), gen$good)
        p <- attr(res, "problems")
        expect_identical(if (is.null(p)) 0L else nrow(p), length(gen$bad), label = label)
        for (b in gen$bad) {
          expect_true(any(grepl(b, p$message, fixed = TRUE)), label = paste(label, b))
        }
        expect_false(anyNA(res$time), label = label)
        checked <- checked + 1L
      }
    }
  }
  # the intact files were most of the cases
  expect_gt(checked, 100L)
})

test_that("every reader refuses a FIFO, a folder and a missing file with a class", {
  skip_on_os("windows")
  skip_if(!nzchar(Sys.which("mkfifo")) || !nzchar(Sys.which("timeout")))
  fifo <- tempfile()
  system2("mkfifo", fifo)
  system(sprintf("timeout 20 sh -c ': > %s' >/dev/null 2>&1 &", shQuote(fifo)))
  dir <- tempfile()
  dir.create(dir)
  paths <- c(fifo, dir, file.path(dir, "none.json"), "/dev/null")
  for (p in paths) for (fmt in c("auto", "hyperfine", "google-benchmark", "pyperf",
                                  "criterion", "csv", "speeduptest")) {
    res <- tryCatch(read_timings(p, format = fmt), error = function(e) e)
    expect_s3_class(res, "speeduptest_error")
  }
  for (p in paths) {
    expect_error(read_speedup_config(p), class = "speeduptest_error_file")
  }
})
