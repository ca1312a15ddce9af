# measure() against the tools people compare it with, in one run:
# `hyperfine -N` for commands and bench::mark() for R code.
#
# Every repeat runs the two tools in turn on the same work (the order
# alternating from one repeat to the next), so that a busy period of the
# shared machine falls on both; each figure is a ratio measure() / the other
# tool taken within a repeat, and the script prints the median and the range
# of the ratios over the repeats, with the 1-minute load average (median and
# range over the repeats) beside it.
#
#   commands      busy C loops compiled here, sized to about 1 ms, 10 ms and
#                 100 ms when the machine is idle, and `true` (the spawn
#                 floor): ratio of the medians of the runs.
#   per run       the cost of a run beyond the command's own time: the
#                 slope of a call's elapsed time between 10 and 210 runs of
#                 `true`, minus the median reported time; and the fixed
#                 cost of a call (its elapsed time at 10 runs minus 10
#                 slopes).
#   R code        the median time reported for an empty expression `{}` (a
#                 figure, not a ratio: it must be under 1 us), and the
#                 overhead per evaluation: the slope of the CPU time per
#                 evaluation, minus the reported median, for `{}` and for a
#                 byte-compiled loop of about 30 us (`loop()`).
#                 bench::mark() with check = FALSE, memory = FALSE and
#                 filter_gc = FALSE, its leanest settings.
#
# Usage (from the package root, package installed, hyperfine and bench
# installed):
#     Rscript bench/measure-precision.R [repeats = 7] [runs = 20]
# About 3 minutes on the machine of bench/README.md.

library(speeduptest)
args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1L) as.integer(args[1L]) else 7L
runs <- if (length(args) >= 2L) as.integer(args[2L]) else 20L
warm <- 2L
if (!nzchar(Sys.which("hyperfine"))) stop("hyperfine is not on the PATH")
if (!requireNamespace("bench", quietly = TRUE)) stop("bench is not installed")
if (!requireNamespace("jsonlite", quietly = TRUE)) stop("jsonlite is not installed")
`%||%` <- function(a, b) if (is.null(a)) b else a
load1 <- function() as.numeric(strsplit(readLines("/proc/loadavg"), " ")[[1L]][1L])
quiet <- function(expr) suppressWarnings(expr)
now <- function() .Call(speeduptest:::ffi_monotonic_now)
# CPU seconds of this process and of the children it has reaped (the
# launcher, the commands it waited for, hyperfine)
cpu <- function() {
  p <- proc.time()
  p[[1L]] + p[[2L]] + sum(p[4:5], na.rm = TRUE)
}
elapsed <- function(expr) {
  t0 <- now()
  force(expr)
  now() - t0
}
timed <- function(expr) {
  c0 <- cpu()
  t0 <- now()
  force(expr)
  c(wall = now() - t0, cpu = cpu() - c0)
}

# ---- the busy programs -------------------------------------------------------
dir <- tempfile("bench-precision-")
dir.create(dir)
source(file.path("bench", "busy.R"))
busy <- busy_program(dir)
size_to <- function(seconds) {
  iters <- 1e6
  for (i in 1:3) {
    cmd <- paste(busy, format(iters, scientific = FALSE))
    t <- min(quiet(measure(x = cmd, .runs = 7))$time)
    iters <- round(iters * seconds / t)
  }
  paste(busy, format(iters, scientific = FALSE))
}
cases <- list(`true` = "true", `busy 1 ms` = size_to(0.001), `busy 10 ms` = size_to(0.01),
              `busy 100 ms` = size_to(0.1))

hf <- function(cmd, n) {
  f <- tempfile(fileext = ".json", tmpdir = dir)
  el <- timed(st <- system2("hyperfine", c("-N", "--runs", n, "--warmup", warm,
                                           "--style", "none", "--export-json", f,
                                           shQuote(cmd)), stdout = FALSE, stderr = FALSE))
  if (st != 0L) stop("hyperfine failed on ", cmd)
  res <- jsonlite::fromJSON(f)$results
  list(time = res$times[[1L]], elapsed = el[["wall"]], cpu = el[["cpu"]],
       cmd_cpu = res$user + res$system)
}
ours <- function(cmd, n) {
  el <- timed(x <- quiet(measure(x = cmd, .runs = n, .warmup = warm)))
  list(time = x$time, elapsed = el[["wall"]], cpu = el[["cpu"]],
       cmd_cpu = mean(x$user + x$sys))
}

summ <- function(x) sprintf("%.3f (%.3f-%.3f)", stats::median(x), min(x), max(x))
load_txt <- function(l) sprintf("load %.1f (%.1f-%.1f)", stats::median(l), min(l), max(l))

cat(sprintf("measure() / hyperfine -N and bench::mark: %d repeats, %d runs per tool (%d warm-ups)\n",
            reps, runs, warm))
cat(sprintf("machine: %s, %d cores; start load %s\n\n",
            sub("^model name\\s*:\\s*", "", grep("^model name", readLines("/proc/cpuinfo"),
                                                  value = TRUE)[1L]),
            parallel::detectCores(), paste(readLines("/proc/loadavg"), collapse = "")))

# ---- commands: medians -------------------------------------------------------
cat("Commands, ratio of the medians (measure() / hyperfine -N):\n")
for (nm in names(cases)) {
  cmd <- cases[[nm]]
  ratio <- load <- ms_o <- ms_h <- numeric(reps)
  for (r in seq_len(reps)) {
    load[r] <- load1()
    if (r %% 2L) {
      a <- ours(cmd, runs)
      b <- hf(cmd, runs)
    } else {
      b <- hf(cmd, runs)
      a <- ours(cmd, runs)
    }
    ms_o[r] <- stats::median(a$time)
    ms_h[r] <- stats::median(b$time)
    ratio[r] <- ms_o[r] / ms_h[r]
  }
  cat(sprintf("  %-12s %s   measure %.3f ms, hyperfine %.3f ms   %s\n", nm, summ(ratio),
              1000 * stats::median(ms_o), 1000 * stats::median(ms_h), load_txt(load)))
}

# ---- commands: per-run and per-call costs ---------------------------------------
# wall: the slope of a call's elapsed time, minus the median run; CPU: the
# slope of the CPU time of R and its reaped children (launcher, commands,
# hyperfine), minus the mean CPU time of the command itself (which a loaded
# machine does not inflate, where it does the wall time)
n1 <- 10L
n2 <- 210L
over_o <- over_h <- fixed_o <- fixed_h <- cpu_o <- cpu_h <- load <- numeric(reps)
for (r in seq_len(reps)) {
  load[r] <- load1()
  one <- function(tool) {
    a <- tool("true", n1)
    b <- tool("true", n2)
    slope <- (b$elapsed - a$elapsed) / (n2 - n1)
    runs_all <- (n2 - n1)
    c(over = slope - stats::median(b$time), fixed = a$elapsed - n1 * slope,
      cpu = (b$cpu - a$cpu) / runs_all - b$cmd_cpu)
  }
  if (r %% 2L) {
    o <- one(ours)
    h <- one(hf)
  } else {
    h <- one(hf)
    o <- one(ours)
  }
  over_o[r] <- o[["over"]]
  over_h[r] <- h[["over"]]
  fixed_o[r] <- o[["fixed"]]
  fixed_h[r] <- h[["fixed"]]
  cpu_o[r] <- o[["cpu"]]
  cpu_h[r] <- h[["cpu"]]
}
cat("\nCost of a run beyond the command's time (slope 10 -> 210 runs of `true`):\n")
cat(sprintf("  wall: ratio %s   measure %.3f ms, hyperfine %.3f ms   %s\n",
            summ(over_o / over_h), 1000 * stats::median(over_o),
            1000 * stats::median(over_h), load_txt(load)))
cat(sprintf("  CPU:  ratio %s   measure %.3f ms, hyperfine %.3f ms\n",
            summ(cpu_o / cpu_h), 1000 * stats::median(cpu_o), 1000 * stats::median(cpu_h)))
cat(sprintf("Fixed cost of a call: measure %.1f ms (%.1f-%.1f), hyperfine %.1f ms (%.1f-%.1f)\n",
            1000 * stats::median(fixed_o), 1000 * min(fixed_o), 1000 * max(fixed_o),
            1000 * stats::median(fixed_h), 1000 * min(fixed_h), 1000 * max(fixed_h)))

# ---- R code -------------------------------------------------------------------
cat("\nR code against bench::mark():\n")
# a byte-compiled loop of about 30 us: R's JIT would compile a loop written
# at the top level of the expression again at every evaluation
loop <- compiler::cmpfun(function() for (i in 1:5000) NULL)
exprs <- list(`{}` = quote({}), `loop() (30 us)` = quote(loop()))
# the overhead from the CPU time of this process (R code runs in it; a
# loaded machine inflates the wall time of every evaluation, not its CPU)
bm <- function(e, n) {
  el <- timed(x <- eval(bquote(bench::mark(.(e), iterations = .(n), check = FALSE,
                                           memory = FALSE, filter_gc = FALSE))))
  list(median = as.numeric(x$median), elapsed = el[["cpu"]], evals = n)
}
ms <- function(e, n) {
  el <- timed(x <- quiet(eval(bquote(measure(x = .(e), .runs = .(n), .warmup = 1)))))
  b <- attr(x, "timer")$batch[["x"]]
  list(median = stats::median(x$time), elapsed = el[["cpu"]], evals = n * b, batch = b)
}
for (nm in names(exprs)) {
  e <- exprs[[nm]]
  med_o <- med_b <- over_o <- over_b <- load <- batch <- numeric(reps)
  more <- as.integer(ceiling(10000 / ms(e, 11L)$batch))
  for (r in seq_len(reps)) {
    load[r] <- load1()
    pair <- function(tool, n1, n2) {
      a <- tool(e, n1)
      b <- tool(e, n2)
      slope <- (b$elapsed - a$elapsed) / (b$evals - a$evals)
      list(median = b$median, over = slope - b$median, batch = b$batch %||% 1)
    }
    # bench::mark: iterations; measure(): runs, each a batch of evaluations,
    # as many runs as make the same 10,000 more evaluations as bench::mark's
    # (a slope over fewer would be lost in the CPU clock's granularity)
    if (r %% 2L) {
      o <- pair(ms, 11L, 11L + more)
      b <- pair(bm, 1100L, 11100L)
    } else {
      b <- pair(bm, 1100L, 11100L)
      o <- pair(ms, 11L, 11L + more)
    }
    med_o[r] <- o$median
    med_b[r] <- b$median
    over_o[r] <- o$over
    over_b[r] <- b$over
    batch[r] <- o$batch
  }
  cat(sprintf("  %s: reported median measure %.3f us (%.3f-%.3f), bench %.3f us; batch %s   %s\n",
              nm, 1e6 * stats::median(med_o), 1e6 * min(med_o), 1e6 * max(med_o),
              1e6 * stats::median(med_b), paste(unique(batch), collapse = "/"),
              load_txt(load)))
  cat(sprintf("    overhead per evaluation (CPU): measure %.3f us, bench %.3f us, ratio %s\n",
              1e6 * stats::median(over_o), 1e6 * stats::median(over_b),
              summ(over_o / over_b)))
}
cat(sprintf("\nend load %s\n", paste(readLines("/proc/loadavg"), collapse = "")))
