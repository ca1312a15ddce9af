# knit_print() methods: in R Markdown, verdicts, suites and HPT results
# print as markdown tables.  knitr is only suggested: the methods are
# registered lazily on knitr::knit_print (NAMESPACE: S3method(knitr::...)).

# A p-value for reading: 3 significant digits each, never "0" (a p-value
# that underflowed to 0 reads "< 2.2e-308").
md_pval <- function(p) {
  vapply(p, function(v) {
    if (is.na(v)) return("NA")
    if (v <= 0) return(sprintf("< %.1e", .Machine$double.xmin))
    format.pval(v, digits = 3, eps = 0)
  }, "")
}

# The package's own text in a table cell: its pipes escaped, those that
# esc_md() already escaped (after an odd number of backslashes) left alone,
# so that a name escaped by esc_md() can be part of the text.  Names from
# the input go through esc_md() (R/escape.R) before they reach a table.
md_escape <- function(x) gsub("(?<!\\\\)((?:\\\\\\\\)*)\\|", "\\1\\\\|", esc_text(x), perl = TRUE)

# A pipe table; `align` one of "l", "r", "c" per column.
md_table <- function(df, align = NULL) {
  df[] <- lapply(df, function(col) md_escape(trimws(as.character(col))))
  if (is.null(align)) align <- rep("l", ncol(df))
  rule <- c(l = ":--", r = "--:", c = ":-:")[align]
  row <- function(v) paste0("| ", paste(v, collapse = " | "), " |")
  c(row(md_escape(names(df))), row(rule),
    vapply(seq_len(nrow(df)), function(i) row(unlist(df[i, ], use.names = FALSE)), ""))
}

md_output <- function(lines) {
  knitr::asis_output(paste(c("", lines, ""), collapse = "\n"))
}

#' R Markdown tables of the results
#'
#' In an R Markdown document (knitr), a verdict, a suite or an HPT result
#' printed by a chunk appears as a markdown table rather than as console
#' text: the headline in bold, then the numbers, with p-values by
#' [format.pval()] (never "0").  Call `print()` in the chunk to get the
#' console text instead.
#'
#' @param x A `speedup_verdict`, `speedup_suite` or `speeduptest_hpt`.
#' @param ... Unused (knitr passes its chunk options).
#' @return A `knit_asis` object (see [knitr::asis_output()]).
#' @name knit_print.speedup_verdict
#' @keywords internal
NULL

#' @rdname knit_print.speedup_verdict
#' @exportS3Method knitr::knit_print
knit_print.speedup_verdict <- function(x, ...) {
  # the names from the input as Markdown text, in every line made of them
  v <- verdict_printable(x, esc_md)
  centre <- verdict_protocol(v)$centre
  ci <- v$speedup_ci
  fin <- verdict_final_step(v)
  est <- or_na(attr(ci, "estimate"), NA_real_)
  sp <- interval_phrase(v)
  if (is.null(sp)) sp <- sprintf("%s (ratio of the %ss; no interval)",
                                 fmt_num(v$speedup), centre)
  observed <- verdict_observed_name(v)
  stopped <- is.na(v$direction)
  path <- verdict_path(v)
  pd <- decision_p(v$direction, v$p_value, v$p_value_slowdown)
  rows <- c(
    "decision" = v$decision,
    "confidence" = if (stopped) sprintf("%s asked for", fmt_pct(v$confidence))
      else sprintf("%s (%s)", fmt_pct(v$confidence),
                   if (v$confidence_guaranteed) "guaranteed" else "not guaranteed"),
    "p-value" = if (is.null(fin) || is.na(pd))
      "none: the protocol stopped before its test"
      else sprintf("%s (%s%s)", md_pval(pd), fin$method,
                   if (v$direction %in% "slowdown") ", slowdown" else ""),
    "speedup" = sp,
    if (!anyNA(ci) && !is.na(est) && fmt_num(est) != fmt_num(v$speedup))
      stats::setNames(fmt_num(v$speedup), sprintf("observed %s", observed)),
    "P[X > Y]" = if (!is.na(or_na(v$prob_greater))) prob_text(v, 3L),
  "observed speedups" = sprintf("min %s, mean %s, median %s",
                                  fmt_num(v$speedups[["min"]]),
                                  fmt_num(v$speedups[["mean"]]),
                                  fmt_num(v$speedups[["median"]])),
    "runs" = sprintf("%d of %s, %d of %s", v$n, v$labels[1L], v$m, v$labels[2L]),
    "path" = if (length(path) && nzchar(path)) path,
    "initial code" = if (!is.null(v$baseline)) as.character(v$baseline),
    "caveats" = if (length(v$caveats)) paste(v$caveats, collapse = "; "),
    "advice" = if (length(v$advice)) paste(v$advice, collapse = "; ")
  )
  tab <- data.frame(quantity = names(rows), value = unname(rows),
                    stringsAsFactors = FALSE)
  md_output(c(sprintf("**%s**", md_escape(format(v)[1L])), "",
              md_table(tab)))
}

#' @rdname knit_print.speedup_verdict
#' @exportS3Method knitr::knit_print
knit_print.speedup_suite <- function(x, ...) {
  bm <- x$benchmarks
  adj <- !identical(or_na(x$p_adjust, "none"), "none")
  out <- character()
  for (p in suite_protocols(x, ranked = TRUE)) {
    col <- function(name) bm[[paste0(p, "_", name)]]
    # what the interval is of: the speedup, or (the probability protocol)
    # P[X > Y], in the benchmark's own columns
    iv <- protocol_info(p)$interval
    of <- or_na(iv$of, "speedup")
    na <- rep(NA_real_, nrow(bm))
    if (is.null(iv$column)) {
      est <- or_na(col("ci_estimate"), na)
      lo <- col("ci_low")
      hi <- col("ci_high")
    } else {
      est <- or_na(bm[[iv$column]], na)
      lo <- or_na(bm[[paste0(iv$column, "_low")]], na)
      hi <- or_na(bm[[paste0(iv$column, "_high")]], na)
    }
    ci <- vapply(seq_len(nrow(bm)), function(i) {
      if (is.na(lo[i])) fmt_num(est[i])
      else fmt_estimate_ci(est[i], c(lo[i], hi[i]))
    }, "")
    # kept on one line in HTML (no-break spaces)
    ci <- gsub(" ", "\u00a0", ci, fixed = TRUE)
    dirn <- col("direction")
    pd <- if (adj) decision_p(dirn, col("p_adjusted"), col("p_adjusted_slowdown"))
          else decision_p(dirn, col("p_value"), col("p_value_slowdown"))
    lev <- unique(col("ci_level")[!is.na(col("ci_level"))])
    alpha <- unique(1 - col("conf_level"))
    tab <- data.frame(
      benchmark = esc_md(bm$benchmark),
      runs = sprintf("%d / %d", bm$n, bm$m),
      speedup = ci,
      observed = fmt_num(bm[[paste0("speedup_", protocol_info(p)$centre)]]),
      level = vapply(col("conf_level"), fmt_pct, ""),
      "p-value" = md_pval(pd),
      decision = ifelse(!is.na(dirn) & !(col("guaranteed") %in% TRUE),
                        paste(col("decision"), "(not guaranteed)"), col("decision")),
      check.names = FALSE, stringsAsFactors = FALSE)
    names(tab)[3L] <- sprintf("%s [interval]", of)
    names(tab)[4L] <- sprintf("ratio of the %ss", protocol_info(p)$centre)
    if (adj) names(tab)[6L] <- sprintf("p-value (%s)", x$p_adjust)
    note <- if (length(lev) == 1L && length(alpha) == 1L)
      sprintf("%s, %s", interval_words(p, lev), interval_note(alpha))
    else "intervals of level 1 - 2 alpha, each end a one-sided 1 - alpha bound"
    out <- c(out, sprintf("**%s** (%s: %s)", capitalise(protocol_info(p)$what),
                          or_na(iv$of_estimator, interval_estimator(p)), note), "",
             md_table(tab, c("l", "r", "r", "r", "r", "r", "l")), "")
  }
  ov <- x$overall
  pr <- x$proportion
  ovt <- data.frame(
    "execution time" = ov$centre,
    "overall speedup" = fmt_num(ov$speedup),
    "overall gain" = fmt_num(ov$gain),
    check.names = FALSE, stringsAsFactors = FALSE)
  prt <- data.frame(
    protocol = pr$protocol,
    "accelerated" = sprintf("%d of %d", as.integer(pr$a), as.integer(pr$b)),
    proportion = fmt_num(pr$estimate),
    interval = vapply(seq_len(nrow(pr)), function(i)
      fmt_ci(c(pr$conf_low[i], pr$conf_high[i])), ""),
    check.names = FALSE, stringsAsFactors = FALSE)
  names(prt)[4L] <- sprintf("%s interval", fmt_pct(pr$conf_level[1L]))
  out <- c(out, sprintf("**Overall** (%d benchmarks, weights: %s)",
                        nrow(bm), x$weights), "",
           md_table(ovt, c("l", "r", "r")), "",
           md_table(prt, c("l", "r", "r", "l")))
  md_output(c(out, suite_knit_notes(x)))
}

# The notes of a suite as a Markdown list, the same as print() and
# summary() tell: the run order flagged, multiplicity, and per benchmark
# why a speedup was not declared or why its confidence is not guaranteed.
suite_knit_notes <- function(x) {
  bm <- x$benchmarks
  nro <- sum(bm$run_order_flag %in% TRUE)
  lines <- c(
    if (nro) sprintf("Run order flagged (a trend, or versions not interleaved) in %d benchmark%s: the confidence is not guaranteed there.",
                     nro, if (nro == 1L) "" else "s"),
    paste(suite_multiplicity_lines(x), collapse = " "),
    if (nrow(x$notes)) sprintf("%s: %s", x$notes$benchmark, x$notes$message),
    if (nrow(x$problems)) sprintf("[%s] %s", x$problems$severity, x$problems$message))
  lines <- lines[nzchar(lines)]
  if (!length(lines)) return(character())
  c("", "**Notes**", "", paste0("- ", esc_md(lines)))
}


#' @rdname knit_print.speedup_verdict
#' @exportS3Method knitr::knit_print
knit_print.speeduptest_hpt <- function(x, ...) {
  bm <- x$benchmarks
  lab <- esc_md(x$labels)
  handicap <- if (x$speedup == 1) "" else
    if (x$higher_is_better) sprintf(" / %s", format(x$speedup)) else
      sprintf(" * %s", format(x$speedup))
  tab <- data.frame(
    Benchmark = esc_md(bm$benchmark),
    a = format(bm$median_a, digits = 3),
    "Stat. Win." = hpt_winner_names(bm$winner, lab),
    "Diff. (d)" = ifelse(bm$d == 0, "0", format(bm$d, digits = 3)),
    Rank = format(bm$rank),
    b = format(bm$median_b, digits = 3),
    check.names = FALSE, stringsAsFactors = FALSE)
  names(tab)[c(2L, 6L)] <- c(sprintf("Med. %s%s", lab[1L], handicap),
                             sprintf("Med. %s", lab[2L]))
  md_output(c(
    sprintf("**Hierarchical Performance Test: %s**", esc_md(x$conclusion)), "",
    sprintf("Claim: %s (%s). %d benchmarks; on each, rank-sum tests at level %s (%s).",
            md_escape(hpt_claim(lab, x$speedup)),
            if (x$higher_is_better) "scores, higher is better" else
              "times, lower is better",
            x$n, format(x$alpha_bench), hpt_method_note(x)), "",
    md_table(tab, c("l", "r", "l", "r", "r", "r")), "",
    sprintf("Stat. Win.: the winner of the rank-sum tests; d: difference of the medians, > 0 when %s wins; Rank: rank of |d|.",
            md_escape(lab[1L])), "",
    sprintf("R_A = %s, R_B = %s, confidence = %s (p-value %s).",
            format(x$R_A), format(x$R_B), fmt_confidence(x$confidence),
            md_pval(x$p_value))))
}

#' @rdname knit_print.speedup_verdict
#' @exportS3Method knitr::knit_print
knit_print.speeduptest_tidy <- function(x, ...) {
  df <- as.data.frame(unclass(x), stringsAsFactors = FALSE)
  is_p <- grepl("p[._]value|^p[.]unadjusted$", names(df))
  df[] <- Map(function(col, p) {
    if (p) md_pval(col)
    else if (is.double(col)) vapply(col, format, "", digits = 4)
    else if (is.character(col) || is.factor(col)) esc_md(col)
    else as.character(col)
  }, df, is_p)
  align <- ifelse(vapply(x, is.numeric, NA), "r", "l")
  md_output(md_table(df, align))
}
