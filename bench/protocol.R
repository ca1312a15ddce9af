# Timing of the Speedup-Test protocols in C (the entry points that
# speedup_suite() and mean_test()/median_test() use) against the same
# flowcharts written with stats functions.
# Run with: Rscript bench/protocol.R   (speeduptest installed)
# Prints, per sample size, the time per call of the C protocol (without the
# R verdict object), of the full R function, and of the stats flowchart.

suppressPackageStartupMessages(library(speeduptest))

per_call <- function(f, reps) {
  t <- vapply(1:3, function(i) system.time(for (k in seq_len(reps)) f())[["elapsed"]],
              numeric(1))
  stats::median(t) / reps
}

stats_mean <- function(x, y, alpha = 0.05) {
  px <- stats::shapiro.test(x)$p.value
  py <- stats::shapiro.test(y)$p.value
  if ((px <= alpha && length(x) <= 30) || (py <= alpha && length(y) <= 30)) return(NA)
  eq <- stats::var.test(x, y)$p.value > alpha
  stats::t.test(x, y, alternative = "greater", var.equal = eq)$p.value <= alpha
}

stats_median <- function(x, y, alpha = 0.05) {
  ks <- suppressWarnings(stats::ks.test(x - stats::median(x), y - stats::median(y))$p.value)
  if (ks <= alpha && (length(x) <= 30 || length(y) <= 30)) return(NA)
  w <- stats::wilcox.test(x, y, alternative = "greater", conf.int = TRUE)
  w$p.value <= alpha
}

set.seed(1)
rows <- lapply(c(10, 30, 45, 100, 1000, 5000), function(n) {
  x <- rlnorm(n, log(10), 0.1)
  y <- rlnorm(n, log(9.9), 0.1)
  reps <- if (n <= 100) 50 else 5
  data.frame(
    n = n,
    mean_C = per_call(function() .Call(speeduptest:::ffi_mean_test, x, y, 0.05, TRUE), reps),
    mean_R = per_call(function() mean_test(x, y), reps),
    mean_stats = per_call(function() stats_mean(x, y), reps),
    median_C = per_call(function() .Call(speeduptest:::ffi_median_test, x, y, 0.05, TRUE, 7L), reps),
    median_R = per_call(function() median_test(x, y), reps),
    median_stats = per_call(function() stats_median(x, y), reps)
  )
})
out <- do.call(rbind, rows)
print(format(out, digits = 3), row.names = FALSE)
cat("(seconds per call; median_C includes both Hodges-Lehmann intervals,",
    "median_stats one)\n")
