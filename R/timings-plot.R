# plot() of speedup_timings: per benchmark, the runs of each version in the
# order they were recorded, and beside them the distribution of each
# version's run times.  The geometry is computed once (timings_plot_data())
# and drawn by plot() with base graphics and by autoplot() with ggplot2.

# Colours of the versions: Okabe-Ito, the first two those of the verdict
# plots (initial and transformed code).
version_colours <- function(k) {
  pal <- c("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9",
           "#000000", "#F0E442")
  if (k <= length(pal)) return(pal[seq_len(k)])
  c(pal, grDevices::hcl.colors(k - length(pal), "Dark 3"))
}

# The benchmarks to draw, as given or all of them in their order of first
# appearance.
timings_plot_benchmarks <- function(x, benchmarks) {
  all <- unique(as.character(x$benchmark))
  if (is.null(benchmarks)) return(all)
  benchmarks <- check_names(benchmarks, "benchmarks", "benchmark names")
  bad <- setdiff(benchmarks, all)
  if (length(bad)) {
    abort(sprintf("`benchmarks` names %s, not in the timings (which hold %s).",
                  paste0('"', bad, '"', collapse = ", "),
                  paste0('"', utils::head(all, 5L), '"', collapse = ", ")),
          class = "argument")
  }
  unique(benchmarks)
}

# Per benchmark: the points (runs at x = their position in the recorded
# order), the outline of each version's distribution (a density of the run
# times turned on its side, a violin, at x beyond the last run), each
# version's median, and where the runs end and the distributions begin.
timings_plot_data <- function(x, benchmarks = NULL) {
  bms <- timings_plot_benchmarks(x, benchmarks)
  lev <- levels(x$version)
  k <- length(lev)
  pts <- violins <- meds <- panels <- list()
  for (b in bms) {
    d <- x[x$benchmark == b, , drop = FALSE]
    d <- d[is.finite(d$time), , drop = FALSE]
    vers <- lev[lev %in% as.character(d$version)]
    last <- max(c(d$run, 1L), na.rm = TRUE)
    span <- max(last - 1, 1)
    # the distributions share 45% of the run axis after a gap of 6%
    width <- 0.45 * span / max(length(vers), 1L)
    start <- last + 0.06 * span
    pts[[b]] <- data.frame(benchmark = b, version = as.character(d$version),
                           x = as.double(d$run), time = d$time,
                           stringsAsFactors = FALSE)
    panels[[b]] <- data.frame(benchmark = b, last_run = last,
                              separator = last + 0.03 * span,
                              xmax = start + length(vers) * width,
                              stringsAsFactors = FALSE)
    for (i in seq_along(vers)) {
      t <- d$time[d$version == vers[i]]
      centre <- start + (i - 0.5) * width
      half <- 0.42 * width
      med <- stats::median(t)
      meds[[paste(b, vers[i])]] <- data.frame(
        benchmark = b, version = vers[i], x = centre - half, xend = centre + half,
        time = med, stringsAsFactors = FALSE)
      if (length(t) >= 2L && diff(range(t)) > 0) {
        den <- stats::density(t, n = 96L, cut = 1)
        y <- den$y / max(den$y) * half
        shape <- data.frame(benchmark = b, version = vers[i],
                            x = c(centre - y, rev(centre + y)),
                            time = c(den$x, rev(den$x)),
                            stringsAsFactors = FALSE)
      } else {
        # one run, or runs all equal: a flat line at the value
        shape <- data.frame(benchmark = b, version = vers[i],
                            x = c(centre - half, centre + half),
                            time = c(med, med), stringsAsFactors = FALSE)
      }
      violins[[paste(b, vers[i])]] <- shape
    }
  }
  bind <- function(l) {
    out <- do.call(rbind, unname(l))
    if (!is.null(out)) rownames(out) <- NULL
    out
  }
  pts <- bind(pts)
  violins <- bind(violins)
  meds <- bind(meds)
  # the versions keep their order (factor levels) in every layer
  for (nm in c("pts", "violins", "meds")) {
    df <- get(nm)
    df$version <- factor(df$version, levels = lev)
    df$benchmark <- factor(df$benchmark, levels = bms)
    assign(nm, df)
  }
  panels <- bind(panels)
  panels$benchmark <- factor(panels$benchmark, levels = bms)
  list(points = pts, violins = violins, medians = meds, panels = panels,
       versions = lev, colours = stats::setNames(version_colours(k), lev),
       global = identical(attr(x, "run_order"), "global"))
}

#' Plot run times: the runs in recorded order and their distributions
#'
#' One panel per benchmark.  On the left of each panel, every run of every
#' version at its position in the order the runs were recorded (the x axis:
#' the run's position among all runs of the benchmark when the versions were
#' interleaved and the source says so, else its index within its version),
#' so that drifts, warm-up and blocks show; on the right, past the dashed
#' line, the distribution of each version's run times, drawn as a violin (a
#' density turned on its side, on the same time axis) with a bar at the
#' median.  The versions have the colours of the legend above the panels
#' (Okabe-Ito, readable with the common colour-vision deficiencies).  The
#' time axis of each panel is its own, in the unit that suits it, and on a
#' log scale when its times span more than a factor of 10 (or as `log`
#' says).  `ggplot2::autoplot()` draws the same panels with ggplot2.
#'
#' @param x A `speedup_timings` object ([read_timings()], [as_timings()],
#'   [measure()]).
#' @param benchmarks The benchmarks to draw (names); `NULL` for all of
#'   them, in their order in `x`.  Twelve panels fit a page.
#' @param log `NULL` (log time axis when the times of a panel span more than
#'   a factor of 10), `TRUE` or `FALSE`.
#' @param ncol Panels per row; `NULL` chooses.
#' @param main Title; `NULL` for a description of what is drawn.
#' @param ... Unused.
#' @return `x`, invisibly.
#' @seealso [plot.speedup_verdict()] for two versions of one benchmark with
#'   the decision.
#' @examples
#' t <- as_timings(cpu_runs)
#' plot(t, benchmarks = c("fft", "matmul", "sort"))
#' @export
plot.speedup_timings <- function(x, benchmarks = NULL, log = NULL, ncol = NULL,
                                 main = NULL, ...) {
  check_object(x)
  if (!nrow(x)) abort("Nothing to plot: the timings hold no run.", class = "data")
  if (!is.null(log)) log <- check_flag(log, "log")
  g <- timings_plot_data(x, benchmarks)
  bms <- levels(g$panels$benchmark)
  nb <- length(bms)
  if (is.null(ncol)) ncol <- if (nb <= 3L) nb else ceiling(sqrt(nb * 0.75))
  ncol <- as.integer(check_whole(ncol, "ncol", min = 1, max = 1e4))
  nrow <- ceiling(nb / ncol)
  if (is.null(main)) {
    main <- "Run times in recorded order (left), and their distributions (right)"
  }
  op <- graphics::par(c("mfrow", "mar", "oma", "mgp", "las", "cex",
                        "cex.axis", "tcl"))
  on.exit(graphics::par(op))
  graphics::par(mfrow = c(nrow, ncol), mar = c(2.1, 3.3, 1.7, 0.6),
                oma = c(1.6, 0.6, 4, 0.2), mgp = c(2, 0.45, 0), las = 1,
                tcl = -0.25)
  # the size of the text stays readable as the panels shrink
  graphics::par(cex = if (nb > 6L) 0.75 else if (nb > 2L) 0.85 else 1)
  graphics::par(cex.axis = 0.85)
  cols <- g$colours
  fill <- grDevices::adjustcolor(cols, alpha.f = 0.35)
  names(fill) <- names(cols)
  for (b in bms) {
    p <- g$points[g$points$benchmark == b, , drop = FALSE]
    vio <- g$violins[g$violins$benchmark == b, , drop = FALSE]
    med <- g$medians[g$medians$benchmark == b, , drop = FALSE]
    pan <- g$panels[g$panels$benchmark == b, , drop = FALSE]
    yr <- range(c(p$time, vio$time))
    ylog <- if (is.null(log)) yr[1L] > 0 && yr[2L] / yr[1L] > 10 else log && yr[1L] > 0
    unit <- time_axis_unit(stats::median(p$time))
    graphics::plot.default(NA, xlim = c(1 - 0.02 * pan$last_run, pan$xmax),
                           ylim = yr, log = if (ylog) "y" else "",
                           xaxt = "n", yaxt = "n", xlab = "", ylab = "")
    yt <- if (ylog) log_axis_ticks(yr) else pretty(yr, n = 4L)
    yt <- yt[yt >= yr[1L] & yt <= yr[2L]]
    graphics::axis(2, at = yt, labels = format(yt / unit$scale, digits = 3,
                                                drop0trailing = TRUE))
    graphics::abline(h = yt, col = "grey92")
    xt <- pretty(c(1, pan$last_run), n = 4L)
    xt <- xt[xt >= 1 & xt <= pan$last_run]
    graphics::axis(1, at = xt, labels = format(xt))
    graphics::abline(v = pan$separator, lty = 2, col = "grey55")
    for (v in g$versions) {
      s <- vio[vio$version == v, , drop = FALSE]
      if (!nrow(s)) next
      graphics::polygon(s$x, s$time, col = fill[[v]], border = cols[[v]])
      m <- med[med$version == v, , drop = FALSE]
      graphics::segments(m$x, m$time, m$xend, m$time, lwd = 2, col = "grey10")
    }
    for (v in g$versions) {
      q <- p[p$version == v, , drop = FALSE]
      graphics::points(q$x, q$time, pch = 16, cex = 0.7, col = cols[[v]])
    }
    title <- sprintf("%s (%s)", bytes_safe(b), unit$name)
    width <- graphics::par("pin")[1L]
    graphics::mtext(title, side = 3, line = 0.3, font = 2,
                    cex = fit_cex(title, width, cex = graphics::par("cex"),
                                  min_cex = 0.5, font = 2))
  }
  xl <- if (g$global) "position of the run among all runs of the benchmark"
        else "run, in recorded order, within its version"
  graphics::mtext(paste0(xl, "; then each version's distribution, median marked"),
                  side = 1, outer = TRUE, line = 0.4, cex = 0.8)
  graphics::mtext(main, side = 3, outer = TRUE, line = 2.6, font = 2,
                  cex = fit_cex_outer(main, 1.05))
  # the legend of the versions, across the top
  graphics::par(mfrow = c(1, 1), mar = c(0, 0, 0, 0), new = TRUE)
  graphics::plot.new()
  graphics::plot.window(c(0, 1), c(0, 1))
  # a line above the panels (the inner region), below the title
  top <- graphics::grconvertY(1, "nic", "ndc") +
    1.2 * graphics::par("csi") / graphics::par("din")[2L]
  graphics::legend(0.5, graphics::grconvertY(top, "ndc", "user"),
                   legend = paste0(g$versions, "  "), col = cols, pch = 16, pt.cex = 1.2,
                   horiz = TRUE, bty = "n", xjust = 0.5, yjust = 0.5, xpd = NA,
                   cex = 0.85, x.intersp = 0.6, text.width = NA)
  invisible(x)
}

# The size at which `text` fits the device's width (outer margin text).
fit_cex_outer <- function(text, cex) {
  w <- graphics::strwidth(text, units = "inches", cex = cex, font = 2)
  avail <- graphics::par("din")[1L] - 0.4
  if (w <= avail) cex else max(0.6, cex * avail / w)
}
