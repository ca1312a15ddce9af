# The CI gate and the tolerance, by fixed-seed simulation (SPEC section 10).
#
#   Rscript bench/tolerance.R [jobs]      (default 500 jobs per cell)
#
# Every cell runs the code that decides for `speeduptest compare` (its
# analysis of the timings, compare_run(), and its exit condition,
# compare_fails(), with the command line's default options: median
# protocol, alpha = 0.05, --tolerance 1, --p-adjust holm, --fail-on
# slowdown) on timings simulated in memory, so that only the reading of the
# files is left out; the protocols' own cells call median_test() /
# mean_test() and plan_runs().  Noise "1 %": each run time is
# 1 + 0.01 Z (Z standard normal) times the version's true time.
suppressPackageStartupMessages(library(speeduptest))
ns <- asNamespace("speeduptest")
args <- commandArgs(trailingOnly = TRUE)
jobs <- if (length(args)) as.integer(args[1]) else 500L

opts <- ns$compare_parse_args(c("old.json", "new.json"))   # the defaults
stopifnot(opts$p_adjust == "holm", opts$s0 == 1.01, opts$test == "median",
          opts$alpha == 0.05, opts$fail_on == "slowdown")

# timings of `k` benchmarks, `n` runs of each version; `change` the true
# speedup of each benchmark (old time / new time)
suite_timings <- function(k, n, change = rep(1, k), noise = 0.01) {
  base <- exp(stats::runif(k, log(1e-3), log(1)))   # 1 ms to 1 s
  b <- rep(sprintf("bench%02d", seq_len(k)), each = 2 * n)
  v <- rep(rep(c("old", "new"), each = n), k)
  true <- rep(base, each = 2 * n) / ifelse(v == "new", rep(change, each = 2 * n), 1)
  data.frame(benchmark = b, version = factor(v, levels = c("old", "new")),
             time = true * (1 + noise * stats::rnorm(length(true))),
             run = rep(seq_len(n), 2 * k), stringsAsFactors = FALSE)
}

job_fails <- function(t) {
  run <- ns$compare_run(t, opts)
  ns$compare_fails(run$rows, opts$fail_on)
}

cell <- function(label, goal, fun, check) {
  t0 <- proc.time()[["elapsed"]]
  r <- fun()
  ok <- check(r)
  cat(sprintf("%-66s %7.3f  goal %-7s %s  (%.0f s)\n", label, r, goal,
              if (ok) "met" else "NOT MET", proc.time()[["elapsed"]] - t0))
  invisible(r)
}

cat(sprintf("speeduptest %s, %d jobs per cell\n\n", utils::packageVersion("speeduptest"), jobs))

set.seed(2101)
cell("unchanged suite of 30 benchmarks, 31 runs: share of jobs failing", "<= 0.05",
     function() mean(replicate(jobs, job_fails(suite_timings(30, 31)))),
     function(r) r <= 0.05)

set.seed(2102)
cell("0.3 % slowdown, 200 runs: share of jobs failing", "<= 0.05",
     function() mean(replicate(jobs, job_fails(suite_timings(1, 200, 1 / 1.003)))),
     function(r) r <= 0.05)

set.seed(2103)
cell("3 % slowdown of 1 benchmark among 30, 31 runs: share failing", ">= 0.95",
     function() mean(replicate(jobs, job_fails(
       suite_timings(30, 31, c(1 / 1.03, rep(1, 29)))))),
     function(r) r >= 0.95)

# without the adjustment and the tolerance (the paper's per-benchmark test)
opts_paper <- opts
opts_paper$p_adjust <- "none"
opts_paper$s0 <- 1
set.seed(2101)
cell("for comparison, --p-adjust none --tolerance 0, unchanged suite", "(info)",
     function() mean(replicate(jobs, {
       run <- ns$compare_run(suite_timings(30, 31), opts_paper)
       ns$compare_fails(run$rows, "slowdown")
     })), function(r) TRUE)

# equivalence: A/A with 100 runs, s0 = 1.02; and a true change of 1.03
for (test in c("median", "mean")) {
  fun <- if (test == "median") median_test else mean_test
  set.seed(2104)
  cell(sprintf("%s: A/A, 100 runs, min_speedup 1.02: share declared equivalent", test),
       ">= 0.90", function() mean(replicate(jobs, {
         x <- 1 + 0.01 * stats::rnorm(100)
         y <- 1 + 0.01 * stats::rnorm(100)
         fun(x, y, min_speedup = 1.02)$direction == "equivalent"
       })), function(r) r >= 0.90)
  for (change in c(1.03, 1 / 1.03, 1.02)) {
    set.seed(2105)
    # (at the boundary, 1.02, the share is the test's level: about alpha)
    cell(sprintf("%s: true change %.4f, min_speedup 1.02: share wrongly equivalent",
                 test, change), if (change == 1.02) "~0.05" else "<= 0.05",
         function() mean(replicate(jobs, {
           x <- 1 + 0.01 * stats::rnorm(100)
           y <- (1 + 0.01 * stats::rnorm(100)) / change
           fun(x, y, min_speedup = 1.02)$direction == "equivalent"
         })), function(r) r <= 0.05 || change == 1.02)
  }
}

# plan_runs(): the runs it returns reach the power it promises.  A pilot of
# `pilot` runs of each version is drawn from the true distribution;
# plan_runs() answers n for the speedup `target` at power 0.8; the power at
# n is then measured on `jobs` fresh experiments (a) from the true
# distribution and (b) resampled from the pilot brought to one location as
# plan_runs() does it (the runs themselves, with R's sample(): plan_runs()
# now draws by a smoothed bootstrap, see bench/plan.R).  Over several pilots
# (the pilot's spread is itself uncertain) the mean power is compared with
# 0.8.
power_check <- function(test, draw, pilot, target, pilots = 8L) {
  fun <- if (test == "median") median_test else mean_test
  vapply(seq_len(pilots), function(i) {
    x <- draw(pilot)
    y <- draw(pilot)
    p <- plan_runs(x, y, speedup = target, power = 0.8, test = test)
    n <- p$runs
    true <- mean(replicate(jobs, isTRUE(fun(draw(n), draw(n) / target)$significant)))
    r <- ns$plan_samples(x, y, test)      # the pilot brought to one location
    boot <- mean(replicate(jobs, isTRUE(fun(sample(r$x, n, TRUE),
                                            sample(r$y, n, TRUE) / target)$significant)))
    c(n, true, boot)
  }, c(0, 0, 0))
}
normal <- function(k) 1 + 0.01 * stats::rnorm(k)
skewed <- function(k) 1 + 0.01 * (stats::rexp(k) - 1)   # long right tail
for (cfg in list(list("median", normal, "normal", 1.005),
                 list("mean", normal, "normal", 1.005),
                 list("median", skewed, "skewed", 1.005),
                 list("median", normal, "normal", 1.01))) {
  set.seed(2106)
  pc <- power_check(cfg[[1]], cfg[[2]], pilot = 200L, target = cfg[[4]])
  cat(sprintf("  plan_runs(%s, %s noise 1 %%, speedup %s, pilots of 200 runs): runs %s\n",
              cfg[[1]], cfg[[3]], format(cfg[[4]]), paste(pc[1, ], collapse = " ")))
  cell(sprintf("  power at its runs, true distribution (mean of %d pilots)", ncol(pc)),
       "0.75-0.85", function() mean(pc[2, ]), function(r) abs(r - 0.8) <= 0.05)
  cell(sprintf("  power at its runs, resampled from each pilot (mean)"),
       "0.75-0.85", function() mean(pc[3, ]), function(r) abs(r - 0.8) <= 0.05)
}
