# confirm_change() and bisect_change(): a suspect change measured again,
# the last good commit against the first bad, interleaved and paired by
# round with measure(), sequentially until decided (SPEC section 12); and
# a noisy binary search over the commits of a change's range whose total
# risk stays at alpha.

#' Confirm a change by measuring again
#'
#' Re-measures the last good and the first bad commit of a change found by
#' [history_changes()] with [measure()]: interleaved rounds (so that each
#' round pairs one run of each commit), sequentially until the protocol
#' decides (`.until = "decided"`, at most `max_runs` runs of each, the risk
#' kept at `alpha` over the looks). The outcome is recorded in the history:
#' * `"different"`: a speedup or a slowdown was declared; a change that is
#'   still `"new"` and went the way it was found becomes `"confirmed"`;
#' * `"same"`: no difference was declared and the paired test of all the
#'   runs places the two commits within the tolerance `min_speedup` of each
#'   other (two one-sided tests at `alpha`; see [tolerance]);
#' * `"undecided"`: neither.
#'
#' How to build and run a commit is the user's: `run` is a command template
#' where `{commit}` stands for the commit's id and `{benchmark}` for the
#' benchmark's name (e.g. `"make -C build/{commit} bench"`, or
#' `"./run.sh {commit} {benchmark}"`), or an R function of the commit id
#' (and, if it has a second argument, the benchmark) returning the command.
#' Ids and names that hold anything but letters, digits and `._/+-` are
#' quoted for the shell when put in a template.
#'
#' @param h A history, from [history_open()].
#' @param change A change: its id (`change_id` of [history_changes()]) or a
#'   row of [history_changes()].
#' @param run A command template or a function (see Details).
#' @param alpha The risk.
#' @param min_speedup The tolerance of `"same"` (1.01: within 1 %).
#' @param max_runs The most runs of each commit.
#' @param test The protocol: `"median"` or `"mean"`.
#' @param progress Show the progress of the runs.
#' @param ... Passed to [measure()] (`.warmup`, `.timeout`, `.setup`, ...).
#' @return An object of class `speedup_history_confirmation`: a list with
#'   `change_id`, `outcome`, `ratio` (first bad / last good time: above 1 is
#'   slower), `conf_low`, `conf_high`, `runs`, the commands, the verdict
#'   and the timings.
#' @seealso [bisect_change()], [history_triage()]
#' @export
confirm_change <- function(h, change, run, alpha = 0.05, min_speedup = 1.01,
                           max_runs = 100L, test = c("median", "mean"),
                           progress = interactive(), ...) {
  check_history(h)
  ch <- history_change_row(h, change)
  alpha <- check_alpha(alpha)
  min_speedup <- check_min_speedup(min_speedup)
  test <- check_choice(test, c("median", "mean"), "test")
  max_runs <- as.integer(check_whole(max_runs, "max_runs", min = 10, max = 1e6))
  progress <- check_flag(progress, "progress")
  cmd <- history_run_commands(run, c(ch$last_good, ch$first_bad), ch$benchmark)
  res <- history_compare_commits(cmd, ch$benchmark, alpha, min_speedup, max_runs, test,
                                 progress, ...)
  direction <- if (ch$ratio > 1) "slowdown" else "speedup"
  history_transaction(h, function() {
    history_record_confirmation(h, ch$change_id, "confirm", res,
                                list(commands = unname(cmd), decision = res$decision))
    if (res$outcome == "different" && identical(res$decision, direction) &&
        identical(ch$state, "new")) {
      history_exec(h, "UPDATE changes SET state = ? WHERE change_id = ?",
                   list("confirmed", ch$change_id))
    }
  })
  structure(c(list(change_id = ch$change_id, benchmark = ch$benchmark,
                   last_good = ch$last_good, first_bad = ch$first_bad,
                   commands = cmd), res),
            class = "speedup_history_confirmation")
}

#' Find the commit that brought a change by a noisy binary search
#'
#' Narrows the commit range of a change to two adjacent commits. The
#' commits between the last good and the first bad are those of the
#' history on the change's branch, or `commits` (the ids in first-parent
#' order from the last good to the first bad, e.g. from `git rev-list
#' --first-parent --reverse GOOD^..BAD`, when the history holds only some).
#' Each step measures the middle commit against the last good one with
#' [measure()] (interleaved, sequential until decided): different (in the
#' change's direction) moves the first bad commit to the middle, the same
#' within the tolerance moves the last good commit there, undecided stops
#' the search with the range narrowed so far.
#'
#' The total risk stays at `alpha`: a search over `n` commits takes at most
#' `K = ceiling(log2(n - 1))` steps, and each step decides at level
#' `alpha / K` (Bonferroni), so the probability that any step takes a wrong
#' turn (a difference declared where there is none, or "the same" where
#' the commits differ by more than the tolerance) is at most `alpha`.
#'
#' @inheritParams confirm_change
#' @param commits The commit ids of the range in order (see Details), or
#'   `NULL` for those of the history.
#' @return An object of class `speedup_history_bisection`: a list with
#'   `change_id`, `last_good` and `first_bad` (the narrowed range),
#'   `steps` (a data frame: the commit measured, its outcome, ratio and
#'   interval, the level), `alpha` and `level` (the level of each step).
#' @seealso [confirm_change()]
#' @export
bisect_change <- function(h, change, run, commits = NULL, alpha = 0.05,
                          min_speedup = 1.01, max_runs = 100L,
                          test = c("median", "mean"), progress = interactive(), ...) {
  check_history(h)
  ch <- history_change_row(h, change)
  alpha <- check_alpha(alpha)
  min_speedup <- check_min_speedup(min_speedup)
  test <- check_choice(test, c("median", "mean"), "test")
  max_runs <- as.integer(check_whole(max_runs, "max_runs", min = 10, max = 1e6))
  progress <- check_flag(progress, "progress")
  if (is.null(commits)) {
    cm <- history_query(h, paste(
      "SELECT sha, position FROM commits WHERE branch = ? AND position >= ? AND position <= ?",
      "ORDER BY position"), list(ch$branch, ch$pos_last_good, ch$pos_first_bad))
    commits <- cm$sha
  } else {
    commits <- check_strings(commits, "commits")
    if (length(commits) < 2L || commits[1L] != ch$last_good ||
        commits[length(commits)] != ch$first_bad) {
      abort(sprintf("`commits` must run from the last good commit %s to the first bad %s.",
                    safe_text(ch$last_good), safe_text(ch$first_bad)))
    }
  }
  n <- length(commits)
  K <- max(1L, as.integer(ceiling(log2(max(2, n - 1)))))
  level <- alpha / K
  direction <- if (ch$ratio > 1) "slowdown" else "speedup"
  lo <- 1L
  hi <- n
  steps <- list()
  while (hi - lo > 1L) {
    mid <- (lo + hi) %/% 2L
    cmd <- history_run_commands(run, commits[c(lo, mid)], ch$benchmark)
    res <- history_compare_commits(cmd, ch$benchmark, level, min_speedup, max_runs, test,
                                   progress, ...)
    went <- if (res$outcome == "different" && identical(res$decision, direction)) "bad" else
      if (res$outcome == "same") "good" else "undecided"
    steps[[length(steps) + 1L]] <- data.frame(
      commit = commits[mid], against = commits[lo], outcome = res$outcome, side = went,
      ratio = res$ratio, conf_low = res$conf_low, conf_high = res$conf_high,
      runs = res$runs, level = level, stringsAsFactors = FALSE)
    if (went == "bad") hi <- mid else if (went == "good") lo <- mid else break
  }
  steps <- if (length(steps)) do.call(rbind, steps) else
    data.frame(commit = character(), against = character(), outcome = character(),
               side = character(), ratio = numeric(), conf_low = numeric(),
               conf_high = numeric(), runs = integer(), level = numeric())
  out <- list(change_id = ch$change_id, benchmark = ch$benchmark, last_good = commits[lo],
              first_bad = commits[hi], commits = length(commits), narrowed = hi - lo == 1L,
              steps = steps, alpha = alpha, level = level, max_steps = K)
  history_transaction(h, function() {
    history_record_confirmation(h, ch$change_id, "bisect", list(
      outcome = if (out$narrowed) "narrowed" else "undecided", ratio = NA_real_,
      conf_low = NA_real_, conf_high = NA_real_, runs = sum(steps$runs)),
      list(last_good = out$last_good, first_bad = out$first_bad, steps = steps,
           level = level))
  })
  structure(out, class = "speedup_history_bisection")
}

# The stored change `change` (an id or a row of history_changes()), with
# its benchmark, commits and state.
history_change_row <- function(h, change) {
  if (is.data.frame(change)) {
    if (nrow(change) != 1L || is.null(change$change_id)) {
      abort("`change` must be one row of history_changes() or a change id.")
    }
    change <- change$change_id
  }
  id <- check_whole(change, "change", min = 1, max = 1e15)
  d <- history_query(h, paste(
    "SELECT x.change_id, b.name AS benchmark, m.name AS machine, x.branch,",
    "x.last_good AS pos_last_good, x.first_bad AS pos_first_bad, x.ratio, x.state",
    "FROM changes x JOIN benchmarks b ON b.benchmark_id = x.benchmark_id",
    "JOIN machines m ON m.machine_id = x.machine_id WHERE x.change_id = ?"), list(id))
  if (!nrow(d)) abort(sprintf("`change`: the history has no change %s.", format(id)))
  d <- as.list(d)
  d$last_good <- history_commit_at(h, d$branch, as.double(d$pos_last_good))
  d$first_bad <- history_commit_at(h, d$branch, as.double(d$pos_first_bad))
  d
}

# The commands of the commits: the template filled in, or the function's
# answer.
history_run_commands <- function(run, commits, benchmark) {
  shell_word <- function(x) {
    if (grepl("^[A-Za-z0-9._/+-]+$", x)) x else shQuote(x)
  }
  cmd <- if (is.character(run)) {
    run <- check_string(run, "run", empty_ok = FALSE)
    if (!grepl("{commit}", run, fixed = TRUE)) {
      abort("`run` must hold {commit}, where the commit's id goes.")
    }
    vapply(commits, function(cm) {
      out <- gsub("{commit}", shell_word(cm), run, fixed = TRUE)
      gsub("{benchmark}", shell_word(benchmark), out, fixed = TRUE)
    }, "")
  } else if (is.function(run)) {
    two <- length(formals(run)) >= 2L || "..." %in% names(formals(run))
    vapply(commits, function(cm) {
      v <- if (two) run(cm, benchmark) else run(cm)
      if (!is.character(v) || length(v) != 1L || is.na(v) || !nzchar(v)) {
        abort(sprintf("`run` returned %s for commit %s, not a command.",
                      describe_value(v), safe_text(cm)))
      }
      v
    }, "")
  } else {
    abort(sprintf("`run` must be a command template or a function, not %s.",
                  describe_type(run)))
  }
  stats::setNames(unname(cmd), c("last_good", "first_bad"))
}

# The two commands measured against each other with measure(): interleaved,
# sequential until decided; then the paired analysis of all the rounds for
# the ratio, its interval and the equivalence.
history_compare_commits <- function(cmd, benchmark, alpha, min_speedup, max_runs, test,
                                    progress, ...) {
  t <- measure(cmd, .until = "decided", .max_runs = max_runs, .alpha = alpha,
               .test = test, .progress = progress, .name = benchmark, ...)
  decision <- attr(t, "sequential")$decision
  protocol <- if (test == "median") median_test else mean_test
  # the decision is the looks'; the ratio, its interval and the equivalence
  # from the paired analysis of all the rounds (not the sequential verdict
  # an analysis of the timings gives)
  fixed <- t
  attr(fixed, "sequential") <- NULL
  v <- suppressWarnings(protocol(fixed, alpha = alpha, min_speedup = min_speedup))
  a <- as.data.frame(v)
  outcome <- if (decision %in% c("speedup", "slowdown")) "different" else
    if (identical(a$direction, "equivalent")) "same" else "undecided"
  # the verdict's speedup is last good / first bad time: the ratio is its inverse
  list(outcome = outcome, decision = decision, ratio = 1 / a$speedup_estimate,
       conf_low = 1 / a$speedup_high, conf_high = 1 / a$speedup_low,
       runs = as.integer(nrow(t) / 2), verdict = v, timings = t)
}

history_record_confirmation <- function(h, change_id, kind, res, detail) {
  id <- history_next_id(h, "confirmations", "confirmation_id")
  history_append(h, "confirmations", data.frame(
    confirmation_id = id, change_id = change_id, kind = kind, outcome = res$outcome,
    ratio = as.double(res$ratio), conf_low = as.double(res$conf_low),
    conf_high = as.double(res$conf_high), runs = as.integer(res$runs),
    detail = as.character(jsonlite::toJSON(detail, auto_unbox = TRUE, digits = NA)),
    at = history_now(), stringsAsFactors = FALSE))
  id
}
