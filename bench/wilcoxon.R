# Timing of wilcoxon_test() and signed_rank_test() against stats::wilcox.test.
# Run from the package root with the package installed:
#   Rscript bench/wilcoxon.R
# Prints, per size, the median elapsed seconds of each and the ratio
# R / speeduptest (> 1: speeduptest is faster).  With conf_int = TRUE R
# forms and sorts all n m differences (n (n + 1) / 2 Walsh averages);
# speeduptest selects the order statistics it needs in O(n + m) memory.
library(speeduptest)

# Median over `reps` of the seconds per call; fast calls are repeated in
# a loop until one timing lasts at least 0.05 s.
time_it <- function(f, reps) {
  inner <- 1L
  repeat {
    t <- system.time(for (i in seq_len(inner)) f())[["elapsed"]]
    if (t >= 0.05 || inner >= 10000L) break
    inner <- inner * 10L
  }
  t <- vapply(seq_len(reps), function(i) {
    system.time(for (j in seq_len(inner)) f())[["elapsed"]] / inner
  }, numeric(1))
  stats::median(t)
}

bench_row <- function(what, n, ours, theirs, reps) {
  a <- time_it(ours, reps)
  b <- if (is.null(theirs)) NA_real_ else time_it(theirs, reps)
  data.frame(test = what, n = n, speeduptest = signif(a, 3),
             stats = signif(b, 3), ratio = round(b / a, 1))
}

set.seed(1)
rows <- list()
# rank-sum, p-value only (exact below 50 per sample, normal above)
for (n in c(20, 1e3, 1e4, 1e5, 1e6)) {
  x <- rlnorm(n)
  y <- rlnorm(n) * 0.99
  reps <- if (n >= 1e5) 3 else 5
  rows[[length(rows) + 1]] <- bench_row(
    "rank-sum p", n, function() wilcoxon_test(x, y),
    function() wilcox.test(x, y), reps)
}
# rank-sum with the Hodges-Lehmann interval
for (n in c(20, 300, 1000, 3000, 1e5)) {
  x <- rlnorm(n)
  y <- rlnorm(n) * 0.99
  reps <- if (n >= 3000) 3 else 5
  rows[[length(rows) + 1]] <- bench_row(
    "rank-sum CI", n, function() wilcoxon_test(x, y, conf_int = TRUE),
    if (n <= 3000) function() wilcox.test(x, y, conf.int = TRUE), reps)
}
# signed-rank, p-value and interval
for (n in c(20, 1e3, 1e5, 1e6)) {
  d <- rnorm(n, 0.01)
  reps <- if (n >= 1e5) 3 else 5
  rows[[length(rows) + 1]] <- bench_row(
    "signed-rank p", n, function() signed_rank_test(d),
    function() wilcox.test(d), reps)
}
for (n in c(20, 1000, 5000, 1e5)) {
  d <- rnorm(n, 0.01)
  reps <- if (n >= 5000) 3 else 5
  rows[[length(rows) + 1]] <- bench_row(
    "signed-rank CI", n, function() signed_rank_test(d, conf_int = TRUE),
    if (n <= 5000) function() wilcox.test(d, conf.int = TRUE), reps)
}
# exact tests with ties, which wilcox.test cannot do (no reference)
x <- round(rnorm(45), 1)
y <- round(rnorm(45), 1)
rows[[length(rows) + 1]] <- bench_row(
  "rank-sum exact, ties", 45, function() wilcoxon_test(x, y), NULL, 5)
d <- round(rnorm(45), 1)
rows[[length(rows) + 1]] <- bench_row(
  "signed-rank exact, ties", 45, function() signed_rank_test(d), NULL, 5)

res <- do.call(rbind, rows)
print(res, row.names = FALSE)
