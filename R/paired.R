# The paired design (SPEC section 9, rule 4): runs taken in complete
# interleaved rounds, one run of each version per round.  The protocols are
# st_paired_protocol (src/paired.c), one flowchart for the median and one
# for the mean; this file turns their result into a speedup_verdict, whose
# words come from the descriptors `paired_median` and `paired_mean`
# (R/protocol-descriptor.R).

# The verdict of the paired protocol `test` on rounds x[i], y[i].
run_paired <- function(test, x, y, alpha, rigorous, labels, data_name, call,
                       baseline, pairing) {
  alpha <- check_alpha(alpha)
  rigorous <- check_flag(rigorous, "rigorous")
  x <- as.double(x)
  y <- as.double(y)
  res <- .Call(ffi_paired_test, x, y, protocol_code(test), alpha,
               rigorous)
  check_status(res, sprintf("%s_test()", test))
  new_paired_verdict(res, test, x, y, alpha, rigorous, labels, data_name,
                     call, baseline, pairing)
}

new_paired_verdict <- function(res, test, x, y, alpha, rigorous, labels,
                               data_name, call, baseline, pairing) {
  d <- log(x) - log(y)
  ro <- paired_run_order(d, labels)
  # the caveat bits the paired design shares with the unpaired flowcharts;
  # the others concern the differences (see verdict_story())
  flags <- bitwAnd(res$caveats, st_code("caveat", "too_few_values") +
                                st_code("caveat", "constant"))
  v <- new_verdict(res, test, x, y, alpha, rigorous, labels, data_name, call,
                   baseline = baseline, run_order = ro, flags = flags,
                   design = "paired")
  if (test == "median") {
    v$log_shift <- .subset2(v, "shift")
    v$log_shift_ci <- .subset2(v, "shift_ci")
    v$shift <- NA_real_
    v$shift_ci <- structure(c(NA_real_, NA_real_), conf.level = 1 - alpha)
    v$speedup_what <- protocol_info(test, "paired")$observed
  }
  v$plot_xlab <- "round"
  v$rounds <- list(x = x, y = y, d = d)
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

# Highest confidence of the paired protocols, exactly: the median protocol
# is significant iff the signed-rank p-value <= alpha; the mean protocol
# iff the t p-value <= alpha and, with 30 rounds or fewer in rigorous mode,
# the differences are shown normal (Shapiro-Wilk p > alpha).
paired_highest_confidence <- function(test, x, y, rigorous) {
  res <- .Call(ffi_paired_test, as.double(x), as.double(y),
               protocol_code(test), 0.5, FALSE)
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
