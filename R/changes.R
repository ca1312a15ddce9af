# Change points along one series of a history (SPEC section 12): the
# certified scan (src/changes.c), PELT (src/pelt.c) and E-divisive
# (src/edivisive.c), each giving the first bad commits, then the figures
# of each change from the processes either side of it.

#' Change points along one series of a history
#'
#' Finds where the times of one benchmark changed along the commits of a
#' branch, using the processes as the unit (SPEC section 12).  This is the
#' analysis `history_changes()` runs on each series (benchmark x machine x
#' branch); it is exported to analyse a series held outside a history.
#'
#' @param value Per-process values: positive times in seconds, the median
#'   time of each process over its steady iterations.
#' @param position The commit position (first-parent order) of each value:
#'   whole numbers, several values per position for several processes of
#'   that commit; positions need not be contiguous.
#' @param method `"scan"` (the default, with a finite-sample guarantee),
#'   `"pelt"` or `"edivisive"`.
#' @param alpha The risk: for `"scan"`, the probability that any reported
#'   range holds no real change; the level of the ratio's interval
#'   (`1 - 2 alpha`) and of the decisions for all methods.  Below 0.5.
#' @param min_speedup The tolerance `s0 >= 1` of the decisions: a change
#'   smaller than this factor either way is "negligible" (see
#'   [tolerance]).
#' @param ... Options of the method: for `"pelt"`, `cost` (`"meanvar"`,
#'   the default, or `"mean"`), `penalty` (`"MBIC"`, the default, or a
#'   number, the manual penalty) and `min_seg` (the fewest commits
#'   between changes, 2 by default); for `"edivisive"`, `sig_level` (the
#'   level of each permutation test, `alpha` by default), `R` (199
#'   permutations), `min_size` (the fewest processes in a segment, 30 by
#'   default, as [ecp::e.divisive()]) and `seed` (of the permutations).
#'
#' @return A data frame with one row per change, ordered along the series
#'   (zero rows, the same columns, when there is none):
#'   * `last_good`, `first_bad`: the positions of the last commit measured
#'     before the change and of the first measured after it (the change
#'     came in at a commit in `(last_good, first_bad]`);
#'   * `range_from`, `range_to`: the change came in at a commit in
#'     `(range_from, range_to]`.  For `"scan"` this is the certified
#'     range: with probability at least `1 - alpha` every reported range
#'     holds a change.  For the other methods it is `(last_good,
#'     first_bad]`, without a guarantee;
#'   * `n_before`, `n_after`: the processes either side used for the
#'     ratio, from the previous change (or the start) to the next change
#'     (or the end);
#'   * `ratio`: new time / old time (above 1: slower), exp of the
#'     Hodges-Lehmann shift of the log times, with `conf_low`,
#'     `conf_high` its two-sided `1 - 2 alpha` interval (each end a
#'     one-sided `1 - alpha` bound, as the median protocol's);
#'   * `p_value`: `"scan"`: the Bonferroni-adjusted p-value of the
#'     rank-sum test that certified the range (at most `alpha`);
#'     `"edivisive"`: the permutation test's; `"pelt"`: `NA` (a penalised
#'     fit has none);
#'   * `decision`: the tolerance rules of the median protocol on the
#'     processes either side: `"regression beyond 1 %"`, `"improvement
#'     beyond 1 %"`, `"negligible within 1 %"` (both one-sided tests of
#'     equivalence rejected at `alpha`) or `"undecided"`;
#'   * `method`.
#'
#' @details
#' **The scan** is the Lean Bonferroni changepoint detection of Jang and
#' Walther (2024): windows of commits at every scale (2, 3, 4, ... commits
#' up to the whole series, on a sparse grid), each split at its middle and
#' tested with the exact two-sided Wilcoxon-Mann-Whitney rank-sum test of
#' the processes of its two halves (exact with ties); the tests' levels are
#' a weighted Bonferroni split of `alpha` (each scale's share falls as
#' `1 / scale`, shared by its windows).  A window without a change inside
#' holds exchangeable processes, so its test is exact, and with
#' probability at least `1 - alpha` no such window rejects.  The reported
#' changes are a largest set of disjoint rejected ranges; each estimate
#' (`last_good`, `first_bad`) is the split of its window with the largest
#' standardised rank sum.  A window's half of more than 128 processes is
#' tested on 128 of them evenly spaced along the commits (the exact test
#' stays exact).  The guarantee assumes independent processes: processes
#' of one commit that share a build (a commit-level effect) or a drift of
#' the machine make rejections likelier than `alpha` (see `bench/`).
#'
#' **PELT** (Killick, Fearnhead and Eckley 2012) fits a piecewise normal
#' model (changes in the mean, or the mean and variance) to the log times
#' in commit order with the MBIC or a manual penalty; a change found
#' between two processes of one commit moves to the nearest commit
#' boundary.  **E-divisive** (Matteson and James 2014) splits the log
#' times by the energy distance and keeps a split when its permutation
#' test (permuting within segments) rejects at `sig_level`.  Neither has
#' a guarantee across the series.
#'
#' The ratio, its interval and the decision come from the data either side
#' of the estimate, which the method chose from the same data: they
#' describe the change found rather than test it afresh.
#'
#' @references
#' Jang, J. and Walther, G. (2024). Fast and optimal changepoint detection
#' and localization using Bonferroni triplets. arXiv:2410.14866.
#'
#' Killick, R., Fearnhead, P. and Eckley, I. A. (2012). Optimal detection
#' of changepoints with a linear computational cost. *Journal of the
#' American Statistical Association*, 107(500), 1590-1598.
#'
#' Matteson, D. S. and James, N. A. (2014). A nonparametric approach for
#' multiple change point analysis of multivariate data. *Journal of the
#' American Statistical Association*, 109(505), 334-345.
#' @seealso [tolerance]
#' @examples
#' set.seed(1)
#' position <- rep(1:120, each = 3)          # 120 commits, 3 processes each
#' value <- 2 * exp(rnorm(360, sd = 0.01))   # 1 % between processes
#' value[position > 80] <- value[position > 80] * 1.03   # 3 % slower at 81
#' series_changes(value, position)
#' @export
series_changes <- function(value, position,
                           method = c("scan"),
                           alpha = 0.05, min_speedup = 1.01, ...) {
  method <- check_choice(method, c("scan"), "method")
  s <- check_series(value, position)
  alpha <- check_between(alpha, "alpha", 0, 0.5)
  s0 <- check_min_speedup(min_speedup)
  found <- switch(method,
    scan = scan_series(s, alpha, ...))
  change_frame(s, found, alpha, s0, method)
}

# The changes of the scan: list(first_bad, from, to, p_value), commits
# 0-based; `from` the last commit before the certified range, `to` its
# last.
scan_series <- function(s, alpha, ...) {
  check_dots_empty(..., .fn = "series_changes(method = \"scan\")",
                   .formals = c("value", "position", "method", "alpha",
                                "min_speedup"))
  res <- .Call(ffi_scan_changes, s$value, s$start, alpha)
  check_status(res, "series_changes()")
  list(first_bad = res$first_bad, from = res$from, to = res$to - 1,
       p_value = res$p_value)
}

# The figures of the changes found and the data frame of series_changes().
change_frame <- function(s, found, alpha, s0, method) {
  fb <- found$first_bad
  fig <- .Call(ffi_change_figures, s$value, s$start, as.double(fb), alpha, s0)
  check_status(fig, "series_changes()")
  p <- cbind(fig$p_speedup, fig$p_slowdown, fig$p_not_faster,
             fig$p_not_slower)
  direction <- vapply(seq_along(fb), function(i) {
    tolerance_direction(p[i, ], alpha, s0)
  }, "")
  pos <- s$position
  data.frame(
    last_good = pos[fb], first_bad = pos[fb + 1],
    range_from = pos[found$from + 1], range_to = pos[found$to + 1],
    n_before = as.integer(fig$n_before), n_after = as.integer(fig$n_after),
    ratio = fig$ratio, conf_low = fig$conf_low, conf_high = fig$conf_high,
    p_value = as.double(found$p_value),
    decision = change_words(direction, s0),
    method = rep(method, length(fb)),
    stringsAsFactors = FALSE
  )
}
