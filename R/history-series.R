# Reading the series of a history (one benchmark, one machine, one branch,
# split by the annotations), annotations and the triage of changes.

# `col IN (?, ?, ...)` for the values `v` (one placeholder each), or NULL
# when `v` is NULL.
history_in <- function(col, v) {
  if (is.null(v)) return(NULL)
  sprintf("%s IN (%s)", col, paste(rep("?", length(v)), collapse = ", "))
}

# The conditions and parameters that select series by names.
history_filter <- function(benchmark = NULL, machine = NULL, branch = NULL,
                           prefix = c(b = "b.name", m = "m.name", c = "c.branch")) {
  benchmark <- if (is.null(benchmark)) NULL else check_strings(benchmark, "benchmark")
  machine <- if (is.null(machine)) NULL else check_strings(machine, "machine")
  branch <- if (is.null(branch)) NULL else check_strings(branch, "branch")
  where <- c(history_in(prefix[["b"]], benchmark), history_in(prefix[["m"]], machine),
             history_in(prefix[["c"]], branch))
  list(where = where, params = c(as.list(benchmark), as.list(machine), as.list(branch)))
}

# The per-process values of the series selected (all by default; `dirty`:
# only those to analyse again), with the series' names and the segment of
# each commit (the number of annotations of its machine and branch at or
# before its position).
history_values <- function(h, benchmark = NULL, machine = NULL, branch = NULL,
                           dirty = FALSE) {
  f <- history_filter(benchmark, machine, branch)
  where <- c(f$where, if (dirty) "r.dirty = 1")
  # the rows carry numbers only, unordered: the names, commits and branches
  # are matched from their tables afterwards, and the rows ordered here (a
  # radix sort: SQLite's sort of the joined rows took two thirds of the
  # read, bench/history.R)
  # with `dirty`, the series table first (CROSS JOIN keeps SQLite's loops
  # in this order), so that only the dirty series' rows are read, through
  # the index of summaries on (benchmark_id, machine_id, commit_id)
  sql <- paste(
    "SELECT s.benchmark_id, s.machine_id, s.commit_id, s.process_id, s.value",
    if (dirty) "FROM series r CROSS JOIN summaries s" else "FROM summaries s",
    "JOIN commits c ON c.commit_id = s.commit_id",
    if (!is.null(benchmark)) "JOIN benchmarks b ON b.benchmark_id = s.benchmark_id",
    if (!is.null(machine)) "JOIN machines m ON m.machine_id = s.machine_id",
    if (dirty) paste("AND r.benchmark_id = s.benchmark_id",
                     "AND r.machine_id = s.machine_id AND r.branch = c.branch"),
    if (length(where)) paste("WHERE", paste(where, collapse = " AND ")))
  d <- history_query(h, sql, if (length(f$params)) f$params)
  cm <- history_query(h, "SELECT commit_id, branch, position, sha FROM commits")
  bm <- history_query(h, "SELECT benchmark_id, name FROM benchmarks")
  mm <- history_query(h, "SELECT machine_id, name FROM machines")
  ic <- match(as.double(d$commit_id), as.double(cm$commit_id))
  out <- data.frame(
    benchmark_id = d$benchmark_id, machine_id = d$machine_id,
    branch = as.character(cm$branch[ic]), position = as.double(cm$position[ic]),
    sha = as.character(cm$sha[ic]), value = as.double(d$value),
    benchmark = as.character(bm$name[match(as.double(d$benchmark_id),
                                           as.double(bm$benchmark_id))]),
    machine = as.character(mm$name[match(as.double(d$machine_id), as.double(mm$machine_id))]),
    stringsAsFactors = FALSE)
  o <- order(as.double(out$benchmark_id), as.double(out$machine_id), out$branch,
             out$position, as.double(d$process_id), method = "radix")
  out <- out[o, , drop = FALSE]
  rownames(out) <- NULL
  out$segment <- history_segment(h, out$machine_id, out$branch, out$position)
  out
}

# The segment of each (machine, branch, position): how many annotations of
# that machine (on that branch, or on every branch) are at or before it.
history_segment <- function(h, machine_id, branch, position) {
  a <- history_query(h, "SELECT machine_id, branch, position FROM annotations")
  seg <- integer(length(position))
  for (i in seq_len(nrow(a))) {
    hit <- machine_id == a$machine_id[i] & position >= a$position[i] &
      (is.na(a$branch[i]) | branch == a$branch[i])
    seg <- seg + hit
  }
  seg
}

#' Annotate a history: a change of the machine that splits its series
#'
#' Records that the machine changed (new hardware, a new kernel, another
#' configuration) at a commit: its series are split there, and no change is
#' looked for across the split. [history_add()] adds one by itself when the
#' fingerprint measure() records for a machine changes.
#'
#' @param h A history, from [history_open()].
#' @param machine The machine's name.
#' @param commit The first commit measured on the changed machine (its id),
#'   or `NULL` with `position`.
#' @param branch The branch of `commit`; `NULL` with `position` splits the
#'   machine's series on every branch.
#' @param position The position in first-parent order instead of `commit`.
#' @param note Words saying what changed.
#' @return The id of the annotation, invisibly.
#' @export
history_annotate <- function(h, machine, commit = NULL, branch = "main", position = NULL,
                             note = "") {
  check_history(h)
  machine <- check_string(machine, "machine", empty_ok = FALSE)
  note <- check_string(note, "note")
  mid <- history_query(h, "SELECT machine_id FROM machines WHERE name = ?", list(machine))
  if (!nrow(mid)) {
    abort(sprintf("`machine`: the history has no machine named \"%s\".", safe_text(machine)))
  }
  if (!is.null(commit)) {
    commit <- check_string(commit, "commit", empty_ok = FALSE)
    branch <- check_string(branch, "branch", empty_ok = FALSE)
    pos <- history_query(h, "SELECT position FROM commits WHERE branch = ? AND sha = ?",
                         list(branch, commit))
    if (!nrow(pos)) {
      abort(sprintf("`commit`: the history has no commit %s on branch \"%s\".",
                    safe_text(commit), safe_text(branch)))
    }
    position <- pos$position[1L]
  } else {
    position <- check_whole(position, "position", min = -1e15, max = 1e15)
    if (!is.null(branch)) branch <- check_string(branch, "branch", empty_ok = FALSE)
  }
  id <- history_transaction(h, function() {
    history_annotation_insert(h, mid$machine_id[1L], branch %||% NA_character_,
                              position, note)
  })
  invisible(id)
}

history_annotation_insert <- function(h, machine_id, branch, position, note) {
  id <- history_next_id(h, "annotations", "annotation_id")
  history_append(h, "annotations", data.frame(
    annotation_id = id, machine_id = machine_id, branch = branch, position = position,
    note = note, at = history_now(), stringsAsFactors = FALSE))
  # the machine's series are analysed again
  if (is.na(branch)) {
    history_exec(h, "UPDATE series SET dirty = 1 WHERE machine_id = ?", list(machine_id))
  } else {
    history_exec(h, "UPDATE series SET dirty = 1 WHERE machine_id = ? AND branch = ?",
                 list(machine_id, branch))
  }
  id
}

# The triage states of a change (SPEC section 12).
triage_states <- c("new", "confirmed", "acknowledged", "false alarm", "expected")

#' The triage of a change
#'
#' Sets the triage state of changes found by [history_changes()]: `"new"`
#' (as found), `"confirmed"` (a re-measurement saw it, see
#' [confirm_change()]), `"acknowledged"` (known, being worked on), `"false
#' alarm"` or `"expected"` (a change that was meant). A change keeps its id
#' and its state across later analyses. `history_changes(fail_on)` and
#' `speeduptest history changes --fail-on regression` ignore changes that
#' are acknowledged, false alarms or expected.
#'
#' @param h A history, from [history_open()].
#' @param change The change's id(s) (`change_id` of [history_changes()]).
#' @param state One of the states above.
#' @param note Words kept with the change.
#' @return `h`, invisibly.
#' @export
history_triage <- function(h, change, state, note = NULL) {
  check_history(h)
  change <- check_wholes(change, "change", min = 1, max = 1e15)
  state <- check_choice(state, triage_states, "state")
  if (!is.null(note)) note <- check_string(note, "note")
  have <- history_query(h, paste("SELECT change_id FROM changes WHERE",
                                 history_in("change_id", change)), as.list(change))
  missing <- setdiff(change, have$change_id)
  if (length(missing)) {
    abort(sprintf("`change`: the history has no change %s.",
                  paste(format(missing), collapse = ", ")))
  }
  history_transaction(h, function() {
    if (is.null(note)) {
      history_exec(h, "UPDATE changes SET state = ? WHERE change_id = ?",
                   list(rep(state, length(change)), change))
    } else {
      history_exec(h, "UPDATE changes SET state = ?, note = ? WHERE change_id = ?",
                   list(rep(state, length(change)), rep(note, length(change)), change))
    }
  })
  invisible(h)
}
