#' Wilcoxon-Mann-Whitney rank-sum test
#'
#' The two-sample Wilcoxon rank-sum (Mann-Whitney) test of a location shift
#' between `x` and `y`, the twin of [stats::wilcox.test()], with exact
#' p-values also when there are ties, and the Hodges-Lehmann estimate of the
#' shift with its confidence interval computed without forming the `n * m`
#' pairwise differences.
#'
#' @param x,y Numeric vectors: the two samples (`x` the times of the initial
#'   code, `y` those of the transformed code).
#' @param alternative `"two.sided"`, `"less"` or `"greater"`; `"greater"`
#'   means that `x - mu` tends to be larger than `y`.
#' @param mu The location shift under the null hypothesis.
#' @param exact `NULL` (exact when both samples have fewer than 50 values),
#'   `TRUE` or `FALSE`.
#' @param correct Continuity correction in the normal approximation.
#' @param conf_int Compute the Hodges-Lehmann estimate and its interval?
#' @param conf_level Confidence level of the interval.
#' @param na_rm Drop missing values? Otherwise they are an error.
#'
#' @return An object of class `c("speeduptest_htest", "htest")` with
#'   `statistic` (`W`), `p.value`, `null.value`, `alternative`, `method`,
#'   `data.name`, `exact` and, with `conf_int = TRUE`, `estimate`
#'   (`"difference in location"`) and `conf.int`.
#'
#' @details
#' `W` is the sum of the ranks of `x - mu` in the pooled sample minus
#' `n (n + 1) / 2`, so that `W / (n m)` estimates `P[X > Y] + P[X = Y] / 2`
#' when `mu = 0`.
#'
#' **Exact p-values.** Without ties they are those of [stats::pwilcox()],
#' computed from exact integer counts (Harding's recurrence in multi-word
#' integers), so that they stay exact where `pwilcox()` runs out of time
#' or memory and where floating-point counts cancel.
#' With ties (where `wilcox.test()` falls back to the normal
#' approximation) the p-value comes from the exact permutation distribution
#' of the mid-rank sum given the tie pattern: every split of the pooled
#' values into groups of sizes `n` and `m` is equally likely under the null
#' hypothesis.  It is counted exactly with doubled (integer) mid-ranks,
#' keeping only the partial sums that can still decide the tail (a network
#' algorithm): `n = m = 500` with any ties takes a few seconds.  The
#' two-sided p-value is twice the smaller tail, capped at 1.  When every
#' pooled value is the same, `W = n m / 2` with certainty and `p = 1`.  An
#' exact test requested for larger samples fails with an error of class
#' `speeduptest_error_exact_too_large` (pointing to `exact = FALSE`, the
#' normal approximation) when the counting table would exceed about 67
#' million cells or 4e10 additions: about `n = m = 600` to `650` with ties
#' (depending on the tie pattern; there about 13 seconds and 512 MB), `n = m
#' = 813` without (7 seconds, 74 MB).
#'
#' **Normal approximation** (the default from 50 values on): as
#' `wilcox.test()`, with the tie correction of the variance and, with
#' `correct = TRUE`, the continuity correction.
#'
#' **Estimate and interval.** The estimate is always the median of the
#' `n m` differences `x_i - y_j` (Hodges-Lehmann).  In the exact case the
#' interval is R's: the order statistics of the differences at the positions
#' given by [stats::qwilcox()]; with ties the same closed interval is used,
#' whose coverage is then at least `conf_level` (Noether 1967).  When the
#' requested level cannot be reached the achieved one is reported with a
#' warning.  In the normal case R inverts the approximate test with
#' `uniroot(tol = 1e-4)`; here the root is found exactly: it is one of the
#' pairwise differences (the statistic only changes there), so the interval
#' agrees with R's to R's root tolerance and the estimate is the exact
#' median of the differences.  Order statistics of the differences are
#' selected in the implicit sorted matrix (Monahan 1984), so memory stays
#' `O(n + m)` and the time grows like a sort.
#'
#' @references
#' Hollander, M. and Wolfe, D. A. (1973). *Nonparametric Statistical
#' Methods*. Wiley.
#'
#' Noether, G. E. (1967). Wilcoxon confidence intervals for location
#' parameters in the discrete case. *JASA* 62, 184-188.
#'
#' Monahan, J. F. (1984). Algorithm 616: fast computation of the
#' Hodges-Lehmann location estimator. *ACM TOMS* 10, 265-270.
#'
#' @examples
#' x <- c(1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30)
#' y <- c(0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29)
#' wilcoxon_test(x, y, alternative = "greater", conf_int = TRUE)
#' # ties: still exact
#' wilcoxon_test(c(1, 2, 2, 3, 5), c(2, 3, 3, 4, 6, 7))
#' @param ... Not used: an argument spelled the base R way (`na.rm`,
#'   `conf.level`, ...) is an error that gives this package's spelling.
#' @export
wilcoxon_test <- function(x, y, alternative = c("two.sided", "less", "greater"),
                          mu = 0, exact = NULL, correct = TRUE,
                          conf_int = FALSE, conf_level = 0.95, na_rm = FALSE, ...) {
  check_dots_empty(...)
  data_name <- paste(deparse1(substitute(x)), "and", deparse1(substitute(y)))
  na_rm <- check_flag(na_rm, "na_rm")
  x <- check_sample(x, "x", na_rm = na_rm, min_n = 1L)
  y <- check_sample(y, "y", na_rm = na_rm, min_n = 1L)
  alt <- match(check_choice(alternative, alternatives, "alternative"), alternatives) - 1L
  mu <- check_number(mu, "mu")
  exact <- check_exact(exact)
  correct <- check_flag(correct, "correct")
  conf_int <- check_flag(conf_int, "conf_int")
  conf_level <- check_conf_level(conf_level)
  res <- .Call(ffi_wilcoxon_test, x, y, alt, mu, exact, correct, conf_int,
               conf_level)
  if (identical(res$status, 2L) && identical(exact, 1L)) {
    abort(paste("`exact = TRUE` is not available for samples this large",
                "(the exact counting table would be too big); use",
                "`exact = FALSE` (the normal approximation)."),
          class = c("exact_too_large", "data"))
  }
  check_status(res, "wilcoxon_test()")
  ties <- res$exact && anyDuplicated(c(x - mu, y)) > 0L
  rank_htest(res, "Wilcoxon rank sum", ties, correct, data_name, alt,
             "W", "difference in location", c("location shift" = mu),
             conf_int)
}

# Shared by wilcoxon_test() and signed_rank_test(): R's method names, the
# htest object and R's warning about an unreachable confidence level.
rank_htest <- function(res, what, ties, correct, data_name, alt, statistic,
                       estimate, null_value, conf_int) {
  method <- if (res$exact) {
    paste(what, if (ties) "exact test (conditional on ties)" else "exact test")
  } else {
    paste(what, if (correct) "test with continuity correction" else "test")
  }
  if (conf_int && isTRUE(res$ci_warning)) {
    warn("requested conf.level not achievable", class = "data")
  }
  new_htest(res, method, data_name, alternative = alternative_name(alt),
            statistic_name = statistic,
            estimate_names = if (conf_int) estimate,
            null_value = null_value,
            conf_level = if (conf_int) res$ci_level)
}
