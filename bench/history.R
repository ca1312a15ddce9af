# Benchmark: a history of B benchmarks x C commits x 3 processes (1,000 x
# 1,000 x 3 by default) in an SQLite store: the time to build it, to
# analyse every series with history_changes() (the default detection,
# series_changes()'s certified scan) without a future plan and under a
# multicore plan of 2 workers, to append one commit with history_add(),
# and to analyse again after the append (only the series it touches).
#
# usage (from the package root, with speeduptest, future and future.apply
# installed):
#   Rscript bench/history.R [benchmarks = 1000] [commits = 1000] [repeats = 3]
#                           [plan = "multisession"]
# Each timing gives the wall-clock seconds and the CPU seconds of this
# process and of its workers, median of the repeats. The workers: a
# future plan of 2 workers, "multisession" (background R sessions: their
# CPU time is read from /proc/<pid>/stat before and after) or "multicore"
# (forked workers, whose CPU time R counts when they end). The machine may
# be shared: the load average is printed before and after each part, and
# "on 2 free cores" is the CPU time of this process plus half its
# workers' (what the wall time would be with 2 cores to itself). 5 % of
# the series have a 3 % step at a random commit; the others none.
suppressPackageStartupMessages({
  library(speeduptest)
  library(future)
})
args <- commandArgs(trailingOnly = TRUE)
B <- if (length(args) >= 1) as.integer(args[1]) else 1000L
C <- if (length(args) >= 2) as.integer(args[2]) else 1000L
reps <- if (length(args) >= 3) as.integer(args[3]) else 3L
how <- if (length(args) >= 4) args[4] else "multisession"
P <- 3L
load <- function() paste(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3], collapse = " ")

# the CPU seconds of the multisession workers (their pids from the plan's
# cluster), read from /proc: user + system time in clock ticks
worker_pids <- integer()
worker_cpu <- function() {
  if (!length(worker_pids)) return(0)
  tick <- as.numeric(system("getconf CLK_TCK", intern = TRUE))
  sum(vapply(worker_pids, function(p) {
    f <- sprintf("/proc/%d/stat", p)
    if (!file.exists(f)) return(0)
    st <- strsplit(sub(".*\\) ", "", readLines(f)), " ")[[1]]
    (as.numeric(st[12]) + as.numeric(st[13])) / tick
  }, 0))
}

# wall, CPU of this process, CPU of its workers (forked or sessions)
timed <- function(expr) {
  w0 <- worker_cpu()
  t0 <- proc.time()
  force(expr)
  d <- proc.time() - t0
  c(wall = d[["elapsed"]], self = d[["user.self"]] + d[["sys.self"]],
    workers = d[["user.child"]] + d[["sys.child"]] + worker_cpu() - w0)
}
summ <- function(x) {
  x <- do.call(rbind, x)
  m <- apply(x, 2, stats::median)
  sprintf("wall %.1f s; CPU %.1f s + workers %.1f s; on 2 free cores %.1f s",
          m[["wall"]], m[["self"]], m[["workers"]], m[["self"]] + m[["workers"]] / 2)
}
elapsed <- function(expr) timed(expr)[["wall"]]

set.seed(42)
stepped <- sample(B, max(1, B %/% 20))
step_at <- sample(100:(C - 100), length(stepped), replace = TRUE)
base <- exp(stats::runif(B, 0, 3))
commit_rows <- function(k) {
  bench <- rep(sprintf("bench%05d", seq_len(B)), each = P)
  lvl <- rep(base, each = P)
  j <- match(rep(seq_len(B), each = P), stepped)
  lvl <- lvl * ifelse(!is.na(j) & k >= step_at[pmax(j, 1L)], 1.03, 1)
  data.frame(benchmark = bench, commit = sprintf("%07d", k),
             time = lvl * exp(stats::rnorm(B * P, 0, 0.01)),
             process = rep(seq_len(P), B), stringsAsFactors = FALSE)
}
path <- tempfile(fileext = ".sqlite")
h <- history_open(path)
cat(sprintf("history of %d benchmarks x %d commits x %d processes (%s values)\n",
            B, C, P, format(B * C * P, big.mark = ",")))
cat(sprintf("load average at the start: %s\n", load()))
build <- timed({
  for (chunk in split(seq_len(C - 1L), ceiling(seq_len(C - 1L) / 250))) {
    d <- do.call(rbind, lapply(chunk, commit_rows))
    history_add(h, d, machine = "bench-machine")
  }
})
cat(sprintf("build (history_add of %d commits in chunks of 250):\n  %s (load %s)\n", C - 1L,
            summ(list(build)), load()))

# the full analysis: sequential, then 2 workers (each starts from a fresh
# analysis: refresh = TRUE)
seq_t <- list()
par_t <- list()
for (r in seq_len(reps)) {
  plan(sequential)
  seq_t[[r]] <- timed(a <- history_changes(h, refresh = TRUE))
}
cat(sprintf("history_changes(), all %d series, no plan:\n  %s (load %s)\n", B,
            summ(seq_t), load()))
if (how == "multisession") {
  plan(multisession, workers = 2)
  # the workers' pids, to read their CPU time
  worker_pids <- unlist(future.apply::future_lapply(1:4, function(i) Sys.getpid()))
  worker_pids <- unique(worker_pids)
} else {
  plan(multicore, workers = 2)
}
for (r in seq_len(reps)) {
  par_t[[r]] <- timed(b <- history_changes(h, refresh = TRUE))
}
stopifnot(identical(as.data.frame(a)[c("change_id", "benchmark", "pos_first_bad", "ratio")],
                    as.data.frame(b)[c("change_id", "benchmark", "pos_first_bad", "ratio")]))
cat(sprintf("history_changes(), all %d series, 2 workers (%s):\n  %s (load %s)\n", B, how,
            summ(par_t), load()))
found <- sort(match(a$benchmark, sprintf("bench%05d", seq_len(B))))
hit <- vapply(seq_along(stepped), function(i) {
  k <- which(a$benchmark == sprintf("bench%05d", stepped[i]))
  any(a$pos_from[k] < step_at[i] & a$pos_to[k] >= step_at[i])
}, TRUE)
cat(sprintf("changes reported: %d; stepped series with a range holding the step: %d of %d; unstepped series with a change: %d of %d\n",
            nrow(a), sum(hit), length(stepped), length(setdiff(found, stepped)),
            B - length(stepped)))

# appending one commit (B x 3 processes), then the analysis it calls for
add_t <- list()
again_t <- list()
for (r in seq_len(reps)) {
  d <- commit_rows(C - 1L + r)
  add_t[[r]] <- timed(history_add(h, d, machine = "bench-machine"))
  again_t[[r]] <- timed(history_changes(h))
}
cat(sprintf("history_add() of one commit (%d processes):\n  %s (load %s)\n", B * P,
            summ(add_t), load()))
cat(sprintf("history_changes() after it (%d series, 2 workers):\n  %s (load %s)\n", B,
            summ(again_t), load()))
plan(sequential)
worker_pids <- integer()
one_t <- list()
for (r in seq_len(reps)) {
  d <- commit_rows(C - 1L + reps + r)
  d <- d[d$benchmark == "bench00001", ]
  history_add(h, d, machine = "bench-machine")
  one_t[[r]] <- timed(history_changes(h))
}
cat(sprintf("history_changes() after one commit of one benchmark (1 series):\n  %s\n",
            summ(one_t)))
history_close(h)
cat(sprintf("store: %.0f MB\n", file.size(path) / 2^20))
unlink(path)
