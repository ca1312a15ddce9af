# The Speedup-Test case study (section 6 of Touati, Worms and Briais 2013) on
# the run times measured by the package's own benchmark harness.
# See vignette("case-study", package = "speeduptest") for the full analysis.

library(speeduptest)

meta <- attr(cpu_runs, "harness")
cat("Run times measured", meta$started, "to", meta$finished, "UTC on\n ",
    meta$uname, "\n  CPU:", meta$cpu_model, "-", meta$nproc, "cores;",
    "load average at start", meta$load_start, "and end", meta$load_end, "\n ",
    meta$gcc, "/", meta$clang, "\n ",
    meta$runs_per_version, "runs per version, random interleaved order\n\n")

# Each comparison of a version with the initial code is one pair of the suite,
# as the paper's "34 couples" for 17 programs and two optimisation levels.
pairs_of <- function(d, base, versions) {
  do.call(rbind, lapply(versions, function(v) {
    s <- d[d$version %in% c(base, v), ]
    data.frame(benchmark = paste0(s$benchmark, " (", v, ")"),
               version = factor(ifelse(s$version == base, base, "new"),
                                levels = c(base, "new")),
               time = s$time)
  }))
}

experiments <- list(
  "6.1 gcc -O1 and -O3 against -O0 (sequential kernels)" =
    pairs_of(cpu_runs, "O0", c("O1", "O3")),
  "6.2 OpenMP with 1, 2 and 4 threads against the sequential build" =
    pairs_of(omp_runs, "seq", c("omp1", "omp2", "omp4")),
  "6.3 clang against gcc at -O3 (sequential kernels)" =
    pairs_of(compiler_runs, "gcc", "clang"))

suites <- lapply(experiments, speedup_suite, conf_level = 0.95, weights = "equal")

for (name in names(suites)) {
  s <- suites[[name]]
  cat(strrep("=", 78), "\n", name, "\n", strrep("=", 78), "\n", sep = "")
  print(s)
  # per protocol, each pair's speedup with its interval (rounded outwards,
  # so the estimate stays inside) and the decision, in the package's words
  for (p in c("mean", "median")) {
    td <- tidy(s, which = p)
    cat(sprintf("\nSpeedup of the %s (%s; %s%% interval%s):\n", p,
                td$estimator[1], format(100 * td$conf.level[1]),
                if (p == "mean") ", Fieller" else ""))
    print(data.frame(pair = td$benchmark,
                     speedup = sprintf("%.3f [%.3f, %.3f]", round(td$estimate, 3),
                                       floor(td$conf.low * 1000) / 1000,
                                       ceiling(td$conf.high * 1000) / 1000),
                     decision = td$decision),
          row.names = FALSE, right = FALSE)
  }
  cat("\n")
}

# Section 6.4, Table 1: observed ("hand made") speedups that are not
# statistically significant, at the risk level 5%.
hand_made <- function(s) {
  b <- s$benchmarks
  om <- b$speedup_mean > 1
  od <- b$speedup_median > 1
  c(pairs = nrow(b),
    observed_mean = sum(om),
    not_significant_mean = sum(om & !(b$mean_significant %in% TRUE)),
    observed_median = sum(od),
    not_significant_median = sum(od & !(b$median_significant %in% TRUE)))
}
cat(strrep("=", 78), "\nTable 1: observed speedups that are not statistically significant",
    " (risk 5%)\n", strrep("=", 78), "\n", sep = "")
table1 <- t(sapply(suites, hand_made))
rownames(table1) <- c("optimisation levels", "OpenMP threads", "clang vs gcc")
print(table1)

cat("\nProportion of significantly accelerated pairs (95% interval, prop.test)",
    "and minimal number of benchmarks for a precision of 0.05:\n")
props <- do.call(rbind, lapply(names(suites), function(n) {
  p <- suites[[n]]$proportion
  data.frame(experiment = rownames(table1)[match(n, names(suites))], protocol = p$protocol,
             a_b = paste0(p$a, "/", p$b), estimate = round(p$estimate, 3),
             interval = sprintf("[%.3f; %.3f]", p$conf_low, p$conf_high),
             valid = p$valid, min_benchmarks = p$min_benchmarks)
}))
print(props, row.names = FALSE)
