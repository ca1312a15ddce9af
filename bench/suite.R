# Benchmark: speedup_suite() (one pass of the C core over the whole suite)
# against looping the Speedup-Test flowcharts written with R's stats
# functions, benchmark by benchmark, on a suite of thousands of benchmarks.
#
# usage (from the package root, with speeduptest installed):
#   Rscript bench/suite.R [number of benchmarks = 2000] [runs per version = 30]
library(speeduptest)
args <- commandArgs(trailingOnly = TRUE)
nb <- if (length(args) >= 1) as.integer(args[1]) else 2000L
n <- if (length(args) >= 2) as.integer(args[2]) else 30L

set.seed(1)
suite <- lapply(seq_len(nb), function(j) {
  base <- runif(1, 1, 20)
  s <- sample(c(1, 1.02, 1.1, 1.5), 1)
  list(x = rlnorm(n, log(base), 0.03), y = rlnorm(n, log(base / s), 0.03))
})
names(suite) <- sprintf("bench%05d", seq_len(nb))

# The flowcharts of SPEC sections 2 and 3 with stats (as in the tests).
r_mean <- function(x, y, alpha = 0.05) {
  nx <- shapiro.test(x)$p.value > alpha
  ny <- shapiro.test(y)$p.value > alpha
  if ((!nx && length(x) <= 30) || (!ny && length(y) <= 30)) return(NA)
  eq <- var.test(x, y)$p.value > alpha
  t.test(x, y, alternative = "greater", var.equal = eq)$p.value <= alpha
}
r_median <- function(x, y, alpha = 0.05) {
  shift <- suppressWarnings(ks.test(x - median(x), y - median(y))$p.value) > alpha
  if (!shift && (length(x) <= 30 || length(y) <= 30)) return(NA)
  wilcox.test(x, y, alternative = "greater")$p.value <= alpha
}
r_suite <- function(suite) {
  res <- vapply(suite, function(b) c(r_mean(b$x, b$y), r_median(b$x, b$y)), logical(2))
  cx <- vapply(suite, function(b) c(min(b$x), mean(b$x), median(b$x)), numeric(3))
  cy <- vapply(suite, function(b) c(min(b$y), mean(b$y), median(b$y)), numeric(3))
  gain <- rowSums(cx - cy) / rowSums(cx)
  a <- rowSums(res, na.rm = TRUE)
  list(res = res, gain = gain,
       ci = lapply(a, function(k) prop.test(k, nb)$conf.int))
}

cat(sprintf("suite of %d benchmarks, %d runs per version\n", nb, n))
# CPU time (user + system): the machine may be shared, elapsed time is noisy
cpu <- function(st) st[["user.self"]] + st[["sys.self"]]
t_c <- cpu(system.time(res_c <- speedup_suite(suite)))
t_r <- cpu(system.time(res_r <- r_suite(suite)))
agree <- mean(res_c$benchmarks$mean_significant %in% TRUE == res_r$res[1, ] %in% TRUE &
              res_c$benchmarks$median_significant %in% TRUE == res_r$res[2, ] %in% TRUE)
cat(sprintf("C one pass (speedup_suite): %8.3f s CPU\n", t_c))
cat(sprintf("R loop over stats tests:    %8.3f s CPU\n", t_r))
cat(sprintf("ratio R / C:                %8.1f\n", t_r / max(t_c, 1e-3)))
cat(sprintf("benchmarks with the same decisions: %.1f %%\n", 100 * agree))
cat(sprintf("overall gains (min, mean, median), C: %s\n",
            paste(format(res_c$overall$gain, digits = 6), collapse = " ")))
cat(sprintf("overall gains (min, mean, median), R: %s\n",
            paste(format(res_r$gain, digits = 6), collapse = " ")))
