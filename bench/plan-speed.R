# The cost of a verdict's advice and of the median's normal plan, in two
# builds measured in turn (issue 29).
#
#   Rscript bench/plan-speed.R LIB_NEW LIB_REF [rounds] [plans] [verdicts]
#     LIB_NEW, LIB_REF: R libraries each holding a build of speeduptest;
#     rounds: rounds of the two builds in turn (default 5); plans: normal
#     plans timed per size and round (default 200); verdicts: median
#     verdicts of the batch (default 2850)
#
# Each round runs one R process per build, in turn (new, reference); each
# process times, in CPU time (user + system):
#   - format() of each of 45 random verdicts made afresh (the verdicts of
#     /work/wt/fmt-check.R, set.seed(2213): mean and median protocols, 2 to
#     80 runs, log-normal, exponential-tailed and rounded times, alpha
#     0.001-0.2, rigorous or not).  A verdict keeps its plan once made, so
#     each format() is the first one of a fresh verdict.
#   - plan_runs(v) of a median verdict of 20 + 20 and of 40 + 40
#     log-normal runs (sd 0.02) under options(speeduptest.plan_method =
#     "normal"), `plans` times each (what report_site() and compare ask
#     of every undecided verdict's advice).
#   - the advice of `verdicts` median verdicts of 20 + 20 log-normal runs
#     (no change; fresh verdicts) under that option: lapply(vs,
#     plan_advice), and plan_advice_many(vs) in a build that has it.
# The figures: per build the median over the rounds (and the range) of the
# total format() time, of each verdict's format() time, and of the time of
# one normal plan; the ratios new / reference of the medians.
args <- commandArgs(trailingOnly = TRUE)

if (identical(args[1], "--child")) {
  suppressPackageStartupMessages(library(speeduptest))
  plans <- as.integer(args[3])
  random_verdict <- function() {
    n <- sample(c(2:12, 20, 31, 40, 80), 1L)
    m <- sample(c(3:12, 20, 31, 40, 80), 1L)
    ratio <- exp(stats::rnorm(1L, 0, 0.08))
    sd <- stats::runif(1L, 0.01, 0.3)
    gen <- switch(sample(3L, 1L),
      function(k, c) stats::rlnorm(k, log(c), sd),
      function(k, c) c * (1 + stats::rexp(k, 1 / sd)),
      function(k, c) round(c * stats::rlnorm(k, 0, sd), 1) + 0.1)
    x <- gen(n, 10); y <- gen(m, 10 / ratio)
    alpha <- sample(c(0.001, 0.01, 0.05, 0.1, 0.2), 1L)
    fun <- if (stats::runif(1L) < 0.5) mean_test else median_test
    fun(x, y, alpha = alpha, rigorous = stats::runif(1L) < 0.5)
  }
  cpu <- function() sum(proc.time()[c("user.self", "sys.self")])
  set.seed(2213)
  vs <- lapply(1:45, function(i) suppressWarnings(random_verdict()))
  fmt <- vapply(vs, function(v) {
    t0 <- cpu()
    format(v)
    cpu() - t0
  }, 0)
  plan_time <- function(n) {
    set.seed(1)
    v <- median_test(rlnorm(n, 0, 0.02), rlnorm(n, 0, 0.02))
    op <- options(speeduptest.plan_method = "normal")
    on.exit(options(op))
    p <- plan_runs(v)
    t0 <- cpu()
    for (i in seq_len(plans)) plan_runs(v)
    c(runs = p$runs, time = (cpu() - t0) / plans)
  }
  # the advice of many median verdicts of 20 + 20 runs (no change), as a
  # report plans them: one by one, and (in a build that has it) at once
  batch_time <- function(many) {
    set.seed(33)
    vs <- lapply(seq_len(n_batch), function(i) median_test(rlnorm(20, 0, 0.02), rlnorm(20, 0, 0.02)))
    t0 <- cpu()
    if (many) {
      a <- speeduptest:::plan_advice_many(vs)
    } else {
      op <- options(speeduptest.plan_method = "normal")
      a <- lapply(vs, speeduptest:::plan_advice)
      options(op)
    }
    c(time = cpu() - t0, planned = sum(lengths(a) > 0))
  }
  n_batch <- as.integer(args[4])
  has_many <- exists("plan_advice_many", envir = asNamespace("speeduptest"))
  saveRDS(list(fmt = fmt, p20 = plan_time(20), p40 = plan_time(40),
               one = batch_time(FALSE),
               many = if (has_many) batch_time(TRUE) else c(time = NA, planned = NA)),
          args[2])
  quit(save = "no")
}

libs <- args[1:2]
rounds <- if (length(args) >= 3) as.integer(args[3]) else 5L
plans <- if (length(args) >= 4) as.integer(args[4]) else 200L
n_batch <- if (length(args) >= 5) as.integer(args[5]) else 2850L
script <- normalizePath(sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE)))
res <- list(list(), list())
for (r in seq_len(rounds)) for (b in 1:2) {
  f <- tempfile(fileext = ".rds")
  st <- system2(file.path(R.home("bin"), "Rscript"),
                c(script, "--child", f, plans, n_batch),
                env = paste0("R_LIBS=", libs[b]))
  if (st != 0) stop("the child of ", libs[b], " failed")
  res[[b]][[r]] <- readRDS(f)
}
med <- function(v) sprintf("%.4g [%.4g, %.4g]", stats::median(v), min(v), max(v))
for (b in 1:2) {
  tot <- vapply(res[[b]], function(z) sum(z$fmt), 0)
  cat(sprintf("%-4s %s\n  format() of 45 verdicts, s: %s\n  plan 20+20, ms: %s (runs %g)\n  plan 40+40, ms: %s (runs %g)\n",
              c("new", "ref")[b], libs[b], med(tot),
              med(1000 * vapply(res[[b]], function(z) z$p20[["time"]], 0)), res[[b]][[1]]$p20[["runs"]],
              med(1000 * vapply(res[[b]], function(z) z$p40[["time"]], 0)), res[[b]][[1]]$p40[["runs"]]))
}
for (b in 1:2) {
  one <- vapply(res[[b]], function(z) z$one[["time"]], 0)
  many <- vapply(res[[b]], function(z) z$many[["time"]], 0)
  cat(sprintf("%-4s advice of %d median verdicts (%g planned), s: one by one %s; plan_advice_many() %s\n",
              c("new", "ref")[b], n_batch, res[[b]][[1]]$one[["planned"]], med(one),
              if (all(is.na(many))) "-" else med(many)))
}
per <- lapply(res, function(rr) apply(vapply(rr, `[[`, numeric(45), "fmt"), 1, stats::median))
tot <- vapply(res, function(rr) stats::median(vapply(rr, function(z) sum(z$fmt), 0)), 0)
p20 <- vapply(res, function(rr) stats::median(vapply(rr, function(z) z$p20[["time"]], 0)), 0)
p40 <- vapply(res, function(rr) stats::median(vapply(rr, function(z) z$p40[["time"]], 0)), 0)
cat(sprintf("ratio new / ref: format() total %.3f; plan 20+20 %.3f; plan 40+40 %.3f\n",
            tot[1] / tot[2], p20[1] / p20[2], p40[1] / p40[2]))
over <- per[[1]] - (2 * per[[2]] + 0.010)
cat(sprintf("verdicts over 2 x ref + 10 ms: %d of 45 (worst margin %+.1f ms, verdict %d: new %.1f ms, ref %.1f ms)\n",
            sum(over > 0), 1000 * max(over), which.max(over),
            1000 * per[[1]][which.max(over)], 1000 * per[[2]][which.max(over)]))
o <- order(-per[[1]])[1:6]
cat("slowest verdicts (median s, new / ref):\n")
print(data.frame(verdict = o, new = round(per[[1]][o], 4), ref = round(per[[2]][o], 4)))
