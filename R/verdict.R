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
#' methods show it.  `print()` tells the story in a few lines: the decision,
#' the confidence and whether it is guaranteed, the observed speedup with its
#' interval, P\[X > Y\] for the median, the path through the flowchart, the
#' caveats and the advice.  `summary()` adds every sub-test with its
#' statistic, p-value and conclusion; `as.data.frame()` gives one row;
#' `plot()` shows both samples (jittered) with their centres (the mean or the
#' median) as bars, the headline as title and the speedup line below it.
#'
#' @param x,object A `speedup_verdict`.
#' @param digits Significant digits for speedups and p-values.
#' @param row.names,optional Ignored (for compatibility with the generic).
#' @param ... Ignored, or passed to [graphics::stripchart()] by `plot()`.
#' @return `format()` a character vector of lines; `print()` its argument,
#'   invisibly; `summary()` an object of class `summary.speedup_verdict`;
#'   `as.data.frame()` a one-row data frame with the columns `test`,
#'   `decision`, `significant`, `branch`, `p_value`, `alpha`, `confidence`,
#'   `confidence_guaranteed`, `speedup`, `speedup_low`, `speedup_high`,
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
  decision <- c("insufficient data", "not significant",
                "significant")[res$decision + 2L]
  steps <- Map(make_step, res$steps, verdict_step_names[res$step_kinds + 1L],
               MoreArgs = list(alpha = alpha, labels = labels,
                               welch = res$branch %in% c(4L, 6L)))
  names(steps) <- verdict_step_names[res$step_kinds + 1L]
  ci_method <- if (test == "mean") "Fieller" else "Hodges-Lehmann on log times"
  speedup_ci <- na_if_nan(res$speedup_ci)
  speedup_ci <- structure(speedup_ci, conf.level = 1 - alpha,
                          method = ci_method)
  p_slow <- na_if_nan(res$p_value_slowdown)
  direction <- switch(decision, "significant" = "speedup",
    "not significant" = if (!is.na(p_slow) && p_slow <= alpha) "slowdown" else "none",
    NA_character_)
  if (is.null(baseline)) baseline <- sprintf("`%s` (first argument)", labels[1L])
  if (is.null(run_order)) run_order <- run_order_check(x, y, labels)
  out <- list(
    test = test,
    significant = switch(decision, "significant" = TRUE,
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

fmt_num <- function(v, digits = 3L) {
  out <- formatC(v, digits = digits, format = "fg", flag = "#")
  out <- sub("\\.$", "", trimws(out))
  out[is.na(v)] <- "NA"
  out[is.infinite(v)] <- ifelse(v[is.infinite(v)] > 0, "Inf", "-Inf")
  out
}

# Rounds outwards (lower end down, upper end up) so that the printed
# interval contains the computed one: a lower end of 0.9998 prints as 0.999,
# not as 1.00.
fmt_ci <- function(ci, digits = 3L) {
  out <- function(v, dir) {
    if (is.na(v) || !is.finite(v) || v == 0) return(fmt_num(v, digits))
    p <- 10^(floor(log10(abs(v))) - digits + 1L)
    fmt_num(dir(v / p) * p, digits)
  }
  sprintf("[%s, %s]", out(ci[1L], floor), out(ci[2L], ceiling))
}

fmt_p <- function(p, digits = 3L) {
  if (is.na(p)) return("NA")
  if (p == 0) return("0")
  if (p < 1e-4) return(format(signif(p, 2), scientific = TRUE))
  fmt_num(p, digits)
}

fmt_pct <- function(conf) paste0(format(100 * conf, digits = 6), "%")

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

verdict_headline <- function(v) {
  title <- sprintf("Speedup-Test (%s): ", v$test)
  conf <- fmt_pct(v$confidence)
  body <- switch(v$decision,
    "significant" = sprintf("significant speedup at %s confidence (%s)", conf,
                            if (v$confidence_guaranteed) "guaranteed" else "not guaranteed"),
    "not significant" = if (identical(v$direction, "slowdown"))
      sprintf("significant slowdown at %s confidence (%s)", conf,
              if (v$confidence_guaranteed) "guaranteed" else "not guaranteed")
    else sprintf("no significant speedup or slowdown at %s confidence", conf),
    sprintf("insufficient data to conclude at %s confidence", conf))
  paste0(title, body)
}

verdict_path <- function(v) {
  s <- v$steps
  a <- v$alpha
  parts <- character()
  if (v$test == "mean") {
    for (i in 1:2) {
      st <- s[[c("shapiro_x", "shapiro_y")[i]]]
      if (is.null(st)) next
      lab <- v$labels[i]
      parts <- c(parts, if (is.na(st$p.value)) sprintf("%s not checkable", lab)
                 else if (st$p.value > a) sprintf("%s normal (p = %s)", lab, fmt_p(st$p.value))
                 else sprintf("%s not normal (p = %s)", lab, fmt_p(st$p.value)))
    }
    if (!is.null(s$f_test)) {
      p <- s$f_test$p.value
      parts <- c(parts, sprintf("%s variances (F-test p = %s)",
                                if (!is.na(p) && p > a) "equal" else "unequal", fmt_p(p)))
    }
    path <- paste(parts, collapse = ", ")
    if (!is.null(s$t_test)) {
      welch <- v$branch %in% c("welch_normal", "welch_not_normal")
      path <- sprintf("%s -> %s t-test p = %s%s", path,
                      if (welch) "Welch" else "Student", fmt_p(s$t_test$p.value),
                      slowdown_p(v))
    }
  } else {
    if (is.null(s$ks_test)) return(character())
    p <- s$ks_test$p.value
    path <- sprintf("location model %s (Kolmogorov-Smirnov p = %s)",
                    if (!is.na(p) && p > a) "accepted" else "rejected", fmt_p(p))
    if (!is.null(s$wilcoxon)) {
      path <- sprintf("%s -> Wilcoxon-Mann-Whitney p = %s%s", path,
                      fmt_p(s$wilcoxon$p.value), slowdown_p(v))
    }
  }
  if (v$branch == "need_more_runs") path <- paste(path, "-> stop (rigorous mode)")
  path
}

# The mirrored test's p-value, shown in the path when it decided.
slowdown_p <- function(v) {
  if (identical(v$direction, "slowdown")) {
    sprintf(" (slowdown: p = %s)", fmt_p(v$p_value_slowdown))
  } else ""
}

# Lines of at most `width` characters, continuation lines indented.
wrap_lines <- function(lines, width = 79L, indent = 4L) {
  unlist(lapply(lines, function(l) {
    if (nchar(l) <= width) return(l)
    lead <- nchar(l) - nchar(sub("^ +", "", l))
    strwrap(l, width = width, indent = lead, exdent = lead + indent)
  }))
}

#' @rdname speedup_verdict
#' @export
format.speedup_verdict <- function(x, digits = 3L, ...) {
  v <- x
  lines <- verdict_headline(v)
  centre <- if (v$test == "mean") "mean" else "median"
  sp <- sprintf("  speedup of the %s: %s", centre, fmt_num(v$speedup, digits))
  ci <- v$speedup_ci
  if (!anyNA(ci)) {
    sp <- sprintf("%s, %s CI %s (%s)", sp, fmt_pct(v$confidence),
                  fmt_ci(ci, digits), attr(ci, "method"))
  }
  lines <- c(lines, sp)
  if (v$test == "median" && !is.na(v$prob_greater)) {
    lines <- c(lines, sprintf("  P[X > Y] = %s (chance that a run of %s is slower than a run of %s)",
                              fmt_num(v$prob_greater, digits), v$labels[1L], v$labels[2L]))
  }
  lines <- c(lines, sprintf("  observed speedups: min %s, mean %s, median %s",
                            fmt_num(v$speedups[["min"]], digits),
                            fmt_num(v$speedups[["mean"]], digits),
                            fmt_num(v$speedups[["median"]], digits)))
  lines <- c(lines, sprintf("  runs: %d of %s, %d of %s", v$n, v$labels[1L],
                            v$m, v$labels[2L]))
  if (!is.null(v$baseline)) lines <- c(lines, paste0("  initial code: ", v$baseline))
  path <- verdict_path(v)
  if (length(path) && nzchar(path)) lines <- c(lines, paste0("  path: ", path))
  if (length(v$caveats)) lines <- c(lines, paste0("  caveat: ", v$caveats))
  if (length(v$advice)) lines <- c(lines, paste0("  advice: ", v$advice))
  wrap_lines(lines)
}

#' @rdname speedup_verdict
#' @export
print.speedup_verdict <- function(x, digits = 3L, ...) {
  cat(format(x, digits = digits), sep = "\n")
  invisible(x)
}

#' @rdname speedup_verdict
#' @export
summary.speedup_verdict <- function(object, ...) {
  structure(list(verdict = object), class = "summary.speedup_verdict")
}

step_line <- function(step, name, alpha, labels, digits) {
  stat <- if (!is.null(step$statistic) && !is.na(step$statistic)) {
    sprintf("%s = %s", names(step$statistic), fmt_num(step$statistic, digits))
  }
  par <- if (!is.null(step$parameter) && !anyNA(step$parameter)) {
    pv <- step$parameter
    shown <- ifelse(pv == round(pv), format(round(pv)), fmt_num(pv, digits))
    paste(sprintf("%s = %s", names(pv), shown), collapse = ", ")
  }
  p <- step$p.value
  a <- format(alpha)
  outcome <- if (is.na(p)) {
    switch(name, shapiro_x = , shapiro_y = "not shown normal",
           f_test = "variances treated as unequal", "not computable")
  } else {
    pass <- p > alpha
    cmp <- if (pass) ">" else "<="
    what <- switch(name,
      shapiro_x = , shapiro_y = if (pass) "normal" else "not shown normal",
      f_test = if (pass) "equal variances" else "unequal variances",
      ks_test = if (pass) "location model holds" else "location model rejected",
      t_test = , wilcoxon = if (pass) "not significant" else "significant")
    sprintf("p-value = %s %s %s: %s", fmt_p(p, digits), cmp, a, what)
  }
  head <- sprintf("%s (%s)", step$method, step$data.name)
  detail <- paste(c(stat, par, outcome), collapse = ", ")
  c(head, paste0("     ", detail))
}

#' @rdname speedup_verdict
#' @export
print.summary.speedup_verdict <- function(x, digits = 3L, ...) {
  v <- x$verdict
  lines <- format(v, digits = digits)
  lines <- c(lines, "", sprintf("Steps (alpha = %s, rigorous = %s):", format(v$alpha),
                                v$rigorous))
  if (!length(v$steps)) lines <- c(lines, "  none: the protocol could not start")
  for (i in seq_along(v$steps)) {
    sl <- step_line(v$steps[[i]], names(v$steps)[i], v$alpha, v$labels, digits)
    lines <- c(lines, sprintf("  %d. %s", i, sl[1L]), sl[-1L])
  }
  if (v$test == "median" && !is.na(v$shift)) {
    lines <- c(lines, sprintf("Hodges-Lehmann shift %s - %s: %s, %s CI %s",
                              v$labels[1L], v$labels[2L], fmt_num(v$shift, digits),
                              fmt_pct(v$confidence), fmt_ci(v$shift_ci, digits)))
  }
  lines <- c(lines, sprintf("Branch: %s", v$branch))
  cat(wrap_lines(lines), sep = "\n")
  invisible(x)
}

#' @rdname speedup_verdict
#' @export
as.data.frame.speedup_verdict <- function(x, row.names = NULL, optional = FALSE,
                                          ...) {
  v <- x
  data.frame(
    test = v$test,
    decision = v$decision,
    significant = v$significant,
    direction = v$direction,
    branch = v$branch,
    p_value = v$p_value,
    p_value_slowdown = if (is.null(v$p_value_slowdown)) NA_real_ else v$p_value_slowdown,
    alpha = v$alpha,
    confidence = v$confidence,
    confidence_guaranteed = v$confidence_guaranteed,
    speedup = v$speedup,
    speedup_low = v$speedup_ci[1L],
    speedup_high = v$speedup_ci[2L],
    speedup_min = v$speedups[["min"]],
    speedup_mean = v$speedups[["mean"]],
    speedup_median = v$speedups[["median"]],
    prob_greater = if (is.null(v$prob_greater)) NA_real_ else v$prob_greater,
    n = v$n,
    m = v$m,
    rigorous = v$rigorous,
    run_order_flag = isTRUE(v$run_order$trend),
    baseline = if (is.null(v$baseline)) NA_character_ else v$baseline,
    caveats = paste(v$caveats, collapse = "; "),
    stringsAsFactors = FALSE
  )
}

#' @rdname speedup_verdict
#' @export
plot.speedup_verdict <- function(x, ...) {
  v <- x
  if (v$n + v$m == 0L) {
    abort("Nothing to plot: both samples are empty.", class = "data")
  }
  vals <- list(v$x, v$y)
  names(vals) <- v$labels
  centre <- if (v$test == "mean") mean else stats::median
  graphics::stripchart(vals, method = "jitter", vertical = TRUE, pch = 1,
                       ylab = "run time", main = verdict_headline(v),
                       cex.main = 0.9, ...)
  cen <- vapply(vals, function(s) if (length(s)) centre(s) else NA_real_, 0)
  graphics::segments(seq_along(cen) - 0.3, cen, seq_along(cen) + 0.3, cen,
                     lwd = 2)
  graphics::mtext(trimws(format(v)[2L]), side = 3, line = 0.3, cex = 0.8)
  invisible(x)
}
