# What each tool times, compared run by run: the sequence of system calls
# measure()'s launcher (src/launcher/st-launch.c) makes around a command
# against the sequence `hyperfine -N` makes, in one C program that
# alternates them from one run to the next, so that the load of a shared
# machine falls on both alike (interleaving at the finest grain there is).
#
#   launcher    clock; posix_spawn() with its own process group, a signal
#               mask and defaults, stdin from /dev/null, stdout and stderr to
#               /dev/null; pidfd_open(); poll() of the pidfd; waitid(WNOWAIT);
#               kill() of the group; wait4(); clock
#   hyperfine   clock; open /dev/null three times (Rust's Stdio::null());
#               posix_spawn() with those as stdin, stdout, stderr (Rust's
#               Command::spawn() on Linux with glibc); waitpid() (Child::wait);
#               clock
#   fork        clock; fork(); in the child dup2 of /dev/null and execv();
#               waitpid(); clock (what a spawn without posix_spawn costs)
#
# Each line: the median of the runs of each sequence, and the ratio
# launcher / hyperfine of the medians (median and range over the repeats),
# with the load average. The programs: `true` and the CPU-bound loop of
# bench/busy.c sized to about 1, 10 and 100 ms of CPU.
#
# Usage (from the package root):
#     Rscript bench/measure-instants.R [repeats = 7] [runs = 30]

args <- commandArgs(trailingOnly = TRUE)
reps <- if (length(args) >= 1L) as.integer(args[1L]) else 7L
runs <- if (length(args) >= 2L) as.integer(args[2L]) else 30L
load1 <- function() as.numeric(strsplit(readLines("/proc/loadavg"), " ")[[1L]][1L])
dir <- tempfile("bench-instants-")
dir.create(dir)
cmp_src <- file.path(dir, "instants.c")
writeLines(c(
  "#define _GNU_SOURCE",
  "#include <fcntl.h>", "#include <poll.h>", "#include <signal.h>", "#include <spawn.h>",
  "#include <stdio.h>", "#include <stdlib.h>", "#include <string.h>", "#include <time.h>",
  "#include <unistd.h>", "#include <sys/resource.h>", "#include <sys/syscall.h>",
  "#include <sys/wait.h>",
  "extern char **environ;",
  "static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);",
  "  return t.tv_sec + 1e-9 * t.tv_nsec; }",
  "static int nullfd;",
  "/* the launcher's sequence (st-launch.c, run_one()) */",
  "static double launcher(char **argv) {",
  "  posix_spawn_file_actions_t fa; posix_spawnattr_t at;",
  "  posix_spawn_file_actions_init(&fa); posix_spawnattr_init(&at);",
  "  posix_spawn_file_actions_adddup2(&fa, nullfd, 0);",
  "  posix_spawn_file_actions_adddup2(&fa, nullfd, 1);",
  "  posix_spawn_file_actions_adddup2(&fa, nullfd, 2);",
  "  sigset_t none, dflt; sigemptyset(&none); sigemptyset(&dflt);",
  "  sigaddset(&dflt, SIGINT); sigaddset(&dflt, SIGHUP); sigaddset(&dflt, SIGPIPE);",
  "  sigaddset(&dflt, SIGTERM);",
  "  posix_spawnattr_setpgroup(&at, 0); posix_spawnattr_setsigmask(&at, &none);",
  "  posix_spawnattr_setsigdefault(&at, &dflt);",
  "  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |",
  "                                POSIX_SPAWN_SETSIGDEF);",
  "  pid_t pid; double t0 = now();",
  "  if (posix_spawn(&pid, argv[0], &fa, &at, argv, environ) != 0) exit(2);",
  "  posix_spawn_file_actions_destroy(&fa); posix_spawnattr_destroy(&at);",
  "  int pfd = (int) syscall(SYS_pidfd_open, pid, 0);",
  "  for (;;) {",
  "    siginfo_t si; memset(&si, 0, sizeof si);",
  "    waitid(P_PID, (id_t) pid, &si, WEXITED | WNOHANG | WNOWAIT);",
  "    if (si.si_pid == pid) break;",
  "    struct pollfd p = {pfd, POLLIN, 0}; poll(&p, 1, 3600000);",
  "  }",
  "  kill(-pid, SIGKILL);",
  "  int st; struct rusage ru; wait4(pid, &st, 0, &ru);",
  "  double t1 = now(); close(pfd); return t1 - t0;",
  "}",
  "/* hyperfine's: Stdio::null() opens /dev/null per handle, then posix_spawn, wait */",
  "static double hyperfine(char **argv) {",
  "  double t0 = now();",
  "  int a = open(\"/dev/null\", O_RDONLY | O_CLOEXEC), b = open(\"/dev/null\", O_WRONLY | O_CLOEXEC),",
  "      c = open(\"/dev/null\", O_WRONLY | O_CLOEXEC);",
  "  posix_spawn_file_actions_t fa; posix_spawnattr_t at;",
  "  posix_spawn_file_actions_init(&fa); posix_spawnattr_init(&at);",
  "  posix_spawn_file_actions_adddup2(&fa, a, 0); posix_spawn_file_actions_adddup2(&fa, b, 1);",
  "  posix_spawn_file_actions_adddup2(&fa, c, 2);",
  "  sigset_t none; sigemptyset(&none); posix_spawnattr_setsigmask(&at, &none);",
  "  sigset_t dflt; sigemptyset(&dflt); sigaddset(&dflt, SIGPIPE);",
  "  posix_spawnattr_setsigdefault(&at, &dflt);",
  "  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);",
  "  pid_t pid; if (posix_spawn(&pid, argv[0], &fa, &at, argv, environ) != 0) exit(2);",
  "  posix_spawn_file_actions_destroy(&fa); posix_spawnattr_destroy(&at);",
  "  close(a); close(b); close(c);",
  "  int st; waitpid(pid, &st, 0);",
  "  return now() - t0;",
  "}",
  "static double forked(char **argv) {",
  "  double t0 = now();",
  "  pid_t pid = fork();",
  "  if (pid == 0) { dup2(nullfd, 0); dup2(nullfd, 1); dup2(nullfd, 2);",
  "    execv(argv[0], argv); _exit(127); }",
  "  int st; waitpid(pid, &st, 0);",
  "  return now() - t0;",
  "}",
  "static int cmp(const void *a, const void *b) { double x = *(const double *) a,",
  "  y = *(const double *) b; return (x > y) - (x < y); }",
  "static double median(double *v, int n) { qsort(v, n, sizeof *v, cmp);",
  "  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2; }",
  "int main(int argc, char **argv) {",
  "  int n = atoi(argv[1]); char **cmd = argv + 2;",
  "  nullfd = open(\"/dev/null\", O_RDWR | O_CLOEXEC);",
  "  double *l = malloc(n * sizeof *l), *h = malloc(n * sizeof *h), *f = malloc(n * sizeof *f);",
  "  launcher(cmd); hyperfine(cmd); forked(cmd);",
  "  for (int i = 0; i < n; i++) {  /* the order rotates run by run */",
  "    switch (i % 3) {",
  "    case 0: l[i] = launcher(cmd); h[i] = hyperfine(cmd); f[i] = forked(cmd); break;",
  "    case 1: h[i] = hyperfine(cmd); f[i] = forked(cmd); l[i] = launcher(cmd); break;",
  "    default: f[i] = forked(cmd); l[i] = launcher(cmd); h[i] = hyperfine(cmd); }",
  "  }",
  "  printf(\"%.9f %.9f %.9f\\n\", median(l, n), median(h, n), median(f, n));",
  "  return 0;",
  "}"), cmp_src)
source(file.path("bench", "busy.R"))
busy <- busy_program(dir)
cmp <- file.path(dir, "instants")
if (system2("gcc", c("-O1", "-o", cmp, cmp_src)) != 0L) stop("gcc failed")
iters <- function(seconds) busy_steps(busy, seconds)
cases <- list(`true` = Sys.which("true")[[1L]], `1ms` = c(busy, iters(0.001)),
              `10ms` = c(busy, iters(0.01)), `100ms` = c(busy, iters(0.1)))
nruns <- c(`true` = runs, `1ms` = runs, `10ms` = runs, `100ms` = max(5L, runs %/% 3L))

cat(sprintf("launcher / hyperfine sequences, alternated run by run: %d repeats; start load %s\n\n",
            reps, paste(readLines("/proc/loadavg"), collapse = "")))
cat(sprintf("%-6s %5s %-26s %-26s %-28s %s\n", "case", "runs", "launcher/hyperfine",
            "fork/hyperfine", "medians l / h / f (ms)", "load"))
summ <- function(x) sprintf("%.3f (%.3f-%.3f)", stats::median(x), min(x), max(x))
for (nm in names(cases)) {
  m <- matrix(NA_real_, reps, 3L)
  load <- numeric(reps)
  for (r in seq_len(reps)) {
    load[r] <- load1()
    out <- system2(cmp, c(nruns[[nm]], cases[[nm]]), stdout = TRUE)
    m[r, ] <- as.numeric(strsplit(out, " ")[[1L]])
  }
  cat(sprintf("%-6s %5d %-26s %-26s %8.3f / %8.3f / %8.3f   %.1f (%.1f-%.1f)\n", nm, nruns[[nm]],
              summ(m[, 1L] / m[, 2L]), summ(m[, 3L] / m[, 2L]), 1000 * stats::median(m[, 1L]),
              1000 * stats::median(m[, 2L]), 1000 * stats::median(m[, 3L]),
              stats::median(load), min(load), max(load)))
}
cat(sprintf("\nend load %s\n", paste(readLines("/proc/loadavg"), collapse = "")))
