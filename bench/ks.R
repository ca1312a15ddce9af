# Timing of ks_test() against stats::ks.test (two-sample).
# Run with: Rscript bench/ks.R   (speeduptest installed)
# Prints the time per call of each (median of 3 batches of `reps` calls)
# and the ratio ks.test / ks_test (> 1: ks_test is faster), plus the
# absolute difference of the p-values.

suppressPackageStartupMessages(library(speeduptest))

time_median <- function(expr_fun, reps) {
  t <- vapply(1:3, function(i) {
    system.time(for (k in seq_len(reps)) expr_fun())[["elapsed"]]
  }, numeric(1))
  stats::median(t) / reps
}

cases <- list(
  list(label = "exact, no ties", n = 20, m = 25, ties = FALSE, reps = 200),
  list(label = "exact, no ties", n = 90, m = 100, ties = FALSE, reps = 50),
  list(label = "exact, ties", n = 20, m = 25, ties = TRUE, reps = 50),
  list(label = "exact, ties", n = 90, m = 100, ties = TRUE, reps = 5),
  list(label = "asymptotic", n = 1e3, m = 1e3, ties = FALSE, reps = 100),
  list(label = "asymptotic", n = 1e5, m = 1e5, ties = FALSE, reps = 3),
  list(label = "asymptotic", n = 1e6, m = 1e6, ties = FALSE, reps = 1)
)

set.seed(1)
rows <- lapply(cases, function(cs) {
  x <- rnorm(cs$n)
  y <- rnorm(cs$m, 0.1)
  if (cs$ties) {
    x <- round(x, 1)
    y <- round(y, 1)
  }
  ours <- time_median(function() suppressWarnings(ks_test(x, y)), cs$reps)
  ref <- time_median(function() suppressWarnings(stats::ks.test(x, y)), cs$reps)
  p_ours <- suppressWarnings(ks_test(x, y))$p.value
  p_ref <- suppressWarnings(stats::ks.test(x, y))$p.value
  data.frame(case = cs$label, n = cs$n, m = cs$m,
             ks_test_ms = signif(1e3 * ours, 3), ks.test_ms = signif(1e3 * ref, 3),
             ratio = signif(ref / ours, 3),
             p_diff = signif(abs(p_ours - p_ref), 2))
})
print(do.call(rbind, rows), row.names = FALSE)
