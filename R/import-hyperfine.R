# hyperfine's --export-json: {"results": [{"command", "command_name"?,
# "times": [...], "exit_codes": [...], "user", "system", ...}, ...]}.
# "times" holds one wall-clock time per run, in seconds, in the order of the
# runs; hyperfine runs all the runs of a command before the next command, so
# within one file the order is global: the commands' runs one after another.
# "user" and "system" are the means over the runs (kept per run only when a
# file stores one value per run).

import_hyperfine <- function(path, metric = NULL, multi = FALSE, name = NULL) {
  timings_metric(metric, "time", path, "hyperfine")
  j <- timings_json(path)
  res <- j$results
  if (!is.list(res) || (length(res) && is.null(res[[1L]]$times))) {
    abort(sprintf("'%s' is not a hyperfine export: it needs \"results\", each with \"times\".",
                  path), class = c("format", "file"))
  }
  if (!length(res)) timings_empty(path, "the hyperfine export has no results")
  cmd <- vapply(res, function(r) {
    nm <- r$command_name %||% r$command
    if (is.null(nm)) NA_character_ else as.character(nm)
  }, character(1))
  cmd[is.na(cmd)] <- paste0("command ", which(is.na(cmd)))
  if (anyDuplicated(cmd)) {
    abort(sprintf("'%s' repeats the command %s; name the commands apart (hyperfine -n).",
                  path, paste0('"', unique(cmd[duplicated(cmd)]), '"', collapse = ", ")),
          class = c("format", "file"))
  }
  rows <- lapply(seq_along(res), function(i) {
    r <- res[[i]]
    times <- json_num(r$times)
    n <- length(times)
    per_run <- function(v) {
      v <- if (is.list(v)) json_num(v) else NULL
      if (length(v) == n) v else NULL
    }
    d <- data.frame(cmd = rep(cmd[i], n), time = times,
                    within = seq_len(n), stringsAsFactors = FALSE)
    u <- per_run(r$user)
    s <- per_run(r$system)
    e <- per_run(r$exit_codes)
    if (!is.null(u)) d$user <- u
    if (!is.null(s)) d$sys <- s
    if (!is.null(e)) d$exit_status <- as.integer(e)
    d
  })
  cols <- unique(unlist(lapply(rows, names)))
  rows <- lapply(rows, function(d) {
    for (nm in setdiff(cols, names(d))) d[[nm]] <- NA
    d[cols]
  })
  all <- do.call(rbind, rows)
  if (!nrow(all)) timings_empty(path, "no command has times")
  extras <- all[setdiff(cols, c("cmd", "time", "within"))]
  if (multi) {
    # one file per version: its commands are the benchmarks
    d <- do.call(timings_part, c(list(all$cmd, NA_character_, all$time,
                                      all$within, "sample"), as.list(extras),
                                 list(process = all$within)))
  } else {
    bench <- if (is.null(name)) file_stem(path) else name
    d <- do.call(timings_part, c(list(bench, all$cmd, all$time,
                                      seq_len(nrow(all)), "global"),
                                 as.list(extras), list(named = !is.null(name),
                                                       process = seq_len(nrow(all)))))
  }
  d
}
