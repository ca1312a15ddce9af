# Change points of a series by PELT (src/pelt.c), as the CRAN package
# changepoint finds them.

# The penalties by name, with the number of parameters a change adds
# (changepoint's `diffparam`: 1 for a mean, 2 for a mean and a variance).
# "15logn" is Barrett et al.'s choice for warm-up (15 log n).
pelt_penalties <- c("MBIC", "BIC", "SIC", "AIC", "Hannan-Quinn", "15logn",
                    "None")

pelt_penalty_value <- function(penalty, n, cost) {
  if (is.numeric(penalty)) return(penalty)
  p <- if (cost == "meanvar") 2 else 1
  switch(penalty,
    MBIC = (p + 2) * log(n),
    BIC = , SIC = (p + 1) * log(n),
    AIC = 2 * (p + 1),
    "Hannan-Quinn" = 2 * (p + 1) * log(log(n)),
    "15logn" = 15 * log(n),
    None = 0)
}

#' Change points of a series (PELT)
#'
#' Finds the change points in the mean, or in the mean and the variance, of
#' a series of normal observations by the Pruned Exact Linear Time search of
#' Killick, Fearnhead and Eckley (2012), exactly as the CRAN package
#' changepoint does with `cpt.meanvar()` or `cpt.mean()`,
#' `method = "PELT"`, `test.stat = "Normal"` (the C core is the package's
#' own). `warmup_classify()` uses it to find where each process's
#' iterations settle.
#'
#' The cost of a segment is twice its negative maximised normal
#' log-likelihood: with the maximum-likelihood variance for `"meanvar"`
#' (floored at 1e-11, so a constant segment costs a finite amount) and a
#' variance of 1 for `"mean"` (so `"mean"` expects data scaled to unit
#' variance). The penalty is added once per change. Named penalties are
#' changepoint's: with `p` parameters per segment (2 for `"meanvar"`, 1
#' for `"mean"`), `"MBIC"` is `(p + 2) log n` plus `log` of each segment's
#' length (Zhang and Siegmund 2007), `"BIC"` (`"SIC"`) `(p + 1) log n`,
#' `"AIC"` `2 (p + 1)`, `"Hannan-Quinn"` `2 (p + 1) log log n`;
#' `"15logn"` is `15 log n` (Barrett et al. 2017); `"None"` 0; a number is
#' used as it is (changepoint's `"Manual"`).
#'
#' @param x A numeric vector of finite values, in order.
#' @param cost `"meanvar"` (changes in the mean and the variance) or
#'   `"mean"` (changes in the mean, variance 1).
#' @param penalty The penalty on each change: a name (see Details) or a
#'   single number >= 0.
#' @param minseg The minimum segment length (changepoint's `minseglen`),
#'   at least 2 for `"meanvar"`.
#' @param step 1 (the default) for the exact search. On a series without
#'   changes PELT prunes nothing and costs about `n^2 / 2` segment costs; a
#'   `step` of `b > 1` searches the changes at every `b`-th value only (the
#'   exact optimum among those, each segment's cost from all its values),
#'   then moves each change found to its best place within `b - 1` values
#'   between its neighbours: about `b^2` times faster, and close to the
#'   exact answer, not always equal to it.
#' @return An integer vector of change points, increasing: each is the last
#'   index of a segment that a change follows, as `changepoint::cpts()`
#'   returns them (empty when there is no change, and when the series is
#'   shorter than `2 * minseg`). With `step = 1`, the change points of
#'   changepoint.
#' @references Killick, R., Fearnhead, P. and Eckley, I. A. (2012). Optimal
#'   detection of changepoints with a linear computational cost. *Journal of
#'   the American Statistical Association* 107(500), 1590-1598.
#'
#'   Killick, R. and Eckley, I. A. (2014). changepoint: an R package for
#'   changepoint analysis. *Journal of Statistical Software* 58(3).
#' @examples
#' set.seed(1)
#' x <- c(rnorm(100, 0, 1), rnorm(100, 0, 10))
#' pelt_changepoints(x)
#' pelt_changepoints(c(rnorm(100), rnorm(100, 3)), cost = "mean",
#'                   penalty = "BIC", minseg = 1)
#' @export
pelt_changepoints <- function(x, cost = c("meanvar", "mean"),
                              penalty = "MBIC", minseg = 2L, step = 1L) {
  x <- check_sample(x, "x", min_n = 1L)
  cost <- check_choice(cost, c("meanvar", "mean"), "cost")
  penalty <- check_penalty(penalty, pelt_penalties)
  minseg <- check_whole(minseg, "minseg", min = if (cost == "meanvar") 2 else 1)
  step <- check_whole(step, "step", min = 1, max = 1e9)
  pelt_many(x, 0, length(x), cost, penalty, minseg, step)[[1L]]
}

# PELT on k series packed in `values` (series i: values[start[i] + 1 ..
# start[i] + len[i]]): a list of integer vectors of change points, within
# each series.  The arguments are already checked; `penalty` is a name or a
# number.
# `step` > 1 searches a grid of every step-th value (src/pelt.c).
pelt_many <- function(values, start, len, cost, penalty, minseg, step = 1) {
  n <- as.double(len)
  pen <- if (is.numeric(penalty)) penalty else
    vapply(n, function(m) pelt_penalty_value(penalty, m, cost), 0)
  res <- .Call(ffi_pelt, as.double(values), as.double(start), n,
               if (cost == "meanvar") 0L else 1L, as.double(pen),
               identical(penalty, "MBIC"), as.integer(minseg), as.double(step))
  check_status(res, "PELT")
  res$cpts
}
