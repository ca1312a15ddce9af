# Collects the run times shipped as cpu_runs, compiler_runs and omp_runs.
#
# Run from the package root:
#     Rscript data-raw/collect.R            # the full collection (31 runs)
#     Rscript data-raw/collect.R --runs 5   # a quick trial
#     Rscript data-raw/collect.R --nice 0   # do not raise the kernels' priority
#
# 1. Compiles the kernels of data-raw/kernels/ (sequential) with gcc -O0,
#    -O1, -O3 and clang -O3, and those of data-raw/kernels/omp/ with gcc -O3
#    without OpenMP ("seq") and with -fopenmp (run with OMP_NUM_THREADS = 1, 2
#    and 4: versions "omp1", "omp2", "omp4").
# 2. Builds the list of every (configuration, run) job, shuffles it with a
#    recorded seed, and runs it after one warm-up run of every configuration
#    (the warm-ups, themselves in random order, are recorded with run = 0 and
#    are not shipped). Runs of all configurations are thus interleaved, so a
#    slow period of the machine hits every version alike.
# 3. Each kernel times its own computational section with
#    clock_gettime(CLOCK_MONOTONIC) and prints it with a checksum. The script
#    runs the kernels at niceness --nice (default -15: a higher scheduling
#    priority than the other jobs of the machine; this needs root, and without
#    the right nice warns and the kernels run at the normal priority). It also
#    records the wall-clock time of the whole process as seen from R,
#    the 1-minute load average before each run, and checks that every build
#    of a kernel prints the same checksum.
# 4. Writes data-raw/runs.csv (every run, warm-ups included) and
#    data-raw/machine.csv (machine, compilers, date, load, seed), then calls
#    data-raw/make-data.R to turn them into data/*.rda.

args <- commandArgs(trailingOnly = TRUE)
n_runs <- 31L
if (length(i <- which(args == "--runs"))) n_runs <- as.integer(args[i + 1L])
seed <- 20131001L
if (length(i <- which(args == "--seed"))) seed <- as.integer(args[i + 1L])
niceness <- -15L
if (length(i <- which(args == "--nice"))) niceness <- as.integer(args[i + 1L])

root <- normalizePath(".")
if (!file.exists(file.path(root, "data-raw", "kernels", "harness.h")))
  stop("run this script from the package root")
kdir <- file.path(root, "data-raw", "kernels")
bdir <- file.path(tempdir(), "speeduptest-kernels")
dir.create(bdir, showWarnings = FALSE, recursive = TRUE)

sh <- function(cmd) paste(system(cmd, intern = TRUE), collapse = "\n")
first_line <- function(cmd) strsplit(sh(cmd), "\n", fixed = TRUE)[[1]][1]
loadavg <- function() as.numeric(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3])

load_start <- loadavg()
cpu_model <- grep("^model name", readLines("/proc/cpuinfo"), value = TRUE)
cpu_model <- if (length(cpu_model)) sub("^model name\\s*:\\s*", "", cpu_model[1]) else NA_character_
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

# ---- schedule --------------------------------------------------------------
set.seed(seed)
warm <- data.frame(config = sample(seq_along(configs)), run = 0L)
jobs <- expand.grid(config = seq_along(configs), run = seq_len(n_runs))
jobs <- jobs[sample(nrow(jobs)), ]
jobs <- rbind(warm, jobs)
# number the runs of each configuration in the order they are executed
jobs$run[jobs$run > 0] <- ave(jobs$config[jobs$run > 0], jobs$config[jobs$run > 0],
                              FUN = seq_along)

run_one <- function(cfg) {
  env <- if (is.na(cfg$threads)) character() else sprintf("OMP_NUM_THREADS=%d", cfg$threads)
  t0 <- proc.time()[["elapsed"]]
  out <- if (niceness == 0L) {
    system2(cfg$binary, stdout = TRUE, env = env)
  } else {
    system2("nice", c("-n", niceness, cfg$binary), stdout = TRUE, env = env)
  }
  wall <- proc.time()[["elapsed"]] - t0
  get <- function(key) {
    line <- grep(paste0("^", key, " "), out, value = TRUE)
    if (length(line) != 1L) stop("no ", key, " in output of ", cfg$binary)
    sub(paste0("^", key, " "), "", line)
  }
  list(time = as.numeric(get("time")), checksum = get("checksum"), wall = wall)
}

# ---- run -------------------------------------------------------------------
res <- vector("list", nrow(jobs))
t_start <- proc.time()[["elapsed"]]
for (j in seq_len(nrow(jobs))) {
  cfg <- configs[[jobs$config[j]]]
  load1 <- loadavg()[1]
  r <- run_one(cfg)
  res[[j]] <- data.frame(order = j, experiment = cfg$experiment, benchmark = cfg$benchmark,
                         version = cfg$version, run = jobs$run[j], time = r$time,
                         wall = r$wall, load1 = load1, checksum = r$checksum)
  if (j %% 200 == 0)
    cat(sprintf("%d/%d jobs, %.0f s\n", j, nrow(jobs), proc.time()[["elapsed"]] - t_start))
}
runs <- do.call(rbind, res)
load_end <- loadavg()
finished <- format(Sys.time(), "%Y-%m-%d %H:%M:%S", tz = "UTC")

# every build and thread count of a kernel must compute the same result
ck <- tapply(runs$checksum, paste(runs$experiment, runs$benchmark), function(s) length(unique(s)))
if (any(ck != 1L)) warning("checksums differ between builds for: ", paste(names(ck)[ck != 1L], collapse = ", "))

utils::write.csv(runs, file.path(root, "data-raw", "runs.csv"), row.names = FALSE)

machine <- c(
  started = started, finished = finished,
  collection_seconds = sprintf("%.0f", proc.time()[["elapsed"]] - t_start),
  uname = sh("uname -a"), cpu_model = cpu_model, nproc = sh("nproc"),
  gcc = first_line("gcc --version"), clang = first_line("clang --version"),
  R = R.version.string,
  load_start = paste(load_start, collapse = " "), load_end = paste(load_end, collapse = " "),
  seed = as.character(seed), runs_per_version = as.character(n_runs),
  warmup_runs = "1",
  niceness = as.character(niceness),
  timer = "clock_gettime(CLOCK_MONOTONIC) around the kernel's computational section, printed by the kernel",
  compile_cpu = "gcc -O0 / gcc -O1 / gcc -O3 / clang -O3, each with -lm",
  compile_omp = "gcc -O3 -Wno-unknown-pragmas (seq); gcc -O3 -fopenmp run with OMP_NUM_THREADS=1,2,4",
  checksums_consistent = as.character(all(ck == 1L))
)
utils::write.csv(data.frame(key = names(machine), value = unname(machine)),
                 file.path(root, "data-raw", "machine.csv"), row.names = FALSE)
cat("collection finished in", machine[["collection_seconds"]], "s\n")

source(file.path(root, "data-raw", "make-data.R"))
