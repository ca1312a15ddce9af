#' Wilcoxon signed-rank test
#'
#' The one-sample (or paired) Wilcoxon signed-rank test that `d` is
#' symmetric about `mu`, the twin of `wilcox.test(d)` and
#' `wilcox.test(x, y, paired = TRUE)` with `d = x - y`, with exact p-values
#' also when there are ties or zeros, and the Hodges-Lehmann pseudo-median
#' with its confidence interval computed without forming the Walsh averages.
#'
#' @param d Numeric vector: the values (or paired differences).
#' @param alternative `"two.sided"`, `"less"` or `"greater"` (`d` tends to
#'   be larger than `mu`).
#' @param mu The centre under the null hypothesis.
#' @param exact `NULL` (exact when fewer than 50 values differ from `mu`),
#'   `TRUE` or `FALSE`.
#' @param correct Continuity correction in the normal approximation.
#' @param conf_int Compute the pseudo-median and its interval?
#' @param conf_level Confidence level of the interval.
#' @param na_rm Drop missing values? Otherwise they are an error.
#'
#' @return An object of class `c("speeduptest_htest", "htest")` with
#'   `statistic` (`V`), `p.value`, `null.value`, `alternative`, `method`,
#'   `data.name`, `exact` and, with `conf_int = TRUE`, `estimate`
#'   (`"(pseudo)median"`) and `conf.int`.
#'
#' @details
#' Values equal to `mu` are dropped, as `wilcox.test()` drops them, and
#' `V` is the sum of the mid-ranks of `|d - mu|` over the positive `d - mu`.
#'
#' **Exact p-values.** Without ties and zeros they are those of
#' [stats::psignrank()].  With ties or zeros (where `wilcox.test()` uses the
#' normal approximation) the p-value comes from the exact distribution of
#' the sum of positive mid-ranks given the tie pattern, all `2^n` sign
#' patterns being equally likely; it is counted exactly with doubled
#' (integer) mid-ranks.  The two-sided p-value is twice the smaller tail,
#' capped at 1.  If every value equals `mu`, `V = 0` and `p = 1`.  Every
#' operation of the count adds non-negative numbers (beyond 1000 values the
#' table holds probabilities, halved at each value), so the p-values keep a
#' relative accuracy of about `n` times the machine epsilon at every size;
#' only tails below about `1e-308` round to 0.  An exact test is possible
#' while the table stays below about 8 million cells and 2e9 additions
#' (about 2000 non-zero values without ties, 1500 with ties, in about a
#' second); larger ones fail with an error of class
#' `speeduptest_error_exact_too_large` that points to `exact = FALSE`.
#'
#' **Normal approximation** (from 50 values on): as `wilcox.test()`.
#'
#' **Estimate and interval.** The estimate is the median of the Walsh
#' averages `(d_i + d_j) / 2`, `i <= j`.  The exact interval is R's (Walsh
#' averages at the positions given by [stats::qsignrank()]); with ties or
#' zeros the same closed interval, whose coverage is then at least
#' `conf_level` (Noether 1967).  In the normal case the interval inverts the
#' approximate test exactly (R uses `uniroot(tol = 1e-4)`), including R's
#' widening of an unreachable level.  Unlike R, the interval and the
#' estimate use every value of `d`, also those equal to `mu` (R drops them
#' first, which makes its interval depend on `mu`).  Walsh averages are
#' selected without being formed, so memory stays `O(n)`.
#'
#' @references
#' Wilcoxon, F. (1945). Individual comparisons by ranking methods.
#' *Biometrics Bulletin* 1, 80-83.
#'
#' Bauer, D. F. (1972). Constructing confidence sets using rank statistics.
#' *JASA* 67, 687-690.
#'
#' Noether, G. E. (1967). Wilcoxon confidence intervals for location
#' parameters in the discrete case. *JASA* 62, 184-188.
#'
#' @examples
#' before <- c(1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30)
#' after <- c(0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29)
#' signed_rank_test(before - after, alternative = "greater", conf_int = TRUE)
#' # ties and zeros: still exact
#' signed_rank_test(c(0, 1, 1, 2, -1, 3, 3))
#' @param ... Not used: an argument spelled the base R way (`na.rm`,
#'   `conf.level`, ...) is an error that gives this package's spelling.
#' @export
signed_rank_test <- function(d, alternative = c("two.sided", "less", "greater"),
                             mu = 0, exact = NULL, correct = TRUE,
                             conf_int = FALSE, conf_level = 0.95,
                             na_rm = FALSE, ...) {
  check_dots_empty(...)
  data_name <- deparse1(substitute(d))
  na_rm <- check_flag(na_rm, "na_rm")
  d <- check_sample(d, "d", na_rm = na_rm, min_n = 1L)
  alt <- match(check_choice(alternative, alternatives, "alternative"), alternatives) - 1L
  mu <- check_number(mu, "mu")
  exact <- check_exact(exact)
  correct <- check_flag(correct, "correct")
  conf_int <- check_flag(conf_int, "conf_int")
  conf_level <- check_conf_level(conf_level)
  res <- .Call(ffi_signed_rank_test, d, alt, mu, exact, correct, conf_int,
               conf_level)
  if (identical(res$status, 2L) && identical(exact, 1L)) {
    abort(paste("`exact = TRUE` is not available for samples this large",
                "(the exact counting table would be too big); use",
                "`exact = FALSE` (the normal approximation)."),
          class = c("exact_too_large", "data"))
  }
  check_status(res, "signed_rank_test()")
  ties <- FALSE
  if (res$exact) {
    v <- d - mu
    ties <- any(v == 0) || anyDuplicated(abs(v[v != 0])) > 0L
  }
  rank_htest(res, "Wilcoxon signed rank", ties, correct, data_name, alt,
             "V", "(pseudo)median", c(location = mu), conf_int)
}
