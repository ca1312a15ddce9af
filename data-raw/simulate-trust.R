# Precomputes the tables of vignettes/trust.Rmd ("How much to trust a
# verdict") by simulation, with fixed seeds, and saves them to
# inst/extdata/trust-simulation.rds.  About 10 minutes of CPU.
#
#   Rscript data-raw/simulate-trust.R   (from the package root, with the
#                                        package installed)
library(speeduptest)

reps <- as.integer(Sys.getenv("TRUST_REPS", "1000"))
t0 <- proc.time()[["elapsed"]]

# Run-time distributions, each with median about 10 (seconds); a speedup s
# divides every run time by s (the scale model).
dists <- list(
  normal = function(n) rnorm(n, 10, 0.5),
  lognormal = function(n) 10 * rlnorm(n, 0, 0.05),
  gamma = function(n) 8 + rgamma(n, shape = 2, scale = 1),
  bimodal = function(n) ifelse(runif(n) < 0.7, rnorm(n, 9.8, 0.2), rnorm(n, 10.8, 0.2)),
  heavy = function(n) 9 + exp(rt(n, df = 2) * 0.3)
)
sizes <- c(5L, 10L, 20L, 30L, 50L, 100L)
speedup <- 1.05

# ---- 1. type-I error and power of both protocols ---------------------------
one_cell <- function(dist, n, s, test) {
  f <- dists[[dist]]
  out <- replicate(reps, {
    x <- f(n)
    y <- f(n) / s
    v <- test(x, y, rigorous = FALSE)
    w <- test(x, y)                               # rigorous
    c(speedup = isTRUE(v$significant),
      slowdown = identical(v$direction, "slowdown"),
      guaranteed = isTRUE(v$significant) && v$confidence_guaranteed,
      rigorous_speedup = isTRUE(w$significant),
      rigorous_insufficient = is.na(w$significant))
  })
  r <- rowMeans(out)
  names(r) <- paste0("rate_", names(r))
  r
}
set.seed(20261123)
grid <- expand.grid(dist = names(dists), n = sizes, true_speedup = c(1, speedup),
                    protocol = c("mean", "median"), stringsAsFactors = FALSE)
rates <- t(vapply(seq_len(nrow(grid)), function(i) {
  g <- grid[i, ]
  one_cell(g$dist, g$n, g$true_speedup, if (g$protocol == "mean") mean_test else median_test)
}, numeric(5)))
protocols <- cbind(grid, rates)
message(sprintf("protocols done: %.0f s", proc.time()[["elapsed"]] - t0))

# ---- 2. the run-order check: false alarms and power against drift ----------
set.seed(20261124)
alarm_grid <- expand.grid(dist = names(dists), n = c(10L, 30L, 100L),
                          stringsAsFactors = FALSE)
alarm <- vapply(seq_len(nrow(alarm_grid)), function(i) {
  f <- dists[[alarm_grid$dist[i]]]
  n <- alarm_grid$n[i]
  mean(replicate(2L * reps, {
    v <- median_test(f(n), f(n))
    isTRUE(v$run_order$trend)
  }))
}, numeric(1))
false_alarms <- cbind(alarm_grid, rate = alarm)
# interleaved in random order with a global order: three checks
alarm_global <- mean(replicate(2L * reps, {
  lab <- sample(rep(c("A", "B"), 30))
  t <- speeduptest:::new_speedup_timings("b", lab, dists$lognormal(60), run_order = "global")
  isTRUE(median_test(t)$run_order$trend)
}))
message(sprintf("false alarms done: %.0f s", proc.time()[["elapsed"]] - t0))

# Drift: run i of n is slowed by a linear drift reaching `d` standard
# deviations of the noise at the last run.
set.seed(20261125)
drift_grid <- expand.grid(n = c(10L, 30L, 100L), d = c(0.5, 1, 2, 4))
drift_power <- vapply(seq_len(nrow(drift_grid)), function(i) {
  n <- drift_grid$n[i]
  d <- drift_grid$d[i]
  mean(replicate(reps, {
    x <- rnorm(n, 10, 0.5) + 0.5 * d * seq_len(n) / n
    tr <- trend_test(x)
    tr$p.value <= speeduptest:::run_order_level
  }))
}, numeric(1))
drift <- cbind(drift_grid, power = drift_power)
message(sprintf("drift done: %.0f s", proc.time()[["elapsed"]] - t0))

# ---- 3. the drifting A/A pair: blocks against interleaved -------------------
# Two identical programs (median 10 s, noise sd 0.1 s) on a machine that
# slows down by 0.1 % per run; 30 runs each.
aa_one <- function(design, known_order) {
  n <- 30L
  lab <- if (design == "blocks") rep(c("A", "B"), each = n) else rep(c("A", "B"), n)
  time <- 10 * (1 + 0.001 * seq_len(2L * n)) + rnorm(2L * n, 0, 0.1)
  v <- if (known_order) {
    median_test(speeduptest:::new_speedup_timings("aa", lab, time, run_order = "global"))
  } else {
    median_test(time[lab == "A"], time[lab == "B"])
  }
  c(significant = !is.na(v$direction) && v$direction != "none",
    guaranteed = !is.na(v$direction) && v$direction != "none" &&
      v$confidence_guaranteed,
    flagged = isTRUE(v$run_order$trend))
}
set.seed(20261126)
aa <- do.call(rbind, lapply(c("blocks", "interleaved"), function(design) {
  do.call(rbind, lapply(c(TRUE, FALSE), function(known) {
    r <- rowMeans(replicate(reps, aa_one(design, known)))
    data.frame(design = design,
               order = if (known) "global (timings)" else "per sample (vectors)",
               significant = r[["significant"]], guaranteed = r[["guaranteed"]],
               flagged = r[["flagged"]])
  }))
}))
message(sprintf("A/A done: %.0f s", proc.time()[["elapsed"]] - t0))

# ---- 4. a null suite with and without p_adjust -----------------------------
set.seed(20261127)
suite_reps <- max(20L, reps %/% 25L)
null_suite <- do.call(rbind, lapply(seq_len(suite_reps), function(r) {
  same <- lapply(1:200, function(i) list(x = dists$lognormal(35), y = dists$lognormal(35)))
  names(same) <- paste0("b", 1:200)
  do.call(rbind, lapply(c("none", "holm", "BH"), function(adj) {
    s <- speedup_suite(same, p_adjust = adj)
    pr <- s$proportion[s$proportion$protocol == "median", ]
    data.frame(p_adjust = adj, rep = r, significant = pr$a,
               slowdowns = pr$slowdowns, ci_excludes_0 = pr$conf_low > 0,
               speedup_significant = s$overall$speedup_significant[3])
  }))
}))
message(sprintf("suites done: %.0f s", proc.time()[["elapsed"]] - t0))

out <- list(reps = reps, speedup = speedup, protocols = protocols,
            false_alarms = false_alarms, alarm_global = alarm_global,
            drift = drift, aa = aa, null_suite = null_suite,
            seconds = proc.time()[["elapsed"]] - t0,
            version = as.character(utils::packageVersion("speeduptest")))
saveRDS(out, file.path("inst", "extdata", "trust-simulation.rds"), version = 2)
