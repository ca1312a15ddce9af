# Printing what measure() records besides the run times: the machine, the
# timer and the sequential looks.  format_machine() is meant to be called by
# the print method of speedup_timings.

# Lines describing the machine, timer, order and sequential looks of timings
# made by measure() (character(0) for other timings).
format_machine <- function(x) {
  m <- attr(x, "machine")
  out <- character()
  if (!is.null(m)) {
    load <- function(l) if (is.null(l) || all(is.na(l))) "unknown" else
      paste(format(l, nsmall = 2), collapse = " ")
    out <- c(out,
      sprintf("Machine: %s, %s core(s), %s", measure_na_text(m$cpu_model),
              measure_na_text(m$cores), measure_na_text(m$kernel)),
      sprintf("Load average (1, 5, 15 min): %s before, %s after", load(m$load_before),
              load(m$load_after)))
  }
  tm <- attr(x, "timer")
  if (!is.null(tm)) {
    over <- c(if (!is.na(tm$overhead_command))
                sprintf("starting a command %s", measure_fmt_seconds(tm$overhead_command)),
              if (!is.na(tm$overhead_r))
                sprintf("calling an R function %s", measure_fmt_seconds(tm$overhead_r)))
    out <- c(out, sprintf("Timer: %s, resolution %s (smallest step seen %s)%s", tm$clock,
                          measure_fmt_seconds(tm$resolution), measure_fmt_seconds(tm$tick),
                          if (length(over)) paste0("; overhead: ", paste(over, collapse = ", ")) else ""))
    if (!is.na(tm$overhead_command) && "launcher" %in% names(tm) && is.na(tm$launcher)) {
      out <- c(out, sprintf(
        "Peak memory: launcher not installed, max_rss known only above R's own peak (%s MB)",
        format(round(tm$rss_floor / 1e6, 1))))
    }
  }
  ord <- attr(x, "order")
  if (!is.null(ord)) {
    out <- c(out, sprintf("Order: %s, %d warm-up round(s) not recorded%s", ord,
                          as.integer(attr(x, "warmup")),
                          if (isTRUE(attr(x, "interrupted"))) "; interrupted" else ""))
  }
  sq <- attr(x, "sequential")
  if (!is.null(sq)) {
    looks <- sq$looks
    nl <- if (is.null(looks)) 0L else nrow(looks)
    out <- c(out, sprintf(
      "Sequential (%s test, alpha = %s, up to %d runs each): %s after %d look(s) at %s run(s) each; level of the last look %s",
      sq$test, format(sq$alpha), as.integer(sq$max_runs),
      if (is.na(sq$decision)) "no look made" else if (sq$decision == "none") "no decision" else sq$decision,
      nl, if (nl) looks$runs[nl] else "0", format(signif(sq$level, 3))))
  }
  unlist(lapply(out, strwrap, width = 78L, exdent = 2L))
}

measure_na_text <- function(x) if (is.null(x) || length(x) == 0L || is.na(x)) "unknown" else as.character(x)

measure_fmt_seconds <- function(s) {
  if (is.null(s) || is.na(s)) return("unknown")
  if (s >= 1) return(sprintf("%.3g s", s))
  if (s >= 1e-3) return(sprintf("%.3g ms", 1e3 * s))
  if (s >= 1e-6) return(sprintf("%.3g us", 1e6 * s))
  sprintf("%.3g ns", 1e9 * s)
}
