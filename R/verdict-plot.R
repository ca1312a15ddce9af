# plot() of a speedup_verdict: the runs in their recorded order (log time
# axis) above the speedup and its interval (log speedup axis).

# Colours of the initial and the transformed code (Okabe-Ito blue and
# vermillion, distinguishable with the common colour-vision deficiencies).
plot_colours <- c(initial = "#0072B2", transformed = "#D55E00")

# The names shown for the two samples: the version names when the verdict has
# them, else "initial (x)" / "transformed (y)" in place of a long deparsed
# expression.
plot_sample_labels <- function(v) {
  lab <- v$labels
  if (is.null(lab) || length(lab) != 2L) lab <- c("", "")
  long <- is.na(lab) | !nzchar(lab) | nchar(lab) > 20L |
    grepl("[][()$\"',=]", lab)
  fallback <- c("initial (x)", "transformed (y)")
  if (any(long) || identical(lab[1L], lab[2L])) lab <- fallback
  lab
}

# Splits `text` into lines no wider than `width` inches at size `cex`
# (words are never cut).  Needs an open device.
wrap_to_width <- function(text, width, cex = 1, font = 1) {
  words <- strsplit(text, " ", fixed = TRUE)[[1L]]
  lines <- character()
  cur <- ""
  for (w in words) {
    cand <- if (nzchar(cur)) paste(cur, w) else w
    if (nzchar(cur) && graphics::strwidth(cand, units = "inches", cex = cex,
                                          font = font) > width) {
      lines <- c(lines, cur)
      cur <- w
    } else {
      cur <- cand
    }
  }
  c(lines, cur)
}

# Shrinks `cex` until `text` fits in `width` inches (not below `min_cex`).
fit_cex <- function(text, width, cex = 1, min_cex = 0.6, font = 1) {
  w <- max(graphics::strwidth(text, units = "inches", cex = cex, font = font))
  if (w <= width) return(cex)
  max(min_cex, cex * width / w)
}

# User y of the middle of margin line `line` below the plot region.
margin_y <- function(line) {
  u <- graphics::par("usr")
  per_inch <- diff(u[3:4]) / graphics::par("pin")[2L]
  y <- u[3L] - (line + 0.5) * graphics::par("csi") * per_inch
  if (graphics::par("ylog")) 10^y else y
}

# User y of a point `line` lines above the plot region (for a linear y axis).
top_margin_y <- function(line) {
  u <- graphics::par("usr")
  per_inch <- diff(u[3:4]) / graphics::par("pin")[2L]
  y <- u[4L] + line * graphics::par("csi") * per_inch
  if (graphics::par("ylog")) 10^y else y
}

# User x of the centre of the current figure region (a panel of a layout).
fig_x_centre <- function() {
  graphics::grconvertX(0.5, from = "nfc", to = "user")
}

# The unit of a time axis: seconds, milliseconds, microseconds or
# nanoseconds, whichever puts a typical time `t` (in seconds) between 1 and
# 1000.  Times without a known unit (costs) are labelled as they are.
time_axis_unit <- function(t) {
  if (!is.finite(t) || t >= 1) return(list(name = "s", scale = 1))
  if (t >= 1e-3) return(list(name = "ms", scale = 1e-3))
  if (t >= 1e-6) return(list(name = "us", scale = 1e-6))
  list(name = "ns", scale = 1e-9)
}

# Ticks for a log axis over `r`: evenly spaced round numbers when the range
# is narrow (where the default log axis shows only one or two ticks), the
# default ticks of the current log axis otherwise.
log_axis_ticks <- function(r) {
  if (r[2L] / r[1L] < 20) {
    t <- pretty(r, n = 5L)
    t <- t[t > 0 & t >= r[1L] * 0.98 & t <= r[2L] * 1.02]
    if (length(t) >= 3L) return(t)
  }
  graphics::axTicks(2L)
}

# Text size for one label per row of `n` rows in the current plot region,
# so that none overlaps (axis() silently drops labels that would).
row_label_cex <- function(n, cex = 0.8) {
  row_h <- graphics::par("pin")[2L] / max(n, 1L)
  min(cex, 0.9 * row_h / graphics::par("csi"))
}

# Draws a legend centred at (x, y) in user coordinates, shrinking its text
# until it is no wider than `width` inches.
fitted_legend <- function(x, y, width, cex = 0.85, min_cex = 0.55, ...) {
  per_inch <- diff(graphics::par("usr")[1:2]) / graphics::par("pin")[1L]
  repeat {
    r <- graphics::legend(x, y, cex = cex, plot = FALSE, ...)
    w <- r$rect$w  # in log10 units on a log axis, like usr
    if (w / per_inch <= width || cex <= min_cex) break
    cex <- cex - 0.05
  }
  graphics::legend(x, y, cex = cex, ...)
}

# What the run-order checks (when the verdict has them) flagged, as short
# phrases; character() when nothing was flagged.
run_order_flags <- function(v, labels) {
  ro <- v$run_order
  if (is.null(ro) || !isTRUE(ro$trend)) return(character())
  out <- character()
  for (i in 1:2) {
    ht <- ro[[c("x", "y")[i]]]
    p <- if (is.list(ht)) ht$p.value else NULL
    if (is.numeric(p) && length(p) == 1L && !is.na(p) && p <= run_order_level) {
      way <- if (is.numeric(ht$estimate) && length(ht$estimate) == 1L &&
                 !is.na(ht$estimate)) {
        if (ht$estimate > 0) "slower" else "faster"
      }
      out <- c(out, sprintf("the runs of %s %s (Mann-Kendall p = %s)", labels[i],
                            if (is.null(way)) "drift"
                            else sprintf("get %s over time", way),
                            fmt_p(p)))
    }
  }
  il <- ro$interleaving
  if (is.list(il) && isFALSE(il$interleaved)) {
    out <- c(out, "the versions were measured in blocks, not interleaved")
  }
  if (!length(out)) out <- "trend or non-interleaving flagged"
  out
}

# The positions of the runs on the x axis: the global positions when the
# verdict knows them, else 1, 2, ... within each sample.
run_positions <- function(v) {
  pos <- v$run_order$positions
  if (is.list(pos) && length(pos$x) == length(v$x) &&
      length(pos$y) == length(v$y)) {
    return(list(x = as.numeric(pos$x), y = as.numeric(pos$y), global = TRUE))
  }
  list(x = seq_along(v$x), y = seq_along(v$y), global = FALSE)
}

#' Plot a Speedup-Test verdict
#'
#' Two panels.  Above, every run time of both versions in the order the runs
#' were recorded (x axis: the run's position in the global order of the runs
#' when the verdict knows it, else its index within its sample), on a log
#' time axis, with each version's centre (its mean for [mean_test()], its
#' median for [median_test()]) as a dashed line; when the run-order checks
#' flagged a trend or versions that were not interleaved, the flag is written
#' above the runs and a smooth (lowess) curve follows each sample.  Below, the
#' speedup on a log scale: the verdict's interval for the speedup as a bar
#' with its own estimate as a diamond (the ratio of the means for the mean,
#' the Hodges-Lehmann estimate on log times for the median), the observed
#' ratio of the centres as an open circle when it differs, labelled with the
#' interval's level (`1 - 2 alpha`: each end a one-sided `1 - alpha` bound)
#' and method; the dotted line marks no change.  The title is the decision,
#' in the words of every print.
#'
#' @param x A `speedup_verdict` from [mean_test()] or [median_test()].
#' @param main Title; `NULL` for the verdict's decision.
#' @param ... Passed to [graphics::plot.default()] for the panel of the runs.
#' @return `x`, invisibly.
#' @seealso [speedup_verdict] for the other methods.
#' @examples
#' set.seed(4)
#' v <- median_test(rlnorm(40, log(10), 0.1), rlnorm(40, log(9), 0.1))
#' plot(v)
#' @export
plot.speedup_verdict <- function(x, main = NULL, ...) {
  v <- x
  if (is.list(v) && isTRUE(v$n + v$m == 0L)) {
    abort("Nothing to plot: both samples are empty.", class = "data")
  }
  check_object(x, "x")
  labels <- plot_sample_labels(v)
  cols <- unname(plot_colours)
  pos <- run_positions(v)
  centre_name <- verdict_protocol(v)$centre
  centre <- verdict_protocol(v)$centre_fun
  cen <- c(if (v$n) centre(v$x) else NA_real_,
           if (v$m) centre(v$y) else NA_real_)
  flags <- run_order_flags(v, labels)
  if (is.null(main)) main <- verdict_plot_title(v)

  op <- graphics::par(c("mai", "mgp", "las", "cex", "cex.axis", "mfrow"))
  on.exit(graphics::par(op))
  graphics::layout(matrix(1:2, ncol = 1L), heights = c(1, graphics::lcm(4.2)))
  width <- graphics::par("din")[1L] - 0.3

  # ---- the runs ----
  top <- 3.3 + 0.9 * length(flags)
  graphics::par(mar = c(3.4, 4.3, top, 1.2), mgp = c(2.2, 0.6, 0),
                las = 1, cex.axis = 0.85)
  times <- c(v$x, v$y)
  unit <- time_axis_unit(stats::median(times))
  xr <- range(c(pos$x, pos$y))
  graphics::plot.default(NA, xlim = xr, ylim = range(times), log = "y",
                         xlab = v$plot_xlab %||% (if (pos$global) "position of the run in the recorded order"
                                else "run (in recorded order)"),
                         ylab = sprintf("%s, %s (log scale)", v$plot_ylab %||% "run time", unit$name),
                         yaxt = "n", ...)
  yt <- log_axis_ticks(range(times))
  graphics::axis(2, at = yt, labels = format(yt / unit$scale, digits = 3,
                                              drop0trailing = TRUE))
  graphics::abline(h = yt, col = "grey90")
  samples <- list(v$x, v$y)
  at <- list(pos$x, pos$y)
  for (i in 1:2) {
    if (!length(samples[[i]])) next
    graphics::points(at[[i]], samples[[i]], pch = c(16, 17)[i], col = cols[i],
                     cex = 0.8)
    if (length(flags) && length(samples[[i]]) >= 4L) {
      sm <- stats::lowess(at[[i]], samples[[i]])
      graphics::lines(sm, col = cols[i], lwd = 1.5)
    }
    graphics::abline(h = cen[i], col = cols[i], lty = 2, lwd = 1.5)
  }
  # the legend sits just above the plot box, clear of the runs
  fitted_legend(fig_x_centre(), top_margin_y(0.1), width = width,
                xjust = 0.5, yjust = 0, xpd = NA, horiz = TRUE, bty = "n",
                legend = paste0(c(labels, sprintf("%s of each", centre_name),
                                  if (length(flags)) "smooth (lowess)"),
                                "    "),
                pch = c(16, 17, NA, if (length(flags)) NA),
                lty = c(NA, NA, 2, if (length(flags)) 1),
                col = c(cols, "grey30", if (length(flags)) "grey30"),
                x.intersp = 0.6, seg.len = 1.5, text.width = NA)
  if (length(flags)) {
    ft <- paste0("Run order: ", paste(flags, collapse = "; "))
    fl <- wrap_to_width(ft, width, cex = 0.8)
    graphics::mtext(fl, side = 3, line = 1.4 + rev(seq_along(fl) - 1) * 0.9,
                    at = fig_x_centre(),
                    cex = 0.8, col = "#B00000")
  }
  graphics::mtext(main, side = 3, line = top - 1.3, font = 2, at = fig_x_centre(),
                  cex = fit_cex(main, width, cex = 1.05, font = 2))

  # ---- the speedup ----
  graphics::par(mar = c(3.2, 4.3, 1.6, 1.2), mgp = c(2, 0.6, 0))
  ci <- v$speedup_ci
  have_ci <- length(ci) == 2L && !anyNA(ci)
  # the point drawn on the interval is the interval's own estimate; the
  # observed ratio, when it differs, is an open circle
  observed <- v$speedup
  s <- if (have_ci && !is.na(or_na(attr(ci, "estimate"), NA_real_)))
    attr(ci, "estimate") else observed
  # the finite, positive ends of the interval set the scale; an end at 0 or
  # Inf (Fieller's unbounded interval) is drawn as an arrow to the edge
  ends <- if (have_ci) ci[is.finite(ci) & ci > 0] else numeric()
  s0 <- if (is.null(v$min_speedup)) 1 else v$min_speedup
  vals <- c(s, observed, ends, 1, if (s0 > 1) c(1 / s0, s0))
  vals <- vals[is.finite(vals) & vals > 0]
  rng <- range(vals)
  rng <- exp(log(rng) + c(-0.08, 0.08) * max(diff(log(rng)), 0.05))
  graphics::plot.default(NA, xlim = rng, ylim = c(0, 1), log = "x", yaxt = "n",
                         xlab = sprintf("speedup of the %s (log scale)",
                                        centre_name), ylab = "")
  graphics::abline(v = 1, lty = 3, col = "grey40")
  if (s0 > 1) {
    # the tolerance: changes inside these lines do not matter
    graphics::rect(1 / s0, -1, s0, 2, col = "#00000010", border = NA)
    graphics::abline(v = c(1 / s0, s0), lty = 2, col = "grey55")
    graphics::text(s0, 0.15, sprintf("tolerance %s", fmt_change(s0)),
                   cex = 0.7, col = "grey35", pos = 4, offset = 0.2)
  }
  right_half <- log(1) > mean(log(rng))
  graphics::text(1, 0.85, "no change", cex = 0.75, col = "grey40",
                 pos = if (right_half) 2 else 4, offset = 0.2)
  if (have_ci) {
    u <- graphics::par("usr")
    lo_open <- !(is.finite(ci[1L]) && ci[1L] > 0)
    hi_open <- !is.finite(ci[2L])
    lo <- if (lo_open) 10^u[1L] else ci[1L]
    hi <- if (hi_open) 10^u[2L] else ci[2L]
    graphics::segments(lo, 0.45, hi, 0.45, lwd = 2, col = "grey25")
    for (k in 1:2) {
      open <- c(lo_open, hi_open)[k]
      at <- c(lo, hi)[k]
      if (open) {
        graphics::arrows(if (k == 1L) hi else lo, 0.45, at, 0.45, angle = 25,
                         length = 0.09, lwd = 2, col = "grey25")
      } else {
        graphics::segments(at, 0.37, at, 0.53, lwd = 2, col = "grey25")
      }
    }
  }
  if (is.finite(observed) && observed > 0 && !identical(observed, s)) {
    graphics::points(observed, 0.45, pch = 1, cex = 1.3, col = "grey35")
  }
  if (is.finite(s) && s > 0) graphics::points(s, 0.45, pch = 18, cex = 1.6)
  graphics::mtext(speedup_plot_label(v), side = 3, line = 0.4, at = fig_x_centre(),
                  cex = fit_cex(speedup_plot_label(v), width, cex = 0.85))
  if (!have_ci && !is.finite(s)) {
    graphics::text(sqrt(prod(rng)), 0.45, "no speedup to show", col = "grey40")
  }
  invisible(x)
}

verdict_plot_title <- function(v) {
  what <- verdict_protocol(v)$plot_title
  s0 <- if (is.null(v$min_speedup)) 1 else v$min_speedup
  found <- compare_words(v$direction, s0)
  if (is.na(v$direction)) return(sprintf("%s: %s", what, found))
  sure <- v$direction %in% c("speedup", "slowdown", "equivalent") &&
    !isTRUE(v$confidence_guaranteed)
  sprintf("%s: %s (%s confidence%s)", what, found, fmt_pct(v$confidence),
          if (sure) ", not guaranteed" else "")
}

# "speedup 1.16 [1.11, 1.20] (Hodges-Lehmann on log times, 90% interval);
#  observed ratio of the medians 1.15 (circle)"
speedup_plot_label <- function(v) {
  what <- verdict_observed_name(v)
  ci <- v$speedup_ci
  est <- or_na(attr(ci, "estimate"), NA_real_)
  if (length(ci) != 2L || anyNA(ci) || is.na(est)) {
    return(sprintf("%s %s; no interval", what, fmt_num(v$speedup)))
  }
  out <- sprintf("speedup %s (%s; %s)", fmt_estimate_ci(est, ci),
                 attr(ci, "estimator"),
                 interval_words(v$test, attr(ci, "conf.level")))
  if (fmt_num(est) != fmt_num(v$speedup)) {
    out <- sprintf("%s; observed %s %s (circle)", out, what, fmt_num(v$speedup))
  }
  out
}
