# Benchmark: speedup_suite() (the C core streamed in chunks over the suite)
# against the loop of stats calls a user would write: the two Speedup-Test
# flowcharts with shapiro.test, var.test, t.test, ks.test and wilcox.test,
# benchmark by benchmark, then the overall gains and proportions.
#
# usage (from the package root, with speeduptest installed):
#   Rscript bench/suite.R [benchmarks = 10000] [runs per version = 31]
#                         [repeats = 3] [benchmarks for memory = 1e6]
#                         [runs for memory = 5]
# Prints the CPU times (user + system, median of the repeats of each, the
# two measured in turn in the same process), their ratio, the share of
# benchmarks with the same decisions, and the peak resident memory of a
# child process analysing a large suite against the size of its run times.
suppressPackageStartupMessages(library(speeduptest))
args <- commandArgs(trailingOnly = TRUE)
arg <- function(i, default) if (length(args) >= i) as.numeric(args[i]) else default
nb <- arg(1, 10000)
n <- arg(2, 31)
reps <- arg(3, 3)
nb_mem <- arg(4, 1e6)
n_mem <- arg(5, 5)

make_suite <- function(nb, n, seed = 1) {
  set.seed(seed)
  suite <- lapply(seq_len(nb), function(j) {
    base <- runif(1, 1, 20)
    s <- sample(c(1, 1.02, 1.1, 1.5), 1)
    list(x = rlnorm(n, log(base), 0.03), y = rlnorm(n, log(base / s), 0.03))
  })
  names(suite) <- sprintf("bench%07d", seq_len(nb))
  suite
}
suite <- make_suite(nb, n)

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
       ci = lapply(a, function(k) prop.test(k, length(suite))$conf.int))
}

cpu <- function(expr) {
  t <- system.time(expr, gcFirst = FALSE)
  t[["user.self"]] + t[["sys.self"]]
}
t_c <- t_r <- numeric(reps)
for (r in seq_len(reps)) {
  invisible(gc())
  t_c[r] <- cpu(res_c <- speedup_suite(suite))
  invisible(gc())
  t_r[r] <- cpu(res_r <- r_suite(suite))
}
agree <- mean(res_c$benchmarks$mean_significant %in% TRUE == res_r$res[1, ] %in% TRUE &
              res_c$benchmarks$median_significant %in% TRUE == res_r$res[2, ] %in% TRUE)
cat(sprintf("suite of %d benchmarks, %d runs per version, %d repeats (CPU seconds, median)\n",
            nb, n, reps))
cat(sprintf("speedup_suite():            %8.3f\n", median(t_c)))
cat(sprintf("R loop over stats tests:    %8.3f\n", median(t_r)))
cat(sprintf("ratio R / speedup_suite:    %8.1f\n", median(t_r) / median(t_c)))
cat(sprintf("benchmarks with the same decisions: %.1f %%\n", 100 * agree))
cat(sprintf("overall gains (min, mean, median), speedup_suite: %s\n",
            paste(format(res_c$overall$gain, digits = 6), collapse = " ")))
cat(sprintf("overall gains (min, mean, median), R loop:        %s\n",
            paste(format(res_r$gain, digits = 6), collapse = " ")))

# Peak memory of a large suite, in a child process (the machinery of
# bench/median.R): the suite alone, then the suite analysed.
peak_rss <- function(code) {
  f <- tempfile(fileext = ".R")
  writeLines(code, f)
  out <- suppressWarnings(system2("/usr/bin/time",
                                  c("-v", file.path(R.home("bin"), "Rscript"), f),
                                  stdout = TRUE, stderr = TRUE))
  line <- grep("Maximum resident set size", out, value = TRUE)
  if (!length(line)) stop(paste(out, collapse = "\n"))
  as.numeric(sub(".*: *", "", line)) * 1024
}
if (nb_mem > 0 && file.exists("/usr/bin/time")) {
  make <- paste0(
    "suppressPackageStartupMessages(library(speeduptest)); set.seed(2); ",
    sprintf("nb <- %.0f; n <- %.0f; ", nb_mem, n_mem),
    "v <- rlnorm(2 * n * nb); ",
    "suite <- lapply(seq_len(nb), function(j) list(x = v[(2 * j - 2) * n + 1:n], ",
    "y = v[(2 * j - 1) * n + 1:n] * 0.9)); rm(v); ",
    "names(suite) <- sprintf('b%07d', seq_len(nb)); invisible(gc())")
  base <- peak_rss(make)
  full <- peak_rss(paste0(make, "; t <- system.time(r <- speedup_suite(suite)); ",
                          "cat(nrow(r$benchmarks), t[[1]] + t[[2]], '\\n')"))
  data_bytes <- 16 * n_mem * nb_mem
  cat(sprintf("\nmemory: %g benchmarks x %g runs per version (run times: %.0f MB)\n",
              nb_mem, n_mem, data_bytes / 2^20))
  cat(sprintf("peak RSS, suite built:        %7.0f MB\n", base / 2^20))
  cat(sprintf("peak RSS, with speedup_suite: %7.0f MB\n", full / 2^20))
  cat(sprintf("added by speedup_suite:       %7.0f MB (%.2f x the run times)\n",
              (full - base) / 2^20, (full - base) / data_bytes))
}
