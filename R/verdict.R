# The speedup_verdict object returned by mean_test() and median_test(), and
# the methods that tell its story: print/format (a few lines), summary (every
# step of the flowchart), as.data.frame (one row) and plot.

# Codes shared with src/speeduptest.h (st_branch, ST_CAVEAT_*, st_step_kind).
verdict_branches <- c(
  "too_few_values", "constant_samples", "need_more_runs",
  "student_normal", "welch_normal", "student_not_normal", "welch_not_normal",
  "wilcoxon_model_holds", "wilcoxon_model_rejected"
)
verdict_step_names <- c("shapiro_x", "shapiro_y", "f_test", "t_test",
                        "ks_test", "wilcoxon")
caveat_bit <- c(x_not_normal = 1L, y_not_normal = 2L, x_few_runs = 4L,
                y_few_runs = 8L, no_location_model = 16L, constant = 32L,
                too_few_values = 64L, x_uncheckable = 128L,
                y_uncheckable = 256L)

has_bit <- function(flags, bit) bitwAnd(flags, caveat_bit[[bit]]) != 0L

na_if_nan <- function(v) {
  v[is.nan(v)] <- NA_real_
  v
}

#' Verdicts of the Speedup-Test protocols
#'
#' [mean_test()] and [median_test()] return a `speedup_verdict`; these
#' methods show it.  Every surface (print, summary, as.data.frame, tidy and
#' glance, knit_print, plot and autoplot, the command line) names the
#' decision in the same words: "significant speedup", "significant
#' slowdown", "no significant difference", "equivalent" or "insufficient
#' data" (the `decision` field and columns; `direction` holds "speedup",
#' "slowdown", "none", "equivalent" or `NA`; `significant` is `TRUE` for a
#' significant speedup only).  The p-value shown beside a decision is the
#' one it rests on: the mirrored test's for a slowdown.
#'
#' `print()` tells the story in a few lines of at most 80
#' columns: the decision, the confidence and whether it is guaranteed, the
#' speedup as the estimate of its interval beside the interval (two-sided at
#' `1 - 2 alpha`, each end a one-sided `1 - alpha` bound matching the
#' one-sided decisions; the printed interval is rounded outwards, so the
#' printed estimate always lies inside it), the observed ratio of the means
#' or medians on its own line when it differs,
#' P\[X > Y\] for the median, the initial code, the path through the
#' flowchart, the caveats and the advice.  `summary()` adds every sub-test
#' with its statistic, p-value and conclusion, and the route through the
#' flowchart in words; `as.data.frame()` gives one row (numbers unrounded,
#' `NA` where a value does not exist; `knitr::kable()` rounds it to
#' `getOption("digits")` decimals, so that a p-value below 5e-8 would show as
#' 0: in R Markdown, print the verdict or its `tidy()` table, which show
#' p-values by [format.pval()]); [plot()][plot.speedup_verdict] draws
#' the runs in their order and the interval; [tidy()][tidy.speedup_verdict]
#' and [glance()][tidy.speedup_verdict] give broom's tables.
#'
#' @param x,object A `speedup_verdict`.
#' @param digits Significant digits for speedups and p-values.
#' @param row.names,optional Ignored (for compatibility with the generic).
#' @param ... Ignored.
#' @return `format()` a character vector of lines; `print()` its argument,
#'   invisibly; `summary()` an object of class `summary.speedup_verdict`;
#'   `as.data.frame()` a one-row data frame with the columns `test`,
#'   `decision`, `significant`, `branch`, `p_value`, `alpha`, `confidence`,
#'   `confidence_guaranteed`, `speedup` (the observed ratio),
#'   `speedup_estimate` (the interval's own estimate), `speedup_low`,
#'   `speedup_high`, `interval_level`,
#'   `speedup_min`, `speedup_mean`, `speedup_median`, `prob_greater`, `n`,
#'   `m`, `rigorous` and `caveats` (the sentences joined by "; ").
#' @name speedup_verdict
#' @examples
#' set.seed(4)
#' v <- median_test(rlnorm(40, log(10), 0.1), rlnorm(40, log(9), 0.1))
#' print(v)
#' summary(v)
#' as.data.frame(v)
NULL

new_verdict <- function(res, test, x, y, alpha, rigorous, labels, data_name,
                        call, baseline = NULL, run_order = NULL) {
  outcome <- c("insufficient data", "not significant",
               "significant")[res$decision + 2L]
  steps <- Map(make_step, res$steps, verdict_step_names[res$step_kinds + 1L],
               MoreArgs = list(alpha = alpha, labels = labels,
                               welch = res$branch %in% c(4L, 6L)))
  names(steps) <- verdict_step_names[res$step_kinds + 1L]
  speedup_ci <- na_if_nan(res$speedup_ci)
  # the interval's own estimate: the ratio of the means (Fieller) or the
  # exponential of the Hodges-Lehmann shift of the log times
  ci_estimate <- na_if_nan(if (is.null(res$speedup_estimate)) NA_real_
                           else res$speedup_estimate)
  speedup_ci <- structure(speedup_ci, conf.level = interval_level(alpha),
                          method = interval_method(test),
                          estimate = ci_estimate,
                          estimator = interval_estimator(test))
  p_slow <- na_if_nan(res$p_value_slowdown)
  direction <- direction_from(outcome, p_slow, alpha)
  decision <- decision_words(direction)
  if (is.null(baseline)) baseline <- sprintf("`%s` (first argument)", labels[1L])
  if (is.null(run_order)) run_order <- run_order_check(x, y, labels)
  out <- list(
    test = test,
    significant = switch(outcome, "significant" = TRUE,
                         "not significant" = FALSE, NA),
    direction = direction,
    decision = decision,
    branch = verdict_branches[res$branch + 1L],
    p_value = na_if_nan(res$p_value),
    p_value_slowdown = p_slow,
    alpha = alpha,
    confidence = 1 - alpha,
    confidence_guaranteed = isTRUE(res$guaranteed) && !isTRUE(run_order$trend),
    speedup = na_if_nan(res$speedup),
    speedup_ci = speedup_ci,
    speedups = na_if_nan(c(min = res$speedup_min, mean = res$speedup_mean,
                           median = res$speedup_median)),
    steps = steps,
    caveat_flags = res$caveats,
    caveats = character(),
    advice = character(),
    n = length(x),
    m = length(y),
    rigorous = rigorous,
    labels = labels,
    baseline = baseline,
    run_order = run_order,
    data_name = data_name,
    call = call,
    x = x,
    y = y
  )
  if (test == "median") {
    out$prob_greater <- na_if_nan(res$prob_greater)
    out$shift <- na_if_nan(res$shift)
    out$shift_ci <- structure(na_if_nan(res$shift_ci), conf.level = 1 - alpha)
  }
  out[c("caveats", "advice")] <- verdict_sentences(out)
  structure(out, class = c(paste0("speedup_verdict_", test), "speedup_verdict"))
}

make_step <- function(res, kind, alpha, labels, welch) {
  lx <- labels[1L]
  ly <- labels[2L]
  not_run <- function(what) {
    why <- switch(as.character(res$status), "3" = "constant sample",
                  "2" = "more than 5000 values", "not computable")
    sprintf("%s (not run: %s)", what, why)
  }
  sw <- "Shapiro-Wilk normality test"
  switch(kind,
    shapiro_x = new_htest(res, if (res$status == 0L) sw else not_run(sw),
                          data_name = lx, statistic_name = "W"),
    shapiro_y = new_htest(res, if (res$status == 0L) sw else not_run(sw),
                          data_name = ly, statistic_name = "W"),
    f_test = new_htest(res, "F test to compare two variances",
                       data_name = paste(lx, "and", ly),
                       alternative = "two.sided", statistic_name = "F",
                       parameter_names = c("num df", "denom df"),
                       estimate_names = "ratio of variances",
                       null_value = c("ratio of variances" = 1),
                       conf_level = 1 - alpha),
    t_test = new_htest(res,
                       if (welch) "Welch Two Sample t-test" else "Two Sample t-test",
                       data_name = paste(lx, "and", ly),
                       alternative = "greater", statistic_name = "t",
                       parameter_names = "df",
                       estimate_names = c("mean of x", "mean of y"),
                       null_value = c("difference in means" = 0),
                       conf_level = 1 - alpha),
    ks_test = new_htest(res,
                        paste(if (isTRUE(res$exact)) "Exact" else "Asymptotic",
                              "two-sample Kolmogorov-Smirnov test on centred samples"),
                        data_name = sprintf("%s - median(%s) and %s - median(%s)",
                                            lx, lx, ly, ly),
                        alternative = "two-sided", statistic_name = "D"),
    wilcoxon = new_htest(res,
                         if (isTRUE(res$exact)) "Wilcoxon rank sum exact test"
                         else "Wilcoxon rank sum test with continuity correction",
                         data_name = paste(lx, "and", ly),
                         alternative = "greater", statistic_name = "W",
                         null_value = c("location shift" = 0))
  )
}

# ---- sentences ---------------------------------------------------------------

step_p <- function(v, name) {
  s <- v$steps[[name]]
  if (is.null(s)) NA_real_ else s$p.value
}

verdict_sentences <- function(v) {
  f <- v$caveat_flags
  lx <- v$labels[1L]
  ly <- v$labels[2L]
  caveats <- character()
  advice <- character()
  if (has_bit(f, "too_few_values")) {
    for (i in 1:2) {
      k <- c(v$n, v$m)[i]
      if (k < 3L) {
        caveats <- c(caveats, sprintf("%s has %d run time(s); the protocol needs at least 3",
                                      v$labels[i], k))
      }
    }
  }
  if (has_bit(f, "constant")) {
    caveats <- c(caveats, if (v$test == "mean" && v$branch == "constant_samples")
      "both samples are constant: there is no variability to test"
    else "the run times have no variability to test")
    advice <- c(advice, "check the timer resolution, or measure a longer workload")
  }
  for (i in 1:2) {
    lab <- v$labels[i]
    s <- c("x", "y")[i]
    if (has_bit(f, paste0(s, "_not_normal"))) {
      if (has_bit(f, paste0(s, "_uncheckable"))) {
        why <- if (c(v$n, v$m)[i] > 5000L) "more than 5000 runs" else "constant sample"
        caveats <- c(caveats, sprintf("%s cannot be checked for normality (%s)", lab, why))
      } else {
        caveats <- c(caveats, sprintf("%s is not shown normal (Shapiro-Wilk p = %s <= %s)",
                                      lab, fmt_p(step_p(v, paste0("shapiro_", s))),
                                      format(v$alpha)))
      }
    }
  }
  if (has_bit(f, "no_location_model")) {
    caveats <- c(caveats, sprintf(
      "%s and %s do not differ by a shift only (Kolmogorov-Smirnov p = %s <= %s on centred samples)",
      lx, ly, fmt_p(step_p(v, "ks_test")), format(v$alpha)))
  }
  ro <- run_order_sentences(v$run_order, v$labels)
  caveats <- c(caveats, ro$caveats)
  if (!is.na(v$significant) && !v$confidence_guaranteed) {
    caveats <- c(caveats, sprintf("%s may not be the correct confidence level",
                                  fmt_pct(v$confidence)))
  }
  few <- c(has_bit(f, "x_few_runs"), has_bit(f, "y_few_runs"))
  if (any(few)) {
    advice <- c(advice, sprintf("perform more than 30 runs of %s",
                                paste(v$labels[few], collapse = " and ")))
  }
  list(caveats, c(advice, ro$advice))
}

# print(), format(), summary() and as.data.frame(): R/verdict-print.R;
# plot(): R/verdict-plot.R.
