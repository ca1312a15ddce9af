# hpt_speedup() of two builds on the same random suites: record the answers
# of one build, check those of another against them (speedup identical,
# supremum to 1e-12 relative, attained identical where the suprema are).
#   R_LIBS=<old lib> Rscript bench/hpt-equal.R record /tmp/hpt-old.rds [cases]
#   R_LIBS=<new lib> Rscript bench/hpt-equal.R check  /tmp/hpt-old.rds [cases]
# The suites: 1 to 400 benchmarks, 3 to 14 runs a side (unequal), times or
# scores, continuous, rounded to 0.1 or to integers (ties), or mixtures
# whose rank-sum winner can disagree with the medians; 1 in 10 of the small
# ones with exact_ties.
library(speeduptest)
args <- commandArgs(trailingOnly = TRUE)
mode <- args[1]
file <- args[2]
cases <- if (length(args) > 2) as.integer(args[3]) else 3000L

gen <- function(seed) {
  set.seed(seed)
  nb <- sample(c(1:8, 10, 15, 20, 30, 60, 150, 400), 1)
  nr <- sample(3:14, 1)
  na <- sample(3:14, 1)
  sc <- exp(rnorm(nb))
  gain <- exp(rnorm(nb, runif(1, -0.1, 0.5), runif(1, 0.05, 0.4)))
  sd <- runif(1, 0.01, 0.3)
  a <- lapply(seq_len(nb), function(i) rlnorm(na, 0, sd) * sc[i])
  b <- lapply(seq_len(nb), function(i) rlnorm(nr, 0, sd) * sc[i] * gain[i])
  kind <- sample(4, 1)
  if (kind == 2) {
    a <- lapply(a, round, 1)
    b <- lapply(b, round, 1)
  } else if (kind == 3) {
    a <- lapply(a, function(v) round(v * 10))
    b <- lapply(b, function(v) round(v * 10))
  } else if (kind == 4) {
    a <- lapply(a, function(v) v * ifelse(runif(length(v)) < 0.4, 3, 1))
    b <- lapply(b, function(v) v * ifelse(runif(length(v)) < 0.3, 0.5, 1))
  }
  a <- lapply(a, pmax, 0.1)
  b <- lapply(b, pmax, 0.1)
  names(a) <- names(b) <- paste0("b", seq_len(nb))
  list(a = a, b = b, higher = runif(1) < 0.3,
       conf = sample(c(0.6, 0.8, 0.9, 0.95, 0.99), 1),
       exact = runif(1) < 0.1 && nb <= 20 && nr <= 8 && na <= 8)
}

res <- t(vapply(seq_len(cases), function(s) {
  g <- gen(s)
  r <- tryCatch(hpt_speedup(g$a, g$b, confidence = g$conf,
                            higher_is_better = g$higher, exact_ties = g$exact),
                error = function(e) NULL)
  if (is.null(r)) return(c(NA, NA, NA))
  c(r$speedup, r$supremum, r$attained)
}, numeric(3)))
# NA and NaN alike: no speedup reaches the level
res[is.nan(res)] <- NA

if (mode == "record") {
  saveRDS(res, file)
  cat(sprintf("%d cases recorded\n", nrow(res)))
} else {
  old <- readRDS(file)
  same_num <- function(x, y, tol) {
    (is.na(x) & is.na(y)) |
      (!is.na(x) & !is.na(y) & (x == y | abs(x - y) <= tol * abs(y)))
  }
  sp <- same_num(res[, 1], old[, 1], 0)
  sup <- same_num(res[, 2], old[, 2], 1e-12)
  att <- is.na(res[, 3]) & is.na(old[, 3]) | res[, 3] == old[, 3] |
    (res[, 2] != old[, 2])
  cat(sprintf("%d cases: speedup differs in %d, supremum (1e-12) in %d, attained (equal suprema) in %d; suprema a few ulps apart in %d; finite speedups %d\n",
              nrow(res), sum(!sp), sum(!sup), sum(!att, na.rm = TRUE),
              sum(res[, 2] != old[, 2], na.rm = TRUE),
              sum(is.finite(res[, 1]))))
  bad <- which(!sp | !sup | !att)
  if (length(bad)) {
    print(cbind(case = bad, new = res[bad, , drop = FALSE],
                old = old[bad, , drop = FALSE]), digits = 17)
  }
}
