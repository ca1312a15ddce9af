# Printing what measure() records besides the run times: the machine, the
# timer, the shell's start-up subtracted, the sequential looks, and the
# speedup and verdict of the measurement.  format_machine() is meant to be
# called by the print method of speedup_timings.

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
                sprintf("around R code %s", measure_fmt_seconds(tm$overhead_r)))
    out <- c(out, sprintf("Timer: %s, resolution %s (smallest step seen %s)%s", tm$clock,
                          measure_fmt_seconds(tm$resolution), measure_fmt_seconds(tm$tick),
                          if (length(over)) paste0("; overhead: ", paste(over, collapse = ", ")) else ""))
    b <- tm$batch
    if (!is.null(b) && any(!is.na(b))) {
      b <- b[!is.na(b)]
      out <- c(out, sprintf(paste0(
        "R code: timed in batches of %s evaluation(s) a run, the harness's share ",
        "subtracted (column `correction`)"),
        paste(sprintf("%s (`%s`)", format(b, big.mark = ",", trim = TRUE),
                      names(b)), collapse = ", ")))
    }
    if (!is.na(tm$overhead_command) && "launcher" %in% names(tm) && is.na(tm$launcher)) {
      out <- c(out, sprintf(
        "Peak memory: launcher not installed, max_rss known only above R's own peak (%s MB)",
        format(round(tm$rss_floor / 1e6, 1))))
    }
  }
  out <- c(out, format_launch(x))
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
  out <- c(out, format_measure_verdict(x))
  unlist(lapply(out, strwrap, width = 78L, exdent = 2L))
}

# How the commands were started, and the shell's start-up subtracted.
format_launch <- function(x) {
  launch <- attr(x, "launch")
  if (is.null(launch)) return(character())
  out <- character()
  quote <- function(v) paste0("`", v, "`", collapse = ", ")
  direct <- names(launch)[launch == "direct"]
  shell <- names(launch)[launch == "shell"]
  if (length(direct) || length(shell)) {
    out <- c(out, paste0("Commands: ", paste(c(
      if (length(direct)) paste(quote(direct), "run directly"),
      if (length(shell)) paste(quote(shell), "run by /bin/sh -c")), collapse = "; ")))
  }
  sh <- attr(x, "timer")$shell
  if (length(shell) && !is.null(sh)) {
    out <- c(out, sprintf(
      "Shell start-up subtracted from each run of %s: %s (sh -c '' %s minus direct `true` %s, medians of %d runs)",
      quote(shell), measure_fmt_seconds(sh$wall), measure_fmt_seconds(sh$shell_wall),
      measure_fmt_seconds(sh$direct_wall), as.integer(sh$runs)))
  }
  out
}

# The speedup of each version over the initial one (ratio of the medians)
# and the verdict of the second against the initial one.
format_measure_verdict <- function(x) {
  if (!identical(attr(x, "source"), "measure") || !nrow(x)) return(character())
  vers <- levels(droplevels(x$version))
  if (length(vers) < 2L) return(character())
  med <- tapply(x$time, droplevels(x$version), stats::median)
  ratio <- med[[vers[1L]]] / med[vers[-1L]]
  out <- sprintf("Speedup over `%s` (ratio of the medians): %s", vers[1L],
                 paste(sprintf("`%s` %s", vers[-1L], fmt_num(ratio, 3L)), collapse = ", "))
  sq <- attr(x, "sequential")
  if (!is.null(sq)) {
    dec <- sq$decision
    what <- if (is.na(dec)) "no look made" else switch(dec,
      speedup = sprintf("significant speedup of `%s`", vers[2L]),
      slowdown = sprintf("significant slowdown of `%s`", vers[2L]),
      "no significant speedup or slowdown")
    return(c(out, sprintf("Verdict (sequential %s test, overall risk %s): %s", sq$test,
                          format(sq$alpha), what)))
  }
  sub <- x[x$version %in% vers[1:2], , drop = FALSE]
  sub$version <- droplevels(sub$version)
  v <- tryCatch(suppressWarnings(median_test(sub)), error = function(e) e)
  if (inherits(v, "error")) {
    return(c(out, sprintf("Verdict (`%s` against `%s`): not computed: %s", vers[2L],
                          vers[1L], conditionMessage(v))))
  }
  c(out, sprintf("Verdict (`%s` against `%s`): %s", vers[2L], vers[1L],
                 verdict_headline(v)))
}

measure_na_text <- function(x) if (is.null(x) || length(x) == 0L || is.na(x)) "unknown" else as.character(x)

measure_fmt_seconds <- function(s) {
  if (is.null(s) || is.na(s)) return("unknown")
  if (s >= 1) return(sprintf("%.3g s", s))
  if (s >= 1e-3) return(sprintf("%.3g ms", 1e3 * s))
  if (s >= 1e-6) return(sprintf("%.3g us", 1e6 * s))
  sprintf("%.3g ns", 1e9 * s)
}
