#' Confidence interval for the proportion of accelerated benchmarks
#'
#' Estimates the proportion of programs that a code optimisation
#' accelerates from `a` accelerated benchmarks among `b` randomly selected
#' ones, with a confidence interval (Touati, Worms and Briais 2013,
#' section 4).
#'
#' @param a number of successes (accelerated benchmarks): a whole number
#'   with `0 <= a <= b`.
#' @param b number of trials (benchmarks): a whole number `>= 1`.
#' @param conf_level confidence level of the interval, in (0, 1).
#' @param method the interval:
#'   * `"prop.test"` (default, the papers' choice): Wilson's score interval
#'     with continuity correction, identical to
#'     `stats::prop.test(a, b, conf.level = conf_level)$conf.int`.  Like
#'     `prop.test`, the correction is `min(0.5, |a - b/2|)`, so it vanishes
#'     when `a = b/2`.
#'   * `"wilson"`: the score interval without correction
#'     (`prop.test(a, b, correct = FALSE)`).
#'   * `"clopper-pearson"`: the exact interval of [stats::binom.test()].
#'   * `"agresti-coull"`: the Wald interval around `(a + z^2/2) / (b + z^2)`
#'     with `b + z^2` trials.
#'   * `"normal"`: the paper's `C -+ z sqrt(C (1 - C) / b)`, `C = a / b`.
#'
#'   The `"agresti-coull"` and `"normal"` intervals are clipped to
#'   \[0, 1\] (a proportion cannot lie outside); the others lie there by
#'   construction.
#'
#' @return An object of class `c("speeduptest_htest", "htest")` with
#'   `estimate` (`a / b`), `conf.int` (with attribute `conf.level`),
#'   `method`, `data.name`, and `valid`: whether the paper's rule of thumb
#'   for the normal approximation, `a (1 - a / b) > 5`, holds.
#'
#' @details
#' z is `qnorm((1 + conf_level) / 2)`.  The interval is meaningful only if
#' the `b` benchmarks were selected at random among a large population of
#' representative programs.  With `method = "prop.test"`,
#' `proportion_ci(17, 30, 0.90)` gives the paper's \[0.4027157, 0.7184049\].
#'
#' @references
#' Touati, S.-A.-A., Worms, J. and Briais, S. (2013). The Speedup-Test: a
#' statistical methodology for programme speedup analysis and computation.
#' *Concurrency and Computation: Practice and Experience*, 25(10), 1410-1426.
#'
#' Newcombe, R. G. (1998). Two-sided confidence intervals for the single
#' proportion: comparison of seven methods. *Statistics in Medicine*, 17,
#' 857-872.
#'
#' Clopper, C. J. and Pearson, E. S. (1934). The use of confidence or
#' fiducial limits illustrated in the case of the binomial. *Biometrika*,
#' 26, 404-413.
#'
#' Agresti, A. and Coull, B. A. (1998). Approximate is better than "exact"
#' for interval estimation of binomial proportions. *The American
#' Statistician*, 52, 119-126.
#'
#' @examples
#' proportion_ci(17, 30, conf_level = 0.90)
#' proportion_ci(31, 45)$conf.int
#' proportion_ci(34, 34, conf_level = 0.90, method = "clopper-pearson")$conf.int
#' @param ... Not used: an argument spelled the base R way (`na.rm`,
#'   `conf.level`, ...) is an error that gives this package's spelling.
#' @export
proportion_ci <- function(a, b, conf_level = 0.95,
                          method = c("prop.test", "wilson", "clopper-pearson",
                                     "agresti-coull", "normal"), ...) {
  check_dots_empty(...)
  data_name <- paste(deparse1(substitute(a)), "out of",
                     deparse1(substitute(b)))
  a <- check_whole(a, "a")
  b <- check_whole(b, "b", min = 1)
  if (a > b) {
    abort(sprintf("`a` (%s) must not exceed `b` (%s).",
                  describe_value(a), describe_value(b)))
  }
  conf_level <- check_conf_level(conf_level)
  code <- match(check_choice(method, proportion_methods, "method"), proportion_methods) - 1L
  res <- .Call(ffi_proportion_ci, a, b, conf_level, code)
  check_status(res, "proportion_ci()")
  title <- c("Wilson score interval with continuity correction (prop.test)",
             "Wilson score interval", "Clopper-Pearson exact interval",
             "Agresti-Coull interval", "Normal approximation (Wald) interval")
  out <- new_htest(res, method = paste("Confidence interval for a proportion:",
                                       title[code + 1L]),
                   data_name = data_name, estimate_names = "p",
                   conf_level = conf_level,
                   extra = list(valid = a * (1 - a / b) > 5))
  out$p.value <- NULL
  out
}

# The methods of proportion_ci() (and speedup_suite()'s `prop_method`), in
# the order of the C core's codes.
proportion_methods <- c("prop.test", "wilson", "clopper-pearson", "agresti-coull",
                        "normal")

#' Minimal number of benchmarks for a precise proportion
#'
#' The number of randomly selected benchmarks needed so that the normal
#' confidence interval of the proportion of accelerated benchmarks has a
#' half-width of at most `precision` (Touati, Worms and Briais 2013,
#' section 4): `ceiling(z^2 C (1 - C) / r^2)` with
#' `z = qnorm((1 + conf_level) / 2)`.
#'
#' @param proportion the (observed or expected) proportion C, numbers in
#'   \[0, 1\]; vectorised.
#' @param precision the wanted half-width r of the interval, strictly between
#'   0 and 1 (as in [speedup_suite()]).
#' @param conf_level confidence level, in (0, 1).
#'
#' @return A double vector of whole numbers, one for each `proportion`
#'   (0 for a proportion of 0 or 1).
#'
#' @details
#' `z`, `C` and `r` are rounded floating-point numbers, so a quotient that
#' is mathematically a whole number N may be computed as N plus a few ulps.
#' A quotient within a relative 1e-9 of a whole number is taken as that
#' number instead of being rounded up to N + 1.
#'
#' The paper's tool printed 330 for 31 accelerated benchmarks out of 45 and
#' 281 for 41 out of 54 (r = 0.05, 95 %); those figures are
#' `min_benchmarks(31/45)` and `min_benchmarks(41/54)` (with the rounded
#' 0.759 the second would be 282).
#'
#' @references
#' Touati, S.-A.-A., Worms, J. and Briais, S. (2013). The Speedup-Test: a
#' statistical methodology for programme speedup analysis and computation.
#' *Concurrency and Computation: Practice and Experience*, 25(10), 1410-1426.
#'
#' Jain, R. (1991). *The Art of Computer Systems Performance Analysis.*
#' Wiley.
#'
#' @examples
#' min_benchmarks(31 / 45)
#' min_benchmarks(c(0.5, 0.9), precision = 0.1, conf_level = 0.9)
#' @param ... Not used: an argument spelled the base R way (`na.rm`,
#'   `conf.level`, ...) is an error that gives this package's spelling.
#' @export
min_benchmarks <- function(proportion, precision = 0.05, conf_level = 0.95, ...) {
  check_dots_empty(...)
  proportion <- check_proportions(proportion, "proportion")
  precision <- check_precision(precision)
  conf_level <- check_conf_level(conf_level)
  out <- .Call(ffi_min_benchmarks, as.double(unclass(proportion)), precision,
               conf_level)
  names(out) <- names(proportion)
  out
}

