# More jobs than the machine has time for: the rounds that the byte-identical
# jobs of bench/gate.R measured, resampled. Each resampled job draws a job's
# rounds with replacement (as many as it had: a round keeps its runs of both
# versions, so the pairing and the job's own load stay), and makes the change
# 3 % slower by multiplying its times by 1.03 (the slowdown case) or leaves
# them (the byte-identical case); then `speeduptest compare` decides as the
# recipe's gate does. The rates are those of jobs whose spread is the spread
# the real jobs had; the real jobs' own rates are bench/gate.R's.
#
# Usage: KEEP=DIR JOBS=40 nice Rscript bench/gate.R, then
#   nice Rscript bench/gate-resample.R DIR [R]
# (DIR holds the jobs' times.csv as RECIPE-aa-N.csv; R resampled jobs per
# real job, default 10.)

library(speeduptest)
args <- commandArgs(TRUE)
dir <- args[1]
reps <- if (length(args) > 1) as.integer(args[2]) else 10L
set.seed(as.integer(Sys.getenv("SEED", "20261127")))
files <- list.files(dir, pattern = "^(measure|gbench)-aa-[0-9]+\\.csv$", full.names = TRUE)
if (!length(files)) stop("no RECIPE-aa-N.csv in ", dir)
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
      if (case == "slow") {
        ch <- s$version == "change"
        s$time[ch] <- s$time[ch] * 1.03
        if (!is.null(s$cpu)) s$cpu[ch] <- s$cpu[ch] * 1.03
        if (!is.null(s$user)) s$user[ch] <- s$user[ch] * 1.03
        if (!is.null(s$sys)) s$sys[ch] <- s$sys[ch] * 1.03
      }
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
