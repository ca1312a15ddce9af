#' Student's and Welch's t tests
#'
#' `t_test()` tests a difference in means between two independent samples
#' (or, with `y = NULL`, the mean of one sample), the twin of
#' [stats::t.test()] computed in C. `t_test_summary()` runs the same
#' two-sample test from the means, standard deviations and sizes alone
#' (the twin of Python's `scipy.stats.ttest_ind_from_stats`).
#'
#' @param x,y Numeric vectors: the run times of the initial code (`x`) and
#'   of the transformed code (`y`). `y = NULL` gives the one-sample test of
#'   `mean(x) = mu` (use it on paired differences `x - y` for a paired
#'   test).
#' @param alternative The alternative hypothesis about
#'   `mean(x) - mean(y) - mu`: `"two.sided"` (default), `"less"` or
#'   `"greater"`; may be abbreviated. "x is slower than y" (a speedup) is
#'   `"greater"`.
#' @param mu The hypothesised difference in means (the mean itself for
#'   the one-sample test).
#' @param var_equal If `TRUE`, Student's test with the pooled variance;
#'   if `FALSE` (default), Welch's test.
#' @param conf_level Confidence level of the interval, in (0, 1).
#' @param na_rm If `TRUE`, missing values are dropped first; otherwise they
#'   are an error.
#'
#' @return An object of class `c("speeduptest_htest", "htest")` with the
#'   fields of [stats::t.test()]: `statistic` (t), `parameter` (df),
#'   `p.value`, `conf.int` (for the difference in means), `estimate`
#'   (`mean of x`, `mean of y`), `null.value` (`difference in means`),
#'   `stderr`, `alternative`, `method` (`" Two Sample t-test"` or
#'   `"Welch Two Sample t-test"`, as R) and `data.name`.
#'
#' @details Both tests assume normal samples (or samples large enough for
#'   the central limit theorem); Welch's does not assume equal variances.
#'   Welch's test needs at least 2 values in each sample, Student's at
#'   least 1 in each and 3 in all, the one-sample test at least 2. When
#'   the standard error vanishes (both samples constant, or spread below
#'   10 ulps of the means, where R says "data are essentially constant")
#'   an error of class `speeduptest_error_data` is raised. Missing and
#'   infinite values are errors unless `na_rm = TRUE` drops the missing
#'   ones.
#'
#'   In `t_test_summary()` the standard deviations are sample standard
#'   deviations (divisor n - 1) and the sizes whole numbers.
#'
#' @references
#' Student (1908). The probable error of a mean. *Biometrika*, 6, 1-25.
#'
#' Welch, B. L. (1947). The generalization of "Student's" problem when
#' several different population variances are involved. *Biometrika*, 34,
#' 28-35.
#'
#' @examples
#' T1 <- c(2.799, 2.046, 1.259, 1.877, 2.244)
#' T2 <- c(1.046, 0.259, 0.877, 1.244, 1.799)
#' t_test(T1, T2, alternative = "greater", var_equal = TRUE, conf_level = 0.95)
#' t_test(T1, T2)
#' t_test(T1 - T2, mu = 1)
#' t_test_summary(0.104, 0.012, 5, 0.03, 0, 5)
#' @param ... Not used: an argument spelled the base R way (`na.rm`,
#'   `conf.level`, ...) is an error that gives this package's spelling.
#' @export
t_test <- function(x, y = NULL, alternative = c("two.sided", "less", "greater"),
                   mu = 0, var_equal = FALSE, conf_level = 0.95,
                   na_rm = FALSE, ...) {
  check_dots_empty(...)
  one_sample <- is.null(y)
  data_name <- if (one_sample) {
    deparse1(substitute(x))
  } else {
    paste(deparse1(substitute(x)), "and", deparse1(substitute(y)))
  }
  na_rm <- check_flag(na_rm, "na_rm")
  var_equal <- check_flag(var_equal, "var_equal")
  min_n <- if (var_equal && !one_sample) 1L else 2L
  x <- check_sample(x, "x", na_rm = na_rm, min_n = min_n)
  if (!one_sample) {
    y <- check_sample(y, "y", na_rm = na_rm, min_n = min_n)
    if (length(x) + length(y) < 3L) {
      abort("`x` and `y` must have at least 3 values in all for Student's test.",
            class = "data")
    }
  }
  alt <- match(check_choice(alternative, alternatives, "alternative"), alternatives) - 1L
  mu <- check_number(mu, "mu")
  conf_level <- check_conf_level(conf_level)
  res <- .Call(ffi_t_test, x, y, alt, mu, var_equal, conf_level)
  what <- if (one_sample) "`x`" else "`x` and `y`"
  t_htest(res, what, one_sample, var_equal, mu, conf_level, alt, data_name)
}

#' @rdname t_test
#' @param mean_x,sd_x,n_x Mean, standard deviation and number of values of
#'   the first sample.
#' @param mean_y,sd_y,n_y The same for the second sample.
#' @param ... Not used: an argument spelled the base R way (`na.rm`,
#'   `conf.level`, ...) is an error that gives this package's spelling.
#' @export
t_test_summary <- function(mean_x, sd_x, n_x, mean_y, sd_y, n_y,
                           alternative = c("two.sided", "less", "greater"),
                           mu = 0, var_equal = FALSE, conf_level = 0.95, ...) {
  check_dots_empty(...)
  mean_x <- check_number(mean_x, "mean_x")
  mean_y <- check_number(mean_y, "mean_y")
  sd_x <- check_sd(sd_x, "sd_x")
  sd_y <- check_sd(sd_y, "sd_y")
  var_equal <- check_flag(var_equal, "var_equal")
  min_n <- if (var_equal) 1L else 2L
  n_x <- check_count(n_x, "n_x", min_n)
  n_y <- check_count(n_y, "n_y", min_n)
  if (n_x + n_y < 3) {
    abort("`n_x` and `n_y` must add up to at least 3 for Student's test.",
          class = "data")
  }
  alt <- match(check_choice(alternative, alternatives, "alternative"), alternatives) - 1L
  mu <- check_number(mu, "mu")
  conf_level <- check_conf_level(conf_level)
  res <- .Call(ffi_t_test_summary, mean_x, sd_x, n_x, mean_y, sd_y, n_y,
               alt, mu, var_equal, conf_level)
  data_name <- sprintf("x (mean %s, sd %s, n %s) and y (mean %s, sd %s, n %s)",
                       format(mean_x), format(sd_x), format(n_x),
                       format(mean_y), format(sd_y), format(n_y))
  t_htest(res, "`sd_x` and `sd_y`", FALSE, var_equal, mu, conf_level, alt,
          data_name)
}

t_htest <- function(res, what, one_sample, var_equal, mu, conf_level, alt,
                    data_name) {
  if (identical(res$status, 3L)) {
    abort(sprintf("%s: data are essentially constant (no variability to test).",
                  what), class = "data")
  }
  check_status(res, sprintf("t test of %s", what))
  method <- if (one_sample) {
    "One Sample t-test"
  } else {
    paste(if (!var_equal) "Welch", "Two Sample t-test")
  }
  new_htest(res, method = method, data_name = data_name,
            alternative = alternative_name(alt), statistic_name = "t",
            parameter_names = "df",
            estimate_names = if (one_sample) "mean of x" else c("mean of x", "mean of y"),
            null_value = stats::setNames(mu, if (one_sample) "mean" else "difference in means"),
            conf_level = conf_level, extra = list(stderr = res$stderr))
}

