# The probability protocol: H1 is P[X > Y] + P[X = Y] / 2 > 1/2, a run of
# the new code is more likely to be faster than not, by the Brunner-Munzel
# test (st_prob_protocol in src/prob.c); its paired twin is the sign test of
# the rounds.  Its words are in its descriptor (`protocols$prob`,
# R/protocol-descriptor.R); this file holds its exported functions and the
# R side of its capabilities (the `calls` of the descriptor).

#' The probability protocol: is a run of the new code more likely faster?
#'
#' Decides whether a single run of the transformed code (`y`) is more
#' likely to be faster than a single run of the initial code (`x`) than
#' not: H1 is \eqn{p = P[X > Y] + P[X = Y]/2 > 1/2}.  Unlike
#' [median_test()], it needs neither a location-shift model nor equal
#' spreads: two versions whose runs are equally likely to win are not
#' declared different however their spreads differ.
#'
#' The test is the Brunner-Munzel test (Brunner and Munzel 2000): the
#' estimate \eqn{\hat p}{p^} (the rank-sum statistic over \eqn{nm}), its
#' standard error from the placements of each sample in the other, and the
#' studentized statistic \eqn{T = (\hat p - 1/2) / se}{T = (p^ - 1/2) / se}.
#' For small samples the p-value is the studentized permutation test of
#' Neubert and Brunner (2007), exact by enumerating every split of the
#' pooled runs when there are at most 200,000 of them (`n = m = 10` and
#' every smaller design: the branch `prob_permutation`); beyond, the t
#' approximation with Satterthwaite's degrees of freedom (`prob_t`).  The
#' statistic permuted is the range-preserving studentization of
#' \eqn{\mathrm{logit}(\hat p)}{logit(p^)} (Pauly, Asendorf and
#' Konietschke 2016), \eqn{\mathrm{logit}(\hat p)\,\hat p (1 - \hat p) / se}{logit(p^) p^ (1 - p^) / se}:
#' like \eqn{T} it is exact when the two laws are equal and asymptotically
#' exact when their spreads differ, and unlike \eqn{T} it keeps the level
#' at 10 runs a side when one version's runs are five times as spread as
#' the other's (where \eqn{T}'s standard error, that of a proportion
#' estimated far from 1/2, is too small).  The step's `statistic` is
#' \eqn{T}.  When
#' the samples separate completely the p-value is the chance of that
#' ordering, `1 / choose(n + m, n)`.  Fewer than 3 runs in a sample, or all
#' runs equal, give "insufficient data"; there is no model to check, so
#' `rigorous` changes nothing and the confidence is guaranteed (up to the
#' run-order checks, see [run_order]).
#'
#' The verdict's `prob_greater` is \eqn{\hat p}{p^} and `prob_ci` its
#' interval, \eqn{\hat p \pm t_{1-\alpha} se}{p^ -+ t(1 - alpha) se} clipped
#' to \[0, 1\] (two-sided at `1 - 2 alpha`, each end a one-sided
#' `1 - alpha` bound, as the other protocols' intervals).  Its `speedup` is
#' the observed ratio of the medians (no interval: the protocol's estimate
#' is the probability).
#'
#' **Tolerance.**  `min_speedup = 1 + d` is a margin `d` on the
#' probability: a speedup is declared only when \eqn{p > 1/2 + d}, a
#' slowdown when \eqn{p < 1/2 - d}, and with `d > 0` the versions are
#' `"equivalent"` when both \eqn{p < 1/2 + d} and \eqn{p > 1/2 - d} are
#' shown (two one-sided tests).  These use the t approximation (the
#' permutation law holds for \eqn{p = 1/2} only).  So
#' `speeduptest compare --test prob --tolerance 5` asks for a probability
#' beyond 0.55.
#'
#' **Paired design.**  With runs taken in interleaved rounds
#' (`design = "paired"`, or timings with complete rounds), the protocol is
#' the sign test of the probability that a round's new run is faster, ties
#' split between the two signs (conservative); `prob_greater` is that share
#' and `prob_ci` its Clopper-Pearson interval.
#'
#' @inheritParams mean_test
#' @return A `speedup_verdict` object of class
#'   `c("speedup_verdict_prob", "speedup_verdict")`; see [mean_test()] for
#'   the elements, plus `prob_greater` and `prob_ci`.
#' @references
#' Brunner, E. and Munzel, U. (2000). The nonparametric Behrens-Fisher
#' problem: asymptotic theory and a small-sample approximation.
#' *Biometrical Journal*, 42(1), 17-25.
#'
#' Neubert, K. and Brunner, E. (2007). A studentized permutation test for
#' the non-parametric Behrens-Fisher problem. *Computational Statistics and
#' Data Analysis*, 51(10), 5192-5204.
#'
#' Pauly, M., Asendorf, T. and Konietschke, F. (2016). Permutation-based
#' inference for the AUC: a unified approach for continuous and
#' discontinuous data. *Biometrical Journal*, 58(6), 1319-1337.
#' @seealso [median_test()], [speeduptest_protocols].
#' @examples
#' set.seed(4)
#' before <- 10 * rlnorm(12, sdlog = 0.01)
#' after <- 9.9 * rlnorm(12, sdlog = 0.05)
#' prob_test(before, after)
#' @export
prob_test <- function(x, ...) UseMethod("prob_test")

#' @rdname prob_test
#' @export
prob_test.default <- function(x, y, alpha = 0.05, rigorous = TRUE,
                              na_rm = FALSE, ..., replication = "auto",
                              design = "auto", min_speedup = 1) {
  labels <- c(deparse1(substitute(x)), deparse1(substitute(y)))
  check_dots_empty(...)
  protocol_default("prob", x, y, alpha, rigorous, na_rm, labels,
                   generic_call(match.call(), quote(prob_test)), replication,
                   design, min_speedup)
}

#' @rdname prob_test
#' @export
prob_test.formula <- function(x, data = NULL, alpha = 0.05, rigorous = TRUE,
                              na_rm = FALSE, initial = NULL, ..., replication = "auto",
                              design = "auto", min_speedup = 1) {
  check_dots_empty(...)
  protocol_formula("prob", x, data, alpha, rigorous, na_rm, initial,
                   generic_call(match.call(), quote(prob_test)), replication,
                   design, min_speedup)
}

#' @rdname prob_test
#' @export
prob_test.speedup_timings <- function(x, benchmark = NULL, versions = NULL,
                                      initial = NULL, alpha = 0.05,
                                      rigorous = TRUE, na_rm = FALSE, ...,
                                      replication = "auto", design = "auto",
                                      min_speedup = 1) {
  check_dots_empty(...)
  protocol_timings("prob", x, benchmark, versions, initial, alpha, rigorous,
                   na_rm, generic_call(match.call(), quote(prob_test)),
                   replication, design, min_speedup)
}

# ---- capabilities (the descriptor's `calls`) ----------------------------------

# The pooled spread of the log times (through the coefficients of variation
# when only the moments are known).
prob_log_sd <- function(x, y) log_pooled_sd(x, y)

# The smallest speedup declared with probability `power`: under a shift of
# the log times by log(theta) with normal spread s, p(theta) =
# pnorm(log(theta) / (s sqrt(2))); the test declares it when p(theta) -
# (1/2 + d) reaches (z_{1-alpha} + z_power) times the null standard error
# of p^, sqrt((n + m + 1) / (12 n m)).
prob_detectable_at <- function(s, n, m, alpha, power, s0) {
  d <- s0 - 1
  se <- sqrt((n + m + 1) / (12 * n * m))
  target <- 0.5 + d + (stats::qnorm(1 - alpha) + stats::qnorm(power)) * se
  out <- exp(s * sqrt(2) * stats::qnorm(pmin(target, 1)))
  out[target >= 1] <- Inf
  out[!is.finite(s) | s <= 0] <- NA_real_
  out
}

detectable_prob <- function(v, power, alpha, s0) {
  prob_detectable_at(prob_log_sd(v$x, v$y), v$n, v$m, alpha, power, s0)
}

# A suite's benchmarks idx: the spread of the log times as
# detectable_prob() takes it (one computation for a verdict and a suite).
suite_detectable_prob <- function(suite, idx, b, a, s0, power, ci) {
  n <- suite$x_len[idx]
  m <- suite$y_len[idx]
  out <- rep(NA_real_, length(idx))
  ok <- n >= 2 & m >= 2
  if (any(ok)) {
    out[ok] <- prob_detectable_at(suite_log_sd(suite, idx[ok]), n[ok], m[ok],
                                  a[ok], power, s0)
  }
  out
}

tolerance_candidates_prob <- function(x, y, s0) {
  tolerance_p_values(x, y, "prob", FALSE, s0)[1L]
}

# The paired twin's four tests at the margin d = s0 - 1: the binomial tails
# at 1/2 + d of the rounds won by each version, ties split (as the sign
# test of st_paired_prob).
paired_tolerance_prob <- function(x, y, s0) {
  n <- length(x)
  ties <- sum(x == y)
  s_up <- sum(x > y) + ties / 2
  s_down <- sum(x < y) + ties / 2
  q0 <- min(1, 0.5 + (s0 - 1))
  upper <- function(s) stats::pbinom(floor(s) - 1, n, q0, lower.tail = FALSE)
  lower <- function(s) stats::pbinom(ceiling(s), n, q0)
  c(upper(s_up), upper(s_down), lower(s_up), lower(s_down))
}

# plan_runs() resamples as the median protocol does (the versions brought
# to one location by the Hodges-Lehmann shift of the log times).
plan_samples_prob <- function(x, y) plan_samples_median(x, y)

# The change in the scale where its standard error shrinks as
# sqrt(1/n + 1/m): the probability beyond the margin.
plan_effect_prob <- function(v, s, s0) {
  stats::pnorm(log(s) / (prob_log_sd(v$x, v$y) * sqrt(2))) - 0.5 - (s0 - 1)
}
