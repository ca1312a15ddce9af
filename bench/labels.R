# A/A rates of process-structured timings (issue 29, input side): claims of
# a speedup and of a slowdown, each at alpha = 0.05, when both versions
# come from the same law.
#
#   Rscript bench/labels.R [replicates per cell = 2000] [seed = 29]
#
# Each replicate is one benchmark of a speedup_suite() on timings (the path
# of read_timings(), as_timings(), compare), p_adjust = "none": the
# per-benchmark decisions are the verdicts of mean_test()/median_test()
# (checked below on some replicates).  Cells:
#
#   labels   20 processes x 3 runs per version, between-process spread 2 %,
#            within 0.5 %; the processes numbered 1..20 in each version (a
#            long CSV written version after version).  Now: read per
#            version.  "before" = the runs as the unit (what the shared
#            labels gave).
#   3 vs 30  20 processes per version, 3 runs in each of the old, 30 in
#            each of the new, skewed noise within a process (exponential,
#            mean 2 %) and a between-process spread of 1 %.  Now: the
#            median (mean) of the first 3 runs of each process.  "before" =
#            the median (mean) of all runs of each process.
#   30 vs 3  the same with the versions swapped.
args <- commandArgs(trailingOnly = TRUE)
B <- if (length(args) >= 1L) as.integer(args[1L]) else 2000L
seed <- if (length(args) >= 2L) as.integer(args[2L]) else 29L
suppressPackageStartupMessages(library(speeduptest))
set.seed(seed)

one_version <- function(k, r, between, within, skew) {
  p <- rep(seq_len(k), each = r)
  noise <- if (skew) rexp(k * r, 1 / within) else rnorm(k * r, 0, within)
  list(time = exp(rnorm(k, 0, between)[p] + noise), process = p)
}

cell <- function(B, kx, ky, rx, ry, between, within, skew, repeat_labels) {
  rows <- vector("list", B)
  for (b in seq_len(B)) {
    x <- one_version(kx, rx, between, within, skew)
    y <- one_version(ky, ry, between, within, skew)
    py <- if (repeat_labels) y$process else y$process + kx
    rows[[b]] <- data.frame(benchmark = sprintf("b%04d", b),
                            version = rep(c("old", "new"), c(length(x$time), length(y$time))),
                            time = c(x$time, y$time), process = c(x$process, py))
  }
  do.call(rbind, rows)
}

rates <- function(s) {
  bm <- s$benchmarks
  unlist(lapply(c("mean", "median"), function(p) {
    d <- bm[[paste0(p, "_direction")]]
    stats::setNames(c(mean(d %in% "speedup"), mean(d %in% "slowdown")),
                    paste(p, c("speedup", "slowdown")))
  }))
}

# the per-process medians (means) of all runs (the summary before), as a
# list suite
before_summary <- function(d, fun) {
  sp <- split(d, d$benchmark)
  lapply(sp, function(e) {
    f <- function(v) {
      w <- e[e$version == v, ]
      as.double(tapply(w$time, w$process, fun))
    }
    list(x = f("old"), y = f("new"))
  })
}

show <- function(name, now, before) {
  cat(sprintf("%-8s %-16s now %.4f (SE %.4f)   before %.4f\n", name, names(now), now,
              sqrt(now * (1 - now) / B), before), sep = "")
}

cat(sprintf("A/A rates at alpha = 0.05, %d replicates a cell, seed %d\n", B, seed))
t0 <- proc.time()
d <- cell(B, 20, 20, 3, 3, 0.02, 0.005, FALSE, TRUE)
t <- as_timings(d)
now <- rates(speedup_suite(t))
before <- rates(speedup_suite(t, replication = "run"))
show("labels", now, before)
# the same data through a long CSV
f <- tempfile(fileext = ".csv")
utils::write.csv(d[d$benchmark %in% unique(d$benchmark)[1:200], ], f, row.names = FALSE)
tc <- read_timings(f)
chk <- rates(speedup_suite(tc))
same <- rates(speedup_suite(t[t$benchmark %in% unique(d$benchmark)[1:200], ]))
cat(sprintf("labels   the first 200 through read_timings(): %s\n",
            if (isTRUE(all.equal(chk, same))) "the same decisions" else "DIFFERENT"))

for (sw in c(FALSE, TRUE)) {
  d <- if (!sw) cell(B, 20, 20, 3, 30, 0.01, 0.02, TRUE, FALSE) else
    cell(B, 20, 20, 30, 3, 0.01, 0.02, TRUE, FALSE)
  t <- as_timings(d)
  s <- speedup_suite(t)
  now <- rates(s)
  before <- c(rates(speedup_suite(before_summary(d, mean)))[1:2],
              rates(speedup_suite(before_summary(d, stats::median)))[3:4])
  show(if (!sw) "3 vs 30" else "30 vs 3", now, before)
  # the suite's decisions are the verdicts'
  idx <- seq_len(min(50L, B))
  agree <- vapply(idx, function(j) {
    e <- t[t$benchmark == s$benchmarks$benchmark[j], ]
    identical(median_test(e)$direction, s$benchmarks$median_direction[j]) &&
      identical(mean_test(e)$direction, s$benchmarks$mean_direction[j])
  }, TRUE)
  cat(sprintf("%-8s suite = median_test()/mean_test() on %d of %d replicates\n",
              if (!sw) "3 vs 30" else "30 vs 3", sum(agree), length(idx)))
}
cat(sprintf("CPU %.1f s\n", sum((proc.time() - t0)[c(1, 2)])))
