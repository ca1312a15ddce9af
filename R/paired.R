# The paired design (SPEC section 9, rule 4): runs taken in complete
# interleaved rounds, one run of each version per round.  The protocols are
# st_paired_median_protocol and st_paired_mean_protocol (src/paired.c);
# this file turns their result into a speedup_verdict.

paired_branches <- c(paired_signed_rank = 9L, paired_t_normal = 10L,
                     paired_t_not_normal = 11L)

# The verdict of the paired protocol `test` on rounds x[i], y[i].
run_paired <- function(test, x, y, alpha, rigorous, labels, data_name, call,
                       baseline, pairing) {
  alpha <- check_alpha(alpha)
  rigorous <- check_flag(rigorous, "rigorous")
  x <- as.double(x)
  y <- as.double(y)
  res <- .Call(ffi_paired_test, x, y, if (test == "mean") 0L else 1L, alpha,
               rigorous)
  check_status(res, sprintf("%s_test()", test))
  new_paired_verdict(res, test, x, y, alpha, rigorous, labels, data_name,
                     call, baseline, pairing)
}

new_paired_verdict <- function(res, test, x, y, alpha, rigorous, labels,
                               data_name, call, baseline, pairing) {
  flags <- res$caveats
  branch <- res$branch
  kinds <- res$step_kinds
  steps <- res$steps
  # the generic parts of the verdict; the paired steps and sentences below
  res$caveats <- bitwAnd(flags, caveat_bit[["too_few_values"]] +
                                caveat_bit[["constant"]])
  res$step_kinds <- integer()
  res$steps <- list()
  if (branch >= 9L) res$branch <- 7L
  d <- log(x) - log(y)
  ro <- paired_run_order(d, labels)
  v <- new_verdict(res, test, x, y, alpha, rigorous, labels, data_name, call,
                   baseline = baseline, run_order = ro)
  if (branch >= 9L) v$branch <- names(paired_branches)[paired_branches == branch]
  lx <- labels[1L]
  ly <- labels[2L]
  dn <- sprintf("%s - %s, by round", lx, ly)
  built <- list()
  for (i in seq_along(kinds)) {
    r <- steps[[i]]
    built[[i]] <- switch(as.character(kinds[i]),
      "6" = new_htest(r, if (r$status == 0L) "Shapiro-Wilk normality test" else
                        sprintf("Shapiro-Wilk normality test (not run: %s)",
                                if (r$status == 3L) "constant differences" else "more than 5000 rounds"),
                      data_name = dn, statistic_name = "W"),
      "7" = new_htest(r, "Paired t-test", data_name = dn, alternative = "greater",
                      statistic_name = "t", parameter_names = "df",
                      estimate_names = "mean difference",
                      null_value = c("mean difference" = 0), conf_level = 1 - alpha),
      "8" = new_htest(r, paste("Wilcoxon signed rank",
                               if (isTRUE(r$exact)) "exact test" else "test with continuity correction"),
                      data_name = sprintf("log(%s) - log(%s), by round", lx, ly),
                      alternative = "greater", statistic_name = "V",
                      null_value = c("location shift" = 0)))
  }
  names(built) <- c("6" = "shapiro_x", "7" = "t_test", "8" = "wilcoxon")[as.character(kinds)]
  v$steps <- built
  v$n <- v$m <- length(x)
  if (test == "median") {
    v$log_shift <- v$shift
    v$log_shift_ci <- v$shift_ci
    v$shift <- NA_real_
    v$shift_ci <- structure(c(NA_real_, NA_real_), conf.level = 1 - alpha)
    attr(v$speedup_ci, "method") <- "Hodges-Lehmann on log ratios by round"
    attr(v$speedup_ci, "estimator") <- "Hodges-Lehmann estimate on log ratios by round"
    v$speedup_what <- "median per-round ratio"
    v$plot_xlab <- "round"
  } else {
    attr(v$speedup_ci, "method") <- "paired Fieller"
    attr(v$speedup_ci, "estimator") <- "ratio of the means, paired Fieller"
    v$plot_xlab <- "round"
  }
  v$rounds <- list(x = x, y = y, d = d)
  cav <- character()
  if (has_bit(flags, "x_not_normal")) {
    cav <- if (has_bit(flags, "x_uncheckable")) {
      sprintf("the differences %s - %s cannot be checked for normality", lx, ly)
    } else {
      sprintf("the differences %s - %s are not shown normal (Shapiro-Wilk p = %s <= %s)",
              lx, ly, fmt_p(built$shapiro_x$p.value), format(alpha))
    }
  }
  adv <- if (has_bit(flags, "x_few_runs")) "perform more than 30 rounds"
  sent <- verdict_sentences(v)
  ros <- paired_order_sentences(ro, labels)
  generic <- sprintf("%s may not be the correct confidence level", fmt_pct(v$confidence))
  tail <- intersect(sent[[1L]], generic)
  interleave <- run_order_sentences(list(trend = TRUE), labels)$advice
  v$caveats <- c(setdiff(sent[[1L]], generic), cav, ros$caveats, tail)
  v$advice <- c(setdiff(sent[[2L]], interleave), adv)
  v
}

# The run-order check of the paired design: slow drift of the machine
# cancels within a round, so the samples are not tested for a trend; the
# per-round log ratios are (a drift that affects the versions differently
# does not cancel).
paired_run_order <- function(d, labels) {
  test <- NULL
  if (length(d) >= run_order_min_runs) {
    res <- .Call(ffi_mann_kendall, as.double(d), 0, as.double(length(d)))
    if (res$status == 0L) {
      test <- mk_htest(res, 1L, sprintf("log(%s / %s) by round", labels[1L], labels[2L]))
    }
  }
  flagged <- !is.null(test) && test$p.value <= run_order_level
  list(x = NULL, y = NULL, interleaving = NULL, ratio = test, positions = NULL,
       trend = flagged, paired = TRUE)
}

# The path of a paired verdict, for print().
paired_path <- function(v) {
  s <- v$steps
  a <- v$alpha
  if (v$test == "median") {
    if (is.null(s$wilcoxon)) return(character())
    return(sprintf("signed-rank test of log(%s / %s) by round p = %s%s", v$labels[1L],
                   v$labels[2L], fmt_p(s$wilcoxon$p.value), slowdown_p(v)))
  }
  st <- s$shapiro_x
  if (is.null(st)) return(character())
  path <- if (is.na(st$p.value)) "differences not checkable" else
    sprintf("differences %s (p = %s)", if (st$p.value > a) "normal" else "not normal",
            fmt_p(st$p.value))
  if (!is.null(s$t_test)) {
    path <- sprintf("%s -> paired t-test p = %s%s", path, fmt_p(s$t_test$p.value),
                    slowdown_p(v))
  }
  if (v$branch == "need_more_runs") path <- paste(path, "-> stop (rigorous mode)")
  path
}

# The caveat of a trend in the per-round ratios.
paired_order_sentences <- function(ro, labels) {
  t <- ro$ratio
  if (is.null(t) || t$p.value > run_order_level) return(list(caveats = character(), advice = character()))
  list(caveats = sprintf(
    "the ratio %s / %s %s with the rounds (Mann-Kendall p = %s <= %s): the versions drift differently",
    labels[1L], labels[2L], if (t$estimate > 0) "increases" else "decreases",
    fmt_p(t$p.value), format(run_order_level)), advice = character())
}

# Highest confidence of the paired protocols, exactly: the median protocol
# is significant iff the signed-rank p-value <= alpha; the mean protocol
# iff the t p-value <= alpha and, with 30 rounds or fewer in rigorous mode,
# the differences are shown normal (Shapiro-Wilk p > alpha).
paired_highest_confidence <- function(test, x, y, rigorous) {
  res <- .Call(ffi_paired_test, as.double(x), as.double(y),
               if (test == "mean") 0L else 1L, 0.5, FALSE)
  check_status(res, "highest_confidence()")
  p <- res$p_value
  a <- NA_real_
  if (!is.na(p) && p <= 0.5) {
    a <- p
    if (test == "mean" && rigorous && length(x) <= 30L) {
      sw <- res$steps[[1L]]$p_value
      if (is.na(sw) || !(p < sw)) a <- NA_real_
    }
  }
  if (is.na(a)) return(new_confidence(NA_real_, NA_real_))
  new_confidence(1 - a, a)
}
