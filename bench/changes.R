# Benchmark: series_changes() on simulated histories (issue 31, "Done
# means"), with fixed seeds.
#
# usage (from the package root, with speeduptest installed):
#   Rscript bench/changes.R [what = "all"] [series = 500] [speed series = 100]
# what: "aa" (false alarms), "aa1" (the drift-free cell alone), "step"
# (the 3 % step), "speed", or "all".
#
# A/A: histories of 200 commits x 3 processes without a change, the
#   log time of each process N(0, 0.01^2) around the benchmark's level (a
#   spread of 1 % between processes), in cells:
#     iid                the processes independent (drift-free);
#     AR(1) phi          the processes' noise an AR(1) series in run
#                        order (commit after commit, the 3 processes of a
#                        commit in turn), marginal sd 1 %;
#     drift phi, sd      a slow machine drift: each commit's level an
#                        AR(1) series across commits with marginal sd
#                        `sd`, on top of the iid 1 % of the processes.
#   Printed: the share of series with any reported change (at most
#   alpha = 0.05 is the goal), with its binomial standard error, for the
#   defaults (dependence = "auto", step = "beyond") and the other
#   settings: the exact scan of any change on independent processes
#   (dependence = "independent", step = "any", the default before),
#   "ar1" (whitened, any change), "auto" with any change, and
#   "independent" with steps beyond the tolerance; the same seeds for all.
# step: a 3 % slowdown from a commit drawn in 21 .. 180, on iid noise, on
#   AR(1) noise of the processes (phi = 0.2, 0.5) and on a drift (phi =
#   0.9, sd 0.3 %): the share of series
#   whose reported ranges include one that holds the true first bad
#   commit, the share with a range that holds none (a false range), the
#   first bad commit estimated exactly, the median width of the range;
#   with the defaults and with the old exact scan of any change.
# speed: CPU seconds of series_changes() per series of 1,000 commits x 3
#   processes (A/A, and with two changes), the median of 3 repeats over
#   `speed series` series, against changepoint's PELT (cpt.mean, MBIC) on
#   the same log times when changepoint is installed; the time for a
#   history of 1,000 benchmarks on 2 cores is extrapolated as
#   1,000 x (per series) / 2 (series are independent), and measured when
#   the parallel package can fork.
suppressPackageStartupMessages(library(speeduptest))
args <- commandArgs(trailingOnly = TRUE)
what <- if (length(args) >= 1) args[1] else "all"
nser <- if (length(args) >= 2) as.numeric(args[2]) else 500
nspeed <- if (length(args) >= 3) as.numeric(args[3]) else 100

k <- 200
procs <- 3
pos <- rep(seq_len(k), each = procs)

ar1 <- function(n, phi, sd) {
  e <- stats::filter(rnorm(n, sd = sd * sqrt(1 - phi^2)), phi,
                     method = "recursive", init = rnorm(1, sd = sd))
  as.double(e)
}

noise <- function(cell) {
  n <- k * procs
  switch(cell$kind,
    iid = rnorm(n, sd = 0.01),
    ar_process = ar1(n, cell$phi, 0.01),
    ar_commit = rnorm(n, sd = 0.01) + rep(ar1(k, cell$phi, cell$sd), each = procs))
}

settings <- list(
  default = list(),
  `indep/any` = list(dependence = "independent", step = "any"),
  `ar1/any` = list(dependence = "ar1", step = "any"),
  `auto/any` = list(dependence = "auto", step = "any"),
  `indep/beyond` = list(dependence = "independent", step = "beyond"))

if (what %in% c("aa", "aa1", "all")) {
  cells <- list(
    list(name = "iid (drift-free)", kind = "iid"),
    list(name = "AR(1) phi = 0.2, processes", kind = "ar_process", phi = 0.2),
    list(name = "AR(1) phi = 0.5, processes", kind = "ar_process", phi = 0.5),
    list(name = "AR(1) phi = 0.7, processes", kind = "ar_process", phi = 0.7),
    list(name = "drift phi = 0.5, sd 0.3 %", kind = "ar_commit", phi = 0.5, sd = 0.003),
    list(name = "drift phi = 0.9, sd 0.3 %", kind = "ar_commit", phi = 0.9, sd = 0.003),
    list(name = "drift phi = 0.95, sd 0.5 %", kind = "ar_commit", phi = 0.95, sd = 0.005))
  if (what == "aa1") cells <- cells[1]
  cat(sprintf("A/A: %d series per cell, %d commits x %d processes, alpha = 0.05\n",
              nser, k, procs))
  cat("  (the share of series with any reported change, its standard error)\n")
  cat(sprintf("  %-28s%s\n", "noise", paste(sprintf("%-14s", names(settings)), collapse = "")))
  for (i in seq_along(cells)) {
    cell <- cells[[i]]
    share <- vapply(settings, function(opt) {
      set.seed(310 + i)
      mean(vapply(seq_len(nser), function(j) {
        v <- exp(log(2) + noise(cell))
        nrow(do.call(series_changes, c(list(v, pos), opt))) > 0
      }, TRUE))
    }, 0)
    se <- sqrt(share * (1 - share) / nser)
    cat(sprintf("  %-28s%s\n", cell$name,
                paste(sprintf("%.3f (%.3f) ", share, se), collapse = "")))
  }
}

if (what %in% c("step", "all")) {
  cat(sprintf("3 %% step, %d series of %d commits x %d processes (1 %% spread):\n",
              nser, k, procs))
  cat("  noise, settings: a range holds the true commit; a false range;",
      "first bad exact; median width\n")
  for (cell in list(list(name = "iid", kind = "iid"),
                    list(name = "AR(1) 0.2", kind = "ar_process", phi = 0.2),
                    list(name = "AR(1) 0.5", kind = "ar_process", phi = 0.5),
                    list(name = "drift 0.9", kind = "ar_commit", phi = 0.9, sd = 0.003))) {
    for (nm in c("default", "indep/any")) {
      set.seed(320)
      res <- t(vapply(seq_len(nser), function(j) {
        t0 <- sample(20:179, 1)       # last good commit; the first bad is t0 + 1
        v <- exp(log(2) + noise(cell))
        v[pos > t0] <- v[pos > t0] * 1.03
        r <- do.call(series_changes, c(list(v, pos), settings[[nm]]))
        hold <- r$range_from < t0 + 1 & r$range_to >= t0 + 1
        c(found = any(hold), false = any(!hold), exact = any(r$first_bad == t0 + 1),
          width = if (any(hold)) (r$range_to - r$range_from)[which(hold)[1]] else NA)
      }, c(found = TRUE, false = TRUE, exact = TRUE, width = 0)))
      cat(sprintf("  %-10s %-10s %.3f; %.3f; %.3f; %g commits\n", cell$name, nm,
                  mean(res[, "found"] > 0), mean(res[, "false"] > 0),
                  mean(res[, "exact"] > 0), stats::median(res[, "width"], na.rm = TRUE)))
    }
  }
}

if (what %in% c("speed", "all")) {
  kk <- 1000
  pp <- rep(seq_len(kk), each = procs)
  set.seed(330)
  aa <- lapply(seq_len(nspeed), function(j) exp(rnorm(kk * procs, sd = 0.01)))
  ch <- lapply(seq_len(nspeed), function(j) {
    v <- exp(rnorm(kk * procs, sd = 0.01))
    t1 <- sample(100:450, 1)
    t2 <- sample(550:900, 1)
    v[pp > t1] <- v[pp > t1] * 1.03
    v[pp > t2] <- v[pp > t2] / 1.02
    v
  })
  cpu <- function(expr) {
    t0 <- proc.time()
    force(expr)
    sum((proc.time() - t0)[c(1, 2)])
  }
  time3 <- function(f, data) {
    stats::median(vapply(1:3, function(r) cpu(for (v in data) f(v)), 0)) /
      length(data)
  }
  scan <- function(v) series_changes(v, pp)
  t_aa <- time3(scan, aa)
  t_ch <- time3(scan, ch)
  cat(sprintf("speed: 1,000 commits x %d processes, %d series, CPU per series:\n",
              procs, nspeed))
  cat(sprintf("  scan, A/A: %.1f ms; with two changes: %.1f ms\n",
              1000 * t_aa, 1000 * t_ch))
  if (requireNamespace("changepoint", quietly = TRUE)) {
    pelt <- function(v) {
      x <- log(v)
      changepoint::cpt.mean(x / (stats::mad(diff(x)) / sqrt(2)),
                            method = "PELT", penalty = "MBIC")
    }
    t_pelt <- time3(pelt, ch)
    cat(sprintf("  changepoint::cpt.mean PELT on the same: %.1f ms (scan / PELT: %.2f)\n",
                1000 * t_pelt, t_ch / t_pelt))
  }
  cat(sprintf("  1,000 benchmarks on 2 cores, extrapolated: %.0f s (A/A) to %.0f s (all with changes)\n",
              1000 * t_aa / 2, 1000 * t_ch / 2))
  if (.Platform$OS.type == "unix") {
    set.seed(331)
    hist <- c(aa, ch)
    hist <- hist[rep(seq_along(hist), length.out = 1000)]
    t0 <- proc.time()[["elapsed"]]
    out <- parallel::mclapply(hist, scan, mc.cores = 2)
    el <- proc.time()[["elapsed"]] - t0
    cat(sprintf("  1,000 benchmarks (half with two changes) on 2 forked workers: %.1f s elapsed\n",
                el))
  }
}
