# plot() of a speedup_suite: per benchmark the speedup and its interval.

#' Plot the speedups of a suite
#'
#' Draws, per benchmark, the speedup of the median (or of the mean) as a
#' point and, as a horizontal bar, the protocol's interval for the speedup
#' (Hodges-Lehmann on log times for the median, whose point is the
#' Hodges-Lehmann estimate; Fieller for the mean, whose point is the ratio
#' of the means; the observed ratio where there is no interval).  The
#' interval is two-sided at 1 - 2 alpha: each end is the one-sided 1 - alpha
#' bound that matches the one-sided decisions.  The log scale puts a speedup
#' and the slowdown of the same size at the same distance from the dotted
#' line of no change.  The mark of each point is its decision, in the words
#' every print uses: a filled point a significant speedup, a filled square a
#' significant slowdown, an open point no significant difference, a cross
#' insufficient data.  The legend above the panel says what the marks and
#' the bars are.
#'
#' @param x A [speedup_suite()] result.
#' @param which The protocol whose speedups are shown: one the suite ran
#'   (see [speeduptest_protocols]); `NULL`: the median's when it ran.
#' @param main,xlab Title and axis label.
#' @param ... Passed to [graphics::plot.default()].
#' @return `x`, invisibly.
#' @examples
#' set.seed(2)
#' suite <- lapply(1:5, function(i) list(x = rlnorm(35, log(2)), y = rlnorm(35, log(1.8))))
#' names(suite) <- paste0("bench", 1:5)
#' plot(speedup_suite(suite))
#' @export
plot.speedup_suite <- function(x, which = NULL, main = NULL,
                               xlab = NULL, ...) {
  check_object(x)
  which <- check_suite_protocol(which, x)
  bm <- x$benchmarks
  if (!is.null(bm$benchmark)) bm$benchmark <- bytes_safe(as.character(bm$benchmark))
  nb <- nrow(bm)
  if (nb == 0L) {
    abort("the suite has no analysed benchmark to plot.", class = "data")
  }
  s <- bm[[paste0("speedup_", protocol_info(which)$centre)]]
  lo <- bm[[paste0(which, "_ci_low")]]
  hi <- bm[[paste0(which, "_ci_high")]]
  # the point is the interval's own estimate where there is an interval
  est <- bm[[paste0(which, "_ci_estimate")]]
  if (!is.null(est)) s <- ifelse(is.na(est), s, est)
  dirn <- bm[[paste0(which, "_direction")]]
  lev <- or_na(bm[[paste0(which, "_ci_level")]], bm[[paste0(which, "_conf_level")]])
  kind <- ifelse(is.na(dirn), "insufficient", dirn)
  method <- interval_method(which)
  lev_txt <- if (length(unique(lev[!is.na(lev)])) == 1L) {
    fmt_pct(unique(lev[!is.na(lev)]))
  } else {
    "per-benchmark"
  }
  all_v <- c(s, lo, hi, 1)
  all_v <- all_v[is.finite(all_v) & all_v > 0]
  rng <- range(all_v)
  rng <- exp(log(rng) + c(-0.05, 0.05) * max(diff(log(rng)), 0.05))
  what <- protocol_info(which)$what
  if (is.null(main)) main <- sprintf("%s, per benchmark", capitalise(what))
  if (is.null(xlab)) xlab <- sprintf("%s (log scale)", what)

  op <- graphics::par(c("mai", "mgp", "las", "cex", "cex.axis", "mfrow"))
  on.exit(graphics::par(op))
  graphics::par(cex.axis = 0.8, mgp = c(2.2, 0.6, 0), las = 1)
  name_w <- max(graphics::strwidth(bm$benchmark, units = "inches",
                                   cex = 0.8)) + 0.2
  name_w <- min(name_w, graphics::par("din")[1L] * 0.35)
  graphics::par(mai = c(1.0, name_w + 0.1, 1.25, 0.25))
  yy <- rev(seq_len(nb))
  graphics::plot.default(s, yy, log = "x", xlim = rng, ylim = c(0.5, nb + 0.5),
                         type = "n", yaxt = "n", xlab = "", ylab = "",
                         main = "", ...)
  graphics::abline(h = yy, col = "grey93")
  graphics::axis(2, at = yy, labels = bm$benchmark, tick = FALSE,
                 cex.axis = row_label_cex(nb + 1L), line = -0.4)
  graphics::abline(v = 1, lty = 3, col = "grey30")
  ok <- is.finite(lo) & is.finite(hi) & lo > 0
  if (any(ok)) {
    graphics::segments(lo[ok], yy[ok], hi[ok], yy[ok], col = "grey35", lwd = 2)
  }
  open_hi <- is.finite(lo) & lo > 0 & is.infinite(hi)
  if (any(open_hi)) {
    graphics::arrows(lo[open_hi], yy[open_hi], rng[2L], yy[open_hi],
                     col = "grey35", lwd = 2, length = 0.06)
  }
  keys <- c("speedup", "slowdown", "none", "equivalent", "insufficient")
  dirs <- c("speedup", "slowdown", "none", "equivalent", NA)
  pch <- stats::setNames(decision_pch(dirs), keys)
  col <- stats::setNames(decision_colour(dirs), keys)
  bg <- stats::setNames(ifelse(pch %in% 21:25, "white", NA), keys)
  s0 <- x$min_speedup
  if (!is.null(s0) && s0 > 1) {
    graphics::abline(v = c(1 / s0, s0), lty = 2, col = "grey55")
  }
  graphics::points(s, yy, pch = pch[kind], col = col[kind], bg = bg[kind],
                   cex = 1.1)
  xl <- xlab
  graphics::mtext(xl, side = 1, line = 2, cex = 0.9)
  # which side is faster, under the axis, either side of 1
  if (rng[1L] < 1 && rng[2L] > 1) {
    graphics::mtext("<- slower  ", side = 1, line = 3.1, at = 1, adj = 1,
                    cex = 0.75, col = "grey30")
    graphics::mtext("  faster ->", side = 1, line = 3.1, at = 1, adj = 0,
                    cex = 0.75, col = "grey30")
  }
  # the legend sits in the top margin, where it hides no benchmark
  shown <- keys[keys %in% c("speedup", "none", kind)]
  txt <- stats::setNames(decision_words(dirs), keys)
  leg <- c(txt[shown], sprintf("%s interval (%s)", lev_txt, method))
  width <- graphics::par("din")[1L] - 0.3
  fitted_legend(fig_x_centre(), top_margin_y(0.15), width = width,
                xjust = 0.5, yjust = 0, xpd = NA, ncol = 2L, bty = "n",
                legend = leg, pch = c(pch[shown], NA),
                col = c(col[shown], "grey35"), pt.bg = c(bg[shown], NA),
                lty = c(rep(NA, length(shown)), 1),
                lwd = c(rep(NA, length(shown)), 2), seg.len = 1.5,
                x.intersp = 0.6, y.intersp = 0.9, cex = 0.8)
  graphics::mtext(main, side = 3, line = 3.6, font = 2, at = fig_x_centre(),
                  cex = fit_cex(main, width, cex = 1.05, font = 2))
  invisible(x)
}
