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
# the cells of section 1, with 40 times the replicates, go through the same
# C core in one call per cell and check the first 200 replicates against
# the user-facing calls.
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
# cells use many replicates (`proc_reps`, default 40 times `reps`: a Monte
# Carlo standard error of 0.1 % at a rate of 5 %), so the per-process
# summaries are computed for all replicates at once and every replicate
# goes through the protocols' C core in one call (the core of
# speedup_suite(), one replicate per "benchmark"); the first 200
# replicates of each cell are also analysed through median_test() and
# mean_test() on the timings, and must give the same verdicts.
proc_reps <- as.integer(Sys.getenv("REPLICATION_PROC_REPS", as.character(40L * reps)))
ffi_core <- speeduptest:::ffi_suite_benchmarks

# Each column of m summarised (median or mean), vectorised.
col_medians <- function(m) {
  R <- nrow(m)
  col <- rep(seq_len(ncol(m)), each = R)
  s <- matrix(m[order(col, m)], nrow = R)
  if (R %% 2L) s[(R + 1L) / 2L, ] else (s[R / 2L, ] + s[R / 2L + 1L, ]) / 2
}

# The verdicts of both protocols on samples x[, j] against y[, j] (one
# replicate per column): logical matrices of claimed speedups and
# slowdowns, for the mean and the median.
core_flags <- function(xm, ym, rigorous) {
  k <- ncol(xm)
  n <- nrow(xm)
  m <- nrow(ym)
  values <- as.vector(rbind(xm, ym))
  start <- (seq_len(k) - 1) * (n + m)
  r <- .Call(ffi_core, values, as.double(start), as.double(rep(n, k)),
             as.double(start + n), as.double(rep(m, k)),
             rep(alpha, k), rigorous, 0:1)
  stopifnot(all(r$status == 0))
  # the long columns: the mean's and the median's rows alternate
  f <- function(i) {
    rows <- seq.int(i, by = 2L, length.out = k)
    dec <- r$protocols$decision[rows]
    ps <- r$protocols$p_value_slowdown[rows]
    cbind(speedup = dec == 1, slowdown = dec == 0 & !is.na(ps) & ps <= alpha)
  }
  list(mean = f(1L), median = f(2L))
}

process_runs <- function(P, R, between, within, k = 1L) {
  p <- rep(seq_len(P), each = R)
  lev <- function() matrix(rnorm(P * k, 0, between), nrow = P)[p, , drop = FALSE]
  list(x = exp(lev() + matrix(rnorm(P * R * k, 0, within), nrow = P * R)),
       y = exp(lev() + matrix(rnorm(P * R * k, 0, within), nrow = P * R)), p = p)
}

as_process_timings <- function(x, y, p, P) {
  as_timings(data.frame(version = rep(c("old", "new"), each = length(x)),
                        time = c(x, y), process = c(p, P + p)))
}

process_cell <- function(P, R, between, within, seed) {
  set.seed(seed)
  d <- process_runs(P, R, between, within, proc_reps)
  k <- proc_reps
  # per-process summaries: column j of d$x holds replicate j, process by
  # process (R runs each)
  by_process <- function(m, fun) matrix(fun(matrix(m, nrow = R)), nrow = P)
  med_x <- by_process(d$x, col_medians)
  med_y <- by_process(d$y, col_medians)
  mean_x <- by_process(d$x, colMeans)
  mean_y <- by_process(d$y, colMeans)
  proc_med <- core_flags(med_x, med_y, TRUE)$median
  proc_med_nr <- core_flags(med_x, med_y, FALSE)$median
  proc_mean <- core_flags(mean_x, mean_y, TRUE)$mean
  proc_mean_nr <- core_flags(mean_x, mean_y, FALSE)$mean
  pooled <- core_flags(d$x, d$y, TRUE)
  pooled_nr <- core_flags(d$x, d$y, FALSE)
  res <- list(median_process = proc_med, median_process_nonrigorous = proc_med_nr,
              median_pooled = pooled$median, mean_process = proc_mean,
              mean_process_nonrigorous = proc_mean_nr, mean_pooled = pooled_nr$mean)
  # the same verdicts through the user-facing calls on timings
  f <- function(v) c(isTRUE(v$significant), identical(v$direction, "slowdown"))
  for (j in seq_len(min(200L, k))) {
    t <- as_process_timings(d$x[, j], d$y[, j], d$p, P)
    user <- rbind(f(median_test(t, alpha = alpha)),
                  f(median_test(t, alpha = alpha, rigorous = FALSE)),
                  f(median_test(t, alpha = alpha, replication = "run")),
                  f(mean_test(t, alpha = alpha)),
                  f(mean_test(t, alpha = alpha, rigorous = FALSE)),
                  f(mean_test(t, alpha = alpha, replication = "run", rigorous = FALSE)))
    core <- do.call(rbind, lapply(res, function(r) unname(r[j, ])))
    stopifnot(identical(unname(user), unname(core)))
  }
  do.call(rbind, lapply(names(res), function(a) {
    data.frame(design = sprintf("%d processes x %d runs", P, R), analysis = a,
               flag = c("speedup", "slowdown"), rate = colMeans(res[[a]]),
               reps = k, row.names = NULL, stringsAsFactors = FALSE)
  }))
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
  d <- process_runs(1L, 35L, 0.02, 0.005)
  t <- as_process_timings(d$x[, 1L], d$y[, 1L], d$p, 1L)
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
