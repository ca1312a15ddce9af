# `speeduptest compare`: the decisions of a CI job (every other version
# against the baseline, a tolerance, an adjustment for multiplicity, the
# job's risk) and its three outputs: text, Markdown and JSON.

# Every benchmark of every version other than `baseline`, against it: the
# protocol's verdict at the tolerance s0, then the decisions adjusted over
# all the comparisons of the job.  t: timings with any number of versions.
# Returns list(rows, versions, baseline, skipped).
compare_run <- function(t, opts) {
  ver <- t$version
  vers <- if (is.factor(ver)) levels(droplevels(ver)) else unique(as.character(ver))
  if (length(vers) < 2L) {
    abort(sprintf("the files hold 1 version (\"%s\"); compare needs two or more.",
                  vers[1L]), class = "data")
  }
  baseline <- opts$baseline
  how <- "--baseline"
  if (is.null(baseline)) {
    baseline <- vers[1L]
    how <- if (length(vers) > 2L) "the first version; choose another with --baseline" else "the first version"
  } else {
    baseline <- check_member(baseline, vers, "--baseline", "the versions ")
  }
  others <- setdiff(vers, baseline)
  rows <- list()
  skipped <- data.frame(benchmark = character(), version = character(),
                        message = character(), stringsAsFactors = FALSE)
  for (o in others) {
    keep <- as.character(t$version) %in% c(baseline, o)
    sub <- as.data.frame(unclass(t), stringsAsFactors = FALSE)[keep, , drop = FALSE]
    sub$version <- factor(as.character(sub$version), levels = c(baseline, o))
    attr(sub, "run_order") <- attr(t, "run_order")
    # the benchmarks skipped as the timings were built (a bad structure value)
    pr <- attr(t, "problems")
    if (!is.null(pr)) attr(sub, "problems") <- pr[pr$where == "data", , drop = FALSE]
    tp <- suppressWarnings(timings_pairs(sub, arg = "the files"))
    sk <- tp$problems
    sk <- sk[sk$severity == "error", , drop = FALSE]
    if (nrow(sk)) {
      skipped <- rbind(skipped, data.frame(benchmark = sk$benchmark, version = o,
                                           message = sk$message,
                                           stringsAsFactors = FALSE))
    }
    for (b in names(tp$pairs)) {
      p <- tp$pairs[[b]]
      rows[[length(rows) + 1L]] <- compare_verdict(b, o, p$x, p$y, opts,
                                                   t = t, versions = c(baseline, o))
    }
  }
  rows <- compare_adjust(compare_frame(rows), opts)
  list(rows = rows, versions = vers, baseline = baseline, baseline_how = how,
       others = others, skipped = skipped)
}

# One benchmark's verdict: the protocol's p-values at s0 (the speedup, the
# slowdown and the equivalence tests), the speedup and its interval; NA
# p-values when the final test was not reached.  list(row, verdict).
compare_verdict <- function(benchmark, version, x, y, opts, t = NULL,
                            versions = NULL) {
  v <- tryCatch(if (is.null(t)) {
    test_fun <- if (opts$test == "mean") mean_test.default else median_test.default
    test_fun(x, y, alpha = opts$alpha, min_speedup = opts$s0)
  } else {
    # the timings carry the processes and rounds (SPEC section 9)
    test_fun <- if (opts$test == "mean") mean_test else median_test
    test_fun(t, benchmark = benchmark, versions = versions, alpha = opts$alpha,
             replication = opts$replication %||% "auto",
             design = opts$design %||% "auto", min_speedup = opts$s0)
  }, error = function(e) e)
  if (inherits(v, "error")) {
    return(list(error = v, row = list(benchmark = benchmark, version = version,
                           n = length(x), m = length(y), speedup = NA_real_,
                           estimate = NA_real_,
                           ci_low = NA_real_, ci_high = NA_real_,
                           p_speedup = NA_real_, p_slowdown = NA_real_,
                           p_equivalence = NA_real_, note = conditionMessage(v)),
                verdict = NULL))
  }
  reached <- !is.na(v$significant)
  pe <- v$p_value_equivalence
  if (opts$s0 == 1) pe <- NA_real_
  list(row = list(benchmark = benchmark, version = version, n = v$n, m = v$m,
                  speedup = v$speedup,
                  estimate = or_na(attr(v$speedup_ci, "estimate"), NA_real_),
                  ci_low = as.double(v$speedup_ci[1L]),
                  ci_high = as.double(v$speedup_ci[2L]),
                  p_speedup = if (reached) v$p_value else NA_real_,
                  p_slowdown = if (reached) v$p_value_slowdown else NA_real_,
                  p_equivalence = if (reached) pe else NA_real_,
                  note = paste(c(if (!reached) paste(v$advice, collapse = "; "),
                                 replicates_note(v)), collapse = "; ")),
       verdict = v)
}

# The rows of compare_verdict() results as a data frame (the verdicts in
# the attribute "verdicts").
compare_frame <- function(items) {
  cols <- c("benchmark", "version", "n", "m", "speedup", "estimate", "ci_low", "ci_high",
            "p_speedup", "p_slowdown", "p_equivalence", "note")
  out <- lapply(cols, function(cl) {
    v <- lapply(items, function(it) it$row[[cl]])
    if (cl %in% c("benchmark", "version", "note")) as.character(unlist(v))
    else as.double(unlist(v))
  })
  names(out) <- cols
  df <- new_frame(out)
  attr(df, "verdicts") <- lapply(items, `[[`, "verdict")
  attr(df, "errors") <- lapply(items, `[[`, "error")
  df
}

# Why the job cannot stand (NULL when it can): an analysis the options ask
# for that cannot be applied (`--design paired` without rounds: an error
# of class speeduptest_error_argument for a benchmark), or no benchmark
# analysed at all (every one failed, e.g. all times negative).  A job that
# tested nothing must not pass.
compare_broken <- function(run) {
  errs <- attr(run$rows, "errors")
  failed <- !vapply(errs, is.null, NA)
  if (!any(failed)) return(NULL)
  what <- function(i) sprintf("benchmark \"%s\" (%s): %s", run$rows$benchmark[i],
                              run$rows$version[i], conditionMessage(errs[[i]]))
  arg <- which(vapply(errs, inherits, NA, "speeduptest_error_argument"))
  if (length(arg)) {
    return(sprintf("the analysis asked for cannot be applied to %d benchmark%s, e.g. %s",
                   length(arg), if (length(arg) == 1L) "" else "s", what(arg[1L])))
  }
  if (all(failed)) {
    return(sprintf("no benchmark could be analysed (%d failed), e.g. %s",
                   length(failed), what(1L)))
  }
  NULL
}

# The decisions over all the comparisons of the job: the speedup, the
# slowdown and the equivalence p-values adjusted separately (as
# speedup_suite()), each decision at alpha; `detectable` of the lines that
# decide nothing at the level the adjustment asks of the first test
# (alpha / k for Holm, alpha for BH and none).
compare_adjust <- function(rows, opts) {
  a <- opts$alpha
  adj <- function(p) stats::p.adjust(p, method = opts$p_adjust)
  rows$p_speedup_adj <- adj(rows$p_speedup)
  rows$p_slowdown_adj <- adj(rows$p_slowdown)
  rows$p_equivalence_adj <- adj(rows$p_equivalence)
  dir <- rep(NA_character_, nrow(rows))
  reached <- !is.na(rows$p_speedup)
  dir[reached] <- "none"
  dir[reached & !is.na(rows$p_equivalence_adj) & rows$p_equivalence_adj <= a] <- "equivalent"
  dir[reached & rows$p_slowdown_adj <= a] <- "slowdown"
  dir[reached & rows$p_speedup_adj <= a] <- "speedup"
  rows$direction <- dir
  k <- sum(reached)
  a_first <- if (opts$p_adjust == "holm" && k > 0) a / k else a
  verdicts <- attr(rows, "verdicts")
  rows$detectable <- vapply(seq_len(nrow(rows)), function(i) {
    v <- verdicts[[i]]
    if (!identical(dir[i], "none") || is.null(v)) return(NA_real_)
    verdict_detectable(v, alpha = a_first)
  }, 0)
  rows
}

# The job's risk on an unchanged suite: the probability that it fails when
# nothing changed, bounded by the adjustment (Holm: alpha; BH: alpha, as
# all null hypotheses are true; none: 1 - (1 - alpha)^k).
compare_risk <- function(res, opts) {
  k <- sum(!is.na(res$rows$p_speedup))
  a <- opts$alpha
  families <- if (opts$fail_on == "change") 2 else 1
  risk <- switch(opts$p_adjust,
                 none = 1 - (1 - a)^(k * families),
                 min(1, families * a))
  if (opts$fail_on == "never") risk <- 0
  list(risk = risk, tested = k)
}

compare_risk_line <- function(res, opts) {
  r <- compare_risk(res, opts)
  if (opts$fail_on == "never") {
    return("risk: --fail-on never: the job never fails on a decision")
  }
  what <- if (opts$fail_on == "change") "a change" else "a slowdown"
  tol <- if (opts$s0 > 1) sprintf(" beyond %s", fmt_change(opts$s0)) else ""
  how <- switch(opts$p_adjust,
    holm = sprintf("Holm's adjustment over %d comparison%s", r$tested,
                   if (r$tested == 1L) "" else "s"),
    BH = sprintf("Benjamini-Hochberg over %d comparison%s", r$tested,
                 if (r$tested == 1L) "" else "s"),
    none = sprintf("no adjustment: each of %d comparison%s at alpha = %s",
                   r$tested, if (r$tested == 1L) "" else "s", format(opts$alpha)))
  sprintf("risk: tolerance %s, p-values adjusted: %s; a job with no real change%s fails on %s with probability at most %s (%s)",
          fmt_change(opts$s0), opts$p_adjust, tol, what, fmt_num(r$risk, 2L), how)
}

# The verdict of a line in words, with the tolerance it was decided at.
compare_words <- function(direction, s0) {
  words <- decision_words(direction)
  if (is.na(direction) || s0 == 1) return(words)
  tol <- fmt_change(s0)
  switch(direction,
         speedup = , slowdown = sprintf("%s beyond %s", words, tol),
         equivalent = sprintf("%s within %s", words, tol),
         sprintf("%s at %s", words, tol))
}

compare_counts <- function(rows) {
  d <- rows$direction
  c(faster = sum(d %in% "speedup"), slower = sum(d %in% "slowdown"),
    equivalent = sum(d %in% "equivalent"), none = sum(d %in% "none"),
    insufficient = sum(is.na(d)))
}

compare_fails <- function(rows, fail_on) {
  n <- compare_counts(rows)
  switch(fail_on, slowdown = n[["slower"]] > 0L,
         change = n[["slower"]] + n[["faster"]] > 0L, never = FALSE)
}

compare_num <- function(v) {
  if (is.na(v)) "NA" else if (is.infinite(v)) "Inf" else formatC(v, digits = 3L, format = "f")
}

# The names in a compare_run() result (benchmarks, versions, the baseline,
# the notes and the messages of the skipped benchmarks, which quote names)
# passed through `esc`, one of the escapers of R/escape.R, for the output
# they are written to.
compare_escaped <- function(res, esc) {
  res$rows$benchmark <- esc(res$rows$benchmark)
  res$rows$version <- esc(res$rows$version)
  res$rows$note <- esc(res$rows$note)
  res$baseline <- esc(res$baseline)
  res$others <- esc(res$others)
  res$versions <- esc(res$versions)
  for (cl in c("benchmark", "version", "message")) {
    res$skipped[[cl]] <- esc(res$skipped[[cl]])
  }
  res
}

# ---- text -------------------------------------------------------------------

compare_text <- function(res, opts, status, notes) {
  # the lines of each version, matched before the names are escaped (two
  # names may read the same once escaped)
  row_of <- match(res$rows$version, res$others)
  skip_of <- match(res$skipped$version, res$others)
  res <- compare_escaped(res, esc_text)
  rows <- res$rows
  out <- character()
  multi <- length(res$others) > 1L
  for (k in seq_along(res$others)) {
    o <- res$others[k]
    r <- rows[row_of %in% k, , drop = FALSE]
    out <- c(out, sprintf("%s (initial) -> %s: Speedup-Test for the %s, alpha = %s",
                          res$baseline, o, opts$test, format(opts$alpha)))
    # within 80 columns: "speedup: Hodges-Lehmann estimate on log times [90%
    # interval; ends one-sided 95%]"
    out <- c(out, sprintf("speedup: %s [%s; ends one-sided %s]", interval_estimator(opts$test),
                          interval_words(opts$test, interval_level(opts$alpha)),
                          fmt_pct(1 - opts$alpha)))
    width <- min(40L, max(nchar(c(r$benchmark, "benchmark"))))
    for (i in seq_len(nrow(r))) out <- c(out, compare_text_line(r[i, ], width, opts))
    sk <- res$skipped
    if (nrow(sk)) {
      sk <- sk[skip_of %in% k, , drop = FALSE]
      for (i in seq_len(nrow(sk))) {
        out <- c(out, sprintf("%-*s  skipped: %s", width,
                              trunc_text(if (is.na(sk$benchmark[i])) "-" else sk$benchmark[i], width),
                              sub("^benchmark \"[^\"]*\" skipped: ", "", sk$message[i])))
      }
    }
  }
  if (multi || res$baseline_how != "the first version") {
    out <- c(out, sprintf("baseline: %s (%s); %d other version%s compared with it",
                          res$baseline, res$baseline_how, length(res$others),
                          if (length(res$others) == 1L) "" else "s"))
  }
  single <- compare_single_note(lapply(attr(rows, "verdicts"),
                                       function(v) list(verdict = v)))
  if (length(single)) out <- c(out, strwrap(single, width = 79, exdent = 6))
  out <- c(out, strwrap(compare_risk_line(res, opts), width = 79, exdent = 2))
  n <- compare_counts(rows)
  nsk <- nrow(res$skipped)
  out <- c(out, strwrap(exdent = 2, width = 79, sprintf("%d benchmark%s: %d %s, %d %s, %s%d %s%s%s",
                        nrow(rows), if (nrow(rows) == 1L) "" else "s",
                        n[["faster"]], decision_words("speedup"),
                        n[["slower"]], decision_words("slowdown"),
                        if (opts$s0 > 1) sprintf("%d %s, ", n[["equivalent"]],
                                                 decision_words("equivalent")) else "",
                        n[["none"]], decision_words("none"),
                        if (n[["insufficient"]]) sprintf(", %d %s", n[["insufficient"]],
                                                         decision_words(NA)) else "",
                        if (nsk) sprintf(", %d skipped", nsk) else "")))
  out <- c(out, sprintf("%s (--fail-on %s): exit %d", if (status == 1L) "FAIL" else "pass",
                        opts$fail_on, status))
  out
}

compare_text_line <- function(r, width, opts) {
  # the figures as R prints them (fmt_estimate_ci: the interval rounded
  # outwards, its estimate inside it)
  ci <- c(r$ci_low, r$ci_high)
  est <- if (anyNA(ci) || is.na(r$estimate)) r$speedup else r$estimate
  line <- sprintf("%-*s  speedup %s  %s", width, trunc_text(r$benchmark, width),
                  fmt_estimate_ci(est, ci), compare_words(r$direction, opts$s0))
  note <- r$note
  if (identical(r$direction, "none") && !is.na(r$detectable)) {
    note <- paste(c(if (nzchar(note %||% "")) note,
                    sprintf("could detect %s", if (is.finite(r$detectable))
                      sprintf("a speedup of %s", fmt_change(r$detectable)) else "no speedup")),
                  collapse = "; ")
  }
  if (nzchar(note %||% "")) line <- paste0(line, " (", note, ")")
  line
}

# ---- Markdown ----------------------------------------------------------------

compare_markdown <- function(res, opts, status) {
  res <- compare_escaped(res, esc_md)
  rows <- res$rows
  n <- compare_counts(rows)
  head <- sprintf("**speeduptest compare: %s** (Speedup-Test for the %s, alpha = %s, tolerance %s, p-values adjusted: %s; baseline %s)",
                  if (status == 1L) "FAIL" else "pass", opts$test, format(opts$alpha),
                  fmt_change(opts$s0), opts$p_adjust, res$baseline)
  tab <- c(sprintf("| benchmark | version | speedup | %s interval | decision | p-value (adjusted) | detectable |",
                   fmt_pct(interval_level(opts$alpha))),
           "|:---|:---|---:|:---:|:---|---:|---:|")
  for (i in seq_len(nrow(rows))) {
    r <- rows[i, ]
    p <- switch(r$direction %||% "NA", speedup = r$p_speedup_adj,
                slowdown = r$p_slowdown_adj, equivalent = r$p_equivalence_adj,
                none = min(r$p_speedup_adj, r$p_slowdown_adj), NA_real_)
    if (is.na(r$direction)) p <- NA_real_
    dec <- compare_words(r$direction, opts$s0)
    if (identical(r$direction, "slowdown")) dec <- paste0("**", dec, "**")
    tab <- c(tab, sprintf("| %s | %s | %s | %s | %s | %s | %s |",
                          r$benchmark, r$version,
                          fmt_num(if (is.na(r$ci_low) || is.na(r$estimate)) r$speedup else r$estimate),
                          if (is.na(r$ci_low)) "" else sub("Inf]", "Inf)", fmt_ci(c(r$ci_low, r$ci_high)),
                                                           fixed = TRUE),
                          dec, if (is.na(p)) "" else fmt_p(p),
                          if (is.na(r$detectable)) "" else fmt_change(r$detectable)))
  }
  sk <- res$skipped
  foot <- sprintf("%d benchmark%s: %d %s, %d %s, %d %s, %d %s, %d %s, %d skipped.",
                  nrow(rows), if (nrow(rows) == 1L) "" else "s",
                  n[["faster"]], decision_words("speedup"),
                  n[["slower"]], decision_words("slowdown"),
                  n[["equivalent"]], decision_words("equivalent"),
                  n[["none"]], decision_words("none"),
                  n[["insufficient"]], decision_words(NA), nrow(sk))
  c(head, "", tab, "", foot, "",
    paste0(toupper(substr(compare_risk_line(res, opts), 1, 1)),
           substring(compare_risk_line(res, opts), 2), "."),
    if (nrow(sk)) c("", paste0("- skipped: ", sk$message)))
}

# ---- JSON ----------------------------------------------------------------------

compare_json <- function(res, opts, status, notes) {
  rows <- res$rows
  risk <- compare_risk(res, opts)
  n <- compare_counts(rows)
  na <- function(v) if (length(v) == 0L || is.na(v)) NULL else v
  comparisons <- lapply(seq_len(nrow(rows)), function(i) {
    r <- rows[i, ]
    list(benchmark = r$benchmark, version = r$version, baseline = res$baseline,
         n = r$n, m = r$m, speedup = na(r$speedup), estimate = na(r$estimate),
         interval = if (is.na(r$ci_low)) NULL else c(r$ci_low, r$ci_high),
         decision = if (is.na(r$direction)) "insufficient data" else r$direction,
         words = compare_words(r$direction, opts$s0),
         p_speedup = na(r$p_speedup), p_slowdown = na(r$p_slowdown),
         p_equivalence = na(r$p_equivalence),
         p_speedup_adjusted = na(r$p_speedup_adj),
         p_slowdown_adjusted = na(r$p_slowdown_adj),
         p_equivalence_adjusted = na(r$p_equivalence_adj),
         detectable = if (is.na(r$detectable)) NULL else
           if (is.finite(r$detectable)) r$detectable else "Inf",
         note = if (nzchar(r$note)) r$note else NULL)
  })
  out <- list(
    tool = "speeduptest compare",
    test = opts$test, alpha = opts$alpha, tolerance_percent = 100 * (opts$s0 - 1),
    min_speedup = opts$s0, p_adjust = opts$p_adjust, fail_on = opts$fail_on,
    interval_level = interval_level(opts$alpha),
    baseline = res$baseline, versions = res$versions,
    comparisons = comparisons,
    skipped = lapply(seq_len(nrow(res$skipped)), function(i) {
      list(benchmark = res$skipped$benchmark[i], version = res$skipped$version[i],
           message = res$skipped$message[i])
    }),
    summary = list(benchmarks = nrow(rows), faster = n[["faster"]],
                   slower = n[["slower"]], equivalent = n[["equivalent"]],
                   no_significant_change = n[["none"]],
                   insufficient_data = n[["insufficient"]],
                   skipped = nrow(res$skipped), tested = risk$tested,
                   risk = risk$risk, risk_text = compare_risk_line(res, opts),
                   result = if (status == 1L) "FAIL" else "pass",
                   exit_status = status),
    notes = as.list(notes))
  json_text(out, auto_unbox = TRUE, digits = NA, pretty = TRUE, null = "null")
}
