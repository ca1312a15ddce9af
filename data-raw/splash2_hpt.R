# Builds data/splash2_hpt.rda from Table 1 of Chen et al. (2012),
# "Statistical performance comparisons of computers", HPCA 2012, section 4.3.
#
# The table prints, for each of the 14 SPLASH-2 benchmarks, the 5 runs of
# computer X already divided by the speedup under test 1.76 (S_X~) and the
# 5 runs of computer Y, all normalised to Y's first run (so Y's first run is
# 1.00), rounded to two decimals.  These are stored exactly as printed; the
# table's medians, winners, differences and ranks are recomputed by hpt()
# and are not stored.  Run with the package root as working directory:
#   Rscript data-raw/splash2_hpt.R

x_reduced <- rbind(
  barnes       = c(0.53, 0.54, 0.54, 0.53, 0.54),
  cholesky     = c(0.97, 0.95, 0.93, 0.96, 0.96),
  fft          = c(0.74, 0.76, 0.74, 0.78, 0.76),
  fmm          = c(1.07, 1.03, 1.05, 1.02, 1.05),
  "lu-con"     = c(1.29, 1.26, 1.27, 1.27, 1.25),
  "lu-ucon"    = c(1.46, 1.48, 1.38, 1.53, 1.55),
  "ocean-con"  = c(1.17, 1.15, 0.94, 1.16, 1.13),
  "ocean-ucon" = c(1.95, 1.98, 1.92, 1.93, 1.93),
  radiosity    = c(1.01, 1.01, 1.01, 0.99, 1.01),
  radix        = c(2.47, 2.51, 2.53, 2.44, 2.11),
  raytrace     = c(1.41, 1.39, 1.43, 1.21, 1.37),
  volrend      = c(0.92, 0.94, 0.92, 0.92, 0.93),
  "water-ns"   = c(1.64, 1.66, 1.59, 1.64, 1.63),
  "water-sp"   = c(1.84, 1.88, 1.78, 1.80, 1.77)
)
y <- rbind(
  barnes       = c(1.00, 1.05, 1.04, 1.03, 1.04),
  cholesky     = c(1.00, 0.98, 1.01, 0.99, 0.98),
  fft          = c(1.00, 1.03, 1.02, 1.05, 1.03),
  fmm          = c(1.00, 1.05, 1.04, 1.04, 1.05),
  "lu-con"     = c(1.00, 1.01, 1.02, 0.98, 1.00),
  "lu-ucon"    = c(1.00, 0.96, 1.04, 0.87, 0.99),
  "ocean-con"  = c(1.00, 0.91, 1.00, 0.98, 0.86),
  "ocean-ucon" = c(1.00, 0.98, 0.97, 0.90, 0.98),
  radiosity    = c(1.00, 1.00, 1.00, 1.00, 1.00),
  radix        = c(1.00, 0.86, 0.95, 1.03, 0.97),
  raytrace     = c(1.00, 1.09, 1.07, 1.14, 1.07),
  volrend      = c(1.00, 1.00, 1.00, 1.00, 1.00),
  "water-ns"   = c(1.00, 0.95, 0.84, 0.93, 0.96),
  "water-sp"   = c(1.00, 1.02, 0.98, 0.87, 1.04)
)
stopifnot(identical(rownames(x_reduced), rownames(y)), ncol(x_reduced) == 5L)

benchmarks <- rownames(y)
long <- function(m, machine) {
  data.frame(
    benchmark = factor(rep(benchmarks, each = ncol(m)), levels = benchmarks),
    machine = factor(machine, levels = c("X", "Y")),
    run = rep(seq_len(ncol(m)), times = nrow(m)),
    score = as.vector(t(m))
  )
}
splash2_hpt <- rbind(long(x_reduced, "X"), long(y, "Y"))
rownames(splash2_hpt) <- NULL
save(splash2_hpt, file = "data/splash2_hpt.rda", compress = "xz", version = 2)
