# Simulation of the sequential rule of measure(until = "decided").
#
# Run times are simulated (no process is run): lognormal with a 5% spread
# (sdlog = 0.05) and, in one scenario, a heavy tail (10% of the runs 30%
# slower, as when another job steals the CPU).  The transformed code's times
# are those of the initial code divided by the true speedup (1: no
# difference).  For each scenario the script applies the looks and levels of
# measure() (speeduptest:::sequential_looks / sequential_rule /
# sequential_look: after 10 rounds, then each time the number of rounds grew
# by half, up to max_runs = 100; O'Brien-Fleming-type alpha spending, union
# bound per direction) and, on the same samples, the fixed designs: the
# protocol once on all max_runs runs, and once on the first 31 runs.
#
# Prints, per scenario: the rate of false or true speedup claims and of
# slowdown claims, the mean number of runs per version the sequential rule
# used, and the runs saved against the fixed design of max_runs runs.
#
# Usage (from the package root, package installed):
#     Rscript bench/sequential.R
# Fixed seed; about two minutes of CPU.

library(speeduptest)
looks_fun <- speeduptest:::sequential_looks
rule_fun <- speeduptest:::sequential_rule
look_fun <- speeduptest:::sequential_look

alpha <- 0.05
max_runs <- 100L
looks <- looks_fun(max_runs)
set.seed(20240611)

draw <- function(n, tail) {
  t <- rlnorm(n, log(1), 0.05)
  if (tail) t <- t * ifelse(runif(n) < 0.1, 1.3, 1)
  t
}

fixed_claim <- function(x, y, test) {
  protocol <- if (test == "median") median_test else mean_test
  sp <- isTRUE(protocol(x, y, alpha = alpha)$significant)
  sl <- isTRUE(protocol(y, x, alpha = alpha)$significant)
  if (sp) "speedup" else if (sl) "slowdown" else "none"
}

one <- function(speedup, test, tail, rule) {
  x <- draw(max_runs, tail)
  y <- draw(max_runs, tail) / speedup
  dec <- "none"
  used <- max_runs
  for (j in seq_along(rule$looks)) {
    n <- rule$looks[j]
    r <- look_fun(x[seq_len(n)], y[seq_len(n)], rule$levels[j], test)
    if (r$decision != "none") {
      dec <- r$decision
      used <- n
      break
    }
  }
  c(seq = dec, used = used, fixed = fixed_claim(x, y, test),
    fixed31 = fixed_claim(x[1:31], y[1:31], test))
}

scenario <- function(speedup, test, tail, reps) {
  rule <- rule_fun(looks, max_runs, alpha, test)
  res <- replicate(reps, one(speedup, test, tail, rule))
  used <- as.numeric(res["used", ])
  data.frame(
    test = test, speedup = speedup, tail = tail, reps = reps,
    seq_speedup = mean(res["seq", ] == "speedup"),
    seq_slowdown = mean(res["seq", ] == "slowdown"),
    fixed100_speedup = mean(res["fixed", ] == "speedup"),
    fixed100_slowdown = mean(res["fixed", ] == "slowdown"),
    fixed31_speedup = mean(res["fixed31", ] == "speedup"),
    mean_runs = mean(used),
    saved = 1 - mean(used) / max_runs)
}

cpu0 <- proc.time()
out <- rbind(
  scenario(1, "median", FALSE, 2000),
  scenario(1, "median", TRUE, 1000),
  scenario(1, "mean", FALSE, 1000),
  scenario(1.01, "median", FALSE, 500),
  scenario(1.02, "median", FALSE, 500),
  scenario(1.05, "median", FALSE, 500),
  scenario(1.02, "mean", FALSE, 500),
  scenario(1.05, "median", TRUE, 500))
cpu <- proc.time() - cpu0

cat(sprintf("looks at %s runs per version; levels %s (sum %.4f)\n",
            paste(looks, collapse = ", "),
            paste(format(signif(rule_fun(looks, max_runs, alpha, "median")$levels, 2)),
                  collapse = ", "),
            sum(rule_fun(looks, max_runs, alpha, "median")$levels)))
print(out, digits = 3, row.names = FALSE)
cat(sprintf("CPU: %.0f s\n", cpu[["user.self"]] + cpu[["sys.self"]]))
