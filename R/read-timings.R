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
#'   otherwise the file names (without extension) do. The versions keep the
#'   order of `path`; the first is the initial code.
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
#'   `sample.json`), the benchmark's name (default: the file name). For the
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
#'   benchmark, in order, the warm-ups (and calibration runs) excluded; the
#'   values are per loop iteration, as pyperf stores them.
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
#' Errors are classed: `speeduptest_error_format` (a file that is none of
#' the formats, malformed JSON, another tool's JSON), `speeduptest_error_empty`
#' (no run in the file, or only Google Benchmark aggregates),
#' `speeduptest_error_file` (cannot be read), `speeduptest_error_input`
#' (a bad argument such as an unknown `metric`); the message names the file.
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
  if (!is.character(path) || !length(path) || anyNA(path) || any(!nzchar(path))) {
    abort(sprintf("`path` must be one or more file paths, not %s.",
                  if (is.character(path)) describe_value(path) else describe_type(path)))
  }
  formats <- c("auto", "hyperfine", "google-benchmark", "pyperf", "criterion",
               "speeduptest", "csv")
  if (!is.character(format) || length(format) != 1L || is.na(format)) {
    abort(sprintf("`format` must be one of %s, not %s.",
                  paste0('"', formats, '"', collapse = ", "), describe_value(format)))
  }
  format <- switch(tolower(format), gbench = , googlebenchmark = ,
                   "google benchmark" = "google-benchmark", config = "speeduptest",
                   tolower(format))
  if (!(format %in% formats)) {
    abort(sprintf("`format` must be one of %s, not %s.",
                  paste0('"', formats, '"', collapse = ", "), describe_value(format)))
  }
  if (!is.null(metric) && (!is.character(metric) || length(metric) != 1L ||
                           is.na(metric))) {
    abort(sprintf("`metric` must be NULL or a single string, not %s.",
                  describe_value(metric)))
  }
  if (!is.null(benchmark) && (!is.character(benchmark) || !length(benchmark) ||
                              anyNA(benchmark))) {
    abort(sprintf("`benchmark` must be NULL or benchmark names, not %s.",
                  describe_value(benchmark)))
  }
  for (p in path) {
    if (!file.exists(p)) {
      abort(sprintf("cannot read '%s': no such file or folder.", p), class = "file")
    }
  }
  multi <- length(path) > 1L
  labels <- timings_file_labels(path)
  parts <- vector("list", length(path))
  fmts <- character(length(path))
  for (i in seq_along(path)) {
    fmt <- if (format == "auto") detect_timings_format(path[i]) else format
    if (fmt == "criterion-sample") fmt <- "criterion"
    fmts[i] <- fmt
    reader <- switch(fmt,
      hyperfine = import_hyperfine, "google-benchmark" = import_gbench,
      pyperf = import_pyperf, criterion = import_criterion,
      speeduptest = import_speedup_config, csv = import_timings_csv)
    one_name <- if (!multi && length(benchmark) == 1L) benchmark else NULL
    d <- reader(path[i], metric = metric, multi = multi, name = one_name)
    if (!nrow(d)) timings_empty(path[i], "no run was found")
    if (multi) d$version <- labels[i]
    parts[[i]] <- d
  }
  run_order <- if (!multi) attr(parts[[1L]], "run_order") else "sample"
  select <- !is.null(benchmark) && !isTRUE(attr(parts[[1L]], "named"))
  problems <- do.call(rbind, lapply(parts, attr, "problems"))
  keep_cols <- unique(unlist(lapply(parts, names)))
  parts <- lapply(parts, function(d) {
    for (nm in setdiff(keep_cols, names(d))) d[[nm]] <- NA
    d[keep_cols]
  })
  if (multi && "process" %in% keep_cols) parts <- distinct_file_processes(parts)
  all <- do.call(rbind, parts)
  version_levels <- if (multi) unique(labels) else unique(as.character(all$version))
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
         version = factor(all$version, levels = version_levels),
         time = all$time, run = all$run),
    as.list(all[extras]),
    list(source = paste(unique(fmts), collapse = ", "), run_order = run_order,
         attrs = list(files = stats::setNames(path, labels)))))
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
  if (!is.null(nm)) lab[!is.na(nm) & nzchar(nm)] <- nm[!is.na(nm) & nzchar(nm)]
  if (anyDuplicated(lab)) {
    abort(sprintf("`path`: the version names must be unique; %s is repeated.",
                  paste0('"', unique(lab[duplicated(lab)]), '"', collapse = ", ")))
  }
  lab
}

file_stem <- function(path) {
  b <- basename(sub("[/\\\\]+$", "", path))
  sub("\\.(json|csv|txt|cfg)$", "", b, ignore.case = TRUE)
}

# ---- detection ---------------------------------------------------------------

# The format of a file (or folder), from its content.
detect_timings_format <- function(path) {
  if (dir.exists(path)) {
    if (length(criterion_samples(path))) return("criterion")
    abort(sprintf("'%s' is a folder without criterion.rs samples (base/sample.json, new/sample.json); give a file.",
                  path), class = c("format", "file"))
  }
  head <- timings_read_text(path, n = 4096L)
  txt <- sub("^\ufeff", "", trimws(head))
  if (!nzchar(txt)) {
    abort(sprintf("'%s' is empty: no run times to read.", path),
          class = c("empty", "data"))
  }
  if (substr(txt, 1L, 1L) %in% c("{", "[")) {
    j <- timings_json(path)
    return(detect_json_format(j, path))
  }
  first <- strsplit(txt, "\r?\n")[[1L]]
  first <- first[nzchar(trimws(first)) & !grepl("^\\s*#", first)][1L]
  cols <- tolower(trimws(gsub("\"", "", strsplit(first, ",")[[1L]])))
  if (all(c("name", "sample1", "sample2") %in% cols)) return("speeduptest")
  if ("time" %in% cols || ("version" %in% cols && length(cols) >= 2L)) return("csv")
  abort(sprintf("'%s' is not a file format read_timings() knows: it is not JSON (hyperfine, Google Benchmark, pyperf, criterion.rs) and its first line \"%s\" is not the header of a SpeedupTest configuration (Name,Sample1,Sample2,...) or of a long CSV (benchmark,version,time).",
                path, gsub("[[:cntrl:]]", "?", iconv(substr(first, 1L, 60L), "UTF-8", "ASCII", sub = "?"))),
        class = c("format", "file"))
}

detect_json_format <- function(j, path) {
  if (is.list(j) && !is.null(names(j))) {
    if (is.list(j$results) && length(j$results) &&
        all(vapply(j$results, function(r) is.list(r) && !is.null(r$times), logical(1)))) {
      return("hyperfine")
    }
    if (is.list(j$benchmarks) && (!is.null(j$context) ||
        any(vapply(j$benchmarks, function(b) is.list(b) && !is.null(b$run_type), logical(1))))) {
      return("google-benchmark")
    }
    if (is.list(j$benchmarks) && (!is.null(j$version) ||
        any(vapply(j$benchmarks, function(b) is.list(b) && !is.null(b$runs), logical(1))))) {
      return("pyperf")
    }
    if (!is.null(j$iters) && !is.null(j$times)) return("criterion-sample")
    if (is.list(j$results) && !length(j$results)) {
      abort(sprintf("'%s' is a hyperfine export without results: no run times to read.",
                    path), class = c("empty", "data"))
    }
  }
  keys <- if (is.null(names(j))) "an array" else
    paste0("keys ", paste0('"', utils::head(names(j), 6L), '"', collapse = ", "))
  abort(sprintf("'%s' is JSON but not the output of a tool read_timings() knows (hyperfine, Google Benchmark, pyperf, criterion.rs): it has %s.",
                path, keys), class = c("format", "file"))
}

# ---- shared helpers of the importers ----------------------------------------

timings_read_text <- function(path, n = -1L) {
  out <- tryCatch({
    con <- file(path, "rb")
    on.exit(close(con))
    raw <- readBin(con, "raw", if (n < 0L) file.info(path)$size else n)
    rawToChar(raw[raw != as.raw(0)])
  }, error = function(e) NULL)
  if (is.null(out)) {
    abort(sprintf("cannot read '%s'.", path), class = "file")
  }
  out
}

# Parsed JSON (lists, no simplification), or a classed error naming the file.
timings_json <- function(path) {
  txt <- timings_read_text(path)
  tryCatch(jsonlite::parse_json(txt, simplifyVector = FALSE),
           error = function(e) {
             abort(sprintf("'%s' is not valid JSON: %s", path,
                           trimws(conditionMessage(e))),
                   class = c("format", "file"))
           })
}

# The metric argument of a format with fixed choices.
timings_metric <- function(metric, choices, path, tool) {
  if (is.null(metric)) return(choices[1L])
  if (!(metric %in% choices)) {
    abort(sprintf("`metric` must be %s for the %s file '%s', not \"%s\".",
                  paste0('"', choices, '"', collapse = " or "), tool, path, metric))
  }
  metric
}

timings_empty <- function(path, what) {
  abort(sprintf("'%s' holds no run times: %s.", path, what),
        class = c("empty", "data"))
}

# Numbers out of a JSON list (NULL -> NA).
json_num <- function(x) {
  vapply(x, function(v) if (is.null(v) || !is.numeric(v)) NA_real_ else as.double(v),
         numeric(1))
}

# The data frame an importer returns; `named` says that the caller's
# `benchmark` was used as the benchmark's name (so it selects nothing).
timings_part <- function(benchmark, version, time, run, run_order, ...,
                         named = FALSE) {
  d <- data.frame(benchmark = as.character(benchmark),
                  version = as.character(version), time = as.double(time),
                  run = as.integer(run), stringsAsFactors = FALSE)
  extra <- list(...)
  for (nm in names(extra)) d[[nm]] <- extra[[nm]]
  attr(d, "run_order") <- run_order
  attr(d, "named") <- named
  d
}

`%||%` <- function(a, b) if (is.null(a)) b else a

# Several files: the process labels of each file numbered apart (a
# process of one file is not a process of another), NA where unknown.
distinct_file_processes <- function(parts) {
  offset <- 0L
  for (i in seq_along(parts)) {
    p <- parts[[i]]$process
    if (is.null(p) || all(is.na(p))) {
      parts[[i]]$process <- rep(NA_integer_, nrow(parts[[i]]))
      next
    }
    code <- match(as.character(p), unique(as.character(p[!is.na(p)])))
    parts[[i]]$process <- code + offset
    offset <- offset + max(code, na.rm = TRUE)
  }
  parts
}
