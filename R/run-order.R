# Run-order checks (SPEC section 8): a trend over each sample's runs and,
# when the global order is known, whether the versions were interleaved.
# The tests are computed in src/run-order.c.

# Level of each check.  A comparison has up to three checks (a trend in x,
# in y, the interleaving); at 0.0025 each, independent runs are flagged in
# at most 1 - 0.9975^3 = 0.75 % of the comparisons, safely under 1 % (two
# checks at 0.005 would sit at 1 - 0.995^2 = 0.9975 %, on the bound).
run_order_level <- 0.0025
# Shorter samples cannot reach the level: 2 / 6! = 0.0028 > 0.0025.
run_order_min_runs <- 7L

#' Checks of the order of the runs
#'
#' The Speedup-Test's confidence rests on independent runs.  Two programs
#' measured one after the other while the machine warms up, throttles or
#' gets loaded can differ only because of when they ran.  Every verdict of
#' [mean_test()] and [median_test()] (and every benchmark of
#' [speedup_suite()]) is therefore checked, where the order of the runs is
#' known:
#'
#' * **Trend** (`trend_test()`): the Mann-Kendall test of each sample's run
#'   times against their position in the recorded order (Kendall's S; the
#'   exact distribution of the number of inversions for fewer than 50 runs
#'   without ties, the normal approximation with the tie-corrected variance
#'   otherwise; the p-values are those of
#'   `cor.test(x, seq_along(x), method = "kendall")`).  Each sample is
#'   checked at level 0.0025, two-sided.  A sample of fewer than 7 runs is
#'   not checked (it could never reach that level).
#' * **Interleaving** (`interleaving_test()`): with a global order (timings
#'   with `attr(, "run_order") == "global"` or a `timestamp` column), the
#'   one-sided Wald-Wolfowitz runs test of the version labels in that order,
#'   for too few runs: the versions were measured in blocks.  Level 0.0025;
#'   exact.
#'
#' With up to three checks at 0.0025, independent runs lose their guarantee
#' in at most 1 - 0.9975^3 = 0.75 % of the comparisons (fewer in practice:
#' the exact tests are conservative); see `vignette("trust")` for the
#' simulated rates and the power against drift.
#'
#' The order of a numeric vector is taken as its run order; in a formula,
#' the order of the rows; in `speedup_timings` ([read_timings()], [as_timings()], [measure()]), the
#' `run` column (and `timestamp`).  A flag adds a caveat, sets
#' `confidence_guaranteed = FALSE` and advises interleaving the runs (for
#' example with `measure()`); the decision itself is not changed.  The checks
#' are kept in the verdict as `run_order`: `list(x, y, interleaving,
#' positions, trend)` with the trend tests of each sample (`htest` or
#' `NULL`), the interleaving check (or `NULL`), the global positions of the
#' runs (or `NULL`) and `trend`, `TRUE` when something was flagged.
#'
#' @param x Run times in the order they were recorded.
#' @param version The version of each run, in the global order of the runs
#'   (two distinct values).
#' @return `trend_test()` an `htest` (statistic S, estimate Kendall's tau);
#'   `interleaving_test()` an `htest` (statistic: the number of runs).
#' @references
#' Mann, H. B. (1945). Nonparametric tests against trend. *Econometrica*,
#' 13(3), 245-259.
#'
#' Wald, A. and Wolfowitz, J. (1940). On a test whether two samples are from
#' the same population. *Annals of Mathematical Statistics*, 11(2), 147-162.
#' @name run_order
#' @examples
#' set.seed(1)
#' drifting <- 10 + 0.05 * (1:40) + rnorm(40, sd = 0.2)
#' trend_test(drifting)
#' interleaving_test(rep(c("old", "new"), each = 20))
#' interleaving_test(rep(c("old", "new"), 20))
NULL

#' @rdname run_order
#' @export
trend_test <- function(x) {
  label <- deparse1(substitute(x))
  x <- check_sample(x, "x", min_n = 3L)
  res <- .Call(ffi_mann_kendall, as.double(x), 0, as.double(length(x)))
  if (res$status != 0L) {
    abort("`x` has no variability: there is no trend to test.", class = "data")
  }
  mk_htest(res, 1L, label)
}

#' @rdname run_order
#' @export
interleaving_test <- function(version) {
  label <- deparse1(substitute(version))
  check_version_labels(version)
  runs_htest(as.integer(factor(version, levels = unique(version))), label)
}

mk_htest <- function(res, i, label) {
  structure(list(
    statistic = c(S = res$statistic[i]),
    p.value = res$p_value[i],
    estimate = c(tau = res$tau[i]),
    null.value = c(tau = 0),
    alternative = "two.sided",
    method = paste0("Mann-Kendall trend test",
                    if (isTRUE(res$exact[i])) " (exact)" else ""),
    data.name = paste(label, "against the run order"),
    exact = isTRUE(res$exact[i])),
    class = c("speeduptest_htest", "htest"))
}

# Too few runs of the labels (1, 2) in global order.
runs_htest <- function(lab, label) {
  n1 <- sum(lab == 1L)
  n2 <- sum(lab == 2L)
  r <- 1 + sum(lab[-1L] != lab[-length(lab)])
  p <- .Call(ffi_runs_test, as.double(n1), as.double(n2), as.double(r))
  structure(list(
    statistic = c(runs = r), parameter = c(n1 = n1, n2 = n2), p.value = p,
    alternative = "less", method = "Wald-Wolfowitz runs test (exact)",
    data.name = paste("versions of", label, "in run order")),
    class = c("speeduptest_htest", "htest"))
}

# The run_order element of a verdict.  x and y are in recorded order;
# positions, when known, the global positions of their runs; trend, when
# given, the Mann-Kendall tests of x and y already made (as
# ffi_mann_kendall returns them, by ffi_run_protocol).
run_order_check <- function(x, y, labels, positions = NULL, trend = NULL) {
  lens <- c(length(x), length(y))
  # each sample in place (x and y are doubles already: no copy of the data)
  tests <- lapply(1:2, function(i) {
    if (lens[i] < run_order_min_runs) return(NULL)
    res <- if (is.null(trend)) {
      v <- if (i == 1L) x else y
      .Call(ffi_mann_kendall, if (is.double(v)) v else as.double(v), 0,
            as.double(lens[i]))
    } else {
      lapply(trend, `[`, i)
    }
    if (res$status != 0L) return(NULL)
    mk_htest(res, 1L, sprintf("run times of %s", labels[i]))
  })
  inter <- NULL
  if (!is.null(positions) && lens[1L] > 0L && lens[2L] > 0L) {
    lab <- c(rep(1L, lens[1L]), rep(2L, lens[2L]))[order(c(positions$x,
                                                          positions$y))]
    h <- runs_htest(lab, paste(labels, collapse = " and "))
    flagged <- h$p.value <= run_order_level
    inter <- list(
      interleaved = !flagged, p.value = h$p.value, method = h$method,
      runs = unname(h$statistic),
      description = sprintf(
        "%d runs of the versions in %d measurements, runs test p = %s",
        as.integer(h$statistic), sum(lens), fmt_p(h$p.value)))
  }
  flag_x <- !is.null(tests[[1L]]) && tests[[1L]]$p.value <= run_order_level
  flag_y <- !is.null(tests[[2L]]) && tests[[2L]]$p.value <= run_order_level
  list(x = tests[[1L]], y = tests[[2L]], interleaving = inter,
       positions = positions,
       trend = flag_x || flag_y || (!is.null(inter) && !inter$interleaved))
}

# Whether the trend checks of the samples x and y flag their runs, from
# the trend tests the median protocol made on the way (`trend`, as
# ffi_mann_kendall returns them) or made here: what run_order_check() says
# in `trend` when the global order is unknown.
trend_flag <- function(x, y, trend = NULL) {
  lens <- c(length(x), length(y))
  # sample i, whose test is element k of r
  flagged <- function(r, k, i) {
    lens[i] >= run_order_min_runs && r$status[k] == 0L &&
      r$p_value[k] <= run_order_level
  }
  if (!is.null(trend)) return(flagged(trend, 1L, 1L) || flagged(trend, 2L, 2L))
  one <- function(v, i) {
    lens[i] >= run_order_min_runs &&
      flagged(.Call(ffi_mann_kendall, v, 0, as.double(lens[i])), 1L, i)
  }
  one(x, 1L) || one(y, 2L)
}

# Vectorised form for a suite: trend p-values of every x and y sample, and
# the runs test of benchmarks whose global positions are known.
suite_run_order <- function(suite) {
  nb <- length(suite$names)
  if (nb == 0L) {
    return(data.frame(trend_p_x = double(), trend_p_y = double(),
                      interleaving_p = double(), run_order_flag = logical()))
  }
  # the p-values alone, NA for the samples too short to be checked (not
  # tested) and where the test fails
  values <- as.double(suite$values)
  px <- .Call(ffi_trend_p, values, as.double(suite$x_start),
              as.double(suite$x_len), run_order_min_runs)
  py <- .Call(ffi_trend_p, values, as.double(suite$y_start),
              as.double(suite$y_len), run_order_min_runs)
  pi <- rep(NA_real_, nb)
  if (!is.null(suite$runs)) {
    ok <- !is.na(suite$runs)
    pi[ok] <- .Call(ffi_runs_test, as.double(suite$x_len[ok]),
                    as.double(suite$y_len[ok]), as.double(suite$runs[ok]))
  }
  # (the few flagged benchmarks set by position: which() leaves out the
  # checks not made)
  flag <- logical(nb)
  flag[which(px <= run_order_level)] <- TRUE
  flag[which(py <= run_order_level)] <- TRUE
  if (!is.null(suite$runs)) flag[which(pi <= run_order_level)] <- TRUE
  new_frame(list(trend_p_x = px, trend_p_y = py, interleaving_p = pi,
                 run_order_flag = flag))
}

# The caveat of each benchmark of a suite whose run order was flagged
# (vectorised; sentences are formatted for the flagged benchmarks only).
suite_run_order_text <- function(ro) {
  out <- character(nrow(ro))
  # (only the flagged rows have a phrase: the flag is the same three tests)
  flag <- ro$run_order_flag
  rows <- if (is.logical(flag) && !anyNA(flag)) which(flag) else seq_len(nrow(ro))
  add <- function(out, p, what) {
    p <- p[rows]
    j <- which(!is.na(p) & p <= run_order_level)
    i <- rows[j]
    if (length(i)) {
      txt <- sprintf("%s (p = %s)", what, fmt_p_each(p[j]))
      out[i] <- ifelse(nzchar(out[i]), paste(out[i], txt, sep = "; "), txt)
    }
    out
  }
  words <- suite_run_order_phrases
  out <- add(out, ro$trend_p_x, words[["trend_x"]])
  out <- add(out, ro$trend_p_y, words[["trend_y"]])
  out <- add(out, ro$interleaving_p, words[["blocks"]])
  i <- nzchar(out)
  out[i] <- paste0(out[i], words[["cure"]])
  out
}
