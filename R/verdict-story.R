# The caveats and the advice of a verdict: which of the sentences of the
# protocol descriptor (`caveat_sentences`, R/protocol-descriptor.R) apply,
# in the order a reader needs them.  Made when the verdict's `caveats` or
# `advice` are read, from its caveat bits, its steps' p-values, its
# run-order checks, its design and its replicates.
#
# Order of the caveats: the protocol's own (too few runs, no variability,
# normality, the location model; in the paired design the differences'
# normality and the trend of the ratio), the run-order checks, the
# replicates' (one process per version, a forced run unit), and last "1 -
# alpha may not be the correct confidence level" whenever the verdict
# decides without a guarantee.  Advice: the timer, more runs (rounds,
# processes), how to interleave or pair, how many runs per process.

verdict_story <- function(v) {
  lz <- attr(v, "lazy", exact = TRUE)
  S <- caveat_sentences
  proto <- verdict_protocol(v)
  paired <- proto$design == "paired"
  flags <- lz$flags
  labels <- v$labels
  sizes <- c(v$n, v$m)
  alpha <- v$alpha
  info <- v$replication
  unit <- if (!is.null(info) && identical(info$unit, "process")) "process" else "run"
  cav <- adv <- character()

  if (has_bit(flags, "too_few_values")) {
    for (i in 1:2) {
      if (sizes[i] < 3L) cav <- c(cav, S$too_few_values(labels[i], sizes[i], unit))
    }
  }
  if (has_bit(flags, "constant")) {
    cav <- c(cav, if (identical(proto$constant, "both") &&
                      v$branch == "constant_samples")
      S$constant_both() else S$constant())
    adv <- c(adv, S$timer())
  }
  ro <- v$run_order
  if (paired) {
    # the checks of the paired design concern the per-round differences
    cav <- unique(cav)
    adv <- unique(adv)
    if (has_bit(flags, "x_not_normal")) {
      cav <- c(cav, if (has_bit(flags, "x_uncheckable"))
        S$differences_uncheckable(labels[1L], labels[2L])
      else S$differences_not_normal(labels[1L], labels[2L],
                                    raw_step_p(lz, "shapiro_d"), alpha))
    }
    t <- ro$ratio
    if (!is.null(t) && t$p.value <= run_order_level) {
      cav <- c(cav, S$ratio_trend(labels[1L], labels[2L], t$estimate > 0, t$p.value))
    }
    if (has_bit(flags, "x_few_runs")) adv <- c(adv, S$more_rounds())
  } else {
    for (i in 1:2) {
      s <- c("x", "y")[i]
      if (!has_bit(flags, paste0(s, "_not_normal"))) next
      cav <- c(cav, if (has_bit(flags, paste0(s, "_uncheckable")))
        S$uncheckable(labels[i], sizes[i])
      else S$not_normal(labels[i], raw_step_p(lz, paste0("shapiro_", s)), alpha))
    }
    if (has_bit(flags, "no_location_model")) {
      cav <- c(cav, S$no_location_model(labels[1L], labels[2L],
                                        raw_step_p(lz, "ks_test"), alpha))
    }
    if (!is.na(v$significant) && shapes_differ(v)) {
      r <- v$median_ratio
      cav <- c(cav, S$shapes_differ(labels[1L], labels[2L],
                                    fmt_estimate_ci(r[["estimate"]], r[c("low", "high")]),
                                    interval_level(alpha)))
    }
    cav <- c(cav, run_order_caveats(ro, labels))
    few <- c(has_bit(flags, "x_few_runs"), has_bit(flags, "y_few_runs"))
    if (any(few)) adv <- c(adv, S$more_runs(labels[few], unit))
    if (isTRUE(ro$trend)) adv <- c(adv, S$interleave())
  }
  cav <- c(cav, warmup_caveats(v$warmup))
  # a change that cannot be declared at alpha with these sizes, first
  if (identical(v$direction, "none")) {
    blocked <- min_alpha_sentence(v)
    if (length(blocked)) {
      cav <- c(blocked, cav)
      adv <- c(adv, min_alpha_advice(v))
    }
  }
  tail <- if (!is.na(v$significant) && !v$confidence_guaranteed) {
    S$not_guaranteed(v$confidence)
  }
  if (!is.null(info)) {
    more <- replication_story(v, info, adv)
    if (length(more$caveats) || length(more$advice)) {
      cav <- unique(c(cav, more$caveats))
      adv <- c(more$kept_advice, more$advice)
    }
  }
  list(caveats = c(cav, tail), advice = adv)
}

# The caveats of the run-order checks of an unpaired verdict.
run_order_caveats <- function(ro, labels) {
  out <- character()
  for (i in 1:2) {
    t <- ro[[c("x", "y")[i]]]
    if (!is.null(t) && t$p.value <= run_order_level) {
      out <- c(out, caveat_sentences$trend(labels[i], t$estimate > 0, t$p.value))
    }
  }
  it <- ro$interleaving
  if (!is.null(it) && !it$interleaved) {
    out <- c(out, caveat_sentences$blocks(it$description))
  }
  out
}

# What the replicates add (SPEC section 9): the caveat of one process per
# version (rule 2) or of a forced run unit, the runs per process that
# spend the next runs best (rule 1), and in place of the advice to
# interleave, when the runs were interleaved, to pair them by round or to
# find a quieter machine.  `adv` is the advice so far; `kept_advice` what
# remains of it.
replication_story <- function(v, info, adv) {
  S <- caveat_sentences
  cav <- more <- character()
  if (info$unit == "run" && info$kind == "single" && info$requested == "auto") {
    cav <- S$one_process(v$labels[info$processes == 1L])
    more <- S$several_processes()
  }
  if (info$unit == "run" && info$requested == "run" &&
      info$kind %in% c("single", "processes")) {
    cav <- S$runs_forced()
  }
  if (info$unit == "process") {
    o <- info$optimal
    if (!is.null(o) && !is.na(o$runs)) {
      more <- if (is.infinite(o$runs)) S$no_between_variance() else
        S$runs_per_process(max(1L, as.integer(round(o$runs))), o$cost_from == "run")
    }
  }
  interleave <- S$interleave()
  it <- v$run_order$interleaving
  if (interleave %in% adv &&
      (isTRUE(info$interleaved) || (!is.null(it) && isTRUE(it$interleaved)))) {
    adv <- setdiff(adv, interleave)
    more <- c(more, if (isTRUE(info$interleaved) && !identical(v$design$design, "paired"))
      S$pair_rounds() else S$quieter_machine())
  }
  list(caveats = cav, advice = more, kept_advice = adv)
}
