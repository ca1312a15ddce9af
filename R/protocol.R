# The Speedup-Test protocols (paper Figures 1 and 2): thin wrappers around
# st_protocol / st_highest_alpha in
# src/protocol.c.  The verdict object and its methods are in verdict.R.

#' The Speedup-Test for the mean execution time
#'
#' Decides whether the transformed code (`y`) is faster on average than the
#' initial code (`x`), following the protocol of Touati, Worms and Briais
#' (2013, Figure 1).
#'
#' The protocol:
#' 1. Shapiro-Wilk test on `x` and on `y` at level `alpha`; a sample is
#'    normal when its p-value is above `alpha`.  A constant sample, or one
#'    with more than 5000 values, cannot be checked and counts as "not shown
#'    normal".
#' 2. A sample that is not shown normal and has at most 30 runs stops the
#'    protocol when `rigorous = TRUE`: the decision is "insufficient data"
#'    with the advice to run that code more than 30 times.  With
#'    `rigorous = FALSE` the protocol goes on, but the confidence is no
#'    longer guaranteed.
#' 3. Two-sided F-test of equal variances at `alpha` (equal when p > alpha).
#' 4. One-sided unpaired t-test of H0: mu_X <= mu_Y against Ha: mu_X > mu_Y,
#'    Student's pooled test when the variances are equal, Welch's otherwise.
#'    The speedup is significant when p <= alpha.
#'
#' The confidence `1 - alpha` is guaranteed only when both samples were shown
#' normal (and the run-order checks, see [run_order], flag nothing).  Fewer
#' than 3 values in a sample, or two constant samples, give the decision
#' "insufficient data" (not an error).
#'
#' **Direction.**  On the same path, the other tail of the same t-test
#' (Ha: mu_X < mu_Y) gives `p_value_slowdown`; when it is `<= alpha`,
#' `direction` is `"slowdown"` and the print says "significant slowdown".
#' `direction` is `"speedup"` for a significant speedup, `"none"` otherwise,
#' `NA` for insufficient data.
#'
#' **Baseline.**  The initial code is `x`; in a formula, `initial` when given,
#' otherwise the first level of a factor or the first value to appear in the
#' data (not the first in alphabetical order); for timings, the first of
#' `versions`, `initial`, or the first version of the timings.  The verdict's
#' `baseline` says which and how it was chosen, and the print shows it.
#'
#' The interval for the speedup mean(x) / mean(y) is Fieller's interval for
#' a ratio of independent means, two-sided at `1 - 2 alpha` so that each end
#' is the one-sided `1 - alpha` bound that matches the one-sided decisions (a
#' speedup and a slowdown are each decided by a one-sided test at `alpha`):
#' with pooled variances and n + m - 2 degrees of freedom on the Student
#' branch (exact for normal samples), with separate variances and the
#' Satterthwaite degrees of freedom (evaluated at the observed ratio) on the
#' Welch branch.  Its estimate is the ratio of the means, which it always
#' contains.  When the mean of `y` is not clearly positive the interval is
#' unbounded and reported as `[0, Inf)`; for `alpha >= 0.5` there is none.
#'
#' @param x Run times of the initial code (positive numbers) in the order
#'   they were run, a formula `time ~ version` whose grouping variable has
#'   two values (the initial code is `initial`, else the first level of a
#'   factor, else the first value in the data), or `speedup_timings` ([read_timings()], [as_timings()], [measure()]).
#' @param y Run times of the transformed code.
#' @param data A data frame (or list or environment) holding the variables of
#'   the formula.
#' @param alpha Risk level, strictly between 0 and 1; the confidence is
#'   `1 - alpha`.
#' @param rigorous If `TRUE` (default), stop with "insufficient data" when a
#'   small sample breaks the protocol's assumptions; if `FALSE`, go on with a
#'   caveat.
#' @param na_rm Remove missing values first? If `FALSE`, a missing value is
#'   an error.
#' @param initial With a formula or timings, the version of the initial code
#'   (`NULL`: see Details).
#' @param benchmark With timings holding several benchmarks, the one to test.
#' @param versions With timings, the two versions to compare,
#'   `c(initial, transformed)` (needed when there are more than two).
#' @param min_speedup The tolerance `s0 >= 1`: a speedup (or slowdown) is
#'   declared only beyond the factor `s0`, and with `s0 > 1` the versions
#'   may be declared `"equivalent"` (within `s0` of each other); 1, the
#'   default, is the paper's test.  See [tolerance].
#' @param ... Not used; must be empty.
#' @param warmup With timings, `"keep"` (default) analyses the iterations
#'   as given; `"detect"` keeps each process's steady iterations only
#'   ([trim_warmup()]), leaves out the processes that never reached a
#'   steady state, and says so in the verdict (a version none of whose
#'   processes settled gives "insufficient data" with the reason). See
#'   [warmup_classify()].
#' @param replication With timings, the unit of replication: `"auto"`
#'   (default) uses the per-process means (medians for [median_test()]) when
#'   the timings hold several processes per version with several runs in
#'   some, and the runs otherwise; `"process"` forces the per-process
#'   summaries; `"run"` treats every run as an independent replicate (the
#'   paper's assumption) and says so.  See [replication].
#' @param design `"auto"` (default) pairs the runs by interleaved round
#'   when the timings hold at least 6 complete rounds (a `round` column, as
#'   [measure()] records it); `"unpaired"` forces the paper's unpaired
#'   flowchart; `"paired"` asks for the paired design (with two vectors,
#'   `x[i]` is paired with `y[i]`).  See [replication].
#' @return A `speedup_verdict` object (a list of class
#'   `c("speedup_verdict_mean", "speedup_verdict")`) with the elements
#'   `significant`, `direction`, `decision`, `branch`, `p_value`,
#'   `p_value_slowdown`, `baseline`, `run_order` (see [run_order]), `alpha`,
#'   `confidence`,
#'   `confidence_guaranteed`, `speedup`, `speedup_ci`, `speedups`
#'   (named `min`, `mean`, `median`), `steps` (the sub-tests as `htest`
#'   objects in the order the flowchart ran them), `caveats`, `advice`, `n`,
#'   `m`, `rigorous`, `call` and the data, `min_speedup`,
#'   `p_value_equivalence` (the larger p-value of the two one-sided tests of
#'   equivalence, `NA` without a tolerance) and `detectable` (when the
#'   direction is `"none"`, the smallest speedup the protocol would have
#'   declared with probability 0.8; see [tolerance]; `Inf` when no
#'   speedup can be declared at `alpha` with these sizes), `min_alpha` (the
#'   smallest p-values, speedup and slowdown, the final test can reach with
#'   these values and ties: a rank test on few units cannot reach a small
#'   `alpha`, and the verdict then says so and shows no interval at a
#'   level the exact law cannot reach, keeping the level it can reach as
#'   the attribute `attainable` of `speedup_ci`), and for timings
#'   `replication` (the unit, processes, runs, variance components and the
#'   optimal runs per process) and `design` (paired or unpaired, rounds used
#'   and dropped).  `direction` is `"speedup"`, `"slowdown"`, `"equivalent"`
#'   (only with `min_speedup > 1`) or `"none"`.  See [print.speedup_verdict()].
#' @references
#' Touati, S.-A.-A., Worms, J. and Briais, S. (2013). The Speedup-Test: a
#' statistical methodology for programme speedup analysis and computation.
#' *Concurrency and Computation: Practice and Experience*, 25(10), 1410-1426.
#'
#' Fieller, E. C. (1954). Some problems in interval estimation. *Journal of
#' the Royal Statistical Society B*, 16(2), 175-185.
#' @seealso [median_test()], [highest_confidence()], [speedup_verdict].
#' @examples
#' set.seed(1)
#' before <- rnorm(35, mean = 10, sd = 0.5)
#' after <- rnorm(35, mean = 9.5, sd = 0.5)
#' mean_test(before, after)
#'
#' runs <- data.frame(time = c(before, after),
#'                    version = factor(rep(c("O2", "O3"), each = 35)))
#' mean_test(time ~ version, data = runs, alpha = 0.01)
#' @export
mean_test <- function(x, ...) UseMethod("mean_test")

#' @rdname mean_test
#' @export
mean_test.default <- function(x, y, alpha = 0.05, rigorous = TRUE,
                              na_rm = FALSE, ..., replication = "auto",
                              design = "auto", min_speedup = 1) {
  labels <- c(deparse1(substitute(x)), deparse1(substitute(y)))
  check_dots_empty(...)
  protocol_default("mean", x, y, alpha, rigorous, na_rm, labels,
                   generic_call(match.call(), quote(mean_test)), replication,
                   design, min_speedup)
}

#' @rdname mean_test
#' @export
mean_test.formula <- function(x, data = NULL, alpha = 0.05, rigorous = TRUE,
                              na_rm = FALSE, initial = NULL, ..., replication = "auto",
                              design = "auto", min_speedup = 1) {
  check_dots_empty(...)
  protocol_formula("mean", x, data, alpha, rigorous, na_rm, initial,
                   generic_call(match.call(), quote(mean_test)), replication,
                   design, min_speedup)
}

#' @rdname mean_test
#' @export
mean_test.speedup_timings <- function(x, benchmark = NULL, versions = NULL,
                                     initial = NULL, alpha = 0.05,
                                     rigorous = TRUE, na_rm = FALSE, ...,
                                     replication = "auto", design = "auto", min_speedup = 1,
                                     warmup = "keep") {
  check_dots_empty(...)
  if (missing(alpha)) alpha <- NULL
  protocol_timings("mean", x, benchmark, versions, initial, alpha, rigorous,
                   na_rm, generic_call(match.call(), quote(mean_test)),
                   replication, design, min_speedup, warmup)
}

#' The Speedup-Test for the median execution time
#'
#' Decides whether the transformed code (`y`) is faster than the initial code
#' (`x`) in the sense of the median and of single runs, following the
#' protocol of Touati, Worms and Briais (2013, Figure 2).
#'
#' The protocol:
#' 1. Two-sided two-sample Kolmogorov-Smirnov test of `x - median(x)`
#'    against `y - median(y)` at level `alpha`: the location-shift model of
#'    the Wilcoxon-Mann-Whitney test holds when p > alpha.  (The p-value is
#'    exact when `n * m < 10000`, also with ties; see [ks_test()].)
#' 2. Model rejected with `n <= 30` or `m <= 30`: `rigorous = TRUE` stops with
#'    "insufficient data" and the advice to run the small sample(s) more than
#'    30 times; `rigorous = FALSE` goes on with a caveat.  Model rejected with
#'    both samples above 30 runs: go on with a caveat.
#' 3. One-sided Wilcoxon-Mann-Whitney rank-sum test, H0: F_X >= F_Y against
#'    Ha: F_X < F_Y (X tends to be larger).  Significant when p <= alpha; then
#'    med(X) > med(Y) and P\[X > Y\] > 1/2 are declared.  The p-value is exact
#'    (also with ties) when n < 50 and m < 50; see [wilcoxon_test()].
#'
#' The verdict also reports `prob_greater`, the estimate U / (n m) of
#' P\[X > Y\] (ties counting one half), the Hodges-Lehmann estimate of the
#' shift `x - y` with its two-sided `1 - alpha` interval (`shift`,
#' `shift_ci`), and an interval for the speedup median(x) / median(y)
#' (`speedup_ci`): the Hodges-Lehmann interval of the shift of log times,
#' mapped through `exp()` (a ratio interval, valid under the scale model
#' `Y = X / theta`), two-sided at `1 - 2 alpha` so that each end is the
#' one-sided `1 - alpha` bound that matches the one-sided decisions, with
#' its own estimate (the exponential of the Hodges-Lehmann shift of log
#' times, attribute `estimate`; the print shows it beside the interval and
#' the ratio of the medians apart).  The Hodges-Lehmann interval is the
#' inversion of the rank-sum test: an interval for the factor theta with
#' P\[X > theta Y\] = 1/2, which is the ratio of the medians when the two
#' samples differ by a scale only.  The ratio of the medians has its own
#' distribution-free interval, the one of Bonett and Price (2002) on log
#' times at the same level (`median_ratio`: estimate, low, high), printed
#' beside it; where the shapes differ (the location check rejects, or the
#' two estimates differ by more than chance allows) a caveat says that the
#' Hodges-Lehmann factor is not the ratio of the medians.  An end of the
#' interval on the boundary the decision rejects (ties at the timer's
#' resolution) is open (attribute `open`), so that the interval always
#' agrees with the decision.  The
#' confidence is guaranteed only when the location model was not rejected.
#'
#' **Direction.**  On the same path, the mirrored one-sided test (Ha: Y tends
#' to be larger; exact, also with ties, whenever the speedup test is) gives
#' `p_value_slowdown`; when it is `<= alpha` the verdict's `direction` is
#' `"slowdown"` (printed "significant slowdown", with the speedup below 1 and
#' its interval).  `significant` keeps its meaning: a significant speedup.
#' Each claim is made at risk `alpha`.
#'
#' **Run order.**  The runs of each sample are checked for a trend in the
#' order they were recorded (Mann-Kendall, level 0.0025), and with timings
#' whose global order is known, whether the two versions were interleaved;
#' a flag adds a caveat and makes `confidence_guaranteed` FALSE.  See
#' [run_order].
#'
#' @inheritParams mean_test
#' @return A `speedup_verdict` object of class
#'   `c("speedup_verdict_median", "speedup_verdict")`; see [mean_test()] for
#'   the elements, plus `prob_greater`, `shift` and `shift_ci`.
#' @references
#' Touati, S.-A.-A., Worms, J. and Briais, S. (2013). The Speedup-Test: a
#' statistical methodology for programme speedup analysis and computation.
#' *Concurrency and Computation: Practice and Experience*, 25(10), 1410-1426.
#'
#' Hodges, J. L. and Lehmann, E. L. (1963). Estimates of location based on
#' rank tests. *Annals of Mathematical Statistics*, 34(2), 598-611.
#' @seealso [mean_test()], [highest_confidence()].
#' @examples
#' set.seed(2)
#' before <- 10 * rlnorm(40, sdlog = 0.1)
#' after <- 9 * rlnorm(40, sdlog = 0.1)
#' v <- median_test(before, after)
#' v
#' summary(v)
#' as.data.frame(v)
#' @export
median_test <- function(x, ...) UseMethod("median_test")

#' @rdname median_test
#' @export
median_test.default <- function(x, y, alpha = 0.05, rigorous = TRUE,
                              na_rm = FALSE, ..., replication = "auto",
                              design = "auto", min_speedup = 1) {
  labels <- c(deparse1(substitute(x)), deparse1(substitute(y)))
  check_dots_empty(...)
  protocol_default("median", x, y, alpha, rigorous, na_rm, labels,
                   generic_call(match.call(), quote(median_test)), replication,
                   design, min_speedup)
}

#' @rdname median_test
#' @export
median_test.formula <- function(x, data = NULL, alpha = 0.05, rigorous = TRUE,
                              na_rm = FALSE, initial = NULL, ..., replication = "auto",
                              design = "auto", min_speedup = 1) {
  check_dots_empty(...)
  protocol_formula("median", x, data, alpha, rigorous, na_rm, initial,
                   generic_call(match.call(), quote(median_test)), replication,
                   design, min_speedup)
}

#' @rdname median_test
#' @export
median_test.speedup_timings <- function(x, benchmark = NULL, versions = NULL,
                                     initial = NULL, alpha = 0.05,
                                     rigorous = TRUE, na_rm = FALSE, ...,
                                     replication = "auto", design = "auto", min_speedup = 1,
                                     warmup = "keep") {
  check_dots_empty(...)
  if (missing(alpha)) alpha <- NULL
  protocol_timings("median", x, benchmark, versions, initial, alpha, rigorous,
                   na_rm, generic_call(match.call(), quote(median_test)),
                   replication, design, min_speedup, warmup)
}

#' Highest confidence at which a Speedup-Test declares a speedup
#'
#' Returns the largest confidence level `1 - alpha`, with `alpha` in
#' `(0, 0.5]`, at which [median_test()] or [mean_test()] declares the speedup
#' significant.
#'
#' The answer is exact, not the result of a grid search: every decision of a
#' flowchart compares a sub-test's p-value with `alpha` (the Shapiro-Wilk,
#' F, t and Kolmogorov-Smirnov p-values, the final p-value being Student's or
#' Welch's depending on the F-test), so the decision is piecewise constant in
#' `alpha` and changes only at those p-values.  The smallest significant
#' `alpha` is therefore one of them, and is found by evaluating the flowchart
#' there.  A final p-value of exactly 0 gives 1.
#'
#' It concerns speedups only: a significant slowdown (see the verdict's
#' `direction`) gives `NA` here; swap the samples (or `initial`) to ask how
#' confident the slowdown is.  The run-order checks do not enter it.
#'
#' @inheritParams mean_test
#' @param test The protocol, by name (see [speeduptest_protocols]):
#'   `"median"` (default), `"mean"`, ....
#' @param replication,design The unit of replication and the design, as in
#'   [mean_test()]; in the paired design the confidence is 1 minus the
#'   signed-rank (median) or paired t (mean) p-value, the latter only when
#'   the differences are shown normal or there are more than 30 rounds
#'   (rigorous mode).
#' @param min_speedup The tolerance (see [tolerance]): the highest confidence
#'   at which a speedup beyond `min_speedup` is declared.  The candidates are
#'   then the sub-tests' p-values and the tolerance tests' p-values (for
#'   Student's and Welch's branch), and the protocol is evaluated at each.
#' @param data With a formula `x`, the data frame holding its variables.
#' @param initial,benchmark,versions With a formula or timings `x`, as in
#'   [mean_test()].
#' @return A single number, the highest confidence, or `NA` when the
#'   protocol declares no significant speedup for any `alpha <= 0.5`.  It
#'   has the class `speeduptest_confidence` only so that it prints with the
#'   digits that matter (a confidence of 1 - 8e-12 prints as
#'   `1 - 8.0e-12`, not 1); arithmetic and `as.numeric()` give plain numbers.
#' @examples
#' set.seed(3)
#' before <- rnorm(40, 10, 1)
#' after <- rnorm(40, 9.6, 1)
#' highest_confidence(before, after)
#' highest_confidence(before, after, test = "mean")
#' @export
highest_confidence <- function(x, y = NULL, test = protocol_choices(),
                               rigorous = TRUE, na_rm = FALSE, data = NULL,
                               initial = NULL, benchmark = NULL,
                               versions = NULL, replication = "auto",
                               design = "auto", min_speedup = 1) {
  na_rm <- check_flag(na_rm, "na_rm")
  structured <- inherits(x, "speedup_timings") || !identical(design, "auto") ||
    !identical(replication, "auto")
  parts <- pair_samples(x, y, data, na_rm, initial, benchmark, versions)
  test <- check_choice(test, protocol_choices(), "test")
  rigorous <- check_flag(rigorous, "rigorous")
  if (structured) {
    return(structured_confidence(test, parts, rigorous, na_rm, replication,
                                 design, min_speedup))
  }
  x <- parts$x
  y <- parts$y
  x <- check_sample(x, "x", na_rm = na_rm, min_n = 0L, positive = TRUE)
  y <- check_sample(y, "y", na_rm = na_rm, min_n = 0L, positive = TRUE)
  min_speedup <- check_min_speedup(min_speedup)
  if (min_speedup != 1) {
    return(highest_confidence_tolerance(x, y, test, rigorous, min_speedup))
  }
  res <- .Call(ffi_highest_confidence, x, y, protocol_code(test), rigorous)
  check_status(res, "highest_confidence()")
  with_slowdown(new_confidence(res$confidence, res$alpha), x, y, test, rigorous)
}

# When no level declares the speedup, the print says whether the mirrored
# claim (a slowdown) is declared, and up to which confidence.
with_slowdown <- function(out, x, y, test, rigorous) {
  if (is.na(out) && length(x) && length(y)) {
    back <- .Call(ffi_highest_confidence, as.double(y), as.double(x),
                  protocol_code(test), rigorous)
    if (identical(back$status, 0L)) {
      attr(out, "slowdown") <- new_confidence(back$confidence, back$alpha)
    }
  }
  out
}

#' Observed speedups of the minimum, mean and median run times
#'
#' The three speedups the Speedup-Test paper defines from two samples of run
#' times (section 2): min(x) / min(y), mean(x) / mean(y) and
#' median(x) / median(y).  They are observations, not decisions: whether the
#' speedup of the mean or of the median is statistically significant is what
#' [mean_test()] and [median_test()] tell (their verdicts carry the same three
#' numbers as `speedups`).
#'
#' @inheritParams mean_test
#' @param x Run times of the initial code (positive numbers), a formula
#'   `time ~ version` or timings, as in [median_test()].
#' @param data With a formula `x`, the data frame holding its variables.
#' @param initial,benchmark,versions With a formula or timings `x`, as in
#'   [mean_test()].
#' @return A named numeric vector `c(min, mean, median)`.
#' @examples
#' observed_speedups(c(10.2, 10.4, 10.1, 10.9), c(8.1, 8.3, 8.0, 9.4))
#' @export
observed_speedups <- function(x, y = NULL, na_rm = FALSE, data = NULL,
                              initial = NULL, benchmark = NULL,
                              versions = NULL) {
  na_rm <- check_flag(na_rm, "na_rm")
  parts <- pair_samples(x, y, data, na_rm, initial, benchmark, versions)
  x <- parts$x
  y <- parts$y
  x <- check_sample(x, "x", na_rm = na_rm, min_n = 1L, positive = TRUE)
  y <- check_sample(y, "y", na_rm = na_rm, min_n = 1L, positive = TRUE)
  res <- .Call(ffi_observed_speedups, x, y)
  check_status(res, "observed_speedups()")
  stats::setNames(res$speedups, c("min", "mean", "median"))
}

# ---- internals -------------------------------------------------------------

# The one implementation of every protocol's methods (mean_test(),
# median_test(), ...): two vectors, a formula, timings.
protocol_default <- function(test, x, y, alpha, rigorous, na_rm, labels, call,
                             replication, design, min_speedup) {
  if (is.data.frame(x) && !inherits(x, "speedup_timings")) {
    has <- intersect(c("benchmark", "version", "time"), tolower(names(x)))
    abort(sprintf("`x` is a data frame%s, not run times: give the formula `time ~ version` with `data =` it (one benchmark), e.g. %s_test(time ~ version, data = d), or make it timings with as_timings(d) and analyse those (with `benchmark =` when it holds several).",
                  if (length(has)) sprintf(" (with columns %s)", paste(has, collapse = ", ")) else "",
                  test), class = c("argument", "input"))
  }
  if (!identical(design, "auto") || !identical(replication, "auto")) {
    return(run_vectors(test, x, y, alpha, rigorous, na_rm, labels, call,
                       replication, design, min_speedup = min_speedup))
  }
  run_protocol(test, x, y, alpha, rigorous, na_rm, labels,
               paste(labels, collapse = " and "), call,
               baseline = sprintf("`%s` (first argument)", labels[1L]),
               min_speedup = min_speedup)
}

protocol_formula <- function(test, x, data, alpha, rigorous, na_rm, initial,
                             call, replication, design, min_speedup) {
  na_rm <- check_flag(na_rm, "na_rm")
  parts <- split_formula(x, data, na_rm, initial)
  if (!identical(design, "auto") || !identical(replication, "auto")) {
    return(run_vectors(test, parts$x, parts$y, alpha, rigorous, na_rm,
                       parts$labels, call, replication, design,
                       data_name = parts$data_name, baseline = parts$baseline,
                       min_speedup = min_speedup))
  }
  run_protocol(test, parts$x, parts$y, alpha, rigorous, na_rm, parts$labels,
               parts$data_name, call, baseline = parts$baseline,
               min_speedup = min_speedup)
}

protocol_timings <- function(test, x, benchmark, versions, initial, alpha,
                             rigorous, na_rm, call, replication, design,
                             min_speedup, warmup = "keep") {
  na_rm <- check_flag(na_rm, "na_rm")
  # runs of a sequential stop keep their design (SPEC section 10)
  seq <- if (inherits(x, "speedup_timings")) sequential_design(x, benchmark)
  if (!is.null(seq) && identical(replication, "auto") && identical(design, "auto") &&
      identical(warmup, "keep")) {
    parts <- timings_pair(x, benchmark, versions, initial, na_rm)
    v <- sequential_verdict(test, parts, seq, alpha, call, min_speedup)
    if (!is.null(v)) return(v)
  }
  alpha <- alpha %||% 0.05
  parts <- warmup_pair(x, benchmark, versions, initial, na_rm, warmup,
                       by_round = identical(design, "auto") || identical(design, "paired"))
  v <- warmup_verdict(run_structured(test, parts, alpha, rigorous, na_rm, call, replication,
                                     design, min_speedup = min_speedup),
                      parts)
  if (!is.null(seq)) {
    v$notes <- c(v$notes, sequential_fixed_note())
    v$confidence_guaranteed <- FALSE
  }
  v
}

run_protocol <- function(test, x, y, alpha, rigorous, na_rm, labels,
                         data_name, call, baseline, positions = NULL,
                         min_speedup = 1) {
  if (missing(y)) {
    abort("`y` is missing: give the run times of the transformed code.")
  }
  na_rm <- check_flag(na_rm, "na_rm")
  if (!is.null(positions) && na_rm && is.numeric(x) && is.numeric(y)) {
    positions <- list(x = positions$x[!is.na(x)], y = positions$y[!is.na(y)])
  }
  if (!plain_run_times(x)) {
    x <- check_sample(x, "x", na_rm = na_rm, min_n = 0L, positive = TRUE)
  }
  if (!plain_run_times(y)) {
    y <- check_sample(y, "y", na_rm = na_rm, min_n = 0L, positive = TRUE)
  }
  alpha <- check_alpha(alpha)
  rigorous <- check_flag(rigorous, "rigorous")
  min_speedup <- check_min_speedup(min_speedup)
  # a protocol that sorts the runs (the median's) makes the trend tests of
  # the run-order checks with the sort it needs anyway
  res <- .Call(ffi_run_protocol, x, y, protocol_code(test), FALSE, alpha,
               rigorous, if (protocol_info(test)$trend_in_core) run_order_min_runs else 0L)
  check_status(res, sprintf("%s_test()", test))
  v <- if (is.null(positions)) {
    # the trend checks decide whether the confidence holds; the run_order
    # element that reports them is made when read
    new_verdict(res, test, x, y, alpha, rigorous, labels, data_name, call,
                baseline = baseline, run_order_flag = trend_flag(x, y, res$trend))
  } else {
    new_verdict(res, test, x, y, alpha, rigorous, labels, data_name, call,
                baseline = baseline,
                run_order = run_order_check(x, y, labels, positions,
                                            trend = res$trend))
  }
  check_plausible_speedup(v$speedup)
  apply_tolerance(v, min_speedup)
}

# A speedup beyond a factor 100 either way is far more often two units
# mixed (seconds against milliseconds gives 1000, or 0.001) than a change
# of the code: a warning (class speeduptest_warning_implausible) says so.
# The verdict is kept.
implausible_factor <- 100
check_plausible_speedup <- function(speedup) {
  if (length(speedup) != 1L || !is.finite(speedup) || speedup <= 0) return(invisible())
  if (speedup > implausible_factor || speedup < 1 / implausible_factor) {
    warn(sprintf("the speedup %s (a factor %s %s) is implausible for two versions of one program: were both timed in the same unit? Seconds against milliseconds gives 1000 (or 0.001); convert one sample.",
                 fmt_num(speedup), fmt_num(max(speedup, 1 / speedup)),
                 if (speedup > 1) "faster" else "slower"),
         class = "implausible")
  }
  invisible()
}

# TRUE when x is already what check_sample(positive = TRUE) would return
# (a double vector without attributes, every value finite and positive),
# checked in one pass in C without copying it.
plain_run_times <- function(x) {
  is.double(x) && is.null(attributes(x)) &&
    .Call(ffi_all_positive_finite, x)
}

# match.call() in a method names the method; show the generic instead.
generic_call <- function(call, generic = NULL) {
  if (!is.null(generic)) {
    call[[1L]] <- generic
    return(call)
  }
  fn <- as.character(call[[1L]])
  if (length(fn) == 1L) {
    call[[1L]] <- as.name(sub("\\.(default|formula|speedup_timings)$", "", fn))
  }
  call
}
