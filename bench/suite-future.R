# Benchmark: speedup_suite() under a future plan with 2 workers against the
# same call without a plan, on suites of 100 to 100,000 benchmarks; gives
# the break-even suite size from which shipping the chunks to the workers
# pays (the default of the option speeduptest.suite_parallel_min).
#
# usage (from the package root, with speeduptest, future and future.apply
# installed):
#   Rscript bench/suite-future.R [runs per version = 31] [repeats = 3]
#                                [plan = "multisession"] [sizes = 100,...]
# For each suite size it times, in the same process and in turn, `repeats`
# calls of each of: no plan (sequential); the plan with the chunks always
# sent to the workers (speeduptest.suite_parallel_min = 0); the plan with
# the package's default decision. Wall-clock seconds (the workers' time is
# not in this process's CPU time), median of the repeats; the ratios are
# sequential / plan (above 1: the plan is faster).
suppressPackageStartupMessages({
  library(speeduptest)
  library(future)
})
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.numeric(args[1]) else 31
reps <- if (length(args) >= 2) as.numeric(args[2]) else 3
plan_name <- if (length(args) >= 3) args[3] else "multisession"
sizes <- if (length(args) >= 4) as.numeric(strsplit(args[4], ",")[[1]]) else
  c(100, 1000, 3000, 10000, 30000, 1e5)

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
elapsed <- function(expr) {
  t0 <- proc.time()[["elapsed"]]
  force(expr)
  proc.time()[["elapsed"]] - t0
}
run <- function(suite, mode) {
  old <- options(speeduptest.suite_parallel_min = if (mode == "always") 0 else NULL)
  on.exit(options(old))
  elapsed(suppressWarnings(speedup_suite(suite)))
}
start_workers <- function() {
  plan(plan_name, workers = 2)
  # workers started and the package loaded in them before timing
  invisible(future.apply::future_lapply(1:2, function(i) loadNamespace("speeduptest")))
}

cat(sprintf("plan %s, 2 workers, %d runs per version, median of %d (wall seconds)\n",
            plan_name, n, reps))
cat(sprintf("default speeduptest.suite_parallel_min: %g run times\n",
            speeduptest:::SUITE_PARALLEL_MIN))
modes <- c("sequential", "always", "default")
for (nb in sizes) {
  suite <- make_suite(nb, n)
  t <- matrix(NA_real_, reps, 3, dimnames = list(NULL, modes))
  # the three in turn; switching to the plan starts its workers, which are
  # ready and idle (the package loaded) before the timed calls
  for (k in seq_len(reps)) {
    plan(sequential)
    t[k, "sequential"] <- run(suite, "sequential")
    start_workers()
    for (m in modes[-1]) t[k, m] <- run(suite, m)
  }
  med <- apply(t, 2, stats::median)
  cat(sprintf("%7d benchmarks (%9d run times): sequential %6.3f  plan always %6.3f (%.2fx)  plan default %6.3f (%.2fx)\n",
              nb, nb * 2L * n, med[1], med[2], med[1] / med[2], med[3], med[1] / med[3]))
}
plan(sequential)
