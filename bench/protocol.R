# The cost of one verdict against the stats calls it replaces.
#
#   mean_test(x, y)    against shapiro.test(x), shapiro.test(y),
#                      var.test(x, y) and t.test(x, y, "greater", var.equal)
#   median_test(x, y)  against ks.test() of the centred samples and
#                      wilcox.test(x, y, "greater", conf.int = TRUE)
#
# (the flowcharts of the paper written with stats, which give a p-value and
# no more: no slowdown test, no interval for the speedup, no run-order
# checks, no verdict object).  CPU time (user + system) of a loop of calls,
# the package and stats timed in turn, `repeats` times; the medians and
# their ratio.  Goal: a ratio of at most 1 at n = 35.
#
# usage (from the package root, speeduptest installed):
#   Rscript bench/protocol.R [repeats] [calls per timing] [sizes ...]
#   Rscript bench/protocol.R 15 2000 35
args <- as.numeric(commandArgs(trailingOnly = TRUE))
repeats <- if (length(args) >= 1L) args[1L] else 15
calls <- if (length(args) >= 2L) args[2L] else 2000
sizes <- if (length(args) >= 3L) args[-(1:2)] else c(10, 35, 100, 1000)
suppressPackageStartupMessages(library(speeduptest))

stats_mean <- function(x, y, alpha = 0.05) {
  px <- stats::shapiro.test(x)$p.value
  py <- stats::shapiro.test(y)$p.value
  eq <- stats::var.test(x, y)$p.value > alpha
  stats::t.test(x, y, alternative = "greater", var.equal = eq)
}

stats_median <- function(x, y, alpha = 0.05) {
  ks <- suppressWarnings(stats::ks.test(x - stats::median(x),
                                        y - stats::median(y))$p.value)
  stats::wilcox.test(x, y, alternative = "greater", conf.int = TRUE)
}

cpu <- function(f, k) {
  t <- proc.time()
  for (i in seq_len(k)) f()
  d <- proc.time() - t
  (d[["user.self"]] + d[["sys.self"]]) / k
}

set.seed(1)
rows <- list()
for (n in sizes) {
  x <- rlnorm(n, log(10), 0.1)
  y <- rlnorm(n, log(9.9), 0.1)
  k <- max(5, round(calls * 35 / max(n, 35)))
  fun <- list(
    mean_test = function() mean_test(x, y),
    stats_mean = function() stats_mean(x, y),
    median_test = function() median_test(x, y),
    stats_median = function() stats_median(x, y))
  for (f in fun) f()
  t <- matrix(NA_real_, repeats, length(fun), dimnames = list(NULL, names(fun)))
  for (r in seq_len(repeats)) {
    for (j in seq_along(fun)) t[r, j] <- cpu(fun[[j]], k)
  }
  med <- apply(t, 2, stats::median)
  ratio <- function(a, b) stats::median(t[, a] / t[, b])
  rows[[length(rows) + 1L]] <- data.frame(
    n = n,
    mean_test_us = 1e6 * med[["mean_test"]],
    stats_mean_us = 1e6 * med[["stats_mean"]],
    mean_ratio = ratio("mean_test", "stats_mean"),
    median_test_us = 1e6 * med[["median_test"]],
    stats_median_us = 1e6 * med[["stats_median"]],
    median_ratio = ratio("median_test", "stats_median"))
}
out <- do.call(rbind, rows)
print(format(out, digits = 3), row.names = FALSE)
cat(sprintf("(CPU microseconds per call, medians of %d timings; ratio: the median of the repeats' ratios)\n",
            repeats))
