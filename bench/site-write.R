# The report site's own work (issue 33): the pictures, pages, CSV and JSON
# of a comparison of 3,000 benchmarks x 20 runs (the timings of
# bench/bulk.R), written from one model (report_model_verdicts(), made
# once by this build and saved), without the verdicts and their printed
# words: site_write() of the reference build and of this build in child
# processes in turn, `repeats` times; the CPU (user + system) of the call
# in each child, median and range, the ratios of the pairs, the load
# average, and whether the two builds wrote the same bytes (diff -r).
#
#   Rscript bench/site-write.R <reference library> <library> [repeats = 3]
args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 2L) stop("usage: Rscript bench/site-write.R <reference library> <library> [repeats]")
libs <- c(ref = args[1L], new = args[2L])
reps <- if (length(args) >= 3L) as.integer(args[3L]) else 3L
dir <- tempfile("sitewrite")
dir.create(dir)
rscript <- file.path(R.home("bin"), "Rscript")
load <- function() tryCatch(readLines("/proc/loadavg", n = 1L), error = function(e) "?")
model <- file.path(dir, "model.rds")
make <- sprintf(paste(
  "suppressPackageStartupMessages(library(speeduptest))",
  "set.seed(1)",
  "nb <- 3000L; n <- 20L",
  "b <- rep(sprintf('bench_%%04d', seq_len(nb)), each = 2L * n)",
  "v <- rep(rep(c('old', 'new'), each = n), nb)",
  "eff <- rep(ifelse(seq_len(nb) %%%% 20L == 0L, 1.05, 1), each = 2L * n)",
  "t <- as_timings(data.frame(benchmark = b, version = v,",
  "  time = rlnorm(length(b), log(1e-3), 0.02) * ifelse(v == 'new', eff, 1)))",
  "rows <- split(seq_len(nrow(t)), factor(t$benchmark, levels = unique(t$benchmark)))",
  "vs <- lapply(rows, function(ix) median_test(t[ix, ]))",
  "saveRDS(speeduptest:::report_model_verdicts(vs), '%s')", sep = "\n"), model)
f <- file.path(dir, "make.R")
writeLines(make, f)
system2(rscript, f, env = paste0("R_LIBS=", libs[["new"]]))
child <- function(lib, out) {
  f <- file.path(dir, "child.R")
  writeLines(sprintf(paste(
    "suppressPackageStartupMessages(library(speeduptest))",
    "m <- readRDS('%s')", "unlink('%s', recursive = TRUE)",
    "d <- speeduptest:::report_dir('%s')",
    "t <- system.time(speeduptest:::site_write(d, m, '3000 benchmarks'))",
    "cat(t[['user.self']] + t[['sys.self']])", sep = "\n"), model, out, out), f)
  as.double(system2(rscript, f, env = paste0("R_LIBS=", lib), stdout = TRUE))
}
cpu <- matrix(NA_real_, reps, 2L, dimnames = list(NULL, names(libs)))
for (r in seq_len(reps)) for (b in names(libs)) {
  cpu[r, b] <- child(libs[[b]], file.path(dir, paste0("site-", b)))
}
ratio <- cpu[, "new"] / cpu[, "ref"]
g <- function(v) sprintf("%.2f (%.2f-%.2f)", stats::median(v), min(v), max(v))
cat(sprintf("site_write(), 3,000 benchmarks: reference %s s, this build %s s, ratio %s; load %s\n",
            g(cpu[, "ref"]), g(cpu[, "new"]), g(ratio), load()))
d <- system2("diff", c("-r", "-q", file.path(dir, "site-ref"), file.path(dir, "site-new")),
             stdout = TRUE, stderr = TRUE)
cat(sprintf("  the two builds' sites (%d files) are %s\n",
            length(list.files(file.path(dir, "site-new"), recursive = TRUE)),
            if (!length(d)) "identical (diff -r)" else "DIFFERENT"))
unlink(dir, recursive = TRUE)
