# pyperf's JSON (pyperf's Runner -o FILE, pyperf timeit -o FILE): a suite
# {"version": "1.0", "metadata": {...}, "benchmarks": [{"metadata": {...},
# "runs": [{"metadata": {...}, "warmups": [[loops, value], ...],
# "values": [...]}, ...]}, ...]}.  Each run is one worker process; its
# "values" are normalised per loop iteration (seconds unless the metadata
# says another unit), and so are the values of its "warmups", which ran
# first in the same process: they are kept, in order before the values,
# with `warmup = TRUE` (the analyses leave them out unless asked to detect
# the warm-up themselves: warmup.R); a run without values is a calibration
# run.  The benchmark's name is in its metadata (or the suite's common
# metadata).

import_pyperf <- function(path, metric = NULL, multi = FALSE, name = NULL,
                          src = NULL) {
  timings_metric(metric, "values", path, "pyperf")
  j <- src$json %||% timings_json(path, src$sniff)
  b <- j$benchmarks
  if (!is.list(b)) {
    abort(sprintf("'%s' is not a pyperf file: it has no \"benchmarks\" array.",
                  safe_text(path)), class = c("format", "file"))
  }
  if (!length(b)) timings_empty(path, "the pyperf file lists no benchmark")
  common <- j$metadata
  if (!is.list(common)) common <- list()
  problems <- empty_problems()
  parts <- lapply(seq_along(b), function(i) {
    bi <- b[[i]]
    if (!is.list(bi)) {
      problems <<- import_skip(problems, path, sprintf("benchmark %d", i),
                               "its entry is not a JSON object")
      return(NULL)
    }
    own <- bi$metadata
    meta <- utils::modifyList(common, if (is.list(own) && !is.null(names(own))) own else list())
    bname <- meta$name
    if (!(is.character(bname) && length(bname) == 1L)) bname <- paste0("benchmark ", i)
    unit <- meta$unit %||% "second"
    why <- if (!identical(unit, "second")) {
      sprintf("it measures in %s, not seconds; read_timings() reads times",
              if (is.character(unit) && length(unit) == 1L) sprintf("\"%s\"", unit)
              else "an unknown unit")
    }
    runs <- bi$runs %||% list()
    if (is.null(why) && !is.list(runs)) why <- "its \"runs\" is not an array"
    if (is.null(why)) {
      for (k in seq_along(runs)) {
        if (!is.list(runs[[k]]) || (length(runs[[k]]) && is.null(names(runs[[k]])))) {
          why <- sprintf("run %d is not a JSON object", k)
          break
        }
        v <- runs[[k]]$values
        # a calibration run has no values
        if (is.null(v) || (is.list(v) && !length(v) && is.null(names(v)))) next
        bad <- json_problem(v, "values")
        if (!is.null(bad)) {
          why <- sprintf("run %d: %s", k, sub("^its ", "", bad))
          break
        }
      }
    }
    if (!is.null(why)) {
      problems <<- import_skip(problems, path, sprintf("benchmark \"%s\"", bname), why)
      return(NULL)
    }
    vals <- lapply(seq_along(runs), function(k) {
      v <- json_num(runs[[k]]$values %||% list())
      if (!length(v)) return(NULL)
      md <- runs[[k]]$metadata
      loops <- (if (is.list(md)) md$loops) %||% meta$loops %||% NA
      if (!(is.numeric(loops) && length(loops) == 1L)) loops <- NA
      # the warm-ups, [loops, value] pairs; one that cannot be read is left
      # out (the values are what pyperf itself analyses)
      w <- runs[[k]]$warmups
      wv <- wl <- double()
      if (is.list(w) && length(w) && is.null(names(w))) {
        pair <- vapply(w, function(e) {
          n <- json_num(e)
          if (length(n) == 2L && all(is.finite(n)) && n[2L] > 0) n else c(NA_real_, NA_real_)
        }, c(0, 0))
        ok <- !is.na(pair[2L, ])
        wl <- pair[1L, ok]
        wv <- pair[2L, ok]
      }
      list(value = c(wv, v), process = rep.int(k, length(wv) + length(v)),
           loops = c(wl, rep(as.double(loops), length(v))),
           iteration = seq_len(length(wv) + length(v)),
           warmup = rep(c(TRUE, FALSE), c(length(wv), length(v))))
    })
    vals <- vals[!vapply(vals, is.null, NA)]
    if (!length(vals)) {
      problems <<- import_skip(problems, path, sprintf("benchmark \"%s\"", bname),
                               "no run has values (only warm-ups or calibration runs)")
      return(NULL)
    }
    # plain vectors per benchmark, one data frame at the end (a data frame
    # per run costs more than its values)
    d <- lapply(stats::setNames(names(vals[[1L]]), names(vals[[1L]])), function(f) {
      unlist(lapply(vals, `[[`, f), use.names = FALSE)
    })
    d$benchmark <- as.character(bname)
    d
  })
  parts <- parts[!vapply(parts, is.null, NA)]
  if (!length(parts)) {
    calibration <- grepl("only warm-ups or calibration runs", problems$message, fixed = TRUE)
    if (!all(calibration)) timings_all_skipped(path, problems, "benchmark")
    timings_empty(path, "no run has values (only warm-ups or calibration runs)")
  }
  field <- function(f) unlist(lapply(parts, `[[`, f), use.names = FALSE)
  bench <- rep.int(vapply(parts, `[[`, "", "benchmark"), lengths(lapply(parts, `[[`, "value")))
  d <- list(benchmark = bench, value = field("value"), process = field("process"),
            loops = field("loops"), iteration = field("iteration"), warmup = field("warmup"))
  run <- run_within(d$benchmark)
  version <- if (multi) NA_character_ else file_stem(path)
  out <- timings_part(d$benchmark, version, d$value, run, "sample",
                      process = as.integer(d$process), loops = d$loops,
                      iteration = d$iteration, warmup = d$warmup)
  if (nrow(problems)) attr(out, "problems") <- problems
  out
}
