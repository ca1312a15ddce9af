# Benchmark: read_timings() against jsonlite::fromJSON() on the same large
# files, in time and in peak memory.
#
# usage (from the package root, with speeduptest installed):
#   Rscript bench/read-timings.R [benchmarks = 10000] [repetitions = 30]
#                                [hyperfine runs = 100000] [repeats = 3]
#                                [folder = tempdir()]
# Writes a Google Benchmark JSON (benchmarks x repetitions, in the layout of
# --benchmark_out, about 129 MB at the defaults) and a hyperfine export of
# two commands sharing the runs (in the layout of --export-json), then, for
# each file and each side, runs `repeats` child Rscript processes (the two
# sides in turn) that load speeduptest and jsonlite, read a small file of
# the format, then the large file, and reports the medians of the child's
# CPU time for the large read (user + system, from proc.time()) and of its
# peak resident memory (VmHWM, the whole process), and their ratios.
args <- commandArgs(trailingOnly = TRUE)
arg <- function(i, default) if (length(args) >= i) as.numeric(args[i]) else default
nb <- arg(1, 10000)
reps <- arg(2, 30)
hf_runs <- arg(3, 1e5)
repeats <- arg(4, 3)
dir <- if (length(args) >= 5) args[5] else tempdir()
lib <- Sys.getenv("R_LIBS")

# Google Benchmark: each repetition an "iteration" row, as
# --benchmark_repetitions=30 writes them (write_gbench()).
source(file.path("bench", "gbench-file.R"))

# hyperfine: two commands, each with its runs' times, exit codes, user and
# system times (hyperfine 1.16 writes these per-run arrays).
write_hyperfine <- function(file, runs) {
  set.seed(2)
  n <- runs %/% 2
  one <- function(cmd, t) {
    u <- t * 0.8
    s <- t * 0.1
    paste0('    {\n      "command": "', cmd, '",\n',
           sprintf('      "mean": %.16g,\n      "stddev": %.16g,\n      "median": %.16g,\n',
                   mean(t), stats::sd(t), stats::median(t)),
           sprintf('      "user": %.16g,\n      "system": %.16g,\n      "min": %.16g,\n      "max": %.16g,\n',
                   mean(u), mean(s), min(t), max(t)),
           '      "times": [\n', paste0('        ', sprintf("%.16g", t), collapse = ",\n"),
           '\n      ],\n      "exit_codes": [\n',
           paste0('        ', rep("0", length(t)), collapse = ",\n"), '\n      ]\n    }')
  }
  writeLines(c('{', '  "results": [',
               paste0(one("./old", rlnorm(n, log(0.01), 0.05)), ","),
               one("./new", rlnorm(n, log(0.009), 0.05)), '  ]', '}'), file)
}

gb <- file.path(dir, "gbench-large.json")
hf <- file.path(dir, "hyperfine-large.json")
if (!file.exists(gb)) write_gbench(gb, nb, reps)
if (!file.exists(hf)) write_hyperfine(hf, hf_runs)
cat(sprintf("Google Benchmark file: %d x %d, %.0f MB; hyperfine file: %d runs, %.1f MB\n",
            nb, reps, file.size(gb) / 1e6, hf_runs, file.size(hf) / 1e6))

# One read in a child process: its CPU seconds and its peak resident memory.
# Both sides load both packages and first read a small file of the same
# format (the package's fixture), so that neither pays for loading code in
# the timed read and the peak memory differs only by the read.
child <- function(code, file, warm) {
  script <- tempfile(fileext = ".R")
  writeLines(c(
    "suppressPackageStartupMessages({library(speeduptest); library(jsonlite)})",
    sprintf("f <- '%s'", warm),
    sprintf("x <- %s", code),
    "rm(x); invisible(gc())",
    sprintf("f <- '%s'", file),
    "t0 <- proc.time()",
    sprintf("x <- %s", code),
    "t1 <- proc.time() - t0",
    "hwm <- grep('^VmHWM', readLines('/proc/self/status'), value = TRUE)",
    "cat(t1[['user.self']] + t1[['sys.self']], as.numeric(gsub('[^0-9]', '', hwm)) / 1024, '\\n')"),
    script)
  out <- system2(file.path(R.home("bin"), "Rscript"), script, stdout = TRUE,
                 env = if (nzchar(lib)) paste0("R_LIBS=", lib))
  as.numeric(strsplit(trimws(out[length(out)]), " +")[[1L]])
}
fixture <- function(f) system.file("extdata", "timings", f, package = "speeduptest")

compare <- function(label, file, ours, warm) {
  res <- list(ours = NULL, jsonlite = NULL)
  load <- numeric(repeats)
  for (k in seq_len(repeats)) {  # the two sides in turn
    load[k] <- as.numeric(strsplit(readLines("/proc/loadavg"), " ")[[1L]][1L])
    res$ours <- rbind(res$ours, child(ours, file, warm))
    res$jsonlite <- rbind(res$jsonlite, child("jsonlite::fromJSON(f)", file, warm))
  }
  med <- vapply(res, function(m) apply(m, 2, stats::median), numeric(2))
  cat(sprintf("%-17s read_timings %6.2f s %6.0f MB | fromJSON %6.2f s %6.0f MB | ratio time %.2f, memory %.2f\n",
              label, med[1, "ours"], med[2, "ours"], med[1, "jsonlite"], med[2, "jsonlite"],
              med[1, "ours"] / med[1, "jsonlite"], med[2, "ours"] / med[2, "jsonlite"]))
  # the ratios of the repeats (each side's k-th child), median and range
  rt <- res$ours[, 1L] / res$jsonlite[, 1L]
  rm <- res$ours[, 2L] / res$jsonlite[, 2L]
  cat(sprintf("%-17s per repeat: time %.2f (%.2f-%.2f), memory %.2f (%.2f-%.2f); load %.1f (%.1f-%.1f)\n",
              "", stats::median(rt), min(rt), max(rt), stats::median(rm), min(rm), max(rm),
              stats::median(load), min(load), max(load)))
}
compare("Google Benchmark", gb, "read_timings(f)", fixture("gbench-base.json"))
compare("hyperfine", hf, "read_timings(f)", fixture("hyperfine-main.json"))
