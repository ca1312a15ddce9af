#' Two-sample Kolmogorov-Smirnov test
#'
#' Tests whether two samples come from the same continuous distribution by
#' the largest distance between their empirical distribution functions (the
#' Smirnov statistic).  It is the twin of the two-sample [stats::ks.test()],
#' with an exact p-value also when there are ties.
#'
#' @param x,y numeric vectors of data values (finite).
#' @param alternative `"two.sided"` (default), `"less"` or `"greater"`, as
#'   in [stats::ks.test()]: `"greater"` means that the CDF of `x` lies above
#'   that of `y` (statistic `D^+` = max(F_x - F_y)), `"less"` that it lies
#'   below (`D^-` = max(F_y - F_x)).
#' @param exact `NULL` (default: exact when `length(x) * length(y) < 10000`),
#'   `TRUE` or `FALSE`.  An exact computation costs O(n m) time and is
#'   refused above n m = 1e8.
#' @param na_rm if `TRUE`, missing values are dropped; otherwise they are
#'   an error.
#'
#' @return An object of class `c("speeduptest_htest", "htest")` with
#'   `statistic` (named `"D"`, `"D^-"` or `"D^+"`), `p.value`,
#'   `alternative` (R's wording), `method`, `data.name` and `exact`.
#'
#' @details
#' The statistic compares the empirical distribution functions at the
#' distinct pooled values, so with ties it is the same number as
#' [stats::ks.test()] reports.
#'
#' The exact p-value is the probability, under the null hypothesis and
#' given the pooled values, that the statistic is at least the observed
#' one, all `choose(n + m, n)` assignments of the pooled values to the two
#' samples being equally likely.  It is computed by walking the lattice of
#' these assignments with probabilities (not counts, which would overflow)
#' and checking the boundary only where a block of tied values ends, which
#' gives the exact conditional distribution with ties for all three
#' alternatives (as R >= 4.3's `psmirnov()`).  Without ties the two-sided
#' p-value is the classical one of R's `psmirnov2x`.
#'
#' The asymptotic p-value uses Kolmogorov's limit distribution of
#' `sqrt(n m / (n + m)) D` (two-sided) and `exp(-2 n m / (n + m) D^2)`
#' (one-sided), with the same series truncation as [stats::ks.test()]; it
#' costs O((n + m) log(n + m)).  As R, a warning says that the asymptotic
#' p-value is approximate in the presence of ties.
#'
#' @references
#' Smirnov, N. V. (1939). On the estimation of the discrepancy between
#' empirical curves of distribution for two independent samples.
#' *Bulletin Mathematique de l'Universite de Moscou*, 2(2), 3-14.
#'
#' Schroer, G. and Trenkler, D. (1995). Exact and randomization
#' distributions of Kolmogorov-Smirnov tests for two or three samples.
#' *Computational Statistics & Data Analysis*, 20, 185-202.
#'
#' Marsaglia, G., Tsang, W. W. and Wang, J. (2003). Evaluating
#' Kolmogorov's distribution. *Journal of Statistical Software*, 8(18).
#'
#' @examples
#' x <- c(10.2, 10.4, 10.1, 10.9, 10.3, 10.5)
#' y <- c(9.8, 9.9, 10.0, 10.1, 9.7, 10.2, 9.9)
#' ks_test(x, y)
#' ks_test(x, y, alternative = "less")
#' # exact also with ties
#' ks_test(round(x), round(y))$p.value
#' @param ... Not used: an argument spelled the base R way (`na.rm`,
#'   `conf.level`, ...) is an error that gives this package's spelling.
#' @export
ks_test <- function(x, y, alternative = c("two.sided", "less", "greater"),
                    exact = NULL, na_rm = FALSE, ...) {
  check_dots_empty(...)
  data_name <- paste(deparse1(substitute(x)), "and", deparse1(substitute(y)))
  na_rm <- check_flag(na_rm, "na_rm")
  x <- check_sample(x, "x", na_rm = na_rm)
  y <- check_sample(y, "y", na_rm = na_rm)
  alt <- match(check_choice(alternative, alternatives, "alternative"), alternatives) - 1L
  ex <- check_exact(exact)
  if (ex == 1L && as.double(length(x)) * length(y) > 1e8) {
    abort(sprintf(paste0("`exact = TRUE` needs length(x) * length(y) <= 1e8, ",
                         "not %.0f; use `exact = FALSE`."),
                  as.double(length(x)) * length(y)),
          class = c("exact_too_large", "input"))
  }
  res <- .Call(ffi_ks_test, x, y, alt, ex)
  check_status(res, "ks_test()")
  if (!res$exact && isTRUE(res$ties)) {
    warn("p-value will be approximate in the presence of ties")
  }
  method <- paste(if (res$exact) "Exact" else "Asymptotic",
                  "two-sample Kolmogorov-Smirnov test")
  new_htest(res, method = method, data_name = data_name,
            alternative = c("two-sided", "the CDF of x lies below that of y",
                            "the CDF of x lies above that of y")[alt + 1L],
            statistic_name = c("D", "D^-", "D^+")[alt + 1L])
}
