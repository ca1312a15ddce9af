# The pictures of the report site (report-site.R), written as SVG text.
#
# They are the package's plots of timings and of a history series drawn
# again as SVG elements, with the same geometry and colours
# (timings_plot_data(), plot.speedup_history_series()): an SVG document is a
# string, so thousands of them cost a few seconds where a graphics device
# per picture would cost minutes, and they stay sharp at any zoom.  Every
# text that comes from the data passes through esc_html().  Each picture
# has a <title> and a role="img" with an aria-label (its text alternative).

# A number as SVG coordinates (two decimals, no exponent).
svg_num <- function(v) sprintf("%.1f", v)

# The frame of a plot: width and height in pixels, the margins (left,
# right, top, bottom) and the ranges of the data on each axis; returns the
# functions that map data to pixels.
svg_frame <- function(xr, yr, width = 640, height = 300,
                      mar = c(64, 16, 30, 42)) {
  if (!all(is.finite(xr)) || diff(xr) <= 0) xr <- mean(xr[is.finite(xr)] %||% 0) + c(-1, 1)
  if (!all(is.finite(yr)) || diff(yr) <= 0) {
    mid <- mean(yr[is.finite(yr)])
    if (!is.finite(mid)) mid <- 1
    yr <- mid * c(0.99, 1.01) + c(-1e-12, 1e-12)
  }
  pad <- 0.04 * diff(yr)
  yr <- yr + c(-pad, pad)
  list(width = width, height = height, mar = mar, xr = xr, yr = yr,
       px = function(x) mar[1L] + (x - xr[1L]) / diff(xr) * (width - mar[1L] - mar[2L]),
       py = function(y) height - mar[4L] - (y - yr[1L]) / diff(yr) * (height - mar[3L] - mar[4L]))
}

# The opening of an SVG document with its title (the text alternative).
svg_open <- function(f, title) {
  sprintf(paste0('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" ',
                 'role="img" aria-label="%s" class="plot"><title>%s</title>',
                 '<rect x="0" y="0" width="%d" height="%d" fill="#fff"/>'),
          f$width, f$height, esc_html(title), esc_html(title), f$width, f$height)
}

# The axes: a time axis on the left in the unit that suits `unit`, ticks
# from pretty(), a label below the x axis, and ticks on x unless `xticks`
# is FALSE.
svg_axes <- function(f, unit, xlab, ylab = NULL, xticks = TRUE) {
  yt <- pretty(f$yr, n = 5L)
  yt <- yt[yt >= f$yr[1L] & yt <= f$yr[2L]]
  ylab <- ylab %||% sprintf("time (%s)", unit$name)
  x0 <- f$mar[1L]
  x1 <- f$width - f$mar[2L]
  y0 <- f$height - f$mar[4L]
  y1 <- f$mar[3L]
  out <- c(
    sprintf('<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="#888"/>',
            svg_num(x0), svg_num(y1), svg_num(x1 - x0), svg_num(y0 - y1)),
    sprintf('<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#eee"/><text x="%s" y="%s" class="tick" text-anchor="end">%s</text>',
            svg_num(x0), svg_num(x1), svg_num(f$py(yt)), svg_num(f$py(yt)),
            svg_num(x0 - 5), svg_num(f$py(yt) + 4),
            esc_html(format(yt / unit$scale, digits = 3L, trim = TRUE))),
    sprintf('<text x="14" y="%s" class="lab" text-anchor="middle" transform="rotate(-90 14 %s)">%s</text>',
            svg_num((y0 + y1) / 2), svg_num((y0 + y1) / 2), esc_html(ylab)),
    sprintf('<text x="%s" y="%s" class="lab" text-anchor="middle">%s</text>',
            svg_num((x0 + x1) / 2), svg_num(f$height - 6), esc_html(xlab)))
  if (xticks) {
    xt <- pretty(f$xr, n = 6L)
    xt <- xt[xt >= f$xr[1L] & xt <= f$xr[2L] & xt == round(xt)]
    out <- c(out, sprintf(
      '<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#888"/><text x="%s" y="%s" class="tick" text-anchor="middle">%s</text>',
      svg_num(f$px(xt)), svg_num(f$px(xt)), svg_num(y0), svg_num(y0 + 4),
      svg_num(f$px(xt)), svg_num(y0 + 16), format(xt, trim = TRUE)))
  }
  out
}

# A legend of coloured squares above the plot, one per name, laid out left
# to right and cut to fit (names are data: escaped).
svg_legend <- function(f, names, colours) {
  x <- f$mar[1L]
  out <- character()
  for (i in seq_along(names)) {
    label <- trunc_text(esc_text(names[i]), 28L)
    if (x > f$width - 60) break
    out <- c(out, sprintf(
      '<rect x="%s" y="8" width="10" height="10" fill="%s"/><text x="%s" y="17" class="tick">%s</text>',
      svg_num(x), colours[i], svg_num(x + 14), esc_html(label)))
    x <- x + 24 + 6.5 * nchar(label)
  }
  out
}

# The runs of each version in recorded order, and beside them each
# version's distribution as a violin with a bar at its median: the picture
# of plot.speedup_timings() for one benchmark.  `samples` is a named list of
# run times in recorded order; `runs` the positions of the runs (NULL: each
# version counted from 1).
svg_runs <- function(samples, runs = NULL, title = "Run times") {
  k <- length(samples)
  cols <- version_colours(k)
  all <- unlist(samples, use.names = FALSE)
  all <- all[is.finite(all)]
  if (!length(all)) all <- 1
  if (is.null(runs)) runs <- lapply(samples, seq_along)
  last <- max(c(unlist(runs), 1L))
  span <- max(last - 1, 1)
  width <- 0.45 * span / max(k, 1L)
  start <- last + 0.06 * span
  f <- svg_frame(c(1, start + k * width), range(all))
  unit <- time_axis_unit(stats::median(all))
  out <- c(svg_open(f, title), svg_axes(f, unit, "run, in recorded order; distributions on the right", xticks = TRUE),
           svg_legend(f, names(samples), cols),
           sprintf('<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#999" stroke-dasharray="4 3"/>',
                   svg_num(f$px(last + 0.03 * span)), svg_num(f$px(last + 0.03 * span)),
                   svg_num(f$mar[3L]), svg_num(f$height - f$mar[4L])))
  for (i in seq_len(k)) {
    t <- samples[[i]]
    ok <- is.finite(t)
    if (any(ok)) {
      out <- c(out, sprintf('<g fill="%s" fill-opacity="0.75">%s</g>', cols[i], paste(sprintf(
        '<circle cx="%s" cy="%s" r="2.2"/>', svg_num(f$px(runs[[i]][ok])), svg_num(f$py(t[ok]))),
        collapse = "")))
    }
    t <- t[ok]
    if (!length(t)) next
    centre <- start + (i - 0.5) * width
    half <- 0.42 * width
    med <- stats::median(t)
    if (length(t) >= 2L && diff(range(t)) > 0) {
      den <- stats::density(t, n = 64L, cut = 1)
      y <- den$y / max(den$y) * half
      xs <- c(centre - y, rev(centre + y))
      ys <- c(den$x, rev(den$x))
      out <- c(out, sprintf('<polygon points="%s" fill="%s" fill-opacity="0.35" stroke="%s"/>',
                            paste(svg_num(f$px(xs)), svg_num(f$py(ys)), sep = ",", collapse = " "),
                            cols[i], cols[i]))
    }
    out <- c(out, sprintf('<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="%s" stroke-width="3"/>',
                          svg_num(f$px(centre - half)), svg_num(f$px(centre + half)),
                          svg_num(f$py(med)), svg_num(f$py(med)), cols[i]))
  }
  paste(c(out, "</svg>"), collapse = "")
}

# The per-commit process values of a history series, with the stable
# stretches (a line at each stretch's level), each change's commit range (a
# band) with its decision, and the machine changes (dashed lines): the
# picture of plot.speedup_history_series().
svg_history <- function(s, title = "History") {
  v <- s$values
  f <- svg_frame(range(v$position), range(v$value, s$stretches$level))
  unit <- time_axis_unit(stats::median(v$value))
  out <- c(svg_open(f, title), svg_axes(f, unit, "commit (position in first-parent order)"))
  y0 <- f$mar[3L]
  y1 <- f$height - f$mar[4L]
  ch <- s$changes
  for (i in seq_len(nrow(ch))) {
    bad <- grepl("regression", ch$decision[i])
    col <- if (bad) "#D55E00" else "#009E73"
    a <- f$px(ch$pos_from[i])
    b <- f$px(ch$pos_to[i])
    out <- c(out, sprintf(
      '<rect x="%s" y="%s" width="%s" height="%s" fill="%s" fill-opacity="0.15"/><text x="%s" y="%s" class="tick" fill="%s">%s</text>',
      svg_num(a), svg_num(y0), svg_num(max(b - a, 2)), svg_num(y1 - y0), col,
      svg_num(a), svg_num(y0 + 12 + 12 * ((i - 1L) %% 2L)), col,
      esc_html(sprintf("#%s %s", ch$change_id[i], ch$decision[i]))))
  }
  for (i in seq_len(nrow(s$annotations))) {
    x <- f$px(s$annotations$position[i])
    out <- c(out, sprintf('<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#555" stroke-dasharray="2 3"/>',
                          svg_num(x), svg_num(x), svg_num(y0), svg_num(y1)))
  }
  out <- c(out, sprintf('<g fill="#0072B2" fill-opacity="0.6">%s</g>', paste(sprintf(
    '<circle cx="%s" cy="%s" r="1.8"/>', svg_num(f$px(v$position)), svg_num(f$py(v$value))),
    collapse = "")))
  st <- s$stretches
  if (nrow(st)) {
    out <- c(out, sprintf('<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#000" stroke-width="2"/>',
                          svg_num(f$px(st$from)), svg_num(f$px(st$to)),
                          svg_num(f$py(st$level)), svg_num(f$py(st$level))))
  }
  paste(c(out, "</svg>"), collapse = "")
}

# A sparkline: one value per commit as a small polyline (the index of a
# history), with no axes; its text alternative names the first and last
# values.
svg_sparkline <- function(y, width = 120, height = 24) {
  y <- y[is.finite(y)]
  if (length(y) < 2L) return("")
  r <- range(y)
  if (diff(r) == 0) r <- r + c(-1, 1) * max(abs(r[1L]) * 1e-3, 1e-12)
  px <- 2 + (seq_along(y) - 1) / (length(y) - 1) * (width - 4)
  py <- height - 2 - (y - r[1L]) / diff(r) * (height - 4)
  label <- sprintf("from %s to %s over %d commits", fmt_time(y[1L]),
                   fmt_time(y[length(y)]), length(y))
  sprintf(paste0('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" ',
                 'role="img" aria-label="%s" class="spark"><title>%s</title>',
                 '<polyline fill="none" stroke="#0072B2" stroke-width="1.2" points="%s"/></svg>'),
          width, height, width, height, esc_html(label), esc_html(label),
          paste(svg_num(px), svg_num(py), sep = ",", collapse = " "))
}

# svg_runs() of two samples for many benchmarks at once (the pages of a
# comparison): the same SVG text, with the points, lines and labels of all
# the pictures made by one sprintf() each and pasted picture by picture in
# one call (site_paste_groups()), the densities of all the samples made
# together (site_densities()), the medians by one call of the core, and
# the parts that depend only on the number of runs (the x axis), on the
# ticks (the y axis) or on the names (the legend) made once per distinct
# value.  xs, ys: lists of the run times of each version in recorded
# order; lab1, lab2: their names; titles: the text alternatives.
svg_runs_many <- function(xs, ys, lab1, lab2, titles) {
  m <- length(xs)
  if (!m) return(character())
  cols <- version_colours(2L)
  nx <- lengths(xs)
  ny <- lengths(ys)
  last <- pmax(nx, ny, 1L)
  span <- pmax(last - 1, 1)
  width <- 0.45 * span / 2L
  start <- last + 0.06 * span
  xr2 <- start + 2L * width
  # the range and the median of the finite times of each picture, the
  # range padded as svg_frame() pads it
  vx <- unlist(xs, use.names = FALSE)
  vy <- unlist(ys, use.names = FALSE)
  fx <- is.finite(vx)
  fy <- is.finite(vy)
  gall <- c(rep.int(seq_len(m), nx)[fx], rep.int(seq_len(m), ny)[fy])
  vall <- c(vx[fx], vy[fy])
  nall <- tabulate(gall, m)
  o <- order(gall, vall)
  vall <- vall[o]
  empty <- nall == 0L
  endk <- cumsum(nall)
  r1 <- r2 <- rep(1, m)
  r1[!empty] <- vall[endk[!empty] - nall[!empty] + 1L]
  r2[!empty] <- vall[endk[!empty]]
  med <- rep(1, m)
  med[!empty] <- site_medians(vall, nall[!empty])
  flat <- r2 - r1 <= 0
  r2[flat] <- r1[flat] * 1.01 + 1e-12
  r1[flat] <- r1[flat] * 0.99 + -1e-12
  pad <- 0.04 * (r2 - r1)
  yr1 <- r1 - pad
  yr2 <- r2 + pad
  px <- function(x, k) 64 + (x - 1) / (xr2[k] - 1) * 560
  py <- function(y, k) 258 - (y - yr1[k]) / (yr2[k] - yr1[k]) * 228
  uscale <- ifelse(!is.finite(med) | med >= 1, 1,
                   ifelse(med >= 1e-3, 1e-3, ifelse(med >= 1e-6, 1e-6, 1e-9)))
  uname <- c("s", "ms", "us", "ns")[match(uscale, c(1, 1e-3, 1e-6, 1e-9))]
  title <- esc_html(titles)
  open <- sprintf(paste0('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 300" ',
                         'role="img" aria-label="%s" class="plot"><title>%s</title>',
                         '<rect x="0" y="0" width="640" height="300" fill="#fff"/>'),
                  title, title)
  frame <- sprintf('<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="#888"/>',
                   svg_num(64), svg_num(30), svg_num(560), svg_num(228))
  # the y axis of each picture: its ticks (pretty()) and their labels
  # (format() of each picture's ticks together), the same labels made
  # once
  yt <- lapply(seq_len(m), function(k) {
    t <- pretty(c(yr1[k], yr2[k]), n = 5L)
    t[t >= yr1[k] & t <= yr2[k]]
  })
  nt <- lengths(yt)
  ytv <- unlist(yt, use.names = FALSE)
  gt <- rep.int(seq_len(m), nt)
  key <- site_paste_groups(sprintf("%.17g", ytv / uscale[gt]), nt, " ")
  uk <- !duplicated(key)
  lab <- character(length(ytv))
  labs <- lapply(which(uk), function(k) format(yt[[k]] / uscale[k], digits = 3L, trim = TRUE))
  lab <- unlist(labs, use.names = FALSE)[
    sequence(nt, from = (cumsum(nt[uk]) - nt[uk] + 1L)[match(key, key[uk])])]
  yy <- py(ytv, gt)
  yticks <- site_paste_groups(sprintf(
    '<line x1="%s" x2="%s" y1="%.1f" y2="%.1f" stroke="#eee"/><text x="%s" y="%.1f" class="tick" text-anchor="end">%s</text>',
    svg_num(64), svg_num(624), yy, yy, svg_num(64 - 5), yy + 4, esc_html(lab)), nt)
  ylab <- sprintf('<text x="14" y="%s" class="lab" text-anchor="middle" transform="rotate(-90 14 %s)">%s</text>',
                  svg_num((258 + 30) / 2), svg_num((258 + 30) / 2),
                  esc_html(sprintf("time (%s)", uname)))
  xlab <- sprintf('<text x="%s" y="%s" class="lab" text-anchor="middle">%s</text>',
                  svg_num((64 + 624) / 2), svg_num(300 - 6),
                  esc_html("run, in recorded order; distributions on the right"))
  # the x axis and the dashed line before the distributions, per number of
  # runs
  ul <- unique(last)
  xaxis <- vapply(ul, function(l) {
    k <- match(l, last)
    xt <- pretty(c(1, xr2[k]), n = 6L)
    xt <- xt[xt >= 1 & xt <= xr2[k] & xt == round(xt)]
    paste(sprintf(
      '<line x1="%s" x2="%s" y1="%s" y2="%s" stroke="#888"/><text x="%s" y="%s" class="tick" text-anchor="middle">%s</text>',
      svg_num(px(xt, k)), svg_num(px(xt, k)), svg_num(258), svg_num(258 + 4),
      svg_num(px(xt, k)), svg_num(258 + 16), format(xt, trim = TRUE)), collapse = "")
  }, "")[match(last, ul)]
  cut <- px(last + 0.03 * span, seq_len(m))
  dash <- sprintf('<line x1="%.1f" x2="%.1f" y1="%s" y2="%s" stroke="#999" stroke-dasharray="4 3"/>',
                  cut, cut, svg_num(30), svg_num(258))
  # the legend, per pair of names
  pair <- paste(lab1, lab2, sep = "\r")
  up <- unique(pair)
  f <- list(width = 640, mar = c(64, 16, 30, 42))
  legend <- vapply(up, function(p) {
    k <- match(p, pair)
    paste(svg_legend(f, c(lab1[k], lab2[k]), cols), collapse = "")
  }, "", USE.NAMES = FALSE)[match(pair, up)]
  axes <- paste0(frame, yticks, ylab, xlab)
  # each version's runs, its distribution and its median
  side <- function(v, n, i) {
    centre <- start + (i - 0.5) * width
    half <- 0.42 * width
    g <- rep.int(seq_len(m), n)
    pos <- sequence(n)
    ok <- is.finite(v)
    g <- g[ok]
    v <- v[ok]
    nok <- tabulate(g, m)
    dots <- site_paste_points(px(pos[ok], g), py(v, g), nok, '<circle cx="', '" cy="',
                              '" r="2.2"/>', "")
    out <- rep("", m)
    has <- which(nok > 0L)
    out[has] <- sprintf('<g fill="%s" fill-opacity="0.75">%s</g>', cols[i], dots[has])
    # the violins: a density per sample of two or more distinct times, the
    # outlines of all of them written by one sprintf()
    o <- order(g, v)
    sv <- v[o]
    endk <- cumsum(nok)
    distinct <- nok >= 2L
    distinct[distinct] <- sv[endk[distinct]] > sv[endk[distinct] - nok[distinct] + 1L]
    violin <- which(distinct)
    if (length(violin)) {
      keep <- distinct[g]
      den <- site_densities(split_groups(v[keep], nok[violin]))
      dx <- den$x
      dy <- den$y / rep(apply(den$y, 2L, max), each = 64L)
      kk <- rep(violin, each = 128L)
      h <- rep(half[violin], each = 64L) * dy
      cv <- rep(centre[violin], each = 64L)
      xsv <- rbind(matrix(cv - h, 64L), matrix(cv + h, 64L)[64:1, , drop = FALSE])
      ysv <- rbind(dx, dx[64:1, , drop = FALSE])
      pts <- site_paste_points(px(as.vector(xsv), kk), py(as.vector(ysv), kk),
                               rep(128L, length(violin)), "", ",", "", " ")
      out[violin] <- paste0(out[violin], sprintf(
        '<polygon points="%s" fill="%s" fill-opacity="0.35" stroke="%s"/>', pts, cols[i], cols[i]))
    }
    mk <- site_medians(v, nok[has])
    y <- py(mk, has)
    out[has] <- paste0(out[has], sprintf(
      '<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="3"/>',
      px(centre[has] - half[has], has), px(centre[has] + half[has], has), y, y, cols[i]))
    out
  }
  paste0(open, axes, xaxis, legend, dash, side(vx, nx, 1L), side(vy, ny, 2L), "</svg>")
}

# The elements of x in groups of count consecutive elements, as a list.
split_groups <- function(x, count) {
  split(x, structure(rep.int(seq_along(count), count), levels = as.character(seq_along(count)),
                     class = "factor"))
}

# stats::density(t, n = n_out, cut = 1) of many samples at once, bit for
# bit: the bandwidth of bw.nrd0() (the standard deviation of sd(), the
# interquartile range of quantile() type 7 from one sort of all the
# samples), the bins of src/report-site.c (density()'s own linear
# binning), the FFT convolution with the Gaussian kernel of mvfft() over
# the samples' columns (the transform fft() makes of each), and approx()'s
# linear interpolation onto the n_out points from `from` to `to`.  `s`: a
# list of samples of finite times, each of two or more distinct values.
# Returns the matrices x and y (n_out rows, a column per sample): the
# density's x and y.
site_densities <- function(s, n_out = 64L, chunk = 256L) {
  m <- length(s)
  if (!m) return(list(x = matrix(0, n_out, 0L), y = matrix(0, n_out, 0L)))
  len <- lengths(s)
  v <- unlist(s, use.names = FALSE)
  g <- rep.int(seq_len(m), len)
  sv <- v[order(g, v)]
  start <- cumsum(len) - len
  # bw.nrd0(): min(sd, IQR / 1.34), with IQR() of quantile() type 7
  quart <- function(p) {
    index <- 1 + (len - 1) * p
    lo <- floor(index)
    hi <- ceiling(index)
    qs <- sv[start + lo]
    xhi <- sv[start + hi]
    i <- which(index > lo & xhi != qs)
    h <- (index - lo)[i]
    qs[i] <- (1 - h) * qs[i] + h * xhi[i]
    qs
  }
  hi <- vapply(s, stats::sd, 0, USE.NAMES = FALSE)
  lo <- pmin(hi, (quart(0.75) - quart(0.25)) / 1.34)
  z <- which(!lo)
  lo[z] <- hi[z]
  z <- which(!lo)
  lo[z] <- abs(vapply(s[z], `[`, 0, 1L))
  lo[!lo] <- 1
  bw <- 0.9 * lo * len^(-0.2)
  from <- sv[start + 1L] - bw
  to <- sv[start + len] + bw
  lo <- from - 4 * bw
  up <- to + 4 * bw
  n <- 512L
  xo <- yo <- matrix(0, n_out, m)
  for (c0 in seq(0L, m - 1L, by = chunk)) {
    k <- (c0 + 1L):min(m, c0 + chunk)
    y <- .Call(ffi_site_bin, v[(start[k[1L]] + 1L):(start[k[length(k)]] + len[k[length(k)]])],
               len[k], lo[k], up[k], n)
    kords <- vapply(k, function(j) seq.int(0, 2 * (up[j] - lo[j]), length.out = 2L * n),
                    numeric(2L * n))
    # the kernel at the distances 0 .. n and, mirrored, at their negatives
    # (dnorm(-d) is dnorm(d), bit for bit: it takes |d|)
    half <- stats::dnorm(kords[seq_len(n + 1L), , drop = FALSE], sd = rep(bw[k], each = n + 1L))
    kords <- rbind(half, half[n:2L, , drop = FALSE])
    kords <- stats::mvfft(stats::mvfft(y) * Conj(stats::mvfft(kords)), inverse = TRUE)
    dens <- matrix(pmax.int(0, Re(kords)[seq_len(n), , drop = FALSE] / (2L * n)), n)
    for (a in seq_along(k)) {
      j <- k[a]
      xords <- seq.int(lo[j], up[j], length.out = n)
      x <- seq.int(from[j], to[j], length.out = n_out)
      # approx(xords, dens, x): the interval of each point, then the line
      # between its ends (a point on a grid point takes its value)
      i <- findInterval(x, xords)
      d <- dens[, a]
      last <- i >= n
      i[last] <- n - 1L
      xi <- xords[i]
      xj <- xords[i + 1L]
      yi <- d[i]
      yj <- d[i + 1L]
      out <- yi + (yj - yi) * ((x - xi) / (xj - xi))
      on <- x == xj
      out[on] <- yj[on]
      on <- x == xi
      out[on] <- yi[on]
      xo[, j] <- x
      yo[, j] <- out
    }
  }
  list(x = xo, y = yo)
}
