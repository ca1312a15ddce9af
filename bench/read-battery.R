# Battery: read_timings() on malformed timing files from the generator of
# tests/testthat/test-import-property.R (good and bad benchmarks in each
# tool's format, files truncated, binary, with garbage inserted, in UTF-16,
# behind a byte-order mark), each read with format "auto" and with one
# format drawn at random.  Counts the reads that gave timings, classed
# errors, untyped errors, good benchmarks lost from intact files, bad
# benchmarks not reported, and reads slower than 2 s.
#
# usage (from the package root, with speeduptest installed):
#   Rscript bench/read-battery.R [seed = 11] [files = 2500]
args <- commandArgs(trailingOnly = TRUE)
seed <- if (length(args) >= 1) as.integer(args[1]) else 11L
N <- if (length(args) >= 2) as.integer(args[2]) else 2500L
suppressPackageStartupMessages(library(speeduptest))
set.seed(seed)
src <- readLines("tests/testthat/test-import-property.R")
eval(parse(text = src[1:(grep("^test_that", src)[1] - 1)]))
fmts <- c("hyperfine", "google-benchmark", "pyperf", "csv")
damages <- c("none", "none", "bom", "utf16", "truncate", "binary", "garbage")
stat <- c(reads = 0, ok = 0, classed = 0, untyped = 0, lost = 0, unreported = 0, slow = 0)
t_all <- proc.time()
for (iter in seq_len(N)) {
  fmt <- sample(fmts, 1)
  good <- sample(0:4, 1L); bad <- sample(0:3, 1L)
  if (good + bad == 0L) good <- 1L
  gen <- prop_file(fmt, good, bad)
  how <- sample(damages, 1L)
  f <- tempfile(fileext = if (fmt == "csv") ".csv" else ".json")
  writeBin(prop_damage(gen$text, how), f)
  for (given in c("auto", sample(c(fmts, "criterion", "speeduptest"), 1))) {
    stat["reads"] <- stat["reads"] + 1
    t0 <- proc.time()[["elapsed"]]
    res <- tryCatch(suppressWarnings(read_timings(f, format = given)), error = function(e) e)
    if (proc.time()[["elapsed"]] - t0 > 2) stat["slow"] <- stat["slow"] + 1
    if (inherits(res, "error")) {
      if (inherits(res, "speeduptest_error")) stat["classed"] <- stat["classed"] + 1 else {
        stat["untyped"] <- stat["untyped"] + 1; cat("UNTYPED", fmt, how, given, conditionMessage(res), "\n") }
      if (how %in% c("none", "bom", "utf16") && given %in% c("auto", fmt) && good > 0) {
        stat["lost"] <- stat["lost"] + good; cat("LOST", fmt, how, given, conditionMessage(res), "\n") }
      next
    }
    stat["ok"] <- stat["ok"] + 1
    if (how %in% c("none", "bom", "utf16") && given %in% c("auto", fmt)) {
      got <- prop_read_names(res, fmt)
      lost <- setdiff(gen$good, got)
      if (length(lost)) { stat["lost"] <- stat["lost"] + length(lost); cat("LOST", fmt, how, lost, "\n") }
      p <- attr(res, "problems")
      miss <- gen$bad[!vapply(gen$bad, function(b) any(grepl(b, p$message, fixed = TRUE)), NA)]
      if (length(miss)) { stat["unreported"] <- stat["unreported"] + length(miss); cat("UNREPORTED", fmt, how, miss, "\n") }
    }
  }
  unlink(f)
}
print(stat); print(proc.time() - t_all)
