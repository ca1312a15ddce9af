# Collects the run times shipped as cpu_runs, compiler_runs and omp_runs,
# with speeduptest::measure() taking the runs.
#
# Run from the package root, with the package installed:
#     Rscript data-raw/collect.R            # the full collection (31 runs)
#     Rscript data-raw/collect.R --runs 5   # a quick trial
#     Rscript data-raw/collect.R --nice 0   # do not raise the kernels' priority
#     Rscript data-raw/collect.R --kernels sort,crc --runs 3 --out /tmp/trial
#                                           # a subset, written elsewhere
#
# 1. Compiles the kernels of data-raw/kernels/ (sequential) with gcc -O0,
#    -O1, -O3 and clang -O3, and those of data-raw/kernels/omp/ with gcc -O3
#    without OpenMP ("seq") and with -fopenmp (run with OMP_NUM_THREADS = 1, 2
#    and 4: versions "omp1", "omp2", "omp4").
# 2. Measures each kernel with measure(): its builds are the versions, run
#    31 times each after one warm-up round, in interleaved rounds (every round
#    runs each build once, in a fresh random order), so a slow period of the
#    machine hits every build alike. The kernels are taken in a random order
#    (seed recorded). The commands run at niceness --nice (default -15: a
#    higher scheduling priority than the machine's other jobs; this needs
#    root, and without it nice warns and the kernels run at the normal
#    priority).
# 3. Each kernel also times its own computational section with
#    clock_gettime(CLOCK_MONOTONIC) and prints it with a checksum; measure()
#    keeps that output (appended to one file per kernel, in the order of the
#    runs, warm-ups first) and the script reads it back: `time` is the
#    kernel's section time, `wall` the whole process as measure() timed it,
#    with `user`, `sys` and `max_rss`. It checks that every build of a kernel
#    prints the same checksum.
# 4. Writes runs.csv (every run, warm-ups with run = 0) and machine.csv
#    (machine, compilers, dates, load, seed) to --out (default data-raw/);
#    when that is data-raw/ and every kernel was measured, calls
#    data-raw/make-data.R to turn them into data/*.rda.

library(speeduptest)
args <- commandArgs(trailingOnly = TRUE)
opt <- function(name, default) {
  i <- which(args == name)
  if (length(i)) args[i + 1L] else default
}
n_runs <- as.integer(opt("--runs", 31L))
seed <- as.integer(opt("--seed", 20131001L))
niceness <- as.integer(opt("--nice", -15L))
only <- opt("--kernels", NA_character_)
only <- if (is.na(only)) NULL else strsplit(only, ",", fixed = TRUE)[[1]]

root <- normalizePath(".")
if (!file.exists(file.path(root, "data-raw", "kernels", "harness.h")))
  stop("run this script from the package root")
out_dir <- normalizePath(opt("--out", file.path(root, "data-raw")), mustWork = FALSE)
dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)
kdir <- file.path(root, "data-raw", "kernels")
bdir <- file.path(tempdir(), "speeduptest-kernels")
dir.create(bdir, showWarnings = FALSE, recursive = TRUE)

sh <- function(cmd) paste(system(cmd, intern = TRUE), collapse = "\n")
first_line <- function(cmd) strsplit(sh(cmd), "\n", fixed = TRUE)[[1]][1]
started <- format(Sys.time(), "%Y-%m-%d %H:%M:%S", tz = "UTC")

# ---- compile ---------------------------------------------------------------
compile <- function(cc, flags, src, out) {
  cmd <- sprintf("%s %s -o %s %s -lm 2>&1", cc, flags, shQuote(out), shQuote(src))
  msg <- system(cmd, intern = TRUE)
  status <- attr(msg, "status")
  if (!is.null(status) && status != 0) stop("compilation failed: ", cmd, "\n", paste(msg, collapse = "\n"))
  cmd
}

cpu_kernels <- sub("\\.c$", "", list.files(kdir, pattern = "\\.c$"))
omp_kernels <- sub("\\.c$", "", list.files(file.path(kdir, "omp"), pattern = "\\.c$"))
if (!is.null(only)) {
  cpu_kernels <- intersect(cpu_kernels, only)
  omp_kernels <- intersect(omp_kernels, only)
}
cpu_builds <- list(O0 = c("gcc", "-O0"), O1 = c("gcc", "-O1"), O3 = c("gcc", "-O3"),
                   clang = c("clang", "-O3"))
configs <- list()
for (k in cpu_kernels) for (v in names(cpu_builds)) {
  out <- file.path(bdir, sprintf("cpu-%s-%s", k, v))
  cmd <- compile(cpu_builds[[v]][1], cpu_builds[[v]][2], file.path(kdir, paste0(k, ".c")), out)
  configs[[length(configs) + 1L]] <- list(experiment = "cpu", benchmark = k, version = v,
                                          binary = out, threads = NA_integer_, command = cmd)
}
for (k in omp_kernels) {
  src <- file.path(kdir, "omp", paste0(k, ".c"))
  out <- file.path(bdir, sprintf("omp-%s-seq", k))
  cmd <- compile("gcc", "-O3 -Wno-unknown-pragmas", src, out)
  configs[[length(configs) + 1L]] <- list(experiment = "omp", benchmark = k, version = "seq",
                                          binary = out, threads = NA_integer_, command = cmd)
  out <- file.path(bdir, sprintf("omp-%s-omp", k))
  cmd <- compile("gcc", "-O3 -fopenmp", src, out)
  for (th in c(1L, 2L, 4L))
    configs[[length(configs) + 1L]] <- list(experiment = "omp", benchmark = k,
                                            version = paste0("omp", th), binary = out,
                                            threads = th, command = cmd)
}
cat(length(configs), "configurations compiled\n")

# The shell command of one build.
run_command <- function(cfg) {
  cmd <- shQuote(cfg$binary)
  if (niceness != 0L) cmd <- paste("nice -n", niceness, cmd)
  if (!is.na(cfg$threads)) cmd <- paste0("OMP_NUM_THREADS=", cfg$threads, " ", cmd)
  cmd
}

# ---- measure ---------------------------------------------------------------
set.seed(seed)
groups <- split(seq_along(configs), vapply(configs, function(cf) paste(cf$experiment, cf$benchmark), ""))
groups <- groups[sample(length(groups))]
res <- list()
machines <- list()
offset <- 0L
t_start <- proc.time()[["elapsed"]]
for (g in names(groups)) {
  cfgs <- configs[groups[[g]]]
  cmds <- vapply(cfgs, run_command, "")
  names(cmds) <- vapply(cfgs, `[[`, "", "version")
  outfile <- tempfile(fileext = ".txt")
  t <- measure(cmds, .runs = n_runs, .warmup = 1L, .order = "interleaved",
               .output = outfile, .name = cfgs[[1]]$benchmark, .progress = FALSE)
  out <- readLines(outfile)
  get <- function(key) sub(paste0("^", key, " "), "", grep(paste0("^", key, " "), out, value = TRUE))
  kt <- as.numeric(get("time"))
  ck <- get("checksum")
  k <- length(cfgs)
  if (length(kt) != k + nrow(t) || length(ck) != length(kt))
    stop("the output of ", g, " does not have one time and checksum per run")
  # warm-ups: the first k outputs (their versions are not recorded by measure())
  warm <- data.frame(order = offset + seq_len(k), experiment = cfgs[[1]]$experiment,
                     benchmark = cfgs[[1]]$benchmark, version = NA_character_, run = 0L,
                     time = kt[seq_len(k)], wall = NA_real_, user = NA_real_, sys = NA_real_,
                     max_rss = NA_real_, load1 = attr(t, "machine")$load_before[[1]],
                     checksum = ck[seq_len(k)])
  d <- data.frame(order = offset + k + t$run, experiment = cfgs[[1]]$experiment,
                  benchmark = t$benchmark, version = as.character(t$version),
                  run = as.integer(stats::ave(t$run, t$version, FUN = seq_along)),
                  time = kt[k + t$run], wall = t$time, user = t$user, sys = t$sys,
                  max_rss = t$max_rss, load1 = attr(t, "machine")$load_before[[1]],
                  checksum = ck[k + t$run])
  res[[g]] <- rbind(warm, d)
  machines[[g]] <- attr(t, "machine")
  offset <- offset + k + nrow(t)
  cat(sprintf("%s: %d runs, %.0f s so far\n", g, nrow(t), proc.time()[["elapsed"]] - t_start))
  unlink(outfile)
}
runs <- do.call(rbind, res)
rownames(runs) <- NULL
finished <- format(Sys.time(), "%Y-%m-%d %H:%M:%S", tz = "UTC")

# every build and thread count of a kernel must compute the same result
ck <- tapply(runs$checksum, paste(runs$experiment, runs$benchmark), function(s) length(unique(s)))
if (any(ck != 1L)) warning("checksums differ between builds for: ", paste(names(ck)[ck != 1L], collapse = ", "))

utils::write.csv(runs, file.path(out_dir, "runs.csv"), row.names = FALSE)

m1 <- machines[[1]]
mk <- machines[[length(machines)]]
machine <- c(
  started = started, finished = finished,
  collection_seconds = sprintf("%.0f", proc.time()[["elapsed"]] - t_start),
  uname = sh("uname -a"), cpu_model = m1$cpu_model, nproc = as.character(m1$cores),
  gcc = first_line("gcc --version"), clang = first_line("clang --version"),
  R = R.version.string,
  load_start = paste(m1$load_before, collapse = " "),
  load_end = paste(mk$load_after, collapse = " "),
  seed = as.character(seed), runs_per_version = as.character(n_runs),
  warmup_runs = "1",
  niceness = as.character(niceness),
  timer = paste("time: clock_gettime(CLOCK_MONOTONIC) around the kernel's computational section,",
                "printed by the kernel; wall: the whole process, timed by speeduptest::measure()"),
  harness = sprintf("speeduptest::measure() %s, interleaved rounds per kernel",
                    as.character(utils::packageVersion("speeduptest"))),
  compile_cpu = "gcc -O0 / gcc -O1 / gcc -O3 / clang -O3, each with -lm",
  compile_omp = "gcc -O3 -Wno-unknown-pragmas (seq); gcc -O3 -fopenmp run with OMP_NUM_THREADS=1,2,4",
  checksums_consistent = as.character(all(ck == 1L))
)
utils::write.csv(data.frame(key = names(machine), value = unname(machine)),
                 file.path(out_dir, "machine.csv"), row.names = FALSE)
cat("collection finished in", machine[["collection_seconds"]], "s\n")

if (is.null(only) && identical(out_dir, normalizePath(file.path(root, "data-raw"))))
  source(file.path(root, "data-raw", "make-data.R"))
