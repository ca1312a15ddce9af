# The speedup_suite object: the C core's per-benchmark columns turned into
# the `benchmarks` data frame (decisions adjusted for multiplicity and
# judged against the tolerance), the overall gains and the proportions of
# accelerated benchmarks.

# The caveats of each benchmark from its caveat bits, in the suite's short
# phrases (`suite_phrases`, R/protocol-descriptor.R), in the order of the
# bits.
suite_caveat_text <- function(bits) {
  bit <- st_codes("caveat")
  text <- suite_phrases[names(bit)]
  # built once per distinct code (a suite has a handful), then indexed
  codes <- as.integer(bits)
  distinct <- unique(codes)
  sentence <- vapply(distinct, function(b) {
    paste(text[bitwAnd(b, bit) != 0L], collapse = "; ")
  }, character(1))
  sentence[match(codes, distinct)]
}

new_speedup_suite <- function(res, suite, levels, problems, mode, requested,
                              prop_conf_level, prop_method, precision,
                              significant_only, rigorous, call,
                              run_order = NULL, p_adjust = "none",
                              min_speedup = 1) {
  b <- res$benchmarks
  nb <- length(suite$names)
  w <- matrix(b$weights, nrow = nb, ncol = 3L)
  st <- b$status
  # a benchmark the core could not analyse (should not happen once the
  # data checks passed): kept visible as a problem, never dropped silently
  failed <- st != 0
  why <- status_words[st_code_name("status", st[failed])]
  why[is.na(why)] <- "unknown failure"
  for (k in seq_along(why)) {
    j <- which(failed)[k]
    problems <- skip_benchmark(problems, suite$names[j], sprintf(
      "benchmark \"%s\" skipped: the analysis failed (%s).", suite$names[j],
      why[[k]]), where = "analysis")
  }
  searched <- b$searched == 1
  # a searched level is on the 0.01 grid; a given one is reported as given
  lev_used <- function(alpha, searched) ifelse(searched, round(1 - alpha, 2), levels)
  if (is.null(run_order)) run_order <- suite_run_order(suite)
  ro_text <- suite_run_order_text(run_order)
  ok <- !failed
  # the protocol's columns, named with its prefix
  proto <- function(p) {
    dec <- b[[paste0(p, "_decision")]]
    alpha <- b[[paste0(p, "_alpha")]]
    pv <- na_if_nan(b[[paste0(p, "_p_value")]])
    ps <- na_if_nan(b[[paste0(p, "_p_value_slowdown")]])
    pv[!ok] <- NA
    ps[!ok] <- NA
    peq <- rep(NA_real_, length(pv))
    if (min_speedup != 1) {
      # the final tests against the tolerance (src/tolerance.c)
      tol <- suite_tolerance(suite, p, alpha, min_speedup)
      reached <- dec >= 0 & ok
      pv[reached] <- tol[reached, 1L]
      ps[reached] <- tol[reached, 2L]
      peq[reached] <- pmax(tol[reached, 3L], tol[reached, 4L])
    }
    # adjusted over the benchmarks that reached the final test
    pa <- stats::p.adjust(pv, method = p_adjust)
    psa <- stats::p.adjust(ps, method = p_adjust)
    peqa <- stats::p.adjust(peq, method = p_adjust)
    tested <- dec >= 0 & !is.na(pa)
    dec[tested] <- as.integer(pa[tested] <= alpha[tested])
    # (indexing, not nested ifelse(): the same values at a fraction of
    # the cost on long suites)
    direction <- c("none", "slowdown")[(!is.na(psa) & psa <= alpha) + 1L]
    direction[which(direction == "none" & !is.na(peqa) & peqa <= alpha)] <- "equivalent"
    direction[which(dec == 1)] <- "speedup"
    direction[which(dec < 0)] <- NA_character_
    cav <- suite_caveat_text(b[[paste0(p, "_caveats")]])
    ro <- which(nzchar(ro_text))
    if (length(ro)) {
      cav[ro] <- ifelse(nzchar(cav[ro]), paste(cav[ro], ro_text[ro], sep = "; "),
                        ro_text[ro])
    }
    significant <- dec == 1
    significant[dec < 0] <- NA
    cols <- list(
      decision = decision_words(direction),
      significant = significant,
      direction = direction,
      conf_level = lev_used(alpha, searched),
      highest = na_if_nan(b[[paste0(p, "_highest")]]),
      p_value = pv,
      p_adjusted = pa,
      p_value_slowdown = ps,
      p_adjusted_slowdown = psa,
      p_value_equivalence = peq,
      guaranteed = b[[paste0(p, "_guaranteed")]] == 1 & !run_order$run_order_flag,
      ci_estimate = na_if_nan(b[[paste0(p, "_ci_estimate")]]),
      ci_low = b[[paste0(p, "_ci_low")]],
      ci_high = b[[paste0(p, "_ci_high")]],
      ci_level = interval_level(alpha),
      detectable = suite_detectable(suite, p, b, direction, alpha, min_speedup),
      caveats = cav)
    names(cols) <- paste0(p, "_", names(cols))
    cols
  }
  # The columns are gathered in one list and made a data frame once
  # (new_frame(): the columns, types and automatic row names data.frame()
  # would give them, without its checks and conversions).
  cols <- c(
    list(benchmark = suite$names, n = suite$x_len, m = suite$y_len,
         min_x = b$min_x, mean_x = b$mean_x, median_x = b$median_x,
         min_y = b$min_y, mean_y = b$mean_y, median_y = b$median_y,
         speedup_min = b$speedup_min, speedup_mean = b$speedup_mean,
         speedup_median = b$speedup_median, searched = searched),
    proto("mean"), proto("median"),
    list(prob_greater = b$prob_greater),
    unclass(run_order),
    list(weight_min = w[, 1L], weight_mean = w[, 2L],
         weight_median = w[, 3L]))
  attr(cols, "row.names") <- NULL
  if (any(failed)) cols <- lapply(cols, `[`, !failed)
  benchmarks <- new_frame(cols)

  s <- res$summary
  used <- c("custom", "equal", "fraction")[s$weights + 1L]
  overall <- data.frame(
    centre = c("min", "mean", "median"),
    gain = s$gain, speedup = s$speedup, n = rep(s$n_used, 3L),
    gain_significant = s$gain_sig, speedup_significant = s$speedup_sig,
    n_significant = s$n_sig, stringsAsFactors = FALSE)
  proportion <- data.frame(
    protocol = c("mean", "median"), a = s$a, b = rep(s$b, 2L),
    estimate = s$estimate, conf_low = s$conf_low, conf_high = s$conf_high,
    conf_level = prop_conf_level, method = prop_method,
    valid = s$valid == 1L, min_benchmarks = s$min_benchmarks,
    precision = precision, stringsAsFactors = FALSE)

  proportion$slowdowns <- c(sum(benchmarks$mean_direction %in% "slowdown"),
                           sum(benchmarks$median_direction %in% "slowdown"))
  proportion$equivalent <- c(sum(benchmarks$mean_direction %in% "equivalent"),
                            sum(benchmarks$median_direction %in% "equivalent"))
  if (p_adjust != "none" || min_speedup != 1) {
    re <- suite_resummarise(benchmarks, overall, proportion)
    overall <- re$overall
    proportion <- re$proportion
  }
  tested <- c(sum(!is.na(benchmarks$mean_p_value)),
              sum(!is.na(benchmarks$median_p_value)))
  alpha_sum <- c(sum(1 - benchmarks$mean_conf_level[!is.na(benchmarks$mean_p_value)]),
                 sum(1 - benchmarks$median_conf_level[!is.na(benchmarks$median_p_value)]))
  multiplicity <- data.frame(protocol = c("mean", "median"), tested = tested,
                             expected_false = alpha_sum,
                             stringsAsFactors = FALSE)

  structure(list(
    benchmarks = benchmarks, overall = overall, proportion = proportion,
    p_adjust = p_adjust, multiplicity = multiplicity,
    min_speedup = min_speedup,
    problems = problems, notes = suite_notes(benchmarks, p_adjust != "none"),
    weights = used, weights_requested = requested,
    weights_given = stats::setNames(suite$weight[!failed], suite$names[!failed]),
    significant_only = significant_only, rigorous = rigorous,
    versions = suite$versions, call = call),
    class = "speedup_suite")
}

# The summary of the suite again, after the decisions were adjusted for
# multiplicity: the proportion of accelerated benchmarks and the gains over
# the significant ones (same formulas as st_suite_summarise in suite.c).
suite_resummarise <- function(bm, overall, proportion) {
  sm <- bm$mean_significant %in% TRUE
  sd <- bm$median_significant %in% TRUE
  for (i in seq_len(nrow(overall))) {
    c <- overall$centre[i]
    inc <- switch(c, mean = sm, median = sd, sm & sd)
    w <- bm[[paste0("weight_", c)]][inc]
    cx <- bm[[paste0(c, "_x")]][inc]
    cy <- bm[[paste0(c, "_y")]][inc]
    num <- sum(w * (cx - cy))
    den <- sum(w * cx)
    ok <- length(w) > 0L && den > 0
    overall$gain_significant[i] <- if (ok) num / den else NaN
    overall$speedup_significant[i] <- if (ok) den / (den - num) else NaN
    overall$n_significant[i] <- sum(inc)
  }
  for (i in seq_len(nrow(proportion))) {
    a <- sum(if (proportion$protocol[i] == "mean") sm else sd)
    b <- proportion$b[i]
    proportion$a[i] <- a
    if (b > 0) {
      ci <- proportion_ci(a, b, proportion$conf_level[i], proportion$method[i])
      proportion$estimate[i] <- a / b
      proportion$conf_low[i] <- ci$conf.int[1L]
      proportion$conf_high[i] <- ci$conf.int[2L]
      proportion$valid[i] <- a * (1 - a / b) > 5
      proportion$min_benchmarks[i] <- min_benchmarks(a / b, proportion$precision[i],
                                                     proportion$conf_level[i])
    }
  }
  list(overall = overall, proportion = proportion)
}

# A data frame of the columns `cols` (a named list of vectors of one
# length) with automatic row names: what data.frame() gives for them,
# without its checks and conversions.
new_frame <- function(cols) {
  n <- if (length(cols)) length(cols[[1L]]) else 0L
  structure(cols, row.names = .set_row_names(n), class = "data.frame")
}
