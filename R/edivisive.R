# E-divisive change points (src/edivisive.c), as the CRAN package ecp
# finds them.

#' Change points of a series (E-divisive)
#'
#' Finds change points in the distribution of a series by the E-divisive
#' procedure of Matteson and James (2014), as `ecp::e.divisive()` does on
#' a univariate series: the series is split where the energy distance
#' between the two sides (scaled as in the paper, the right side's end
#' searched too) is largest, and each split is kept when a permutation
#' test rejects at `sig_level` (`R` permutations of the values within the
#' current segments; the p-value is (1 + the permutations reaching the
#' observed statistic) / (R + 1)).  With `k` the procedure makes `k`
#' splits (when the segments' sizes allow them) without testing.
#'
#' The splits and their statistics are ecp's; the permutations come from
#' the package's own generator (seeded by `seed`, the same on every
#' platform), so the p-values agree with ecp's in law, not draw for draw.
#'
#' @param x A numeric vector of finite values, in order (at most 20,000:
#'   each test costs `R` times `length(x)^2` distances).
#' @param sig_level The level of each permutation test.
#' @param R The number of permutations.
#' @param min_size The fewest values of a segment (at least 2).
#' @param exponent The exponent `a` of the distances `|x - y|^a`, in
#'   `(0, 2]` (ecp's `alpha`).
#' @param k `NULL`, or the number of changes to find without tests.
#' @param seed The seed of the permutations.
#' @return A list: `estimates`, the first index of each segment and
#'   `length(x) + 1` (ecp's `estimates`); `order_found`, the change points
#'   in the order they were found; `p_values`, the permutation p-value of
#'   each (0 with `k`).
#' @references Matteson, D. S. and James, N. A. (2014). A nonparametric
#'   approach for multiple change point analysis of multivariate data.
#'   *Journal of the American Statistical Association* 109(505), 334-345.
#' @examples
#' set.seed(1)
#' x <- c(rnorm(100), rnorm(100, 2), rnorm(100, 0, 3))
#' edivisive_changepoints(x, R = 99)$estimates
#' @export
edivisive_changepoints <- function(x, sig_level = 0.05, R = 199,
                                   min_size = 30, exponent = 1, k = NULL,
                                   seed = 1) {
  x <- check_sample(x, "x", min_n = 1L)
  sig_level <- check_between(sig_level, "sig_level", 0, 1)
  R <- check_whole(R, "R", min = 1, max = 1e6)
  min_size <- check_whole(min_size, "min_size", min = 2)
  exponent <- check_between(exponent, "exponent", 0, 2, upper_ok = TRUE)
  k <- if (is.null(k)) 0 else check_whole(k, "k", min = 1)
  seed <- check_whole(seed, "seed", min = 0, max = 2^53)
  if (length(x) > 20000) {
    abort(sprintf("`x` must hold at most 20,000 values for E-divisive, not %s.",
                  format(length(x), big.mark = ",")), class = "data")
  }
  res <- .Call(ffi_edivisive, as.double(x), sig_level, R, min_size,
               exponent, k, seed)
  check_status(res, "E-divisive")
  found <- res$change + 1
  list(estimates = c(1, sort(found), length(x) + 1), order_found = found,
       p_values = res$p_value)
}
