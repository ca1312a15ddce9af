# Changes that matter (SPEC section 10): the tolerance `min_speedup` of the
# protocols, the equivalence verdict, and what the data could have seen
# (`detectable`).  The tests themselves are in src/tolerance.c.

#' A tolerance for the Speedup-Test: changes that matter, and equivalence
#'
#' With `min_speedup = s0` (default 1, the paper's test), [mean_test()],
#' [median_test()], [highest_confidence()] and [speedup_suite()] declare a
#' speedup only when it is larger than the factor `s0`, and a slowdown only
#' when it is larger than `s0` the other way; with `s0 > 1` they may also
#' declare the two versions **equivalent**: within a factor `s0` of each
#' other at confidence `1 - alpha`.
#'
#' The flowchart is the protocol's own (the normality, variance and
#' location-model checks on the samples as given, the rigorous stop); only
#' its final test changes:
#' * median protocol: the one-sided Wilcoxon-Mann-Whitney test of `x`
#'   against `s0 * y` (a speedup beyond `s0`) and of `y` against `s0 * x`
#'   (a slowdown beyond `s0`).  Under the scale model `Y = X / theta` of the
#'   protocol's interval, `s0 * Y` has the law of `X` when `theta = s0`, so
#'   the test keeps its exact level;
#' * mean protocol: the one-sided t-test of `mean(x) - s0 * mean(y)` (and
#'   of `mean(y) - s0 * mean(x)`), with the standard error
#'   `s_p sqrt(1/n + s0^2/m)` of the pooled variance on Student's branch,
#'   and `sqrt(v_x/n + s0^2 v_y/m)` with Satterthwaite's degrees of freedom
#'   on Welch's branch (Welch's test of `x` against `s0 * y`).
#'
#' **Equivalence** (two one-sided tests, Schuirmann 1987): when neither
#' change is declared and both "the new code is more than `s0` faster"
#' (the test of `x` against `s0 * y`, other tail) and "more than `s0`
#' slower" are rejected at `alpha`, `direction` is `"equivalent"`.  Each
#' one-sided test is made at `alpha` (not `alpha / 2`): the two together
#' are a level-`alpha` test of non-equivalence.  The verdict's
#' `p_value_equivalence` is the larger of the two p-values.
#'
#' **What the data could have seen.** A verdict that declares nothing
#' (direction `"none"`) reports `detectable`: the smallest speedup the same
#' protocol would declare with probability 0.8 at `alpha` given the spread
#' it observed, from the normal approximation of its final test (median:
#' the standard error of the log-shift read off the Hodges-Lehmann interval
#' of the speedup; mean: the standard error of `mean(x) - s0 mean(y)`).
#' [plan_runs()] finds the runs needed for a given speedup by simulation.
#'
#' @name tolerance
#' @references
#' Schuirmann, D. J. (1987). A comparison of the two one-sided tests
#' procedure and the power approach for assessing the equivalence of average
#' bioavailability. *Journal of Pharmacokinetics and Biopharmaceutics*,
#' 15(6), 657-680.
#' @seealso [plan_runs()]
#' @examples
#' set.seed(5)
#' old <- rnorm(100, 10, 0.1)
#' new <- rnorm(100, 10, 0.1)
#' median_test(old, new, min_speedup = 1.02)   # equivalent within 2 %
#' faster <- rnorm(100, 9.9, 0.1)              # 1 % faster
#' median_test(old, faster)                    # a significant speedup
#' median_test(old, faster, min_speedup = 1.02)  # but not beyond 2 %
NULL

# The tolerance's p-values: speedup, slowdown, and the two one-sided tests
# of equivalence.  test: a protocol's name; pooled: the mean's Student
# branch (unread by the others).
tolerance_p_values <- function(x, y, test, pooled, s0) {
  res <- .Call(ffi_tolerance_tests, as.double(x), as.double(y),
               protocol_code(test), isTRUE(pooled), s0)
  p <- res$p_values
  p[is.nan(p)] <- NA_real_
  if (res$status != 0L) p[] <- NA_real_
  p
}

# The same four p-values in the paired design (SPEC section 10), from the
# protocol's descriptor: the signed-rank test of the per-round log ratios
# d shifted by log(s0) (median), the one-sample t-test of x - s0 y or
# y - s0 x by round (mean).
paired_tolerance_p_values <- function(x, y, test, s0) {
  as.double(protocol_call(test, "paired_tolerance", x, y, s0))
}

paired_tolerance_median <- function(x, y, s0) {
  d <- log(x) - log(y)
  ls0 <- log(s0)
  sr <- function(v, alt) signed_rank_test(v, alternative = alt)$p.value
  c(sr(d - ls0, "greater"), sr(d + ls0, "less"),
    sr(d - ls0, "less"), sr(d + ls0, "greater"))
}

paired_tolerance_mean <- function(x, y, s0) {
  tt <- function(v, alt) {
    if (stats::sd(v) == 0) return(NA_real_)
    t_test(v, alternative = alt)$p.value
  }
  c(tt(x - s0 * y, "greater"), tt(y - s0 * x, "greater"),
    tt(x - s0 * y, "less"), tt(y - s0 * x, "less"))
}

# The direction from the four p-values (as src/tolerance.c decides it).
tolerance_direction <- function(p, alpha, s0) {
  if (is.na(p[1L])) return(NA_character_)
  if (p[1L] <= alpha) return("speedup")
  if (!is.na(p[2L]) && p[2L] <= alpha) return("slowdown")
  if (s0 > 1 && !anyNA(p[3:4]) && all(p[3:4] <= alpha)) return("equivalent")
  "none"
}

# The verdict of a protocol with the tolerance s0 applied to its final
# test, and `detectable` when it declares nothing.
apply_tolerance <- function(v, s0, paired = NULL) {
  v$min_speedup <- s0
  v$p_value_equivalence <- NA_real_
  if (s0 != 1 && !is.na(v$significant)) {
    p <- if (!is.null(paired)) {
      paired_tolerance_p_values(paired$x, paired$y, v$test, s0)
    } else {
      pooled <- v$branch %in% c("student_normal", "student_not_normal")
      tolerance_p_values(v$x, v$y, v$test, pooled, s0)
    }
    if (!is.na(p[1L])) {
      v$p_value_tolerance <- stats::setNames(p, c("speedup", "slowdown",
        "not_faster", "not_slower"))
      v$p_value <- p[1L]
      v$p_value_slowdown <- p[2L]
      v$p_value_equivalence <- max(p[3:4])
      v$direction <- tolerance_direction(p, v$alpha, s0)
      v$significant <- v$direction == "speedup"
      v$decision <- decision_words(v$direction)
    }
  }
  # made when read (verdict_lazy())
  v["detectable"] <- list(NULL)
  v["min_alpha"] <- list(NULL)
  interval_open_ends(v)
}

# The smallest speedup the verdict's protocol declares with probability
# `power` at its alpha, from the normal approximation of its final test:
#   median: the log-shift estimate has the standard error read off the
#     Hodges-Lehmann interval of the speedup (through the normal quantile
#     of the level the interval has, 1 - 2 alpha), or
#     when there is none, sd(log times) sqrt(pi/3) sqrt(1/n + 1/m) (the
#     rank-sum test's efficiency against the t-test under normality);
#     declared when log(theta / s0) >= (z_{1-alpha} + z_power) se.
#   mean: mean(x) - s0 mean(y) = mu_x (1 - s0 / theta) against the
#     standard error sqrt(v_x/n + s0^2 v_y/m), t quantiles with n + m - 2
#     degrees of freedom; Inf when no speedup can be declared.
verdict_detectable <- function(v, power = 0.8, alpha = v$alpha) {
  s0 <- if (is.null(v$min_speedup)) 1 else v$min_speedup
  if (v$n < 2L || v$m < 2L) return(NA_real_)
  # no speedup at all can be declared at alpha with these sizes: none is
  # detectable (R/attainable.R; the verdict says why)
  if (isTRUE(v$min_alpha[["speedup"]] > alpha)) {
    return(Inf)
  }
  protocol_call(v$test, "detectable", v, power, alpha, s0)
}

detectable_median <- function(v, power, alpha, s0) {
  ci <- as.double(v$speedup_ci)
  conf <- attr(v$speedup_ci, "conf.level")
  if (is.null(conf)) conf <- interval_level(v$alpha)
  if (length(ci) != 2L) ci <- c(NA_real_, NA_real_)
  detectable_median_at(ci[1L], ci[2L], conf, v$n, v$m,
                       function(i) log_pooled_sd(v$x, v$y), alpha, power, s0)
}

# The one computation of the median protocol's `detectable`, for a verdict
# and for the benchmarks of a suite (vectors): lo, hi the speedup interval
# at the level conf (two-sided), read as the standard error of the
# log-shift (half its width over the normal quantile of its own level);
# where there is no interval, the pooled spread of the log times (sd_fun(i)
# for the positions i without one, made only then) through the rank-sum test's efficiency against the
# t-test, sqrt(pi/3).  Declared when log(theta / s0) >= (z_{1-alpha} +
# z_power) se.
detectable_median_at <- function(lo, hi, conf, n, m, sd_fun, alpha, power,
                                 s0) {
  se <- (log(hi) - log(lo)) / (2 * qnorm_each((1 + conf) / 2))
  se[!is.finite(se) | se <= 0 | !(lo > 0)] <- NA_real_
  miss <- is.na(se) & n >= 2 & m >= 2
  if (any(miss) && !is.null(sd_fun)) {
    i <- which(miss)
    se[i] <- sd_fun(i) * sqrt(pi / 3) * sqrt(1 / n[i] + 1 / m[i])
  }
  se[!is.finite(se) | se <= 0] <- NA_real_
  s0 * exp((qnorm_each(1 - alpha) + stats::qnorm(power)) * se)
}

# The same for the benchmarks idx of a suite, R's var() of the log times
# computed in the core.
# (the logarithms of these benchmarks' values only, gathered sample after
# sample: a suite's median needs them for a few benchmarks)
suite_log_sd <- function(suite, idx) {
  n <- suite$x_len[idx]
  m <- suite$y_len[idx]
  len <- c(n, m)
  lv <- log(as.double(suite$values)[sequence(len, c(suite$x_start[idx],
                                                    suite$y_start[idx]) + 1)])
  start <- cumsum(c(0, len))[seq_along(len)]
  k <- length(idx)
  vx <- .Call(ffi_suite_variances, lv, start[seq_len(k)], as.double(n))
  vy <- .Call(ffi_suite_variances, lv, start[k + seq_len(k)], as.double(m))
  sqrt(((n - 1) * vx + (m - 1) * vy) / (n + m - 2))
}

log_pooled_sd <- function(x, y) {
  n <- length(x)
  m <- length(y)
  sqrt(((n - 1) * stats::var(log(x)) + (m - 1) * stats::var(log(y))) /
         (n + m - 2))
}

detectable_mean <- function(v, power, alpha, s0) {
  detectable_mean_at(stats::var(v$x), stats::var(v$y), v$n, v$m, mean(v$x),
                     alpha, power, s0)
}

# The one computation of the mean protocol's `detectable` (a verdict, or
# the benchmarks of a suite as vectors): mean(x) - s0 mean(y) = mu_x (1 -
# s0 / theta) against the standard error sqrt(v_x/n + s0^2 v_y/m), t
# quantiles with n + m - 2 degrees of freedom; Inf when no speedup can be
# declared.
detectable_mean_at <- function(vx, vy, n, m, mx, alpha, power, s0) {
  se <- sqrt(vx / n + s0^2 * vy / m)
  df <- n + m - 2
  r <- (qt_each(1 - alpha, df) + qt_each(power, df)) * se / mx
  d <- s0 / (1 - r)
  d[which(r >= 1)] <- Inf
  d[n < 2 | m < 2 | !is.finite(se) | se <= 0] <- NA_real_
  d
}

# stats::qt(p, df) computed once per distinct pair (p, df) and indexed: a
# suite repeats a few levels and sizes over thousands of benchmarks.
qt_each <- function(p, df) {
  k <- max(length(p), length(df))
  if (k < 64L || !length(p) || !length(df)) return(stats::qt(p, df))
  # one level and one size (the usual suite): one quantile
  if (!anyNA(p) && !anyNA(df) && all(p == p[1L]) && all(df == df[1L])) {
    return(rep(stats::qt(p[1L], df[1L]), k))
  }
  p <- rep_len(p, k)
  df <- rep_len(df, k)
  up <- unique(p)
  ud <- unique(df)
  key <- match(p, up) + as.double(length(up)) * (match(df, ud) - 1)
  uk <- unique(key)
  q <- stats::qt(up[(uk - 1) %% length(up) + 1], ud[(uk - 1) %/% length(up) + 1])
  q[match(key, uk)]
}

# stats::qnorm(p), computed once when a suite's benchmarks all have the
# same p (one level).
qnorm_each <- function(p) {
  if (length(p) >= 64L && is.null(attributes(p)) && !anyNA(p) &&
      all(p == p[1L])) {
    return(rep(stats::qnorm(p[1L]), length(p)))
  }
  stats::qnorm(p)
}

# "2 %" for a factor 1.02 (the tolerance or a change, in percent).
fmt_change <- function(s, digits = 2L) {
  if (is.na(s)) return("NA")
  if (is.infinite(s)) return("any")
  paste0(trimws(formatC(100 * (s - 1), digits = digits, format = "fg")), " %")
}

# The headline's words for a direction with the tolerance s0 (NULL when
# the tolerance is 1 and the direction is not "equivalent": the protocol's
# own words apply).
tolerance_headline <- function(v, conf, guaranteed) {
  s0 <- v$min_speedup
  if (is.null(s0) || (s0 == 1 && !identical(v$direction, "equivalent"))) return(NULL)
  if (is.na(v$direction)) return(NULL)
  g <- if (guaranteed) "guaranteed" else "not guaranteed"
  body <- sprintf("%s at %s confidence", compare_words(v$direction, s0), conf)
  if (v$direction == "none") body else sprintf("%s (%s)", body, g)
}

# The lines a verdict adds for its tolerance and for what it could have
# detected (print and format), with the advice of its plan
# (tolerance_lines_planned(), R/verdict-lines.R).  With no speedup
# declarable at alpha, the runs come from the spread (R/attainable.R).
tolerance_lines <- function(v, digits = 3L) {
  d <- v$detectable
  plan <- if (!is.null(d) && !is.na(d)) {
    plan_advice(if (is.finite(d)) v else detectable_from_spread(v))
  }
  tolerance_lines_planned(v, plan, digits)
}

# highest_confidence() with a tolerance: the decision is piecewise
# constant in alpha and changes only at the p-values the flowchart compares
# with alpha (Shapiro-Wilk, F, Kolmogorov-Smirnov, and the final test at
# s0 on either branch), so the smallest significant alpha is one of them;
# the protocol is run at each candidate up to 0.5.
highest_confidence_tolerance <- function(x, y, test, rigorous, s0) {
  if (length(x) < 3L || length(y) < 3L) return(new_confidence(NA_real_, NA_real_))
  fun <- protocol_fun(test, "default")
  v <- fun(x, y, alpha = 0.5, rigorous = rigorous)
  cand <- vapply(v$steps, function(s) as.double(s$p.value), 0)
  cand <- c(cand, protocol_call(test, "tolerance_candidates", x, y, s0))
  cand <- sort(unique(cand[!is.na(cand) & cand <= 0.5]))
  for (a in cand) {
    if (a <= 0) next
    w <- fun(x, y, alpha = a, rigorous = rigorous, min_speedup = s0)
    if (isTRUE(w$significant)) return(new_confidence(1 - a, a))
  }
  if (any(cand == 0)) {
    w <- fun(x, y, alpha = 1e-300, rigorous = rigorous, min_speedup = s0)
    if (isTRUE(w$significant)) return(new_confidence(1, 0))
  }
  new_confidence(NA_real_, NA_real_)
}

# The candidates beyond the steps' p-values: the F-test's and the
# tolerance tests' on both branches (mean); the tolerance test's (median).
tolerance_candidates_mean <- function(x, y, s0) {
  c(f_test(x, y)$p.value,
    tolerance_p_values(x, y, "mean", TRUE, s0)[1L],
    tolerance_p_values(x, y, "mean", FALSE, s0)[1L])
}

tolerance_candidates_median <- function(x, y, s0) {
  tolerance_p_values(x, y, "median", FALSE, s0)[1L]
}

# The tolerance's four p-values of every benchmark of a packed suite for
# protocol p ("mean" or "median"): a matrix, one row per benchmark.
suite_tolerance <- function(suite, p, alpha, s0) {
  .Call(ffi_tolerance_suite, as.double(suite$values), as.double(suite$x_start),
        as.double(suite$x_len), as.double(suite$y_start),
        as.double(suite$y_len), protocol_code(p),
        as.double(alpha), s0)
}

# `detectable` of the suite's benchmarks idx, those whose direction is
# "none" (NA for the others), as verdict_detectable() gives it for one
# verdict; alpha and ci (the two ends of the speedup intervals) are the
# suite's columns, one value per benchmark.
suite_detectable <- function(suite, p, b, idx, alpha, s0, power = 0.8,
                             ci = NULL) {
  out <- rep(NA_real_, length(alpha))
  if (!length(idx)) return(out)
  out[idx] <- protocol_call(p, "suite_detectable", suite, idx, b, alpha[idx],
                            s0, power, lapply(ci, `[`, idx))
  out
}

# The benchmarks idx of a suite, at their alphas a; ci: the two ends of
# their speedup intervals.
suite_detectable_median <- function(suite, idx, b, a, s0, power, ci) {
  n <- suite$x_len[idx]
  m <- suite$y_len[idx]
  sd_fun <- function(i) suite_log_sd(suite, idx[i])
  detectable_median_at(ci[[1L]], ci[[2L]], interval_level(a), n, m, sd_fun,
                       a, power, s0)
}

suite_detectable_mean <- function(suite, idx, b, a, s0, power, ci) {
  n <- suite$x_len[idx]
  m <- suite$y_len[idx]
  # the spread of each benchmark's samples, R's var() computed in the core
  # for every benchmark at once
  vx <- .Call(ffi_suite_variances, as.double(suite$values),
              as.double(suite$x_start[idx]), as.double(n))
  vy <- .Call(ffi_suite_variances, as.double(suite$values),
              as.double(suite$y_start[idx]), as.double(m))
  # detectable_mean_at() in one pass of C (src/suite-columns.c)
  .Call(ffi_suite_detectable_mean, vx, vy, as.double(n), as.double(m),
        as.double(b$mean_x[idx]), as.double(a), as.double(power), as.double(s0))
}

# The print lines of a suite analysed with a tolerance.
suite_tolerance_lines <- function(x) {
  s0 <- x$min_speedup
  if (is.null(s0) || s0 == 1) return(character())
  pr <- x$proportion
  eq <- paste(sprintf("%d (%s)", as.integer(pr$equivalent),
                      vapply(pr$protocol, function(p) protocol_info(p)$label, "")),
              collapse = ", ")
  wrap_lines(sprintf(
    "Tolerance %s: speedups and slowdowns declared only beyond it; equivalent within it (two one-sided tests): %s",
    fmt_change(s0), eq), exdent = 2L)
}
