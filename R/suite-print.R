# print(), summary() and as.data.frame() of a speedup_suite, within 80
# columns.  (format() is the text of the original tool's .report file, in
# R/suite.R, kept as the tool wrote it.)

# NaN (0 / 0 in the C core: no significant benchmark, no p-value) -> NA.
nan_to_na <- function(df) {
  df[] <- lapply(df, function(col) {
    if (is.double(col)) col[is.nan(col)] <- NA_real_
    col
  })
  df
}

#' @export
as.data.frame.speedup_suite <- function(x, ...) nan_to_na(x$benchmarks)

# Right-aligned columns of text under a header, as lines.
# (Padded by hand: formatC() miscounts strings holding backslashes.)
text_table <- function(cols, header, indent = "  ", left = 1L) {
  width <- function(s) nchar(s, type = "width", allowNA = TRUE, keepNA = FALSE)
  w <- pmax(width(header), vapply(cols, function(c) max(width(c), 0L), 0L))
  pad <- function(s, i) {
    sp <- strrep(" ", pmax(0L, w[i] - width(s)))
    if (i %in% left) paste0(s, sp) else paste0(sp, s)
  }
  rows <- do.call(paste, c(lapply(seq_along(cols), function(i) pad(cols[[i]], i)),
                           sep = "  "))
  head <- paste(vapply(seq_along(header), function(i) pad(header[i], i), ""),
                collapse = "  ")
  paste0(indent, c(head, rows))
}

suite_print_lines <- function(x, benchmarks = TRUE) {
  bm <- x$benchmarks
  nskip <- sum(x$problems$severity == "error")
  lines <- c("", "        Speedup-Test of a suite of benchmarks", "",
             sprintf("%d benchmark%s analysed, %d skipped; weights: %s%s",
                     nrow(bm), if (nrow(bm) == 1L) "" else "s", nskip,
                     x$weights,
                     if (x$weights != x$weights_requested)
                       sprintf(" (asked for %s)", x$weights_requested) else ""))
  ml <- suite_multiplicity_lines(x)
  ov <- nan_to_na(x$overall)
  lines <- c(lines, "",
    "Overall gain and speedup, by execution time:",
    "                all benchmarks    significant ones only",
    text_table(list(ov$centre, fmt_num(ov$gain), fmt_num(ov$speedup),
                    fmt_num(ov$gain_significant),
                    fmt_num(ov$speedup_significant)),
               c("", "gain", "speedup", "     gain", "speedup")),
    wrap_lines(paste(
      "  gain: the share of the total time saved; speedup = 1 / (1 - gain).",
      "\"Significant ones only\": over the benchmarks whose speedup is",
      if (any(grepl("selection", ml))) "significant." else
        "significant, a selection that overstates the gain."), exdent = 0L))
  pr <- nan_to_na(x$proportion)
  lev <- fmt_pct(pr$conf_level[1L])
  lines <- c(lines, "",
    sprintf("Accelerated benchmarks, with %s confidence intervals (%s):", lev,
            pr$method[1L]))
  frac <- sprintf("%d/%d", as.integer(pr$a), as.integer(pr$b))
  frac <- formatC(frac, width = max(nchar(frac)))
  for (i in seq_len(nrow(pr))) {
    lines <- c(lines, sprintf("  %-6s  %s = %s  %s%s", pr$protocol[i], frac[i],
      fmt_num(pr$estimate[i]), fmt_ci(c(pr$conf_low[i], pr$conf_high[i])),
      if (isTRUE(pr$valid[i])) "" else "  (may be inaccurate: a(1 - a/b) <= 5)"))
  }
  need <- vapply(seq_len(nrow(pr)), function(i) {
    if (is.na(pr$estimate[i]) || pr$estimate[i] %in% c(0, 1)) {
      "not defined (proportion 0 or 1)"
    } else format(pr$min_benchmarks[i])
  }, "")
  lines <- c(lines,
    sprintf("Benchmarks needed for a +/- %s precision of the proportion (%s confidence):",
            format(pr$precision[1L]), lev),
    sprintf("  %s", paste(sprintf("%s %s", pr$protocol, need), collapse = ", ")))
  if (!is.null(pr$slowdowns)) {
    lines <- c(lines, sprintf("Significant slowdowns: %s",
                              paste(sprintf("%d (%s)", as.integer(pr$slowdowns),
                                            protocol_label(pr$protocol)),
                                    collapse = ", ")))
  }
  lines <- c(lines, suite_tolerance_lines(x),
             if (benchmarks) suite_benchmark_lines(x))
  nro <- sum(bm$run_order_flag %in% TRUE)
  if (nro) {
    lines <- c(lines, wrap_lines(sprintf(
      "Run order flagged (a trend, or versions not interleaved) in %d benchmark%s: the confidence is not guaranteed there; see the notes of summary().",
      nro, if (nro == 1L) "" else "s"), exdent = 2L))
  }
  if (length(ml)) lines <- c(lines, "", wrap_lines(ml, exdent = 0L))
  if (nrow(x$problems)) {
    lines <- c(lines, "", sprintf("%d problem%s in the input; see `$problems`.",
                                  nrow(x$problems),
                                  if (nrow(x$problems) == 1L) "" else "s"))
  }
  esc_text(lines)
}

# The per-benchmark lines of print(): each benchmark's observed speedup of
# the medians and the decision of each protocol, the first `max_lines`
# benchmarks (summary() lists them all, with the confidence).
suite_benchmark_lines <- function(x, max_lines = 20L) {
  bm <- nan_to_na(x$benchmarks)
  if (!nrow(bm)) return(character())
  protos <- suite_protocols(x)
  k <- min(nrow(bm), max_lines)
  b <- bytes_safe(as.character(bm$benchmark[seq_len(k)]))
  name_w <- max(9L, min(max(nchar(b, type = "width", allowNA = TRUE, keepNA = FALSE)),
                        80L - 14L - 11L * length(protos)))
  cols <- list(trunc_text(b, name_w), fmt_num(bm$speedup_median[seq_len(k)]))
  head <- c("benchmark", "S(median)")
  for (p in protos) {
    cols <- c(cols, list(decision_short(bm[[paste0(p, "_direction")]][seq_len(k)])))
    head <- c(head, p)
  }
  c("", "Per benchmark (S: observed ratio of the medians; each protocol's decision):",
    text_table(cols, head),
    if (nrow(bm) > k) sprintf("  ... and %d more benchmarks: summary() lists them all.",
                              nrow(bm) - k))
}

#' @export
format.speedup_suite <- function(x, ...) {
  check_object(x)
  suite_print_lines(x)
}

#' @export
print.speedup_suite <- function(x, ...) {
  cat(format(x), sep = "\n")
  invisible(x)
}

#' @export
summary.speedup_suite <- function(object, ...) {
  check_object(object, "object")
  structure(list(suite = object), class = "summary.speedup_suite")
}

#' @export
print.summary.speedup_suite <- function(x, ...) {
  s <- x$suite
  # (the per-benchmark tables below replace print()'s short list)
  lines <- suite_print_lines(s, benchmarks = FALSE)
  bm <- nan_to_na(s$benchmarks)
  bm$benchmark <- esc_text(bm$benchmark)
  if (nrow(bm)) {
    # per protocol, a table of the speedup, the decision in its short
    # words and the confidence; benchmark names cut to keep 80 columns
    conf <- fmt_confidence_column
    name_w <- max(9L, min(max(nchar(bm$benchmark)), 80L - 48L))
    names_cut <- trunc_text(bm$benchmark, name_w)
    protos <- suite_protocols(s)
    lines <- c(lines, "", wrap_lines(paste(
      "Per benchmark: the observed speedups S (ratio of the minimum, mean or",
      sprintf("median times); for %s, the decision (speedup:",
              protocol_labels(protos)),
      "significant speedup; slowdown: significant slowdown; none: no",
      "significant difference; n/a: insufficient data) and at which",
      "confidence (\"conf.\", the highest found when the level was",
      "searched):"), exdent = 0L))
    for (p in protos) {
      cols <- list(names_cut, format(bm$n), format(bm$m))
      head <- c("benchmark", "n", "m")
      if (p == protos[1L]) {
        cols <- c(cols, list(fmt_num(bm$speedup_min)))
        head <- c(head, "S(min)")
      }
      cen <- protocol_info(p)$centre
      cols <- c(cols, list(fmt_num(bm[[paste0("speedup_", cen)]]),
                           decision_short(bm[[paste0(p, "_direction")]]),
                           conf(bm[[paste0(p, "_conf_level")]])))
      head <- c(head, sprintf("S(%s)", cen), p, "conf.")
      lines <- c(lines, "", text_table(cols, head))
    }
  }
  if (nrow(s$notes)) {
    lines <- c(lines, "", "Notes:",
               wrap_lines(bytes_safe(paste0("  ", s$notes$benchmark, ": ",
                                            s$notes$message))))
  }
  if (nrow(s$problems)) {
    lines <- c(lines, "", "Problems:",
               wrap_lines(bytes_safe(paste0("  [", s$problems$severity, "] ",
                                            s$problems$message))))
  }
  cat(esc_text(lines), sep = "\n")
  invisible(x)
}
