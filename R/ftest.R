#' F test to compare two variances
#'
#' Tests whether the variances of two normal samples have a given ratio,
#' the twin of [stats::var.test()] computed in C.
#'
#' @param x,y Numeric vectors of at least 2 values each (run times of the
#'   initial and of the transformed code).
#' @param alternative The alternative hypothesis about var(x) / var(y):
#'   `"two.sided"` (default), `"less"` or `"greater"`; may be abbreviated.
#' @param ratio The hypothesised ratio of the variances, a positive number.
#' @param conf_level Confidence level of the interval, in (0, 1).
#' @param na_rm If `TRUE`, missing values are dropped first; otherwise they
#'   are an error.
#'
#' @return An object of class `c("speeduptest_htest", "htest")` with the
#'   fields of [stats::var.test()]: `statistic` (F), `parameter` (`num df`,
#'   `denom df`), `p.value`, `conf.int` (for the ratio of variances),
#'   `estimate` (`ratio of variances`), `null.value`, `alternative`,
#'   `method` and `data.name`.
#'
#' @details The test assumes both samples are normal and independent; it is
#'   very sensitive to non-normality. Unlike [stats::var.test()], missing
#'   or infinite values are errors (not silently dropped), and the upper
#'   tail probability is computed directly rather than as one minus the
#'   lower tail, so very small p-values keep their relative accuracy (R's
#'   value differs from it by at most about 1e-16 in absolute terms). When
#'   one sample is constant, F is 0 or `Inf` and the p-value its limit;
#'   when both are, the test is undefined and an error of class
#'   `speeduptest_error_data` is raised.
#'
#' @references
#' Snedecor, G. W. and Cochran, W. G. (1989). *Statistical Methods*, 8th
#' edition. Iowa State University Press.
#'
#' @examples
#' x <- c(2.799, 2.046, 1.259, 1.877, 2.244)
#' y <- c(1.046, 0.259, 0.877, 1.244, 1.799, 1.5)
#' f_test(x, y)
#' f_test(x, y, alternative = "greater", ratio = 2)
#' @param ... Not used: an argument spelled the base R way (`na.rm`,
#'   `conf.level`, ...) is an error that gives this package's spelling.
#' @export
f_test <- function(x, y, alternative = c("two.sided", "less", "greater"),
                   ratio = 1, conf_level = 0.95, na_rm = FALSE, ...) {
  check_dots_empty(...)
  data_name <- paste(deparse1(substitute(x)), "and", deparse1(substitute(y)))
  na_rm <- check_flag(na_rm, "na_rm")
  x <- check_sample(x, "x", na_rm = na_rm, min_n = 2L)
  y <- check_sample(y, "y", na_rm = na_rm, min_n = 2L)
  alt <- match(check_choice(alternative, alternatives, "alternative"), alternatives) - 1L
  ratio <- check_positive(ratio, "ratio")
  conf_level <- check_conf_level(conf_level)
  res <- .Call(ffi_var_test, x, y, alt, ratio, conf_level)
  if (identical(res$status, 3L)) {
    abort("`x` and `y` are both constant: the ratio of their variances is undefined.",
          class = "data")
  }
  check_status(res, "f_test(`x`, `y`)")
  new_htest(res, method = "F test to compare two variances",
            data_name = data_name, alternative = alternative_name(alt),
            statistic_name = "F", parameter_names = c("num df", "denom df"),
            estimate_names = "ratio of variances",
            null_value = c("ratio of variances" = ratio),
            conf_level = conf_level)
}
