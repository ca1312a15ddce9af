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
  # the columns built once for all commands (a data frame per command and
  # a join of them allocated each column three times)
  times <- vector("list", length(res))
  extra <- vector("list", length(res))
  for (i in seq_along(res)) {
    r <- res[[i]]
    t <- json_num(r$times)
    n <- length(t)
    per_run <- function(v) {
      v <- if (is.list(v) || (is.atomic(v) && is.null(names(v)))) json_num(v)
      if (length(v) == n) v else NULL
    }
    e <- list()
    u <- per_run(r$user)
    s <- per_run(r$system)
    x <- r$exit_codes
    # exit codes simplified to whole numbers are kept as they are (what
    # as.integer() of their doubles gives)
    x <- if (is.integer(x) && is.null(attributes(x))) {
      if (length(x) == n) x
    } else {
      x <- per_run(x)
      if (!is.null(x)) suppressWarnings(as.integer(x))
    }
    if (!is.null(u)) e$user <- u
    if (!is.null(s)) e$sys <- s
    if (!is.null(x)) e$exit_status <- x
    times[[i]] <- t
    extra[[i]] <- e
  }
  ns <- lengths(times)
  total <- sum(ns)
  if (!total) timings_empty(path, "no command has times")
  join <- function(v) if (length(v) == 1L) v[[1L]] else unlist(v, use.names = FALSE)
  time <- join(times)
  cols <- unique(unlist(lapply(extra, names)))
  extras <- lapply(stats::setNames(cols, cols), function(nm) {
    join(lapply(seq_along(extra), function(i) extra[[i]][[nm]] %||% rep(NA, ns[i])))
  })
  # the commands as a factor of their codes (one level each, in order)
  version <- structure(rep.int(seq_along(cmd), ns), levels = cmd, class = "factor")
  if (multi) {
    # one file per version: its commands are the benchmarks
    within <- if (length(ns) == 1L) seq_len(total) else sequence(ns)
    d <- do.call(timings_part, c(list(rep.int(cmd, ns), NA_character_, time,
                                      within, "sample"), extras,
                                 list(process = within)))
  } else {
    bench <- if (is.null(name)) {
      hyperfine_benchmark_name(vapply(res, function(r) {
        if (is.character(r$command) && length(r$command) == 1L) r$command else NA_character_
      }, ""), file_stem(path))
    } else name
    d <- do.call(timings_part, c(list(bench, version, time,
                                      seq_len(total), "global"),
                                 extras, list(named = !is.null(name),
                                              process = seq_len(total))))
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
