# print() and summary() of speedup_warmup (the classification is in
# warmup.R).

# A name cut to width from the left ("..List:size=1000"): benchmark names
# often share their start.
trunc_left <- function(x, width) {
  x <- as.character(x)
  long <- nchar(x) > width
  x[long] <- paste0("..", substr(x[long], nchar(x[long]) - width + 3L, nchar(x[long])))
  x
}

warmup_settings_line <- function(s) {
  if (is.null(s)) return(character())
  pen <- if (is.numeric(s$penalty)) format(s$penalty, digits = 4L) else
    if (identical(s$penalty, "15logn")) "15 log n" else s$penalty
  sprintf("PELT (mean and variance, penalty %s, segments >= %d iterations%s); equivalent within %s%%",
          pen, as.integer(s$minseg), if (isTRUE(s$exact)) ", exact" else "",
          format(100 * s$margin))
}

warmup_benchmark_table <- function(x) {
  b <- attr(x, "benchmarks")
  if (is.null(b)) b <- warmup_benchmarks(x)
  b
}

# "120 [80, 200]": a median and its range over the processes.
fmt_spread <- function(mid, lo, hi, f = function(v) format(round(v), big.mark = ",")) {
  g <- function(v) trimws(f(v))
  vapply(seq_along(mid), function(i) {
    if (is.na(mid[i])) "-" else if (lo[i] == hi[i]) g(mid[i]) else
      sprintf("%s [%s, %s]", g(mid[i]), g(lo[i]), g(hi[i]))
  }, "")
}

#' Print and summarise a warm-up classification
#'
#' `print()` shows one line per benchmark and version (its class, or
#' "inconsistent" when its processes differ, and the processes by class)
#' and the first processes; `summary()` returns the table of benchmarks and
#' versions: the processes by class, `consistent`, and the steady iteration
#' and time to steady state as their median, smallest and largest value over
#' the processes that settled.
#'
#' @param x,object A `speedup_warmup` object ([warmup_classify()]).
#' @param n The number of processes to print.
#' @param ... Not used.
#' @return `print()` returns `x` invisibly; `summary()` a data frame of
#'   class `summary.speedup_warmup`.
#' @export
print.speedup_warmup <- function(x, n = 10L, ...) {
  shown <- x
  cat(sprintf("Warm-up of %d process%s, %s iterations\n", nrow(x),
              if (nrow(x) == 1L) "" else "es", fmt_count(sum(x$iterations))))
  st <- warmup_settings_line(attr(x, "settings"))
  if (length(st)) cat(wrap_lines(paste0("  ", st)), sep = "\n")
  if (!nrow(x)) return(invisible(shown))
  b <- warmup_benchmark_table(x)
  print_warmup_benchmarks(b)
  cat("\nProcesses:\n")
  show <- utils::head(x, n)
  cat(sprintf("  %-18s %-10s %-8s %6s %-15s %9s %6s", "benchmark", "version",
              "process", "iters", "class", "steady at", "outl."), sep = "\n")
  cat(sprintf("  %-18s %-10s %-8s %6d %-15s %9s %6d",
              trunc_left(bytes_safe(show$benchmark), 18L),
              trunc_text(bytes_safe(as.character(show$version)), 10L),
              trunc_text(bytes_safe(ifelse(is.na(show$process), "-", show$process)), 8L),
              show$iterations, as.character(show$class),
              ifelse(is.na(show$steady_iteration), "-",
                     format(show$steady_iteration, big.mark = ",")),
              show$outliers), sep = "\n")
  if (nrow(x) > n) cat(sprintf("  ... and %d more processes\n", nrow(x) - n))
  invisible(shown)
}

print_warmup_benchmarks <- function(b) {
  cat(sprintf("  %-20s %-12s %-15s %s", "benchmark", "version", "class",
              "steady iteration"), sep = "\n")
  counts <- vapply(seq_len(nrow(b)), function(i) {
    k <- c(flat = b$flat[i], "warm-up" = b$warm_up[i], slowdown = b$slowdown[i],
           "no steady state" = b$no_steady_state[i], "too short" = b$too_short[i])
    k <- k[k > 0]
    paste(sprintf("%d %s", k, names(k)), collapse = ", ")
  }, "")
  for (i in seq_len(nrow(b))) {
    cat(sprintf("  %-20s %-12s %-15s %s\n",
                trunc_left(bytes_safe(b$benchmark[i]), 20L),
                trunc_text(bytes_safe(as.character(b$version[i])), 12L),
                b$class[i],
                trunc_text(fmt_spread(b$steady_iteration[i], b$steady_iteration_min[i],
                                      b$steady_iteration_max[i]), 27L)))
    cat(wrap_lines(sprintf("    processes: %d (%s)", b$processes[i], counts[i])),
        sep = "\n")
  }
}

#' @rdname print.speedup_warmup
#' @export
summary.speedup_warmup <- function(object, ...) {
  b <- warmup_benchmark_table(object)
  attr(b, "settings") <- attr(object, "settings")
  class(b) <- c("summary.speedup_warmup", "data.frame")
  b
}

#' @rdname print.speedup_warmup
#' @export
print.summary.speedup_warmup <- function(x, ...) {
  st <- warmup_settings_line(attr(x, "settings"))
  cat("Warm-up by benchmark and version\n")
  if (length(st)) cat(wrap_lines(paste0("  ", st)), sep = "\n")
  if (!nrow(x)) return(invisible(x))
  print_warmup_benchmarks(x)
  cat("\nTime to steady state (median [range] over the processes that settled):\n")
  cat(sprintf("  %-20s %-12s %s", trunc_left(bytes_safe(x$benchmark), 20L),
              trunc_text(bytes_safe(as.character(x$version)), 12L),
              fmt_spread(x$steady_time, x$steady_time_min, x$steady_time_max,
                         fmt_time)), sep = "\n")
  incons <- x$class == "inconsistent"
  if (any(incons)) {
    cat(wrap_lines(sprintf("  %d of %d benchmark-versions are inconsistent: their processes were classified differently.",
                           sum(incons), nrow(x))), sep = "\n")
  }
  invisible(x)
}
