# The verdicts of a whole comparison made at once (issues 33 and 36):
# `speeduptest compare` on two Google Benchmark files of 3,000 benchmarks x
# 20 runs (the files of bench/timings.R), run as a user runs it (the
# command installed with each build, <library>/speeduptest/bin/speeduptest,
# its report written to a file), and report_site() of timings of
# 3,000 benchmarks x 20 runs of two versions (those of
# bench/report-site.R), each run in a child process by two builds in turn
# (the reference first, then this one, `repeats` times): the CPU time of
# each child (user + system), the median and range of each build, the
# median and range of the ratios of the pairs, the load average; and
# whether the two builds wrote the same bytes (each report of compare;
# `diff -r` of the two sites).  The load average is printed before and
# after each measure.
#
#   Rscript bench/bulk.R <reference library> <library> [repeats = 3] [parts = compare,site]
args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 2L) stop("usage: Rscript bench/bulk.R <reference library> <library> [repeats] [parts]")
libs <- c(ref = args[1L], new = args[2L])
reps <- if (length(args) >= 3L) as.integer(args[3L]) else 3L
parts <- if (length(args) >= 4L) strsplit(args[4L], ",")[[1L]] else c("compare", "site")
dir <- tempfile("bulk")
dir.create(dir)
rscript <- file.path(R.home("bin"), "Rscript")
load <- function() tryCatch(readLines("/proc/loadavg", n = 1L), error = function(e) "?")

# the CPU of a child running `code` with the library `lib`
child <- function(lib, code) {
  f <- file.path(dir, "child.R")
  writeLines(code, f)
  t <- system.time(system2(rscript, f, env = paste0("R_LIBS=", lib), stdout = FALSE,
                           stderr = FALSE), gcFirst = FALSE)
  t[["user.child"]] + t[["sys.child"]]
}
# the CPU of the command installed with the library `lib`, run with `args`,
# its standard output written to `out` (this R first on the PATH)
command <- function(lib, args, out) {
  exe <- file.path(lib, "speeduptest", "bin", "speeduptest")
  env <- c(paste0("R_LIBS=", lib),
           paste0("PATH=", R.home("bin"), .Platform$path.sep, Sys.getenv("PATH")))
  t <- system.time(system2(exe, shQuote(args), env = env, stdout = out, stderr = FALSE),
                   gcFirst = FALSE)
  t[["user.child"]] + t[["sys.child"]]
}
pairs <- function(label, code_of, run = child) {
  load0 <- load()
  cpu <- matrix(NA_real_, reps, 2L, dimnames = list(NULL, names(libs)))
  for (r in seq_len(reps)) for (b in names(libs)) {
    cpu[r, b] <- run(libs[[b]], code_of(b))
  }
  ratio <- cpu[, "new"] / cpu[, "ref"]
  f <- function(v) sprintf("%.2f (%.2f-%.2f)", stats::median(v), min(v), max(v))
  cat(sprintf("%-42s reference %s s, this build %s s, ratio %s; load before %s, after %s\n",
              label, f(cpu[, "ref"]), f(cpu[, "new"]), f(ratio), load0, load()))
}

if ("compare" %in% parts) {
  source(file.path("bench", "gbench-file.R"))
  f <- file.path(dir, c("base.json", "new.json"))
  gbench_file(f[1], 3000, 20, 1, 1)
  gbench_file(f[2], 3000, 20, 1.05, 2)
  for (o in c("text", "markdown", "json")) {
    pairs(sprintf("speeduptest compare --output %s > file", o), function(b) {
      list(args = c("compare", f[1], f[2], "--output", o),
           out = file.path(dir, paste0("report-", b, ".", o)))
    }, run = function(lib, a) command(lib, a$args, a$out))
    same <- identical(readLines(file.path(dir, paste0("report-ref.", o))),
                      readLines(file.path(dir, paste0("report-new.", o))))
    cat(sprintf("  the two builds' %s reports are %s\n", o, if (same) "identical" else "DIFFERENT"))
  }
  pairs("reading the two files alone", function(b) sprintf(
    "invisible(speeduptest::read_timings(c(base = '%s', new = '%s')))", f[1], f[2]))
}

if ("site" %in% parts) {
  make <- paste(
    "suppressPackageStartupMessages(library(speeduptest))",
    "set.seed(1)",
    "nb <- 3000L; n <- 20L",
    "b <- rep(sprintf('bench_%04d', seq_len(nb)), each = 2L * n)",
    "v <- rep(rep(c('old', 'new'), each = n), nb)",
    "eff <- rep(ifelse(seq_len(nb) %% 20L == 0L, 1.05, 1), each = 2L * n)",
    "t <- as_timings(data.frame(benchmark = b, version = v,",
    "  time = rlnorm(length(b), log(1e-3), 0.02) * ifelse(v == 'new', eff, 1)))",
    "unlink('SITE', recursive = TRUE)",
    "invisible(report_site(t, 'SITE'))", sep = "\n")
  pairs("report_site(), 3,000 benchmarks", function(b) {
    d <- file.path(dir, paste0("site-", b))
    gsub("SITE", d, make, fixed = TRUE)
  })
  d <- system2("diff", c("-r", "-q", file.path(dir, "site-ref"), file.path(dir, "site-new")),
               stdout = TRUE, stderr = TRUE)
  cat(sprintf("  the two builds' sites (%d files) are %s\n",
              length(list.files(file.path(dir, "site-new"), recursive = TRUE)),
              if (!length(d)) "identical (diff -r)" else "DIFFERENT"))
}
unlink(dir, recursive = TRUE)
