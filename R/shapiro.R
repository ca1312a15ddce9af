#' Shapiro-Wilk test of normality
#'
#' Tests whether a sample comes from a normal distribution, with Royston's
#' approximation of the Shapiro-Wilk coefficients and of the null
#' distribution of W (Algorithm AS R94). It is the twin of
#' [stats::shapiro.test()], computed in C, and agrees with it to rounding.
#'
#' @param x A numeric vector of 3 to 5000 values (run times, say).
#' @param na_rm If `TRUE`, missing values are dropped first; otherwise they
#'   are an error.
#'
#' @return An object of class `c("speeduptest_htest", "htest")` with the
#'   fields of [stats::shapiro.test()]: `statistic` (W), `p.value`,
#'   `method` and `data.name`, plus `exact` (`TRUE` only for n = 3, where
#'   the null distribution of W is known exactly).
#'
#' @details A small p-value is evidence against normality; a large one only
#'   means normality was not rejected. The approximation was calibrated by
#'   Royston for 3 <= n <= 5000, so larger samples are refused (with many
#'   values, the test rejects normality for departures too small to
#'   matter). A sample whose values are all equal has no W and is an error
#'   of class `speeduptest_error_data`; so are fewer than 3 or more than
#'   5000 values. In [mean_test()], such samples count as "not shown
#'   normal".
#'
#' @references
#' Shapiro, S. S. and Wilk, M. B. (1965). An analysis of variance test for
#' normality (complete samples). *Biometrika*, 52, 591-611.
#'
#' Royston, P. (1992). Approximating the Shapiro-Wilk W-test for
#' non-normality. *Statistics and Computing*, 2, 117-119.
#'
#' Royston, P. (1995). Remark AS R94: A remark on Algorithm AS 181: The
#' W-test for normality. *Applied Statistics*, 44(4), 547-551.
#'
#' @examples
#' T1 <- c(2.799, 2.046, 1.259, 1.877, 2.244)
#' shapiro_wilk(T1)
#' shapiro_wilk(c(rexp(50), NA), na_rm = TRUE)
#' @param ... Not used: an argument spelled the base R way (`na.rm`,
#'   `conf.level`, ...) is an error that gives this package's spelling.
#' @export
shapiro_wilk <- function(x, na_rm = FALSE, ...) {
  check_dots_empty(...)
  data_name <- deparse1(substitute(x))
  na_rm <- check_flag(na_rm, "na_rm")
  x <- check_sample(x, "x", na_rm = na_rm, min_n = 3L)
  if (length(x) > 5000L) {
    abort(sprintf("`x` must have at most 5000 values for the Shapiro-Wilk test, not %d.",
                  length(x)), class = "data")
  }
  res <- .Call(ffi_shapiro_wilk, x)
  if (identical(res$status, 3L)) {
    abort("`x` has all values equal: the Shapiro-Wilk statistic is undefined.",
          class = "data")
  }
  check_status(res, "shapiro_wilk(`x`)")
  new_htest(res, method = "Shapiro-Wilk normality test",
            data_name = data_name, statistic_name = "W")
}
