# median_test() against one sort(c(x, y)) of the same data, and its peak
# memory against the size of the data.
#
# usage (from the package root, speeduptest installed or on R_LIBS):
#   Rscript bench/median.R [n = 1e6] [repeats = 7] [n for memory = 1e7]
# Prints the CPU times (user + system, median of the repeats, both
# measured in turn in the same process) and their ratio; then runs
# median_test() at the memory size in a child process under
# /usr/bin/time -v and prints its peak resident set size (and that of a
# child that only creates the data) over the size of the data (16 n
# bytes: x and y).
suppressPackageStartupMessages(library(speeduptest))
args <- commandArgs(trailingOnly = TRUE)
n <- if (length(args) >= 1) as.numeric(args[1]) else 1e6
reps <- if (length(args) >= 2) as.integer(args[2]) else 7L
n_mem <- if (length(args) >= 3) as.numeric(args[3]) else 1e7

cpu <- function(expr) {
  t <- system.time(expr, gcFirst = FALSE)
  t[["user.self"]] + t[["sys.self"]]
}
set.seed(1)
x <- rlnorm(n, log(10), 0.1)
y <- rlnorm(n, log(9.9), 0.1)
# (builds before the trend tests moved into the core take 4 arguments)
# (builds with one entry for every protocol: ffi_run_protocol)
ns <- asNamespace("speeduptest")
core <- if (!is.null(ns$ffi_run_protocol)) {
  function(x, y) .Call(ns$ffi_run_protocol, x, y, 1L, FALSE, 0.05, TRUE, 7L)
} else if (ns$ffi_median_test$numParameters == 4L) {
  function(x, y) .Call(ns$ffi_median_test, x, y, 0.05, TRUE)
} else {
  function(x, y) .Call(ns$ffi_median_test, x, y, 0.05, TRUE, 7L)
}
trend <- function(v) .Call(speeduptest:::ffi_mann_kendall, v, 0, as.double(length(v)))
t_sort <- t_med <- t_core <- t_trend <- numeric(reps)
for (r in seq_len(reps)) {
  invisible(gc())
  t_sort[r] <- cpu(s <- sort(c(x, y)))
  rm(s)
  invisible(gc())
  t_med[r] <- cpu(v <- median_test(x, y))
  invisible(gc())
  t_core[r] <- cpu(core(x, y))
  invisible(gc())
  t_trend[r] <- cpu({trend(x); trend(y)})
}
cat(sprintf("n = m = %g, %d repeats (CPU seconds, median)\n", n, reps))
cat(sprintf("sort(c(x, y)):   %.3f\n", median(t_sort)))
cat(sprintf("median_test():   %.3f\n", median(t_med)))
cat(sprintf("ratio:           %.2f (median of the per-repeat ratios: %.2f)\n",
            median(t_med) / median(t_sort), median(t_med / t_sort)))
cat(sprintf("protocol core:   %.3f (ratio %.2f; the C protocol with the trend\n",
            median(t_core), median(t_core) / median(t_sort)))
cat("                 tests it makes on the way, without the R verdict object)\n")
cat(sprintf("trend checks:    %.3f (ratio %.2f; Mann-Kendall on x and on y made\n",
            median(t_trend), median(t_trend) / median(t_sort)))
cat("                 alone, for comparison: their merge sort is the core's sort)\n")
cat(sprintf("(verdict: %s, shift CI [%.4g, %.4g], speedup CI [%.5g, %.5g])\n",
            v$decision, v$shift_ci[1], v$shift_ci[2], v$speedup_ci[1],
            v$speedup_ci[2]))

peak_rss <- function(code) {
  f <- tempfile(fileext = ".R")
  writeLines(code, f)
  out <- suppressWarnings(system2("/usr/bin/time",
                                  c("-v", file.path(R.home("bin"), "Rscript"), f),
                                  stdout = TRUE, stderr = TRUE))
  line <- grep("Maximum resident set size", out, value = TRUE)
  if (!length(line)) stop(paste(out, collapse = "\n"))
  as.numeric(sub(".*: *", "", line)) * 1024
}
if (n_mem > 0 && file.exists("/usr/bin/time")) {
  make <- sprintf(paste0("suppressPackageStartupMessages(library(speeduptest)); ",
                         "set.seed(2); x <- rlnorm(%.0f, log(10), 0.1); ",
                         "y <- rlnorm(%.0f, log(9.9), 0.1); invisible(gc())"),
                  n_mem, n_mem)
  data_bytes <- 16 * n_mem
  base <- peak_rss(make)
  full <- peak_rss(paste0(make, "; t <- system.time(v <- median_test(x, y)); ",
                          "cat(v$decision, t[[1]] + t[[2]], '\\n')"))
  bare <- peak_rss(paste0(make, "; v <- .Call(speeduptest:::ffi_run_protocol, ",
                          "x, y, 1L, FALSE, 0.05, TRUE, 7L)"))
  cat(sprintf("\nmemory at n = m = %g (data: %.0f MB)\n", n_mem, data_bytes / 2^20))
  cat(sprintf("peak RSS, data only:        %7.0f MB (%.2f x data)\n",
              base / 2^20, base / data_bytes))
  cat(sprintf("peak RSS, with median_test: %7.0f MB (%.2f x data)\n",
              full / 2^20, full / data_bytes))
  cat(sprintf("added by median_test:       %7.0f MB (%.2f x data)\n",
              (full - base) / 2^20, (full - base) / data_bytes))
  cat(sprintf("peak RSS, protocol core:    %7.0f MB (%.2f x data)\n",
              bare / 2^20, bare / data_bytes))
}
