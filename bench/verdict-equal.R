# Randomised equality of whole verdicts and suites against a reference
# build (bit for bit, identical()): mean_test() and median_test() verdicts
# with their run-order checks, highest_confidence(), and speedup_suite() on
# lists of benchmarks (sizes 5-40, drifting runs, p_adjust, given and
# searched levels) and on malformed benchmarks.
#
# usage (from the package root):
#   R_LIBS=<old lib> Rscript bench/verdict-equal.R record /tmp/old.rds
#   R_LIBS=<new lib> Rscript bench/verdict-equal.R check  /tmp/old.rds
args <- commandArgs(trailingOnly = TRUE)
mode <- args[1]
file <- args[2]
suppressPackageStartupMessages(library(speeduptest))
drop_call <- function(v) {
  v$call <- NULL
  v
}
out <- list()
add <- function(v) out[[length(out) + 1L]] <<- v

set.seed(9)
for (i in 1:300) {
  n <- sample(c(3:40, 60, 200), 1)
  m <- sample(c(3:40, 60, 200), 1)
  x <- switch(sample(3, 1), rnorm(n, 10, 1), rlnorm(n, 2, 0.5),
              round(rnorm(n, 10, 1)))
  y <- switch(sample(3, 1), rnorm(m, 9.5, runif(1, 0.2, 3)),
              rlnorm(m, 2, 0.5), round(rnorm(m, 10, 1)))
  x <- abs(x) + 0.1
  y <- abs(y) + 0.1
  if (i %% 5 == 0) x <- x * (1 + 0.01 * seq_len(n))   # a drift
  for (a in c(0.01, 0.05, 0.2)) for (rig in c(TRUE, FALSE)) {
    add(drop_call(mean_test(x, y, alpha = a, rigorous = rig)))
    add(drop_call(median_test(x, y, alpha = a, rigorous = rig)))
  }
  add(highest_confidence(x, y, test = "mean"))
}

set.seed(1)
suite <- lapply(seq_len(3000), function(j) {
  base <- runif(1, 1, 20)
  s <- sample(c(1, 1.02, 1.1, 1.5), 1)
  n <- sample(c(5, 10, 31, 40), 1)
  x <- rlnorm(n, log(base), 0.03)
  if (j %% 7 == 0) x <- x * (1 + 0.01 * seq_len(n))
  list(x = x, y = rlnorm(n, log(base / s), 0.03))
})
names(suite) <- sprintf("bench%07d", seq_len(3000))
for (pa in c("none", "BH")) for (cl in list(NULL, 0.9)) {
  add(drop_call(suppressWarnings(speedup_suite(suite, p_adjust = pa,
                                               conf_level = cl))))
}
add(drop_call(suppressWarnings(speedup_suite(suite[1:300], conf_level = NA))))
mk <- function(n) rlnorm(n, 1, 0.1)
odd <- list(p = list(mk(10), mk(12)), q = list(y = mk(10), x = mk(9)),
            r = list(x = c(mk(8), NA), y = mk(8)),
            s = list(x = mk(8), y = c(mk(8), -1)),
            t = list(x = 1:10, y = mk(10)),
            u = list(x = mk(8), y = mk(8), conf_level = 0.9),
            v = list(x = mk(8), y = mk(8), weight = 2), w = "junk",
            z = list(x = mk(8), y = c(mk(7), Inf)),
            zz = list(x = mk(3), y = mk(2)), e = list(x = numeric(), y = mk(3)),
            n2 = list(x = c(NaN, mk(9)), y = mk(9)))
for (na_rm in c(FALSE, TRUE)) {
  add(tryCatch(drop_call(suppressWarnings(speedup_suite(odd, na_rm = na_rm))),
               error = conditionMessage))
}

if (identical(mode, "record")) {
  saveRDS(out, file)
  cat(length(out), "answers recorded\n")
} else {
  ref <- readRDS(file)
  same <- mapply(identical, ref, out)
  cat(sprintf("%d answers, %d differing\n", length(ref), sum(!same)))
  if (any(!same)) quit(status = 1)
}
