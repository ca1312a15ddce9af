# Accuracy of measure() against hyperfine on the same commands, in one run.
#
# For each command, each repeat runs `hyperfine -N` (no shell) and
# measure() in turn (the order alternating from one repeat to the next),
# with the same number of runs and warm-ups.  The figure is the ratio of the
# medians of all the runs of each tool (measure() / hyperfine); the median
# and the range of the ratios of the repeats' medians are printed beside it.
# Short repeats (10 runs) interleave the tools finely, so a busy period of
# the machine falls on both.  The commands:
#   true          the spawn floor: creating, exec'ing and reaping a process
#   sleep 0.01    a 10 ms command that waits
#   busy          a 10 ms command that computes (a C loop of fixed work,
#                 compiled here; its length depends on the machine)
# and, for the shell: measure() of `sleep 0.01 >/dev/null` (run by
# /bin/sh -c for its redirection, the shell's share subtracted) against
# `hyperfine -N 'sleep 0.01'` (the command's own time), and against hyperfine
# running the same line by its shell (it subtracts the whole of `sh -c ''`,
# the spawn included, so it reads lower than its own -N figure).
#
# Usage (from the package root, package installed, hyperfine on the PATH):
#     Rscript bench/measure.R [repeats] [runs]
# Defaults: 41 repeats of 10 runs (3 warm-ups); about two minutes of wall
# time, mostly waiting.

library(speeduptest)
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1L) as.integer(args[1L]) else 41L
runs <- if (length(args) >= 2L) as.integer(args[2L]) else 10L
warm <- 3L
if (!nzchar(Sys.which("hyperfine"))) stop("hyperfine is not on the PATH")

# A busy loop of fixed work, about 10 ms on the machine of bench/README.md.
dir <- tempfile("bench-measure-")
dir.create(dir)
source(file.path("bench", "busy.R"))
busy <- busy_program(dir)
# calibrate the work to about 10 ms when the machine is idle (the fastest of
# 15 runs: a busy machine only makes runs longer)
iters <- 1e7
for (i in 1:3) {
  cmd <- paste(busy, format(iters, scientific = FALSE))
  t <- min(suppressWarnings(measure(x = cmd, .runs = 15))$time)
  iters <- round(iters * 0.010 / t)
}
busy_cmd <- paste(busy, format(iters, scientific = FALSE))

hf_median <- function(cmd, shell = FALSE) {
  f <- tempfile(fileext = ".json", tmpdir = dir)
  st <- system2("hyperfine", c(if (!shell) "-N", "--runs", runs, "--warmup", warm, "--style", "none",
                               "--export-json", f, shQuote(cmd)),
                stdout = FALSE, stderr = FALSE)
  if (st != 0L) stop("hyperfine failed on ", cmd)
  read_timings(f, format = "hyperfine")$time
}
st_median <- function(cmd) {
  suppressWarnings(measure(x = cmd, .runs = runs, .warmup = warm))$time
}

cases <- list(
  list(label = "true", ours = "true", theirs = "true"),
  list(label = "sleep 0.01", ours = "sleep 0.01", theirs = "sleep 0.01"),
  list(label = "busy (10 ms when idle)", ours = busy_cmd, theirs = busy_cmd),
  list(label = "sleep 0.01 >/dev/null", ours = "sleep 0.01 >/dev/null",
       theirs = "sleep 0.01"),
  list(label = "the same, hyperfine by shell", ours = "sleep 0.01 >/dev/null",
       theirs = "sleep 0.01 >/dev/null", shell = TRUE))

cat(sprintf("%d repeats of %d runs (%d warm-ups) per tool and command; load %s\n", reps,
            runs, warm, paste(readLines("/proc/loadavg", warn = FALSE), collapse = "")))
# Rounds outside, commands inside, the tools' order alternating: a slow
# period of the machine falls on both tools and on every command.
ours <- theirs <- matrix(list(), reps, length(cases))
for (r in seq_len(reps)) {
  for (j in seq_along(cases)) {
    cs <- cases[[j]]
    if ((r + j) %% 2L == 1L) {
      theirs[[r, j]] <- hf_median(cs$theirs, isTRUE(cs$shell))
      ours[[r, j]] <- st_median(cs$ours)
    } else {
      ours[[r, j]] <- st_median(cs$ours)
      theirs[[r, j]] <- hf_median(cs$theirs, isTRUE(cs$shell))
    }
  }
}
rows <- list()
for (j in seq_along(cases)) {
  ratio <- vapply(ours[, j], stats::median, 1) / vapply(theirs[, j], stats::median, 1)
  all_ours <- unlist(ours[, j])
  all_theirs <- unlist(theirs[, j])
  rows[[j]] <- data.frame(
    command = cases[[j]]$label, hyperfine_ms = 1e3 * stats::median(all_theirs),
    measure_ms = 1e3 * stats::median(all_ours),
    ratio = stats::median(all_ours) / stats::median(all_theirs),
    ratio_med = stats::median(ratio), ratio_min = min(ratio), ratio_max = max(ratio))
}
res <- do.call(rbind, rows)
cat(sprintf("\n%d x %d runs per tool and command\n", reps, runs))
cat("| command | hyperfine (median) | measure() (median) | ratio | repeats' ratios: median (range) |\n")
cat("|---|---|---|---|---|\n")
cat(sprintf("| `%s` | %.3f ms | %.3f ms | **%.3f** | %.3f (%.3f-%.3f) |\n", res$command,
            res$hyperfine_ms, res$measure_ms, res$ratio, res$ratio_med, res$ratio_min,
            res$ratio_max), sep = "")
unlink(dir, recursive = TRUE)
