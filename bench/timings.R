# Benchmark: the analyses of timings (what read_timings() and as_timings()
# return, the path of every real file) against the same analyses of lists
# and against the stats calls they replace, each ratio measured in turn in
# this process (CPU time, user + system, median of the repeats):
#
#   suite     speedup_suite() on timings against the same suite as a list,
#             for 1,000, 10,000 and 100,000 benchmarks, interleaved, each
#             timing covering at least about 0.25 s of CPU (many calls
#             below 100,000 benchmarks), the ratio taken within each repeat
#             (median and range), with the growth exponent of each from
#             the smallest to the largest size; and the loop of stats
#             calls of bench/suite.R against both at 10,000 benchmarks (at
#             the runs per version given and at 31);
#   paired    mean_test() and median_test() of 1e6 complete rounds (two
#             vectors, and timings with a round column of 2e6 rows)
#             against t.test(paired = TRUE) and wilcox.test(paired =
#             TRUE); and of timings of one benchmark without rounds
#             (2 x 1e6 runs) against the same protocol on the two vectors;
#   anova     variance_components() against base R's one-way ANOVA
#             (anova(lm(log(time) ~ factor(process))));
#   ab        (only when asked, with REF_LIB set to the library of a build
#             of before) speedup_suite() on timings and on the list at
#             10,000 benchmarks in child processes alternating between the
#             two builds;
#   compare   `speeduptest compare` on two Google Benchmark files of 3,000
#             benchmarks each, the CPU of the whole child process with the
#             text, Markdown and JSON reports (and of `Rscript -e NULL` and
#             of reading the two files).
#
# usage (from the package root, with speeduptest installed):
#   Rscript bench/timings.R [parts = suite,paired,anova,compare]
#                           [repeats = 3] [runs per version = 10]
#                           [sizes = 1000,10000,100000]
#                           [repeats of the stats loop = repeats]
suppressPackageStartupMessages(library(speeduptest))
args <- commandArgs(trailingOnly = TRUE)
parts <- if (length(args) >= 1) strsplit(args[1], ",")[[1]] else
  c("suite", "paired", "anova", "compare")
reps <- if (length(args) >= 2) as.integer(args[2]) else 3L
n <- if (length(args) >= 3) as.integer(args[3]) else 10L
sizes <- if (length(args) >= 4) as.numeric(strsplit(args[4], ",")[[1]]) else
  c(1000, 10000, 1e5)

cpu <- function(expr) {
  t <- system.time(expr, gcFirst = FALSE)
  t[["user.self"]] + t[["sys.self"]] + t[["user.child"]] + t[["sys.child"]]
}
# each expression timed in turn, `reps` times (each time the CPU of
# `inner` evaluations, divided by `inner`: short calls are timed over
# several); the medians and ranges
in_turn <- function(exprs, reps, inner = 1L) {
  env <- parent.frame()
  times <- matrix(NA_real_, reps, length(exprs), dimnames = list(NULL, names(exprs)))
  for (r in seq_len(reps)) for (k in seq_along(exprs)) {
    invisible(gc())
    times[r, k] <- cpu(for (i in seq_len(inner)) eval(exprs[[k]], env)) / inner
  }
  list(median = apply(times, 2, median), min = apply(times, 2, min),
       max = apply(times, 2, max), times = times)
}
load_now <- function() {
  if (!file.exists("/proc/loadavg")) return("?")
  utils::head(scan("/proc/loadavg", what = "", quiet = TRUE), 1)
}
# the expressions timed interleaved (their order reversed every other
# repeat), `reps` times, each timing covering enough calls for about
# `min_time` s of CPU (counted once beforehand, from the calls of each in
# 0.1 s after a first call not timed); the CPU per call, and the ratio of each
# expression to the last one within each repeat: medians and ranges
interleaved <- function(exprs, reps, min_time = 0.25) {
  env <- parent.frame()
  k <- length(exprs)
  inner <- vapply(exprs, function(e) {
    eval(e, env)
    # calls until 0.1 s (or 20 calls), for the CPU of one
    used <- 0
    k <- 0L
    while (used < 0.1 && k < 20L) {
      used <- used + cpu(eval(e, env))
      k <- k + 1L
    }
    as.integer(max(1, ceiling(min_time / max(used / k, 1e-4))))
  }, 1L)
  times <- matrix(NA_real_, reps, k, dimnames = list(NULL, names(exprs)))
  for (r in seq_len(reps)) {
    for (i in if (r %% 2) seq_len(k) else rev(seq_len(k))) {
      invisible(gc())
      times[r, i] <- cpu(for (q in seq_len(inner[i])) eval(exprs[[i]], env)) / inner[i]
    }
  }
  ratio <- times / times[, k]
  list(median = apply(times, 2, median), min = apply(times, 2, min),
       max = apply(times, 2, max), inner = inner,
       ratio = apply(ratio, 2, median), ratio_min = apply(ratio, 2, min),
       ratio_max = apply(ratio, 2, max))
}
line <- function(label, a, b, what) {
  cat(sprintf("%-44s %8.3f s  %8.3f s  ratio %7.2f  (%s)\n", label, a, b, a / b, what))
}

make_suite <- function(nb, n, seed = 1) {
  set.seed(seed)
  suite <- lapply(seq_len(nb), function(j) {
    base <- runif(1, 1, 20)
    s <- sample(c(1, 1.02, 1.1, 1.5), 1)
    list(x = rlnorm(n, log(base), 0.03), y = rlnorm(n, log(base / s), 0.03))
  })
  names(suite) <- sprintf("bench%07d", seq_len(nb))
  suite
}
# the suite as timings: one process per version (Google Benchmark files),
# one process per run (hyperfine) or no process column
suite_timings <- function(suite, process) {
  nb <- length(suite)
  n <- length(suite[[1]]$x)
  df <- data.frame(benchmark = rep(names(suite), each = 2 * n),
                   version = rep(rep(c("old", "new"), each = n), nb),
                   time = unlist(lapply(suite, function(b) c(b$x, b$y)), use.names = FALSE))
  if (process == "file") df$process <- rep(rep(1:2, each = n), nb)
  if (process == "run") df$process <- seq_len(nrow(df))
  as_timings(df)
}

if ("suite" %in% parts) {
  cat(sprintf("speedup_suite() on timings against the list, %d runs per version, %d repeats\n",
              n, reps))
  cat("(interleaved; each timing about 0.25 s of CPU or more; the ratio of each repeat:\n")
  cat(" median and range; CPU s per call: medians)\n")
  res <- list()
  for (nb in sizes) {
    suite <- make_suite(nb, n)
    for (proc in c("file", "run", "none")) {
      tm <- suite_timings(suite, proc)
      r <- interleaved(list(timings = quote(speedup_suite(tm)),
                            list = quote(speedup_suite(suite))), reps)
      res[[paste(proc, nb)]] <- r$median
      cat(sprintf("%7g benchmarks, process per %-4s  timings / list %5.2f (%.2f-%.2f)  %.4f s / %.4f s  (%d, %d calls)\n",
                  nb, proc, r$ratio[1], r$ratio_min[1], r$ratio_max[1],
                  r$median[1], r$median[2], r$inner[1], r$inner[2]))
    }
    # identical answers from the two paths (the timings without processes)
    a <- speedup_suite(suite_timings(suite, "none"))
    b <- speedup_suite(suite)
    cat(sprintf("  same benchmarks table as the list: %s\n",
                identical(a$benchmarks[setdiff(names(a$benchmarks), "benchmark")],
                          b$benchmarks[setdiff(names(b$benchmarks), "benchmark")])))
  }
  if (length(sizes) >= 2) {
    for (proc in c("file", "run", "none")) {
      t1 <- res[[paste(proc, sizes[1])]]
      t2 <- res[[paste(proc, sizes[length(sizes)])]]
      cat(sprintf("growth exponent %g -> %g, process per %s: timings %.2f, list %.2f\n",
                  sizes[1], sizes[length(sizes)], proc,
                  log(t2[1] / t1[1]) / log(sizes[length(sizes)] / sizes[1]),
                  log(t2[2] / t1[2]) / log(sizes[length(sizes)] / sizes[1])))
    }
  }
  # against the loop of stats calls of bench/suite.R, at 10,000
  r_mean <- function(x, y, alpha = 0.05) {
    nx <- shapiro.test(x)$p.value > alpha
    ny <- shapiro.test(y)$p.value > alpha
    if ((!nx && length(x) <= 30) || (!ny && length(y) <= 30)) return(NA)
    eq <- var.test(x, y)$p.value > alpha
    t.test(x, y, alternative = "greater", var.equal = eq)$p.value <= alpha
  }
  r_median <- function(x, y, alpha = 0.05) {
    shift <- suppressWarnings(ks.test(x - median(x), y - median(y))$p.value) > alpha
    if (!shift && (length(x) <= 30 || length(y) <= 30)) return(NA)
    wilcox.test(x, y, alternative = "greater")$p.value <= alpha
  }
  r_suite <- function(suite) {
    res <- vapply(suite, function(b) c(r_mean(b$x, b$y), r_median(b$x, b$y)), logical(2))
    cx <- vapply(suite, function(b) c(min(b$x), mean(b$x), median(b$x)), numeric(3))
    cy <- vapply(suite, function(b) c(min(b$y), mean(b$y), median(b$y)), numeric(3))
    gain <- rowSums(cx - cy) / rowSums(cx)
    a <- rowSums(res, na.rm = TRUE)
    list(res = res, gain = gain,
         ci = lapply(a, function(k) prop.test(k, length(suite))$conf.int))
  }
  # at the runs per version of this run and at the 31 of bench/suite.R;
  # each repeat times the loop once, then the suite on timings and on the
  # list (the loop's ratio to each within the repeat)
  loop_reps <- if (length(args) >= 5) as.integer(args[5]) else reps
  for (nl in unique(c(n, 31L))) {
    suite <- make_suite(10000, nl)
    tm <- suite_timings(suite, "file")
    r <- interleaved(list(timings = quote(speedup_suite(tm)),
                          list = quote(speedup_suite(suite)),
                          loop = quote(r_suite(suite))), loop_reps)
    cat(sprintf("10000 x %2d: loop of stats / timings %6.1f (%.1f-%.1f), / list %6.1f (%.1f-%.1f)\n",
                nl, 1 / r$ratio[1], 1 / r$ratio_max[1], 1 / r$ratio_min[1],
                1 / r$ratio[2], 1 / r$ratio_max[2], 1 / r$ratio_min[2]))
    cat(sprintf("            loop %.2f s (%.2f-%.2f), timings %.4f s, list %.4f s, timings / list %.2f\n",
                r$median[3], r$min[3], r$max[3], r$median[1], r$median[2],
                r$median[1] / r$median[2]))
  }
}

if ("paired" %in% parts) {
  set.seed(2)
  k <- 1e6
  x <- rlnorm(k, 1, 0.05)
  y <- x / 1.002 * exp(rnorm(k, 0, 0.01))
  cat(sprintf("paired protocols on %g rounds, %d repeats in turn (CPU s: median, range; ratio of the medians, range of the ratios of each repeat)\n",
              k, reps))
  # each pair timed in turn; the load average before and after
  paired_line <- function(label, exprs) {
    l0 <- load_now()
    r <- in_turn(exprs, reps)
    ratios <- r$times[, 1] / r$times[, 2]
    line(label, r$median[1], r$median[2],
         sprintf("%.3f-%.3f against %.3f-%.3f; ratios %.2f-%.2f; load %s-%s",
                 r$min[1], r$max[1], r$min[2], r$max[2], min(ratios), max(ratios),
                 l0, load_now()))
  }
  paired_line("mean_test(design = \"paired\") / t.test",
              list(mean = quote(mean_test(x, y, design = "paired")),
                   t = quote(t.test(x, y, paired = TRUE, alternative = "greater"))))
  paired_line("median_test(design = \"paired\") / wilcox.test",
              list(median = quote(median_test(x, y, design = "paired")),
                   w = quote(wilcox.test(x, y, paired = TRUE, alternative = "greater"))))
  rnd <- sample(k)
  tm <- as_timings(data.frame(version = rep(c("a", "b"), each = k), time = c(x, y),
                              round = c(rnd, rnd)))
  paired_line("median_test(timings with rounds) / wilcox.test",
              list(median = quote(median_test(tm)),
                   w = quote(wilcox.test(x, y, paired = TRUE, alternative = "greater"))))
  paired_line("mean_test(timings with rounds) / t.test",
              list(mean = quote(mean_test(tm)),
                   t = quote(t.test(x, y, paired = TRUE, alternative = "greater"))))
  paired_line("print(mean_test(timings with rounds)) / t.test",
              list(mean = quote(utils::capture.output(print(mean_test(tm)))),
                   t = quote(t.test(x, y, paired = TRUE, alternative = "greater"))))
  # one benchmark of timings without rounds (2 x 1e6 runs) against the
  # same protocol on the two vectors
  tu <- as_timings(data.frame(version = rep(c("a", "b"), each = k), time = c(x, y)))
  paired_line("mean_test(timings without rounds) / mean_test(x, y)",
              list(timings = quote(mean_test(tu)), vectors = quote(mean_test(x, y))))
  paired_line("median_test(timings without rounds) / median_test(x, y)",
              list(timings = quote(median_test(tu)), vectors = quote(median_test(x, y))))
  # t.test()'s time depends on the state of the process's allocator: while
  # glibc gives freed blocks back to the system, each copy of 1e6 values
  # is fresh memory and costs its page faults (5 to 10 times the CPU on
  # this machine); after the calls above it keeps them.  The mean again,
  # in that state (or run the script with GLIBC_TUNABLES set to
  # glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=268435456
  # for that state throughout)
  paired_line("mean_test(design = \"paired\") / t.test, again",
              list(mean = quote(mean_test(x, y, design = "paired")),
                   t = quote(t.test(x, y, paired = TRUE, alternative = "greater"))))
  paired_line("print(mean_test(design = \"paired\")) / t.test",
              list(mean = quote(utils::capture.output(print(mean_test(x, y, design = "paired")))),
                   t = quote(t.test(x, y, paired = TRUE, alternative = "greater"))))
}

if ("anova" %in% parts) {
  set.seed(3)
  for (kn in list(c(50, 2000), c(200, 200))) {
    p <- rep(seq_len(kn[1]), each = kn[2])
    tt <- exp(rnorm(kn[1], 0, 0.02)[p] + rnorm(length(p), 0, 0.005))
    lab <- sprintf("worker-%d", p)
    r <- in_turn(list(vc = quote(variance_components(tt, p)),
                      aov = quote(stats::anova(stats::lm(log(tt) ~ factor(p))))), reps)
    line(sprintf("variance_components() / ANOVA, %g x %g", kn[1], kn[2]),
         r$median[1], r$median[2], "integer labels")
    r <- in_turn(list(vc = quote(variance_components(tt, lab)),
                      aov = quote(stats::anova(stats::lm(log(tt) ~ factor(lab))))), reps)
    line(sprintf("variance_components() / ANOVA, %g x %g", kn[1], kn[2]),
         r$median[1], r$median[2], "text labels")
  }
}

if ("compare" %in% parts) {
  source(file.path("bench", "gbench-file.R"))
  dir <- tempfile()
  dir.create(dir)
  f <- file.path(dir, c("base.json", "new.json"))
  gbench_file(f[1], 3000, 20, 1, 1)
  gbench_file(f[2], 3000, 20, 1.05, 2)
  rscript <- file.path(R.home("bin"), "Rscript")
  run <- function(code) {
    system2(rscript, c("-e", shQuote(code)), stdout = FALSE, stderr = FALSE)
  }
  cmp <- sprintf("invisible(speeduptest:::cli_compare(c('%s', '%s')))", f[1], f[2])
  rd <- sprintf("invisible(speeduptest::read_timings(c(base = '%s', new = '%s')))", f[1], f[2])
  cat(sprintf("speeduptest compare on two Google Benchmark files of 3000 benchmarks x 20 runs, %d repeats\n",
              reps))
  cmp_out <- function(o) {
    sprintf("invisible(speeduptest:::cli_compare(c('%s', '%s', '--output', '%s')))",
            f[1], f[2], o)
  }
  md <- cmp_out("markdown")
  js <- cmp_out("json")
  r <- in_turn(list(compare = quote(run(cmp)), read = quote(run(rd)),
                    null = quote(run("NULL")), markdown = quote(run(md)),
                    json = quote(run(js))), reps)
  cat(sprintf("compare, whole process:          %7.3f s CPU (%.3f-%.3f)\n", r$median[1],
              r$min[1], r$max[1]))
  cat(sprintf("compare --output markdown:       %7.3f s CPU (%.3f-%.3f)\n", r$median[4],
              r$min[4], r$max[4]))
  cat(sprintf("compare --output json:           %7.3f s CPU (%.3f-%.3f)\n", r$median[5],
              r$min[5], r$max[5]))
  cat(sprintf("reading the two files, process:  %7.3f s CPU\n", r$median[2]))
  cat(sprintf("Rscript -e NULL:                 %7.3f s CPU\n", r$median[3]))
}

# before / after: `speedup_suite()` on timings (one process per version)
# and on the list at 10,000 benchmarks, in child processes alternating
# between this library and the reference library of the environment
# variable REF_LIB (a build of before); each child times 3 calls of each.
if ("ab" %in% parts && nzchar(Sys.getenv("REF_LIB"))) {
  child <- tempfile(fileext = ".R")
  writeLines(c(
    "suppressPackageStartupMessages(library(speeduptest))",
    sprintf("make_suite <- %s", paste(deparse(make_suite), collapse = "\n")),
    sprintf("suite_timings <- %s", paste(deparse(suite_timings), collapse = "\n")),
    sprintf("cpu <- %s", paste(deparse(cpu), collapse = "\n")),
    sprintf("suite <- make_suite(10000, %d); tm <- suite_timings(suite, 'file')", n),
    "invisible(speedup_suite(tm)); invisible(speedup_suite(suite))",
    "a <- b <- numeric(3)",
    "for (i in 1:3) { invisible(gc()); a[i] <- cpu(speedup_suite(tm)); invisible(gc()); b[i] <- cpu(speedup_suite(suite)) }",
    "cat(median(a), median(b), '\n')"), child)
  libs <- c(after = Sys.getenv("R_LIBS"), before = Sys.getenv("REF_LIB"))
  rscript <- file.path(R.home("bin"), "Rscript")
  res <- list(after = NULL, before = NULL)
  for (r in seq_len(reps)) for (k in names(libs)) {
    out <- system2(rscript, child, stdout = TRUE, env = sprintf("R_LIBS=%s", libs[[k]]))
    res[[k]] <- rbind(res[[k]], as.numeric(strsplit(trimws(out[length(out)]), " +")[[1]]))
  }
  cat(sprintf("before / after at 10000 benchmarks x %d runs, %d child processes each (CPU s, median of 3 calls each)\n",
              n, reps))
  for (k in names(libs)) {
    cat(sprintf("  %-6s timings %s   list %s   timings / list %s\n", k,
                paste(sprintf("%.3f", res[[k]][, 1]), collapse = " "),
                paste(sprintf("%.3f", res[[k]][, 2]), collapse = " "),
                paste(sprintf("%.2f", res[[k]][, 1] / res[[k]][, 2]), collapse = " ")))
  }
}

if (file.exists("/proc/loadavg")) {
  cat(sprintf("load average at the end: %s\n",
              paste(utils::head(scan("/proc/loadavg", what = "", quiet = TRUE), 3),
                    collapse = " ")))
}
