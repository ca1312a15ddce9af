# Timing of hpt_speedup() (the exact r-Speedup) against one hpt() call on
# the same data, the unit the goal is stated in: hpt_speedup() within 15
# hpt() calls at 10,000 benchmarks x 31 runs, and under a minute at
# 100,000.  Both are measured in the same run, in CPU time (user + system),
# the median of `reps` timings (fewer at 100,000), and the elapsed time of
# hpt_speedup() is shown beside.
# Run from the package root with the package installed:
#   Rscript bench/hpt.R [reps]
library(speeduptest)
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args)) as.integer(args[1]) else 5L

cpu <- function(f) {
  t <- system.time(f())
  c(cpu = t[["user.self"]] + t[["sys.self"]], elapsed = t[["elapsed"]])
}
median_time <- function(f, reps) {
  t <- vapply(seq_len(reps), function(i) cpu(f), numeric(2))
  apply(t, 1, stats::median)
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
for (nb in c(1000L, 10000L, 100000L)) {
  s <- suite(nb, 31L)
  r <- if (nb >= 100000L) max(1L, reps %/% 3L) else reps
  t1 <- median_time(function() hpt(s$a, s$b), max(r, 2L))
  res <- NULL
  t2 <- median_time(function() res <<- hpt_speedup(s$a, s$b), r)
  rows[[length(rows) + 1L]] <- data.frame(
    benchmarks = nb, runs = 31L, hpt_cpu = signif(t1[["cpu"]], 3),
    speedup_cpu = signif(t2[["cpu"]], 3),
    speedup_elapsed = signif(t2[["elapsed"]], 3),
    ratio = round(t2[["cpu"]] / t1[["cpu"]], 1),
    speedup = res$speedup, supremum = signif(res$supremum, 6))
}
print(do.call(rbind, rows), row.names = FALSE)
m <- gc()
cat(sprintf("peak memory of R's heap in this run: %.0f MB\n", sum(m[, ncol(m)])))
