# plot() of the Hierarchical Performance Test: the per-benchmark differences
# d beside the confidence as a function of the speedup under test.

#' Plot a Hierarchical Performance Test
#'
#' Two panels.  Left, each benchmark's difference of medians d (the
#' "Diff. (d)" column of the printed table: positive when the first machine
#' wins, coloured by the statistical winner, as in "Stat. Win."), at the
#' speedup the test was run with.  Right, the confidence of the claim "A is
#' more than gamma times faster than B" as gamma grows, with the confidence
#' level asked for (dashed) and the speedup tested (dotted); for an
#' [hpt_speedup()] result the r-Speedup is marked too.  The machines are
#' named as in the data.
#'
#' @param x An object returned by [hpt()] or [hpt_speedup()].
#' @param gamma Values of the speedup at which `plot()` draws the confidence;
#'   `NULL` chooses a grid from 1 to beyond the largest ratio of medians.
#' @param ... Unused.
#' @return A data frame with the columns `gamma` and `confidence`,
#'   invisibly.
#' @examples
#' plot(hpt(splash2_hpt, higher_is_better = TRUE))
#' @export
plot.speeduptest_hpt <- function(x, gamma = NULL, ...) {
  check_object(x, "x")
  hpt_plot(x, gamma = gamma)
}

#' @rdname plot.speeduptest_hpt
#' @export
plot.speeduptest_hpt_speedup <- function(x, gamma = NULL, ...) {
  if (is.null(x$test)) {
    abort("Nothing to plot: no finite r-Speedup was found.", class = "data")
  }
  hpt_plot(x$test, gamma = gamma, r_speedup = x$speedup)
}

hpt_plot <- function(x, gamma = NULL, r_speedup = NULL) {
  bm <- x$benchmarks
  if (!is.null(bm$benchmark)) bm$benchmark <- bytes_safe(as.character(bm$benchmark))
  data <- x$data
  lab <- x$labels
  curve <- hpt_confidence_curve(x, gamma)
  gamma <- curve$gamma
  conf <- curve$confidence

  op <- graphics::par(c("mai", "mgp", "las", "cex", "cex.axis", "mfrow"))
  on.exit(graphics::par(op))
  graphics::layout(matrix(1:2, nrow = 1L), widths = c(1, 1))
  cols <- c(A = unname(plot_colours[1L]), B = unname(plot_colours[2L]),
            tie = "grey65")
  panel_w <- graphics::par("din")[1L] / 2

  # ---- left: the differences d, one horizontal bar per benchmark ----
  graphics::par(cex = 1, cex.axis = 0.8, mgp = c(2.2, 0.6, 0), las = 1)
  nb <- nrow(bm)
  # the labels' size from the height each benchmark gets, then their width
  lab_cex <- min(0.8, 0.9 * (graphics::par("din")[2L] - 1.9) / max(nb, 1L) /
                   graphics::par("csi"))
  short <- fit_labels(bm$benchmark, panel_w * 0.45, lab_cex)
  name_w <- max(graphics::strwidth(short, units = "inches", cex = lab_cex)) + 0.15
  graphics::par(mai = c(1.15, name_w + 0.1, 0.75, 0.15))
  yy <- rev(seq_len(nb))
  d <- bm$d
  xr <- range(c(d, 0), na.rm = TRUE)
  if (diff(xr) == 0) {
    # every d is 0 (all ties): an axis in the units of the medians
    xr <- c(-0.1, 0.1) * max(abs(c(bm$median_a, bm$median_b)), 1e-300)
  }
  xr <- xr + c(-0.04, 0.04) * diff(xr)
  graphics::plot.default(NA, xlim = xr, ylim = c(0.4, nb + 0.6), yaxt = "n",
                         xlab = "", ylab = "")
  graphics::rect(pmin(0, d), yy - 0.38, pmax(0, d), yy + 0.38,
                 col = cols[bm$winner], border = NA)
  graphics::abline(v = 0, col = "grey20")
  # a tie has d = 0: a mark on the axis, so that the benchmark is seen
  tie <- d == 0
  if (any(tie)) {
    graphics::points(rep(0, sum(tie)), yy[tie], pch = 15, cex = 0.9,
                     col = cols[["tie"]])
  }
  graphics::axis(2, at = yy, labels = short, tick = FALSE,
                 cex.axis = min(lab_cex, row_label_cex(nb + 0.2)), line = -0.4)
  xl <- sprintf("Diff. (d): > 0 when %s wins", lab[1L])
  graphics::mtext(xl, side = 1, line = 2, at = fig_x_centre(),
                  cex = fit_cex(xl, panel_w - 0.3, cex = 0.85))
  leg <- c(paste(lab[1L], "wins"), paste(lab[2L], "wins"), "tie")
  fitted_legend(fig_x_centre(), margin_y(3.2), width = panel_w - 0.2,
                xjust = 0.5, yjust = 0.5, xpd = NA, horiz = TRUE, bty = "n",
                cex = 0.8, legend = leg, fill = cols, border = NA,
                x.intersp = 0.5)
  t1 <- "Per-benchmark difference d"
  t2 <- if (x$speedup == 1) sprintf("%s against %s", lab[1L], lab[2L]) else
    sprintf("%s handicapped by %s against %s", lab[1L],
            format(x$speedup, digits = 6), lab[2L])
  graphics::mtext(t1, side = 3, at = fig_x_centre(), line = 1.5, font = 2,
                  cex = fit_cex(t1, panel_w - 0.2, cex = 1, font = 2))
  graphics::mtext(t2, side = 3, at = fig_x_centre(), line = 0.4,
                  cex = fit_cex(t2, panel_w - 0.2, cex = 0.8))

  # ---- right: the confidence as a function of gamma ----
  graphics::par(mai = c(1.15, 0.75, 0.75, 0.2))
  graphics::plot.default(gamma, conf, type = "s", ylim = c(0, 1),
                         xlab = "", ylab = "", lwd = 1.5)
  graphics::mtext("confidence", side = 2, line = 2.4, las = 0, cex = 0.9)
  gl <- "speedup under test (gamma)"
  graphics::mtext(gl, side = 1, line = 2, cex = 0.85, at = fig_x_centre())
  graphics::abline(h = x$conf_level, lty = 2, col = "grey40")
  marks <- sprintf("level %s", format(x$conf_level))
  mlty <- 2
  mcol <- "grey40"
  if (!is.null(r_speedup) && is.finite(r_speedup)) {
    graphics::abline(v = r_speedup, lty = 1, col = "#009E73")
    marks <- c(marks, sprintf("%s-Speedup %s", format(x$conf_level),
                              format(r_speedup)))
    mlty <- c(mlty, 1)
    mcol <- c(mcol, "#009E73")
  } else {
    graphics::abline(v = x$speedup, lty = 3, col = "grey40")
    marks <- c(marks, sprintf("tested: %s", format(x$speedup, digits = 6)))
    mlty <- c(mlty, 3)
    mcol <- c(mcol, "grey40")
  }
  fitted_legend(fig_x_centre(), margin_y(3.2), width = panel_w - 0.2,
                xjust = 0.5, yjust = 0.5, xpd = NA, horiz = length(marks) < 3L,
                ncol = if (length(marks) < 3L) 1L else 2L, bty = "n",
                cex = 0.8, legend = marks, lty = mlty, col = mcol,
                seg.len = 1.5, x.intersp = 0.5)
  t3 <- "Confidence of the claim"
  t4 <- sprintf("%s is more than gamma times faster than %s", lab[1L], lab[2L])
  graphics::mtext(t3, side = 3, at = fig_x_centre(), line = 1.5, font = 2,
                  cex = fit_cex(t3, panel_w - 0.2, cex = 1, font = 2))
  graphics::mtext(t4, side = 3, at = fig_x_centre(), line = 0.4,
                  cex = fit_cex(t4, panel_w - 0.2, cex = 0.8))
  invisible(data.frame(gamma = gamma, confidence = conf))
}

# Labels shortened in the middle ("a_rather...name_12") to at most `width`
# inches at size `cex`, so that labels differing only at their end stay
# distinct.
fit_labels <- function(labels, width, cex) {
  vapply(labels, function(l) {
    if (graphics::strwidth(l, units = "inches", cex = cex) <= width) return(l)
    n <- nchar(l)
    for (keep in seq(n - 1L, 2L)) {
      head <- ceiling(keep / 2)
      cand <- paste0(substr(l, 1L, head), "...",
                     substr(l, n - (keep - head) + 1L, n))
      if (graphics::strwidth(cand, units = "inches", cex = cex) <= width) {
        return(cand)
      }
    }
    substr(l, 1L, 3L)
  }, "", USE.NAMES = FALSE)
}

# The confidence of the HPT claim at each gamma (drawn by plot() and autoplot()).
hpt_confidence_curve <- function(x, gamma = NULL) {
  bm <- x$benchmarks
  data <- x$data
  if (is.null(gamma)) {
    s <- x$speedup
    raw_a <- if (x$higher_is_better) bm$median_a * s else bm$median_a / s
    ratio <- if (x$higher_is_better) raw_a / bm$median_b else bm$median_b / raw_a
    hi <- max(c(ratio, s, 1.1), na.rm = TRUE) * 1.1
    gamma <- seq(1, hi, length.out = 200L)
  } else {
    gamma <- check_positive_numbers(gamma, "gamma")
  }
  conf <- vapply(gamma, function(g) {
    .Call(ffi_hpt, data$a, data$a_len, data$b, data$b_len,
          x$higher_is_better, x$alpha_bench, as.double(g),
          x$exact_ties)$confidence
  }, numeric(1))
  data.frame(gamma = gamma, confidence = conf)
}
