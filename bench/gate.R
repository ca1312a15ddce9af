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
# (RECIPES=measure or gbench for one recipe; ONE_BLOCKS: see below)
# Needs gcc, g++, libbenchmark-dev and hyperfine.  Prints the rates with
# their standard errors.

jobs <- as.integer(Sys.getenv("JOBS", "40"))
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
                                    paste0("--benchmark_out=", f[i])), stdout = FALSE)
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

conditions <- list(
  measure = list(recipe = "ci-measure.sh", n = 10000000,
                 aa = c(paste0("BASE_CMD=", busy_a, " 10000000"),
                        paste0("CHANGE_CMD=", busy_b, " 10000000")),
                 slow = c(paste0("BASE_CMD=", busy_a, " 10000000"),
                          paste0("CHANGE_CMD=", busy_b, " 10300000")),
                 one = list(kind = "hyperfine",
                            aa = c(paste(busy_a, "10000000"), paste(busy_b, "10000000")),
                            slow = c(paste(busy_a, "10000000"), paste(busy_b, "10300000")))),
  gbench = list(recipe = "ci-gbench.sh",
                aa = c(paste0("BASE_BENCH=", gb_a), paste0("CHANGE_BENCH=", gb_b)),
                slow = c(paste0("BASE_BENCH=", gb_a), paste0("CHANGE_BENCH=", gb_slow)),
                one = list(kind = "gbench", aa = c(gb_a, gb_b), slow = c(gb_a, gb_slow))))

rate <- function(k, n) {
  p <- k / n
  sprintf("%d/%d = %.1f %% (SE %.1f %%)", k, n, 100 * p, 100 * sqrt(p * (1 - p) / n))
}

pid <- disturb_start()
on.exit(disturb_stop(pid), add = TRUE)
results <- list()
t0 <- Sys.time()
for (r in recipes) {
  cnd <- conditions[[r]]
  for (case in c("aa", "slow")) {
    st <- integer(jobs)
    one_st <- integer(jobs)
    one_risk <- logical(jobs)
    for (j in seq_len(jobs)) {
      job <- run_job(cnd$recipe, cnd[[case]])
      st[j] <- job$status
      o <- if (cnd$one$kind == "gbench" || j <= one_blocks) {
        one_process(cnd$one$kind, cnd$one[[case]][1], cnd$one[[case]][2])
      } else list(status = NA_integer_, risk = NA)
      one_st[j] <- o$status
      one_risk[j] <- o$risk
      cat(sprintf("%s %s job %d: exit %d; one process/block per version: exit %s%s\n",
                  r, case, j, st[j], format(one_st[j]),
                  if (isTRUE(o$risk)) " WITH a risk statement" else ""))
    }
    results[[paste(r, case)]] <- list(recipe = r, case = case, status = st,
                                      one_status = one_st, one_risk = one_risk)
  }
}
disturb_stop(pid)
cat(sprintf("\n%d jobs per recipe and case, %s, a busy process on and off at random\n",
            jobs, format(round(difftime(Sys.time(), t0, units = "mins"), 1))))
cat(sprintf("machine: %s, %d cores, load average at the end %s\n",
            sub("^.*: ", "", grep("model name", readLines("/proc/cpuinfo"), value = TRUE)[1]),
            parallel::detectCores(),
            paste(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3], collapse = " ")))
for (x in results) {
  what <- if (x$case == "aa") "byte-identical builds" else "a real 3 % slowdown"
  cat(sprintf("%-8s %-22s failed (exit 1): %s; inconclusive (exit 3): %s\n", x$recipe, what,
              rate(sum(x$status == 1L), length(x$status)),
              rate(sum(x$status == 3L), length(x$status))))
  ok <- !is.na(x$one_status)
  cat(sprintf("%-8s %-22s one %s per version: failed %s, exit 3 %s, risk stated in %s\n",
              "", "", if (x$recipe == "gbench") "process" else "block",
              rate(sum(x$one_status[ok] == 1L), sum(ok)),
              rate(sum(x$one_status[ok] == 3L), sum(ok)),
              rate(sum(x$one_risk[ok]), sum(ok))))
}
