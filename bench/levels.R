# Verdicts whose interval contradicts their decision, or carries a level it
# does not have (issue 29, "levels and intervals").
#   Rscript bench/levels.R [N] [seed]
# N random verdicts (default 3000): sizes 2-60, heavy ties in a third,
# alpha in {0.01, 0.05, 0.1}, runs / processes / rounds, mean, median and
# prob protocols, tolerance 1 or 1.02.  Each is checked:
#   - contradiction: a speedup whose interval does not lie above the
#     tolerance s0 (its lower end <= s0), a slowdown whose interval does not
#     lie below 1 / s0, or "no significant difference" whose interval lies
#     wholly above s0 or wholly below 1 / s0;
#   - level: the interval's stated level (attribute conf.level) is not
#     1 - 2 alpha unless the verdict says so (interval NA with the reason);
#     the printed lines name the same level as the attribute.
suppressPackageStartupMessages(library(speeduptest))
args <- commandArgs(TRUE)
N <- if (length(args) >= 1) as.integer(args[1]) else 3000L
seed <- if (length(args) >= 2) as.integer(args[2]) else 29L
set.seed(seed)

one <- function(i) {
  alpha <- sample(c(0.01, 0.05, 0.1), 1)
  test <- sample(c("mean", "median", "prob"), 1, prob = c(0.3, 0.5, 0.2))
  unit <- sample(c("runs", "processes", "rounds"), 1)
  s0 <- sample(c(1, 1, 1.02), 1)
  ties <- runif(1) < 0.35
  eff <- sample(c(1, 1, 1.01, 1.03, 1.1, 0.95), 1)
  sd <- sample(c(0.005, 0.02, 0.05), 1)
  gen <- function(k, e) {
    v <- rlnorm(k, log(1 / e), sd)
    if (ties) v <- round(v / (sd * 1.5)) * (sd * 1.5)
    pmax(v, 1e-3)
  }
  fun <- switch(test, mean = mean_test, median = median_test, prob = prob_test)
  if (unit == "runs") {
    n <- sample(2:60, 1); m <- sample(2:60, 1)
    x <- gen(n, 1); y <- gen(m, eff)
    v <- fun(x, y, alpha = alpha, rigorous = FALSE, min_speedup = s0)
  } else if (unit == "processes") {
    n <- sample(2:20, 1); m <- sample(2:20, 1); r <- sample(2:5, 1)
    px <- rep(seq_len(n), each = r); py <- rep(n + seq_len(m), each = r)
    bx <- rep(rlnorm(n, 0, sd), each = r); by <- rep(rlnorm(m, 0, sd), each = r)
    d <- data.frame(benchmark = "b",
                    version = rep(c("old", "new"), c(n * r, m * r)),
                    process = c(px, py),
                    time = c(gen(n * r, 1) * bx, gen(m * r, eff) * by))
    v <- fun(as_timings(d), alpha = alpha, rigorous = FALSE, min_speedup = s0)
  } else {
    k <- sample(2:60, 1)
    d <- data.frame(benchmark = "b", version = rep(c("old", "new"), k),
                    round = rep(seq_len(k), each = 2),
                    time = as.vector(rbind(gen(k, 1), gen(k, eff))))
    v <- fun(as_timings(d), alpha = alpha, rigorous = FALSE, min_speedup = s0)
  }
  ci <- as.double(v$speedup_ci)
  lev <- attr(v$speedup_ci, "conf.level")
  dir <- v$direction
  txt <- paste(format(v), collapse = "\n")
  # an end the verdict marks open (attribute "open", printed "(" or ")")
  # excludes the boundary it sits on
  open <- attr(v$speedup_ci, "open")
  if (is.null(open)) open <- c(FALSE, FALSE)
  contra <- FALSE
  if (!is.na(dir) && length(ci) == 2L && !anyNA(ci)) {
    contra <- switch(dir,
      speedup = ci[1] < s0 || (ci[1] == s0 && !open[1]) || ci[2] <= s0,
      slowdown = ci[2] > 1 / s0 || (ci[2] == 1 / s0 && !open[2]) || ci[1] >= 1 / s0,
      none = ci[1] > s0 || ci[2] < 1 / s0,
      FALSE)
  }
  # a level other than 1 - 2 alpha, unless the verdict says it (the print
  # names it) or the interval is NA (no interval at that level).  The
  # exact rank intervals cannot reach 1 - 2 alpha when the one-sided floor
  # of their law exceeds alpha: 1 / choose(n + m, n) (rank-sum, below 50
  # units a sample) or 2^-n (signed rank, n rounds).
  want <- 1 - 2 * alpha
  badlev <- FALSE
  design <- or0(attr(v, "lazy")$design)
  unatt <- test == "median" && if (identical(design, "paired")) 2^-v$n > alpha else
    v$n < 50 && v$m < 50 && 1 / choose(v$n + v$m, v$n) > alpha
  if (!is.na(dir) && test == "median") {
    has_ci <- (length(ci) == 2L && !anyNA(ci)) || isTRUE(attr(v$speedup_ci, "empty"))
    if (unatt && has_ci) badlev <- TRUE
    if (unatt && !grepl("smallest attainable alpha", gsub("\\s+", " ", txt))) badlev <- TRUE
    if (unatt && !identical(v$detectable, Inf)) badlev <- TRUE
    if (!unatt && !has_ci) badlev <- TRUE
  }
  if (length(ci) == 2L && !anyNA(ci)) {
    if (is.null(lev) || is.na(lev)) badlev <- TRUE
    else {
      pct <- paste0(format(100 * lev, trim = TRUE), "%")
      if (!grepl(pct, gsub("\\s+", " ", txt), fixed = TRUE)) badlev <- TRUE
    }
    if (isTRUE(abs(lev - want) > 1e-9) && !grepl("attain", txt)) badlev <- TRUE
  }
  if (contra || badlev) bad_verdicts[[as.character(i)]] <<- v
  data.frame(i = i, test = test, unit = unit, alpha = alpha, s0 = s0,
             ties = ties, n = v$n, m = v$m, direction = dir,
             lo = ci[1], hi = ci[2], level = or0(lev), contra = contra,
             badlev = badlev, design = design)
}
bad_verdicts <- list()
or0 <- function(a) if (is.null(a) || !length(a)) NA else a[1]
res <- do.call(rbind, lapply(seq_len(N), function(i) {
  tryCatch(one(i), error = function(e) {
    message("case ", i, ": ", conditionMessage(e)); NULL })
}))
cat(sprintf("%d verdicts (seed %d): %d contradict their decision, %d carry a level they do not have\n",
            nrow(res), seed, sum(res$contra), sum(res$badlev)))
if (any(res$contra | res$badlev)) {
  bad <- res[res$contra | res$badlev, ]
  print(utils::head(bad, 40), row.names = FALSE)
  print(with(bad, table(test, unit, contra)))
}
if (nzchar(Sys.getenv("LEVELS_KEEP"))) saveRDS(bad_verdicts, Sys.getenv("LEVELS_KEEP"))
invisible(res)
