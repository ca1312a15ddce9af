# history_changes(): the changes along every series of a history (SPEC
# section 12).  Each series (benchmark x machine x branch, split at the
# annotations) is analysed on its own by series_changes() (R/changes.R),
# with the processes as the unit; the series are independent, so they are
# mapped over with future.apply under the user's plan, and only this
# process writes to the store.  Across series, Holm or BH.
#
# The adjustment across series.  Each series s (a segment of one) is one
# hypothesis, "s has no change", tested by its detection at level alpha
# (the detection's p-values p_c of the changes it reports are such that,
# with no change, P(min p_c <= a) <= a).  The series' p-value is
# p_s = min p_c (1 when nothing is reported).  Holm or BH over the m
# series gives q_s; a change c of s gets p_adj(c) = min(1, p_c q_s / p_s),
# which is q_s for the series' smallest p-value and keeps the order of the
# changes of s.  A change is reported when p_adj <= alpha: for Holm, with
# probability at least 1 - alpha no series without a change reports one
# and, within a series, the detection's own guarantee holds at the level
# Holm gives it (q_s <= alpha means p_c <= alpha p_s / q_s, which is at most
# the level Holm assigns to s).
#
# The scan's level.  Holm (or BH) over m series reports a change of a
# series when its p-value is at most about alpha / m, and the scan's
# p-value of a change is that of the shortest window that rejected at the
# scan's own level: scanned at alpha, nearly every range it reports has a
# p-value just below alpha, which the adjustment then discards.  So with
# the scan, history_changes() scans each series at alpha / m (Bonferroni
# within Holm: a change so certified has p_c <= alpha / m, hence
# q_s <= m p_s and p_adj(c) <= m p_c <= alpha): the ranges reported are
# the shortest ones certified at that level.  m counts the series in the
# adjustment when the analysis is made; a series analysed when m was
# smaller keeps its ranges, and the adjustment over the stored p-values
# stays valid (it may then drop a change a new analysis would widen).
#
# Stable ids.  A change found again (the same series, its commit range
# overlapping the range of a stored change) keeps the stored id and
# triage state; its figures are updated.  A stored change that an analysis
# no longer finds is kept, inactive.  Only series with new runs (or a new
# annotation) are analysed again; the adjustment is recomputed over all.

#' Changes along the series of a history
#'
#' Finds the commits where each series of a history (one benchmark on one
#' machine on one branch; never pooled across machines; split where
#' [history_annotate()] says the machine changed) changed level, with the
#' processes as the unit: the per-process summaries kept by [history_add()]
#' are given to [series_changes()] (`method`, `alpha`, `min_speedup` and
#' `...` are passed to it). The p-values are adjusted across the series
#' with Holm's method (the probability that any series without a change
#' reports one is at most `alpha`) or Benjamini-Hochberg (the expected share
#' of false series among those reported is at most `alpha`); see the
#' details in the source of `history_changes`. With the scan, each of the
#' `m` series in the adjustment is scanned at `alpha / m` (its `level`),
#' so that the ranges reported are those certified at the level the
#' adjustment gives a series (scanned at `alpha`, the shortest ranges
#' have p-values near `alpha`, which the adjustment would discard).
#'
#' Each change is stored with its triage state ([history_triage()]) and
#' keeps its id (`change_id`) across later analyses: a change found again
#' (its commit range overlapping a stored one's) is the stored change, so
#' it is never reported twice. Only the series that received runs since
#' their last analysis are analysed again (all of them with `refresh =
#' TRUE`, or when the method, `alpha`, `min_speedup`, `p_adjust` or `...`
#' differ from the last analysis).
#'
#' The series are analysed in parallel with `future.apply` under the
#' user's `future` plan (e.g. `future::plan("multisession")`, or a cluster
#' through `future.batchtools`), when both packages are installed and a
#' plan other than sequential is set and there are at least
#' `getOption("speeduptest.history_parallel_min", 100)` series to analyse
#' (fewer do not pay for the workers); only the calling process writes to
#' the history.
#'
#' A series whose detection fails is skipped with a warning of class
#' `speeduptest_warning_skipped` that gives the reason; it is analysed again
#' next time, and the other series are not affected.
#'
#' @param h A history, from [history_open()].
#' @param benchmark,machine,branch Names that select the series to analyse
#'   and report (`NULL`: all).
#' @param method The detection: `"scan"` (the default, a certified scan:
#'   every reported commit range holds a real change beyond the tolerance
#'   with probability at least 1 - alpha, robust to serially correlated
#'   processes and to a slow drift of the machine: see `dependence` and
#'   `step` in [series_changes()], passed through `...`), `"pelt"` or
#'   `"edivisive"` (see [series_changes()]), or a function with the
#'   arguments of [series_changes()] returning its data frame.
#' @param alpha The risk.
#' @param min_speedup The tolerance of the verdicts (1.01: changes within
#'   1 % are "negligible"), and the smallest step the scan certifies by
#'   default (`step = "beyond"`).
#' @param p_adjust The adjustment across series: `"holm"`, `"BH"` or
#'   `"none"`.
#' @param refresh `TRUE` analyses every selected series again.
#' @param ... Passed to the detection.
#' @return A data frame of class `speedup_history_changes`, one row per
#'   reported change: `change_id`, `benchmark`, `machine`, `branch`,
#'   `last_good` and `first_bad` (commit ids), `range_from` and `range_to`
#'   (the commits that bound the range that must hold the change),
#'   `pos_last_good`, `pos_first_bad`, `pos_from`, `pos_to` (their
#'   positions), `n_before`, `n_after` (processes either side), `ratio`
#'   (new / old time: above 1 is slower) with `conf_low` and `conf_high`,
#'   `p_value`, `p_adjusted`, `decision`, `method`, `state` (triage),
#'   `is_new` (first reported by this call) and `at_head` (the last change
#'   of its series: the branch's head is at its new level). Attributes:
#'   `alpha`, `p_adjust`, `analysed` (series analysed by this call),
#'   `series` (series in the adjustment) and `skipped`.
#' @seealso [history_add()], [history_triage()], [confirm_change()],
#'   [plot.speedup_history()]
#' @export
history_changes <- function(h, benchmark = NULL, machine = NULL, branch = NULL,
                            method = c("scan", "pelt", "edivisive"), alpha = 0.05,
                            min_speedup = 1.01, p_adjust = c("holm", "BH", "none"),
                            refresh = FALSE, ...) {
  check_history(h)
  alpha <- check_alpha(alpha)
  min_speedup <- check_min_speedup(min_speedup)
  p_adjust <- check_choice(p_adjust, c("holm", "BH", "none"), "p_adjust")
  refresh <- check_flag(refresh, "refresh")
  detect <- history_detector(method)
  dots <- list(...)
  settings <- list(method = detect$name, code = detect$code, alpha = alpha, min_speedup = min_speedup,
                   p_adjust = p_adjust, dots = dots)
  key <- history_settings_key(settings)
  if (!identical(history_setting(h, "analysis"), key)) {
    # another analysis: every series is analysed again when selected
    history_exec(h, "UPDATE series SET dirty = 1")
  }
  started <- history_now()
  d <- history_values(h, benchmark, machine, branch, dirty = !refresh)
  # the rows come ordered by series and position: a series (segment) is a
  # run of rows with the same benchmark, machine, branch and segment
  n <- nrow(d)
  brk <- if (n) c(TRUE, d$benchmark_id[-1L] != d$benchmark_id[-n] |
                    d$machine_id[-1L] != d$machine_id[-n] | d$branch[-1L] != d$branch[-n] |
                    d$segment[-1L] != d$segment[-n]) else logical()
  sid <- cumsum(brk)
  series <- split(seq_len(n), sid)
  # the scan certifies each series' ranges at alpha / m, m the series
  # (segments) in the adjustment after this analysis: see the header
  if (detect$name == "scan" && p_adjust != "none" && is.null(dots$level) && n) {
    first <- which(brk)
    mine <- unique(paste(d$benchmark_id, d$machine_id, d$branch)[first])
    an <- history_query(h, paste("SELECT benchmark_id, machine_id, branch, segments",
                                 "FROM series WHERE analysed_at IS NOT NULL"))
    other <- !(paste(an$benchmark_id, an$machine_id, an$branch) %in% mine)
    m <- sum(as.double(an$segments[other]), na.rm = TRUE) + length(series)
    dots$level <- alpha / max(1, m)
  }
  results <- history_map_series(d, series, detect, alpha, min_speedup, dots)
  first_row <- vapply(series, `[`, 1L, 1L)
  # the series (all their segments) and whether one of their segments failed
  whole <- paste(d$benchmark_id[first_row], d$machine_id[first_row], d$branch[first_row])
  failed_seg <- vapply(results, inherits, TRUE, "error")
  failed <- tapply(failed_seg, whole, any)
  segments <- tapply(failed_seg, whole, length)
  done <- d[first_row[!duplicated(whole)], c("benchmark_id", "machine_id", "branch")]
  dk <- paste(done$benchmark_id, done$machine_id, done$branch)
  ok <- !failed[dk]
  skipped <- vapply(which(failed_seg), function(i) {
    r <- first_row[i]
    sprintf("benchmark \"%s\" on machine \"%s\", branch \"%s\": %s",
            safe_text(d$benchmark[r]), safe_text(d$machine[r]), safe_text(d$branch[r]),
            conditionMessage(results[[i]]))
  }, "")
  history_transaction(h, function() {
    if (any(ok)) {
      # the stored changes of the series analysed again are retired, then
      # those found again are made active under their id
      history_exec(h, paste("UPDATE changes SET active = 0",
                            "WHERE benchmark_id = ? AND machine_id = ? AND branch = ?"),
                   list(done$benchmark_id[ok], done$machine_id[ok], done$branch[ok]))
    }
    for (i in seq_along(series)) {
      r <- results[[i]]
      if (failed_seg[i] || !nrow(r) || !ok[match(whole[i], dk)]) next
      history_store_changes(h, d[first_row[i], ], r, started)
    }
    if (any(ok)) {
      history_exec(h, paste("UPDATE series SET dirty = 0, segments = ?, analysed_at = ?",
                            "WHERE benchmark_id = ? AND machine_id = ? AND branch = ?"),
                   list(as.integer(segments[dk[ok]]), rep(started, sum(ok)),
                        done$benchmark_id[ok], done$machine_id[ok], done$branch[ok]))
    }
    history_adjust(h, p_adjust)
    history_set_setting(h, "analysis", key)
  })
  for (s in skipped) warn(paste("series skipped:", s), class = "skipped")
  out <- history_reported(h, benchmark, machine, branch, alpha, started)
  attr(out, "p_adjust") <- p_adjust
  attr(out, "analysed") <- length(series)
  attr(out, "skipped") <- skipped
  out
}

# The detection: series_changes() with a method, or the user's function.
history_detector <- function(method) {
  if (is.function(method)) {
    # a function is known by its code: another function is another analysis
    code <- paste(deparse(method), collapse = "\n")
    return(list(name = "custom", code = code, fn = function(value, position, alpha, min_speedup, dots) {
      do.call(method, c(list(value, position, alpha = alpha, min_speedup = min_speedup), dots))
    }))
  }
  method <- check_choice(method, c("scan", "pelt", "edivisive"), "method")
  fn <- series_changes
  list(name = method, fn = function(value, position, alpha, min_speedup, dots) {
    do.call(fn, c(list(value, position, method = method, alpha = alpha,
                       min_speedup = min_speedup), dots))
  })
}

history_change_columns <- c("last_good", "first_bad", "range_from", "range_to",
                            "n_before", "n_after", "ratio", "conf_low", "conf_high",
                            "p_value", "decision", "method")

# Runs the detection on every series; an error is kept as the series'
# result.  Under a future plan, chunks of series go to the workers.
history_map_series <- function(d, series, detect, alpha, min_speedup, dots) {
  one <- function(rows) {
    tryCatch({
      r <- detect$fn(d$value[rows], d$position[rows], alpha, min_speedup, dots)
      if (!is.data.frame(r) || !all(history_change_columns %in% names(r))) {
        stop("the detection did not return the columns of series_changes()")
      }
      r[history_change_columns]
    }, error = function(e) e)
  }
  if (!length(series)) return(list())
  # workers pay for themselves from some series on (the option
  # speeduptest.history_parallel_min, 100 by default: bench/history.R)
  min <- getOption("speeduptest.history_parallel_min", 100)
  if (!is.numeric(min) || length(min) != 1L || is.na(min)) min <- 100
  parallel <- length(series) >= max(2, min) &&
    requireNamespace("future.apply", quietly = TRUE) &&
    requireNamespace("future", quietly = TRUE) &&
    !inherits(future::plan(), "sequential")
  if (!parallel) return(lapply(series, one))
  # each worker gets its chunk's values only
  workers <- max(1L, future::nbrOfWorkers())
  chunk <- rep(seq_len(workers), length.out = length(series))
  chunk <- sort(chunk)
  parts <- lapply(split(seq_along(series), chunk), function(ix) {
    lapply(series[ix], function(rows) {
      list(value = d$value[rows], position = d$position[rows])
    })
  })
  res <- future.apply::future_lapply(
    parts, history_worker(detect$fn, alpha, min_speedup, dots), future.seed = TRUE)
  unlist(res, recursive = FALSE, use.names = FALSE)
}

# The function the workers run on their chunk of series, made here so
# that its environment holds only what it needs (not the whole history's
# values, which a plan would otherwise ship to every worker).
history_worker <- function(fn, alpha, min_speedup, dots) {
  force(fn)
  force(alpha)
  force(min_speedup)
  force(dots)
  cols <- history_change_columns
  function(part) {
    lapply(part, function(s) {
      tryCatch({
        r <- fn(s$value, s$position, alpha, min_speedup, dots)
        if (!is.data.frame(r) || !all(cols %in% names(r))) {
          stop("the detection did not return the columns of series_changes()")
        }
        r[cols]
      }, error = function(e) e)
    })
  }
}

# The changes `r` found along one series (`s`: its first row) stored:
# matched to the stored changes of the series by overlapping ranges.
history_store_changes <- function(h, s, r, now) {
  old <- history_query(h, paste(
    "SELECT change_id, range_from, range_to FROM changes",
    "WHERE benchmark_id = ? AND machine_id = ? AND branch = ? AND segment = ?"),
    list(s$benchmark_id, s$machine_id, s$branch, s$segment))
  used <- rep(FALSE, nrow(old))
  next_id <- history_next_id(h, "changes", "change_id")
  for (i in seq_len(nrow(r))) {
    c <- r[i, ]
    ov <- pmin(old$range_to, c$range_to) - pmax(old$range_from, c$range_from)
    # ranges are (from, to]: they overlap when they share a commit
    ov[used | ov <= 0] <- NA
    j <- if (all(is.na(ov))) NA_integer_ else which.max(ov)
    vals <- list(as.double(c$last_good), as.double(c$first_bad), as.double(c$range_from),
                 as.double(c$range_to), as.integer(c$n_before), as.integer(c$n_after),
                 as.double(c$ratio), as.double(c$conf_low), as.double(c$conf_high),
                 as.double(c$p_value), as.character(c$decision), as.character(c$method))
    if (!is.na(j)) {
      used[j] <- TRUE
      history_exec(h, paste(
        "UPDATE changes SET last_good = ?, first_bad = ?, range_from = ?, range_to = ?,",
        "n_before = ?, n_after = ?, ratio = ?, conf_low = ?, conf_high = ?, p_value = ?,",
        "decision = ?, method = ?, active = 1, last_seen = ? WHERE change_id = ?"),
        c(vals, list(now, old$change_id[j])))
    } else {
      history_exec(h, paste(
        "INSERT INTO changes (change_id, benchmark_id, machine_id, branch, segment,",
        "last_good, first_bad, range_from, range_to, n_before, n_after, ratio, conf_low,",
        "conf_high, p_value, decision, method, state, active, first_seen, last_seen)",
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)"),
        c(list(next_id, s$benchmark_id, s$machine_id, s$branch, s$segment), vals,
          list("new", now, now)))
      next_id <- next_id + 1L
    }
  }
}

# The adjusted p-values of every active change, over every analysed series
# (segment): see the header of this file.
history_adjust <- function(h, p_adjust) {
  m <- history_query(h, "SELECT SUM(segments) AS m FROM series WHERE analysed_at IS NOT NULL")$m
  m <- if (!length(m) || is.na(m)) 0 else as.double(m)
  ch <- history_query(h, paste(
    "SELECT change_id, benchmark_id, machine_id, branch, segment, p_value",
    "FROM changes WHERE active = 1"))
  # a method without p-values (PELT): its changes are reported unadjusted
  ch <- ch[!is.na(ch$p_value), , drop = FALSE]
  if (!nrow(ch)) return(invisible())
  unit <- paste(ch$benchmark_id, ch$machine_id, ch$branch, ch$segment)
  pu <- tapply(ch$p_value, unit, min)
  m <- max(m, length(pu))
  q <- stats::p.adjust(c(pu, rep(1, m - length(pu))), method = p_adjust)[seq_along(pu)]
  names(q) <- names(pu)
  ps <- pu[unit]
  qs <- q[unit]
  adj <- ifelse(ps > 0, pmin(1, ch$p_value * qs / ps), pmax(qs, ch$p_value))
  history_exec(h, "UPDATE changes SET p_adjusted = ? WHERE change_id = ?",
               list(as.double(adj), ch$change_id))
  invisible()
}

history_settings_key <- function(settings) {
  as.character(jsonlite::toJSON(settings, auto_unbox = TRUE, digits = NA, null = "null",
                                force = TRUE))
}

history_setting <- function(h, key) {
  v <- history_query(h, "SELECT value FROM settings WHERE key = ?", list(key))$value
  if (length(v)) v[[1L]] else NULL
}

history_set_setting <- function(h, key, value) {
  history_exec(h, "DELETE FROM settings WHERE key = ?", list(key))
  history_exec(h, "INSERT INTO settings (key, value) VALUES (?, ?)", list(key, value))
}

# The changes reported (active, adjusted p-value at most alpha) in the
# series selected, with the commits at their positions.
history_reported <- function(h, benchmark, machine, branch, alpha, now = NULL) {
  f <- history_filter(benchmark, machine, branch,
                      prefix = c(b = "b.name", m = "m.name", c = "x.branch"))
  where <- c("x.active = 1", "(x.p_adjusted <= ? OR x.p_value IS NULL)", f$where)
  sql <- paste(
    "SELECT x.change_id, b.name AS benchmark, m.name AS machine, x.machine_id, x.branch,",
    "x.segment,",
    "x.last_good AS pos_last_good, x.first_bad AS pos_first_bad,",
    "x.range_from AS pos_from, x.range_to AS pos_to, x.n_before, x.n_after,",
    "x.ratio, x.conf_low, x.conf_high, x.p_value, x.p_adjusted, x.decision, x.method,",
    "x.state, x.first_seen, x.note",
    "FROM changes x",
    "JOIN benchmarks b ON b.benchmark_id = x.benchmark_id",
    "JOIN machines m ON m.machine_id = x.machine_id",
    "WHERE", paste(where, collapse = " AND "),
    "ORDER BY b.name, m.name, x.branch, x.first_bad")
  d <- history_query(h, sql, c(list(alpha), f$params))
  for (nm in c("pos_last_good", "pos_first_bad", "pos_from", "pos_to")) {
    d[[nm]] <- as.double(d[[nm]])
  }
  d$n_before <- as.integer(d$n_before)
  d$n_after <- as.integer(d$n_after)
  d$change_id <- as.integer(d$change_id)
  sha <- function(pos) history_commit_at(h, d$branch, pos)
  d$last_good <- sha(d$pos_last_good)
  d$first_bad <- sha(d$pos_first_bad)
  d$range_from <- sha(d$pos_from)
  d$range_to <- sha(d$pos_to)
  d$is_new <- if (is.null(now)) rep(FALSE, nrow(d)) else d$first_seen == now
  # at the head: the last change of its series, in the segment the
  # branch's last commit is in
  key <- paste(d$benchmark, d$machine, d$branch, d$segment, sep = "\r")
  last <- if (nrow(d)) stats::ave(d$pos_first_bad, key, FUN = max) else numeric()
  head_seg <- integer(nrow(d))
  for (b in unique(d$branch)) {
    top <- as.double(history_query(h, "SELECT MAX(position) AS p FROM commits WHERE branch = ?",
                                   list(b))$p)
    i <- d$branch == b
    head_seg[i] <- history_segment(h, d$machine_id[i], d$branch[i], rep(top, sum(i)))
  }
  d$at_head <- d$pos_first_bad == last & d$segment == head_seg
  cols <- c("change_id", "benchmark", "machine", "branch", "last_good", "first_bad",
            "range_from", "range_to", "pos_last_good", "pos_first_bad", "pos_from",
            "pos_to", "n_before", "n_after", "ratio", "conf_low", "conf_high", "p_value",
            "p_adjusted", "decision", "method", "state", "is_new", "at_head", "note")
  out <- d[cols]
  rownames(out) <- NULL
  n_series <- history_query(h, "SELECT SUM(segments) AS m FROM series WHERE analysed_at IS NOT NULL")$m
  structure(out, class = c("speedup_history_changes", "data.frame"), alpha = alpha,
            series = as.integer(if (length(n_series) && !is.na(n_series)) n_series else 0L))
}

# The commit ids at positions of branches (NA where none is stored).
history_commit_at <- function(h, branch, position) {
  if (!length(position)) return(character())
  out <- rep(NA_character_, length(position))
  for (b in unique(branch)) {
    cm <- history_query(h, "SELECT sha, position FROM commits WHERE branch = ?", list(b))
    i <- branch == b
    out[i] <- cm$sha[match(position[i], as.double(cm$position))]
  }
  out
}
