# More jobs than the machine has time for: the rounds that the byte-identical
# jobs of bench/gate.R measured, resampled. Each resampled job draws a job's
# rounds with replacement (as many as it had: a round keeps its runs of both
# versions, so the pairing and the job's own load stay). The job's own chance
# difference is taken out first (the change's times divided by the median
# over rounds of the ratio change / base, per benchmark), so that a resampled
# job's error is its own and not the real job's plus its own; then the
# change is made 3 % slower by multiplying its times by 1.03 (the slowdown
# case) or left as it is (the byte-identical case); then `speeduptest compare` decides as the
# recipe's gate does. The rates are those of jobs whose spread is the spread
# the real jobs had; the real jobs' own rates are bench/gate.R's.
#
# Usage: KEEP=DIR JOBS=40 nice Rscript bench/gate.R, then
#   nice Rscript bench/gate-resample.R DIR... [R]
# (each DIR holds jobs' times.csv as RECIPE-aa-N.csv, for example the KEEP
# of each of several runs made side by side; R resampled jobs per real job,
# default 10.)

library(speeduptest)
args <- commandArgs(TRUE)
dir <- args[dir.exists(args)]
reps <- if (any(!dir.exists(args))) as.integer(args[!dir.exists(args)][1]) else 10L
set.seed(as.integer(Sys.getenv("SEED", "20261127")))
files <- list.files(dir, pattern = "^(measure|gbench)-aa-[0-9]+\\.csv$", full.names = TRUE)
if (!length(files)) stop("no RECIPE-aa-N.csv in ", paste(dir, collapse = ", "))
gate <- list(measure = c("--metric", "cpu", "--tolerance", "1", "--p-adjust", "holm",
                         "--alpha", "0.05"),
             gbench = character())
rate <- function(k, n) {
  p <- k / n
  sprintf("%d/%d = %.1f %% (SE %.1f %%)", k, n, 100 * p, 100 * sqrt(p * (1 - p) / n))
}
res <- list()
for (f in files) {
  recipe <- sub("-aa-.*$", "", basename(f))
  t <- utils::read.csv(f)
  metric <- if (recipe == "measure") "cpu" else "time"
  scale_change <- function(t, k) {
    ch <- t$version == "change"
    for (col in intersect(c("time", "cpu", "user", "sys"), names(t))) {
      t[[col]][ch] <- t[[col]][ch] * k[ch]
    }
    t
  }
  # the job's chance difference, per benchmark, taken out
  a <- stats::aggregate(t[[metric]], list(benchmark = t$benchmark, version = t$version,
                                          round = t$round), stats::median)
  w <- stats::reshape(a, idvar = c("benchmark", "round"), timevar = "version",
                      direction = "wide")
  ratio <- tapply(w$x.change / w$x.base, w$benchmark, stats::median)
  t <- scale_change(t, 1 / ratio[as.character(t$benchmark)])
  rounds <- sort(unique(t$round))
  for (case in c("aa", "slow")) {
    for (b in seq_len(reps)) {
      pick <- sample(rounds, length(rounds), replace = TRUE)
      parts <- lapply(seq_along(pick), function(i) {
        x <- t[t$round == pick[i], ]
        x$round <- i
        x$process <- paste(x$process, i)
        x
      })
      s <- do.call(rbind, parts)
      s$process <- as.integer(factor(s$process))
      if (case == "slow") s <- scale_change(s, rep(1.03, nrow(s)))
      out <- tempfile(fileext = ".csv")
      utils::write.csv(s, out, row.names = FALSE)
      st <- utils::capture.output(code <- speeduptest:::cli_compare(c(out, gate[[recipe]])))
      unlink(out)
      key <- paste(recipe, case)
      res[[key]] <- c(res[[key]], code)
    }
  }
}
cat(sprintf("%d byte-identical jobs resampled %d times each\n", length(files), reps))
for (key in names(res)) {
  x <- res[[key]]
  cat(sprintf("%-8s %-22s failed (exit 1): %s; exit 3: %d\n", sub(" .*", "", key),
              if (grepl("aa$", key)) "byte-identical builds" else "a 3 % slowdown",
              rate(sum(x == 1L), length(x)), sum(x == 3L)))
}
