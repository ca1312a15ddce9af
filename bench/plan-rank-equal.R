# The median protocol's normal plan of two builds, integer for integer
# (issue 29): the plan of the C core (src/plan-rank.c) against the R code
# it replaced (branch plan4, 86358ac), or any two builds.
#
#   Rscript bench/plan-rank-equal.R LIB_NEW LIB_REF [rounds]
#     LIB_NEW, LIB_REF: R libraries each holding a build of speeduptest;
#     rounds: pilots per cell of the design below (default 24)
#
# Pilots (fixed seed): the three laws of bench/plan.R (log-normal
# exp(0.02 Z), skewed 1 + 0.01 Gamma(2), heavy-tailed exp(0.01 T3)) at 2,
# 3, 5, 10, 30 and 100 runs of each version and 10 processes of 5 runs
# (their per-process medians); every fourth pilot rounded to 3 digits
# (ties); speedups 1.005 and 1.01, every other one a slowdown; tolerance 1
# or 1.002; alpha 0.01, 0.05 or 0.1; and pilots of 281-312 runs (thinned
# to 256 quantiles) and of unequal sizes.  For each, in each build:
# plan_normal_rank() on plan_samples() (the plan itself), and plan_runs()
# under options(speeduptest.plan_method = "normal") (reps 100, max_runs
# 2000: what a verdict's advice asks in a report).  A plan the reference
# gives as NA (R's doubling passed 1e9 runs) is Inf in a build that says
# so; plan_runs() then answers NA in both.
args <- commandArgs(trailingOnly = TRUE)

if (identical(args[1], "--child")) {
  suppressPackageStartupMessages(library(speeduptest))
  ns <- asNamespace("speeduptest")
  cases <- readRDS(args[2])
  res <- t(vapply(cases, function(cs) {
    r <- suppressWarnings(ns$plan_samples(cs$x, cs$y, "median"))
    k <- ns$plan_normal_rank(r, cs$S, 0.8, cs$alpha, cs$s0)
    op <- options(speeduptest.plan_method = "normal")
    on.exit(options(op))
    p <- tryCatch(suppressWarnings(plan_runs(cs$x, cs$y, speedup = cs$S, test = "median",
                                             alpha = cs$alpha, min_speedup = cs$s0,
                                             reps = 100, max_runs = 2000)),
                  error = function(e) list(runs = -1))
    c(k, p$runs)
  }, numeric(2)))
  saveRDS(res, args[3])
  quit(save = "no")
}

libs <- args[1:2]
rounds <- if (length(args) >= 3) as.integer(args[3]) else 24L
laws <- list(
  lognormal = function(n) exp(0.02 * rnorm(n)),
  skewed = function(n) 1 + 0.01 * rgamma(n, 2),
  heavy = function(n) exp(0.01 * rt(n, 3)))
set.seed(2920)
cases <- list()
add <- function(...) cases[[length(cases) + 1L]] <<- list(...)
for (rep in seq_len(rounds)) for (law in names(laws)) {
  for (size in c("2", "3", "5", "10", "30", "100", "10p")) {
    f <- laws[[law]]
    if (size == "10p") {
      cen <- function() {
        t <- rep(f(10), each = 5) * exp(0.005 * rnorm(50))
        as.vector(tapply(t, rep(1:10, each = 5), stats::median))
      }
      x <- cen()
      y <- cen()
    } else {
      n <- as.integer(size)
      x <- f(n)
      y <- f(n)
    }
    if (rep %% 4 == 0) {
      x <- round(x, 3)
      y <- round(y, 3)
    }
    S <- sample(c(1.005, 1.01), 1)
    if (rep %% 2 == 0) S <- 1 / S
    add(x = x, y = y, S = S, s0 = sample(c(1, 1, 1.002), 1),
        alpha = sample(c(0.05, 0.05, 0.01, 0.1), 1), cell = paste(law, size))
  }
  f <- laws[[1 + rep %% 3]]
  add(x = f(280 + rep), y = f(280), S = 1.005, s0 = 1, alpha = 0.05, cell = "thinned")
  add(x = f(4 + rep %% 12), y = f(40 - rep %% 12), S = 1.01, s0 = 1, alpha = 0.05,
      cell = "unequal")
}
cf <- tempfile(fileext = ".rds")
saveRDS(cases, cf)
script <- normalizePath(sub("^--file=", "", grep("^--file=", commandArgs(), value = TRUE)))
res <- lapply(libs, function(lib) {
  f <- tempfile(fileext = ".rds")
  st <- system2(file.path(R.home("bin"), "Rscript"), c(script, "--child", cf, f),
                env = paste0("R_LIBS=", lib))
  if (st != 0) stop("the child of ", lib, " failed")
  readRDS(f)
})
a <- res[[1]]
b <- res[[2]]
same_k <- (a[, 1] == b[, 1]) %in% TRUE
none <- is.na(b[, 1]) & (is.na(a[, 1]) | is.infinite(a[, 1]))
same_runs <- (a[, 2] == b[, 2]) %in% TRUE | (is.na(a[, 2]) & is.na(b[, 2]))
cat(sprintf("%d pilots: plan_normal_rank() identical in %d, no plan in the reference in %d (new: Inf %d, NA %d), differing %d\n",
            nrow(a), sum(same_k), sum(none), sum(none & is.infinite(a[, 1])),
            sum(none & is.na(a[, 1])), sum(!same_k & !none)))
cat(sprintf("plan_runs() under the normal option: identical runs in %d of %d\n",
            sum(same_runs), nrow(a)))
cells <- vapply(cases, `[[`, "", "cell")
if (any(!same_k & !none) || any(!same_runs)) {
  bad <- which((!same_k & !none) | !same_runs)
  print(data.frame(pilot = bad, cell = cells[bad], new_k = a[bad, 1], ref_k = b[bad, 1],
                   new_runs = a[bad, 2], ref_runs = b[bad, 2]))
}
if (any(none)) {
  cat("no plan in the reference:", paste(cells[none], collapse = ", "), "\n")
}
