# The protocols, described once.  Every surface (print, summary, format,
# as.data.frame, tidy/glance, knit_print, plot and autoplot, suites, the
# command line) reads the words of a verdict from here: its decision, the
# exit of the flowchart it took, the sub-tests it ran, its interval and its
# caveats.  The C core returns codes; their names come from the core itself
# (ffi_codes(), src/codes.c), never from their positions, and
# test-protocol-descriptor.R checks that every code the core can return has
# its words here.
#
# Adding a protocol: one C function (src/), one entry in `protocols` below
# with the branches and steps it adds, and the wrapper that calls it (see
# CONTRIBUTING.md).

# ---- the codes of the C core --------------------------------------------------

# The named codes of one kind: "branch", "step", "caveat", "decision",
# "status", "protocol", "direction" (src/codes.c), read from the core on
# first use.
st_codes_cache <- new.env(parent = emptyenv())
st_codes <- function(kind) {
  codes <- st_codes_cache$codes
  if (is.null(codes)) {
    codes <- .Call(ffi_codes)
    st_codes_cache$codes <- codes
  }
  codes[[kind]]
}

# The name of each code (NA for a code the core does not name).
st_code_name <- function(kind, code) {
  tab <- st_codes(kind)
  names(tab)[match(code, tab)]
}

# The code of a name (an error for a name the core does not know).
st_code <- function(kind, name) {
  code <- st_codes(kind)[name]
  if (anyNA(code)) stop(sprintf("unknown %s code name: %s", kind, name[is.na(code)][1L]))
  unname(code)
}

# TRUE where the caveat bit `name` is set in the flags.
has_bit <- function(flags, name) bitwAnd(flags, st_code("caveat", name)) != 0L

# ---- decisions --------------------------------------------------------------

# A decision is keyed by its direction, the field the verdicts and the
# suites carry: "speedup", "slowdown", "none", "equivalent"; NA when the
# protocol could not decide (insufficient data).
#   words:  the decision in full, the value of every `decision` column;
#   short:  for narrow columns (summary of a suite);
#   symbol: pch of the plots; colour: their colour.
decision_table <- data.frame(
  direction = c("speedup", "slowdown", "none", "equivalent", NA),
  words = c("significant speedup", "significant slowdown",
            "no significant difference", "equivalent", "insufficient data"),
  short = c("speedup", "slowdown", "none", "equiv.", "n/a"),
  pch = c(19L, 15L, 21L, 23L, 4L),
  colour = c("#0072B2", "#D55E00", "black", "#009E73", "#B00000"),
  stringsAsFactors = FALSE
)

decision_row <- function(direction) {
  d <- as.character(direction)
  i <- match(d, decision_table$direction)
  # an unknown direction (none is expected) reads as itself, never silently
  # as another decision
  i[is.na(d)] <- nrow(decision_table)
  i
}

# The decision in words from its direction(s).
decision_words <- function(direction) {
  out <- decision_table$words[decision_row(direction)]
  bad <- is.na(out)
  out[bad] <- as.character(direction)[bad]
  out
}

decision_short <- function(direction) {
  out <- decision_table$short[decision_row(direction)]
  bad <- is.na(out)
  out[bad] <- as.character(direction)[bad]
  out
}

decision_pch <- function(direction) {
  out <- decision_table$pch[decision_row(direction)]
  out[is.na(out)] <- 1L
  out
}

decision_colour <- function(direction) {
  out <- decision_table$colour[decision_row(direction)]
  out[is.na(out)] <- "grey40"
  out
}

# A change along a history (series_changes()) is told by its direction
# with the tolerance s0: "regression beyond 1 %", "improvement beyond 1 %",
# "negligible within 1 %" (equivalence), else "undecided".
change_table <- data.frame(
  direction = c("slowdown", "speedup", "equivalent", "none", NA),
  words = c("regression", "improvement", "negligible", "undecided",
            "undecided"),
  tolerance = c("beyond", "beyond", "within", "", ""),
  stringsAsFactors = FALSE
)

change_words <- function(direction, s0) {
  d <- as.character(direction)
  i <- match(d, change_table$direction)
  i[is.na(d)] <- nrow(change_table)
  words <- change_table$words[i]
  tol <- change_table$tolerance[i]
  if (s0 == 1) return(words)
  with_tol <- nzchar(tol)
  words[with_tol] <- paste(words[with_tol], tol[with_tol], fmt_change(s0))
  words
}

# The outcome of the C core's decision code (st_decision), as the
# verdicts' three-valued decision before the direction is known.
decision_outcome <- function(code) {
  c(insufficient = "insufficient data", not_significant = "not significant",
    significant = "significant")[[st_code_name("decision", code)]]
}

# The direction from the three-valued decision and the slowdown's p-value
# (for objects that carry no direction).
direction_from <- function(decision, p_slowdown, alpha) {
  out <- ifelse(decision == "significant", "speedup",
                ifelse(!is.na(p_slowdown) & p_slowdown <= alpha, "slowdown",
                       "none"))
  out[decision %in% "insufficient data"] <- NA_character_
  out
}

# The p-value the decision rests on: the slowdown test's for a slowdown,
# the speedup test's otherwise.
decision_p <- function(direction, p_speedup, p_slowdown) {
  ifelse(direction %in% "slowdown", p_slowdown, p_speedup)
}

# The C core's status of a call that failed, in the words of the error.
status_words <- c(
  too_few = "not enough values",
  too_many = "too many values for this method",
  constant = "all values are equal",
  alloc = "out of memory",
  domain = "a value is outside its domain",
  interrupted = "interrupted by the user",
  unsupported = "the protocol has no such test")

# ---- the protocols --------------------------------------------------------------

#' The protocols of the package
#'
#' A protocol decides from two samples of run times whether the transformed
#' code is faster.  Wherever a protocol is chosen by name (`test = ` of
#' [highest_confidence()] and [plan_runs()], `protocols = ` of
#' [speedup_suite()], `which = ` of a suite's plots and tables, `.test = `
#' of [measure()], `--test` of `speeduptest compare`) the names are:
#'
#' * `"median"` (the default): [median_test()], the Speedup-Test for the
#'   median (the Wilcoxon-Mann-Whitney test after a check of the
#'   location-shift model); paired twin: the signed-rank test of the
#'   per-round log ratios.
#' * `"mean"`: [mean_test()], the Speedup-Test for the mean (Student's or
#'   Welch's t-test after checks of normality and of the variances); paired
#'   twin: the paired t-test.
#' * `"prob"`: [prob_test()], the probability that a run of the new code is
#'   faster (the Brunner-Munzel test of P\[X > Y\] + P\[X = Y\]/2 > 1/2,
#'   which needs neither a shift model nor equal spreads); paired twin: the
#'   sign test of the rounds.  Its tolerance is a margin on the
#'   probability.
#'
#' Every protocol has a paired twin (`design = "paired"`), tolerance tests
#' (`min_speedup`, see [tolerance]), a `detectable` speedup and
#' [plan_runs()].
#'
#' @name speeduptest_protocols
#' @seealso [tolerance], [replication], [speedup_suite()].
NULL

# One entry per protocol (the unpaired ones are the protocols a user
# chooses by name: `test = `, `which = `, a suite's `protocols`; the
# paired ones are their twins):
#   test      the protocol's name in the verdicts ("mean", "median"), the
#             code of the C core's protocol table (st_code("protocol"))
#   label     its name in sentences ("Speedup-Test for the <label>", "the
#             <label> and the <label>", "(<label>)")
#   what      what its decisions are about, in a suite's notes, tables and
#             plots ("speedup of the mean")
#   rank      the order in which choices and tables show it (the default
#             choice first)
#   fun       the exported function of the protocol ("<fun>" and its
#             methods "<fun>.default", ...)
#   paired    the descriptor of its paired twin (NULL: none; the core then
#             answers ST_ERR_UNSUPPORTED)
#   trend_in_core  TRUE when its C function makes the run-order trend
#             tests on the way (st_protocol_def.trend)
#   extra     the verdict elements only it reports (from the core's list)
#   lazy_extra  the verdict parts only it reports, made when read
#             (verdict_lazy(): "median_ratio", R/median-ratio.R)
#   constant  the caveat sentence of its constant branch ("both": both
#             samples constant)
#   plot_title  the title of its verdict plot
#   estimate  how `speedup_suite()`'s summary names the protocol's estimate
#   calls     the R functions of its capabilities, by name (resolved when
#             called, so that they may live in the protocol's own file):
#     detectable        verdict_detectable() of one verdict
#     suite_detectable  the same for the benchmarks of a suite
#     tolerance_candidates  the p-values at which the decision with a
#                       tolerance can change (highest_confidence())
#     paired_tolerance  the tolerance's four p-values in the paired design
#     attainable  the smallest p-values its final test can reach with the
#                 verdict's values (R/attainable.R; none: no floor)
#     plan_samples      the samples plan_runs() resamples
#     plan_normal_law   the runs at which the final test reaches the power
#                       by its normal approximation on the law plan_runs()
#                       simulates (none: the generic plan_normal(), from
#                       the standard error `detectable` reads)
#     plan_effect       the scale in which the detectable change shrinks as
#                       sqrt(1/n + 1/m) (plan_advice())
# A paired twin's entry has `constant` and `plot_title` as above, and
# both kinds say:
#   test      the protocol's name in the verdicts ("mean", "median")
#   design    "unpaired" (the paper's flowcharts) or "paired" (by round)
#   centre    the centre whose ratio is the observed speedup; centre_fun
#   final     the role of the final test among the steps
#   interval  the speedup's interval: its method, the estimator printed
#             beside it and how the print names it
#   observed  how the observed ratio is named when it is not the ratio of
#             the centres (NULL: "ratio of the <centre>s")
#   branches  the exits of the flowchart it can take (st_branch names)
#   steps     the sub-tests it can run (st_step_kind names, `protocol_steps`)
#   caveats   the caveat bits its C function can set (their sentences:
#             verdict_story(), R/verdict-story.R)
protocols <- list(
  mean = list(
    test = "mean", design = "unpaired", centre = "mean", centre_fun = mean,
    label = "mean", what = "speedup of the mean", rank = 2L, fun = "mean_test",
    paired = "paired_mean",
    trend_in_core = FALSE, extra = character(), constant = "both",
    plot_title = "Mean run time",
    calls = list(detectable = "detectable_mean",
                 suite_detectable = "suite_detectable_mean",
                 tolerance_candidates = "tolerance_candidates_mean",
                 paired_tolerance = "paired_tolerance_mean",
                 plan_samples = "plan_samples_mean",
                 plan_effect = "plan_effect_mean"),
    final = "t_test",
    interval = list(method = "Fieller", estimator = "ratio of the means",
                    name = "Fieller "),
    observed = NULL,
    branches = c("too_few_values", "constant_samples", "need_more_runs",
                 "student_normal", "welch_normal", "student_not_normal",
                 "welch_not_normal"),
    steps = c("shapiro_x", "shapiro_y", "f_test", "t_test"),
    caveats = c("too_few_values", "constant", "x_not_normal", "y_not_normal",
                "x_uncheckable", "y_uncheckable", "x_few_runs", "y_few_runs")),
  median = list(
    test = "median", design = "unpaired", centre = "median",
    centre_fun = stats::median, final = "wilcoxon", trend_in_core = TRUE,
    label = "median", what = "speedup of the median", rank = 1L,
    fun = "median_test", paired = "paired_median",
    extra = c("prob_greater", "shift", "shift_ci"), constant = "one",
    lazy_extra = "median_ratio",
    plot_title = "Median run time",
    calls = list(detectable = "detectable_median",
                 suite_detectable = "suite_detectable_median",
                 tolerance_candidates = "tolerance_candidates_median",
                 paired_tolerance = "paired_tolerance_median",
                 attainable = "attainable_median",
                 plan_samples = "plan_samples_median",
                 plan_normal_law = "plan_normal_rank",
                 plan_effect = "plan_effect_median"),
    interval = list(method = "Hodges-Lehmann on log times",
                    estimator = "Hodges-Lehmann estimate on log times",
                    name = ""),
    observed = NULL,
    branches = c("too_few_values", "constant_samples", "need_more_runs",
                 "wilcoxon_model_holds", "wilcoxon_model_rejected"),
    steps = c("ks_test", "wilcoxon"),
    caveats = c("too_few_values", "constant", "no_location_model",
                "x_few_runs", "y_few_runs")),
  paired_mean = list(
    test = "mean", design = "paired", centre = "mean", centre_fun = mean,
    final = "t_test", constant = "both", plot_title = "Mean run time",
    interval = list(method = "paired Fieller",
                    estimator = "ratio of the means, paired Fieller",
                    name = "Fieller "),
    observed = NULL,
    branches = c("too_few_values", "constant_samples", "need_more_runs",
                 "paired_t_normal", "paired_t_not_normal"),
    steps = c("shapiro_d", "paired_t"),
    caveats = c("too_few_values", "constant", "x_not_normal", "x_uncheckable",
                "x_few_runs")),
  paired_median = list(
    test = "median", design = "paired", centre = "median",
    centre_fun = stats::median, final = "wilcoxon", constant = "one",
    plot_title = "Median run time",
    interval = list(method = "Hodges-Lehmann on log ratios by round",
                    estimator = "Hodges-Lehmann estimate on log ratios by round",
                    name = ""),
    observed = "median per-round ratio",
    branches = c("too_few_values", "constant_samples", "paired_signed_rank"),
    steps = "signed_rank",
    caveats = c("too_few_values", "constant")),
  prob = list(
    test = "prob", design = "unpaired", centre = "median",
    centre_fun = stats::median, final = "brunner_munzel", trend_in_core = FALSE,
    label = "probability", what = "speedup (P[X > Y] test)", rank = 3L,
    fun = "prob_test", paired = "paired_prob",
    extra = c("prob_greater", "prob_ci"), constant = "one",
    plot_title = "Median run time, P[X > Y] test",
    calls = list(detectable = "detectable_prob",
                 suite_detectable = "suite_detectable_prob",
                 tolerance_candidates = "tolerance_candidates_prob",
                 paired_tolerance = "paired_tolerance_prob",
                 attainable = "attainable_prob",
                 plan_samples = "plan_samples_prob",
                 plan_effect = "plan_effect_prob"),
    interval = list(method = "none: the estimate is P[X > Y]",
                    estimator = "ratio of the medians", name = "",
                    of = "P[X > Y]", column = "prob_greater",
                    of_method = "Brunner-Munzel",
                    of_estimator = "Brunner-Munzel estimate of P[X > Y]"),
    observed = NULL,
    branches = c("too_few_values", "constant_samples", "prob_permutation",
                 "prob_t"),
    steps = "brunner_munzel",
    caveats = c("too_few_values", "constant")),
  paired_prob = list(
    test = "prob", design = "paired", centre = "median",
    centre_fun = stats::median, final = "brunner_munzel", constant = "one",
    plot_title = "Median run time, P[X > Y] by round",
    interval = list(method = "none: the estimate is P[X > Y] by round",
                    estimator = "median per-round ratio", name = ""),
    observed = "median per-round ratio",
    branches = c("too_few_values", "paired_sign"),
    steps = "sign_test",
    caveats = "too_few_values")
)

# The descriptor of a protocol by test name and design (an error for a
# protocol without one: never another protocol's descriptor).
protocol_info <- function(test, design = "unpaired") {
  base <- protocols[[test]]
  if (is.null(base) || !identical(base$design, "unpaired")) {
    stop(sprintf("unknown protocol: %s", test))
  }
  if (!identical(design, "paired")) return(base)
  if (is.null(base$paired)) {
    abort(sprintf("the %s protocol has no paired design: give `design = \"unpaired\"`.",
                  base$label), class = "unsupported")
  }
  protocols[[base$paired]]
}

# The protocols a user chooses by name, the default first (`test = `,
# `which = `): every unpaired descriptor, in the order of their rank.
protocol_choices <- function() {
  un <- Filter(function(p) identical(p$design, "unpaired"), protocols)
  names(un)[order(vapply(un, `[[`, 0L, "rank"))]
}

# The capability `what` of protocol `test` (its function named in the
# descriptor's `calls`), called with `...`; a protocol without it is a
# classed error, never another protocol's answer.
protocol_call <- function(test, what, ...) {
  fn <- protocol_info(test)$calls[[what]]
  if (is.null(fn)) {
    abort(sprintf("the %s protocol has no %s.", protocol_info(test)$label,
                  gsub("_", " ", what)), class = "unsupported")
  }
  get(fn, envir = asNamespace("speeduptest"), mode = "function")(...)
}

# The exported function of protocol `test`, or one of its methods
# ("default", "formula", "speedup_timings").
protocol_fun <- function(test, method = NULL) {
  fn <- protocol_info(test)$fun
  if (!is.null(method)) fn <- paste0(fn, ".", method)
  get(fn, envir = asNamespace("speeduptest"), mode = "function")
}

# "the mean and the median": the protocols' labels in a sentence.
protocol_labels <- function(tests, article = "the ") {
  and_list(paste0(article, vapply(tests, function(t) protocol_info(t)$label, "")))
}

# The label of each protocol (its name in sentences).
protocol_label <- function(tests) {
  vapply(tests, function(t) protocol_info(t)$label, "", USE.NAMES = FALSE)
}

# The text with its first letter in upper case.
capitalise <- function(x) paste0(toupper(substring(x, 1L, 1L)), substring(x, 2L))

# "a", "a or b", "a, b or c".
or_list <- function(x) {
  if (length(x) <= 1L) return(x)
  paste(paste(x[-length(x)], collapse = ", "), "or", x[length(x)])
}

# "a", "a and b", "a, b and c".
and_list <- function(x) {
  if (length(x) <= 1L) return(x)
  paste(paste(x[-length(x)], collapse = ", "), "and", x[length(x)])
}

# The descriptor of a verdict's protocol.
verdict_protocol <- function(v) {
  design <- attr(v, "lazy", exact = TRUE)$design
  paired <- identical(design, "paired") || identical(v$design$design, "paired") ||
    (is.character(v$branch) && startsWith(v$branch, "paired_"))
  protocol_info(v$test, if (paired) "paired" else "unpaired")
}

# The exit of the flowchart in words (summary() and the tidy tables), by
# st_branch name.
branch_words <- c(
  too_few_values = "stopped, with fewer than 3 runs in a sample",
  constant_samples = "stopped, as the samples are constant",
  need_more_runs = "stopped, as a check failed on 30 runs or fewer (rigorous mode)",
  student_normal = "both samples normal and equal variances, then Student's t-test",
  welch_normal = "both samples normal and unequal variances, then Welch's t-test",
  student_not_normal = "a sample not shown normal and equal variances, then Student's t-test",
  welch_not_normal = "a sample not shown normal and unequal variances, then Welch's t-test",
  wilcoxon_model_holds = "shift model accepted, then the Wilcoxon-Mann-Whitney test",
  wilcoxon_model_rejected = "shift model rejected, then the Wilcoxon-Mann-Whitney test (confidence not guaranteed)",
  paired_signed_rank = "paired by round, the signed-rank test of the log ratios",
  paired_t_normal = "paired by round, differences normal, then the paired t-test",
  paired_t_not_normal = "paired by round, differences not shown normal, then the paired t-test",
  prob_permutation = "the Brunner-Munzel test of P[X > Y] = 1/2, its studentized permutation law enumerated",
  prob_t = "the Brunner-Munzel test of P[X > Y] = 1/2, its t approximation",
  paired_sign = "paired by round, the sign test of P[a round's new run is faster] = 1/2")

verdict_branch_words <- function(branch) {
  out <- unname(branch_words[branch])
  ifelse(is.na(out), branch, out)
}

# ---- the steps: the sub-tests a flowchart runs --------------------------------

# One entry per st_step_kind name:
#   role     the step's name in the verdict's `steps` (the paired design's
#            steps take the roles of the unpaired ones they stand for)
#   htest    the htest object of the step from the core's result `res`;
#            `ctx` holds alpha, the labels and whether Welch's test ran
#   path     its words in the printed route ("" for none)
#   outcome  its conclusion in summary(), when it passed (p > alpha) and
#            when it did not; `missing` when it has no p-value
step_not_run <- function(what, res, constant = "constant sample",
                         many = "more than 5000 values") {
  status <- st_code_name("status", res$status)
  if (identical(status, "ok")) return(what)
  why <- switch(status, constant = constant, too_many = many, "not computable")
  sprintf("%s (not run: %s)", what, why)
}

shapiro_name <- "Shapiro-Wilk normality test"

shapiro_path <- function(p, lab, alpha) {
  if (is.na(p)) sprintf("%s not checkable", lab)
  else if (p > alpha) sprintf("%s normal (p = %s)", lab, fmt_p(p))
  else sprintf("%s not normal (p = %s)", lab, fmt_p(p))
}

# A check passes when its p-value is above alpha.
passes <- function(p, ctx) !is.na(p) && p > ctx$alpha

normality_outcome <- list(pass = "normal", fail = "not shown normal",
                          missing = "not shown normal")
final_outcome <- list(pass = "not significant", fail = "significant",
                      missing = "not computable")

# The normality check of sample i (1: x, 2: y).
shapiro_step <- function(i) {
  force(i)
  list(
    role = c("shapiro_x", "shapiro_y")[i],
    htest = function(res, ctx) new_htest(res, step_not_run(shapiro_name, res),
                                          data_name = ctx$labels[i],
                                          statistic_name = "W"),
    path = function(p, ctx) shapiro_path(p, ctx$labels[i], ctx$alpha),
    outcome = normality_outcome)
}

protocol_steps <- list(
  shapiro_x = shapiro_step(1L),
  shapiro_y = shapiro_step(2L),
  f_test = list(
    role = "f_test",
    htest = function(res, ctx) new_htest(
      res, "F test to compare two variances",
      data_name = paste(ctx$labels[1L], "and", ctx$labels[2L]),
      alternative = "two.sided", statistic_name = "F",
      parameter_names = c("num df", "denom df"),
      estimate_names = "ratio of variances",
      null_value = c("ratio of variances" = 1), conf_level = 1 - ctx$alpha),
    path = function(p, ctx) sprintf("%s variances (F-test p = %s)",
                                    if (passes(p, ctx)) "equal" else "unequal",
                                    fmt_p(p)),
    outcome = list(pass = "equal variances", fail = "unequal variances",
                   missing = "variances treated as unequal")),
  t_test = list(
    role = "t_test",
    htest = function(res, ctx) new_htest(
      res, if (ctx$welch) "Welch Two Sample t-test" else "Two Sample t-test",
      data_name = paste(ctx$labels[1L], "and", ctx$labels[2L]),
      alternative = "greater", statistic_name = "t", parameter_names = "df",
      estimate_names = c("mean of x", "mean of y"),
      null_value = c("difference in means" = 0), conf_level = 1 - ctx$alpha),
    path = function(p, ctx) sprintf("%s t-test p = %s",
                                    if (ctx$welch) "Welch" else "Student", fmt_p(p)),
    outcome = final_outcome),
  ks_test = list(
    role = "ks_test",
    htest = function(res, ctx) new_htest(
      res, paste(if (isTRUE(res$exact)) "Exact" else "Asymptotic",
                 "two-sample Kolmogorov-Smirnov test on centred samples"),
      data_name = sprintf("%s - median(%s) and %s - median(%s)", ctx$labels[1L],
                          ctx$labels[1L], ctx$labels[2L], ctx$labels[2L]),
      alternative = "two-sided", statistic_name = "D"),
    path = function(p, ctx) sprintf("location model %s (Kolmogorov-Smirnov p = %s)",
                                    if (passes(p, ctx)) "accepted" else "rejected",
                                    fmt_p(p)),
    outcome = list(pass = "location model holds", fail = "location model rejected",
                   missing = "not computable")),
  wilcoxon = list(
    role = "wilcoxon",
    htest = function(res, ctx) new_htest(
      res, if (isTRUE(res$exact)) "Wilcoxon rank sum exact test"
           else "Wilcoxon rank sum test with continuity correction",
      data_name = paste(ctx$labels[1L], "and", ctx$labels[2L]),
      alternative = "greater", statistic_name = "W",
      null_value = c("location shift" = 0)),
    path = function(p, ctx) sprintf("Wilcoxon-Mann-Whitney p = %s", fmt_p(p)),
    outcome = final_outcome),
  shapiro_d = list(
    role = "shapiro_x",
    htest = function(res, ctx) new_htest(
      res, step_not_run(shapiro_name, res, constant = "constant differences",
                        many = "more than 5000 rounds"),
      data_name = sprintf("%s - %s, by round", ctx$labels[1L], ctx$labels[2L]),
      statistic_name = "W"),
    path = function(p, ctx) {
      if (is.na(p)) "differences not checkable"
      else sprintf("differences %s (p = %s)",
                   if (p > ctx$alpha) "normal" else "not normal", fmt_p(p))
    },
    outcome = normality_outcome),
  paired_t = list(
    role = "t_test",
    htest = function(res, ctx) new_htest(
      res, "Paired t-test",
      data_name = sprintf("%s - %s, by round", ctx$labels[1L], ctx$labels[2L]),
      alternative = "greater", statistic_name = "t", parameter_names = "df",
      estimate_names = "mean difference",
      null_value = c("mean difference" = 0), conf_level = 1 - ctx$alpha),
    path = function(p, ctx) sprintf("paired t-test p = %s", fmt_p(p)),
    outcome = final_outcome),
  signed_rank = list(
    role = "wilcoxon",
    htest = function(res, ctx) new_htest(
      res, paste("Wilcoxon signed rank",
                 if (isTRUE(res$exact)) "exact test" else "test with continuity correction"),
      data_name = sprintf("log(%s) - log(%s), by round", ctx$labels[1L], ctx$labels[2L]),
      alternative = "greater", statistic_name = "V",
      null_value = c("location shift" = 0)),
    path = function(p, ctx) sprintf("signed-rank test of log(%s / %s) by round p = %s",
                                    ctx$labels[1L], ctx$labels[2L], fmt_p(p)),
    outcome = final_outcome),
  brunner_munzel = list(
    role = "brunner_munzel",
    htest = function(res, ctx) new_htest(
      res, paste("Brunner-Munzel test,",
                 if (isTRUE(res$exact)) "studentized permutation law (exact)"
                 else "t approximation"),
      data_name = paste(ctx$labels[1L], "and", ctx$labels[2L]),
      alternative = "greater", statistic_name = "T", parameter_names = "df",
      estimate_names = "P[X > Y] + P[X = Y]/2",
      null_value = c("P[X > Y] + P[X = Y]/2" = 0.5),
      conf_level = 1 - 2 * ctx$alpha),
    path = function(p, ctx) sprintf("Brunner-Munzel p = %s", fmt_p(p)),
    outcome = final_outcome),
  sign_test = list(
    role = "brunner_munzel",
    htest = function(res, ctx) new_htest(
      res, "Sign test, ties split",
      data_name = sprintf("sign(%s - %s), by round", ctx$labels[1L], ctx$labels[2L]),
      alternative = "greater", statistic_name = "S",
      estimate_names = "P[a round's new run is faster]",
      null_value = c("P[a round's new run is faster]" = 0.5),
      conf_level = 1 - 2 * ctx$alpha),
    path = function(p, ctx) sprintf("sign test of %s > %s by round p = %s",
                                    ctx$labels[1L], ctx$labels[2L], fmt_p(p)),
    outcome = final_outcome)
)

# The step descriptor of the step with role `role` in protocol `proto`.
step_of_role <- function(role, proto) {
  for (k in proto$steps) {
    if (protocol_steps[[k]]$role == role) return(protocol_steps[[k]])
  }
  NULL
}

# ---- the speedup's interval ------------------------------------------------------

# Each decision is one one-sided test at level alpha (speedup: Ha x > y;
# slowdown: Ha x < y), so the interval printed beside it is the two-sided
# 1 - 2 alpha interval: each end is a one-sided 1 - alpha confidence bound,
# and the interval lies above 1 about when the speedup is significant,
# below 1 about when the slowdown is.
# (without missing alphas by assignment: ifelse()'s values at a fraction
# of its cost on a suite's columns)
interval_level <- function(alpha) {
  if (!length(alpha) || anyNA(alpha) || !is.double(alpha) ||
      !is.null(attributes(alpha))) {
    return(ifelse(alpha < 0.5, 1 - 2 * alpha, NA_real_))
  }
  out <- 1 - 2 * alpha
  out[alpha >= 0.5] <- NA_real_
  out
}

interval_method <- function(test, design = "unpaired") {
  vapply(test, function(t) protocol_info(t, design)$interval$method, "",
         USE.NAMES = FALSE)
}

# What the estimate printed beside the interval is.
interval_estimator <- function(test, design = "unpaired") {
  vapply(test, function(t) protocol_info(t, design)$interval$estimator, "",
         USE.NAMES = FALSE)
}

# "Fieller 90% interval" (mean), "90% interval" (median: the estimator
# already names Hodges-Lehmann).
interval_words <- function(test, level) {
  name <- vapply(test, function(t) protocol_info(t)$interval$name, "",
                 USE.NAMES = FALSE)
  sprintf("%s%s interval", name, fmt_pct(level))
}

interval_note <- function(alpha) {
  sprintf("each end a one-sided %s bound", fmt_pct(1 - alpha))
}

# "1.19 [1.09, 1.32]": the estimate and its interval, the interval rounded
# outwards and the estimate kept inside it, so that what is printed is
# always ordered low <= estimate <= high.  The command line prints the same.
fmt_estimate_ci <- function(est, ci, digits = 3L) {
  if (length(ci) != 2L || anyNA(ci)) return(fmt_num(est, digits))
  txt <- sub("Inf]", "Inf)", fmt_ci(ci, digits), fixed = TRUE)
  # an end on the boundary the decision rejected is open (R/attainable.R)
  open <- attr(ci, "open")
  if (isTRUE(open[1L])) txt <- sub("^\\[", "(", txt)
  if (isTRUE(open[2L])) txt <- sub("\\]$", ")", txt)
  sprintf("%s %s", fmt_num(est, digits), txt)
}

# ---- caveats and advice ----------------------------------------------------------

# The sentences of a verdict, one function per caveat or advice (the
# verdict composes them in its order: R/verdict-story.R), and the short
# phrases of the same caveats in a suite's `*_caveats` columns, one per
# caveat bit of the core.  `unit` is "run" or "process": with per-process
# summaries the replicates are processes.
caveat_sentences <- list(
  too_few_values = function(label, k, unit = "run") {
    if (unit == "process") {
      sprintf("%s ran in %d process(es); the protocol needs at least 3 processes",
              label, k)
    } else {
      sprintf("%s has %d run time(s); the protocol needs at least 3", label, k)
    }
  },
  constant_both = function() "both samples are constant: there is no variability to test",
  constant = function() "the run times have no variability to test",
  uncheckable = function(label, n) {
    sprintf("%s cannot be checked for normality (%s)", label,
            if (n > 5000L) "more than 5000 runs" else "constant sample")
  },
  not_normal = function(label, p, alpha) {
    sprintf("%s is not shown normal (Shapiro-Wilk p = %s <= %s)", label, fmt_p(p),
            format(alpha))
  },
  no_location_model = function(lx, ly, p, alpha) {
    sprintf("%s and %s do not differ by a shift only (Kolmogorov-Smirnov p = %s <= %s on centred samples)",
            lx, ly, fmt_p(p), format(alpha))
  },
  trend = function(label, increase, p) {
    sprintf("the run times of %s %s with the run order (Mann-Kendall p = %s <= %s): the runs are not independent",
            label, if (increase) "increase" else "decrease", fmt_p(p),
            format(run_order_level))
  },
  blocks = function(description) {
    sprintf("the versions were measured in blocks, not interleaved (%s): a drift of the machine looks like a speedup",
            description)
  },
  not_guaranteed = function(confidence) {
    sprintf("%s may not be the correct confidence level", fmt_pct(confidence))
  },
  differences_uncheckable = function(lx, ly) {
    sprintf("the differences %s - %s cannot be checked for normality", lx, ly)
  },
  differences_not_normal = function(lx, ly, p, alpha) {
    sprintf("the differences %s - %s are not shown normal (Shapiro-Wilk p = %s <= %s)",
            lx, ly, fmt_p(p), format(alpha))
  },
  ratio_trend = function(lx, ly, increase, p) {
    sprintf("the ratio %s / %s %s with the rounds (Mann-Kendall p = %s <= %s): the versions drift differently",
            lx, ly, if (increase) "increases" else "decreases", fmt_p(p),
            format(run_order_level))
  },
  one_process = function(labels) {
    sprintf("all runs of %s came from one process: the variation between processes (memory layout, warm-up, frequency state) cannot be seen, so the runs are not independent replicates",
            paste(labels, collapse = " and all of "))
  },
  runs_forced = function() {
    "replication = \"run\": the runs are treated as independent although processes group them"
  },
  # too few units for alpha (R/attainable.R): `what` "no speedup", "no
  # slowdown" or "no speedup or slowdown", `units` "3 and 3 runs"
  min_alpha = function(what, alpha, units, test, p) {
    sprintf("%s can be declared at alpha = %s with %s: the smallest p-value the %s can reach is %s (the smallest attainable alpha)",
            what, format(alpha), units, test, fmt_p(p))
  },
  no_interval_level = function(level, units, attained) {
    sprintf("no %s interval with %s: the exact interval reaches %s at most",
            fmt_pct(level), units, fmt_pct(attained))
  },
  empty_interval = function(level) {
    sprintf("no shift of the log times is consistent with the tied runs at %s: the decision rests on P[X > Y]",
            fmt_pct(level))
  },
  open_end = function(boundary) {
    sprintf("open at %s: the test rejects it", fmt_num(boundary))
  },
  shapes_differ = function(lx, ly, ratio, level) {
    sprintf("%s and %s differ in shape: the Hodges-Lehmann factor (the theta with P[X > theta Y] = 1/2, which the test is about) is not the ratio of the medians, which is %s (Bonett-Price %s interval)",
            lx, ly, ratio, fmt_pct(level))
  },
  median_ratio = function(ratio, level) {
    sprintf("  ratio of the medians: %s (Bonett-Price %s interval)", ratio, fmt_pct(level))
  },
  unadjusted_intervals = function(method) {
    sprintf("each interval is its benchmark's own at that level, not adjusted (%s) as the decisions are: one may leave out 1 beside no significant difference",
            method)
  },
  detectable_none = function(alpha, units) {
    sprintf("none: no speedup of any size can be declared at alpha = %s with %s",
            format(alpha), units)
  },
  # advice
  timer = function() "check the timer resolution, or measure a longer workload",
  more_runs = function(labels, unit = "run") {
    if (unit == "process") {
      sprintf("run %s in more than 30 processes", paste(labels, collapse = " and "))
    } else {
      sprintf("perform more than 30 runs of %s", paste(labels, collapse = " and "))
    }
  },
  more_rounds = function() "perform more than 30 rounds",
  min_alpha_advice = function(p, units) {
    sprintf("take alpha >= %s, or more %s", fmt_p(p), units)
  },
  interleave = function() {
    "interleave the runs of both versions (e.g. with measure()) on a quiet machine"
  },
  several_processes = function() {
    "run each version in several processes (e.g. several benchmark invocations), then compare the processes"
  },
  no_between_variance = function() {
    "no variance between processes is detected: more runs per process are as good as more processes"
  },
  runs_per_process = function(runs, from_run) {
    sprintf("to spend the next runs best, run about %d per process (Kalibera-Jones, process start cost from the %s)",
            runs, if (from_run) "run time" else "first runs' excess")
  },
  pair_rounds = function() {
    "the runs were interleaved in rounds: compare them paired by round (design = \"paired\", at least 6 complete rounds), which cancels the drift"
  },
  quieter_machine = function() {
    "the runs were interleaved; the drift comes from the machine: measure on a quieter machine"
  }
)

# The short phrase of each caveat bit in a suite's columns, where the
# versions are the initial (x) and the transformed (y) code.
suite_phrases <- c(
  x_not_normal = "the initial times (x) are not shown normal",
  y_not_normal = "the transformed times (y) are not shown normal",
  x_few_runs = "perform more than 30 runs of the initial code (x)",
  y_few_runs = "perform more than 30 runs of the transformed code (y)",
  no_location_model = "the location-shift model is rejected (Kolmogorov-Smirnov)",
  constant = "both samples are constant (check the timer resolution)",
  too_few_values = "fewer than 3 runs in a sample",
  x_uncheckable = "the normality of the initial times (x) cannot be checked",
  y_uncheckable = "the normality of the transformed times (y) cannot be checked"
)

# The run-order phrases of a suite's columns, and of a benchmark that ran
# in one process per version.
suite_run_order_phrases <- c(
  trend_x = "the initial times drift with the run order",
  trend_y = "the transformed times drift with the run order",
  blocks = "the versions were measured in blocks",
  cure = ": interleave the runs (e.g. measure())",
  single_process = "each version ran in one process: the variation between processes cannot be seen (run each version in several processes)"
)

# ---- small lookups ----------------------------------------------------------------

# The core's code of protocol `test` ("mean" or "median").
protocol_code <- function(test) st_code("protocol", test)

# The name of a verdict's observed ratio: "ratio of the means", "ratio of
# the medians", or the protocol's own ("median per-round ratio").
verdict_observed_name <- function(v) {
  proto <- verdict_protocol(v)
  proto$observed %||% sprintf("ratio of the %ss", proto$centre)
}

# The final test of a verdict, as an htest (NULL when the protocol stopped
# before it).
verdict_final_step <- function(v) {
  v$steps[[verdict_protocol(v)$final]]
}

# "0.731" or, with the verdict's interval for it, "0.731 [0.62, 0.83]":
# the estimate of P[X > Y] (ties counting one half).
prob_text <- function(v, digits = 3L) {
  ci <- or_na(v$prob_ci, c(NA_real_, NA_real_))
  if (length(ci) != 2L || anyNA(ci)) return(fmt_num(v$prob_greater, digits))
  sprintf("%s %s", fmt_num(v$prob_greater, digits), fmt_ci(ci, digits))
}

# ---- the protocols of a suite -------------------------------------------------

# The protocols a suite ran (the paper's two for a suite made before they
# were chosen), in the order they ran, or with ranked = TRUE in the order
# the choices show them (the default first).
suite_protocols <- function(x, ranked = FALSE) {
  p <- x$protocols
  if (is.null(p)) p <- suite_default_protocols
  if (ranked) p <- p[order(match(p, protocol_choices()))]
  p
}

# `which` protocol of a suite to show: one it ran (NULL: the first of its
# protocols in the order of the choices).
check_suite_protocol <- function(which, x) {
  choices <- suite_protocols(x, ranked = TRUE)
  if (is.null(which)) return(choices[1L])
  check_choice(which, choices, "which")
}
# ---- warm-up (warmup = "detect", R/warmup.R) -------------------------------------

# The words of a verdict about the iterations warmup = "detect" dropped and
# the processes it left out; `d` has one row per version (warmup_dropped()).
warmup_words <- list(
  dropped = function(d) {
    if (!nrow(d)) return(character())
    per <- sprintf("%s: %s of %s", as.character(d$version), fmt_count(d$dropped),
                   fmt_count(d$iterations))
    sprintf("warm-up detected: %s of %s iterations dropped as warm-up or unsettled (%s)",
            fmt_count(sum(d$dropped)), fmt_count(sum(d$iterations)),
            paste(per, collapse = ", "))
  },
  left_out = function(label, k, n, processes) {
    shown <- utils::head(processes, 5L)
    sprintf("%d of %d processes of %s never reached a steady state and are left out (process%s %s%s)",
            k, n, label, if (k > 1L) "es" else "", paste(shown, collapse = ", "),
            if (length(processes) > 5L) ", ..." else "")
  },
  none_settled = function(label, n) {
    sprintf("insufficient data: no process of %s reached a steady state (%d process%s), so there are no steady iterations to compare",
            label, n, if (n == 1L) "" else "es")
  }
)

fmt_count <- function(x) format(x, big.mark = ",", scientific = FALSE, trim = TRUE)
