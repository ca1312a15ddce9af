# Benchmark: a history of B benchmarks x C commits x 3 processes (1,000 x
# 1,000 x 3 by default) in an SQLite store: the time to build it, to
# analyse every series with history_changes() (the default detection,
# series_changes()'s certified scan) without a future plan and under a
# multisession plan of 2 workers, to append one commit with history_add(),
# and to analyse again after the append (only the series it touches).
#
# usage (from the package root, with speeduptest, future and future.apply
# installed):
#   Rscript bench/history.R [benchmarks = 1000] [commits = 1000] [repeats = 3]
# Wall-clock seconds (the workers' time is not in this process's CPU
# time), median and range of the repeats; the ratio is sequential / plan.
# 5 % of the series have a 3 % step at a random commit; the others none.
suppressPackageStartupMessages({
  library(speeduptest)
  library(future)
})
args <- commandArgs(trailingOnly = TRUE)
B <- if (length(args) >= 1) as.integer(args[1]) else 1000L
C <- if (length(args) >= 2) as.integer(args[2]) else 1000L
reps <- if (length(args) >= 3) as.integer(args[3]) else 3L
P <- 3L

elapsed <- function(expr) {
  t0 <- proc.time()[["elapsed"]]
  force(expr)
  proc.time()[["elapsed"]] - t0
}
summ <- function(x) sprintf("median %.2f s (range %.2f-%.2f)", stats::median(x), min(x), max(x))

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
build <- elapsed({
  for (chunk in split(seq_len(C - 1L), ceiling(seq_len(C - 1L) / 100))) {
    d <- do.call(rbind, lapply(chunk, commit_rows))
    history_add(h, d, machine = "bench-machine")
  }
})
cat(sprintf("build (history_add of %d commits in chunks of 100): %.1f s\n", C - 1L, build))

# the full analysis: sequential, then 2 workers (each starts from a fresh
# analysis: refresh = TRUE)
seq_t <- numeric()
par_t <- numeric()
for (r in seq_len(reps)) {
  plan(sequential)
  seq_t[r] <- elapsed(a <- history_changes(h, refresh = TRUE))
}
plan(multisession, workers = 2)
invisible(future.apply::future_lapply(1:2, function(i) loadNamespace("speeduptest")))
for (r in seq_len(reps)) {
  par_t[r] <- elapsed(b <- history_changes(h, refresh = TRUE))
}
stopifnot(identical(as.data.frame(a)[c("change_id", "benchmark", "pos_first_bad", "ratio")],
                    as.data.frame(b)[c("change_id", "benchmark", "pos_first_bad", "ratio")]))
cat(sprintf("history_changes(), all %d series, no plan:     %s\n", B, summ(seq_t)))
cat(sprintf("history_changes(), all %d series, 2 workers:   %s\n", B, summ(par_t)))
cat(sprintf("ratio sequential / plan: %.2f\n", stats::median(seq_t) / stats::median(par_t)))
found <- sort(match(a$benchmark, sprintf("bench%05d", seq_len(B))))
hit <- vapply(seq_along(stepped), function(i) {
  k <- which(a$benchmark == sprintf("bench%05d", stepped[i]))
  any(a$pos_from[k] < step_at[i] & a$pos_to[k] >= step_at[i])
}, TRUE)
cat(sprintf("changes reported: %d; stepped series with a range holding the step: %d of %d; unstepped series with a change: %d of %d\n",
            nrow(a), sum(hit), length(stepped), length(setdiff(found, stepped)),
            B - length(stepped)))

# appending one commit (B x 3 processes), then the analysis it calls for
add_t <- numeric()
again_t <- numeric()
for (r in seq_len(reps)) {
  d <- commit_rows(C - 1L + r)
  add_t[r] <- elapsed(history_add(h, d, machine = "bench-machine"))
  again_t[r] <- elapsed(history_changes(h))
}
cat(sprintf("history_add() of one commit (%d processes):      %s\n", B * P, summ(add_t)))
cat(sprintf("history_changes() after it (%d series, 2 workers): %s\n", B, summ(again_t)))
plan(sequential)
one_t <- numeric()
for (r in seq_len(reps)) {
  d <- commit_rows(C - 1L + reps + r)
  d <- d[d$benchmark == "bench00001", ]
  history_add(h, d, machine = "bench-machine")
  one_t[r] <- elapsed(history_changes(h))
}
cat(sprintf("history_changes() after one commit of one benchmark (1 series): %s\n", summ(one_t)))
history_close(h)
cat(sprintf("store: %.0f MB\n", file.size(path) / 2^20))
unlink(path)
