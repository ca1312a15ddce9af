# Time and memory of the exact tests at their refusal limits (the largest
# samples `exact = TRUE` accepts; one more value per sample is refused with
# an error of class speeduptest_error_exact_too_large), and the exact
# rank-sum test with ties against coin's at n = m = 500.
# Run from the package root with the package (and coin) installed:
#   Rscript bench/exact-limits.R [reps] [coin_reps]
# Each case runs in a fresh R process, which reports the median CPU time
# (user + system) of reps calls and the growth of its peak resident memory
# (VmHWM) over the calls.  coin_reps = 0 skips coin.
args <- commandArgs(trailingOnly = TRUE)

# ---- one case, in a child process: Rscript bench/exact-limits.R --case ---
cases <- list(
  ranksum_noties = function(n) {
    set.seed(1)
    x <- stats::rnorm(n); y <- stats::rnorm(n, 0.1)
    function() wilcoxon_test(x, y, alternative = "less", exact = TRUE)
  },
  ranksum_rounded = function(n) {
    set.seed(2)
    x <- round(stats::rnorm(n), 1); y <- round(stats::rnorm(n, 0.1), 1)
    function() wilcoxon_test(x, y, alternative = "less", exact = TRUE)
  },
  ranksum_20values = function(n) {
    set.seed(3)
    x <- sample(20, n, TRUE); y <- sample(20, n, TRUE)
    function() wilcoxon_test(x, y, alternative = "less", exact = TRUE)
  },
  coin_20values = function(n) {
    set.seed(3)
    x <- sample(20, n, TRUE); y <- sample(20, n, TRUE)
    d <- data.frame(v = c(x, y), g = factor(rep(c("x", "y"), c(n, n))))
    function() coin::pvalue(coin::wilcox_test(v ~ g, data = d,
                                              distribution = "exact",
                                              alternative = "less"))
  },
  signrank_noties = function(n) {
    set.seed(4)
    d <- stats::rnorm(n, 0.02)
    function() signed_rank_test(d, alternative = "less", exact = TRUE)
  },
  signrank_rounded = function(n) {
    set.seed(5)
    d <- round(stats::rnorm(n, 0.02), 1)
    function() signed_rank_test(d, alternative = "less", exact = TRUE)
  },
  ks_rounded = function(n) {
    set.seed(6)
    x <- round(stats::rnorm(n), 1); y <- round(stats::rnorm(n, 0.02), 1)
    function() ks_test(x, y, exact = TRUE)
  }
)

hwm_mb <- function() {
  s <- readLines("/proc/self/status")
  as.numeric(gsub("[^0-9]", "", grep("^VmHWM", s, value = TRUE))) / 1024
}

if (length(args) && args[1] == "--case") {
  suppressMessages(library(speeduptest))
  f <- cases[[args[2]]](as.integer(args[3]))
  reps <- as.integer(args[4])
  base <- hwm_mb()
  res <- NULL
  t <- vapply(seq_len(reps), function(i) {
    s <- system.time(res <<- f())
    s[["user.self"]] + s[["sys.self"]]
  }, numeric(1))
  p <- if (is.list(res)) res$p.value else as.numeric(res)
  cat(sprintf("%.4g %.1f %.6g\n", stats::median(t), hwm_mb() - base, p))
  quit(save = "no")
}

# ---- driver ----------------------------------------------------------------
suppressMessages(library(speeduptest))
reps <- if (length(args) >= 1) as.integer(args[1]) else 3L
coin_reps <- if (length(args) >= 2) as.integer(args[2]) else 1L

run_case <- function(name, n, reps) {
  out <- system2(file.path(R.home("bin"), "Rscript"),
                 c("bench/exact-limits.R", "--case", name, n, reps),
                 stdout = TRUE)
  v <- as.numeric(strsplit(out[length(out)], " ")[[1]])
  data.frame(case = name, n = n, cpu_seconds = v[1], extra_mb = v[2],
             p_value = v[3])
}

# The largest size a case accepts: refusals are decided before counting,
# so the walk down from a refused size costs nothing until it is accepted.
accepts <- function(name, n) {
  f <- cases[[name]](n)
  env <- environment(f)
  ok <- tryCatch({
    if (startsWith(name, "ranksum")) {
      .Call(speeduptest:::ffi_wilcoxon_test, as.double(env$x),
            as.double(env$y), 1L, 0, 1L, TRUE, FALSE, 0.95)$status != 2L
    } else if (startsWith(name, "signrank")) {
      .Call(speeduptest:::ffi_signed_rank_test, as.double(env$d), 1L, 0, 1L,
            TRUE, FALSE, 0.95)$status != 2L
    } else {
      as.double(length(env$x)) * length(env$y) <= 1e8
    }
  }, error = function(e) FALSE)
  ok
}
limit <- function(name, from, step) {
  n <- from
  while (n > 0 && !accepts(name, n)) n <- n - step
  n
}

rows <- list()
lims <- c(ranksum_noties = limit("ranksum_noties", 830, 1),
          ranksum_rounded = limit("ranksum_rounded", 700, 5),
          ranksum_20values = limit("ranksum_20values", 700, 5),
          signrank_noties = limit("signrank_noties", 2050, 1),
          signrank_rounded = limit("signrank_rounded", 1700, 5),
          ks_rounded = 10000L)
for (name in names(lims)) {
  rows[[name]] <- run_case(name, lims[[name]], reps)
  print(rows[[name]], row.names = FALSE)
}
cat("\nAt the refusal limits:\n")
print(do.call(rbind, rows), row.names = FALSE)

if (coin_reps > 0 && requireNamespace("coin", quietly = TRUE)) {
  ours <- run_case("ranksum_20values", 500L, reps)
  theirs <- run_case("coin_20values", 500L, coin_reps)
  cat("\nn = m = 500, 20 distinct values, one-sided exact p-value:\n")
  both <- rbind(ours, theirs)
  print(both, row.names = FALSE)
  cat(sprintf("CPU time ratio coin / speeduptest: %.1f\n",
              theirs$cpu_seconds / ours$cpu_seconds))
}
