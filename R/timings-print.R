# print() and summary() of speedup_timings (the class is in timings.R).

# A time in seconds with a readable unit, 3 significant digits.
fmt_time <- function(s) {
  v <- as.double(s)
  a <- abs(v)
  k <- ifelse(a >= 1 | a == 0, 1L, ifelse(a >= 1e-3, 2L, ifelse(a >= 1e-6, 3L, 4L)))
  ok <- !is.na(v)
  out <- rep("NA", length(v))
  out[ok] <- paste(formatC(v[ok] / c(1, 1e-3, 1e-6, 1e-9)[k[ok]], digits = 3L, format = "fg"),
                   c("s", "ms", "us", "ns")[k[ok]])
  names(out) <- names(s)
  out
}

trunc_text <- function(x, width) {
  x <- as.character(x)
  long <- nchar(x) > width
  x[long] <- paste0(substr(x[long], 1L, width - 2L), "..")
  x
}

# The timings with their benchmark and version names made printable: control
# characters shown as escapes, the bytes that are not valid UTF-8 written
# as <e9> (see esc_text()).
timings_printable <- function(t) {
  t$benchmark <- esc_text(t$benchmark)
  if (is.factor(t$version)) {
    levels(t$version) <- esc_text(levels(t$version))
  } else {
    t$version <- esc_text(t$version)
  }
  t
}

# One row per (benchmark, version) sample, in the order of the benchmarks'
# first appearance and of the version levels.
timings_samples <- function(t) {
  b <- factor(t$benchmark, levels = unique(t$benchmark))
  v <- t$version
  g <- interaction(v, b, drop = TRUE, lex.order = FALSE)
  key <- split(seq_len(nrow(t)), g, drop = TRUE)
  first <- vapply(key, `[`, integer(1), 1L)
  o <- order(as.integer(b[first]), as.integer(v[first]))
  key <- key[o]
  tm <- t$time
  data.frame(
    benchmark = t$benchmark[first[o]],
    version = as.character(v[first[o]]),
    runs = lengths(key),
    min = vapply(key, function(i) min(tm[i]), numeric(1)),
    median = vapply(key, function(i) stats::median(tm[i]), numeric(1)),
    mean = vapply(key, function(i) mean(tm[i]), numeric(1)),
    max = vapply(key, function(i) max(tm[i]), numeric(1)),
    sd = vapply(key, function(i) if (length(i) > 1L) stats::sd(tm[i]) else NA_real_,
                numeric(1)),
    row.names = NULL, stringsAsFactors = FALSE)
}

# The header lines shared by print() and summary().
timings_header <- function(t) {
  vers <- levels(droplevels(t$version))
  nb <- length(unique(t$benchmark))
  files <- attr(t, "files")
  runs <- table(paste(t$benchmark, t$version))
  runs_txt <- if (!length(runs)) {
    "no runs"
  } else if (length(unique(as.vector(runs))) == 1L) {
    sprintf("%d runs per sample", as.vector(runs)[1L])
  } else sprintf("%d to %d runs per sample", min(runs), max(runs))
  c(sprintf("<speedup_timings> %d run%s from %s", nrow(t),
            if (nrow(t) == 1L) "" else "s", attr(t, "source") %||% "unknown source"),
    if (length(files)) strwrap(paste("files:", paste(basename(files), collapse = ", ")),
                               width = 78, indent = 2, exdent = 4),
    strwrap(sprintf("versions: %s",
                    if (!length(vers)) "none" else
                    paste(c(paste0(vers[1L], " (initial)"), vers[-1L]),
                          collapse = ", ")), width = 78, indent = 2, exdent = 4),
    sprintf("  %d benchmark%s, %s; run order: %s", nb, if (nb == 1L) "" else "s",
            runs_txt, attr(t, "run_order") %||% "sample"),
    timings_structure_lines(t))
}

# Benchmarks that lack runs of some version.
timings_unpaired <- function(t) {
  vers <- levels(droplevels(t$version))
  have <- tapply(as.character(t$version), t$benchmark, function(v) length(unique(v)))
  names(have)[have < length(vers)]
}

#' Print and summarise run times
#'
#' `print()` shows where the runs come from, the versions (the initial code
#' first), the number of benchmarks and runs, and each sample's median;
#' `summary()` gives each sample's minimum, median, mean, maximum and
#' standard deviation (in seconds) and names the benchmarks missing a
#' version.
#'
#' @param x,object A `speedup_timings` object ([read_timings()],
#'   [as_timings()]), or its summary.
#' @param n The number of samples (benchmark and version) to show.
#' @param ... Not used.
#' @return `print()` returns `x` invisibly; `summary()` a data frame of class
#'   `summary.speedup_timings` with one row per sample.
#' @examples
#' t <- as_timings(list(old = c(1.2, 1.3, 1.25, 1.31), new = c(1.0, 1.1, 1.05, 0.98)))
#' print(t)
#' summary(t)
#' @export
print.speedup_timings <- function(x, n = 10L, ...) {
  check_object(x, "x")
  shown <- x
  x <- timings_printable(x)
  cat(timings_header(x), sep = "\n")
  if (!nrow(x)) return(invisible(shown))
  s <- timings_samples(x)
  show <- utils::head(s, n)
  b <- trunc_text(show$benchmark, 36L)
  b[duplicated(show$benchmark)] <- ""
  cat(sprintf("  %-36s %-20s %6s %10s", "benchmark", "version", "runs", "median"),
      sep = "\n")
  cat(sprintf("  %-36s %-20s %6d %10s", b, trunc_text(show$version, 20L),
              show$runs, fmt_time(show$median)), sep = "\n")
  if (nrow(s) > n) cat(sprintf("  ... and %d more samples (summary() lists them all)\n",
                               nrow(s) - n))
  un <- timings_unpaired(x)
  if (length(un)) {
    cat(strwrap(sprintf("Missing a version (left out of analyses): %s",
                        paste(un, collapse = ", ")), width = 78, indent = 2, exdent = 4),
        sep = "\n")
  }
  info <- format_machine(x)
  if (length(info)) cat(info, sep = "\n")
  invisible(shown)
}

#' @rdname print.speedup_timings
#' @export
summary.speedup_timings <- function(object, ...) {
  check_object(object, "object")
  object <- timings_printable(object)
  s <- timings_samples(object)
  attr(s, "header") <- timings_header(object)
  attr(s, "unpaired") <- timings_unpaired(object)
  class(s) <- c("summary.speedup_timings", "data.frame")
  s
}

#' @rdname print.speedup_timings
#' @export
print.summary.speedup_timings <- function(x, ...) {
  cat(attr(x, "header"), sep = "\n")
  if (nrow(x)) {
    b <- trunc_text(x$benchmark, 20L)
    b[duplicated(x$benchmark)] <- ""
    cat(sprintf("  %-20s %-12s %5s %8s %8s %8s %8s", "benchmark", "version",
                "runs", "min", "median", "mean", "max"), sep = "\n")
    cat(sprintf("  %-20s %-12s %5d %8s %8s %8s %8s", b, trunc_text(x$version, 12L),
                x$runs, fmt_time(x$min), fmt_time(x$median), fmt_time(x$mean),
                fmt_time(x$max)), sep = "\n")
  }
  un <- attr(x, "unpaired")
  if (length(un)) {
    cat(strwrap(sprintf("Missing a version (left out of analyses): %s",
                        paste(un, collapse = ", ")), width = 78, indent = 2, exdent = 4),
        sep = "\n")
  }
  invisible(x)
}
