# Error rates of the verdicts on structured timings (SPEC section 9), by
# simulation with fixed seeds, for vignettes/trust.Rmd ("The unit of
# replication") and as the acceptance check of the processes-and-rounds
# analyses.  Saves inst/extdata/replication-simulation.rds and prints the
# table with a PASS/FAIL line per criterion.  About 5 minutes of CPU.
#
#   Rscript data-raw/simulate-replication.R   (from the package root, with
#                                               the package installed)
#   REPLICATION_REPS=200 Rscript data-raw/simulate-replication.R   (quick)
#
# The verdicts come from the package's user-facing calls (median_test() and
# mean_test() on speedup_timings), so the figures are those a user gets;
# the cells of section 1, with ten times the replicates, call the same C
# entry points directly and check the first 200 replicates against the
# user-facing calls.
library(speeduptest)

reps <- as.integer(Sys.getenv("REPLICATION_REPS", "1000"))
alpha <- 0.05
t0 <- proc.time()[["elapsed"]]

# One verdict as three flags.
flags <- function(v) {
  c(speedup = isTRUE(v$significant),
    slowdown = identical(v$direction, "slowdown"),
    guaranteed = isTRUE(v$confidence_guaranteed))
}

# ---- 1. several processes per version: pooled runs against processes --------
# A/A data: the same program in both versions.  Each process draws its own
# level (log-normal, sd `between`, e.g. its memory layout); its runs vary
# around that level (sd `within`).  Process labels are distinct.  These
# cells use more replicates (`proc_reps`, default 10000: a Monte Carlo
# standard error of 0.2 % at a rate of 5 %), so they call the protocols'
# C entry points on the per-process summaries directly; the first 200
# replicates of each cell are also analysed through median_test() and
# mean_test() on the timings, and must give the same verdicts.
proc_reps <- as.integer(Sys.getenv("REPLICATION_PROC_REPS", as.character(10L * reps)))
ffi_median <- speeduptest:::ffi_median_test
ffi_mean <- speeduptest:::ffi_mean_test

process_runs <- function(P, R, between, within) {
  p <- rep(seq_len(P), each = R)
  list(x = exp(rnorm(P, 0, between)[p] + rnorm(P * R, 0, within)),
       y = exp(rnorm(P, 0, between)[p] + rnorm(P * R, 0, within)), p = p)
}

as_process_timings <- function(d, P) {
  as_timings(data.frame(version = rep(c("old", "new"), each = length(d$x)),
                        time = c(d$x, d$y), process = c(d$p, P + d$p)))
}

c_flags <- function(res) {
  c(speedup = res$decision == 1L,
    slowdown = res$decision == 0L && !is.na(res$p_value_slowdown) &&
      res$p_value_slowdown <= alpha)
}

process_cell <- function(P, R, between, within, seed) {
  set.seed(seed)
  out <- vapply(seq_len(proc_reps), function(i) {
    d <- process_runs(P, R, between, within)
    mx <- as.vector(apply(matrix(d$x, nrow = R), 2L, stats::median))
    my <- as.vector(apply(matrix(d$y, nrow = R), 2L, stats::median))
    ax <- colMeans(matrix(d$x, nrow = R))
    ay <- colMeans(matrix(d$y, nrow = R))
    r <- c(median_process = c_flags(.Call(ffi_median, mx, my, alpha, TRUE, 7L)),
           median_process_nonrigorous = c_flags(.Call(ffi_median, mx, my, alpha, FALSE, 7L)),
           median_pooled = c_flags(.Call(ffi_median, d$x, d$y, alpha, TRUE, 7L)),
           mean_process = c_flags(.Call(ffi_mean, ax, ay, alpha, TRUE)),
           mean_process_nonrigorous = c_flags(.Call(ffi_mean, ax, ay, alpha, FALSE)),
           mean_pooled = c_flags(.Call(ffi_mean, d$x, d$y, alpha, FALSE)))
    if (i <= 200L) {
      # the same verdicts through the user-facing calls on timings
      t <- as_process_timings(d, P)
      f <- function(v) c(isTRUE(v$significant), identical(v$direction, "slowdown"))
      same <- c(f(median_test(t, alpha = alpha)),
                f(median_test(t, alpha = alpha, rigorous = FALSE)),
                f(median_test(t, alpha = alpha, replication = "run")),
                f(mean_test(t, alpha = alpha)),
                f(mean_test(t, alpha = alpha, rigorous = FALSE)),
                f(mean_test(t, alpha = alpha, replication = "run", rigorous = FALSE)))
      stopifnot(identical(unname(r), same))
    }
    r
  }, logical(12))
  r <- rowMeans(out)
  parts <- do.call(rbind, strsplit(names(r), ".", fixed = TRUE))
  data.frame(design = sprintf("%d processes x %d runs", P, R),
             analysis = parts[, 1L], flag = parts[, 2L], rate = unname(r),
             reps = proc_reps, stringsAsFactors = FALSE)
}

multi <- rbind(
  process_cell(20L, 3L, 0.02, 0.005, 20261125L),
  process_cell(10L, 50L, 0.02, 0.005, 20261126L))
message(sprintf("processes done: %.0f s", proc.time()[["elapsed"]] - t0))

# ---- 2. one process per version -------------------------------------------
# Two Google Benchmark files or a criterion.rs base/new pair: all 35 runs of
# a version come from one process, whose level differs by chance.
set.seed(20261127L)
single_out <- replicate(reps, {
  t <- as_process_timings(process_runs(1L, 35L, 0.02, 0.005), 1L)
  c(median = flags(median_test(t, alpha = alpha)),
    mean = flags(mean_test(t, alpha = alpha, rigorous = FALSE)))
})
r <- rowMeans(single_out)
parts <- do.call(rbind, strsplit(names(r), ".", fixed = TRUE))
single <- data.frame(design = "1 process x 35 runs", analysis = parts[, 1L],
                     flag = parts[, 2L], rate = unname(r), reps = reps,
                     stringsAsFactors = FALSE)
message(sprintf("single process done: %.0f s", proc.time()[["elapsed"]] - t0))

# ---- 3. interleaved rounds under drift: paired against unpaired -------------
# measure()'s interleaved order: 31 rounds, each running both versions in a
# random order, one process per run.  The machine drifts slowly (a random
# walk of the log time, step sd `drift` per run, plus a slow sine wave of
# amplitude `wave`); each run has its own noise (sd `noise`).
round_timings <- function(rounds, speedup, drift = 0.002, wave = 0.01,
                          noise = 0.004) {
  n <- 2L * rounds
  ver <- as.integer(unlist(lapply(seq_len(rounds), function(i) sample.int(2L))))
  pos <- seq_len(n)
  machine <- cumsum(rnorm(n, 0, drift)) + wave * sin(2 * pi * pos / n + runif(1, 0, 2 * pi))
  lt <- machine + rnorm(n, 0, noise) - ifelse(ver == 2L, log(speedup), 0)
  as_timings(data.frame(
    version = factor(c("old", "new")[ver], levels = c("old", "new")),
    time = exp(lt), run = pos, process = pos,
    round = (pos - 1L) %/% 2L + 1L,
    timestamp = as.POSIXct(1.7e9 + pos, origin = "1970-01-01")))
}

drift_cell <- function(speedup, seed) {
  set.seed(seed)
  out <- replicate(reps, {
    t <- round_timings(31L, speedup)
    c(median_paired = flags(median_test(t, alpha = alpha)),
      median_unpaired = flags(median_test(t, alpha = alpha, design = "unpaired",
                                          rigorous = FALSE)),
      mean_paired = flags(mean_test(t, alpha = alpha)),
      mean_unpaired = flags(mean_test(t, alpha = alpha, design = "unpaired",
                                      rigorous = FALSE)))
  })
  r <- rowMeans(out)
  parts <- do.call(rbind, strsplit(names(r), ".", fixed = TRUE))
  data.frame(design = sprintf("31 rounds, true speedup %s", format(speedup)),
             analysis = parts[, 1L], flag = parts[, 2L], rate = unname(r),
             reps = reps, stringsAsFactors = FALSE)
}

drift <- rbind(drift_cell(1, 20261128L), drift_cell(1.005, 20261129L))
message(sprintf("rounds done: %.0f s", proc.time()[["elapsed"]] - t0))

rates <- rbind(multi, single, drift)
# the Monte Carlo standard error of each rate
rates$se <- sqrt(rates$rate * (1 - rates$rate) / rates$reps)

# ---- the acceptance criteria ---------------------------------------------------
rate <- function(design, analysis, flag) {
  rates$rate[rates$design == design & rates$analysis == analysis & rates$flag == flag]
}
checks <- data.frame(
  criterion = c(
    "20 x 3 A/A, per-process median: claimed speedups <= 5%",
    "20 x 3 A/A, per-process median: claimed slowdowns <= 5%",
    "20 x 3 A/A, per-process mean: claimed speedups <= 5%",
    "20 x 3 A/A, per-process mean: claimed slowdowns <= 5%",
    "10 x 50 A/A, per-process median: claimed speedups <= 5%",
    "10 x 50 A/A, per-process median: claimed slowdowns <= 5%",
    "10 x 50 A/A, per-process mean: claimed speedups <= 5%",
    "10 x 50 A/A, per-process mean: claimed slowdowns <= 5%",
    "one process per version: no guaranteed verdict (median)",
    "one process per version: no guaranteed verdict (mean)",
    "31 rounds under drift, speedup 1.005 found (paired median) >= 90%",
    "31 rounds under drift, A/A claimed speedups (paired median) <= 5%",
    "31 rounds under drift, A/A claimed slowdowns (paired median) <= 5%"),
  value = c(
    rate("20 processes x 3 runs", "median_process", "speedup"),
    rate("20 processes x 3 runs", "median_process", "slowdown"),
    rate("20 processes x 3 runs", "mean_process", "speedup"),
    rate("20 processes x 3 runs", "mean_process", "slowdown"),
    rate("10 processes x 50 runs", "median_process", "speedup"),
    rate("10 processes x 50 runs", "median_process", "slowdown"),
    rate("10 processes x 50 runs", "mean_process", "speedup"),
    rate("10 processes x 50 runs", "mean_process", "slowdown"),
    rate("1 process x 35 runs", "median", "guaranteed"),
    rate("1 process x 35 runs", "mean", "guaranteed"),
    rate("31 rounds, true speedup 1.005", "median_paired", "speedup"),
    rate("31 rounds, true speedup 1", "median_paired", "speedup"),
    rate("31 rounds, true speedup 1", "median_paired", "slowdown")),
  stringsAsFactors = FALSE)
checks$pass <- c(checks$value[1:8] <= alpha,
                 checks$value[9:10] == 0,
                 checks$value[11] >= 0.90,
                 checks$value[12:13] <= alpha)

checks$se <- sqrt(checks$value * (1 - checks$value) /
                  c(rep(proc_reps, 8L), rep(reps, 5L)))
result <- list(rates = rates, checks = checks, reps = reps, proc_reps = proc_reps,
               alpha = alpha,
               seconds = proc.time()[["elapsed"]] - t0,
               r_version = R.version.string,
               package_version = tryCatch(as.character(utils::packageVersion("speeduptest")),
                                          error = function(e) NA_character_))
out <- file.path("inst", "extdata", "replication-simulation.rds")
if (dir.exists(dirname(out))) saveRDS(result, out, version = 2)

wide <- reshape(rates[rates$flag != "guaranteed", c("design", "analysis", "flag", "rate")],
                idvar = c("design", "analysis"), timevar = "flag", direction = "wide")
print(wide, row.names = FALSE, digits = 3)
for (i in seq_len(nrow(checks))) {
  cat(sprintf("%s  %-66s %.4f (se %.4f)\n", if (checks$pass[i]) "PASS" else "FAIL",
              checks$criterion[i], checks$value[i], checks$se[i]))
}
message(sprintf("total: %.0f s", proc.time()[["elapsed"]] - t0))
