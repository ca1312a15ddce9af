# What a verdict or timings print of their replicates: the processes and
# runs per process, the variance components, the rounds of the design, and
# the notes of runs that all came from one process.

# The line of a verdict naming its replicates (and design), in place of
# "runs: n of x, m of y".
verdict_units_line <- function(v) {
  info <- v$replication
  d <- v$design
  lx <- v$labels[1L]
  ly <- v$labels[2L]
  out <- if (is.null(info) || info$unit == "run") {
    base <- sprintf("  runs: %d of %s, %d of %s", info$runs[1L] %||% v$n, lx,
                    info$runs[2L] %||% v$m, ly)
    if (!is.null(info$processes) && info$kind != "one_per_run") {
      base <- if (all(info$processes == 1L)) {
        sprintf("%s (each version in one process)", base)
      } else {
        sprintf("%s (in %d and %d processes)", base, info$processes[1L],
                info$processes[2L])
      }
    }
    base
  } else {
    rp <- function(r) if (r[1L] == r[2L]) format(r[1L]) else paste(r, collapse = "-")
    c(sprintf("  processes: %d of %s, %d of %s (the unit: per-process %ss)",
              info$processes[1L], lx, info$processes[2L], ly,
              protocol_info(v$test)$centre),
      sprintf("  runs: %d of %s, %d of %s (%s and %s per process)", info$runs[1L], lx,
              info$runs[2L], ly, rp(info$runs_per_process[[1L]]),
              rp(info$runs_per_process[[2L]])),
      if (!is.na(info$variance$within))
        sprintf("  variance of log times: between processes %s, within %s",
                fmt_num(info$variance$between), fmt_num(info$variance$within)))
  }
  if (!is.null(info) && info$requested == "run" && !is.null(info$processes) &&
      info$kind %in% c("single", "processes")) {
    out[1L] <- paste0(out[1L], "; treated as independent")
  }
  if (!is.null(d) && identical(d$design, "paired")) {
    out <- c(sprintf("  design: paired by round, %d rounds%s", d$rounds,
                     if (d$dropped > 0L) sprintf(" (%d incomplete dropped)", d$dropped) else ""),
             out)
  }
  if (length(v$notes)) out <- c(out, paste0("  note: ", v$notes))
  out
}

# The structure line(s) of print() of timings: processes per version, runs
# per process, rounds.
timings_structure_lines <- function(t) {
  if (!nrow(t)) return(character())
  rng <- function(v, what) {
    v <- v[!is.na(v)]
    if (!length(v)) return(NULL)
    r <- range(v)
    if (r[2L] == 1L) what <- sub("^(process)es|^(run|round)s", "\\1\\2", what)
    sprintf("%s %s", if (r[1L] == r[2L]) format(r[1L]) else paste(r, collapse = " to "),
            what)
  }
  parts <- character()
  if (!is.null(t[["process"]]) && !all(is.na(t[["process"]]))) {
    key <- paste(t$benchmark, as.integer(t$version), sep = "\r")
    ok <- !is.na(t[["process"]])
    pk <- paste(t$benchmark, t[["process"]], sep = "\r")
    shared <- tapply(as.integer(t$version)[ok], pk[ok], function(v) length(unique(v)) > 1L)
    if (any(shared)) {
      parts <- "versions share a process (runs are the replicates)"
    } else {
      procs <- tapply(t[["process"]][ok], key[ok], function(p) length(unique(p)))
      runs <- tapply(pk[ok], pk[ok], length)
      parts <- c(rng(procs, "processes per version"), rng(runs, "runs per process"))
    }
    if (any(!ok)) parts <- c(parts, sprintf("%d run(s) of unknown process", sum(!ok)))
  }
  if (!is.null(t[["round"]]) && !all(is.na(t[["round"]]))) {
    ok <- !is.na(t[["round"]])
    rk <- paste(t$benchmark, t[["round"]], sep = "\r")[ok]
    nv <- length(levels(droplevels(t$version)))
    comp <- tapply(as.integer(t$version)[ok], rk, function(v)
      length(v) == nv && !anyDuplicated(v))
    bench <- sub("\r.*$", "", names(comp))
    per <- tapply(comp, bench, sum)
    parts <- c(parts, rng(per, "complete rounds"))
  }
  if (!length(parts)) return(character())
  strwrap(paste0("structure: ", paste(parts, collapse = ", ")), width = 78,
          indent = 2, exdent = 4)
}

# The replicates of a verdict in a few words, for one line of `compare`:
# "paired by round, 31 rounds", "12 and 12 processes", "one process per
# version: not guaranteed".
replicates_note <- function(v) {
  s <- v$sequential
  if (!is.null(s)) {
    return(sprintf("sequential design: look %d of %d, %d runs of each, level %s, overall risk %s",
                   s$look, s$looks, s$runs, fmt_p(s$level), format(s$alpha)))
  }
  info <- v$replication
  if (is.null(info)) return(character())
  if (identical(v$design$design, "paired")) {
    return(sprintf("paired by round, %d rounds", v$design$rounds))
  }
  if (info$unit == "process") {
    return(sprintf("%d and %d processes", info$processes[1L], info$processes[2L]))
  }
  character()
}

# The note `compare` prints once when benchmarks ran in one process per
# version (rule 2).
compare_single_note <- function(rows) {
  single <- vapply(rows, function(r) {
    info <- r$verdict$replication
    !is.null(info) && info$unit == "run" && info$kind == "single" &&
      info$requested == "auto" && !identical(r$verdict$design$design, "paired")
  }, logical(1))
  compare_single_count(sum(single))
}

# The note of compare_single_note() for `k` benchmarks (none when 0).
compare_single_count <- function(k) {
  if (!k) return(character())
  sprintf("note: %d benchmark%s ran in one process per version: the variation between processes cannot be seen, so no verdict is guaranteed; run each version in several processes.",
          k, if (k == 1L) "" else "s")
}
