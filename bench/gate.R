# The CI gate on the data CI jobs produce: the recipes of
# vignette("from-your-tool") (inst/ci/ci-measure.sh and ci-gbench.sh), run
# as written in a fresh shell (env -i) on real programs built twice from the
# same source (byte-identical), while a competing busy process is started
# and stopped at random during every job.
#
# For each recipe:
#   A/A   : base and change are the two identical builds: a job fails (exit
#           1) in at most 5 % of jobs (the gate's promise: alpha = 0.05);
#   3 %   : the change does 3 % more work: the job fails in at least 90 %;
# and, with one process per version (the old recipes: each Google Benchmark
# build run once, a file each; one hyperfine file, each command in one
# block), `speeduptest compare` never fails a job with a risk statement
# (exit 1 only with --fail-on unguaranteed-slowdown; no "probability at
# most" in its output).
#
# Usage (from the package's root, with the package installed in R_LIBS):
#   JOBS=40 nice Rscript bench/gate.R
# (RECIPES=measure or gbench for one recipe and CASES=aa or slow for one
# case, so that several can run at the same time; DISTURB=0 starts no busy
# process, for the runs beside the one that does; MINUTES=M starts no job after M minutes, and the summary counts
# the jobs done: the cases alternate, so each has as many; ONE_BLOCKS: see
# below; KEEP: see below; STEPS: the work of busy.c per run, default 10,000,000 steps, about
# 18 ms of CPU time; the slow build's steps are calibrated so that its CPU
# time, process start-up included, is 3 % more.) Needs gcc, g++,
# libbenchmark-dev and hyperfine.  Prints every job's exit status, then the
# rates with their standard errors.

# ---- the closing summary ------------------------------------------------------
# results: per recipe and case, list(recipe, case, status, one_status,
# one_risk, seconds, files) (files: the jobs' times.csv); how: the
# disturbance and the time taken
rate <- function(k, n) {
  if (n == 0) return("no jobs")
  p <- k / n
  sprintf("%d/%d = %.1f %% (SE %.1f %%)", k, n, 100 * p, 100 * sqrt(p * (1 - p) / n))
}
summarise <- function(results, how) {
  done <- vapply(results, function(x) length(x$status), 1L)
  cat(sprintf("\n%s jobs per recipe and case, %s\n",
              paste(unique(done), collapse = "/"), how))
  cat(sprintf("machine: %s, %d cores, load average at the end %s\n",
              sub("^.*: ", "", grep("model name", readLines("/proc/cpuinfo"), value = TRUE)[1]),
              parallel::detectCores(),
              paste(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3], collapse = " ")))
  for (x in results) {
    what <- if (x$case == "aa") "byte-identical builds" else "a real 3 % slowdown"
    cat(sprintf("%-8s %-22s failed (exit 1): %s; inconclusive (exit 3): %s; median job %.0f s\n",
                x$recipe, what,
                rate(sum(x$status == 1L), length(x$status)),
                rate(sum(x$status == 3L), length(x$status)), stats::median(x$seconds)))
    ok <- !is.na(x$one_status)
    cat(sprintf("%-8s %-22s one %s per version: failed %s, exit 3 %s, risk stated in %s\n",
                "", "", if (x$recipe == "gbench") "process" else "block",
                rate(sum(x$one_status[ok] == 1L), sum(ok)),
                rate(sum(x$one_status[ok] == 3L), sum(ok)),
                rate(sum(x$one_risk[ok]), sum(ok))))
  }
  # The change the jobs saw, pooled over a case's jobs: the median over rounds
  # (and benchmarks) of the per-round ratio change / base of the CPU times
  # (for Google Benchmark, of each process's median repetition)
  seen <- function(x) {
    d <- unlist(lapply(x$files, function(f) {
      if (!file.exists(f)) return(NULL)
      t <- utils::read.csv(f)
      if (x$recipe == "measure") t$time <- t$cpu
      a <- stats::aggregate(time ~ benchmark + version + round, t, stats::median)
      w <- stats::reshape(a, idvar = c("benchmark", "round"), timevar = "version",
                          direction = "wide")
      log(w$time.change) - log(w$time.base)
    }))
    if (!length(d)) return("")
    sprintf("; the change seen, pooled over %d rounds: %.2f %% slower", length(d),
            100 * (exp(stats::median(d)) - 1))
  }
  for (x in results) cat(sprintf("%-8s %-22s%s\n", x$recipe,
                                 if (x$case == "aa") "byte-identical builds" else "a real 3 % slowdown",
                                 seen(x)))
  # the closing summary: both rates against their goals
  pool <- function(case, f) {
    xs <- Filter(function(x) x$case == case, results)
    c(k = sum(vapply(xs, f, 1)), n = sum(vapply(xs, function(x) length(x$status), 1L)))
  }
  recipes <- unique(vapply(results, `[[`, "", "recipe"))
  cases <- unique(vapply(results, `[[`, "", "case"))
  cat("\nSummary (", paste(recipes, collapse = " and "), "):\n", sep = "")
  if ("aa" %in% cases) {
    aa <- pool("aa", function(x) sum(x$status == 1L))
    cat(sprintf("  byte-identical builds: jobs failed %s; goal at most 5 %%: %s\n",
                rate(aa[["k"]], aa[["n"]]),
                if (aa[["k"]] <= 0.05 * aa[["n"]]) "met" else "NOT met"))
  }
  if ("slow" %in% cases) {
    slow <- pool("slow", function(x) sum(x$status == 1L))
    cat(sprintf("  a real 3 %% slowdown:   jobs failed %s; goal at least 90 %%: %s\n",
                rate(slow[["k"]], slow[["n"]]),
                if (slow[["k"]] >= 0.9 * slow[["n"]]) "met" else "NOT met"))
  }
  # and per recipe, each against its goal
  if (length(recipes) > 1L) for (x in results) {
    k <- sum(x$status == 1L)
    n <- length(x$status)
    met <- if (x$case == "aa") k <= 0.05 * n else k >= 0.9 * n
    cat(sprintf("    %-8s %-22s %s: %s\n", x$recipe,
                if (x$case == "aa") "byte-identical builds" else "a real 3 % slowdown",
                rate(k, n), if (met) "met" else "NOT met"))
  }
  one_fail <- sum(vapply(results, function(x) sum(x$one_status == 1L, na.rm = TRUE), 1))
  one_risk <- sum(vapply(results, function(x) sum(x$one_risk, na.rm = TRUE), 1))
  one_n <- sum(vapply(results, function(x) sum(!is.na(x$one_status)), 1))
  cat(sprintf("  one process or block per version: failed in %d, stated a risk in %d of %d jobs (goal: never)\n",
              as.integer(one_fail), as.integer(one_risk), as.integer(one_n)))
}

# `Rscript bench/gate.R summary LOG...`: the closing summary of runs made
# side by side (for example one or two per recipe and case, each with its
# own KEEP), pooled from the job lines of their output LOG...; the change
# seen is read from the jobs' times.csv kept in the folder named as LOG
# without its .log (the run's KEEP; a link to it will do), else in KEEP.
parse_logs <- function(logs) {
  rx <- paste0("^(measure|gbench) (aa|slow) job ([0-9]+) \\(([0-9]+) s\\): exit ([0-9]+)",
               ".*; one process/block per version: exit (NA|[0-9]+)( WITH a risk statement)?$")
  l <- do.call(rbind, lapply(logs, function(log) {
    m <- regmatches(readLines(log), regexec(rx, readLines(log)))
    m <- do.call(rbind, m[lengths(m) > 0L])
    if (is.null(m)) return(NULL)
    dir <- sub("\\.log$", "", log)
    if (!dir.exists(dir)) dir <- Sys.getenv("KEEP", tempdir())
    cbind(m, file.path(dir, sprintf("%s-%s-%s.csv", m[, 2], m[, 3], m[, 4])))
  }))
  if (is.null(l)) stop("no job lines in ", paste(logs, collapse = ", "))
  results <- list()
  for (key in unique(paste(l[, 2], l[, 3]))) {
    m <- l[paste(l[, 2], l[, 3]) == key, , drop = FALSE]
    one <- suppressWarnings(as.integer(m[, 7]))
    results[[key]] <- list(recipe = m[1, 2], case = m[1, 3], status = as.integer(m[, 6]),
                           one_status = one,
                           one_risk = ifelse(is.na(one), NA, nzchar(m[, 8])),
                           seconds = as.double(m[, 5]), files = m[, 9])
  }
  results
}
args <- commandArgs(TRUE)
if (length(args) && args[1] == "summary") {
  summarise(parse_logs(args[-1]), sprintf("the runs of %s", paste(basename(args[-1]), collapse = ", ")))
  quit(save = "no")
}

jobs <- as.integer(Sys.getenv("JOBS", "40"))
minutes <- as.numeric(Sys.getenv("MINUTES", "Inf"))
steps <- as.numeric(Sys.getenv("STEPS", "10000000"))
cases <- strsplit(Sys.getenv("CASES", "aa,slow"), ",")[[1]]
disturb <- Sys.getenv("DISTURB", "1") != "0"
# KEEP=DIR keeps each job's times.csv as DIR/RECIPE-CASE-N.csv (for
# bench/gate-resample.R)
keep <- Sys.getenv("KEEP", "")
if (nzchar(keep)) dir.create(keep, showWarnings = FALSE, recursive = TRUE)
# the hyperfine file of each job's programs (one block per version) costs
# as much as the job: made in the first ONE_BLOCKS jobs of each case only
one_blocks <- as.integer(Sys.getenv("ONE_BLOCKS", "5"))
recipes <- strsplit(Sys.getenv("RECIPES", "measure,gbench"), ",")[[1]]
set.seed(as.integer(Sys.getenv("SEED", "20261127")))
lib <- dirname(system.file(package = "speeduptest"))
stopifnot(nzchar(lib))
ci <- system.file("ci", package = "speeduptest")
src <- system.file("extdata", "timings", package = "speeduptest")
work <- tempfile("gate-bench")
dir.create(work)
home <- file.path(work, "home")
dir.create(home)

# ---- the programs, built twice from the same source --------------------------
build <- function(cc, args, out) {
  st <- system2(cc, c(args, "-o", out), stdout = FALSE, stderr = FALSE)
  if (st != 0) stop("cannot build ", out)
  out
}
busy_a <- build("gcc", c("-O2", file.path(src, "busy.c")), file.path(work, "busy-a"))
busy_b <- build("gcc", c("-O2", file.path(src, "busy.c")), file.path(work, "busy-b"))
# the slow command: 3 % more CPU time than the base, the process's start-up
# included (busy 0 is the start-up alone), calibrated on 101 interleaved
# rounds; the slowdown the jobs saw, pooled over them, is printed at the end
cpu_median <- function(cmds) {
  t <- suppressWarnings(do.call(speeduptest::measure,
                                c(as.list(cmds), list(.runs = 101L, .warmup = 3L))))
  d <- as.data.frame(t)
  tapply(d$user + d$sys, d$version, stats::median)[names(cmds)]
}
cal <- cpu_median(c(zero = paste(busy_a, 0), full = paste(busy_a, format(steps, scientific = FALSE))))
per_step <- (cal[["full"]] - cal[["zero"]]) / steps
slow_steps <- round(steps + 0.03 * cal[["full"]] / per_step)
cat(sprintf("busy: start-up %.2f ms, %s steps %.2f ms of CPU time; the 3 %% slower command: %s steps\n",
            1000 * cal[["zero"]], format(steps, big.mark = ","), 1000 * cal[["full"]],
            format(slow_steps, big.mark = ",")))
gb <- function(work_pct, out) {
  build("g++", c("-O2", sprintf("-DWORK=%d", work_pct), file.path(src, "loop_bench.cc"),
                 "-lbenchmark", "-lpthread"), out)
}
gb_a <- gb(100, file.path(work, "bench-a"))
gb_b <- gb(100, file.path(work, "bench-b"))
gb_slow <- gb(103, file.path(work, "bench-slow"))
same <- function(a, b) identical(readBin(a, "raw", file.size(a)), readBin(b, "raw", file.size(b)))
stopifnot(same(busy_a, busy_b), same(gb_a, gb_b))
cat(sprintf("programs: busy.c and loop_bench.cc, each built twice, byte-identical: %s\n",
            same(busy_a, busy_b) && same(gb_a, gb_b)))

# ---- the disturbance: a busy process started and stopped at random -----------
disturb_start <- function() {
  script <- file.path(work, "disturb.sh")
  pidfile <- file.path(work, "disturb.pid")
  writeLines(c(
    "#!/bin/sh",
    "# on and off at random: busy for 0.2-2 s, idle for 0.2-2 s; its process",
    "# group (it leads its own session) is stopped by its id",
    sprintf("echo $$ > %s", shQuote(pidfile)),
    "while :; do",
    "  on=$(awk -v s=$$$(date +%N) 'BEGIN{srand(s); printf \"%.1f\", 0.2 + 1.8 * rand()}')",
    "  off=$(awk -v s=$(date +%N)$$ 'BEGIN{srand(s); printf \"%.1f\", 0.2 + 1.8 * rand()}')",
    "  timeout \"$on\" sh -c 'while :; do :; done'",
    "  sleep \"$off\"",
    "done"), script)
  system(sprintf("setsid sh %s > /dev/null 2>&1 &", shQuote(script)))
  for (i in 1:50) if (!file.exists(pidfile)) Sys.sleep(0.1)
  as.integer(readLines(pidfile))
}
disturb_stop <- function(pid) {
  # the disturbance's own process group, by its id
  system(sprintf("kill -- -%d 2> /dev/null", pid))
}

# ---- one job: the recipe as written, in a fresh shell --------------------------
run_job <- function(recipe, env) {
  dir <- tempfile("job", tmpdir = work)
  dir.create(dir)
  old <- setwd(dir)
  on.exit(setwd(old))
  out <- suppressWarnings(system2("env", c("-i", paste0("HOME=", home),
                                           "PATH=/usr/bin:/bin:/usr/local/bin",
                                           paste0("R_LIBS=", shQuote(lib)), shQuote(env), "sh",
                                           shQuote(file.path(ci, recipe))),
                                  stdout = TRUE, stderr = TRUE))
  st <- attr(out, "status")
  list(status = if (is.null(st)) 0L else as.integer(st), out = out, dir = dir)
}

# The old way on the same programs: one process (or one block) per version.
speeduptest <- file.path(home, ".local", "bin", "speeduptest")
one_process <- function(kind, base, change) {
  dir <- tempfile("one", tmpdir = work)
  dir.create(dir)
  files <- if (kind == "gbench") {
    f <- file.path(dir, c("base.json", "change.json"))
    for (i in 1:2) {
      system2(c(base, change)[i], c("--benchmark_repetitions=35", "--benchmark_min_time=0.01",
                                    "--benchmark_out_format=json",
                                    paste0("--benchmark_out=", f[i])),
              stdout = FALSE, stderr = FALSE)
    }
    c(f, "--metric", "cpu_time")
  } else {
    f <- file.path(dir, "times.json")
    system2("hyperfine", c("-N", "--warmup", "3", "--runs", "31", "--export-json", f,
                           "-n", "base", shQuote(base), "-n", "change", shQuote(change)),
            stdout = FALSE, stderr = FALSE)
    f
  }
  out <- suppressWarnings(system2(speeduptest, c("compare", shQuote(files)),
                                  stdout = TRUE, stderr = TRUE))
  st <- attr(out, "status")
  st <- if (is.null(st)) 0L else as.integer(st)
  list(status = st, risk = any(grepl("probability at most", out)))
}

n0 <- format(steps, scientific = FALSE)
n1 <- format(slow_steps, scientific = FALSE)
conditions <- list(
  measure = list(recipe = "ci-measure.sh",
                 aa = c(paste0("BASE_CMD=", busy_a, " ", n0),
                        paste0("CHANGE_CMD=", busy_b, " ", n0)),
                 slow = c(paste0("BASE_CMD=", busy_a, " ", n0),
                          paste0("CHANGE_CMD=", busy_b, " ", n1)),
                 one = list(kind = "hyperfine",
                            aa = c(paste(busy_a, n0), paste(busy_b, n0)),
                            slow = c(paste(busy_a, n0), paste(busy_b, n1)))),
  gbench = list(recipe = "ci-gbench.sh",
                aa = c(paste0("BASE_BENCH=", gb_a), paste0("CHANGE_BENCH=", gb_b)),
                slow = c(paste0("BASE_BENCH=", gb_a), paste0("CHANGE_BENCH=", gb_slow)),
                one = list(kind = "gbench", aa = c(gb_a, gb_b), slow = c(gb_a, gb_slow))))

pid <- if (disturb) disturb_start() else NA_integer_
if (disturb) on.exit(disturb_stop(pid), add = TRUE)
results <- list()
for (r in recipes) for (case in cases) {
  results[[paste(r, case)]] <- list(recipe = r, case = case, status = integer(),
                                    one_status = integer(), one_risk = logical(),
                                    seconds = double(), files = character())
}
t0 <- Sys.time()
elapsed <- function() as.numeric(difftime(Sys.time(), t0, units = "mins"))
# the jobs of a recipe alternate between its two cases, so that both have
# as many when MINUTES cuts the run short
for (j in seq_len(jobs)) {
  if (elapsed() > minutes) break
  for (r in recipes) {
    cnd <- conditions[[r]]
    for (case in cases) {
      key <- paste(r, case)
      tj <- Sys.time()
      job <- run_job(cnd$recipe, cnd[[case]])
      sec <- as.numeric(difftime(Sys.time(), tj, units = "secs"))
      o <- if (cnd$one$kind == "gbench" || j <= one_blocks) {
        one_process(cnd$one$kind, cnd$one[[case]][1], cnd$one[[case]][2])
      } else list(status = NA_integer_, risk = NA)
      x <- results[[key]]
      x$status <- c(x$status, job$status)
      x$seconds <- c(x$seconds, sec)
      x$files <- c(x$files, file.path(job$dir, "times.csv"))
      if (nzchar(keep) && file.exists(file.path(job$dir, "times.csv"))) {
        file.copy(file.path(job$dir, "times.csv"), file.path(keep, sprintf("%s-%s-%d.csv", r, case, j)))
      }
      x$one_status <- c(x$one_status, o$status)
      x$one_risk <- c(x$one_risk, o$risk)
      results[[key]] <- x
      verdict <- grep("slowdown|speedup|no significant|equivalent|insufficient", job$out,
                      value = TRUE)
      cat(sprintf("%s %s job %d (%.0f s): exit %d%s; one process/block per version: exit %s%s\n",
                  r, case, j, sec, job$status,
                  if (length(verdict)) paste0(" [", trimws(verdict[length(verdict)]), "]") else "",
                  format(o$status), if (isTRUE(o$risk)) " WITH a risk statement" else ""))
      if (job$status == 2L) cat(job$out, sep = "\n")
    }
  }
}
if (disturb) disturb_stop(pid)
summarise(results, sprintf("%s, %s",
  if (disturb) "a busy process on and off at random" else "no busy process of its own",
  format(round(difftime(Sys.time(), t0, units = "mins"), 1))))
