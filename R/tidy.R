# tidy() and glance() (the generics package's generics, which broom
# re-exports) for verdicts, suites and HPT results: plain data frames with
# broom's column names.

#' @importFrom generics tidy glance
#' @export
generics::tidy

#' @export
generics::glance

# The data frames returned carry the class "speeduptest_tidy" (still data
# frames) so that R Markdown shows them with readable p-values.
tidy_frame <- function(df) {
  class(df) <- c("speeduptest_tidy", "data.frame")
  df
}

# NULL -> NA of the right type
or_na <- function(x, na = NA) if (is.null(x) || !length(x)) na else x

#' Tidy data frames of the results
#'
#' `tidy()` and `glance()` methods, on the generics of the generics package
#' (the ones broom re-exports), so that `broom::tidy(verdict)` works.  They
#' return plain data frames with broom's column names (`estimate`,
#' `conf.low`, `conf.high`, `p.value`, `statistic`, `method`,
#' `alternative`); the numbers are kept as numbers, unrounded.
#'
#' * A verdict ([mean_test()], [median_test()]): `tidy()` gives one row, the
#'   speedup (`term`): the interval's own `estimate` (inside `conf.low`,
#'   `conf.high`; `estimator` names it), the interval's level (`1 - 2
#'   alpha`) and method (`conf.method`), the `observed` ratio of the centres,
#'   the `decision` in words, the statistic of the final test (`method`) and
#'   the p-value the decision rests on (the mirrored test's for a slowdown,
#'   with `alternative = "less"`); with `steps = TRUE`, one row per sub-test
#'   the flowchart ran instead.  `glance()` gives one row: the `decision` in
#'   words, the `direction` ("speedup", "slowdown", "none", "equivalent",
#'   `NA`), `confidence`, whether it is `guaranteed`, the decision's
#'   `p.value`, the numbers of runs `n` and `m`, the tolerance
#'   `min_speedup`, the `detectable` speedup, and more.
#' * A suite ([speedup_suite()]): `tidy()` gives one row per benchmark for
#'   the protocol `which`, as for a verdict, with `p.value` the p-value of
#'   the decision (adjusted when the suite adjusts; `p.unadjusted` beside
#'   it); `glance()` one row with the overall gains and speedups and the
#'   proportions of accelerated benchmarks.
#' * An HPT ([hpt()]): `tidy()` gives the per-benchmark table (the winner by
#'   the machine's name); `glance()` one row with `R_A`, `R_B`, the
#'   `confidence` and the claim.  For [hpt_speedup()], `glance()` gives the
#'   r-Speedup.
#'
#' @param x A `speedup_verdict`, `speedup_suite`, `speeduptest_hpt` or
#'   `speeduptest_hpt_speedup`.
#' @param steps For a verdict: one row per sub-test instead of one row for
#'   the speedup.
#' @param which For a suite: the protocol, one the suite ran (see
#'   [speeduptest_protocols]); `NULL`: the median's when it ran.
#' @param ... Unused; must be empty.
#' @return A data frame.
#' @name tidy.speedup_verdict
#' @examples
#' set.seed(4)
#' v <- median_test(rlnorm(40, log(10), 0.1), rlnorm(40, log(9), 0.1))
#' tidy(v)
#' tidy(v, steps = TRUE)
#' glance(v)
#' tidy(hpt(splash2_hpt, higher_is_better = TRUE))
NULL

# What a tidy row estimates: the speedup with its interval, or, for a
# protocol whose interval is of another quantity (the probability
# protocol: P[X > Y]), that quantity with its own interval, named as the
# descriptor names it.
tidy_interval_of <- function(iv, q_est, q_ci, s_est, s_ci, term, method,
                             estimator) {
  if (is.null(iv$column)) {
    return(list(term = term, estimate = s_est, ci = s_ci, method = method,
                estimator = estimator))
  }
  if (is.null(q_ci) || length(q_ci) < 2L) q_ci <- c(NA_real_, NA_real_)
  list(term = iv$of, estimate = or_na(q_est, NA_real_), ci = q_ci,
       method = iv$of_method, estimator = iv$of_estimator)
}

#' @rdname tidy.speedup_verdict
#' @method tidy speedup_verdict
#' @export
tidy.speedup_verdict <- function(x, steps = FALSE, ...) {
  check_object(x, "x")
  check_dots_empty(...)
  steps <- check_flag(steps, "steps")
  v <- x
  if (steps) return(tidy_verdict_steps(v))
  fin <- verdict_final_step(v)
  ci <- v$speedup_ci
  lev <- or_na(attr(ci, "conf.level"), NA_real_)
  slow <- v$direction %in% "slowdown"
  if (!is.null(fin) && !is.null(v$min_speedup) && v$min_speedup != 1) {
    # the final test was made against the tolerance (see ?tolerance)
    fin$method <- sprintf("%s of x against %s y", fin$method, format(v$min_speedup))
    fin$statistic <- NA_real_
  }
  est <- tidy_interval_of(protocol_info(v$test)$interval, v$prob_greater,
                          v$prob_ci, or_na(attr(ci, "estimate"), NA_real_), ci,
                          protocol_info(v$test)$what,
                          or_na(attr(ci, "method"), NA_character_),
                          or_na(attr(ci, "estimator"), NA_character_))
  tidy_frame(data.frame(
    term = est$term,
    estimate = est$estimate,
    conf.low = est$ci[1L],
    conf.high = est$ci[2L],
    conf.level = lev,
    conf.method = est$method,
    estimator = est$estimator,
    observed = v$speedup,
    decision = v$decision,
    statistic = if (is.null(fin)) NA_real_ else unname(or_na(fin$statistic, NA_real_)),
    p.value = decision_p(v$direction, v$p_value, v$p_value_slowdown),
    method = if (is.null(fin)) NA_character_ else fin$method,
    alternative = if (is.null(fin)) NA_character_ else if (slow) "less"
                  else or_na(fin$alternative, NA_character_),
    stringsAsFactors = FALSE
  ))
}

tidy_verdict_steps <- function(v) {
  st <- v$steps
  if (!length(st)) {
    return(tidy_frame(data.frame(step = character(), method = character(),
                      data = character(), statistic = double(),
                      p.value = double(), passed = logical(),
                      stringsAsFactors = FALSE)))
  }
  num <- function(s, what) {
    val <- s[[what]]
    if (is.null(val) || !length(val)) NA_real_ else unname(val[[1L]])
  }
  p <- vapply(st, num, 0, what = "p.value")
  tidy_frame(data.frame(
    step = names(st),
    method = vapply(st, function(s) or_na(s$method, NA_character_), ""),
    data = vapply(st, function(s) or_na(s$data.name, NA_character_), ""),
    statistic = vapply(st, num, 0, what = "statistic"),
    p.value = p,
    # the check passed (normal, equal variances, location model) or the
    # final test was significant: p > alpha for the checks, p <= alpha for
    # the tests
    passed = ifelse(names(st) %in% c("t_test", "wilcoxon"),
                    p <= v$alpha, p > v$alpha),
    row.names = NULL,
    stringsAsFactors = FALSE
  ))
}

#' @rdname tidy.speedup_verdict
#' @method glance speedup_verdict
#' @export
glance.speedup_verdict <- function(x, ...) {
  check_object(x, "x")
  check_dots_empty(...)
  v <- x
  ro <- v$run_order
  tidy_frame(data.frame(
    test = v$test,
    decision = v$decision,
    direction = as.character(or_na(v$direction, NA_character_)),
    confidence = v$confidence,
    guaranteed = v$confidence_guaranteed,
    p.value = decision_p(v$direction, v$p_value, v$p_value_slowdown),
    speedup = v$speedup,
    n = v$n,
    m = v$m,
    rigorous = v$rigorous,
    run_order_flagged = if (is.null(ro)) NA else isTRUE(ro$trend),
    min_speedup = or_na(v$min_speedup, 1),
    detectable = or_na(v$detectable, NA_real_),
    caveats = length(v$caveats),
    stringsAsFactors = FALSE
  ))
}

#' @rdname tidy.speedup_verdict
#' @method tidy speedup_suite
#' @export
tidy.speedup_suite <- function(x, which = NULL, ...) {
  check_object(x, "x")
  check_dots_empty(...)
  which <- check_suite_protocol(which, x)
  bm <- nan_to_na(x$benchmarks)
  col <- function(name) bm[[paste0(which, "_", name)]]
  dirn <- col("direction")
  adj <- !identical(or_na(x$p_adjust, "none"), "none")
  pd <- decision_p(dirn, col("p_value"), col("p_value_slowdown"))
  pa <- decision_p(dirn, or_na(col("p_adjusted"), col("p_value")),
                   or_na(col("p_adjusted_slowdown"), col("p_value_slowdown")))
  na <- rep(NA_real_, nrow(bm))
  iv <- protocol_info(which)$interval
  pcol <- function(suffix) or_na(bm[[paste0(iv$column, suffix)]], na)
  est <- tidy_interval_of(iv, pcol(""), cbind(pcol("_low"), pcol("_high")),
                          or_na(col("ci_estimate"), na),
                          cbind(col("ci_low"), col("ci_high")),
                          protocol_info(which)$what, interval_method(which),
                          interval_estimator(which))
  tidy_frame(data.frame(
    benchmark = bm$benchmark,
    term = rep(est$term, nrow(bm)),
    estimate = est$estimate,
    conf.low = est$ci[, 1L],
    conf.high = est$ci[, 2L],
    conf.level = or_na(col("ci_level"), na),
    conf.method = rep(est$method, nrow(bm)),
    estimator = rep(est$estimator, nrow(bm)),
    observed = bm[[paste0("speedup_", protocol_info(which)$centre)]],
    # the p-value of the decision: the adjusted one when the suite adjusts
    p.value = if (adj) pa else pd,
    p.unadjusted = pd,
    decision = col("decision"),
    direction = if (is.null(dirn)) rep(NA_character_, nrow(bm)) else as.character(dirn),
    guaranteed = col("guaranteed"),
    n = bm$n,
    m = bm$m,
    stringsAsFactors = FALSE
  ))
}

#' @rdname tidy.speedup_verdict
#' @method glance speedup_suite
#' @export
glance.speedup_suite <- function(x, ...) {
  check_object(x, "x")
  check_dots_empty(...)
  ov <- nan_to_na(x$overall)
  pr <- nan_to_na(x$proportion)
  get <- function(tab, key, val, col) {
    i <- match(val, tab[[key]])
    if (is.na(i)) NA_real_ else tab[[col]][i]
  }
  out <- tidy_frame(data.frame(
    benchmarks = nrow(x$benchmarks),
    skipped = sum(x$problems$severity == "error"),
    weights = x$weights,
    stringsAsFactors = FALSE
  ))
  for (cen in c("min", "mean", "median")) {
    out[[paste0("gain_", cen)]] <- get(ov, "centre", cen, "gain")
    out[[paste0("speedup_", cen)]] <- get(ov, "centre", cen, "speedup")
  }
  protos <- suite_protocols(x)
  for (p in protos) {
    out[[paste0("accelerated_", p)]] <- get(pr, "protocol", p, "a")
    out[[paste0("proportion_", p)]] <- get(pr, "protocol", p, "estimate")
    out[[paste0("proportion_", p, "_low")]] <- get(pr, "protocol", p, "conf_low")
    out[[paste0("proportion_", p, "_high")]] <- get(pr, "protocol", p, "conf_high")
  }
  out$proportion_conf.level <- pr$conf_level[1L]
  sl <- pr$slowdowns
  for (i in seq_along(protos)) {
    out[[paste0("slowdowns_", protos[i])]] <- if (is.null(sl)) NA_real_ else sl[i]
  }
  out$p_adjust <- or_na(x$p_adjust, NA_character_)
  out
}

#' @rdname tidy.speedup_verdict
#' @method tidy speeduptest_hpt
#' @export
tidy.speeduptest_hpt <- function(x, ...) {
  check_object(x, "x")
  check_dots_empty(...)
  bm <- x$benchmarks
  lab <- x$labels
  tidy_frame(data.frame(
    benchmark = bm$benchmark,
    median_a = bm$median_a,
    median_b = bm$median_b,
    winner = ifelse(bm$winner == "A", lab[1L],
                    ifelse(bm$winner == "B", lab[2L], "tie")),
    d = bm$d,
    rank = bm$rank,
    p.value_a = bm$p_a,
    p.value_b = bm$p_b,
    runs_a = bm$runs_a,
    runs_b = bm$runs_b,
    stringsAsFactors = FALSE
  ))
}

#' @rdname tidy.speedup_verdict
#' @method glance speeduptest_hpt
#' @export
glance.speeduptest_hpt <- function(x, ...) {
  check_object(x, "x")
  check_dots_empty(...)
  tidy_frame(data.frame(
    machine_a = x$labels[1L],
    machine_b = x$labels[2L],
    speedup = x$speedup,
    R_A = x$R_A,
    R_B = x$R_B,
    confidence = x$confidence,
    p.value = x$p_value,
    conf.level = x$conf_level,
    concluded = !is.na(x$confidence) && x$confidence >= x$conf_level,
    benchmarks = x$n,
    alpha_bench = x$alpha_bench,
    method = "Hierarchical Performance Test (Chen et al. 2012)",
    stringsAsFactors = FALSE
  ))
}

#' @rdname tidy.speedup_verdict
#' @method glance speeduptest_hpt_speedup
#' @export
glance.speeduptest_hpt_speedup <- function(x, ...) {
  check_dots_empty(...)
  tidy_frame(data.frame(
    machine_a = x$labels[1L],
    machine_b = x$labels[2L],
    r_speedup = x$speedup,
    confidence = x$confidence,
    supremum = x$supremum,
    attained = x$attained,
    precision = x$precision,
    method = "Hierarchical Performance Test (Chen et al. 2012)",
    stringsAsFactors = FALSE
  ))
}
