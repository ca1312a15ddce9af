# Google Benchmark's JSON (--benchmark_format=json or --benchmark_out):
# {"context": {...}, "benchmarks": [{"name", "run_name", "run_type",
# "repetitions", "repetition_index", "iterations", "real_time", "cpu_time",
# "time_unit", "aggregate_name"?, "error_occurred"?}, ...]}.
# real_time and cpu_time are per iteration, in time_unit; each "iteration"
# row is one repetition (run), the "aggregate" rows are summaries (mean,
# median, stddev, cv) and are left out.

gbench_units <- c(ns = 1e-9, us = 1e-6, ms = 1e-3, s = 1)

import_gbench <- function(path, metric = NULL, multi = FALSE, name = NULL) {
  metric <- timings_metric(metric, c("real_time", "cpu_time"), path,
                           "Google Benchmark")
  j <- timings_json(path)
  b <- j$benchmarks
  if (!is.list(b)) {
    abort(sprintf("'%s' is not a Google Benchmark file: it has no \"benchmarks\" array.",
                  path), class = c("format", "file"))
  }
  if (!length(b)) timings_empty(path, "the Google Benchmark file lists no benchmark")
  type <- vapply(b, function(x) as.character(x$run_type %||% "iteration"), character(1))
  failed <- vapply(b, function(x) isTRUE(x$error_occurred), logical(1))
  it <- which(type == "iteration" & !failed)
  if (!length(it)) {
    if (any(type == "aggregate")) {
      abort(sprintf("'%s' holds only Google Benchmark aggregates (mean, median, ...), not the runs: run the benchmark with --benchmark_repetitions=N but without --benchmark_report_aggregates_only or --benchmark_display_aggregates_only.",
                    path), class = c("aggregates", "empty", "data"))
    }
    timings_empty(path, if (any(failed)) "every benchmark reported an error" else
      "no iteration run")
  }
  rows <- b[it]
  nm <- vapply(rows, function(x) as.character(x$run_name %||% x$name %||% NA), character(1))
  if (anyNA(nm)) {
    abort(sprintf("'%s': %d benchmark run(s) have no name.", path, sum(is.na(nm))),
          class = c("format", "file"))
  }
  nm <- sub("/repeats:[0-9]+$", "", nm)
  nm <- sub("_(mean|median|stddev|cv)$", "", nm)
  unit <- vapply(rows, function(x) as.character(x$time_unit %||% "ns"), character(1))
  bad <- !(unit %in% names(gbench_units))
  if (any(bad)) {
    abort(sprintf("'%s': unknown time_unit %s (expected ns, us, ms or s).", path,
                  paste0('"', unique(unit[bad]), '"', collapse = ", ")),
          class = c("format", "file"))
  }
  val <- json_num(lapply(rows, `[[`, metric))
  if (anyNA(val)) {
    abort(sprintf("'%s': %d run(s) have no \"%s\".", path, sum(is.na(val)), metric),
          class = c("format", "file"))
  }
  time <- val * gbench_units[unit]
  iters <- json_num(lapply(rows, `[[`, "iterations"))
  run <- stats::ave(seq_along(nm), nm, FUN = seq_along)
  version <- if (multi) NA_character_ else file_stem(path)
  timings_part(nm, version, time, run, "sample", iterations = iters,
               process = rep(1L, length(time)))
}
