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
#' @param ... Options of the method: for `"pelt"`, `cost` (`"mean"`, the
#'   default: changes in the mean of the log times, in units of their noise
#'   estimated from successive differences; or `"meanvar"`), `penalty`
#'   (`"MBIC"`, the default, or a number, the manual penalty) and `minseg`
#'   (the fewest processes in a segment, 2), as [pelt_changepoints()]; for
#'   `"edivisive"`, `sig_level` (the level of each permutation test,
#'   `alpha` by default), `R` (199 permutations), `min_size` (the fewest
#'   processes in a segment, 30) and `seed` (of the permutations), as
#'   [edivisive_changepoints()]; for `"scan"`, `dependence`: `"auto"`
#'   (the default: the processes' serial dependence is estimated, and
#'   whitened when it is significant), `"independent"` (none: the
#'   guarantee is exact for independent processes) or `"ar1"` (always
#'   whitened), and `step`: `"beyond"` (the default: a window certifies a
#'   step beyond the tolerance `min_speedup`, which a slow drift of the
#'   machine within the tolerance cannot give) or `"any"` (any change);
#'   see Details. `dependence = "independent", step = "any"` is the exact
#'   scan of the paper. `level` (`alpha` by default, at most `alpha`) is
#'   the scan's own risk, when it must be smaller than the figures' `alpha`:
#'   [history_changes()] scans each of `m` series at `alpha / m`, so that its
#'   ranges are certified at the level the adjustment across the series
#'   gives it.
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
#'     rank-sum test that certified the range (at most `alpha`): the
#'     smallest over a series (1 when it reports none) is a p-value of
#'     "no change in this series", for Holm or BH across series;
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
#' stays exact).
#'
#' **Serial dependence and drift.** The exact guarantee assumes
#' independent processes. Two departures are common in a history, and the
#' defaults account for both:
#' * the noise of the processes is serially correlated in run order (a
#'   machine's state persists from one process to the next). With
#'   `dependence = "auto"` the AR(1) coefficient `phi` of the log times'
#'   noise is estimated from the lag-one autocorrelation of their
#'   successive differences (robust to a few steps: for AR(1) noise it is
#'   `-(1 - phi) / 2`, and about `-1 / 2` under independence, with
#'   standard error `sqrt(2 / n)`); when it is more than two standard
#'   errors above 0 the log times are whitened (each less `phi` times the
#'   previous one, the first put on the same level, Prais-Winsten) and the
#'   scan runs on these residuals (`"ar1"` always whitens). A step of size
#'   `delta` stays a step of size `(1 - phi) delta` of the residuals.
#' * the machine drifts slowly (the level of the commits wanders by a
#'   fraction of a percent over tens of commits). A drift is not a step,
#'   but the rank-sum test of two long windows sees its difference of
#'   levels as one. With `step = "beyond"` each window's test is a test of
#'   the hypothesis "its halves' levels differ by at most the tolerance"
#'   (`min_speedup`, 1 % by default; `(1 - phi)` times it on whitened
#'   residuals): the exact rank-sum test of one half against the other
#'   shifted by the tolerance, in the direction the halves' means point to,
#'   its p-value doubled. Under independence a window without a change
#'   (or with a change within the tolerance) rejects with probability at
#'   most its level, so every reported range holds a change beyond the
#'   tolerance with probability at least `1 - alpha` (with the estimated
#'   `phi`, approximately); a drift smaller than the tolerance is not
#'   reported, a larger one is (its range holds the commits over which
#'   the level moved).
#'
#' On simulated histories (`bench/changes.R`: 200 commits x 3 processes,
#' 1 % noise) the defaults report a change in at most 2 of 500 A/A series
#' with independent noise, AR(1) noise up to `phi = 0.7` or a drift of
#' 0.3-0.5 % (the exact scan of any change: 5 % of them, and up to 100 %
#' under dependence or drift), and find a 3 % step with a range that holds
#' it in 100 % of the series (98 % under AR(1) noise with `phi = 0.5`).
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
                           method = c("scan", "pelt", "edivisive"),
                           alpha = 0.05, min_speedup = 1.01, ...) {
  method <- check_choice(method, c("scan", "pelt", "edivisive"), "method")
  s <- check_series(value, position)
  alpha <- check_between(alpha, "alpha", 0, 0.5)
  s0 <- check_min_speedup(min_speedup)
  found <- switch(method,
    scan = scan_series(s, alpha, s0, ...),
    pelt = pelt_series(s, ...),
    edivisive = edivisive_series(s, alpha, ...))
  change_frame(s, found, alpha, s0, method)
}

# The changes of the scan: list(first_bad, from, to, p_value), commits
# 0-based; `from` the last commit before the certified range, `to` its
# last.  The scan runs on the log times (on the values themselves when
# neither whitened nor shifted: the ranks are the same), whitened by the
# AR(1) estimate with "ar1" (and with "auto" when it is significant), and
# with step = "beyond" each window tests a shift beyond log(s0) (times
# 1 - phi on whitened log times, where a step of size delta is one of
# (1 - phi) delta after its first commit).
scan_series <- function(s, alpha, s0, dependence = c("auto", "independent", "ar1"),
                        step = c("beyond", "any"), level = alpha, ...) {
  check_dots_empty(..., .fn = "series_changes(method = \"scan\")",
                   .formals = c("value", "position", "method", "alpha",
                                "min_speedup", "dependence", "step", "level"))
  dependence <- check_choice(dependence, c("auto", "independent", "ar1"), "dependence")
  step <- check_choice(step, c("beyond", "any"), "step")
  level <- check_between(level, "level", 0, alpha, upper_ok = TRUE)
  x <- s$value
  phi <- 0
  if (dependence != "independent") {
    est <- ar1_estimate(log(x))
    # "auto" whitens when the estimate is two standard errors above 0
    if (dependence == "ar1" || est$phi > 2 * est$se) phi <- est$phi
  }
  margin <- if (step == "beyond") (1 - phi) * log(s0) else 0
  if (phi > 0) {
    x <- ar1_whiten(log(x), phi)
  } else if (margin > 0) {
    x <- log(x)
  }
  res <- .Call(ffi_scan_changes, x, s$start, level, margin)
  check_status(res, "series_changes()")
  list(first_bad = res$first_bad, from = res$from, to = res$to - 1,
       p_value = res$p_value)
}

# The AR(1) coefficient phi of the noise of the log times x in run order,
# estimated from the successive differences d (for AR(1) noise,
# cor(d_t, d_{t-1}) = -(1 - phi) / 2), winsorised at 4 MADs so that a few
# steps do not count; phi in [0, 0.95].  Its standard error under
# independence: the lag-one autocorrelation of the differences (an MA(1)
# with coefficient -1) has variance (1 - 3 r^2 + 4 r^4) / n = 0.5 / n
# (Bartlett), so phi = 1 + 2 r has sqrt(2 / n).
ar1_estimate <- function(x) {
  n <- length(x)
  se <- sqrt(2 / max(1, n - 1))
  if (n < 4L) return(list(phi = 0, se = se))
  d <- diff(x)
  m <- stats::median(d)
  sd <- stats::mad(d)
  if (!(sd > 0)) return(list(phi = 0, se = se))
  d <- pmin(pmax(d, m - 4 * sd), m + 4 * sd)
  d <- d - mean(d)
  r <- sum(d[-1L] * d[-length(d)]) / sum(d^2)
  list(phi = min(0.95, max(0, 1 + 2 * r)), se = se)
}

# The log times x less phi times the previous one (phi: ar1_estimate()
# when not given); the first, which has no previous one, is put on the
# same level and spread (Prais-Winsten, around the median).
ar1_whiten <- function(x, phi = ar1_estimate(x)$phi) {
  n <- length(x)
  if (n < 2L || !(phi > 0)) return(x)
  mu <- stats::median(x)
  c((1 - phi) * mu + sqrt(1 - phi^2) * (x[1L] - mu), x[-1L] - phi * x[-n])
}

# The changes of PELT on the log times in commit order: its change points
# (the last value of a segment) moved to the nearest commit boundary.
pelt_series <- function(s, cost = c("mean", "meanvar"), penalty = "MBIC",
                        minseg = 2L, ...) {
  check_dots_empty(..., .fn = "series_changes(method = \"pelt\")",
                   .formals = c("value", "position", "method", "alpha",
                                "min_speedup", "cost", "penalty", "minseg"))
  cost <- check_choice(cost, c("mean", "meanvar"), "cost")
  x <- log(s$value)
  if (cost == "mean") {
    # the "mean" cost has variance 1: the log times in units of their
    # noise, estimated from successive differences (robust to the changes)
    sd <- stats::mad(diff(x)) / sqrt(2)
    if (!is.finite(sd) || sd <= 0) sd <- stats::sd(x)
    if (is.finite(sd) && sd > 0) x <- x / sd
  }
  cp <- pelt_changepoints(x, cost = cost, penalty = penalty, minseg = minseg)
  at_commits(s, cp, rep(NA_real_, length(cp)))
}

# The changes of E-divisive on the log times in commit order, at the
# commit boundaries nearest to its splits.
edivisive_series <- function(s, alpha, sig_level = alpha, R = 199,
                             min_size = 30, seed = 1, ...) {
  check_dots_empty(..., .fn = "series_changes(method = \"edivisive\")",
                   .formals = c("value", "position", "method", "alpha",
                                "min_speedup", "sig_level", "R", "min_size",
                                "seed"))
  x <- log(s$value)
  res <- edivisive_changepoints(x, sig_level = sig_level, R = R,
                                min_size = min_size, seed = seed)
  at_commits(s, res$order_found - 1, res$p_values)
}

# Changes found between values (cp: the number of values before each) as
# first bad commits (0-based): each moved to the nearest commit boundary
# (the earlier one on a tie), duplicates and the ends dropped.
at_commits <- function(s, cp, p_value) {
  start <- s$start
  k <- length(start) - 1L
  c_of <- findInterval(cp, start, left.open = TRUE)   # commit of value cp
  lo <- start[pmax(c_of, 1L)]
  hi <- start[pmin(c_of + 1L, k + 1L)]
  fb <- ifelse(cp - lo <= hi - cp, c_of - 1L, c_of)
  keep <- fb >= 1L & fb <= k - 1L & !duplicated(fb)
  fb <- fb[keep]
  p_value <- p_value[keep]
  o <- order(fb)
  list(first_bad = fb[o], from = fb[o] - 1, to = fb[o], p_value = p_value[o])
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
