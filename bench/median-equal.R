# Randomised equality of the median path against a reference build: the
# old answers are recorded with one installed version and checked with
# another, bit for bit (identical()).
#
# usage (from the package root):
#   R_LIBS=<old lib> Rscript bench/median-equal.R record /tmp/old.rds
#   R_LIBS=<new lib> Rscript bench/median-equal.R check  /tmp/old.rds
args <- commandArgs(trailingOnly = TRUE)
mode <- args[1]
file <- args[2]
suppressPackageStartupMessages(library(speeduptest))
ns <- asNamespace("speeduptest")
call_c <- function(name, ...) .Call(get(name, envir = ns), ...)
# The median protocol with or without the trend tests it makes on the way
# (builds after b2a: a fifth argument, and a `trend` element, checked here
# against the trend tests made alone and then left out of the comparison).
median_c <- function(x, y, alpha, rigorous) {
  # (builds with one entry for every protocol: ffi_run_protocol, the
  # median's code 1, unpaired)
  f <- get0("ffi_median_test", envir = ns)
  if (!is.null(f) && f$numParameters == 4L) return(.Call(f, x, y, alpha, rigorous))
  res <- if (is.null(f)) {
    .Call(get("ffi_run_protocol", envir = ns), x, y, 1L, FALSE, alpha, rigorous, 7L)
  } else .Call(f, x, y, alpha, rigorous, 7L)
  alone <- .Call(get("ffi_mann_kendall", envir = ns), c(x, y), c(0, length(x)),
                 as.double(c(length(x), length(y))))
  keep <- c(length(x), length(y)) >= 7L
  for (el in names(alone)) {
    if (!identical(res$trend[[el]][keep], alone[[el]][keep]))
      stop("the trend tests of the median protocol differ from trend tests made alone")
  }
  res$trend <- NULL
  res
}

set.seed(20261123)
gen <- function(n, kind) {
  switch(kind,
    cont = rlnorm(n, log(10), 0.2),
    ties = round(rlnorm(n, log(10), 0.2), 1),
    heavy = sample(c(1, 2, 3), n, replace = TRUE),
    shift = rlnorm(n, log(10), 0.05) + sample(c(0, 1e-9), n, TRUE))
}
cases <- list()
sizes <- c(3, 4, 5, 10, 30, 31, 45, 49, 50, 64, 100, 150, 300, 700, 2500)
for (r in 1:120) {
  n <- sample(sizes, 1)
  m <- if (runif(1) < 0.5) n else sample(sizes, 1)
  kind <- sample(c("cont", "ties", "heavy", "shift"), 1)
  x <- gen(n, kind)
  y <- gen(m, kind) * sample(c(1, 0.98, 0.9, 1.1), 1)
  cases[[r]] <- list(x = x, y = y, alpha = sample(c(0.05, 0.01, 0.2, 0.5), 1))
}
cases[[length(cases) + 1]] <- list(x = rep(2, 10), y = rep(2, 12), alpha = 0.05)
cases[[length(cases) + 1]] <- list(x = rep(2, 40), y = rep(1, 40), alpha = 0.05)
cases[[length(cases) + 1]] <- list(x = rlnorm(20000), y = rlnorm(30000, 0.01), alpha = 0.05)
cases[[length(cases) + 1]] <- list(x = round(rlnorm(20000), 2), y = round(rlnorm(25000, 0.01), 2), alpha = 0.1)

answers <- lapply(cases, function(cs) {
  x <- cs$x
  y <- cs$y
  out <- list(
    median = median_c(x, y, cs$alpha, TRUE),
    median_lax = median_c(x, y, cs$alpha, FALSE),
    hc = call_c("ffi_highest_confidence", x, y, 1L, TRUE),
    ks = call_c("ffi_ks_test", x - median(x), y - median(y), 0L, -1L),
    obs = call_c("ffi_observed_speedups", x, y))
  for (alt in 0:2) for (ex in c(-1L, 0L)) {
    out[[sprintf("w%d%d", alt, ex)]] <-
      call_c("ffi_wilcoxon_test", x, y, alt, 0, ex, TRUE, TRUE, 1 - cs$alpha)
  }
  out$wmu <- call_c("ffi_wilcoxon_test", x, y, 0L, 0.3, -1L, TRUE, TRUE, 0.9)
  if (length(x) <= 700)
    out$sr <- call_c("ffi_signed_rank_test", x - mean(x), 0L, 0, -1L, TRUE, TRUE, 0.95)
  out
})

if (mode == "record") {
  saveRDS(list(cases = cases, answers = answers), file)
  cat("recorded", length(answers), "cases\n")
} else {
  old <- readRDS(file)
  stopifnot(identical(old$cases, cases))
  bad <- 0L
  for (i in seq_along(answers)) for (nm in names(answers[[i]])) {
    a <- answers[[i]][[nm]]
    b <- old$answers[[i]][[nm]]
    # results the reference did not have yet (e.g. p_value_slowdown) are
    # not compared
    if (is.list(a) && is.list(b)) a <- a[intersect(names(a), names(b))]
    if (!identical(a, b)) {
      bad <- bad + 1L
      cat(sprintf("case %d (n = %d, m = %d) %s differs\n", i,
                  length(cases[[i]]$x), length(cases[[i]]$y), nm))
      if (bad < 4) {
        str(answers[[i]][[nm]][setdiff(names(answers[[i]][[nm]]), "steps")])
        str(old$answers[[i]][[nm]][setdiff(names(answers[[i]][[nm]]), "steps")])
      }
    }
  }
  cat(sprintf("%d cases, %d differing results\n", length(answers), bad))
  if (bad > 0) quit(status = 1)
}
