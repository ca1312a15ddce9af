# Timing of the exact rank-sum test with ties, wilcoxon_test(exact = TRUE),
# against coin's exact test, coin::wilcox_test(distribution = "exact")
# (the Streitberg-Roehmel shift algorithm), on the same data.
# Run from the package root with the package and coin installed:
#   Rscript bench/exact-ties.R [reps]
# Prints, per case, the median elapsed seconds of one test by each, the
# ratio coin / speeduptest (> 1: speeduptest is faster) and the largest
# relative difference of the one-sided p-values.
library(speeduptest)
if (!requireNamespace("coin", quietly = TRUE)) stop("coin is not installed")

args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args)) as.integer(args[1]) else 3L

median_time <- function(f, reps) {
  stats::median(vapply(seq_len(reps), function(i) {
    system.time(f())[["elapsed"]]
  }, numeric(1)))
}

coin_p <- function(x, y, alt) {
  d <- data.frame(v = c(x, y),
                  g = factor(rep(c("x", "y"), c(length(x), length(y))),
                             levels = c("x", "y")))
  coin::pvalue(coin::wilcox_test(v ~ g, data = d, distribution = "exact",
                                 alternative = alt))
}

# coin's two-sided p-value is P[|T - E T| >= |t - E T|] while ours is
# twice the smaller tail, so the one-sided p-values are compared.  coin is
# timed on its "less" and "greater" calls (coin_reps runs of each), ours
# on reps runs of each.
case <- function(what, x, y, reps, coin_reps = reps) {
  alts <- c("less", "greater")
  t_ours <- t_coin <- numeric(0)
  ours <- theirs <- numeric(0)
  for (a in alts) {
    for (r in seq_len(reps)) {
      t_ours <- c(t_ours, system.time(
        p <- wilcoxon_test(x, y, alternative = a, exact = TRUE)$p.value
      )[["elapsed"]])
    }
    for (r in seq_len(coin_reps)) {
      t_coin <- c(t_coin, system.time(q <- coin_p(x, y, a))[["elapsed"]])
    }
    ours <- c(ours, p)
    theirs <- c(theirs, q)
  }
  t_ours <- stats::median(t_ours)
  t_coin <- stats::median(t_coin)
  data.frame(case = what, n = length(x), m = length(y),
             distinct = length(unique(c(x, y))),
             speeduptest = signif(t_ours, 3), coin = signif(t_coin, 3),
             ratio = round(t_coin / t_ours, 1),
             p_less = signif(ours[[1]], 6),
             max_rel_diff = signif(max(abs(ours - theirs) / theirs), 2))
}

set.seed(2026)
rows <- list()
# n = m = 200, ties of several kinds
x <- round(rnorm(200), 1); y <- round(rnorm(200, 0.1), 1)
rows[[1]] <- case("200, rounded normal (0.1)", x, y, reps)
x <- round(rlnorm(200), 2); y <- round(rlnorm(200, 0.05), 2)
rows[[2]] <- case("200, rounded lognormal (0.01)", x, y, reps)
x <- c(rnorm(190), rep(0, 10)); y <- c(rnorm(195, 0.2), rep(0, 5))
rows[[3]] <- case("200, few ties", x, y, reps)
x <- sample(5, 200, TRUE); y <- sample(5, 200, TRUE)
rows[[4]] <- case("200, 5 values", x, y, reps)
# n = m = 500 with up to 20 distinct values (coin: one run, ~100 s each)
x <- sample(20, 500, TRUE); y <- sample(20, 500, TRUE)
rows[[5]] <- case("500, 20 values, body", x, y, reps, 1L)
print(do.call(rbind, rows), row.names = FALSE)
x <- sample(20, 500, TRUE); y <- pmin(20, sample(20, 500, TRUE) + 1L)
rows[[6]] <- case("500, 20 values, tail", x, y, reps, 1L)
x <- sample(3, 500, TRUE); y <- sample(3, 500, TRUE)
rows[[7]] <- case("500, 3 values", x, y, reps, 1L)
print(do.call(rbind, rows), row.names = FALSE)
