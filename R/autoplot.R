# autoplot() methods: the pictures of plot(), drawn with ggplot2 for those
# who compose their figures with it.  ggplot2 is suggested only: the methods
# are registered on ggplot2::autoplot when ggplot2 is loaded (NAMESPACE:
# S3method(ggplot2::autoplot, ...)), and each checks it is installed.

# `.data` is the pronoun of ggplot2's aesthetics (rlang's data mask).
utils::globalVariables(".data")

need_ggplot2 <- function() {
  if (!requireNamespace("ggplot2", quietly = TRUE)) {
    abort("autoplot() needs the ggplot2 package: install.packages(\"ggplot2\").",
          class = "dependency")
  }
}

# No ticks on an axis that spans less than 2 units (the dummy axis of a
# panel that only shows a bar), pretty ones otherwise.
some_breaks <- function(lim) {
  if (!all(is.finite(lim)) || diff(lim) < 2) return(numeric())
  b <- pretty(lim, n = 4L)
  b[b >= lim[1L] & b <= lim[2L] & b == round(b)]
}

#' ggplot2 pictures of timings, verdicts, suites and HPT results
#'
#' `ggplot2::autoplot()` methods that draw what `plot()` draws, as ggplot
#' objects that can be themed, combined and saved with ggplot2 (a suggested
#' package: these methods work once ggplot2 is installed).
#'
#' * Timings: one facet per benchmark, the runs of each version in their
#'   recorded order and, past the dashed line, the distribution of each
#'   version (a violin with a bar at the median), as
#'   [plot.speedup_timings()].
#' * A verdict: the runs of both versions in recorded order with each
#'   version's centre (dashed), and beside them the speedup: the interval's
#'   own estimate (diamond), the interval, the observed ratio when it differs
#'   (circle) and no change (dotted), on log scales, as
#'   [plot.speedup_verdict()]; the title is the decision.
#' * A suite: per benchmark the speedup and its interval, marked by the
#'   decision, as [plot.speedup_suite()].
#' * An HPT: the difference of medians d per benchmark coloured by the
#'   winner, and the confidence of the claim as the speedup under test
#'   grows, as [plot.speeduptest_hpt()].
#'
#' The decisions are named in the words of every print (see
#' [speedup_verdict]).
#'
#' @param object A `speedup_timings`, `speedup_verdict`, `speedup_suite`,
#'   `speeduptest_hpt` or `speeduptest_hpt_speedup` object.
#' @param benchmarks For timings: the benchmarks to draw (`NULL`: all).
#' @param which For a suite: the protocol, one the suite ran (see
#'   [speeduptest_protocols]); `NULL`: the median's when it ran.
#' @param gamma For an HPT: the speedups at which the confidence is drawn
#'   (`NULL` chooses).
#' @param ... Unused.
#' @return A ggplot object.
#' @name autoplot.speedup_timings
#' @examplesIf requireNamespace("ggplot2", quietly = TRUE)
#' ggplot2::autoplot(as_timings(cpu_runs), benchmarks = "fft")
#' \donttest{
#' set.seed(4)
#' ggplot2::autoplot(median_test(rlnorm(40, log(10), 0.1), rlnorm(40, log(9), 0.1)))
#' }
NULL

#' @rdname autoplot.speedup_timings
#' @exportS3Method ggplot2::autoplot
autoplot.speedup_timings <- function(object, benchmarks = NULL, ...) {
  need_ggplot2()
  if (!nrow(object)) abort("Nothing to plot: the timings hold no run.", class = "data")
  g <- timings_plot_data(object, benchmarks)
  gg <- ggplot2::ggplot()
  # the axis of the times is on a log scale when a panel spans more than a
  # factor of 10, as plot() does panel by panel
  spread <- tapply(g$points$time, g$points$benchmark,
                   function(t) max(t) / min(t))
  ylog <- all(g$points$time > 0) && any(spread > 10, na.rm = TRUE)
  xl <- if (g$global) "position of the run among all runs of the benchmark"
        else "run, in recorded order, within its version"
  gg <- gg +
    ggplot2::geom_vline(data = g$panels,
                        ggplot2::aes(xintercept = .data$separator),
                        linetype = 2, colour = "grey55") +
    ggplot2::geom_polygon(data = g$violins,
                          ggplot2::aes(x = .data$x, y = .data$time,
                                       fill = .data$version,
                                       colour = .data$version,
                                       group = .data$version),
                          alpha = 0.35) +
    ggplot2::geom_segment(data = g$medians,
                          ggplot2::aes(x = .data$x, xend = .data$xend,
                                       y = .data$time, yend = .data$time),
                          linewidth = 0.8, colour = "grey10") +
    ggplot2::geom_point(data = g$points,
                        ggplot2::aes(x = .data$x, y = .data$time,
                                     colour = .data$version), size = 1.1) +
    ggplot2::facet_wrap(~benchmark, scales = "free") +
    ggplot2::scale_colour_manual(values = g$colours, name = "version") +
    ggplot2::scale_fill_manual(values = g$colours, name = "version") +
    ggplot2::scale_x_continuous(breaks = function(lim) {
      b <- pretty(c(1, lim[2L] / 1.5), n = 4L)
      b[b >= 1 & b <= lim[2L] / 1.45]
    }) +
    ggplot2::labs(
      title = "Run times in recorded order (left), and their distributions (right)",
      x = paste0(xl, "; then each version's distribution, median marked"),
      y = "run time") +
    ggplot2::theme_bw() +
    ggplot2::theme(legend.position = "top", panel.grid.minor = ggplot2::element_blank())
  gg + if (ylog) ggplot2::scale_y_log10(labels = time_axis_labels) else
    ggplot2::scale_y_continuous(labels = time_axis_labels)
}

# The tick labels of a time axis in seconds, in the unit that suits the
# panel (s, ms, us or ns: time_axis_unit(), as plot() chooses it), each
# with its unit: "12.5 ms".
time_axis_labels <- function(b) {
  ok <- is.finite(b) & b > 0
  if (!any(ok)) return(format(b))
  u <- time_axis_unit(stats::median(b[ok]))
  out <- paste(format(b / u$scale, digits = 3, trim = TRUE, scientific = FALSE), u$name)
  out[is.na(b)] <- NA_character_
  out
}

#' @rdname autoplot.speedup_timings
#' @exportS3Method ggplot2::autoplot
autoplot.speedup_verdict <- function(object, ...) {
  need_ggplot2()
  v <- object
  if (v$n + v$m == 0L) abort("Nothing to plot: both samples are empty.", class = "data")
  labels <- plot_sample_labels(v)
  pos <- run_positions(v)
  centre_name <- verdict_protocol(v)$centre
  centre <- verdict_protocol(v)$centre_fun
  panel_runs <- "run times in recorded order"
  panel_speedup <- "speedup"
  lev <- c(panel_runs, panel_speedup)
  runs <- data.frame(panel = factor(panel_runs, levels = lev),
                     x = c(pos$x, pos$y), y = c(v$x, v$y),
                     version = factor(rep(labels, c(v$n, v$m)), levels = labels))
  cen <- data.frame(panel = factor(panel_runs, levels = lev),
                    y = c(if (v$n) centre(v$x) else NA_real_,
                          if (v$m) centre(v$y) else NA_real_),
                    version = factor(labels, levels = labels))
  ci <- v$speedup_ci
  est <- or_na(attr(ci, "estimate"), NA_real_)
  have_ci <- length(ci) == 2L && all(is.finite(ci)) && all(ci > 0) && !is.na(est)
  point <- if (have_ci) est else v$speedup
  sp <- data.frame(panel = factor(panel_speedup, levels = lev), x = 0, y = point)
  cols <- stats::setNames(unname(plot_colours), labels)
  gg <- ggplot2::ggplot() +
    ggplot2::geom_hline(data = data.frame(panel = factor(panel_speedup, levels = lev), y = 1),
                        ggplot2::aes(yintercept = .data$y), linetype = 3,
                        colour = "grey40") +
    ggplot2::geom_point(data = runs, ggplot2::aes(x = .data$x, y = .data$y,
                                                  colour = .data$version,
                                                  shape = .data$version),
                        size = 1.6) +
    ggplot2::geom_hline(data = cen[!is.na(cen$y), , drop = FALSE],
                        ggplot2::aes(yintercept = .data$y, colour = .data$version),
                        linetype = 2)
  if (have_ci) {
    gg <- gg + ggplot2::geom_errorbar(
      data = data.frame(panel = factor(panel_speedup, levels = lev), x = 0,
                        lo = ci[1L], hi = ci[2L]),
      ggplot2::aes(x = .data$x, ymin = .data$lo, ymax = .data$hi),
      width = 0.4, linewidth = 0.8, colour = "grey25")
    if (fmt_num(est) != fmt_num(v$speedup) && is.finite(v$speedup) && v$speedup > 0) {
      gg <- gg + ggplot2::geom_point(
        data = data.frame(panel = factor(panel_speedup, levels = lev), x = 0,
                          y = v$speedup),
        ggplot2::aes(x = .data$x, y = .data$y), shape = 1, size = 3,
        colour = "grey35")
    }
  }
  if (is.finite(point) && point > 0) {
    gg <- gg + ggplot2::geom_point(data = sp, ggplot2::aes(x = .data$x, y = .data$y),
                                   shape = 18, size = 4)
  }
  gg + ggplot2::facet_wrap(~panel, scales = "free") +
    ggplot2::scale_y_log10() +
    ggplot2::scale_x_continuous(breaks = some_breaks) +
    ggplot2::scale_colour_manual(values = cols, name = NULL) +
    ggplot2::scale_shape_manual(values = c(16, 17), name = NULL) +
    ggplot2::labs(title = verdict_plot_title(v),
                  subtitle = paste(strwrap(speedup_plot_label(v), 90L), collapse = "\n"),
                  x = if (pos$global) "position of the run in the recorded order"
                      else "run (in recorded order)",
                  y = sprintf("run time (s); speedup of the %s (log scales)",
                              centre_name)) +
    ggplot2::theme_bw() +
    ggplot2::theme(legend.position = "top",
                   panel.grid.minor = ggplot2::element_blank())
}

#' @rdname autoplot.speedup_timings
#' @exportS3Method ggplot2::autoplot
autoplot.speedup_suite <- function(object, which = NULL, ...) {
  need_ggplot2()
  which <- check_suite_protocol(which, object)
  bm <- object$benchmarks
  if (!nrow(bm)) abort("the suite has no analysed benchmark to plot.", class = "data")
  col <- function(name) bm[[paste0(which, "_", name)]]
  est <- or_na(col("ci_estimate"), rep(NA_real_, nrow(bm)))
  point <- ifelse(is.na(est), bm[[paste0("speedup_", protocol_info(which)$centre)]], est)
  dirn <- col("direction")
  words <- decision_words(dirn)
  keys <- c("speedup", "slowdown", "none", "equivalent", NA)
  all_words <- decision_words(keys)
  df <- data.frame(benchmark = factor(bm$benchmark, levels = rev(bm$benchmark)),
                   point = point, lo = col("ci_low"), hi = col("ci_high"),
                   decision = factor(words, levels = all_words))
  shown <- all_words[all_words %in% words]
  lev <- unique(col("ci_level")[!is.na(col("ci_level"))])
  sub <- sprintf("%s; bars: %s", interval_estimator(which),
                 if (length(lev) == 1L) sprintf("%s, %s", interval_words(which, lev),
                                                interval_note(1 - bm[[paste0(which, "_conf_level")]][1L]))
                 else "intervals of level 1 - 2 alpha")
  ok <- is.finite(df$lo) & is.finite(df$hi) & df$lo > 0
  ggplot2::ggplot(df, ggplot2::aes(y = .data$benchmark)) +
    ggplot2::geom_vline(xintercept = 1, linetype = 3, colour = "grey30") +
    ggplot2::geom_segment(data = df[ok, , drop = FALSE],
                          ggplot2::aes(x = .data$lo, xend = .data$hi,
                                       yend = .data$benchmark),
                          linewidth = 0.9, colour = "grey35") +
    ggplot2::geom_point(ggplot2::aes(x = .data$point, shape = .data$decision,
                                     colour = .data$decision), size = 2.4,
                        fill = "white") +
    ggplot2::scale_x_log10() +
    ggplot2::scale_shape_manual(values = stats::setNames(decision_pch(keys), all_words)[shown],
                                name = NULL, drop = TRUE) +
    ggplot2::scale_colour_manual(values = stats::setNames(decision_colour(keys), all_words)[shown],
                                 name = NULL, drop = TRUE) +
    ggplot2::labs(title = sprintf("%s, per benchmark",
                                  capitalise(protocol_info(which)$what)),
                  subtitle = paste(strwrap(sub, 90L), collapse = "\n"),
                  x = sprintf("%s (log scale): <- slower | faster ->",
                              protocol_info(which)$what),
                  y = NULL) +
    ggplot2::theme_bw() +
    ggplot2::theme(legend.position = "top",
                   panel.grid.minor = ggplot2::element_blank())
}

#' @rdname autoplot.speedup_timings
#' @exportS3Method ggplot2::autoplot
autoplot.speeduptest_hpt <- function(object, gamma = NULL, ...) {
  hpt_autoplot(object, gamma = gamma)
}

#' @rdname autoplot.speedup_timings
#' @exportS3Method ggplot2::autoplot
autoplot.speeduptest_hpt_speedup <- function(object, gamma = NULL, ...) {
  if (is.null(object$test)) {
    abort("Nothing to plot: no finite r-Speedup was found.", class = "data")
  }
  hpt_autoplot(object$test, gamma = gamma, r_speedup = object$speedup)
}

hpt_autoplot <- function(x, gamma = NULL, r_speedup = NULL) {
  need_ggplot2()
  bm <- x$benchmarks
  lab <- x$labels
  curve <- hpt_confidence_curve(x, gamma)
  p1 <- "difference of medians d (> 0: first machine wins)"
  p2 <- "confidence of the claim, by the speedup under test (gamma)"
  lev <- c(p1, p2)
  nb <- nrow(bm)
  winner <- factor(c(A = paste(lab[1L], "wins"), B = paste(lab[2L], "wins"),
                     tie = "tie")[bm$winner],
                   levels = c(paste(lab[1L], "wins"), paste(lab[2L], "wins"), "tie"))
  bars <- data.frame(panel = factor(p1, levels = lev), y = rev(seq_len(nb)),
                     d = bm$d, winner = winner, benchmark = bm$benchmark)
  names_cut <- cut_middle(bytes_safe(as.character(bm$benchmark)))
  cols <- stats::setNames(c(unname(plot_colours), "grey65"), levels(winner))
  mark <- if (!is.null(r_speedup) && is.finite(r_speedup)) r_speedup else x$speedup
  gg <- ggplot2::ggplot() +
    ggplot2::geom_rect(data = bars,
                       ggplot2::aes(xmin = pmin(0, .data$d), xmax = pmax(0, .data$d),
                                    ymin = .data$y - 0.38, ymax = .data$y + 0.38,
                                    fill = .data$winner)) +
    ggplot2::geom_vline(data = data.frame(panel = factor(p1, levels = lev), x = 0),
                        ggplot2::aes(xintercept = .data$x), colour = "grey20") +
    # a tie has d = 0: a mark on the axis, so that the benchmark is seen
    ggplot2::geom_point(data = bars[bars$d %in% 0, , drop = FALSE],
                        ggplot2::aes(x = 0, y = .data$y), shape = 15, size = 1.8,
                        colour = "grey65") +
    # the confidence axis from 0 to 1 whatever the curve reaches
    ggplot2::geom_blank(data = data.frame(panel = factor(p2, levels = lev),
                                          x = 1, y = c(0, 1)),
                        ggplot2::aes(x = .data$x, y = .data$y)) +
    ggplot2::geom_step(data = cbind(panel = factor(p2, levels = lev), curve),
                       ggplot2::aes(x = .data$gamma, y = .data$confidence)) +
    ggplot2::geom_hline(data = data.frame(panel = factor(p2, levels = lev),
                                          y = x$conf_level),
                        ggplot2::aes(yintercept = .data$y), linetype = 2,
                        colour = "grey40") +
    ggplot2::geom_vline(data = data.frame(panel = factor(p2, levels = lev), x = mark),
                        ggplot2::aes(xintercept = .data$x),
                        linetype = if (is.null(r_speedup)) 3 else 1,
                        colour = if (is.null(r_speedup)) "grey40" else "#009E73") +
    ggplot2::facet_wrap(~panel, scales = "free", ncol = 2L) +
    ggplot2::scale_fill_manual(values = cols, name = NULL, drop = FALSE) +
    # the benchmarks' names on the axis of the differences (outside the
    # panel: never clipped, never over a bar), the confidence 0 to 1 on the
    # other panel's
    ggplot2::scale_y_continuous(breaks = function(lim) {
      if (lim[2L] <= 1.05) seq(0, 1, 0.25) else seq_len(nb)
    }, labels = function(b) {
      if (any(b %in% 0) || any(b != round(b), na.rm = TRUE)) return(format(b))
      names_cut[nb - b + 1L]
    }, expand = ggplot2::expansion(add = c(0.02, 0.02))) +
    ggplot2::labs(
      title = sprintf("Hierarchical Performance Test: %s against %s", lab[1L], lab[2L]),
      subtitle = sprintf("dashed: level %s; %s", format(x$conf_level),
                         if (is.null(r_speedup))
                           sprintf("dotted: speedup tested, %s", format(x$speedup, digits = 6))
                         else sprintf("green: the %s-Speedup %s", format(x$conf_level),
                                      format(r_speedup))),
      x = NULL, y = NULL) +
    ggplot2::theme_bw() +
    ggplot2::theme(legend.position = "top",
                   panel.grid.minor = ggplot2::element_blank(),
                   axis.text.y = ggplot2::element_text(size = max(4, min(8, 300 / nb))))
  gg
}

# Labels cut in the middle to at most `n` characters ("a_rath...me_12"), so
# that labels differing only at their end stay distinct.
cut_middle <- function(labels, n = 28L) {
  w <- nchar(labels)
  long <- w > n
  head <- ceiling((n - 3L) / 2)
  labels[long] <- paste0(substr(labels[long], 1L, head), "...",
                         substr(labels[long], w[long] - (n - 3L - head) + 1L, w[long]))
  labels
}
