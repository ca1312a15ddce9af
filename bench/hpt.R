# Timing of hpt_speedup() (the exact r-Speedup: one sweep of gamma over the
# candidate points) against one hpt() call on the same data, which is the
# unit the goal is stated in (hpt_speedup() within 50 hpt() calls at 1,000
# benchmarks x 31 runs), and the time of 10,000 benchmarks.
# Run from the package root with the package installed:
#   Rscript bench/hpt.R [reps]
# Prints per size the median elapsed seconds of hpt() and hpt_speedup()
# and their ratio (hpt_speedup / hpt: how many hpt() calls it costs).
library(speeduptest)
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args)) as.integer(args[1]) else 3L

median_time <- function(f, reps) {
  stats::median(vapply(seq_len(reps), function(i) {
    system.time(f())[["elapsed"]]
  }, numeric(1)))
}

# run times of A and B: per-benchmark scale, A 1.1 to 1.5 times faster
# with some benchmarks where it is not, log-normal noise
suite <- function(nb, runs) {
  scale <- exp(rnorm(nb))
  gain <- exp(rnorm(nb, 0.2, 0.15))
  a <- matrix(rlnorm(nb * runs, 0, 0.05), nb) * scale
  b <- matrix(rlnorm(nb * runs, 0, 0.05), nb) * scale * gain
  list(a = a, b = b)
}

set.seed(13)
rows <- list()
for (nb in c(200L, 1000L, 10000L)) {
  s <- suite(nb, 31L)
  r <- if (nb >= 10000L) 1L else reps
  t1 <- median_time(function() hpt(s$a, s$b), max(r, 3L))
  res <- NULL
  t2 <- median_time(function() res <<- hpt_speedup(s$a, s$b), r)
  rows[[length(rows) + 1L]] <- data.frame(
    benchmarks = nb, runs = 31L, hpt = signif(t1, 3),
    hpt_speedup = signif(t2, 3), ratio = round(t2 / t1, 1),
    speedup = res$speedup, supremum = signif(res$supremum, 6))
}
print(do.call(rbind, rows), row.names = FALSE)
