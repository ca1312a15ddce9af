# read_timings(): the files of the measuring tools people use, read into a
# speedup_timings object (SPEC section 7).  This file detects the format and
# assembles the versions; each format has its own R/import-<tool>.R, whose
# reader returns a plain data frame (benchmark, version, time, run, extras)
# with attribute "run_order".

#' Read run times from a benchmarking tool
#'
#' Reads the output of the tools people already time their code with, and
#' returns one row per run, ready for [speedup_suite()], [hpt()] and the
#' Speedup-Test protocols.
#'
#' @param path The file(s) to read. One file may hold several versions (a
#'   hyperfine file with one command per version, a criterion.rs benchmark
#'   folder with `base` and `new`, a CSV with a `version` column, a
#'   SpeedupTest configuration). Several files hold one version each: a named
#'   vector names the versions (`c(old = "a.json", new = "b.json")`),
#'   otherwise the file names (without extension) do. A name given to
#'   several files makes them one version, each file a process of it
#'   (`c(base = "b1.json", base = "b2.json", head = "h1.json", head =
#'   "h2.json")`: SPEC section 9), so that the variation between processes
#'   is seen. The versions keep the order of `path`; the first is the
#'   initial code.
#' @param format `"auto"` (the default) detects the format from the content;
#'   or one of `"hyperfine"`, `"google-benchmark"`, `"pyperf"`,
#'   `"criterion"`, `"speeduptest"` (a SpeedupTest configuration) and `"csv"`.
#' @param metric Which measurement to read: for Google Benchmark
#'   `"real_time"` (the default) or `"cpu_time"`; for a CSV, the name of the
#'   time column (default `"time"`); for hyperfine `"time"` (wall-clock time,
#'   the only per-run measurement hyperfine exports). Other formats have one
#'   measurement and accept only `NULL`.
#' @param benchmark For a source that does not name its benchmark (a single
#'   hyperfine file whose commands are the versions, a lone criterion.rs
#'   `sample.json`), the benchmark's name (default: for hyperfine, what the
#'   commands have in common, `prog in.txt` for `../base/prog in.txt` and
#'   `../head/prog in.txt` or else the program's name, and the file name
#'   when they have nothing in common; otherwise the file name). For the
#'   other sources, `NULL` (all benchmarks) or the names of the benchmarks to
#'   keep.
#'
#' @details
#' What each format gives (times are always converted to seconds):
#' * **hyperfine** (`hyperfine --export-json`): one version per command,
#'   named by its `command_name` when set (`-n`), else by the command; the
#'   wall-clock `times`, with the columns `exit_status` (and per-run `user`
#'   and `sys` when the file has them). hyperfine runs all the runs of the
#'   first command, then all of the second: the order is recorded as global
#'   (`run` counts the runs of the benchmark across its versions). With
#'   several files, each file is a version and its commands are the
#'   benchmarks.
#' * **Google Benchmark** (`--benchmark_format=json` or `--benchmark_out`):
#'   the rows with `run_type == "iteration"` only, one run per repetition
#'   (`--benchmark_repetitions`), the time per iteration in its `time_unit`,
#'   and the column `iterations`. The benchmark is the run's name without
#'   the `/repeats:` and aggregate suffixes. A file holding only aggregates
#'   (`--benchmark_report_aggregates_only`) is an error.
#' * **pyperf** (`-o file.json`): the values of every run of every
#'   benchmark, in order, the calibration runs excluded; the values are per
#'   loop iteration, as pyperf stores them. Each run (worker process) is a
#'   `process`; its warm-ups are kept before its values, marked by the
#'   column `warmup` (`TRUE`), with `iteration` the order of both in the
#'   process. The analyses leave the marked warm-ups out, unless
#'   `warmup = "detect"` finds the warm-up itself ([warmup_classify()]).
#' * **JMH** (`-rf json`): the raw per-iteration scores of every fork
#'   (`primaryMetric.rawData`), each fork a `process` with its iterations in
#'   order; times per operation from the average-time and single-shot modes
#'   (`ns/op`, ...), and the inverse of the throughput (`ops/s`, ...). JMH
#'   does not write its warm-up iterations to the file.
#' * **BenchmarkDotNet** (the full JSON export, `--exporters json` or
#'   `[JsonExporterAttribute.Full]`): every workload measurement
#'   (`Measurements` with `IterationMode` `"Workload"`), the warm-up stage
#'   (`IterationStage` `"Warmup"`, marked `warmup = TRUE`) and the actual
#'   ones (`"Actual"`), the time per operation (`Nanoseconds / Operations`),
#'   each launch a `process` with its iterations in order. A brief export
#'   without measurements is an error.
#' * **criterion.rs**: a `sample.json` file (`times / iters` nanoseconds per
#'   iteration), or a benchmark folder of `target/criterion` holding the
#'   `base` and `new` sample folders (two versions), or a folder of such
#'   benchmark folders.
#' * **speeduptest**: a configuration of the original SpeedupTest tool, read
#'   by [read_speedup_config()] (versions `Sample1` and `Sample2`); its
#'   problems are kept in the attribute `problems`.
#' * **csv**: a long CSV with a header naming the columns `benchmark`
#'   (optional: one benchmark), `version` (optional with several files),
#'   `time` (seconds) and optionally `run`; other columns are kept.
#'
#' A benchmark present in only some versions is kept here; the analyses
#' report it and leave it out.
#'
#' **Reading.** Each path is checked before it is opened: it must be a
#' regular file (or a criterion.rs folder) no larger than
#' `getOption("speeduptest.max_file_size", 2^32)` bytes; a named pipe
#' (FIFO), a device such as `/dev/urandom` or a socket is refused at once
#' rather than read. The format is detected from the file's first 4096
#' bytes (JSON or CSV, and for JSON the tool from the keys there, confirmed
#' on the parse), and the file is parsed once, streamed from the disk. Text
#' may be UTF-8 (with or without a byte-order mark) or UTF-16 / UTF-32
#' (with a byte-order mark, or UTF-16 of ASCII text without one), which is
#' decoded; other binary content is an error. In a CSV, text that is not
#' valid UTF-8 (a Latin-1 benchmark name, say) is kept with each such byte
#' written as R's `format()` shows it (`caf<e9>`), as
#' [read_speedup_config()] does, so that every name prints and different
#' bytes stay different names.
#'
#' **Bad benchmarks.** A benchmark (a hyperfine command, a Google Benchmark
#' or pyperf benchmark, a criterion.rs sample in a folder, a benchmark of a
#' CSV) whose data cannot be read -- no `times`, a time that is `null`, a
#' string or a number too large for a double, a unit that is not time, a
#' name that is not a string -- is left out with a warning of class
#' `speeduptest_warning_skipped` naming it and the reason; the other
#' benchmarks are read, and the reasons are kept in the attribute
#' `problems` of the result (a data frame: benchmark, where, severity,
#' message). A file where every benchmark is left out is an error of class
#' `speeduptest_error_format` giving the reasons.
#'
#' Errors are classed: `speeduptest_error_format` (a file that is none of
#' the formats, malformed JSON, another tool's JSON, a binary file),
#' `speeduptest_error_empty` (no run in the file, or only Google Benchmark
#' aggregates), `speeduptest_error_file` (cannot be read: missing, not a
#' regular file, too large), `speeduptest_error_input` (a bad argument such
#' as an unknown `metric`); the message names the file.
#'
#' @return A `speedup_timings` data frame: `benchmark`, `version` (a factor,
#'   the initial code first), `time` in seconds, `run` (the order of the runs
#'   as the tool recorded it), the columns the source has, and the attributes
#'   `source` (the tool), `run_order` (`"global"` or `"sample"`) and `files`.
#' @seealso [as_timings()] for R objects, [speedup_suite()], [hpt()],
#'   [cli_compare()] for continuous integration.
#' @examples
#' dir <- system.file("extdata", "timings", package = "speeduptest")
#' t <- read_timings(file.path(dir, "hyperfine-slowdown.json"))
#' t
#' summary(t)
#'
#' gb <- read_timings(c(base = file.path(dir, "gbench-base.json"),
#'                      faster = file.path(dir, "gbench-faster.json")))
#' speedup_suite(gb)
#' @export
read_timings <- function(path, format = "auto", metric = NULL,
                         benchmark = NULL) {
  path <- check_paths(path, "path")
  formats <- c("auto", "hyperfine", "google-benchmark", "pyperf", "criterion",
               "speeduptest", "csv", "jmh", "benchmarkdotnet")
  # any case, and the other names of two formats
  if (is.character(format) && length(format) == 1L && !is.na(format) &&
      validUTF8(format)) {
    format <- switch(tolower(format), gbench = , googlebenchmark = ,
                     "google benchmark" = "google-benchmark", config = "speeduptest",
                     bdn = , "benchmark.net" = "benchmarkdotnet",
                     tolower(format))
  }
  format <- check_choice(format, formats, "format")
  metric <- check_string(metric, "metric", null_ok = TRUE)
  benchmark <- check_names(benchmark, "benchmark", "benchmark names", null_ok = TRUE)
  for (p in path) check_timings_file(p, folder_ok = TRUE)
  multi <- length(path) > 1L
  labels <- timings_file_labels(path)
  parts <- vector("list", length(path))
  fmts <- character(length(path))
  for (i in seq_along(path)) {
    src <- if (format == "auto") detect_timings_format(path[i]) else list(format = format)
    fmt <- src$format
    if (fmt == "criterion-sample") fmt <- "criterion"
    fmts[i] <- fmt
    reader <- switch(fmt,
      hyperfine = import_hyperfine, "google-benchmark" = import_gbench,
      pyperf = import_pyperf, criterion = import_criterion,
      speeduptest = import_speedup_config, csv = import_timings_csv,
      jmh = import_jmh, benchmarkdotnet = import_bdn)
    one_name <- if (!multi && length(benchmark) == 1L) benchmark else NULL
    d <- reader(path[i], metric = metric, multi = multi, name = one_name, src = src)
    src <- NULL   # the parsed file, freed before the next one is parsed
    if (!nrow(d)) timings_empty(path[i], "no run was found")
    if (multi) d$version <- labels[i]
    parts[[i]] <- d
  }
  run_order <- if (!multi) attr(parts[[1L]], "run_order") else "sample"
  # hyperfine measures each file in one block: files of different versions
  # were not interleaved, so their runs are in a global order, one file
  # after the other (the runs test then sees the blocks)
  blocks <- multi && !anyDuplicated(labels) && all(fmts == "hyperfine")
  select <- !is.null(benchmark) && !isTRUE(attr(parts[[1L]], "named"))
  problems <- do.call(rbind, lapply(parts, attr, "problems"))
  all <- if (length(parts) == 1L) parts[[1L]] else {
    keep_cols <- unique(unlist(lapply(parts, names)))
    parts <- lapply(parts, function(d) {
      for (nm in setdiff(keep_cols, names(d))) d[[nm]] <- NA
      d[keep_cols]
    })
    repeated <- multi && anyDuplicated(labels) > 0L
    if (repeated && !("process" %in% keep_cols)) {
      parts <- lapply(parts, function(d) {
        d$process <- NA_integer_
        d
      })
    }
    if (multi && (repeated || "process" %in% keep_cols)) {
      parts <- distinct_file_processes(parts, one_each = repeated)
    }
    all <- do.call(rbind, parts)
    if (blocks) {
      all$run <- run_within(all$benchmark)
      run_order <- "global"
    }
    if (repeated) {
      # the runs of a version numbered across its files, in their order
      all$run <- run_within(all$benchmark, all$version)
    }
    all
  }
  version_levels <- if (multi) unique(labels) else {
    v <- all$version
    # a factor whose codes are in order and use every level lists its
    # levels in the order they first appear
    if (is.factor(v) && factor_levels_clean(v) && factor_in_order(v)) levels(v) else {
      if (is.factor(v)) all$version <- as.character(v)
      unique(as.character(all$version))
    }
  }
  if (select) {
    miss <- setdiff(benchmark, all$benchmark)
    if (length(miss)) {
      abort(sprintf("`benchmark`: %s not found in %s; it holds %s.",
                    paste0('"', miss, '"', collapse = ", "),
                    paste0("'", path, "'", collapse = ", "),
                    paste0('"', utils::head(unique(all$benchmark), 10L), '"',
                           collapse = ", ")))
    }
    all <- all[all$benchmark %in% benchmark, , drop = FALSE]
  }
  extras <- setdiff(names(all), c("benchmark", "version", "time", "run"))
  t <- do.call(new_speedup_timings, c(
    list(benchmark = all$benchmark,
         version = factor_codes(all$version, version_levels),
         time = all$time, run = all$run),
    as.list(all[extras]),
    list(source = paste(unique(fmts), collapse = ", "), run_order = run_order,
         attrs = list(files = stats::setNames(path, labels)))))
  # with the benchmarks new_speedup_timings() skipped for their structure columns
  problems <- rbind(problems, attr(t, "problems"))
  if (!is.null(problems) && nrow(problems)) attr(t, "problems") <- problems
  rownames(t) <- NULL
  t
}

# Version labels of several files: the names given, else the file names
# without extension, else (when these repeat, as criterion's sample.json do)
# the folders holding them.
timings_file_labels <- function(path) {
  nm <- names(path)
  lab <- file_stem(path)
  if (anyDuplicated(lab)) {
    alt <- basename(dirname(normalizePath(path, mustWork = FALSE)))
    if (!anyDuplicated(alt)) lab <- alt
  }
  lab <- make.unique(lab, sep = "-")
  given <- if (is.null(nm)) rep(FALSE, length(lab)) else !is.na(nm) & nzchar(nm)
  lab[given] <- nm[given]
  # a name given to several files makes them one version, each file a
  # process of it; a file name repeated by chance does not
  rep_given <- unique(lab[duplicated(lab)])
  bad <- setdiff(rep_given, unique(lab[given][duplicated(lab[given])]))
  if (length(bad)) {
    abort(sprintf("`path`: the version names must be unique; %s is repeated.",
                  paste0('"', bad, '"', collapse = ", ")))
  }
  lab
}

file_stem <- function(path) {
  b <- basename(sub("[/\\\\]+$", "", path))
  sub("\\.(json|csv|txt|cfg)$", "", b, ignore.case = TRUE)
}

# ---- detection ---------------------------------------------------------------

# The format of a file (or folder), from its first bytes: list(format,
# sniff, json).  A JSON file is parsed here once (json) and the parse handed
# to the importer; the tool is guessed from the keys in the first bytes and
# confirmed on the parse (a few look-ups), the parse's structure deciding
# only when the guess fails.
detect_timings_format <- function(path) {
  if (dir.exists(path)) {
    if (length(criterion_samples(path))) return(list(format = "criterion"))
    abort(sprintf("'%s' is a folder without criterion.rs samples (base/sample.json, new/sample.json); give a file.",
                  safe_text(path)), class = c("format", "file"))
  }
  check_timings_file(path)
  sniff <- timings_sniff(path)
  if (sniff$encoding == "binary") timings_binary(path)
  txt <- sub("^[[:space:]]+", "", sniff$head, useBytes = TRUE)
  if (!nzchar(txt)) {
    abort(sprintf("'%s' is empty: no run times to read.", safe_text(path)),
          class = c("empty", "data"))
  }
  if (substr(txt, 1L, 1L) %in% c("{", "[")) {
    guess <- detect_json_guess(txt)
    # a large Google Benchmark file: its runs are read block by block
    # (import_gbench()), never parsed whole; the format is told by the rest
    # of the file and the first block, as by the whole parse (which reads
    # only the top keys and the first run)
    if (identical(guess, "google-benchmark") && sniff$encoding == "UTF-8" && !sniff$bom) {
      bl <- json_blocks_try(path)
      first <- if (!is.null(bl)) json_block_parse(bl, 1L)
      if (!is.null(first)) {
        j <- bl$rest
        j[[bl$at]] <- first
        fmt <- tryCatch(detect_json_format(j, path, guess), error = function(e) NA)
        if (identical(fmt, "google-benchmark")) {
          bl$first <- first
          return(list(format = fmt, sniff = sniff, blocks = bl))
        }
      }
    }
    # arrays of numbers as vectors for the formats whose runs are long
    # arrays of numbers (their importers read lists too)
    simple <- c("hyperfine", "criterion-sample")
    j <- timings_json(path, sniff, simplify = guess %in% simple)
    fmt <- detect_json_format(j, path, guess)
    # a wrong guess: the importer of many small objects reads lists
    if (guess %in% simple && !(fmt %in% simple)) j <- timings_json(path, sniff)
    return(list(format = fmt, sniff = sniff, json = j))
  }
  lines <- strsplit(txt, "\r?\n", useBytes = TRUE)[[1L]]
  lines <- lines[grepl("[^[:space:]]", lines, useBytes = TRUE) &
                   !grepl("^[[:space:]]*#", lines, useBytes = TRUE)]
  first <- if (length(lines)) safe_text(lines[1L]) else ""
  cols <- tolower(trimws(gsub("\"", "", strsplit(first, ",")[[1L]])))
  fmt <- if (all(c("name", "sample1", "sample2") %in% cols)) "speeduptest" else
    if ("time" %in% cols || ("version" %in% cols && length(cols) >= 2L)) "csv"
  if (!is.null(fmt)) return(list(format = fmt, sniff = sniff))
  # a long CSV separated by semicolons (as spreadsheets write it where the
  # decimal mark is a comma): read with `;` and decimal commas
  semi <- tolower(trimws(gsub("\"", "", strsplit(first, ";")[[1L]])))
  if (length(semi) >= 2L && ("time" %in% semi || "version" %in% semi)) {
    sniff$sep <- ";"
    return(list(format = "csv", sniff = sniff))
  }
  abort(sprintf("'%s' is not a file format read_timings() knows: it is not JSON (hyperfine, Google Benchmark, pyperf, criterion.rs, JMH, BenchmarkDotNet) and its first line \"%s\" is not the header of a SpeedupTest configuration (Name,Sample1,Sample2,...) or of a long CSV (benchmark,version,time; also separated by semicolons, with decimal commas).",
                safe_text(path), gsub("[[:cntrl:]]", "?", iconv(substr(first, 1L, 60L), "UTF-8", "ASCII", sub = "?"))),
        class = c("format", "file"))
}

# The tool a JSON file comes from, guessed from the keys in its first bytes
# (NA when they do not tell).
detect_json_guess <- function(txt) {
  key <- function(k) grepl(sprintf('"%s"[[:space:]]*:', k), txt, useBytes = TRUE)
  if (key("primaryMetric") || key("jmhVersion")) return("jmh")
  if (key("HostEnvironmentInfo") || key("Benchmarks")) return("benchmarkdotnet")
  if (key("results")) return("hyperfine")
  if (key("context") || key("run_type")) return("google-benchmark")
  if (key("benchmarks") && (key("runs") || key("version"))) return("pyperf")
  if (key("iters") || key("sampling_mode")) return("criterion-sample")
  NA_character_
}

# The format of parsed JSON: the guess when the structure confirms it (its
# first elements), else the first format whose structure it has.
detect_json_format <- function(j, path, guess = NA_character_) {
  named <- is.list(j) && !is.null(names(j))
  rec <- function(x, key) {
    is.list(x) && length(x) && is.list(x[[1L]]) && !is.null(x[[1L]][[key]])
  }
  has <- function(fmt) {
    if (fmt == "jmh") {
      return(is.list(j) && is.null(names(j)) && length(j) > 0L &&
               is.list(j[[1L]]) && !is.null(j[[1L]]$primaryMetric))
    }
    named && switch(fmt,
      benchmarkdotnet = is.list(j$Benchmarks),
      hyperfine = is.list(j$results) && length(j$results) &&
        any(vapply(j$results, function(r) is.list(r) && !is.null(r$times), NA)),
      "google-benchmark" = is.list(j$benchmarks) &&
        (!is.null(j$context) || rec(j$benchmarks, "run_type")),
      pyperf = is.list(j$benchmarks) && (!is.null(j$version) || rec(j$benchmarks, "runs")),
      "criterion-sample" = !is.null(j$iters) && !is.null(j$times),
      FALSE)
  }
  if (!is.na(guess) && has(guess)) return(guess)
  for (fmt in c("hyperfine", "google-benchmark", "pyperf", "criterion-sample",
                "jmh", "benchmarkdotnet")) {
    if (has(fmt)) return(fmt)
  }
  if (named && is.list(j$results) && !length(j$results)) {
    abort(sprintf("'%s' is a hyperfine export without results: no run times to read.",
                  safe_text(path)), class = c("empty", "data"))
  }
  keys <- if (!named) "an array" else
    paste0("keys ", paste0('"', safe_text(utils::head(names(j), 6L)), '"', collapse = ", "))
  abort(sprintf("'%s' is JSON but not the output of a tool read_timings() knows (hyperfine, Google Benchmark, pyperf, criterion.rs, JMH, BenchmarkDotNet): it has %s.",
                safe_text(path), keys), class = c("format", "file"))
}

# ---- shared helpers of the importers ----------------------------------------

# ---- opening files -------------------------------------------------------------

# What each path is, from stat(2) before anything opens it (a FIFO blocks
# its reader, a device never ends): kind and size in bytes.
path_kind <- function(path) {
  k <- .Call(ffi_path_kind, enc2native(as.character(path)))
  kinds <- c("missing", "file", "folder", "fifo", "character device",
             "block device", "socket", "other", "denied")
  list(kind = kinds[k$kind + 1L], size = k$size)
}

# The largest file the readers take (bytes): getOption("speeduptest.max_file_size"),
# 4 GiB by default.
max_file_size <- function() {
  lim <- getOption("speeduptest.max_file_size", 2^32)
  if (!is.numeric(lim) || length(lim) != 1L || is.na(lim) || lim <= 0) 2^32 else lim
}

# Why `path` cannot be read as a regular file (NULL when it can).
file_problem <- function(path, folder_ok = FALSE) {
  k <- path_kind(path)
  switch(k$kind,
    file = if (k$size > max_file_size()) {
      sprintf("is %.0f bytes, larger than the limit of %.0f bytes (option speeduptest.max_file_size)",
              k$size, max_file_size())
    },
    folder = if (!folder_ok) "is a folder, not a file",
    missing = "does not exist (no such file or folder)",
    fifo = "is a named pipe (FIFO), not a regular file; save the data to a file first",
    "character device" = , "block device" =
      "is a device, not a regular file; save the data to a file first",
    socket = "is a socket, not a regular file",
    denied = "cannot be read (permission denied?)",
    "is not a regular file")
}

# The bytes of a text file as UTF-8 (decoded from UTF-16 or UTF-32 when it
# is in one of them, its byte-order mark dropped; other bytes as they are),
# or a string saying why it cannot be read: for the plain-text readers.
read_text_bytes <- function(path) {
  raw <- read_file_bytes(path)
  if (is.character(raw)) return(raw)
  sn <- sniff_bytes(raw[seq_len(min(length(raw), 4096L))])
  # what is binary is the caller's to say (a control character in a line
  # of a configuration skips that line only)
  if (sn$encoding %in% c("UTF-8", "binary")) return(raw)
  body <- if (sn$bom) raw[-seq_len(sn$bom)] else raw
  out <- iconv(list(body), sn$encoding, "UTF-8", toRaw = TRUE)[[1L]]
  if (is.null(out)) return(sprintf("holds bytes that are not valid %s", sn$encoding))
  out
}

# A classed error when `path` is not a readable regular file of bounded size.
check_timings_file <- function(path, folder_ok = FALSE) {
  why <- file_problem(path, folder_ok = folder_ok)
  if (!is.null(why)) {
    abort(sprintf("cannot read '%s': it %s.", safe_text(path), why), class = "file")
  }
  invisible(path)
}

# The first bytes of a regular file and what they say of its encoding:
# list(encoding = "UTF-8", "UTF-16LE", "UTF-16BE", "UTF-32LE", "UTF-32BE"
# or "binary", bom = length of the byte-order mark, head = the first bytes
# as UTF-8 text without the mark, NA for a binary file).  UTF-16 without a
# mark is recognised by the zero high bytes of ASCII text.  A file is binary
# when its first bytes hold NUL or control characters that no text has.
timings_sniff <- function(path, n = 4096L) {
  raw <- tryCatch(readBin(path, "raw", n), error = function(e) NULL,
                  warning = function(w) NULL)
  if (is.null(raw)) abort(sprintf("cannot read '%s'.", safe_text(path)), class = "file")
  sniff_bytes(raw)
}

# The encoding of text from its first bytes (see timings_sniff()).
sniff_bytes <- function(raw) {
  starts <- function(...) {
    b <- as.raw(c(...))
    length(raw) >= length(b) && all(raw[seq_along(b)] == b)
  }
  enc <- "UTF-8"
  bom <- 0L
  if (length(raw) >= 2L && raw[2L] != as.raw(0L) &&
      !(raw[1L] %in% as.raw(c(0xef, 0xff, 0xfe, 0)))) {
    # the usual text: no byte-order mark can start it, and a second byte
    # that is not NUL rules out UTF-16 without a mark (UTF-8, the checks
    # below skipped)
  } else if (starts(0xef, 0xbb, 0xbf)) {
    bom <- 3L
  } else if (starts(0xff, 0xfe, 0, 0)) {
    enc <- "UTF-32LE"; bom <- 4L
  } else if (starts(0, 0, 0xfe, 0xff)) {
    enc <- "UTF-32BE"; bom <- 4L
  } else if (starts(0xff, 0xfe)) {
    enc <- "UTF-16LE"; bom <- 2L
  } else if (starts(0xfe, 0xff)) {
    enc <- "UTF-16BE"; bom <- 2L
  } else if (length(raw) >= 2L) {
    m <- length(raw) %/% 2L * 2L
    odd <- raw[seq.int(1L, m, by = 2L)]
    even <- raw[seq.int(2L, m, by = 2L)]
    if (all(even == as.raw(0)) && !any(odd == as.raw(0))) enc <- "UTF-16LE"
    else if (all(odd == as.raw(0)) && !any(even == as.raw(0))) enc <- "UTF-16BE"
  }
  body <- if (bom) raw[-seq_len(bom)] else raw
  if (enc != "UTF-8") {
    unit <- if (startsWith(enc, "UTF-32")) 4L else 2L
    body <- body[seq_len(length(body) %/% unit * unit)]
    head <- iconv(list(body), enc, "UTF-8")
    if (is.na(head)) {
      # a character cut by the 4096-byte window: drop the last unit
      head <- iconv(list(body[seq_len(max(0L, length(body) - unit))]), enc, "UTF-8")
    }
    if (is.na(head)) enc <- "binary"
  } else {
    # bytes 0-8, 14-31 and 127 but tab, newline, form feed, carriage
    # return and escape
    # (counted by one tabulate() of the bytes)
    count <- tabulate(as.integer(body) + 1L, 256L)
    if (any(count[c(0:8, 14:26, 28:31, 127) + 1L] > 0L)) {
      enc <- "binary"
    } else {
      head <- rawToChar(body)
      Encoding(head) <- "unknown"
    }
  }
  list(encoding = enc, bom = bom, head = if (enc == "binary") NA_character_ else head)
}

# The error for a file whose first bytes are not text.
timings_binary <- function(path) {
  abort(sprintf("'%s' is a binary file, not the text of a timing file (JSON or CSV).",
                safe_text(path)), class = c("format", "file"))
}

# The whole text of a file in UTF-16 or UTF-32, as UTF-8.
timings_decode <- function(path, sniff) {
  raw <- readBin(path, "raw", path_kind(path)$size)
  if (sniff$bom) raw <- raw[-seq_len(sniff$bom)]
  txt <- iconv(list(raw), sniff$encoding, "UTF-8")
  if (is.na(txt)) {
    abort(sprintf("'%s' looks like %s text but holds bytes that are not valid %s.",
                  safe_text(path), sniff$encoding, sniff$encoding),
          class = c("format", "file"))
  }
  Encoding(txt) <- "UTF-8"
  txt
}

# Parsed JSON (lists; with `simplify`, arrays of scalars as vectors, which
# is much faster for long arrays but slower for many small objects), or a
# classed error naming the file.  A UTF-8 file is streamed from the connection (jsonlite reads it in
# blocks, never holding its text in full); a UTF-16 file is decoded first.
timings_json <- function(path, sniff = NULL, simplify = FALSE,
                         block_min = json_block_min()) {
  check_timings_file(path)
  if (is.null(sniff)) sniff <- timings_sniff(path)
  if (sniff$encoding == "binary") timings_binary(path)
  parse <- function(src) {
    tryCatch(jsonlite::parse_json(src, simplifyVector = simplify,
                                  simplifyDataFrame = FALSE, simplifyMatrix = FALSE),
             error = function(e) {
               abort(sprintf("'%s' is not valid JSON: %s", safe_text(path),
                             safe_text(trimws(conditionMessage(e)))),
                     class = c("format", "file"))
             })
  }
  if (sniff$encoding != "UTF-8") return(parse(timings_decode(path, sniff)))
  if (!simplify && !sniff$bom) {
    j <- json_parse_blocks(path, block_min)
    if (!is.null(j)) return(j)
  }
  con <- file(path, "rb")
  on.exit(close(con))
  if (sniff$bom) readBin(con, "raw", sniff$bom)
  parse(con)
}

# The size (bytes) from which a UTF-8 JSON file is first tried in blocks
# (json_blocks_try()); below it, the parse in blocks saves little.  The
# tests lower it (option speeduptest.json_block_min) to read small files
# both ways.
json_block_min <- function() {
  getOption("speeduptest.json_block_min", 262144)
}

# The number of elements a block of json_blocks_try() holds; the tests
# lower it (option speeduptest.json_block) to read small files in many
# blocks.
json_block_len <- function() {
  getOption("speeduptest.json_block", 500L)
}

# A JSON file whose top object has a long "benchmarks" array (Google
# Benchmark, pyperf), opened for a parse in blocks: the file's bytes are
# read once, a scan of C (src/json-blocks.c) finds the array's elements,
# and jsonlite parses the text with the array emptied (`rest`, the array at
# `at`); the elements are then parsed `block` at a time
# (json_block_parse()).  Only a file of at least `block_min` bytes is
# tried.  jsonlite grows a long array one element at a
# time, copying it, and holds its whole tree before it makes R's objects;
# in blocks the same elements cost a fraction of that.  NULL when the file
# cannot be read in full, when the scan does not find the text clean (see
# src/json-blocks.c), when the array is empty or when the rest does not
# parse: the caller then parses the whole file, with its own answer or
# error.
json_blocks_try <- function(path, block_min = json_block_min(), key = "benchmarks",
                            block = json_block_len()) {
  size <- path_kind(path)$size
  if (!isTRUE(size >= max(block_min, 2) && size <= .Machine$integer.max - 2)) return(NULL)
  # the bytes read once (in huge pages where the system has them), and
  # the file found to end there
  raw <- .Call(ffi_json_file, path, size)
  if (is.null(raw)) return(NULL)
  cut <- .Call(ffi_json_blocks, raw, key, as.integer(block))
  if (is.null(cut) || !length(cut$counts)) return(NULL)
  rest <- json_text_parse(cut$rest)
  at <- which(names(rest) == key)
  if (!is.list(rest) || length(at) != 1L || !identical(rest[[at]], list())) return(NULL)
  list(rest = rest, at = at, raw = raw, from = cut$from, to = cut$to, counts = cut$counts)
}

# The elements of block `b` of json_blocks_try()'s `bl` (a list), or NULL
# when the block does not parse to the elements the scan counted.  The
# block's text is made when it is parsed (one block's bytes at a time).
# With `keep` (keys), each record keeps the members of these keys and the
# others it can drop unparsed (src/json-blocks.c), for a reader that reads
# no other member.
json_block_parse <- function(bl, b, keep = NULL) {
  txt <- .Call(ffi_json_block_text, bl$raw, bl$from[b], bl$to[b], keep, TRUE)
  p <- json_text_parse(txt)
  if (!is.list(p) || !is.null(names(p)) || length(p) != bl$counts[b]) return(NULL)
  # each record the array of the values of `keep` (src/json-blocks.c)
  if (isTRUE(attr(txt, "rows"))) attr(p, "rows") <- TRUE
  p
}

# parse_json() of a text without simplification, NULL when it is not JSON.
json_text_parse <- function(txt) {
  tryCatch(jsonlite::parse_json(txt, simplifyVector = FALSE), error = function(e) NULL)
}

# The parse of a JSON file in blocks (json_blocks_try()), the elements put
# back in the array: parse_json() of the whole file, identical; NULL when
# the blocks cannot give it.
json_parse_blocks <- function(path, block_min = json_block_min(), key = "benchmarks",
                              block = 500L) {
  bl <- json_blocks_try(path, block_min, key, block)
  if (is.null(bl)) return(NULL)
  parts <- vector("list", length(bl$counts))
  for (b in seq_along(parts)) {
    p <- json_block_parse(bl, b)
    if (is.null(p)) return(NULL)
    parts[[b]] <- p
  }
  rest <- bl$rest
  rest[[bl$at]] <- do.call(c, parts)
  rest
}

# Parsed JSON of a small file (criterion.rs keeps thousands of them): its
# bytes read once, told ASCII text and parsed from memory, where
# timings_json() opens the file twice (sniff, then stream); a larger file or
# one in another encoding goes to timings_json().
timings_json_small <- function(path, simplify = FALSE) {
  check_timings_file(path)
  raw <- tryCatch(readBin(path, "raw", 4097L), error = function(e) NULL,
                  warning = function(w) NULL)
  if (is.null(raw) || length(raw) > 4096L) return(timings_json(path, simplify = simplify))
  sniff <- sniff_bytes(raw)
  # ASCII only, which reads the same in any locale
  if (sniff$encoding != "UTF-8" || sniff$bom || !length(raw) || any(raw > as.raw(0x7f))) {
    return(timings_json(path, sniff, simplify = simplify))
  }
  txt <- rawToChar(raw)
  tryCatch(jsonlite::parse_json(txt, simplifyVector = simplify,
                                simplifyDataFrame = FALSE, simplifyMatrix = FALSE),
           error = function(e) timings_json(path, sniff, simplify = simplify))
}

# Parsed JSON of many small files at once: the regular files of at most
# 4096 bytes are read in one pass of C and those that are plain ASCII text
# parsed from memory, as timings_json_small() would parse them; NULL for a
# file that is not such (missing, larger, another encoding, not valid JSON),
# which the caller reads with timings_json_small() (the same answer or
# error, through the careful path).
json_small_files <- function(paths, simplify = FALSE) {
  out <- vector("list", length(paths))
  if (!length(paths)) return(out)
  k <- path_kind(paths)
  small <- which(k$kind == "file" & k$size > 0 & k$size <= 4096 & k$size <= max_file_size())
  if (!length(small)) return(out)
  raw <- read_files_raw(paths[small], k$size[small])
  plain <- .Call(ffi_plain_ascii, raw)
  for (q in which(plain)) {
    j <- tryCatch(jsonlite::parse_json(rawToChar(raw[[q]]), simplifyVector = simplify,
                                       simplifyDataFrame = FALSE, simplifyMatrix = FALSE),
                  error = function(e) NULL)
    if (!is.null(j)) out[[small[q]]] <- j
  }
  out
}

# jsonlite's simplification reads true and false among numbers as 1 and 0;
# TRUE when a simplified array `x` (a numeric vector) holds a 0 or a 1, so
# that the caller reads the file again as lists, which keep them apart.
json_maybe_boolean <- function(x) {
  is.numeric(x) && is.null(names(x)) && isTRUE(.Call(ffi_has_zero_one, x))
}

# The metric argument of a format with fixed choices.
timings_metric <- function(metric, choices, path, tool) {
  if (is.null(metric)) return(choices[1L])
  check_choice(metric, choices, "metric", context = sprintf(" for the %s file '%s'", tool, path))
}

# Every benchmark of a file was skipped: the reasons, in one classed error.
timings_all_skipped <- function(path, problems, what = "benchmark") {
  abort(sprintf("'%s' holds no run times that can be read: every %s was skipped (%s).",
                safe_text(path), what, paste(problems$message, collapse = " ")),
        class = c("format", "empty", "data", "file"))
}

timings_empty <- function(path, what) {
  abort(sprintf("'%s' holds no run times: %s.", safe_text(path), what),
        class = c("empty", "data"))
}

# Numbers out of a JSON array, parsed as a list or simplified to a vector:
# NA where an element is not one number (null, a string, an array).
# Infinite values (1e400 in the file) stay infinite: json_problem() reports
# them.
json_num <- function(x) {
  if (is.null(x)) return(double())
  if (is.numeric(x)) return(as.double(x))
  if (is.character(x)) return(suppressWarnings(as.numeric(x)))
  if (!is.list(x)) return(rep(NA_real_, length(x)))
  # an array of plain numbers, at once: one number per element (no array,
  # object or null) flattened one level is numeric only when no element
  # was a string; a true or false among numbers becomes 1 or 0, so an
  # array holding a 0 or a 1 is looked at element by element below
  if (length(x) && all(lengths(x) == 1L)) {
    u <- unlist(x, recursive = FALSE, use.names = FALSE)
    if (is.numeric(u) && !any(u == 0 | u == 1, na.rm = TRUE)) return(as.double(u))
  }
  ok <- lengths(x) == 1L & vapply(x, is.numeric, NA)
  out <- rep(NA_real_, length(x))
  if (any(ok)) out[ok] <- as.double(unlist(x[ok], use.names = FALSE))
  out
}

# Fields of many JSON records (a list of named lists, as parse_json() gives
# them) in one pass of C: for each of `keys`, list(kind, value), where
# `kind` is 0 when the record is not an object or lacks the key, 1 when the
# value is null, [] or {}, 2 when it is one value of the type `types` asks
# ("s" a string, "n" a number, "b" true or false) and 3 otherwise, and
# `value` is that value (a double for numbers), NA unless kind is 2.  Of a
# record the first element of the name counts, as `[[` takes it.
json_fields <- function(records, keys, types) {
  .Call(ffi_json_fields, records, keys, types)
}

# Why a JSON array of run times cannot be read (NULL when every element is
# a finite number): "3 of its 10 "times" are not finite numbers (null, "a")".
json_problem <- function(x, what = "times") {
  if (is.null(x) || !(is.list(x) || is.atomic(x)) || !is.null(names(x))) {
    return(sprintf("its \"%s\" is %s, not an array of numbers", what,
                   if (is.null(x)) "missing" else if (is.list(x)) "an object"
                   else describe_type(x)))
  }
  if (!length(x)) return(sprintf("its \"%s\" array is empty", what))
  v <- json_num(x)
  # a finite sum has no NA, NaN or infinite term (the common case, checked
  # without allocating)
  if (is.double(v) && is.finite(sum(v))) return(NULL)
  bad <- !is.finite(v)
  if (!any(bad)) return(NULL)
  shown <- vapply(utils::head(which(bad), 3L), function(i) {
    e <- if (is.list(x)) x[[i]] else x[i]
    if (is.null(e) || (length(e) == 1L && is.na(e))) "null"
    else if (is.list(e) || length(e) != 1L) "an array or object"
    else if (is.character(e)) sprintf("\"%s\"", safe_text(substr(e, 1L, 20L)))
    else if (is.numeric(e) && is.infinite(e)) "a number too large for a double"
    else if (is.logical(e)) tolower(as.character(e))
    else safe_text(format(e))
  }, "")
  sprintf("%d of its %d \"%s\" %s (%s)", sum(bad), length(x), what,
          if (sum(bad) == 1L) "is not a finite number" else "are not finite numbers",
          paste(unique(shown), collapse = ", "))
}

# A benchmark (or command) left out of an importer's result, with its
# reason: a warning of class speeduptest_warning_skipped and a row of the
# problems data frame the caller keeps in attr(, "problems").
import_skip <- function(problems, path, name, why) {
  msg <- sprintf("'%s': %s skipped: %s.", safe_text(basename(path)), safe_text(name), why)
  skip_benchmark(problems, safe_text(name), msg, where = "file")
}

# The data frame an importer returns; `named` says that the caller's
# `benchmark` was used as the benchmark's name (so it selects nothing).
timings_part <- function(benchmark, version, time, run, run_order, ...,
                         named = FALSE) {
  # a version given once is coded as a factor of one level (the text
  # repeated on every row, then matched to its levels, cost far more)
  n <- length(time)
  if (!is.factor(version) && length(version) == 1L && !is.na(version) && n) {
    version <- structure(rep.int(1L, n), levels = as.character(version), class = "factor")
  }
  d <- data.frame(benchmark = as.character(benchmark),
                  version = if (is.factor(version)) version else as.character(version),
                  time = as.double(time),
                  run = as.integer(run), stringsAsFactors = FALSE)
  extra <- list(...)
  for (nm in names(extra)) d[[nm]] <- extra[[nm]]
  attr(d, "run_order") <- run_order
  attr(d, "named") <- named
  d
}

`%||%` <- function(a, b) if (is.null(a)) b else a

# factor(x, levels = levels) for text `x`, built from the integer codes of
# one match() when the levels are distinct and not NA (factor() matches the
# levels against `exclude` and converts again).
factor_codes <- function(x, levels) {
  if (is.factor(x) && identical(attr(x, "levels"), levels) &&
      identical(names(attributes(x)), c("levels", "class")) &&
      identical(attr(x, "class"), "factor")) {
    return(x)
  }
  if (!is.character(x) || !is.null(attributes(x)) || !is.character(levels) ||
      !is.null(attributes(levels)) ||
      anyNA(levels) || anyDuplicated(levels)) {
    return(factor(x, levels = levels))
  }
  structure(match(x, levels), levels = levels, class = "factor")
}

# The position of each element among the equal elements before it, in
# order: what `stats::ave(seq_along(g), g, FUN = seq_along)` gives, by one
# stable sort of the groups' codes instead of a function call per group.
# Several vectors make the groups of their combinations.
run_within <- function(...) {
  keys <- list(...)
  n <- length(keys[[1L]])
  if (!n) return(integer())
  code <- match(keys[[1L]], keys[[1L]])
  for (k in keys[-1L]) {
    # the pair (code, k) numbered by first appearance
    kc <- match(k, k)
    code <- match(code * (max(kc) + 1) + kc, code * (max(kc) + 1) + kc)
  }
  o <- order(code, method = "radix")
  out <- integer(n)
  out[o] <- sequence(tabulate(code, n))
  out
}

# Several files: the process labels of each file numbered apart (a
# process of one file is not a process of another), NA where unknown.
distinct_file_processes <- function(parts, one_each = FALSE) {
  offset <- 0L
  for (i in seq_along(parts)) {
    p <- parts[[i]]$process
    if (one_each || is.null(p) || all(is.na(p))) {
      if (one_each) {
        # several files of a version: each file is one process of it (SPEC
        # section 10b), whatever processes the tool ran inside it, as the
        # runs of a file were taken together
        offset <- offset + 1L
        parts[[i]]$process <- rep(offset, nrow(parts[[i]]))
      } else {
        parts[[i]]$process <- rep(NA_integer_, nrow(parts[[i]]))
      }
      next
    }
    code <- match(as.character(p), unique(as.character(p[!is.na(p)])))
    parts[[i]]$process <- code + offset
    offset <- offset + max(code, na.rm = TRUE)
  }
  parts
}
