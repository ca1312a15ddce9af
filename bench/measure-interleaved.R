# measure() against `hyperfine -N` on the same commands, interleaved at
# fine grain, so that the load of a shared machine falls on both tools alike.
#
# Design. A pair is two neighbouring blocks on the same command: a block of
# `measure()` runs and a block of `hyperfine -N` runs (the same number of
# runs and one warm-up each), the order of the two alternating from one pair
# to the next. A repeat is `pairs` pairs on each command, the commands taken
# in turn (the pairs of the commands interleaved too). Per pair the ratio of
# the medians measure() / hyperfine; per repeat the median of its pairs'
# ratios (and the ratio of the medians of all its runs, pooled, as a second
# estimator). The script prints the median and range of the repeats' figures
# with the 1-minute load average (median and range over the repeat's blocks).
#
# The commands are a CPU-bound C program of fixed work (a loop of integer
# multiply-adds, its iteration count fixed before the first pair) sized to
# about 1, 10 and 100 ms of CPU time, and `true` (the spawn floor). The CPU
# time of the command per run (user + system; measure()'s per-run figures,
# hyperfine's means) is printed too as a check that both tools ran the same
# work: its ratio should be 1.
#
# Usage (from the package root, the package and hyperfine installed):
#     Rscript bench/measure-interleaved.R [repeats = 7] [pairs = 8] [cases]
# cases: a comma-separated subset of true,1ms,10ms,100ms. About 1 to 2
# minutes a repeat on the machine of bench/README.md.

library(speeduptest)
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1L) as.integer(args[1L]) else 7L
pairs <- if (length(args) >= 2L) as.integer(args[2L]) else 8L
which_cases <- if (length(args) >= 3L) strsplit(args[3L], ",")[[1L]] else
  c("true", "1ms", "10ms", "100ms")
if (!nzchar(Sys.which("hyperfine"))) stop("hyperfine is not on the PATH")
if (!requireNamespace("jsonlite", quietly = TRUE)) stop("jsonlite is not installed")
load1 <- function() as.numeric(strsplit(readLines("/proc/loadavg"), " ")[[1L]][1L])

# ---- the CPU-bound program --------------------------------------------------
dir <- tempfile("bench-interleaved-")
dir.create(dir)
source(file.path("bench", "busy.R"))
busy <- busy_program(dir)
iters <- function(seconds) busy_steps(busy, seconds)
all_cases <- list(
  `true` = list(cmd = "true", runs = 20L),
  `1ms` = list(cmd = paste(busy, iters(0.001)), runs = 20L),
  `10ms` = list(cmd = paste(busy, iters(0.01)), runs = 10L),
  `100ms` = list(cmd = paste(busy, iters(0.1)), runs = 5L))
cases <- all_cases[which_cases]

hf <- function(cmd, n) {
  f <- tempfile(fileext = ".json", tmpdir = dir)
  st <- system2("hyperfine", c("-N", "--runs", n, "--warmup", 1, "--style", "none",
                               "--export-json", f, shQuote(cmd)),
                stdout = FALSE, stderr = FALSE)
  if (st != 0L) stop("hyperfine failed on ", cmd)
  res <- jsonlite::fromJSON(f)$results
  unlink(f)
  list(time = res$times[[1L]], cpu = res$user + res$system)
}
ours <- function(cmd, n) {
  x <- suppressWarnings(measure(x = cmd, .runs = n, .warmup = 1))
  list(time = x$time, cpu = mean(x$user + x$sys))
}

summ <- function(x) sprintf("%.3f (%.3f-%.3f)", stats::median(x), min(x), max(x))
load_txt <- function(l) sprintf("%.1f (%.1f-%.1f)", stats::median(l), min(l), max(l))

cat(sprintf("measure() / hyperfine -N, interleaved: %d repeats of %d pairs of blocks per command\n",
            reps, pairs))
cat(sprintf("machine: %s, %d cores; start load %s\n",
            sub("^model name\\s*:\\s*", "", grep("^model name", readLines("/proc/cpuinfo"),
                                                  value = TRUE)[1L]),
            parallel::detectCores(), paste(readLines("/proc/loadavg"), collapse = "")))
for (nm in names(cases)) cat(sprintf("  %-6s %s, %d runs a block\n", nm, cases[[nm]]$cmd,
                                     cases[[nm]]$runs))
cat("\n")

res <- list()
for (r in seq_len(reps)) {
  for (p in seq_len(pairs)) {
    for (nm in names(cases)) {
      cs <- cases[[nm]]
      l0 <- load1()
      if ((p + r) %% 2L) {
        a <- ours(cs$cmd, cs$runs)
        b <- hf(cs$cmd, cs$runs)
      } else {
        b <- hf(cs$cmd, cs$runs)
        a <- ours(cs$cmd, cs$runs)
      }
      res[[length(res) + 1L]] <- list(case = nm, rep = r, pair = p, load = (l0 + load1()) / 2,
                                      a = a, b = b)
    }
  }
  cat(sprintf("repeat %d done, load %.1f\n", r, load1()))
}

cat("\nratio measure() / hyperfine -N; per repeat: median of the pairs' ratios of medians,",
    "\nand the ratio of the pooled medians; median (range) over the repeats\n\n")
cat(sprintf("%-6s %-22s %-22s %-22s %-14s %s\n", "case", "pairs' median", "pooled medians",
            "CPU per run", "medians (ms)", "load"))
for (nm in names(cases)) {
  rs <- Filter(function(z) z$case == nm, res)
  per_rep <- t(vapply(seq_len(reps), function(r) {
    z <- Filter(function(q) q$rep == r, rs)
    pr <- vapply(z, function(q) stats::median(q$a$time) / stats::median(q$b$time), 0)
    ta <- unlist(lapply(z, function(q) q$a$time))
    tb <- unlist(lapply(z, function(q) q$b$time))
    ca <- mean(vapply(z, function(q) q$a$cpu, 0))
    cb <- mean(vapply(z, function(q) q$b$cpu, 0))
    c(pairs = stats::median(pr), pooled = stats::median(ta) / stats::median(tb),
      cpu = ca / cb, ma = stats::median(ta), mb = stats::median(tb),
      load = stats::median(vapply(z, function(q) q$load, 0)))
  }, numeric(6)))
  cat(sprintf("%-6s %-22s %-22s %-22s %6.2f/%-7.2f %s\n", nm, summ(per_rep[, "pairs"]),
              summ(per_rep[, "pooled"]), summ(per_rep[, "cpu"]),
              1000 * stats::median(per_rep[, "ma"]), 1000 * stats::median(per_rep[, "mb"]),
              load_txt(per_rep[, "load"])))
}
# every pair of every repeat: the median ratio with a bootstrap interval
# (95 %, 2,000 resamples of the pairs), and how many pairs read measure()
# lower; a systematic difference shows as an interval away from 1 with the
# same sign for every program, the load as intervals around 1
cat("\nall pairs: median ratio [95 % bootstrap interval], pairs with measure() lower\n")
set.seed(35)
for (nm in names(cases)) {
  r <- vapply(Filter(function(q) q$case == nm, res),
              function(q) stats::median(q$a$time) / stats::median(q$b$time), 0)
  bs <- replicate(2000L, stats::median(sample(r, replace = TRUE)))
  cat(sprintf("%-6s %.3f [%.3f-%.3f]   %d of %d\n", nm, stats::median(r),
              stats::quantile(bs, 0.025), stats::quantile(bs, 0.975), sum(r < 1), length(r)))
}
cat(sprintf("\nend load %s\n", paste(readLines("/proc/loadavg"), collapse = "")))
out <- Sys.getenv("BENCH_INTERLEAVED_RDS")
if (nzchar(out)) saveRDS(res, out)
