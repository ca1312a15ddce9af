# plot() and autoplot() of speedup_warmup: the run-sequence plot of each
# process (its iterations in order, as Barrett et al. 2017 draw them), the
# segments between its change points at their medians, the steady state
# and the outliers.  The geometry is computed once (warmup_plot_data()).

warmup_plot_processes <- function(x, processes) {
  if (is.null(processes)) return(seq_len(min(nrow(x), 6L)))
  if (!is.numeric(processes) || anyNA(processes) || any(processes < 1) ||
      any(processes > nrow(x)) || any(processes != round(processes))) {
    abort(sprintf("`processes` must hold row numbers of the classification (1 to %d), not %s.",
                  nrow(x), describe_value(processes)))
  }
  unique(as.integer(processes))
}

warmup_plot_data <- function(x, processes = NULL) {
  series <- warmup_series(x)
  if (is.null(series) || sum(x$iterations) != nrow(series)) {
    abort("Nothing to plot: the classification has lost its iterations (subset it with `processes =` instead).",
          class = "data")
  }
  rows <- warmup_plot_processes(x, processes)
  label <- sprintf("%s / %s%s: %s", bytes_safe(x$benchmark[rows]),
                   bytes_safe(as.character(x$version[rows])),
                   ifelse(is.na(x$process[rows]), "",
                          paste0(" / ", bytes_safe(x$process[rows]))),
                   as.character(x$class[rows]))
  label <- make.unique(label, sep = " #")
  pts <- segs <- steady <- list()
  for (i in seq_along(rows)) {
    r <- rows[i]
    s <- series[series$row == r, , drop = FALSE]
    pts[[i]] <- data.frame(panel = label[i], iteration = s$iteration,
                           time = s$time, outlier = s$outlier,
                           stringsAsFactors = FALSE)
    n <- x$iterations[r]
    cp <- x$changepoints[[r]]
    from <- c(1L, cp + 1L)
    to <- c(cp, n)
    si <- x$steady_iteration[r]
    segs[[i]] <- data.frame(panel = label[i], from = from, to = to,
                            median = x$segment_medians[[r]],
                            steady = !is.na(si) & from >= si,
                            stringsAsFactors = FALSE)
    if (!is.na(si) && si > 1L) {
      steady[[i]] <- data.frame(panel = label[i], iteration = si,
                                stringsAsFactors = FALSE)
    }
  }
  list(points = do.call(rbind, pts), segments = do.call(rbind, segs),
       steady = if (length(steady)) do.call(rbind, steady) else
         data.frame(panel = character(), iteration = numeric()),
       panels = label)
}

#' Plot a warm-up classification
#'
#' Draws the run-sequence plot of each process: its iterations in the order
#' they ran, the segments between the change points at their medians (blue
#' where the process is steady, orange before), a dashed line at the first
#' steady iteration, and the outliers as red crosses.
#'
#' @param x A `speedup_warmup` object ([warmup_classify()]).
#' @param processes The rows (processes) to draw; the first 6 by default.
#' @param ... Not used.
#' @return `x`, invisibly.
#' @export
plot.speedup_warmup <- function(x, processes = NULL, ...) {
  g <- warmup_plot_data(x, processes)
  k <- length(g$panels)
  nc <- if (k <= 1L) 1L else if (k <= 4L) 2L else 3L
  nr <- ceiling(k / nc)
  op <- graphics::par(mfrow = c(nr, nc), mar = c(3.6, 3.8, 2.2, 0.8),
                      mgp = c(2.2, 0.7, 0), cex = if (k > 1L) 0.8 else 1)
  on.exit(graphics::par(op))
  for (p in g$panels) {
    pt <- g$points[g$points$panel == p, , drop = FALSE]
    sg <- g$segments[g$segments$panel == p, , drop = FALSE]
    graphics::plot(pt$iteration, pt$time, pch = 16, cex = 0.35,
                   col = grDevices::adjustcolor("grey25", 0.55),
                   xlab = "iteration (in-process order)", ylab = "time (s)",
                   main = p, cex.main = 0.9, font.main = 1)
    o <- pt[pt$outlier %in% TRUE, , drop = FALSE]
    if (nrow(o)) graphics::points(o$iteration, o$time, pch = 4, col = "#CC0000", cex = 0.7)
    graphics::segments(sg$from, sg$median, sg$to, sg$median, lwd = 3,
                       col = ifelse(sg$steady, "#0072B2", "#E69F00"))
    st <- g$steady[g$steady$panel == p, , drop = FALSE]
    if (nrow(st)) graphics::abline(v = st$iteration, lty = 2, col = "grey30")
  }
  invisible(x)
}

#' @rdname plot.speedup_warmup
#' @param object A `speedup_warmup` object.
#' @exportS3Method ggplot2::autoplot
autoplot.speedup_warmup <- function(object, processes = NULL, ...) {
  need_ggplot2()
  g <- warmup_plot_data(object, processes)
  lev <- g$panels
  g$points$panel <- factor(g$points$panel, levels = lev)
  g$segments$panel <- factor(g$segments$panel, levels = lev)
  g$steady$panel <- factor(g$steady$panel, levels = lev)
  g$segments$state <- ifelse(g$segments$steady, "steady", "before steady state")
  gg <- ggplot2::ggplot() +
    ggplot2::geom_point(data = g$points,
                        ggplot2::aes(x = .data$iteration, y = .data$time),
                        size = 0.5, colour = "grey35", alpha = 0.6) +
    ggplot2::geom_point(data = g$points[g$points$outlier %in% TRUE, , drop = FALSE],
                        ggplot2::aes(x = .data$iteration, y = .data$time),
                        shape = 4, colour = "#CC0000", size = 1.4) +
    ggplot2::geom_segment(data = g$segments,
                          ggplot2::aes(x = .data$from, xend = .data$to,
                                       y = .data$median, yend = .data$median,
                                       colour = .data$state),
                          linewidth = 1.1) +
    ggplot2::geom_vline(data = g$steady,
                        ggplot2::aes(xintercept = .data$iteration),
                        linetype = 2, colour = "grey30") +
    ggplot2::facet_wrap(~panel, scales = "free") +
    ggplot2::scale_colour_manual(values = c("steady" = "#0072B2",
                                            "before steady state" = "#E69F00"),
                                 name = "segment median") +
    ggplot2::labs(title = "Iterations of each process in the order they ran",
                  x = "iteration (in-process order)", y = "time (s)") +
    ggplot2::theme_bw() +
    ggplot2::theme(legend.position = "top",
                   panel.grid.minor = ggplot2::element_blank())
  gg
}
