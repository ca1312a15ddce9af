# format/print/summary of the Hierarchical Performance Test and of the
# r-Speedup: the layout of the paper's Table 1, within 80 columns.

# The winner of each benchmark by name ("tie" when neither wins).
hpt_winner_names <- function(winner, labels) {
  ifelse(winner == "A", labels[1L], ifelse(winner == "B", labels[2L], "tie"))
}

# "1 benchmark", "12 benchmarks", and how many were skipped
hpt_count_note <- function(n, problems) {
  nskip <- if (is.null(problems)) 0L else sum(problems$severity == "error")
  out <- sprintf("%d benchmark%s", n, if (n == 1L) "" else "s")
  if (nskip > 0L) out <- sprintf("%s (%d skipped: see `$problems`)", out, nskip)
  out
}

# The lines of print(df, row.names = FALSE, right = TRUE) for a data frame
# of strings, without its escapes: print() doubles the backslashes that
# esc_text() wrote.  Columns right-aligned, one space apart after one space;
# columns past `width` go on in another block, as print() does.
frame_lines <- function(df, width = 80L) {
  wd <- function(s) nchar(s, type = "width", allowNA = TRUE, keepNA = FALSE)
  cols <- lapply(seq_along(df), function(i) {
    v <- c(names(df)[i], as.character(df[[i]]))
    w <- max(wd(v))
    paste0(strrep(" ", w - wd(v)), v)
  })
  w <- vapply(cols, function(v) wd(v[1L]), 0L) + 1L
  out <- character()
  i <- 1L
  while (i <= length(cols)) {
    j <- i
    while (j < length(cols) && sum(w[i:(j + 1L)]) <= width) j <- j + 1L
    out <- c(out, do.call(paste0, lapply(cols[i:j], function(v) paste0(" ", v))))
    i <- j + 1L
  }
  out
}

hpt_method_note <- function(x) {
  if (x$exact_ties) "exact, conditional on ties" else
    if (x$exact[["benchmarks"]]) "exact tables, no ties" else
      "tables or normal approximation"
}

#' @rdname hpt
#' @param x An object returned by `hpt()`.
#' @param digits Significant digits of the medians and differences.
#' @param ... Unused.
#' @export
format.speeduptest_hpt <- function(x, digits = 3, ...) {
  check_object(x, "x")
  bm <- x$benchmarks
  bm$benchmark <- esc_text(bm$benchmark)
  lab <- esc_text(x$labels)
  handicap <- if (x$speedup == 1) "" else
    if (x$higher_is_better) sprintf(" / %s", format(x$speedup)) else
      sprintf(" * %s", format(x$speedup))
  tab <- data.frame(
    check.names = FALSE,
    Benchmark = bm$benchmark,
    Med_A = format(bm$median_a, digits = digits),
    "Stat. Win." = hpt_winner_names(bm$winner, lab),
    "Diff. (d)" = ifelse(bm$d == 0, "0", format(bm$d, digits = digits)),
    Rank = format(bm$rank),
    Med_B = format(bm$median_b, digits = digits)
  )
  names(tab)[2L] <- sprintf("Med. %s%s", lab[1L], handicap)
  names(tab)[6L] <- sprintf("Med. %s", lab[2L])
  body <- frame_lines(tab)
  head <- c(
    "",
    "        Hierarchical Performance Test (Chen et al. 2012)",
    "",
    sprintf("Claim: %s (%s)", hpt_claim(lab, x$speedup),
            if (x$higher_is_better) "scores, higher is better" else
              "times, lower is better"),
    sprintf("%s; on each, rank-sum tests at level %s (%s)",
            hpt_count_note(x$n, x$problems), format(x$alpha_bench),
            hpt_method_note(x)),
    "")
  tail <- c(
    "",
    sprintf("Stat. Win.: the winner of the rank-sum tests; d: difference of the medians, > 0 when %s wins; Rank: rank of |d|.",
            lab[1L]),
    sprintf("%s wins %d, %s wins %d, ties %d", lab[1L], sum(bm$winner == "A"),
            lab[2L], sum(bm$winner == "B"), sum(bm$winner == "tie")),
    sprintf("R_A = %s, R_B = %s (sums of the ranks of the d for %s and for %s)",
            format(x$R_A), format(x$R_B), lab[1L], lab[2L]),
    sprintf("confidence = %s (%s)", fmt_confidence(x$confidence),
            if (x$exact_ties) "exact signed-rank, conditional on ties" else
              if (x$exact[["overall"]]) "exact signed-rank" else
                "signed-rank, normal approximation"),
    esc_text(x$conclusion)
  )
  esc_text(c(wrap_lines(head), body, wrap_lines(tail)))
}

#' @rdname hpt
#' @export
print.speeduptest_hpt <- function(x, digits = 3, ...) {
  cat(format(x, digits = digits, ...), sep = "\n")
  invisible(x)
}

#' @rdname hpt
#' @param object An object returned by `hpt()`.
#' @export
summary.speeduptest_hpt <- function(object, ...) {
  check_object(object, "object")
  structure(list(
    benchmarks = object$benchmarks,
    statistics = c(R_A = object$R_A, R_B = object$R_B,
                   confidence = object$confidence, p_value = object$p_value),
    conclusion = object$conclusion,
    labels = object$labels
  ), class = "summary.speeduptest_hpt")
}

#' @export
print.summary.speeduptest_hpt <- function(x, digits = 3, ...) {
  bm <- x$benchmarks
  lab <- x$labels
  if (is.null(lab)) lab <- c("A", "B")
  lab <- esc_text(lab)
  tab <- data.frame(
    check.names = FALSE,
    Benchmark = esc_text(bm$benchmark),
    a = format(bm$median_a, digits = digits),
    b = format(bm$median_b, digits = digits),
    "Stat. Win." = hpt_winner_names(bm$winner, lab),
    d = ifelse(bm$d == 0, "0", format(bm$d, digits = digits)),
    Rank = format(bm$rank),
    pa = vapply(bm$p_a, fmt_p, ""),
    pb = vapply(bm$p_b, fmt_p, ""),
    Runs = sprintf("%d/%d", bm$runs_a, bm$runs_b)
  )
  names(tab)[c(2L, 3L, 7L, 8L)] <- c(sprintf("Med. %s", lab),
                                     sprintf("p(%s)", lab))
  cat(frame_lines(tab), sep = "\n")
  st <- x$statistics
  cat(wrap_lines(c(
    "",
    sprintf("p(%s), p(%s): one-sided rank-sum p-values that %s, resp. %s, is better; Runs: runs of %s/%s.",
            lab[1L], lab[2L], lab[1L], lab[2L], lab[1L], lab[2L]),
    sprintf("R_A = %s, R_B = %s, confidence = %s, p-value = %s",
            format(st[["R_A"]]), format(st[["R_B"]]),
            fmt_confidence(st[["confidence"]]), fmt_p(st[["p_value"]])),
    esc_text(x$conclusion))), sep = "\n")
  invisible(x)
}

#' @rdname hpt_speedup
#' @param x An object returned by `hpt_speedup()`.
#' @param ... Unused.
#' @export
print.speeduptest_hpt_speedup <- function(x, ...) {
  lab <- esc_text(x$labels)
  dec <- max(0L, ceiling(-log10(x$precision) - 1e-9))
  sp <- formatC(x$speedup, format = "f", digits = dec)
  lines <- c(
    "",
    sprintf("%s-Speedup of %s over %s (HPT, Chen et al. 2012)",
            format(x$confidence), lab[1L], lab[2L]),
    sprintf("(the largest speedup of %s over %s that holds with confidence %s)",
            lab[1L], lab[2L], format(x$confidence)),
    if (NROW(x$problems) > 0L)
      sprintf("Over %s.", hpt_count_note(x$n, x$problems)),
    "")
  lines <- c(lines, if (is.na(x$speedup)) {
    sprintf("No speedup >= 1 reaches confidence %s: %s is not shown faster than %s.",
            format(x$confidence), lab[1L], lab[2L])
  } else if (is.infinite(x$speedup)) {
    sprintf("The confidence stays at or above %s for every speedup (the per-benchmark tests can never be significant).",
            format(x$confidence))
  } else {
    c(sprintf("r-Speedup: %s (exact supremum %s, %s)", sp,
              format(x$supremum, digits = 10),
              if (x$attained) "attained" else "not attained"),
      sprintf("%s is more than %s times faster than %s with confidence %s (confidence of this claim: %s).",
              lab[1L], sp, lab[2L], format(x$confidence),
              fmt_confidence(x$test$confidence)))
  })
  cat(esc_text(wrap_lines(lines)), sep = "\n")
  invisible(x)
}
