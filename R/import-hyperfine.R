# hyperfine's --export-json: {"results": [{"command", "command_name"?,
# "times": [...], "exit_codes": [...], "user", "system", ...}, ...]}.
# "times" holds one wall-clock time per run, in seconds, in the order of the
# runs; hyperfine runs all the runs of a command before the next command, so
# within one file the order is global: the commands' runs one after another.
# "user" and "system" are the means over the runs (kept per run only when a
# file stores one value per run).

import_hyperfine <- function(path, metric = NULL, multi = FALSE, name = NULL,
                             src = NULL) {
  timings_metric(metric, "time", path, "hyperfine")
  j <- src$json %||% timings_json(path, src$sniff, simplify = TRUE)
  if (is.list(j$results) && any(vapply(j$results, function(r) {
    is.list(r) && json_maybe_boolean(r$times)
  }, NA))) {
    j <- timings_json(path, src$sniff, simplify = FALSE)
  }
  res <- j$results
  if (!is.list(res) || (length(res) &&
      !any(vapply(res, function(r) is.list(r) && !is.null(r$times), NA)))) {
    abort(sprintf("'%s' is not a hyperfine export: it needs \"results\", each with \"times\".",
                  safe_text(path)), class = c("format", "file"))
  }
  if (!length(res)) timings_empty(path, "the hyperfine export has no results")
  problems <- empty_problems()
  cmd <- vapply(seq_along(res), function(i) {
    r <- res[[i]]
    nm <- if (is.list(r)) r$command_name %||% r$command
    if (is.character(nm) && length(nm) == 1L && !is.na(nm)) return(nm)
    shown <- if (is.atomic(nm) || is.list(nm)) {
      txt <- vapply(utils::head(unlist(nm), 3L), function(v) safe_text(as.character(v)), "")
      if (length(txt)) sprintf(" (%s)", paste(txt, collapse = ", "))
    }
    sprintf("command %d%s", i, if (is.null(shown)) "" else shown)
  }, character(1))
  # a command whose entry, name or times cannot be read is left out
  why <- vapply(seq_along(res), function(i) {
    r <- res[[i]]
    if (!is.list(r) || is.null(names(r))) return("its entry is not a JSON object")
    nm <- r$command_name %||% r$command
    if (!is.null(nm) && !(is.character(nm) && length(nm) == 1L)) {
      return("its command (name) is not a string")
    }
    json_problem(r$times) %||% NA_character_
  }, character(1))
  for (i in which(!is.na(why))) {
    problems <- import_skip(problems, path, sprintf("command \"%s\"", cmd[i]), why[i])
  }
  if (all(!is.na(why))) {
    timings_all_skipped(path, problems, "command")
  }
  res <- res[is.na(why)]
  cmd <- cmd[is.na(why)]
  if (anyDuplicated(cmd)) {
    abort(sprintf("'%s' repeats the command %s; name the commands apart (hyperfine -n).",
                  safe_text(path), paste0('"', unique(cmd[duplicated(cmd)]), '"', collapse = ", ")),
          class = c("format", "file"))
  }
  rows <- lapply(seq_along(res), function(i) {
    r <- res[[i]]
    times <- json_num(r$times)
    n <- length(times)
    per_run <- function(v) {
      v <- if (is.list(v) || (is.atomic(v) && is.null(names(v)))) json_num(v)
      if (length(v) == n) v else NULL
    }
    d <- data.frame(cmd = rep(cmd[i], n), time = times,
                    within = seq_len(n), stringsAsFactors = FALSE)
    u <- per_run(r$user)
    s <- per_run(r$system)
    e <- per_run(r$exit_codes)
    if (!is.null(u)) d$user <- u
    if (!is.null(s)) d$sys <- s
    if (!is.null(e)) d$exit_status <- suppressWarnings(as.integer(e))
    d
  })
  cols <- unique(unlist(lapply(rows, names)))
  rows <- lapply(rows, function(d) {
    for (nm in setdiff(cols, names(d))) d[[nm]] <- NA
    d[cols]
  })
  # column by column (rbind() of data frames builds row names and checks
  # each column's type, many times the cost of the values)
  all <- as.data.frame(lapply(stats::setNames(cols, cols), function(nm) {
    unlist(lapply(rows, `[[`, nm), use.names = FALSE)
  }), stringsAsFactors = FALSE)
  if (!nrow(all)) timings_empty(path, "no command has times")
  extras <- all[setdiff(cols, c("cmd", "time", "within"))]
  if (multi) {
    # one file per version: its commands are the benchmarks
    d <- do.call(timings_part, c(list(all$cmd, NA_character_, all$time,
                                      all$within, "sample"), as.list(extras),
                                 list(process = all$within)))
  } else {
    bench <- if (is.null(name)) {
      hyperfine_benchmark_name(vapply(res, function(r) {
        if (is.character(r$command) && length(r$command) == 1L) r$command else NA_character_
      }, ""), file_stem(path))
    } else name
    d <- do.call(timings_part, c(list(bench, all$cmd, all$time,
                                      seq_len(nrow(all)), "global"),
                                 as.list(extras), list(named = !is.null(name),
                                                       process = seq_len(nrow(all)))))
  }
  if (nrow(problems)) attr(d, "problems") <- problems
  d
}

# The benchmark a file of several commands (the versions) measures, from
# the commands themselves: the command with its program's folder left out
# when that is the same for every version (`../base/prog in.txt` and
# `../head/prog in.txt` measure `prog in.txt`), else the program's name
# when it is the same (`prog`), else `fallback` (the file's name).
hyperfine_benchmark_name <- function(commands, fallback) {
  if (!length(commands) || anyNA(commands)) return(fallback)
  words <- strsplit(trimws(commands), "[[:space:]]+")
  if (any(lengths(words) == 0L)) return(fallback)
  prog <- vapply(words, function(w) basename(w[1L]), "")
  full <- vapply(seq_along(words), function(i) {
    paste(c(prog[i], words[[i]][-1L]), collapse = " ")
  }, "")
  if (length(unique(full)) == 1L && length(commands) > 1L) return(full[1L])
  if (length(unique(prog)) == 1L && length(commands) > 1L &&
      any(lengths(words) > 1L | grepl("/", commands))) {
    return(prog[1L])
  }
  fallback
}
