# Warm-up detection (SPEC section 13), the figures of issue 32's "done":
#   1. classes and steady iterations of simulated processes with known
#      change points (flat, warm-up, slowdown, no steady state; normal and
#      heavy-tailed noise; 2,000 iterations);
#   2. PELT against the CRAN package changepoint (its documented examples
#      and random series);
#   3. median_test(warmup = "detect") on two versions with the same steady
#      state and different warm-ups: how often it claims a change;
#   4. the time to classify many processes of 2,000 iterations, against
#      changepoint's cpt.meanvar() (PELT) alone, per process.
# Run from the package root with the package (and changepoint) installed:
#   Rscript bench/warmup.R [per_class] [series] [experiments] [processes]
# defaults 250 (x 4 classes x 2 noises = 2,000 processes), 1000, 400, 10000.
suppressMessages(library(speeduptest))
args <- as.numeric(commandArgs(trailingOnly = TRUE))
per_class <- if (length(args) >= 1) args[1] else 250
n_series <- if (length(args) >= 2) args[2] else 1000
n_exp <- if (length(args) >= 3) args[3] else 400
n_proc <- if (length(args) >= 4) args[4] else 10000
n <- 2000L
cpu <- function(expr) {
  t <- system.time(expr)
  t[["user.self"]] + t[["sys.self"]]
}

# ---- 1. simulated processes ---------------------------------------------------
# Each process: a level of 1 plus noise (normal, or Student t with 3
# degrees of freedom scaled to the same spread, with 0.5 % of iterations
# spikes of +20 % to +100 %), and its class's change, of a size drawn
# uniformly (setting a: noise CV 1 %, changes of 3 % to 30 %; setting b:
# noise CV 2 %, changes of 2 % to 10 %):
#   warm-up         slower over its first 2 % to 40 % (the steady iteration
#                   is the first after it);
#   slowdown        faster over its first 2 % to 40 %;
#   no steady state flat, then slower or faster from an iteration in its
#                   last 20 % (the rule's window is 25 %).
sim <- function(kind, heavy, cv = 0.01, sizes = c(0.03, 0.30)) {
  size <- stats::runif(1, sizes[1], sizes[2])
  level <- rep(1, n)
  truth <- 1L
  if (kind %in% c("warm-up", "slowdown")) {
    k <- round(stats::runif(1, 0.02, 0.40) * n)
    level[seq_len(k)] <- if (kind == "warm-up") 1 + size else 1 / (1 + size)
    truth <- as.integer(k + 1)
  } else if (kind == "no steady state") {
    k <- round(stats::runif(1, 0.80, 0.97) * n)
    level[(k + 1L):n] <- if (stats::runif(1) < 0.5) 1 + size else 1 / (1 + size)
    truth <- NA_integer_
  }
  e <- if (heavy) {
    v <- cv * stats::rt(n, 3) / sqrt(3)
    spikes <- stats::runif(n) < 0.005
    v[spikes] <- v[spikes] + stats::runif(sum(spikes), 0.2, 1)
    v
  } else stats::rnorm(n, 0, cv)
  list(x = level * pmax(1 + e, 0.5), truth = truth)
}
kinds <- c("flat", "warm-up", "slowdown", "no steady state")
one_setting <- function(label, cv, sizes, seed) {
  set.seed(seed)
  cases <- expand.grid(rep = seq_len(per_class), kind = kinds,
                       noise = c("normal", "heavy-tailed"), stringsAsFactors = FALSE)
  procs <- lapply(seq_len(nrow(cases)), function(i)
    sim(cases$kind[i], cases$noise[i] == "heavy-tailed", cv, sizes))
  w <- warmup_classify(lapply(procs, `[[`, "x"))
  right <- as.character(w$class) == cases$kind
  truth <- vapply(procs, `[[`, 0L, "truth")
  wu <- cases$kind == "warm-up"
  close <- !is.na(w$steady_iteration) & abs(w$steady_iteration - truth) <= 0.05 * n
  cat(sprintf("1%s. %d simulated processes of %d iterations (%d per class and noise): noise CV %g %%, changes of %g %% to %g %%\n",
              label, nrow(cases), n, per_class, 100 * cv, 100 * sizes[1], 100 * sizes[2]))
  cat(sprintf("   class right: %.1f %% (need >= 90 %%)\n", 100 * mean(right)))
  tab <- stats::aggregate(right, list(kind = cases$kind, noise = cases$noise), mean)
  for (i in seq_len(nrow(tab))) {
    cat(sprintf("     %-16s %-13s %.1f %%\n", tab$kind[i], tab$noise[i], 100 * tab$x[i]))
  }
  cat(sprintf("   steady iteration within 5 %% of the length (100 iterations) of the truth: %.1f %% of warm-up processes (need >= 90 %%)\n",
              100 * mean(close[wu])))
  cat(sprintf("   median |steady iteration - truth| over warm-up processes classified warm-up: %.0f iterations\n",
              stats::median(abs(w$steady_iteration - truth)[wu & right])))
  print(table(truth = cases$kind, found = as.character(w$class)))
}
one_setting("a", 0.01, c(0.03, 0.30), 32)
one_setting("b", 0.02, c(0.02, 0.10), 33)

# ---- 2. PELT against changepoint ------------------------------------------------
if (requireNamespace("changepoint", quietly = TRUE)) {
  ref <- function(x, cost, pen, pv, minseg) {
    f <- if (cost == "meanvar") changepoint::cpt.meanvar else changepoint::cpt.mean
    as.integer(changepoint::cpts(suppressWarnings(
      f(x, penalty = pen, pen.value = pv, method = "PELT", minseglen = minseg))))
  }
  set.seed(1)
  ex1 <- c(rnorm(50, 0, 1), rnorm(50, 5, 3), rnorm(50, 10, 1), rnorm(50, 3, 10))
  set.seed(1)
  ex2 <- c(rnorm(50, 0, 1), rnorm(50, 5, 1), rnorm(50, 10, 1), rnorm(50, 3, 1))
  set.seed(1)
  ex3 <- c(rnorm(100, 0, 1), rnorm(100, 10, 1))
  same_ex <- c(
    identical(pelt_changepoints(ex1), ref(ex1, "meanvar", "MBIC", 0, 2)),
    identical(pelt_changepoints(ex1, penalty = 4 * log(200)),
              ref(ex1, "meanvar", "Manual", "4*log(n)", 2)),
    identical(pelt_changepoints(ex2, "mean", "MBIC", 1), ref(ex2, "mean", "MBIC", 0, 1)),
    identical(pelt_changepoints(ex2, "mean", 2 * log(200), 1),
              ref(ex2, "mean", "Manual", "2*log(n)", 1)),
    identical(pelt_changepoints(ex3, "mean", "BIC", 1), ref(ex3, "mean", "BIC", 0, 1)))
  set.seed(2)
  same <- 0L
  for (i in seq_len(n_series)) {
    m <- sample(c(10:200, 500, 2000), 1)
    k <- sample(0:5, 1)
    cp <- sort(sample.int(m, k))
    lens <- diff(c(0, cp, m))
    x <- rnorm(m, rep(rnorm(k + 1, 0, 2), lens), rep(exp(rnorm(k + 1, 0, 0.7)), lens))
    cost <- if (i %% 2) "meanvar" else "mean"
    minseg <- if (cost == "meanvar") 2 else 1
    pen <- c("MBIC", "BIC", "Manual")[i %% 3 + 1]
    pv <- if (pen == "Manual") 15 * log(m) else 0
    same <- same + identical(
      pelt_changepoints(x, cost, if (pen == "Manual") pv else pen, minseg),
      ref(x, cost, pen, pv, minseg))
  }
  cat(sprintf("2. PELT = changepoint::cpt.meanvar/cpt.mean (PELT): %d of %d documented examples, %d of %d random series\n",
              sum(same_ex), length(same_ex), same, n_series))
} else {
  cat("2. changepoint is not installed: skipped\n")
}

# ---- 3. the same steady state, different warm-ups ------------------------------
# Each experiment: 10 processes of each version, 400 iterations each,
# log-normal noise of 1 %; the old version 10 % slower over its first 5 %
# of iterations, the new one over its first 30 %.
one_exp <- function(seed, processes = 10, m = 400) {
  set.seed(seed)
  mk <- function(ver, p, frac) {
    b <- rep(1, m)
    b[seq_len(round(frac * m))] <- 1.1
    data.frame(benchmark = "b", version = ver, process = paste0(ver, p),
               iteration = seq_len(m), time = b * exp(stats::rnorm(m, 0, 0.01)))
  }
  t <- as_timings(do.call(rbind, c(lapply(seq_len(processes), function(p) mk("old", p, 0.05)),
                                   lapply(seq_len(processes), function(p) mk("new", p, 0.30)))))
  c(kept = median_test(t)$direction, detect = median_test(t, warmup = "detect")$direction)
}
res <- vapply(seq_len(n_exp), function(s) one_exp(1000 + s), c(kept = "", detect = ""))
rate <- function(v, d) mean(v == d)
se <- sqrt(0.05 * 0.95 / n_exp)
cat(sprintf("3. %d experiments (10 processes x 400 iterations per version), alpha = 0.05 per direction (Monte Carlo s.e. %.3f)\n",
            n_exp, se))
cat(sprintf("   warmup = \"detect\": speedup claimed in %.3f, slowdown in %.3f\n",
            rate(res["detect", ], "speedup"), rate(res["detect", ], "slowdown")))
cat(sprintf("   warm-up kept:      speedup claimed in %.3f, slowdown in %.3f\n",
            rate(res["kept", ], "speedup"), rate(res["kept", ], "slowdown")))

# ---- 4. speed --------------------------------------------------------------------
set.seed(4)
chunk <- 1000L
chunks <- ceiling(n_proc / chunk)
times <- numeric(chunks)
for (j in seq_len(chunks)) {
  xs <- lapply(seq_len(chunk), function(i) sim(kinds[(i %% 4) + 1], i %% 2 == 0)$x)
  invisible(gc())
  times[j] <- cpu(warmup_classify(xs))
}
total <- sum(times)
cat(sprintf("4. warmup_classify() of %d processes x %d iterations: %.2f s CPU (need < 10 s); per process %.0f us\n",
            chunks * chunk, n, total, 1e6 * total / (chunks * chunk)))
if (requireNamespace("changepoint", quietly = TRUE)) {
  xs <- lapply(1:50, function(i) sim(kinds[(i %% 4) + 1], i %% 2 == 0)$x)
  reps <- 3
  ours <- cps <- numeric(reps)
  for (r in seq_len(reps)) {
    ours[r] <- cpu(warmup_classify(xs))
    cps[r] <- cpu(for (x in xs) changepoint::cpt.meanvar(x, penalty = "Manual",
                                                        pen.value = 15 * log(n),
                                                        method = "PELT", minseglen = 10))
  }
  cat(sprintf("   50 processes, %d repeats: warmup_classify() %.3f s [%.3f, %.3f], changepoint::cpt.meanvar() alone %.3f s [%.3f, %.3f]: ratio %.3f\n",
              reps, stats::median(ours), min(ours), max(ours), stats::median(cps),
              min(cps), max(cps), stats::median(ours) / stats::median(cps)))
}
