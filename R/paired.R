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
  res <- .Call(ffi_run_protocol, x, y, protocol_code(test), TRUE, alpha,
               rigorous, 0L)
  check_status(res, sprintf("%s_test()", test))
  new_paired_verdict(res, test, x, y, alpha, rigorous, labels, data_name,
                     call, baseline, pairing)
}

# The per-round log ratios and their trend check (paired_run_order())
# are made now only when the check decides the guarantee (the core
# guarantees the confidence: a flag takes it away); otherwise `run_order`
# and `rounds` are parts made when read (verdict_lazy()), like the
# caveats that tell them.
new_paired_verdict <- function(res, test, x, y, alpha, rigorous, labels,
                               data_name, call, baseline, pairing) {
  ro <- rounds <- NULL
  if (isTRUE(res$guaranteed)) {
    d <- .Call(ffi_log_ratio, x, y)
    ro <- paired_run_order(d, labels)
    rounds <- list(x = x, y = y, d = d)
  }
  # the caveat bits the paired design shares with the unpaired flowcharts;
  # the others concern the differences (see verdict_story())
  flags <- bitwAnd(res$caveats, st_code("caveat", "too_few_values") +
                                st_code("caveat", "constant"))
  v <- new_verdict(res, test, x, y, alpha, rigorous, labels, data_name, call,
                   baseline = baseline, run_order = ro, flags = flags,
                   design = "paired",
                   run_order_flag = if (is.null(ro)) FALSE)
  if (!is.null(.subset2(v, "shift"))) {
    # the shift is that of the log times (the median's twin)
    v$log_shift <- .subset2(v, "shift")
    v$log_shift_ci <- .subset2(v, "shift_ci")
    v$shift <- NA_real_
    v$shift_ci <- structure(c(NA_real_, NA_real_), conf.level = 1 - alpha)
    v$speedup_what <- protocol_info(test, "paired")$observed
  }
  v$plot_xlab <- "round"
  v["rounds"] <- list(rounds)
  v
}

# The rounds of a paired verdict: its samples, paired by position, and
# the per-round log ratios log(x) - log(y) (made once for `rounds` and
# `run_order`).
paired_rounds <- function(v) {
  x <- .subset2(v, "x")
  y <- .subset2(v, "y")
  list(x = x, y = y,
       d = verdict_kept(v, "log_ratio", function(v) .Call(ffi_log_ratio, x, y)))
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

# Highest confidence of a paired twin, exactly: its decision changes with
# alpha only where alpha crosses one of its steps' p-values (the
# signed-rank test's for the median; the paired t-test's and, in rigorous
# mode with 30 rounds or fewer, the differences' Shapiro-Wilk test's for
# the mean), so the smallest significant alpha is the first of them, in
# increasing order, at which the twin declares the speedup (0 when it does
# below every positive one).
paired_highest_confidence <- function(test, x, y, rigorous) {
  run <- function(alpha, rig) {
    res <- .Call(ffi_run_protocol, as.double(x), as.double(y),
                 protocol_code(test), TRUE, alpha, rig, 0L)
    check_status(res, "highest_confidence()")
    res
  }
  every <- run(0.5, FALSE)
  p <- vapply(every$steps, function(r) as.double(r$p_value), 0)
  cand <- sort(unique(c(p[!is.na(p) & p > 0 & p <= 0.5], 0.5)))
  sig <- st_code("decision", "significant")
  if (run(cand[1L] / 2, rigorous)$decision == sig) return(new_confidence(1, 0))
  for (a in cand) {
    if (run(a, rigorous)$decision == sig) return(new_confidence(1 - a, a))
  }
  new_confidence(NA_real_, NA_real_)
}
