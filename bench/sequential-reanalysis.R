# Runs of a sequential stop analysed again (issue 29, SPEC section 10):
# does median_test()/mean_test() on the timings of measure(.until =
# "decided") give the decision the looks gave, also after the runs were
# written as CSV (`speeduptest measure --export`) and read back?
#
#   Rscript bench/sequential-reanalysis.R [streams = 2000] [seed = 2910]
#
# A/A streams (no process is run): lognormal run times, sdlog 0.05, the two
# versions from the same law; the looks and levels of measure()
# (sequential_looks / sequential_rule / sequential_look, max_runs = 100),
# the runs up to the stop put in timings as measure() records them
# (interleaved rounds, one R process, timestamps, attribute "sequential").
# Prints, per protocol, the share of streams where the analysis again
# disagrees with the stop's decision (now; and for the fixed-design
# analysis the package gave before, `replication = "run"` forcing it), and
# the A/A claim rates of the re-analysis.
args <- commandArgs(trailingOnly = TRUE)
B <- if (length(args) >= 1L) as.integer(args[1L]) else 2000L
seed <- if (length(args) >= 2L) as.integer(args[2L]) else 2910L
suppressPackageStartupMessages(library(speeduptest))
ns <- asNamespace("speeduptest")
max_runs <- 100L
alpha <- 0.05
set.seed(seed)
t0 <- proc.time()

stream <- function(test) {
  rule <- ns$sequential_rule(ns$sequential_looks(max_runs), max_runs, alpha, test)
  x <- rlnorm(max_runs, 0, 0.05)
  y <- rlnorm(max_runs, 0, 0.05)
  dec <- "none"
  used <- max_runs
  looks <- list()
  for (j in seq_along(rule$looks)) {
    n <- rule$looks[j]
    r <- ns$sequential_look(x[seq_len(n)], y[seq_len(n)], rule$levels[j], test)
    looks[[j]] <- data.frame(look = j, runs = n, level = rule$levels[j],
                             decision = r$decision)
    if (r$decision != "none") {
      dec <- r$decision
      used <- n
      break
    }
  }
  k <- seq_len(used)
  looks <- do.call(rbind, looks)
  t <- ns$new_speedup_timings(
    benchmark = rep("bench", 2L * used),
    version = factor(rep(c("a", "b"), used), levels = c("a", "b")),
    time = c(rbind(x[k], y[k])), run = seq_len(2L * used),
    round = rep(k, each = 2L), process = rep(0L, 2L * used),
    timestamp = as.POSIXct("2026-01-01", tz = "UTC") + seq_len(2L * used),
    source = "measure", run_order = "global",
    attrs = list(sequential = list(test = test, alpha = alpha, max_runs = max_runs,
                                   planned_looks = rule$looks, looks = looks,
                                   decision = dec, level = looks$level[nrow(looks)])))
  list(t = t, decision = dec)
}

for (test in c("median", "mean")) {
  fun <- if (test == "median") median_test else mean_test
  now <- before <- csv <- character(B)
  dec <- character(B)
  agree_csv <- logical(0)
  for (i in seq_len(B)) {
    s <- stream(test)
    dec[i] <- s$decision
    now[i] <- fun(s$t)$direction
    before[i] <- suppressWarnings(fun(s$t, replication = "run"))$direction
    if (i <= 200L) {
      f <- tempfile(fileext = ".csv")
      ns$measure_cli_export(s$t, f)
      agree_csv <- c(agree_csv, identical(fun(read_timings(f))$direction, now[i]))
      unlink(f)
    }
  }
  differ <- function(a) mean(ifelse(a %in% c("speedup", "slowdown"), a, "none") != dec)
  cat(sprintf("%-6s streams %d: decisions differ from the stop's: now %.4f, fixed design before %.4f; after CSV write/read the same as before writing in %d of %d\n",
              test, B, differ(now), differ(before), sum(agree_csv), length(agree_csv)))
  cat(sprintf("%-6s A/A claims of the re-analysis: speedup %.4f, slowdown %.4f (alpha %.2f each)\n",
              test, mean(now %in% "speedup"), mean(now %in% "slowdown"), alpha))
}
cat(sprintf("CPU %.1f s\n", sum((proc.time() - t0)[c(1, 2)])))
