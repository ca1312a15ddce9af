# An interval for the ratio of the medians that needs no location model
# (issue 29): the Hodges-Lehmann interval of the median protocol is the
# inversion of its rank-sum test, an interval for the factor theta with
# P[X > theta Y] = 1/2, which is the ratio of the medians only when the two
# samples have the same shape (on log times).  Where the shapes differ the
# verdict also gives the ratio of the medians with the distribution-free
# interval of Bonett and Price (2002), on log times: each sample median's
# variance is read off its order-statistic interval,
#   c = round((n + 1) / 2 - sqrt(n)),  a* = 2 P(Binom(n, 1/2) <= c - 1),
#   var = ((L_(n - c + 1) - L_(c)) / (2 z_{1 - a*/2}))^2,
# (the interval [L_(c), L_(n-c+1)] covers the median with probability
# exactly 1 - a*, and is about median +- z_{1 - a*/2} se), and
#   log(med x) - log(med y) +- z_{1 - alpha} sqrt(var_x + var_y)
# is two-sided at 1 - 2 alpha, each end a one-sided 1 - alpha bound as the
# protocol's other intervals.
#
# Bonett, D. G. and Price, R. M. (2002). Statistical inference for a
#   linear function of medians: confidence intervals, hypothesis testing,
#   and sample size requirements. Psychological Methods, 7(3), 370-383.

# The variance of the median of sorted values s (NA below 3 values).
median_var_bp <- function(s) {
  n <- length(s)
  if (n < 3L) return(NA_real_)
  c <- max(1L, min(as.integer(round((n + 1) / 2 - sqrt(n))), n %/% 2L))
  a <- 2 * stats::pbinom(c - 1L, n, 0.5)
  if (!(a > 0 && a < 1)) return(NA_real_)
  z <- stats::qnorm(1 - a / 2)
  ((s[n - c + 1L] - s[c]) / (2 * z))^2
}

# The ratio of the medians of x and y with its Bonett-Price interval at
# 1 - 2 alpha: c(estimate, low, high) (NA where it does not exist).
median_ratio_bp <- function(x, y, alpha) {
  na <- c(estimate = NA_real_, low = NA_real_, high = NA_real_)
  # (a large-sample interval: none below 10 units a sample)
  if (length(x) < 10L || length(y) < 10L || !(alpha < 0.5)) return(na)
  lx <- sort(log(x))
  ly <- sort(log(y))
  d <- log(stats::median(x)) - log(stats::median(y))
  se <- sqrt(median_var_bp(lx) + median_var_bp(ly))
  if (is.na(se)) return(na)
  z <- stats::qnorm(1 - alpha)
  c(estimate = exp(d), low = exp(d - z * se), high = exp(d + z * se))
}

# Whether a median verdict's Hodges-Lehmann factor is not the ratio of its
# medians: its location check rejected the shift model, or the two
# estimates differ by more than chance allows under it (two-sided at
# alpha).  Neither check has the power to see every difference that
# matters (a bias of one standard error of the Hodges-Lehmann factor is
# about all the data can tell from noise), so the verdict prints the ratio
# of the medians with its own interval in any case; this check only adds
# the caveat.  Under the shift
# model both estimate the same number, the Hodges-Lehmann one with less
# noise; as for Hausman's test, the difference of an efficient and a
# consistent estimate has about the variance var(median ratio) -
# var(Hodges-Lehmann), the first read off the Bonett-Price variances, the
# second off the Hodges-Lehmann interval.  The two-sided test at alpha of
# that difference has power where the difference matters (the bias of the
# Hodges-Lehmann factor against its own interval), which the
# Kolmogorov-Smirnov test on centred samples lacks at a few hundred runs.
shapes_differ <- function(v) {
  lz <- attr(v, "lazy", exact = TRUE)
  if (is.null(.subset2(v, "median_ratio")) && !("median_ratio" %in% names(v))) return(FALSE)
  if (identical(lz$design, "paired")) return(FALSE)
  if (has_bit(lz$flags, "no_location_model")) return(TRUE)
  z <- shapes_z(v)
  !is.na(z) && abs(z) > stats::qnorm(1 - .subset2(v, "alpha") / 2)
}

# The standardised difference of the log Hodges-Lehmann factor and the log
# ratio of the medians (NA where either has no interval).
shapes_z <- function(v) {
  r <- v$median_ratio
  ci <- as.double(.subset2(v, "speedup_ci"))
  est <- attr(.subset2(v, "speedup_ci"), "estimate")
  alpha <- .subset2(v, "alpha")
  if (is.null(r) || anyNA(r) || anyNA(ci) || is.null(est) || is.na(est) ||
      !all(is.finite(ci)) || !(ci[1L] > 0) || !(alpha < 0.5)) return(NA_real_)
  q <- stats::qnorm(1 - alpha)
  var_hl <- ((log(ci[2L]) - log(ci[1L])) / (2 * q))^2
  var_mr <- ((log(r[["high"]]) - log(r[["low"]])) / (2 * q))^2
  v_d <- max(var_mr - var_hl, 0.1 * var_mr)
  if (!(v_d > 0)) return(NA_real_)
  (log(est) - log(r[["estimate"]])) / sqrt(v_d)
}
