# format(), print() and as.data.frame() of the results of the history:
# the changes of history_changes(), a confirmation, a bisection.  Names
# from the store are shown byte-safe and cut to fit 80 columns.

# A name cut to `n` characters (with "..." when cut).
history_cut <- function(x, n) {
  x <- safe_text(as.character(x))
  long <- !is.na(x) & nchar(x, allowNA = TRUE) > n
  x[long] <- paste0(substr(x[long], 1L, n - 3L), "...")
  x
}

# A commit id as shown: its first 10 characters.
history_short <- function(x) history_cut(ifelse(is.na(x), "?", x), 12L)

history_ratio_text <- function(r, lo, hi) {
  pct <- function(v) sprintf("%+.1f %%", 100 * (v - 1))
  sprintf("%s [%s, %s]", pct(r), pct(lo), pct(hi))
}

history_p_text <- function(p) ifelse(is.na(p), "NA", format(signif(p, 2), scientific = 3))

#' @export
format.speedup_history_changes <- function(x, ...) {
  alpha <- attr(x, "alpha") %||% NA_real_
  adj <- attr(x, "p_adjust") %||% "holm"
  adj_words <- switch(adj, holm = "Holm across series", BH = "Benjamini-Hochberg across series",
                      "no adjustment across series")
  head <- sprintf("%d change(s) in %d series (alpha %s, %s)", nrow(x),
                  as.integer(attr(x, "series") %||% 0L), format(alpha), adj_words)
  if (!nrow(x)) return(head)
  lines <- head
  for (i in seq_len(nrow(x))) {
    r <- x[i, ]
    lines <- c(lines, "",
      sprintf("#%d %s  [%s, %s]", r$change_id, history_cut(r$benchmark, 40L),
              history_cut(r$machine, 14L), history_cut(r$branch, 14L)),
      sprintf("   %s -> %s (range %s..%s), %d | %d processes",
              history_short(r$last_good), history_short(r$first_bad),
              history_short(r$range_from), history_short(r$range_to),
              r$n_before, r$n_after),
      sprintf("   time %s: %s",
              history_ratio_text(r$ratio, r$conf_low, r$conf_high),
              history_cut(r$decision, 30L)),
      sprintf("   p = %s (adjusted %s); %s%s%s", history_p_text(r$p_value),
              history_p_text(r$p_adjusted), r$state,
              if (isTRUE(r$is_new)) ", first reported now" else "",
              if (isTRUE(r$at_head)) ", at the head" else ""))
  }
  skipped <- attr(x, "skipped")
  if (length(skipped)) {
    lines <- c(lines, "", sprintf("%d series skipped:", length(skipped)),
               paste0("  ", history_cut(skipped, 76L)))
  }
  lines
}

#' @export
print.speedup_history_changes <- function(x, ...) {
  cat(format(x, ...), sep = "\n")
  invisible(x)
}

#' @export
as.data.frame.speedup_history_changes <- function(x, row.names = NULL, optional = FALSE, ...) {
  attr(x, "alpha") <- NULL
  attr(x, "series") <- NULL
  attr(x, "p_adjust") <- NULL
  attr(x, "analysed") <- NULL
  attr(x, "skipped") <- NULL
  class(x) <- "data.frame"
  x
}

#' @export
format.speedup_history_confirmation <- function(x, ...) {
  c(sprintf("Confirmation of change #%d (%s): %s", x$change_id,
            history_cut(x$benchmark, 30L), x$outcome),
    sprintf("  %s (last good) against %s (first bad), %d runs of each, interleaved",
            history_short(x$last_good), history_short(x$first_bad), x$runs),
    sprintf("  time %s; sequential decision: %s",
            history_ratio_text(x$ratio, x$conf_low, x$conf_high),
            if (x$decision %in% c("speedup", "slowdown")) x$decision else "none"))
}

#' @export
print.speedup_history_confirmation <- function(x, ...) {
  cat(format(x, ...), sep = "\n")
  invisible(x)
}

#' @export
as.data.frame.speedup_history_confirmation <- function(x, row.names = NULL,
                                                      optional = FALSE, ...) {
  data.frame(change_id = x$change_id, benchmark = x$benchmark, last_good = x$last_good,
             first_bad = x$first_bad, outcome = x$outcome, ratio = x$ratio,
             conf_low = x$conf_low, conf_high = x$conf_high, runs = x$runs,
             stringsAsFactors = FALSE)
}

#' @export
format.speedup_history_bisection <- function(x, ...) {
  head <- sprintf("Bisection of change #%d (%s) over %d commits: %s", x$change_id,
                  history_cut(x$benchmark, 24L), x$commits,
                  if (x$narrowed) "found" else "stopped undecided")
  lines <- c(head,
    sprintf("  last good %s, first bad %s", history_short(x$last_good),
            history_short(x$first_bad)),
    sprintf("  %d step(s) of at most %d, each at level %s (alpha %s / %d, Bonferroni)",
            nrow(x$steps), x$max_steps, format(signif(x$level, 3)), format(x$alpha),
            x$max_steps))
  for (i in seq_len(nrow(x$steps))) {
    s <- x$steps[i, ]
    lines <- c(lines, sprintf("  %d. %s against %s: %s (%s), time %s", i,
                              history_short(s$commit), history_short(s$against),
                              s$outcome, s$side,
                              history_ratio_text(s$ratio, s$conf_low, s$conf_high)))
  }
  lines
}

#' @export
print.speedup_history_bisection <- function(x, ...) {
  cat(format(x, ...), sep = "\n")
  invisible(x)
}

#' @export
as.data.frame.speedup_history_bisection <- function(x, row.names = NULL, optional = FALSE,
                                                   ...) {
  x$steps
}
