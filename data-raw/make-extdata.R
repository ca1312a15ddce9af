# Builds the example SpeedupTest configuration shipped in inst/extdata/:
# config.csv and one sample file per benchmark and version in
# inst/extdata/example/ (simulated run times, in seconds, 31 runs each as
# in the experiments of Touati et al. 2013).
#
# Run from the package root:  Rscript data-raw/make-extdata.R
#
# Each benchmark's times are base * exp(N(0, sd)) plus a few slow outliers
# (a skewed, noisy distribution like real run times); the transformed code
# runs base / speedup.  "mcf" has no real speedup, "sjeng" a small one with a
# lot of noise, "lbm" a strongly skewed initial code; "milc" and "lbm" have an
# empty ConfLevel, so the tool searches their highest confidence level.
set.seed(20130501)
out <- file.path("inst", "extdata")
dir.create(file.path(out, "example"), recursive = TRUE, showWarnings = FALSE)

bench <- data.frame(
  name    = c("bzip2", "gcc", "mcf", "milc", "sjeng", "lbm"),
  base    = c(12.4, 3.1, 41.0, 27.5, 8.2, 19.6),
  speedup = c(1.25, 1.60, 1.00, 1.10, 1.02, 1.35),
  sd      = c(0.010, 0.020, 0.015, 0.012, 0.040, 0.030),
  conf    = c("0.95", "0.95", "0.95", "", "0.9", ""),
  coef    = c(2, 1, 1, 3, 1, 2),
  stringsAsFactors = FALSE
)

runs <- function(base, sd, n = 31) {
  t <- base * exp(rnorm(n, 0, sd))
  slow <- runif(n) < 0.06
  t[slow] <- t[slow] * (1 + rexp(sum(slow), 1 / (4 * sd)))
  round(t, 3)
}

rows <- character()
for (i in seq_len(nrow(bench))) {
  b <- bench[i, ]
  f1 <- file.path("example", paste0(b$name, "-O1.txt"))
  f3 <- file.path("example", paste0(b$name, "-O3.txt"))
  writeLines(format(runs(b$base, b$sd), nsmall = 3), file.path(out, f1))
  writeLines(format(runs(b$base / b$speedup, b$sd), nsmall = 3), file.path(out, f3))
  rows <- c(rows, paste(b$name, f1, f3, b$conf, b$coef, sep = ","))
}
writeLines(c("Name,Sample1,Sample2,ConfLevel,Coef", rows),
           file.path(out, "config.csv"))
