# Accuracy sweep of the exact rank-sum p-values, n = m = 200, 250, ... up
# to the refusal limit, without and with ties, against exact big-number
# references:
#   - without ties, the counts of W from the Gaussian binomial coefficient
#     in GMP integers (bench/ref-wilcox-gmp.c, compiled here; needs a C
#     compiler and libgmp-dev);
#   - with ties (three distinct values), the multivariate hypergeometric
#     sum over how many of each value x takes, in exact rationals (the gmp
#     package).
# Run from the package root with the package and gmp installed:
#   Rscript bench/exact-sweep.R
# Prints one row per size and statistic: the p-values P[W <= w] and
# P[W >= w], their relative differences from the reference and the seconds
# one exact test took; then the largest relative difference.  Takes about
# 10 minutes on a quiet machine.
library(speeduptest)
if (!requireNamespace("gmp", quietly = TRUE)) stop("gmp is not installed")

ref_bin <- file.path(tempdir(), "ref-wilcox-gmp")
if (system2("cc", c("-O2", "-o", ref_bin, "bench/ref-wilcox-gmp.c",
                    "-lgmp", "-lm")) != 0) {
  stop("could not build bench/ref-wilcox-gmp.c (needs cc and libgmp-dev)")
}
ref_noties <- function(n, m, w) {
  out <- system2(ref_bin, c(n, m, w), stdout = TRUE)
  v <- do.call(rbind, lapply(strsplit(out, " "), as.numeric))
  list(le = v[, 2], ge = v[, 3])
}
rel <- function(a, b) if (a == b) 0 else abs(a - b) / b
cpu <- function(expr) {
  t <- system.time(expr)
  t[["user.self"]] + t[["sys.self"]]
}
# the largest n = m <= from accepted by an exact test on samples gen(n)
# (refusals are decided before any counting, so they are instant)
limit <- function(gen, from) {
  for (n in seq(from, 100, by = -1)) {
    s <- gen(n)
    res <- .Call(speeduptest:::ffi_wilcoxon_test, s$x, s$y, 1L, 0, 1L,
                 TRUE, FALSE, 0.95)
    if (res$status != 2L) return(n)
  }
  NA
}

rows <- list()
add <- function(...) rows[[length(rows) + 1L]] <<- data.frame(...)
# Rscript bench/exact-sweep.R [none|ties]: one part only
part <- commandArgs(trailingOnly = TRUE)
part <- if (length(part)) part[1] else "both"

# ---- without ties --------------------------------------------------------
noties <- function(n) {
  set.seed(n)
  list(x = stats::rnorm(n), y = stats::rnorm(n, 0.1))
}
lim0 <- if (part != "ties") limit(noties, 820) else 0
if (part != "ties") cat("refusal limit without ties: n = m =", lim0, "\n")
for (n in if (part != "ties") unique(c(seq(200, lim0, by = 50), lim0))) {
  s <- noties(n)
  secs <- cpu(a <- wilcoxon_test(s$x, s$y, alternative = "less", exact = TRUE))
  w_obs <- a$statistic[[1]]
  p <- .Call(speeduptest:::ffi_ranksum_null, as.integer(n), as.integer(n))
  sd <- sqrt(n * n * (2 * n + 1) / 12)
  ws <- c(w_obs, floor(n * n / 2 - 5 * sd), 10)
  ref <- ref_noties(n, n, ws)
  for (i in seq_along(ws)) {
    w <- ws[i]
    le <- if (i == 1) a$p.value else sum(p[seq_len(w + 1)])
    ge <- sum(p[(w + 1):length(p)])
    add(ties = "none", n = n, W = w, p_le = signif(le, 6),
        rel_le = signif(rel(le, ref$le[i]), 2), p_ge = signif(ge, 6),
        rel_ge = signif(rel(ge, ref$ge[i]), 2),
        seconds = if (i == 1) round(secs, 2) else NA)
  }
  print(do.call(rbind, rows[(length(rows) - 2):length(rows)]),
        row.names = FALSE)
}

# ---- three distinct values -----------------------------------------------
# (fixed proportions, so that the tie pattern, and whether it is accepted,
# changes smoothly with n)
three <- function(n) {
  cx <- round(n * c(0.3, 0.5))
  cy <- round(n * c(0.25, 0.5))
  list(x = as.double(rep(1:3, c(cx, n - sum(cx)))),
       y = as.double(rep(1:3, c(cy, n - sum(cy)))))
}
ref_three <- function(x, y) {
  n <- length(x)
  N <- n + length(y)
  tk <- tabulate(c(x, y), 3)
  mid2 <- 2 * cumsum(tk) - (tk - 1)           # doubled mid-ranks
  ch <- lapply(tk, function(t) gmp::chooseZ(t, 0:t))
  g <- expand.grid(c1 = 0:min(tk[1], n), c2 = 0:min(tk[2], n))
  g$c3 <- n - g$c1 - g$c2
  g <- g[g$c3 >= 0 & g$c3 <= tk[3], ]
  cnt <- ch[[1]][g$c1 + 1] * ch[[2]][g$c2 + 1] * ch[[3]][g$c3 + 1]
  rs2 <- g$c1 * mid2[1] + g$c2 * mid2[2] + g$c3 * mid2[3]
  obs2 <- sum(mid2[x])
  tot <- gmp::chooseZ(N, n)
  list(le = as.double(gmp::as.bigq(sum(cnt[rs2 <= obs2])) / tot),
       ge = as.double(gmp::as.bigq(sum(cnt[rs2 >= obs2])) / tot))
}
lim3 <- if (part != "none") limit(three, 700) else 0
if (part != "none") cat("refusal limit with three values: n = m =", lim3, "\n")
for (n in if (part != "none") unique(c(seq(200, lim3, by = 50), lim3))) {
  s <- three(n)
  # (whether a size is accepted depends on the tie pattern, not on n alone:
  # doubled mid-ranks that are all even halve the sums to count)
  a <- NULL
  secs <- cpu(a <- tryCatch(
    wilcoxon_test(s$x, s$y, alternative = "less", exact = TRUE),
    speeduptest_error_exact_too_large = function(e) NULL))
  if (is.null(a)) {
    cat("n = m =", n, "with three values: refused (too large)\n")
    next
  }
  b <- wilcoxon_test(s$x, s$y, alternative = "greater", exact = TRUE)
  ref <- ref_three(s$x, s$y)
  add(ties = "3 values", n = n, W = a$statistic[[1]],
      p_le = signif(a$p.value, 6), rel_le = signif(rel(a$p.value, ref$le), 2),
      p_ge = signif(b$p.value, 6), rel_ge = signif(rel(b$p.value, ref$ge), 2),
      seconds = round(secs, 2))
  print(rows[[length(rows)]], row.names = FALSE)
}

res <- do.call(rbind, rows)
cat("\nAll rows:\n")
print(res, row.names = FALSE)
rels <- c(res$rel_le, res$rel_ge)
kind <- c(res$ties, res$ties)
for (k in unique(kind)) {
  cat(sprintf("largest relative difference, ties %s: %.2g\n", k,
              max(rels[kind == k])))
}
