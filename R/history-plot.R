# plot() and autoplot() of a series of a history: the per-process values
# at each commit, the stable stretches between changes (their median), each
# reported change's commit range and verdict, and the machine changes.

#' One series of a history, and its picture
#'
#' `history_series()` reads one series of a history (one benchmark on one
#' machine on one branch): its per-process values at each commit, the
#' changes [history_changes()] reported along it, the stable stretches
#' between them (from one change to the next, split at the machine changes
#' of [history_annotate()]) and those machine changes. `plot()` and
#' `autoplot()` draw it: the process values (points) per commit position,
#' each stretch's median (a line), each change's commit range (shaded:
#' the change came in at a commit of the range) with its verdict and
#' ratio, and the machine changes (dotted). `plot()` of a history draws the
#' series it selects.
#'
#' @param h,x A history, from [history_open()] (or, for `plot()` and
#'   `autoplot()`, a series from `history_series()`).
#' @param object A series from `history_series()`.
#' @param benchmark The benchmark's name.
#' @param machine The machine's name (`NULL`: the only machine that ran the
#'   benchmark).
#' @param branch The branch.
#' @param log Draw the times on a log scale.
#' @param ... For `plot()` of a history, passed to `history_series()`; else
#'   unused.
#' @return `history_series()`: an object of class
#'   `speedup_history_series`, a list with `values`, `changes`,
#'   `stretches`, `annotations` and the names. `plot()`: its argument,
#'   invisibly; `autoplot()`: a ggplot object.
#' @export
history_series <- function(h, benchmark, machine = NULL, branch = "main") {
  check_history(h)
  benchmark <- check_string(benchmark, "benchmark")
  branch <- check_string(branch, "branch")
  if (is.null(machine)) {
    m <- history_query(h, paste(
      "SELECT DISTINCT m.name FROM summaries s JOIN machines m ON m.machine_id = s.machine_id",
      "JOIN benchmarks b ON b.benchmark_id = s.benchmark_id",
      "JOIN commits c ON c.commit_id = s.commit_id WHERE b.name = ? AND c.branch = ?"),
      list(benchmark, branch))$name
    if (length(m) != 1L) {
      abort(sprintf("`machine`: benchmark \"%s\" ran on %s on branch \"%s\"; name one.",
                    safe_text(benchmark),
                    if (length(m)) paste("the machines", quote_list(m)) else "no machine",
                    safe_text(branch)))
    }
    machine <- m
  }
  machine <- check_string(machine, "machine")
  v <- history_values(h, benchmark, machine, branch)
  if (!nrow(v)) {
    abort(sprintf("The history has no runs of benchmark \"%s\" on machine \"%s\", branch \"%s\".",
                  safe_text(benchmark), safe_text(machine), safe_text(branch)), class = "data")
  }
  alpha <- tryCatch(jsonlite::fromJSON(history_setting(h, "analysis") %||% "{}")$alpha,
                    error = function(e) NULL) %||% 0.05
  ch <- history_reported(h, benchmark, machine, branch, alpha)
  ann <- history_query(h, paste(
    "SELECT a.position, a.note FROM annotations a JOIN machines m ON m.machine_id = a.machine_id",
    "WHERE m.name = ? AND (a.branch IS NULL OR a.branch = ?) ORDER BY a.position"),
    list(machine, branch))
  ann$position <- as.double(ann$position)
  # stable stretches: cut at each change's first bad commit and at each
  # machine change
  cuts <- sort(unique(c(ch$pos_first_bad, ann$position)))
  stretch <- findInterval(v$position, cuts)
  st <- do.call(rbind, lapply(split(seq_len(nrow(v)), stretch), function(i) {
    data.frame(from = min(v$position[i]), to = max(v$position[i]),
               level = stats::median(v$value[i]), processes = length(i))
  }))
  rownames(st) <- NULL
  structure(list(values = v[c("position", "sha", "value", "segment")],
                 changes = as.data.frame(ch), stretches = st, annotations = ann,
                 benchmark = benchmark, machine = machine, branch = branch),
            class = "speedup_history_series")
}

#' @export
format.speedup_history_series <- function(x, ...) {
  c(sprintf("Series %s on %s, branch %s", history_cut(x$benchmark, 30L),
            history_cut(x$machine, 16L), history_cut(x$branch, 16L)),
    sprintf("%d commits, %d processes; %d change(s), %d stable stretch(es), %d machine change(s)",
            length(unique(x$values$position)), nrow(x$values), nrow(x$changes),
            nrow(x$stretches), nrow(x$annotations)))
}

#' @export
print.speedup_history_series <- function(x, ...) {
  cat(format(x), sep = "\n")
  invisible(x)
}

#' @export
as.data.frame.speedup_history_series <- function(x, row.names = NULL, optional = FALSE,
                                                ...) {
  x$values
}

# The colour of a verdict: regressions red, improvements green, the rest grey.
history_verdict_colour <- function(decision) {
  ifelse(grepl("^regression", decision), "#C0392B",
         ifelse(grepl("^improvement", decision), "#1E8449", "#7F8C8D"))
}

history_change_label <- function(ch) {
  sprintf("#%d %s (%+.1f %%)", ch$change_id, ch$decision, 100 * (ch$ratio - 1))
}

#' @rdname history_series
#' @export
plot.speedup_history_series <- function(x, log = TRUE, ...) {
  v <- x$values
  ch <- x$changes
  op <- graphics::par(mar = c(4.2, 4.5, 3.2, 1))
  on.exit(graphics::par(op))
  ylim <- range(v$value)
  ylim <- ylim * c(0.98, 1.04)
  graphics::plot(v$position, v$value, log = if (log) "y" else "", type = "n",
                 xlab = "commit (position in first-parent order)", ylab = "time (s)",
                 ylim = ylim, las = 1,
                 main = sprintf("%s on %s (%s)", history_cut(x$benchmark, 40L),
                                history_cut(x$machine, 20L), history_cut(x$branch, 20L)),
                 cex.main = 1)
  usr <- graphics::par("usr")
  ytop <- if (log) 10^usr[4] else usr[4]
  ybot <- if (log) 10^usr[3] else usr[3]
  for (i in seq_len(nrow(ch))) {
    col <- history_verdict_colour(ch$decision[i])
    graphics::rect(ch$pos_from[i] + 0.5, ybot, ch$pos_to[i] + 0.5, ytop,
                   col = grDevices::adjustcolor(col, 0.15), border = NA)
    graphics::abline(v = ch$pos_first_bad[i] - 0.5, col = col, lty = 2)
  }
  if (nrow(x$annotations)) {
    graphics::abline(v = x$annotations$position - 0.5, col = "grey30", lty = 3)
    graphics::mtext(history_cut(x$annotations$note, 20L), side = 3, line = 0.1,
                    at = x$annotations$position, cex = 0.7, col = "grey30")
  }
  graphics::points(v$position, v$value, pch = 16, cex = 0.6,
                   col = grDevices::adjustcolor("grey20", 0.5))
  st <- x$stretches
  graphics::segments(st$from - 0.4, st$level, st$to + 0.4, st$level, col = "#2471A3",
                     lwd = 2.5)
  if (nrow(ch)) {
    y <- ytop / (if (log) 1.01 else 1) - if (log) 0 else 0.01 * diff(ylim)
    graphics::text(ch$pos_first_bad, y, history_change_label(ch), pos = 1, cex = 0.75,
                   col = history_verdict_colour(ch$decision))
  }
  graphics::legend("bottomleft", bty = "n", cex = 0.75,
                   legend = c("process", "stable stretch (median)", "change's commit range"),
                   pch = c(16, NA, 15), lty = c(NA, 1, NA), lwd = c(NA, 2.5, NA),
                   col = c("grey40", "#2471A3", grDevices::adjustcolor("#C0392B", 0.3)))
  invisible(x)
}

#' @rdname history_series
#' @export
plot.speedup_history <- function(x, benchmark, machine = NULL, branch = "main", ...) {
  s <- history_series(x, benchmark, machine = machine, branch = branch)
  plot(s, ...)
  invisible(x)
}

#' @rdname history_series
#' @exportS3Method ggplot2::autoplot
autoplot.speedup_history_series <- function(object, log = TRUE, ...) {
  need_ggplot2()
  x <- object
  v <- x$values
  ch <- x$changes
  g <- ggplot2::ggplot(v, ggplot2::aes(.data$position, .data$value))
  if (nrow(ch)) {
    ch$colour <- history_verdict_colour(ch$decision)
    ch$label <- history_change_label(ch)
    g <- g +
      ggplot2::geom_rect(data = ch, inherit.aes = FALSE,
                         ggplot2::aes(xmin = .data$pos_from + 0.5, xmax = .data$pos_to + 0.5,
                                      ymin = min(v$value) * 0.98,
                                      ymax = max(v$value) * 1.04),
                         fill = ch$colour, alpha = 0.15) +
      ggplot2::geom_vline(data = ch, ggplot2::aes(xintercept = .data$pos_first_bad - 0.5),
                          colour = ch$colour, linetype = 2) +
      ggplot2::geom_text(data = ch, inherit.aes = FALSE,
                         ggplot2::aes(x = .data$pos_first_bad, y = Inf, label = .data$label),
                         vjust = 1.5, size = 3, colour = ch$colour)
  }
  if (nrow(x$annotations)) {
    g <- g + ggplot2::geom_vline(data = x$annotations,
                                 ggplot2::aes(xintercept = .data$position - 0.5),
                                 linetype = 3, colour = "grey30")
  }
  g <- g +
    ggplot2::geom_point(alpha = 0.5, size = 1.2, colour = "grey20") +
    ggplot2::geom_segment(data = x$stretches, inherit.aes = FALSE,
                          ggplot2::aes(x = .data$from - 0.4, xend = .data$to + 0.4,
                                       y = .data$level, yend = .data$level),
                          colour = "#2471A3", linewidth = 1.1) +
    ggplot2::labs(x = "commit (position in first-parent order)", y = "time (s)",
                  title = sprintf("%s on %s (%s)", history_cut(x$benchmark, 40L),
                                  history_cut(x$machine, 20L), history_cut(x$branch, 20L)),
                  subtitle = "points: processes; lines: stable stretches (median); shaded: change ranges") +
    ggplot2::theme_minimal()
  if (log) g <- g + ggplot2::scale_y_log10()
  g
}
