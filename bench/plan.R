# plan_runs() and `detectable` against the truth, by fixed-seed simulation
# (SPEC section 10, issue 29).
#
#   Rscript bench/plan.R [pilots] [fresh] [reps] [all|plan|detectable] [cells]
#     pilots: pilots per cell (default 200; the detectable cells draw 5
#     times as many samples); fresh: experiments on fresh data per pilot
#     (default 20); reps: plan_runs() replicates (default 500); cells: a
#     regular expression on "law test pilot" choosing the plan cells
#
# Plan cells: a pilot of 10, 30 or 100 runs of each version (or of 10
# processes of 5 runs) is drawn from a true law with no change;
# plan_runs(pilot, speedup = S) plans the runs for the speedup S; then
# `fresh` experiments of that many runs (processes) are drawn from the true
# law, the new version's times divided by S, and the protocol itself
# (median_test() / mean_test(), rigorous) decides each.  The share that
# declares the speedup is the true power at the plan, averaged over the
# pilots (the plan is as good as the pilot is representative: each pilot
# gives its own number).  Target 0.8, within 0.05.
#
# Detectable cells: samples of 40 runs of each version from the true law
# (no change); a verdict that declares nothing gives `detectable` d, the
# suite of the same samples its `*_detectable` (must be identical), and a
# fresh experiment of 40 runs with the new version's times divided by d
# is decided by the protocol: the share declared is the true power at
# `detectable` (target 0.8 within 0.04).
#
# Laws (relative run times): log-normal exp(0.02 Z); skewed 1 + 0.01 G
# (G ~ Gamma(shape 2), skewness 1.4); heavy-tailed exp(0.01 T3) (T3
# Student's t with 3 degrees of freedom).  Processes: each process has the
# factor exp(0.02 Z) (log-normal law) or the law's own draw, and its runs
# exp(0.005 Z) around it.
suppressPackageStartupMessages(library(speeduptest))
args <- commandArgs(trailingOnly = TRUE)
pilots <- if (length(args) >= 1) as.integer(args[1]) else 200L
fresh <- if (length(args) >= 2) as.integer(args[2]) else 20L
reps <- if (length(args) >= 3) as.integer(args[3]) else 500L
only <- if (length(args) >= 4) args[4] else "all"
cells_re <- if (length(args) >= 5) args[5] else "."

laws <- list(
  lognormal = function(n) exp(0.02 * rnorm(n)),
  skewed = function(n) 1 + 0.01 * rgamma(n, 2),
  heavy = function(n) exp(0.01 * rt(n, 3)))
# the speedup planned for: about 20-60 runs at each law
target_speedup <- c(lognormal = 1.01, skewed = 1.005, heavy = 1.005)

proc_timings <- function(law, k, r, change) {
  mk <- function(v, s, off) {
    eff <- rep(law(k), each = r)
    data.frame(benchmark = "b", version = v,
               process = rep(seq_len(k), each = r) + off,
               time = eff * exp(0.005 * rnorm(k * r)) / s)
  }
  as_timings(rbind(mk("old", 1, 0), mk("new", change, 10000)))
}

decide <- function(test, x, y = NULL) {
  f <- if (test == "mean") mean_test else median_test
  isTRUE(if (is.null(y)) f(x)$significant else f(x, y)$significant)
}

plan_cell <- function(law_name, test, pilot) {
  law <- laws[[law_name]]
  S <- target_speedup[[law_name]]
  procs <- pilot == "10 processes"
  hits <- 0
  tried <- 0
  runs <- numeric(pilots)
  t0 <- proc.time()[["elapsed"]]
  for (i in seq_len(pilots)) {
    if (procs) {
      p <- plan_runs(proc_timings(law, 10, 5, 1), speedup = S, test = test,
                     reps = reps, max_runs = 2000)
      k <- p$processes
    } else {
      n <- as.integer(pilot)
      p <- plan_runs(law(n), law(n), speedup = S, test = test, reps = reps,
                     max_runs = 2000)
      k <- p$runs
    }
    runs[i] <- k
    if (is.na(k)) next
    for (j in seq_len(fresh)) {
      hit <- if (procs) decide(test, proc_timings(law, k, 5, S))
             else decide(test, law(k), law(k) / S)
      hits <- hits + hit
      tried <- tried + 1
    }
  }
  pw <- hits / tried
  data.frame(law = law_name, test = test, pilot = pilot, speedup = S,
             runs_median = stats::median(runs, na.rm = TRUE),
             runs_q10 = unname(stats::quantile(runs, 0.1, na.rm = TRUE)),
             runs_q90 = unname(stats::quantile(runs, 0.9, na.rm = TRUE)),
             true_power = round(pw, 3), se = round(sqrt(pw * (1 - pw) / tried), 3),
             within_0.05 = abs(pw - 0.8) <= 0.05,
             seconds = round(proc.time()[["elapsed"]] - t0))
}

det_cell <- function(law_name, test, n = 40L, samples = pilots * 5L) {
  law <- laws[[law_name]]
  hits <- 0
  tried <- 0
  same <- TRUE
  for (i in seq_len(samples)) {
    x <- law(n)
    y <- law(n)
    v <- if (test == "mean") mean_test(x, y) else median_test(x, y)
    if (!identical(v$direction, "none")) next
    d <- v$detectable
    s <- speedup_suite(list(b = list(x, y)), protocols = test)
    same <- same && identical(s$benchmarks[[paste0(test, "_detectable")]], d)
    if (!is.finite(d)) next
    hits <- hits + decide(test, law(n), law(n) / d)
    tried <- tried + 1
  }
  pw <- hits / tried
  data.frame(law = law_name, test = test, n = n, verdicts = tried,
             suite_identical = same, true_power = round(pw, 3),
             se = round(sqrt(pw * (1 - pw) / tried), 3),
             within_0.04 = abs(pw - 0.8) <= 0.04)
}

options(width = 120)
if (only %in% c("all", "detectable")) {
  set.seed(2901)
  det <- do.call(rbind, lapply(names(laws), function(l)
    do.call(rbind, lapply(c("median", "mean"), function(t) det_cell(l, t)))))
  cat("detectable: suite == verdict, and the true power at it\n")
  print(det, row.names = FALSE)
}
if (only %in% c("all", "plan")) {
  set.seed(2902)
  cells <- expand.grid(pilot = c("10", "30", "100", "10 processes"),
                       test = c("median", "mean"), law = names(laws),
                       stringsAsFactors = FALSE)
  keep <- grepl(cells_re, paste(cells$law, cells$test, cells$pilot))
  cells <- cells[keep, , drop = FALSE]
  out <- NULL
  for (i in seq_len(nrow(cells))) {
    r <- plan_cell(cells$law[i], cells$test[i], cells$pilot[i])
    print(r, row.names = FALSE)
    out <- rbind(out, r)
  }
  cat(sprintf("\nplan_runs(): %d pilots a cell, %d fresh experiments each, reps = %d\n",
              pilots, fresh, reps))
  print(out, row.names = FALSE)
}
