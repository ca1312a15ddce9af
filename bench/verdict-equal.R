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
# a verdict with every part made (the parts made when read, in builds that
# have them)
complete <- get0("complete_verdict", envir = asNamespace("speeduptest"),
                 ifnotfound = identity)
drop_call <- function(v) {
  if (inherits(v, "speedup_verdict")) v <- complete(v)
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

# Verdicts on timings with processes and rounds (the unit of replication
# and the paired design), with the tolerance, with too few or constant
# runs, by formula; each with its printed forms.
shown <- function(v) {
  list(verdict = drop_call(v), print = utils::capture.output(print(v)),
       summary = utils::capture.output(summary(v)))
}
set.seed(11)
for (i in 1:60) {
  test <- if (i %% 2) "mean" else "median"
  fun <- if (test == "mean") mean_test else median_test
  k <- sample(c(2, 3, 5, 12, 40), 1)        # processes or rounds per version
  r <- sample(c(1, 3, 6), 1)                # runs per process
  s <- sample(c(1, 1.004, 1.03), 1)
  drift <- if (i %% 5 == 0) 0.002 else 0
  pe <- rnorm(2 * k, 0, 0.01)
  df <- do.call(rbind, lapply(seq_len(2 * k), function(p) {
    ver <- if (p <= k) "old" else "new"
    data.frame(benchmark = "b", version = ver, process = p,
               round = (p - 1) %% k + 1,
               time = exp(pe[p] + rnorm(r, 0, 0.004) + drift * p -
                            (ver == "new") * log(s)))
  }))
  t <- as_timings(df)
  for (rep in c("auto", "process", "run")) {
    add(tryCatch(shown(fun(t, replication = rep)), error = conditionMessage))
  }
  one <- df
  one$process <- ifelse(one$version == "old", 1, 2)
  add(tryCatch(shown(fun(as_timings(one))), error = conditionMessage))
  rounds <- df[!duplicated(df$process), ]
  rounds$process <- NULL
  add(tryCatch(shown(fun(as_timings(rounds), min_speedup = 1.01)),
               error = conditionMessage))
  add(tryCatch(shown(fun(as_timings(rounds), design = "unpaired")),
               error = conditionMessage))
  x <- rlnorm(k, 1, 0.02)
  y <- x / s * exp(rnorm(k, 0, 0.01))
  add(tryCatch(shown(fun(x, y, design = "paired")), error = conditionMessage))
  add(tryCatch(shown(fun(x, y, min_speedup = 1.02, alpha = 0.1)),
               error = conditionMessage))
}
for (fun in list(mean_test, median_test)) {
  add(shown(fun(c(1, 1, 1, 1), c(1, 1, 1, 1))))
  add(shown(fun(c(1, 2), c(1, 2, 3))))
  add(shown(fun(c(1, 1, 1, 1, 2), c(2, 2, 2, 2, 2), rigorous = FALSE)))
  d <- data.frame(time = c(rlnorm(12), rlnorm(12, 0.3)), v = rep(c("a", "b"), each = 12))
  add(shown(fun(time ~ v, data = d, initial = "b")))
  add(shown(fun(c(rlnorm(20), 100), rlnorm(21, 0.1))))
  add(shown(fun(exp(seq(0, 1, length.out = 30)), rlnorm(30))))
}

# The paired protocols on many rounds (vectors and timings with a round
# column, rounds out of order, incomplete and repeated), the variance
# components with labels of every type, and a verdict's parts read twice
# and in any order (the parts made when read are the same each time).
set.seed(12)
for (k in c(7, 500, 1e5)) {
  x <- rlnorm(k, 1, 0.05)
  y <- x / 1.002 * exp(rnorm(k, 0, 0.01))
  for (fun in list(mean_test, median_test)) {
    add(drop_call(fun(x, y, design = "paired")))
    rnd <- sample(k)
    d <- data.frame(version = rep(c("a", "b"), each = k), time = c(x, y),
                    round = c(rnd, rnd))
    d$round[c(1, k + 2)] <- c(NA, k + 5L)
    d <- d[sample(nrow(d)), ]
    add(drop_call(fun(as_timings(d))))
    d$round[3] <- d$round[4]
    add(tryCatch(drop_call(fun(as_timings(d), design = "paired", alpha = 0.01)),
                 error = conditionMessage))
  }
}
# Large samples: the paired verdicts with their prints and broom tables
# (the trend check of the rounds made when read), the unpaired protocols
# and the observed speedups whose medians are selected in a bracket drawn
# from a sample, or in a copy when the bracket misses (an order of the
# values that fools the sample's stride, few distinct values).
set.seed(15)
for (k in c(8191, 8192, 20001, 1e6)) {
  x <- rlnorm(k, 1, 0.05)
  y <- x / 1.002 * exp(rnorm(k, 0, 0.01) - 1e-5 * (k < 1e6) * seq_len(k) / k)
  for (fun in list(mean_test, median_test)) {
    v <- fun(x, y, design = "paired")
    add(c(shown(v), list(glance = glance(v), tidy = tidy(v),
                         frame = as.data.frame(v))))
    add(drop_call(fun(x, y, design = "paired", alpha = 0.01, rigorous = FALSE)))
  }
  if (k < 1e6) {
    add(drop_call(mean_test(x, y[-1])))
    add(drop_call(median_test(x[-1], y)))
  }
  add(observed_speedups(x, y))
  add(observed_speedups(sort(x), rev(y)))
  z <- runif(k, 1, 2)
  z[seq(1, k, by = k %/% floor((as.double(k) * k)^(1 / 3)))] <- 1e6
  add(observed_speedups(z, rep(c(1, 2, 3), length.out = k)))
  add(observed_speedups(round(rlnorm(k, 0, 2), 1) + 0.1, c(rep(1, k %/% 2), rep(2, k - k %/% 2))))
}
# paired rounds whose differences are constant, few rounds, ties
for (fun in list(mean_test, median_test)) {
  x <- rlnorm(9000, 1, 0.05) + 1
  for (v in list(x[1:2], x[1:3], x[1:40], x[1:5001], x)) {
    add(tryCatch(shown(fun(v, v - 0.5, design = "paired")), error = conditionMessage))
    add(tryCatch(shown(fun(v, v, design = "paired")), error = conditionMessage))
    add(tryCatch(shown(fun(round(v, 1), round(rev(v), 1), design = "paired")),
                 error = conditionMessage))
  }
}

set.seed(13)
for (i in 1:40) {
  k <- sample(c(2, 3, 10, 200), 1)
  r <- sample(c(1, 2, 5), 1)
  p <- rep(seq_len(k), each = r)
  t <- exp(rnorm(k, 0, 0.02)[p] + rnorm(k * r, 0, 0.005))
  lab <- switch(i %% 5 + 1, p, as.double(p) * 10, sprintf("w%d", p),
                factor(sprintf("f%d", p)), p / 3)
  add(tryCatch(variance_components(t, lab), error = conditionMessage))
  add(tryCatch(variance_components(t, sample(lab)), error = conditionMessage))
}
add(tryCatch(variance_components(c(1, 2, 3), c(1, 1, NA)), error = conditionMessage))
add(variance_components(c(1, 2, 3, 4), c(0.1 + 0.2, 0.3, 1, 1)))
set.seed(14)
for (i in 1:20) {
  x <- rlnorm(30, 1, 0.1) * (1 + 0.02 * seq_len(30) * (i %% 2))
  y <- rlnorm(30, 0.95, 0.1)
  v <- (if (i %% 3) median_test else mean_test)(x, y, alpha = 0.1)
  parts <- list(v$advice, v$caveats, v$run_order, v[["caveats"]], v$steps,
                v$detectable, v$advice, v[["run_order"]], v[["detectable"]])
  add(list(parts, drop_call(v), utils::capture.output(print(v))))
}

# One benchmark of timings picked from a table (timings_pair()): several
# benchmarks, marked warm-ups, timestamps (in order, with ties, out of
# order, missing), runs out of order or missing, the global run order,
# processes and rounds of every type, missing times with and without
# na_rm, three versions chosen with `versions` or `initial`, columns of
# other types than timings have (character versions, a factor benchmark,
# double runs), and the bad input (unknown benchmarks and versions, a round
# missing on one side, repeated rounds): the pair itself, the verdicts
# with their prints, and the errors.
pair_of <- function(t, ...) {
  p <- tryCatch(speeduptest:::timings_pair(t, ..., na_rm = FALSE), error = conditionMessage)
  # (the flag a build may add when the times passed the checks)
  if (is.list(p)) p$plain <- NULL
  p
}
set.seed(16)
for (i in 1:80) {
  nb <- sample(c(1, 3), 1)
  nv <- sample(c(2, 2, 3), 1)
  n <- sample(c(4, 9, 40), 1)
  vers <- c("old", "new", "mid")[seq_len(nv)]
  d <- expand.grid(run = seq_len(n), version = vers, benchmark = sprintf("b%d", seq_len(nb)),
                   stringsAsFactors = FALSE)
  d$time <- rlnorm(nrow(d), 1 - 0.01 * (d$version == "new"), 0.05)
  if (i %% 4 == 0) d$round <- d$run
  if (i %% 8 == 0) d$round[sample(nrow(d), 2)] <- c(NA, 3L)
  if (i %% 5 == 0) d$process <- switch(i %% 3 + 1, d$run %% 3, sprintf("p%d", d$run %% 2),
                                       factor(d$run > n / 2))
  if (i %% 6 == 0) d$warmup <- sample(c(TRUE, FALSE, NA), nrow(d), TRUE, c(0.2, 0.7, 0.1))
  if (i %% 7 == 0) {
    d$timestamp <- as.POSIXct("2026-01-01", tz = "UTC") +
      switch(i %% 3 + 1, seq_len(nrow(d)), rev(seq_len(nrow(d))) %/% 2,
             c(NA, seq_len(nrow(d) - 1)))
  }
  if (i %% 9 == 0) d$time[sample(nrow(d), 2)] <- NA
  if (i %% 3 == 0) d <- d[sample(nrow(d)), ]
  ro <- if (i %% 2) "global" else "sample"
  t <- as_timings(d, run_order = ro)
  if (i %% 10 == 0) t$run <- sample(t$run)
  if (i %% 11 == 0) t$run[2] <- NA
  if (i %% 13 == 0) t$version <- as.character(t$version)
  if (i %% 17 == 0) t$benchmark <- factor(t$benchmark)
  if (i %% 19 == 0) t$run <- as.double(t$run)
  b <- if (nb > 1) "b2" else NULL
  vv <- if (nv == 3) c("mid", "old") else NULL
  add(pair_of(t, benchmark = b, versions = vv, initial = NULL))
  add(pair_of(t, benchmark = b, versions = NULL, initial = if (nv == 2) "new" else NULL))
  add(pair_of(t, benchmark = NULL, versions = NULL, initial = NULL))
  add(pair_of(t, benchmark = "zz", versions = NULL, initial = NULL))
  add(pair_of(t, benchmark = b, versions = c("old", "zz"), initial = NULL))
  add(pair_of(t, benchmark = b, versions = NULL, initial = "zz"))
  for (fun in list(mean_test, median_test)) for (na_rm in c(FALSE, TRUE)) {
    add(tryCatch(shown(fun(t, benchmark = b, versions = vv, na_rm = na_rm)),
                 error = conditionMessage))
  }
  if (i %% 6 == 0) {
    add(tryCatch(drop_call(median_test(t, benchmark = b, versions = vv, warmup = "detect")),
                 error = conditionMessage))
  }
  if (!is.null(t$round)) {
    add(tryCatch(shown(mean_test(t, benchmark = b, versions = vv, design = "paired",
                                 na_rm = TRUE)), error = conditionMessage))
  }
}
# rounds: one missing on one side, repeated, out of order, a version
# unknown; many rounds from two versions of a large table
set.seed(17)
for (k in c(10, 5000)) {
  x <- rlnorm(k, 1, 0.05)
  y <- x / 1.01 * exp(rnorm(k, 0, 0.01))
  rnd <- sample(k)
  d <- data.frame(benchmark = "b", version = rep(c("a", "b"), each = k),
                  time = c(x, y), round = c(rnd, rnd))
  cases <- list(d, d[-3, ], transform(d, round = replace(round, 5, round[6])),
                d[c(k + seq_len(k), seq_len(k)), ],
                transform(d, round = replace(round, k + 1, NA)))
  for (dd in cases) {
    t <- as_timings(dd)
    add(pair_of(t, benchmark = NULL, versions = NULL, initial = NULL))
    for (des in c("auto", "paired")) {
      add(tryCatch(shown(mean_test(t, design = des)), error = conditionMessage))
      add(tryCatch(drop_call(median_test(t, design = des)), error = conditionMessage))
    }
  }
}

if (identical(mode, "record")) {
  saveRDS(out, file)
  cat(length(out), "answers recorded\n")
} else {
  ref <- readRDS(file)
  if (length(ref) != length(out)) cat(sprintf("%d answers recorded, %d now\n", length(ref), length(out)))
  # a suite of a build that adds fields (the long benchmark x protocol
  # table `results` and `protocols`) is compared on the reference's fields
  # (every field the reference has must be identical)
  as_ref <- function(a, b) {
    if (inherits(a, "speedup_suite") && inherits(b, "speedup_suite")) {
      extra <- setdiff(names(b), names(a))
      if (length(extra)) b[extra] <- NULL
    }
    b
  }
  out <- Map(as_ref, ref, out)
  same <- mapply(identical, ref, out)
  if (any(!same)) cat("differing:", utils::head(which(!same), 20), "\n")
  cat(sprintf("%d answers, %d differing\n", length(ref), sum(!same)))
  if (any(!same)) quit(status = 1)
}
