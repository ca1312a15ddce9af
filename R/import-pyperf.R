# pyperf's JSON (pyperf's Runner -o FILE, pyperf timeit -o FILE): a suite
# {"version": "1.0", "metadata": {...}, "benchmarks": [{"metadata": {...},
# "runs": [{"metadata": {...}, "warmups": [[loops, value], ...],
# "values": [...]}, ...]}, ...]}.  Each run is one worker process; its
# "values" are normalised per loop iteration (seconds unless the metadata
# says another unit); "warmups" are left out, and a run without values is a
# calibration run.  The benchmark's name is in its metadata (or the suite's
# common metadata).

import_pyperf <- function(path, metric = NULL, multi = FALSE, name = NULL) {
  timings_metric(metric, "values", path, "pyperf")
  j <- timings_json(path)
  b <- j$benchmarks
  if (!is.list(b)) {
    abort(sprintf("'%s' is not a pyperf file: it has no \"benchmarks\" array.", path),
          class = c("format", "file"))
  }
  if (!length(b)) timings_empty(path, "the pyperf file lists no benchmark")
  common <- j$metadata %||% list()
  parts <- lapply(seq_along(b), function(i) {
    bi <- b[[i]]
    meta <- utils::modifyList(common, bi$metadata %||% list())
    bname <- meta$name %||% paste0("benchmark ", i)
    unit <- meta$unit %||% "second"
    if (!identical(unit, "second")) {
      abort(sprintf("'%s': benchmark \"%s\" measures in \"%s\", not seconds; read_timings() reads times.",
                    path, bname, unit), class = c("format", "file"))
    }
    runs <- bi$runs %||% list()
    vals <- lapply(seq_along(runs), function(k) {
      v <- json_num(runs[[k]]$values %||% list())
      if (!length(v)) return(NULL)
      loops <- runs[[k]]$metadata$loops %||% meta$loops %||% NA
      data.frame(value = v, process = k, loops = as.double(loops))
    })
    d <- do.call(rbind, vals)
    if (is.null(d)) return(NULL)
    d$benchmark <- as.character(bname)
    d
  })
  d <- do.call(rbind, parts)
  if (is.null(d) || !nrow(d)) timings_empty(path, "no run has values (only warm-ups or calibration runs)")
  run <- stats::ave(seq_len(nrow(d)), d$benchmark, FUN = seq_along)
  version <- if (multi) NA_character_ else file_stem(path)
  timings_part(d$benchmark, version, d$value, run, "sample",
               process = as.integer(d$process), loops = d$loops)
}
