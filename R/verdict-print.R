# print(), format(), summary() and as.data.frame() of a speedup_verdict:
# a few lines within 80 columns, each interval beside the name of its
# estimator.

# The speedup and its interval, each named: the interval's own estimate
# beside the interval (always inside it), then the observed ratio of the
# protocol's centre when it is another number:
#   speedup: 1.19 [1.09, 1.32] (Hodges-Lehmann estimate on log times; 90%
#       interval, each end a one-sided 95% bound)
#   observed ratio of the medians: 1.20
verdict_speedup_lines <- function(v, digits = 3L) {
  centre <- verdict_protocol(v)$centre
  ratio <- verdict_observed_name(v)
  phrase <- interval_phrase(v, digits)
  if (is.null(phrase)) {
    return(sprintf("  speedup of the %s: %s (%s; no interval)", centre,
                   fmt_num(v$speedup, digits), ratio))
  }
  out <- sprintf("  speedup: %s", phrase)
  mr <- median_ratio_line(v, digits)
  if (length(mr)) return(c(out, mr))
  est <- attr(v$speedup_ci, "estimate")
  if (fmt_num(est, digits) != fmt_num(v$speedup, digits)) {
    out <- c(out, sprintf("  observed %s: %s", ratio, fmt_num(v$speedup, digits)))
  }
  out
}

# The ratio of the medians with its own interval (R/median-ratio.R), in
# place of the observed ratio: the Hodges-Lehmann factor is another number
# unless the shapes agree, and no check on the samples can tell every
# difference that matters from noise.
median_ratio_line <- function(v, digits = 3L) {
  if (!("median_ratio" %in% names(v))) return(character())
  r <- v$median_ratio
  if (anyNA(r)) return(character())
  caveat_sentences$median_ratio(fmt_estimate_ci(r[["estimate"]], r[c("low", "high")], digits),
                                interval_level(v$alpha))
}

# The verdict with the names from the input (its labels and baseline) shown
# by `esc`, so that every line made of them is text (R/escape.R).
verdict_printable <- function(v, esc = esc_text) {
  v$labels <- esc(.subset2(v, "labels"))
  if (!is.null(.subset2(v, "baseline"))) v$baseline <- esc(.subset2(v, "baseline"))
  v
}

verdict_headline <- function(v) {
  title <- sprintf("Speedup-Test (%s): ", v$test)
  conf <- fmt_pct(v$confidence)
  tol <- tolerance_headline(v, conf, isTRUE(v$confidence_guaranteed))
  if (!is.null(tol)) return(paste0(title, tol))
  body <- sprintf("%s at %s confidence", decision_words(v$direction), conf)
  if (v$direction %in% c("speedup", "slowdown", "equivalent")) {
    body <- sprintf("%s (%s)", body,
                    if (v$confidence_guaranteed) "guaranteed" else "not guaranteed")
  }
  paste0(title, body)
}

# The route through the flowchart in one line: the checks the protocol
# made, then its final test ("x normal (p = 0.41), y normal (p = 0.67),
# equal variances (F-test p = 0.52) -> Student t-test p = 0.0012"), each
# step in the words of its descriptor.
verdict_path <- function(v) {
  proto <- verdict_protocol(v)
  s <- v$steps
  ctx <- list(alpha = v$alpha, labels = v$labels,
              welch = v$branch %in% c("welch_normal", "welch_not_normal"))
  phrase <- function(role) step_of_role(role, proto)$path(s[[role]]$p.value, ctx)
  checks <- setdiff(names(s), proto$final)
  path <- paste(vapply(checks, phrase, ""), collapse = ", ")
  if (!is.null(s[[proto$final]])) {
    final <- paste0(phrase(proto$final), slowdown_p(v))
    path <- if (length(checks)) sprintf("%s -> %s", path, final) else final
  }
  if (!nzchar(path)) return(character())
  if (v$branch == "need_more_runs") path <- paste(path, "-> stop (rigorous mode)")
  path
}

# The mirrored test's p-value, shown in the path when it decided.
slowdown_p <- function(v) {
  if (identical(v$direction, "slowdown")) {
    sprintf(" (slowdown: p = %s)", fmt_p(v$p_value_slowdown))
  } else ""
}

#' @rdname speedup_verdict
#' @export
format.speedup_verdict <- function(x, digits = 3L, ...) {
  esc_text(verdict_format_lines(x, digits))
}

# The lines of format() before their escape (esc_text() takes each line
# alone, so many verdicts' lines are escaped in one call:
# format_verdicts()).  `plan`, when given, is the advice of the verdict's
# plan as plan_advice() gives it (made for many verdicts at once by
# R/verdict-lines.R); missing, it is planned here.
verdict_format_lines <- function(x, digits = 3L, plan) {
  check_object(x, "x")
  v <- verdict_printable(x)
  lines <- verdict_headline(v)
  lines <- c(lines, verdict_speedup_lines(v, digits))
  if (!is.na(or_na(v$prob_greater))) {
    lines <- c(lines, sprintf("  P[X > Y] = %s (chance that a run of %s is slower than a run of %s)",
                              prob_text(v, digits), v$labels[1L], v$labels[2L]))
  }
  lines <- c(lines, sprintf("  observed speedups: min %s, mean %s, median %s",
                            fmt_num(v$speedups[["min"]], digits),
                            fmt_num(v$speedups[["mean"]], digits),
                            fmt_num(v$speedups[["median"]], digits)))
  lines <- c(lines, verdict_units_line(v))
  if (!is.null(v$baseline)) lines <- c(lines, paste0("  initial code: ", v$baseline))
  path <- verdict_path(v)
  if (length(path) && nzchar(path)) lines <- c(lines, paste0("  path: ", path))
  lines <- c(lines, if (missing(plan)) tolerance_lines(v, digits)
                    else tolerance_lines_planned(v, plan, digits))
  if (length(v$caveats)) lines <- c(lines, paste0("  caveat: ", v$caveats))
  if (length(v$advice)) lines <- c(lines, paste0("  advice: ", v$advice))
  wrap_lines(lines)
}

# format() of each verdict of a list: a list of the lines of each, escaped
# in one call.
format_verdicts <- function(vs, digits = 3L) {
  lines <- lapply(vs, verdict_format_lines, digits = digits)
  esc <- esc_text(unlist(lines, use.names = FALSE))
  unname(split(esc, factor(rep.int(seq_along(lines), lengths(lines)),
                           levels = seq_along(lines))))
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
  check_object(object, "object")
  structure(list(verdict = object), class = "summary.speedup_verdict")
}

# A step of summary(): the test and its data, then its statistic,
# parameters, p-value and conclusion (the descriptor's words; for the final
# test, the decision with the mirrored test's p-value when it decided a
# slowdown).
step_line <- function(step, role, v, digits) {
  alpha <- v$alpha
  proto <- verdict_protocol(v)
  words <- step_of_role(role, proto)$outcome
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
    words$missing
  } else {
    pass <- p > alpha
    cmp <- if (pass) ">" else "<="
    if (role != proto$final) {
      sprintf("p-value = %s %s %s: %s", fmt_p(p, digits), cmp, a,
              if (pass) words$pass else words$fail)
    } else if (v$direction %in% "slowdown") {
      sprintf("p-value = %s > %s; mirrored test (slowdown) p-value = %s <= %s: %s",
              fmt_p(p, digits), a, fmt_p(v$p_value_slowdown, digits), a,
              decision_words(v$direction))
    } else {
      sprintf("p-value = %s %s %s: %s", fmt_p(p, digits), cmp, a,
              decision_words(v$direction))
    }
  }
  head <- sprintf("%s (%s)", step$method, step$data.name)
  detail <- paste(c(stat, par, outcome), collapse = ", ")
  c(head, paste0("     ", detail))
}

#' @rdname speedup_verdict
#' @export
print.summary.speedup_verdict <- function(x, digits = 3L, ...) {
  v <- verdict_printable(x$verdict)
  lines <- format(v, digits = digits)
  lines <- c(lines, "", sprintf("Steps (alpha = %s, rigorous = %s):", format(v$alpha),
                                v$rigorous))
  if (!length(v$steps)) lines <- c(lines, "  none: the protocol could not start")
  for (i in seq_along(v$steps)) {
    sl <- step_line(v$steps[[i]], names(v$steps)[i], v, digits)
    lines <- c(lines, sprintf("  %d. %s", i, sl[1L]), sl[-1L])
  }
  if (!is.na(or_na(v$shift))) {
    lines <- c(lines, sprintf("Shift %s - %s: %s (Hodges-Lehmann), %s CI %s",
                              v$labels[1L], v$labels[2L], fmt_num(v$shift, digits),
                              fmt_pct(v$confidence), fmt_ci(v$shift_ci, digits)))
  }
  lines <- c(lines, sprintf("Route through the flowchart: %s",
                            verdict_branch_words(v$branch)))
  if (!is.null(v$p_value_tolerance)) {
    lines <- c(lines, sprintf(
      "Decided against the tolerance: the final test of x against %s y, of y against %s x, and the two one-sided tests of equivalence (see ?tolerance)",
      format(v$min_speedup), format(v$min_speedup)))
  }
  cat(esc_text(wrap_lines(lines)), sep = "\n")
  invisible(x)
}

#' @rdname speedup_verdict
#' @export
as.data.frame.speedup_verdict <- function(x, row.names = NULL, optional = FALSE,
                                          ...) {
  check_object(x)
  v <- x
  classed_p_values(nan_to_na(data.frame(
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
    speedup_estimate = or_na(attr(v$speedup_ci, "estimate"), NA_real_),
    speedup_low = v$speedup_ci[1L],
    speedup_high = v$speedup_ci[2L],
    interval_level = or_na(attr(v$speedup_ci, "conf.level"), NA_real_),
    speedup_min = v$speedups[["min"]],
    speedup_mean = v$speedups[["mean"]],
    speedup_median = v$speedups[["median"]],
    prob_greater = if (is.null(v$prob_greater)) NA_real_ else v$prob_greater,
    n = v$n,
    m = v$m,
    rigorous = v$rigorous,
    min_speedup = if (is.null(v$min_speedup)) 1 else v$min_speedup,
    p_value_equivalence = if (is.null(v$p_value_equivalence)) NA_real_ else v$p_value_equivalence,
    detectable = if (is.null(v$detectable)) NA_real_ else v$detectable,
    run_order_flag = isTRUE(v$run_order$trend),
    baseline = if (is.null(v$baseline)) NA_character_ else v$baseline,
    caveats = paste(v$caveats, collapse = "; "),
    stringsAsFactors = FALSE
  )))
}
