# The Hodges-Lehmann interval where the shapes differ (issue 29): does the
# verdict's interval cover the ratio of the medians, or does the verdict
# say that its factor is not the ratio of the medians (and give that ratio
# with the Bonett-Price interval)?
#   Rscript bench/shapes.R [replicates] [seed]
# x: log-normal (symmetric on log times); y: the same median and spread of
# log times, skewed (a standardised gamma on log times), so that the true
# ratio of the medians is theta exactly while the Hodges-Lehmann factor
# (the theta' with P[X > theta' Y] = 1/2) is another number.
suppressPackageStartupMessages(library(speeduptest))
args <- commandArgs(TRUE)
R <- if (length(args) >= 1) as.integer(args[1]) else 2000L
seed <- if (length(args) >= 2) as.integer(args[2]) else 29L
alpha <- 0.05
theta <- 1.01
sdlog <- 0.05
skewed <- function(n, k) {
  if (is.infinite(k)) return(stats::rnorm(n))
  g <- stats::rgamma(n, k)
  (g - stats::qgamma(0.5, k)) / sqrt(k)      # median 0, sd 1
}
# k = Inf: y log-normal too (the shift model holds: how often the verdict
# says the shapes differ when they do not)
cells <- expand.grid(n = c(100L, 300L, 1000L), k = c(2, 8, Inf))
out <- NULL
for (i in seq_len(nrow(cells))) {
  n <- cells$n[i]
  k <- cells$k[i]
  set.seed(seed + i)
  hl <- says <- bp <- ok <- 0L
  t0 <- proc.time()[["elapsed"]]
  for (r in seq_len(R)) {
    x <- exp(stats::rnorm(n, 0, sdlog))
    y <- exp(-log(theta) + sdlog * skewed(n, k))
    v <- median_test(x, y, alpha = alpha)
    ci <- as.double(v$speedup_ci)
    cov_hl <- !anyNA(ci) && ci[1] <= theta && theta <= ci[2]
    s <- speeduptest:::shapes_differ(v)
    m <- v$median_ratio
    cov_bp <- !anyNA(m) && m[["low"]] <= theta && theta <= m[["high"]]
    hl <- hl + cov_hl
    says <- says + s
    bp <- bp + cov_bp
    # the verdict's statement about the ratio of the medians is right: the
    # Bonett-Price interval it prints for it (from 10 runs a side), else the
    # Hodges-Lehmann interval
    shown <- length(speeduptest:::median_ratio_line(v)) > 0L
    ok <- ok + if (shown) cov_bp else cov_hl
  }
  out <- rbind(out, data.frame(n = n, gamma_shape = k, replicates = R,
                               hl_covers = hl / R, says_not_ratio = says / R,
                               bp_covers = bp / R, statement_right = ok / R,
                               seconds = round(proc.time()[["elapsed"]] - t0)))
  print(out[nrow(out), ], row.names = FALSE)
}
cat(sprintf("\nratio of the medians %s, alpha %s (intervals at %s%%), sdlog %s\n",
            theta, alpha, 100 * (1 - 2 * alpha), sdlog))
print(out, row.names = FALSE)
