# What a verdict's sizes allow (issue 29): the smallest risk at which its
# final test can declare a speedup or a slowdown, the real level of its
# interval, and interval ends that sit exactly on the decision's boundary.
#
# A rank test on few units has a discrete law: with n and m runs and no
# ties the one-sided rank-sum p-value is at least 1 / choose(n + m, n)
# (0.05 for 3 against 3), the signed-rank p-value on r rounds at least
# 2^-r.  Below that alpha nothing can be declared, and the exact interval
# of level 1 - 2 alpha does not exist (its ends would be the order
# statistics of rank 0).  The smallest attainable p of the test the
# verdict made is that of the most extreme arrangement of the same values
# (the same ties): every value of x above every value of s0 y for a
# speedup.  The t-tests have no such floor.

# The smallest p-values the final test of verdict `v` can reach with its
# values and ties: c(speedup = , slowdown = ) (0 for the t-tests).
verdict_min_alpha <- function(v) {
  x <- .subset2(v, "x")
  y <- .subset2(v, "y")
  none <- c(speedup = NA_real_, slowdown = NA_real_)
  if (length(x) < 3L || length(y) < 3L) return(none)
  s0 <- .subset2(v, "min_speedup")
  if (is.null(s0)) s0 <- 1
  design <- attr(v, "lazy", exact = TRUE)$design
  if (is.null(design)) design <- "unpaired"
  fn <- protocol_info(.subset2(v, "test"))$calls$attainable
  if (is.null(fn)) return(c(speedup = 0, slowdown = 0))
  p <- tryCatch(get(fn, envir = asNamespace("speeduptest"), mode = "function")(
    x, y, s0, design), error = function(e) none)
  p[is.nan(p)] <- NA_real_
  p
}

# The rank protocols (median, prob): their own tests (the tolerance's, which
# with s0 = 1 are the protocol's final tests) on the most extreme
# arrangements of the same values.
attainable_rank <- function(test) {
  force(test)
  function(x, y, s0, design) {
    n <- length(x)
    m <- length(y)
    if (identical(design, "paired")) {
      ls0 <- log(s0)
      d <- log(x) - log(y)
      up <- y * exp(abs(d - ls0) + ls0)
      down <- y * exp(-(abs(-d - ls0) + ls0))
      pt <- function(a, k) paired_tolerance_p_values(a, y, test, s0)[k]
      return(c(speedup = pt(up, 1L), slowdown = pt(down, 2L)))
    }
    z <- sort(c(x, s0 * y))
    up <- tolerance_p_values(z[m + seq_len(n)], z[seq_len(m)] / s0, test,
                             FALSE, s0)[1L]
    z <- sort(c(y, s0 * x))
    down <- tolerance_p_values(z[seq_len(n)] / s0, z[n + seq_len(m)], test,
                               FALSE, s0)[2L]
    c(speedup = up, slowdown = down)
  }
}
attainable_median <- attainable_rank("median")
attainable_prob <- attainable_rank("prob")

# The interval of a verdict whose level 1 - 2 alpha its sizes cannot reach:
# no interval (NA ends), with the highest level they reach kept as the
# attribute "attainable" (the exact rank intervals' own level,
# src/wilcoxon.c and src/signrank.c).
unattainable_interval <- function(ci, level, alpha) {
  if (is.null(level) || is.na(level) || !(alpha < 0.5)) return(ci)
  if (abs(level - (1 - 2 * alpha)) <= 1e-9) return(ci)
  ci[] <- NA_real_
  attr(ci, "attainable") <- level
  ci
}

# The speedup's interval made to agree with the decision.  The decision
# is the final test at the boundary b (s0 for a speedup, 1 / s0 for a
# slowdown: the rank-sum test with mid-ranks and its exact law given the
# ties, or the tolerance's test); the interval is the rank interval of the
# same statistic, whose ranks come from the law without ties.  The two
# are one test wherever no run times tie; where they tie at b, the
# decision rejects b while the interval may end on b or just beyond it.
# The interval of the speedups the decision's own test does not reject
# is then the interval without b and what lies beyond it (the rank-sum
# statistic is monotone in the speedup): its end is b, open.  A decision
# that rejects nothing keeps b inside.  When nothing is left (both ends
# on b: runs tied at the timer's resolution, so that the two one-sided
# tests reject b and everything off it), there is no interval
# (attribute "empty").  Attribute "open": c(low, high).
interval_open_ends <- function(v) {
  ci <- .subset2(v, "speedup_ci")
  if (length(ci) != 2L || anyNA(ci)) return(v)
  s0 <- .subset2(v, "min_speedup")
  if (is.null(s0)) s0 <- 1
  dir <- .subset2(v, "direction")
  if (is.na(dir)) return(v)
  open <- c(FALSE, FALSE)
  lo <- ci[[1L]]
  hi <- ci[[2L]]
  if (dir == "speedup" && lo <= s0) {
    lo <- s0
    open[1L] <- TRUE
  } else if (dir == "slowdown" && hi >= 1 / s0) {
    hi <- 1 / s0
    open[2L] <- TRUE
  } else if (dir == "none") {
    if (lo > s0) lo <- s0
    if (hi < 1 / s0) hi <- 1 / s0
  }
  if ((open[1L] && hi <= lo) || (open[2L] && lo >= hi)) {
    ci[] <- NA_real_
    attr(ci, "empty") <- TRUE
  } else {
    ci[] <- c(lo, hi)
    attr(ci, "open") <- if (any(open)) open
  }
  v$speedup_ci <- ci
  v
}

# The sentence of a verdict that cannot declare a change at its alpha
# (NULL when it can): the smallest attainable alpha of its final test.
min_alpha_sentence <- function(v) {
  p <- v$min_alpha
  if (length(p) != 2L || anyNA(p)) return(NULL)
  blocked <- p > v$alpha
  if (!any(blocked)) return(NULL)
  what <- if (all(blocked)) "no speedup or slowdown" else
    sprintf("no %s", names(p)[blocked])
  caveat_sentences$min_alpha(what, v$alpha, verdict_unit_words(v),
                             final_test_name(v), min(p[blocked]))
}

# "3 and 3 runs", "4 and 4 processes", "6 rounds".
verdict_unit_words <- function(v) {
  if (identical(attr(v, "lazy", exact = TRUE)$design, "paired")) {
    return(sprintf("%d rounds", v$n))
  }
  info <- v$replication
  unit <- if (!is.null(info) && identical(info$unit, "process")) "processes" else "runs"
  sprintf("%d and %d %s", v$n, v$m, unit)
}

# The name of a verdict's final test, from its step's path words
# ("Wilcoxon-Mann-Whitney p = ..." -> "Wilcoxon-Mann-Whitney test").
final_test_name <- function(v) {
  proto <- verdict_protocol(v)
  step <- step_of_role(proto$final, proto)
  w <- step$path(NA_real_, list(alpha = v$alpha, labels = v$labels, welch = FALSE))
  w <- sub(" p = .*$", "", w)
  if (!grepl("test", w, fixed = TRUE)) w <- paste(w, "test")
  w
}

# The words of an interval its sizes cannot reach.
unattainable_words <- function(v, level) {
  caveat_sentences$no_interval_level(interval_level(v$alpha), verdict_unit_words(v),
                                     floor(level * 1000 + 1e-9) / 1000)
}

# The words of an interval left empty by ties on the boundary.
empty_interval_words <- function(v) {
  caveat_sentences$empty_interval(interval_level(v$alpha))
}

# The speedup with its interval as every surface shows it ("1.24 [1.12,
# 1.37] (ratio of the means; Fieller 98% interval, each end a one-sided 99%
# bound)"), or its estimate with why there is no interval; NULL when there
# is neither.
interval_phrase <- function(v, digits = 3L) {
  ci <- v$speedup_ci
  est <- attr(ci, "estimate")
  if (is.null(est) || is.na(est)) return(NULL)
  lev <- attr(ci, "attainable")
  if (isTRUE(attr(ci, "empty"))) {
    return(sprintf("%s (%s; %s)", fmt_num(est, digits), attr(ci, "estimator"),
                   empty_interval_words(v)))
  }
  if (!is.null(lev)) {
    return(sprintf("%s (%s; %s)", fmt_num(est, digits), attr(ci, "estimator"),
                   unattainable_words(v, lev)))
  }
  if (length(ci) != 2L || anyNA(ci)) return(NULL)
  open <- attr(ci, "open")
  note <- interval_note(v$alpha)
  if (any(open)) {
    note <- paste0(note, ", ", caveat_sentences$open_end(ci[[which(open)[1L]]]))
  }
  sprintf("%s (%s; %s, %s)", fmt_estimate_ci(est, ci, digits), attr(ci, "estimator"),
          interval_words(v$test, attr(ci, "conf.level")), note)
}

# The advice of a verdict that cannot declare a change at its alpha.
min_alpha_advice <- function(v) {
  units <- if (identical(attr(v, "lazy", exact = TRUE)$design, "paired")) "rounds"
           else sub("^[0-9]+ and [0-9]+ ", "", verdict_unit_words(v))
  caveat_sentences$min_alpha_advice(min(v$min_alpha), units)
}

# The verdict with the `detectable` of its spread alone (the normal
# approximation of its protocol, ignoring the floor of its sizes), for the
# advice on how many runs would detect a change.
detectable_from_spread <- function(v) {
  s0 <- if (is.null(v$min_speedup)) 1 else v$min_speedup
  d <- tryCatch(protocol_call(v$test, "detectable", v, 0.8, v$alpha, s0),
                error = function(e) NA_real_)
  v[["detectable"]] <- d
  v
}

# The phrase of a suite's caveats column for benchmarks whose sizes cannot
# reach the interval's level 1 - 2 alpha (nor, then, the one-sided test
# alpha): "no 98% interval with 3 and 3 runs (it reaches 90% at most): no
# change can be declared at alpha = 0.01".
suite_unattainable_text <- function(alpha, n, m, level) {
  sprintf("%s: no change can be declared at alpha = %s",
          caveat_sentences$no_interval_level(interval_level(alpha),
                                             sprintf("%d and %d runs", n, m),
                                             floor(level * 1000 + 1e-9) / 1000),
          format(alpha))
}
