# Google Benchmark's JSON (--benchmark_format=json or --benchmark_out):
# {"context": {...}, "benchmarks": [{"name", "run_name", "run_type",
# "repetitions", "repetition_index", "iterations", "real_time", "cpu_time",
# "time_unit", "aggregate_name"?, "error_occurred"?}, ...]}.
# real_time and cpu_time are per iteration, in time_unit; each "iteration"
# row is one repetition (run), the "aggregate" rows are summaries (mean,
# median, stddev, cv) and are left out.  The repetitions of a benchmark ran
# one after the other in the file's process: `iteration` is their order
# there (repetition_index + 1 when the file has it, else the file's
# order).  `fast = FALSE` reads a clean file through the checks too (the
# tests compare the two).

gbench_units <- c(ns = 1e-9, us = 1e-6, ms = 1e-3, s = 1)

import_gbench <- function(path, metric = NULL, multi = FALSE, name = NULL,
                          src = NULL, fast = TRUE) {
  metric <- timings_metric(metric, c("real_time", "cpu_time"), path,
                           "Google Benchmark")
  problems <- empty_problems()
  # a clean file (every entry an object, no run reporting an error, every
  # iteration run named, with a known unit and a finite time: what Google
  # Benchmark writes) is read in one pass of C (src/json-fields.c), which
  # gives the values the checks below give it; any other file goes through
  # them, with its reasons.  A large file opened in blocks by the format's
  # detection (json_blocks_try()) is read block by block, each block's
  # records dropped once read; when a block is not clean, the whole file
  # is parsed and read as any other
  runs <- if (fast && !is.null(src$blocks)) gbench_runs_blocks(src$blocks, metric)
  if (is.null(runs)) {
    j <- src$json %||% timings_json(path, src$sniff)
    b <- j$benchmarks
    if (!is.list(b)) {
      abort(sprintf("'%s' is not a Google Benchmark file: it has no \"benchmarks\" array.",
                    safe_text(path)), class = c("format", "file"))
    }
    if (!length(b)) timings_empty(path, "the Google Benchmark file lists no benchmark")
    runs <- if (fast) .Call(ffi_gbench_runs, b, metric, names(gbench_units),
                            unname(gbench_units), FALSE, FALSE)
  }
  fast <- runs
  if (!is.null(fast)) {
    nm <- fast$name
    # the suffixes taken off each distinct name once
    u <- unique(nm)
    nm <- sub("_(mean|median|stddev|cv)$", "", sub("/repeats:[0-9]+$", "", u))[match(nm, u)]
    time <- fast$time
    iters <- fast$iterations
    rep_index <- fast$repetition_index
  } else {
    is_rec <- vapply(b, is.list, NA)
    if (!all(is_rec)) {
      problems <- import_skip(problems, path, sprintf("%d entr%s of \"benchmarks\"",
                              sum(!is_rec), if (sum(!is_rec) == 1L) "y" else "ies"),
                              "not a JSON object")
      b <- b[is_rec]
    }
    # the fields of every run, taken in one pass (json_fields())
    fields <- json_fields(b, c("run_type", "error_occurred", "run_name", "name",
                               "error_message", "time_unit", metric, "iterations",
                               "repetition_index"),
                          c("s", "b", "s", "s", "s", "s", "n", "n", "n"))
    # the text of a field: its string, `default` where it is missing, null
    # or empty, NA where it is anything else
    text <- function(key, default) {
      f <- fields[[key]]
      out <- f$value
      out[f$kind < 2L] <- default
      out
    }
    type <- text("run_type", "iteration")
    failed <- fields$error_occurred$kind == 2L & fields$error_occurred$value %in% TRUE
    it <- which(type == "iteration" & !failed)
    if (!length(it)) {
      if (any(type == "aggregate", na.rm = TRUE)) {
        abort(sprintf("'%s' holds only Google Benchmark aggregates (mean, median, ...), not the runs: run the benchmark with --benchmark_repetitions=N but without --benchmark_report_aggregates_only or --benchmark_display_aggregates_only.",
                      safe_text(path)), class = c("aggregates", "empty", "data"))
      }
      timings_empty(path, if (any(failed)) "every benchmark reported an error" else
        "no iteration run")
    }
    run_names <- function() {
      nm <- text("run_name", NA_character_)
      nm[is.na(nm)] <- text("name", NA_character_)[is.na(nm)]
      nm
    }
    # a benchmark that reported an error (SkipWithError) is left out whole
    gave_up <- character()
    if (any(failed)) {
      nm <- run_names()
      msg <- text("error_message", "")
      for (bn in unique(nm[failed & !is.na(nm)])) {
        m <- msg[failed & nm %in% bn][1L]
        problems <- import_skip(problems, path, sprintf("benchmark \"%s\"", bn),
          sprintf("Google Benchmark reported an error%s",
                  if (!is.na(m) && nzchar(m)) sprintf(" (\"%s\")", safe_text(m)) else ""))
      }
      gave_up <- sub("_(mean|median|stddev|cv)$", "",
                     sub("/repeats:[0-9]+$", "", unique(nm[failed & !is.na(nm)])))
    }
    fields <- lapply(fields, function(f) list(kind = f$kind[it], value = f$value[it]))
    nm <- run_names()
    if (anyNA(nm)) {
      problems <- import_skip(problems, path, sprintf("%d run(s) without a name", sum(is.na(nm))),
                              "a run needs a \"name\" (or \"run_name\") string")
    }
    # the suffixes taken off each distinct name once
    u <- unique(nm)
    nm <- sub("_(mean|median|stddev|cv)$", "", sub("/repeats:[0-9]+$", "", u))[match(nm, u)]
    unit <- text("time_unit", "ns")
    # json_num() of each: the number, NA where it is not one number
    time <- fields[[metric]]$value
    iters <- fields$iterations$value
    rep_index <- fields$repetition_index$value
    # a benchmark with a run that cannot be read is left out whole
    # (the reasons written for the bad runs only)
    why <- rep(NA_character_, length(time))
    bad_time <- which(!is.finite(time))
    why[bad_time] <- ifelse(is.na(time[bad_time]),
                            sprintf("a run's \"%s\" is missing or not a number", metric),
                            sprintf("a run's \"%s\" is not finite", metric))
    bad_unit <- which(is.na(unit) | !(unit %in% names(gbench_units)))
    why[bad_unit] <- sprintf("unknown time_unit %s (expected ns, us, ms or s)",
                             ifelse(is.na(unit[bad_unit]), "(not a string)",
                                    sprintf("\"%s\"", unit[bad_unit])))
    why[is.na(nm)] <- NA_character_
    for (bn in unique(nm[!is.na(why)])) {
      problems <- import_skip(problems, path, sprintf("benchmark \"%s\"", bn),
                              why[!is.na(why) & nm == bn][1L])
    }
    keep <- !is.na(nm) & !(nm %in% nm[!is.na(why)]) & !(nm %in% gave_up)
    if (!any(keep)) {
      timings_all_skipped(path, problems, "benchmark")
    }
    nm <- nm[keep]
    time <- time[keep] * gbench_units[unit[keep]]
    iters <- iters[keep]
    rep_index <- if (length(rep_index) == length(keep)) rep_index[keep] else
      rep(NA_real_, length(nm))
  }
  # the benchmarks as integer codes, in order of first appearance; the runs
  # of each counted in the file's order, and the order of the repetitions
  # in the process: repetition_index when every run of the benchmark has a
  # distinct one, else the order in the file (one pass of C for all)
  code <- match(nm, unique(nm))
  ord <- .Call(ffi_gbench_order, code, as.double(rep_index), max(code, 0L))
  run <- ord$run
  iteration <- ord$iteration
  version <- if (multi) NA_character_ else file_stem(path)
  d <- timings_part(nm, version, time, run, "sample", iterations = iters,
                    process = rep(1L, length(time)), iteration = iteration)
  if (nrow(problems)) attr(d, "problems") <- problems
  d
}

# ffi_gbench_runs() of the records of a Google Benchmark file opened in
# blocks (json_blocks_try(), its first block parsed as `bl$first`), block
# by block: the same list(name, time, iterations, repetition_index) as
# one call on all the records, or NULL when a block does not parse to its
# records or one is not clean, or no run is found.
gbench_runs_blocks <- function(bl, metric) {
  out <- vector("list", length(bl$counts))
  # the members ffi_gbench_runs() reads; the others of each record are
  # left unparsed where that cannot change the answer
  keep <- c("run_type", "error_occurred", "run_name", "name", "time_unit", metric,
            "iterations", "repetition_index")
  for (b in seq_along(out)) {
    # the first block as parsed whole for the format; the others with the
    # members read only, each record as the array of their values (in
    # the order of `keep`, the order ffi_gbench_runs() reads) when every
    # record of the block can be written so
    p <- if (b == 1L && !is.null(bl$first)) bl$first else json_block_parse(bl, b, keep)
    if (is.null(p)) return(NULL)
    r <- .Call(ffi_gbench_runs, p, metric, names(gbench_units), unname(gbench_units), TRUE,
               isTRUE(attr(p, "rows")))
    if (is.null(r)) return(NULL)
    out[[b]] <- r
  }
  bl <- NULL
  runs <- list(name = unlist(lapply(out, `[[`, "name")),
               time = unlist(lapply(out, `[[`, "time")),
               iterations = unlist(lapply(out, `[[`, "iterations")),
               repetition_index = unlist(lapply(out, `[[`, "repetition_index")))
  if (!length(runs$name)) return(NULL)
  runs
}
