# The unit of replication (SPEC section 9): structure columns, per-process
# summaries, variance components, one process per version, the paired
# design by round, and their checks against R and brute force.

# A/A-style timings of P processes x R runs per version (distinct labels).
proc_timings <- function(P, R, between = 0.02, within = 0.005, speedup = 1,
                         benchmark = "b") {
  p <- rep(seq_len(P), each = R)
  lx <- rnorm(P, 0, between)[p] + rnorm(P * R, 0, within)
  ly <- rnorm(P, 0, between)[p] + rnorm(P * R, 0, within) - log(speedup)
  as_timings(data.frame(benchmark = benchmark,
                        version = rep(c("old", "new"), each = P * R),
                        time = exp(c(lx, ly)), process = c(p, P + p)))
}

# Interleaved rounds: round i holds x[i] and y[i].
round_timings <- function(x, y, order = NULL) {
  n <- length(x)
  first_x <- if (is.null(order)) rep(TRUE, n) else order
  ver <- c(rbind(ifelse(first_x, "old", "new"), ifelse(first_x, "new", "old")))
  tm <- c(rbind(ifelse(first_x, x, y), ifelse(first_x, y, x)))
  as_timings(data.frame(version = factor(ver, levels = c("old", "new")), time = tm,
                        run = seq_along(tm), round = rep(seq_len(n), each = 2L)))
}

# Exact P[S2 >= s2] of the signed-rank statistic by enumerating the 2^k
# sign patterns of the non-zero d (mid-ranks of |d|).
brute_signrank_upper <- function(d) {
  d <- d[d != 0]
  r <- rank(abs(d))
  obs <- sum(r[d > 0])
  k <- length(d)
  signs <- as.matrix(expand.grid(rep(list(c(0, 1)), k)))
  s <- signs %*% r
  mean(s >= obs - 1e-9)
}

test_that("variance components agree with aov() and the ANOVA formulas", {
  set.seed(11)
  for (bal in c(TRUE, FALSE)) {
    p <- if (bal) rep(1:8, each = 4) else rep(1:7, times = c(2, 5, 3, 4, 6, 2, 3))
    t <- exp(rnorm(max(p), 0, 0.05)[p] + rnorm(length(p), 0, 0.02))
    vc <- variance_components(t, p)
    a <- summary(stats::aov(log(t) ~ factor(p)))[[1L]]
    msb <- a[["Mean Sq"]][1L]
    msw <- a[["Mean Sq"]][2L]
    N <- length(p)
    ni <- tabulate(p)
    n0 <- (N - sum(ni^2) / N) / (length(ni) - 1)
    expect_equal(vc$ms_within, msw, tolerance = 1e-10)
    expect_equal(vc$ms_between, msb, tolerance = 1e-10)
    expect_equal(vc$n0, n0, tolerance = 1e-12)
    expect_equal(vc$within, msw, tolerance = 1e-10)
    expect_equal(vc$between, max(0, (msb - msw) / n0), tolerance = 1e-10)
    expect_identical(vc$processes, length(ni))
  }
  # no process effect: the between estimate is truncated at 0
  t <- c(1, 2, 1, 2, 1, 2)
  expect_identical(variance_components(t, rep(1:3, each = 2))$between, 0)
  expect_error(variance_components(c(1, 2, 3), c(1, NA, 2)),
               class = "speeduptest_error")
})

test_that("the process is the unit with several processes of several runs", {
  set.seed(12)
  t <- proc_timings(12, 4)
  v <- median_test(t)
  old <- t[t$version == "old", ]
  new <- t[t$version == "new", ]
  mx <- as.vector(tapply(old$time, factor(old$process, unique(old$process)), median))
  my <- as.vector(tapply(new$time, factor(new$process, unique(new$process)), median))
  w <- median_test(mx, my)
  expect_identical(v$n, 12L)
  expect_identical(v$m, 12L)
  expect_equal(v$p_value, w$p_value, tolerance = 1e-12)
  expect_identical(v$replication$unit, "process")
  expect_identical(v$replication$runs, c(48L, 48L))
  m <- mean_test(t, rigorous = FALSE)
  ax <- as.vector(tapply(old$time, factor(old$process, unique(old$process)), mean))
  ay <- as.vector(tapply(new$time, factor(new$process, unique(new$process)), mean))
  expect_equal(m$p_value, mean_test(ax, ay, rigorous = FALSE)$p_value, tolerance = 1e-12)
  # the variance line and the optimal runs per process
  vc <- variance_components(old$time, old$process)
  vn <- variance_components(new$time, new$process)
  expect_equal(v$replication$variance$within, (vc$within + vn$within) / 2, tolerance = 1e-12)
  expect_equal(v$replication$variance$between, (vc$between + vn$between) / 2, tolerance = 1e-12)
  r <- sqrt(v$replication$variance$within / v$replication$variance$between)
  expect_equal(v$replication$optimal$runs, r, tolerance = 1e-12)
  out <- format(v)
  expect_true(any(grepl("processes: 12 of old, 12 of new", out, fixed = TRUE)))
  expect_true(any(grepl("48 of old, 48 of new (4 and 4 per process)", out, fixed = TRUE)))
  expect_true(any(grepl("variance of log times: between processes", out)))
  expect_true(any(grepl("Kalibera-Jones", out)))
  # replication = "run" keeps the old analysis, and says so
  u <- median_test(t, replication = "run")
  expect_identical(u$n, 48L)
  expect_equal(u$p_value, median_test(old$time, new$time)$p_value, tolerance = 1e-12)
  expect_true(any(grepl("treated as independent", format(u))))
  # highest_confidence on the processes
  h <- highest_confidence(t)
  expect_equal(as.numeric(h), as.numeric(highest_confidence(mx, my)), tolerance = 1e-12)
})

test_that("a first-run excess estimates the cost of a process", {
  o <- speeduptest:::optimal_runs(4e-4, 1e-4, excess = c(0.5, 0.6, 0.55, 0.52),
                                  c_r = 1)
  expect_identical(o$cost_from, "first runs")
  expect_equal(o$runs, sqrt(mean(c(0.5, 0.6, 0.55, 0.52)) * 4))
  o <- speeduptest:::optimal_runs(4e-4, 1e-4, excess = c(0.1, -0.1, 0.05, -0.02),
                                  c_r = 1)
  expect_identical(o$cost_from, "run")
  expect_equal(o$runs, 2)
  expect_identical(speeduptest:::optimal_runs(4e-4, 0, NA, 1)$runs, Inf)
})

test_that("one process per version: never guaranteed, cause and cure named", {
  set.seed(13)
  t <- proc_timings(1, 35, speedup = 1.2)
  for (v in list(median_test(t), mean_test(t))) {
    expect_false(v$confidence_guaranteed)
    expect_true(any(grepl("came from one process", v$caveats)))
    expect_true(any(grepl("several processes", v$advice)))
    expect_identical(v$n, 35L)
  }
  expect_true(isTRUE(median_test(t)$significant))
  # two Google Benchmark files: one process per file
  g <- read_timings(timings_fixture(c("gbench-base.json", "gbench-faster.json")))
  expect_identical(sort(unique(g$process)), 1:2)
  v <- median_test(g, benchmark = "BM_sum")
  expect_false(v$confidence_guaranteed)
  expect_true(any(grepl("one process", v$caveats)))
})

test_that("versions sharing a process, or one run per process: runs are the unit", {
  set.seed(14)
  x <- rlnorm(20, 0, 0.05)
  y <- rlnorm(20, 0, 0.05)
  shared <- as_timings(data.frame(version = rep(c("a", "b"), each = 20),
                                  time = c(x, y), process = 1L))
  v <- median_test(shared)
  expect_identical(v$replication$kind, "shared")
  expect_identical(v$replication$unit, "run")
  expect_equal(v$p_value, median_test(x, y)$p_value, tolerance = 1e-12)
  expect_error(median_test(shared, replication = "process"),
               class = "speeduptest_error_argument")
  own <- as_timings(data.frame(version = rep(c("a", "b"), each = 20),
                               time = c(x, y), process = 1:40))
  v <- median_test(own)
  expect_identical(v$replication$kind, "one_per_run")
  expect_true(v$confidence_guaranteed)
  expect_equal(v$p_value, median_test(x, y)$p_value, tolerance = 1e-12)
  expect_error(median_test(as_timings(list(x, y)), replication = "process"),
               class = "speeduptest_error_argument")
  expect_error(median_test(own, replication = "runs"), "must be one of")
})

test_that("the paired signed-rank test agrees with brute force and wilcox.test", {
  set.seed(15)
  # no ties, no zeros: R's exact test
  y <- rlnorm(12, 0, 0.05)
  x <- y * exp(rnorm(12, 0.01, 0.02))
  v <- median_test(x, y, design = "paired")
  d <- log(x) - log(y)
  r <- stats::wilcox.test(d, alternative = "greater", exact = TRUE)
  expect_equal(v$p_value, r$p.value, tolerance = 1e-10)
  expect_equal(v$p_value_slowdown,
               stats::wilcox.test(d, alternative = "less", exact = TRUE)$p.value,
               tolerance = 1e-10)
  expect_equal(v$p_value, brute_signrank_upper(d), tolerance = 1e-12)
  r2 <- stats::wilcox.test(log(x), log(y), paired = TRUE, conf.int = TRUE,
                           exact = TRUE, conf.level = 0.90)
  expect_equal(v$speedup, exp(unname(r2$estimate)), tolerance = 1e-10)
  expect_equal(as.numeric(v$speedup_ci), exp(as.numeric(r2$conf.int)), tolerance = 1e-10)
  expect_identical(v$design$design, "paired")
  expect_identical(v$branch, "paired_signed_rank")
  # ties and zeros: exact conditional distribution, by enumeration
  dd <- c(0, 0, 0.01, 0.01, 0.01, -0.01, 0.02, 0.03, 0.03, -0.02, 0.04, 0.05)
  xx <- exp(dd)
  yy <- rep(1, length(dd))
  v <- median_test(xx, yy, design = "paired")
  expect_equal(v$p_value, brute_signrank_upper(log(xx)), tolerance = 1e-12)
  expect_equal(v$p_value_slowdown, brute_signrank_upper(-log(xx)), tolerance = 1e-12)
  expect_true(v$steps$wilcoxon$exact)
  # the Hodges-Lehmann estimate: the median of the Walsh averages
  dl <- log(xx)
  w <- outer(dl, dl, "+") / 2
  expect_equal(v$speedup, exp(median(w[upper.tri(w, diag = TRUE)])), tolerance = 1e-12)
  # all zeros: nothing to test
  z <- median_test(c(1, 2, 3, 4, 5, 6), c(1, 2, 3, 4, 5, 6), design = "paired")
  expect_identical(z$p_value, 1)
  expect_identical(z$direction, "none")
})

test_that("the paired mean protocol: Shapiro-Wilk on differences, paired t, Fieller", {
  set.seed(16)
  y <- rnorm(40, 10, 0.3)
  x <- y + rnorm(40, 0.05, 0.1)
  v <- mean_test(x, y, design = "paired")
  r <- stats::t.test(x, y, paired = TRUE, alternative = "greater")
  expect_equal(v$p_value, r$p.value, tolerance = 1e-10)
  expect_equal(unname(v$steps$t_test$statistic), unname(r$statistic), tolerance = 1e-10)
  expect_equal(v$steps$shapiro_x$p.value, stats::shapiro.test(x - y)$p.value,
               tolerance = 1e-10)
  expect_equal(v$p_value_slowdown,
               stats::t.test(x, y, paired = TRUE, alternative = "less")$p.value,
               tolerance = 1e-10)
  expect_equal(v$speedup, mean(x) / mean(y))
  # each end of the Fieller interval makes the paired t of x - theta y
  # equal to the two-sided quantile
  q <- stats::qt(0.95, 39)   # the 90 % interval: one-sided 95 % ends
  for (th in as.numeric(v$speedup_ci)) {
    expect_equal(abs(stats::t.test(x - th * y)$statistic[[1L]]), q, tolerance = 1e-8)
  }
  expect_true(v$speedup_ci[1L] < v$speedup && v$speedup < v$speedup_ci[2L])
  expect_true(any(grepl("paired Fieller", format(v))))
  # not shown normal with 30 rounds or fewer: the paper's rule
  xx <- c(rep(1, 9), 5) + 10
  yy <- rep(10, 10) + rnorm(10, 0, 0.01)
  w <- mean_test(xx, yy, design = "paired")
  expect_identical(w$decision, "insufficient data")
  expect_true(any(grepl("more than 30 rounds", w$advice)))
  expect_identical(mean_test(xx, yy, design = "paired", rigorous = FALSE)$branch,
                   "paired_t_not_normal")
  expect_error(mean_test(1:5, 1:6, design = "paired"), "same length")
})

test_that("complete rounds give the paired design; drift cancels", {
  set.seed(17)
  n <- 31
  drift <- cumsum(rnorm(n, 0, 0.01))
  y <- exp(drift + rnorm(n, 0, 0.002))
  x <- y * exp(rnorm(n, 0.005, 0.003))
  t <- round_timings(x, y, order = rnorm(n) > 0)
  v <- median_test(t)
  expect_identical(v$design$design, "paired")
  expect_identical(v$design$rounds, 31L)
  expect_equal(v$p_value, median_test(x, y, design = "paired")$p_value, tolerance = 1e-12)
  out <- format(v)
  expect_true(any(grepl("paired by round, 31 rounds", out, fixed = TRUE)))
  expect_false(any(grepl("interleave the runs", out)))
  expect_false(any(grepl("increase with the run order", out)))
  expect_true(v$confidence_guaranteed)
  expect_identical(v$n, 31L)
  m <- mean_test(t)
  expect_identical(m$design$design, "paired")
  expect_true(any(grepl("paired by round, 31 rounds", format(m), fixed = TRUE)))
  # forced unpaired: the drift is seen, but the advice does not ask to
  # interleave runs that were interleaved
  u <- median_test(t, design = "unpaired")
  expect_identical(u$design$design, "unpaired")
  expect_false(any(grepl("interleave the runs of both", u$advice)))
  # highest confidence in the paired design: 1 - p
  h <- highest_confidence(t)
  expect_equal(as.numeric(h), 1 - v$p_value, tolerance = 1e-12)
  hm <- highest_confidence(t, test = "mean")
  expect_equal(as.numeric(hm), 1 - m$p_value, tolerance = 1e-12)
})

test_that("incomplete rounds are dropped; fewer than 6 complete fall back", {
  set.seed(18)
  x <- rlnorm(10, 0.01, 0.01)
  y <- rlnorm(10, 0, 0.01)
  t <- round_timings(x, y)
  t2 <- as_timings(rbind(as.data.frame(t),
                         data.frame(benchmark = "benchmark", version = "old",
                                    time = 1, run = 21L, round = 11L)))
  v <- median_test(t2)
  expect_identical(v$design$rounds, 10L)
  expect_identical(v$design$dropped, 1L)
  expect_true(any(grepl("1 incomplete round dropped", format(v))))
  expect_equal(v$p_value, median_test(x, y, design = "paired")$p_value, tolerance = 1e-12)
  few <- round_timings(x[1:5], y[1:5])
  w <- median_test(few)
  expect_identical(w$design$design, "unpaired")
  expect_true(any(grepl("fewer than 6", format(w))))
  expect_error(median_test(proc_timings(5, 2), design = "paired"), "round")
})

test_that("importers and measure() fill the structure columns", {
  h <- read_timings(timings_fixture("hyperfine-speedup.json"))
  expect_identical(h$process, seq_len(nrow(h)))
  p <- read_timings(timings_fixture(c("pyperf-base.json", "pyperf-new.json")))
  expect_false(anyNA(p$process))
  pb <- p$process[p$version == "pyperf-base"]
  pn <- p$process[p$version == "pyperf-new"]
  expect_length(intersect(pb, pn), 0L)
  v <- median_test(p, benchmark = "json_dumps")
  expect_identical(v$replication$unit, "process")
  cr <- read_timings(timings_fixture("criterion"))
  k <- tapply(cr$process, paste(cr$benchmark, cr$version), function(u) length(unique(u)))
  expect_true(all(k == 1L))
  expect_false(any(duplicated(tapply(cr$process, paste(cr$benchmark, cr$version), `[`, 1L))))
  # a long CSV with process and round columns
  f <- tempfile(fileext = ".csv")
  writeLines(c("version,time,process,round", "a,1.0,1,1", "b,0.9,2,1", "a,1.1,3,2",
               "b,1.0,4,2"), f)
  t <- read_timings(f)
  expect_identical(t$round, c(1L, 1L, 2L, 2L))
  expect_identical(t$process, 1:4)
  writeLines(c("version,time,round", "a,1.0,1.5", "b,0.9,2"), f)
  expect_error(read_timings(f), "not a whole number", class = "speeduptest_error_data")
  # as_timings() on data frames, with other column names
  d <- data.frame(v = c("a", "b"), s = c(1, 2), pid = c(10, 11), r = c(1, 1))
  t <- as_timings(d, version = "v", time = "s", process = "pid", round = "r")
  expect_identical(t$process, c(10, 11))
  expect_identical(t$round, c(1L, 1L))
  # measure(): R code shares the R session; rounds in interleaved order
  m <- withCallingHandlers(
    measure(a = function() NULL, b = function() 1, .runs = 4, .warmup = 0),
    speeduptest_warning_short_runs = function(w) invokeRestart("muffleWarning"))
  expect_identical(m$process, rep(0L, 8L))
  expect_identical(m$round, rep(1:4, each = 2L))
  expect_true(all(tapply(m$version, m$round, function(u) length(unique(u))) == 2L))
  mb <- withCallingHandlers(
    measure(a = function() NULL, b = function() 1, .runs = 3, .warmup = 0, .order = "blocks"),
    speeduptest_warning_short_runs = function(w) invokeRestart("muffleWarning"))
  expect_true(all(is.na(mb$round)))
})

test_that("print() of timings shows the structure", {
  set.seed(19)
  out <- capture.output(print(proc_timings(20, 3)))
  expect_true(any(grepl("structure: 20 processes per version, 3 runs per process", out,
                        fixed = TRUE)))
  out <- capture.output(print(round_timings(rlnorm(8), rlnorm(8))))
  expect_true(any(grepl("8 complete rounds", out, fixed = TRUE)))
  shared <- as_timings(data.frame(version = c("a", "b"), time = 1:2, process = 1))
  expect_true(any(grepl("versions share a process", capture.output(print(shared)))))
  expect_true(all(nchar(out) <= 80L))
})

test_that("speedup_suite() and compare use the processes and the rounds", {
  set.seed(20)
  t <- as_timings(rbind(as.data.frame(proc_timings(10, 5, benchmark = "a")),
                        as.data.frame(proc_timings(10, 5, speedup = 1.05, benchmark = "b"))))
  s <- speedup_suite(t)
  expect_identical(s$benchmarks$n, c(10L, 10L))
  va <- median_test(t, benchmark = "a")
  vb <- median_test(t, benchmark = "b")
  expect_equal(s$benchmarks$median_p_value, c(va$p_value, vb$p_value), tolerance = 1e-12)
  expect_identical(s$benchmarks$median_decision, c(va$decision, vb$decision))
  expect_equal(s$proportion$a[2L], sum(s$benchmarks$median_significant %in% TRUE))
  s2 <- speedup_suite(t, replication = "run")
  expect_identical(s2$benchmarks$n, c(50L, 50L))
  f <- tempfile(fileext = ".csv")
  utils::write.csv(as.data.frame(t), f, row.names = FALSE)
  out <- capture.output(status <- cli_compare(c(f, "--fail-on", "never", "--tolerance", "0",
                                                "--p-adjust", "none")))
  expect_identical(status, 0L)
  b_line <- grep("^b ", out, value = TRUE)
  expect_true(grepl("significant speedup", b_line) == isTRUE(vb$significant))
  expect_true(grepl("10 and 10 processes", b_line, fixed = TRUE))
  err <- capture.output(st <- cli_compare(c(f, "--replication", "bogus")), type = "message")
  expect_identical(st, 2L)
  expect_true(any(grepl("--replication must be", err, fixed = TRUE)))
  out <- capture.output(cli_compare(c(f, "--replication", "run", "--fail-on", "never")))
  expect_false(any(grepl("[0-9]+ and [0-9]+ processes", out)))
  # interleaved rounds: the line names the design
  x <- rlnorm(12, 0.01, 0.005)
  y <- rlnorm(12, 0, 0.005)
  r <- as.data.frame(round_timings(x, y))
  utils::write.csv(r, f, row.names = FALSE)
  out <- capture.output(cli_compare(c(f, "--fail-on", "never")))
  expect_true(any(grepl("paired by round, 12 rounds", out, fixed = TRUE)))
  out <- capture.output(cli_compare(c(f, "--design", "unpaired", "--fail-on", "never")))
  expect_false(any(grepl("paired by round", out, fixed = TRUE)))
})

test_that("formulas take the paired design too", {
  set.seed(21)
  y <- rlnorm(10, 0, 0.02)
  x <- y * exp(rnorm(10, 0.02, 0.01))
  d <- data.frame(time = c(x, y), v = rep(c("a", "b"), each = 10))
  v <- median_test(time ~ v, data = d, design = "paired")
  expect_equal(v$p_value, median_test(x, y, design = "paired")$p_value)
  expect_identical(v$design$design, "paired")
  expect_equal(as.numeric(highest_confidence(time ~ v, data = d, design = "paired")),
               1 - v$p_value)
})

test_that("speedup_suite() pairs complete rounds, and searches levels on them", {
  set.seed(22)
  x <- rlnorm(12, 0.01, 0.005)
  y <- rlnorm(12, 0, 0.005)
  t <- round_timings(x, y)
  s <- speedup_suite(t)
  v <- median_test(t)
  m <- mean_test(t)
  expect_identical(s$benchmarks$n, 12L)
  expect_equal(s$benchmarks$median_p_value, v$p_value, tolerance = 1e-12)
  expect_equal(s$benchmarks$mean_p_value, m$p_value, tolerance = 1e-12)
  expect_equal(s$benchmarks$median_ci_low, v$speedup_ci[1L], tolerance = 1e-12)
  u <- speedup_suite(t, design = "unpaired")
  expect_equal(u$benchmarks$median_p_value,
               median_test(t, design = "unpaired")$p_value, tolerance = 1e-12)
  h <- speedup_suite(t, conf_level = NA)
  expect_equal(h$benchmarks$median_highest, as.numeric(highest_confidence(t)),
               tolerance = 1e-12)
  expect_error(speedup_suite(proc_timings(4, 2), design = "paired"), "round")
})

test_that("replication = \"process\" on one process per version counts processes", {
  set.seed(23)
  v <- median_test(proc_timings(1, 20), replication = "process")
  expect_identical(v$decision, "insufficient data")
  expect_identical(c(v$n, v$m), c(1L, 1L))
  expect_true(any(grepl("ran in 1 process(es); the protocol needs at least 3 processes",
                        v$caveats, fixed = TRUE)))
})

# ---- the structure from integer codes ------------------------------------------

# round_pairs() as a table of the rounds computes it: the rounds holding
# one unit of each sample, in increasing round.
brute_round_pairs <- function(rx, ry) {
  cx <- table(rx[!is.na(rx)])
  cy <- table(ry[!is.na(ry)])
  both <- sort(as.integer(intersect(names(cx)[cx == 1L], names(cy)[cy == 1L])))
  list(rounds = length(union(names(cx), names(cy))), complete = both,
       ix = match(both, rx), iy = match(both, ry))
}

test_that("the complete rounds from the core match a table of the rounds", {
  set.seed(31)
  rp <- speeduptest:::round_pairs
  for (i in 1:300) {
    k <- sample(c(1:8, 40, 300), 1)
    wide <- i %% 3 == 0           # codes far apart: the sorted path
    codes <- if (wide) sample(c(-2e9, -5L, 0L, 7L, 1e6, 2e9), k, TRUE) else sample(k)
    rx <- as.integer(sample(codes, sample(0:(k + 3), 1), replace = TRUE))
    ry <- as.integer(sample(codes, sample(0:(k + 3), 1), replace = TRUE))
    rx[runif(length(rx)) < 0.1] <- NA
    ry[runif(length(ry)) < 0.1] <- NA
    x <- rlnorm(length(rx))
    y <- rlnorm(length(ry))
    b <- brute_round_pairs(rx, ry)
    if (!b$rounds) {
      expect_error(rp(x, y, rx, ry, "paired"), "no run belongs to a round")
      next
    }
    got <- rp(x, y, rx, ry, "auto")
    if (length(b$complete) < 6L) {
      expect_false(got$paired)
      expect_match(got$note, sprintf("only %d complete round", length(b$complete)))
    } else {
      expect_true(got$paired)
      expect_identical(got$rounds, length(b$complete))
      expect_identical(got$dropped, b$rounds - length(b$complete))
      expect_identical(got$x, x[b$ix])
      expect_identical(got$y, y[b$iy])
    }
  }
  # many pairs of samples in one call, as a suite classifies its benchmarks
  segs <- replicate(50, list(rx = sample(c(1:20, NA), sample(0:25, 1), TRUE),
                             ry = sample(c(1:20, NA), sample(0:25, 1), TRUE)),
                    simplify = FALSE)
  res <- .Call(speeduptest:::ffi_round_pairs,
               as.integer(unlist(lapply(segs, `[[`, "rx"))),
               c(0L, cumsum(vapply(segs, function(s) length(s$rx), 1L))),
               as.integer(unlist(lapply(segs, `[[`, "ry"))),
               c(0L, cumsum(vapply(segs, function(s) length(s$ry), 1L))))
  expect_identical(res$complete, vapply(segs, function(s) {
    length(brute_round_pairs(s$rx, s$ry)$complete)
  }, 1L))
  expect_identical(res$rounds, vapply(segs, function(s) {
    brute_round_pairs(s$rx, s$ry)$rounds
  }, 1L))
  expect_identical(res$shared, vapply(segs, function(s) {
    length(intersect(s$rx[!is.na(s$rx)], s$ry[!is.na(s$ry)]))
  }, 1L))
  expect_identical(res$x_index, unlist(lapply(segs, function(s) {
    brute_round_pairs(s$rx, s$ry)$ix
  })))
  expect_identical(res$y_index, unlist(lapply(segs, function(s) {
    brute_round_pairs(s$rx, s$ry)$iy
  })))
})

test_that("rounds held once on each side (any order) pair as a table of the rounds says", {
  set.seed(33)
  for (i in 1:60) {
    k <- sample(c(64L, 65L, 200L, 1000L), 1)
    lo <- sample(c(1L, -5L, 1e6L), 1)
    rx <- sample(k) + lo - 1L
    ry <- sample(k) + lo - 1L
    # near misses: a round twice, a missing round, one outside the range
    switch(i %% 5 + 1, NULL, rx[3] <- rx[4], ry[7] <- NA, rx[1] <- lo + k, NULL)
    res <- .Call(speeduptest:::ffi_round_pairs, as.integer(rx), c(0L, as.integer(k)),
                 as.integer(ry), c(0L, as.integer(k)))
    b <- brute_round_pairs(rx, ry)
    expect_identical(res$complete, length(b$complete))
    expect_identical(res$rounds, b$rounds)
    expect_identical(res$shared, length(intersect(rx[!is.na(rx)], ry[!is.na(ry)])))
    expect_identical(res$x_index, as.integer(b$ix))
    expect_identical(res$y_index, as.integer(b$iy))
  }
  # two such pairs and a pair with few units in one call
  rx <- c(sample(100), sample(70), 1:3)
  ry <- c(sample(100), sample(70), 3:1)
  res <- .Call(speeduptest:::ffi_round_pairs, as.integer(rx), c(0L, 100L, 170L, 173L),
               as.integer(ry), c(0L, 100L, 170L, 173L))
  expect_identical(res$complete, c(100L, 70L, 3L))
  expect_identical(res$x_index, as.integer(c(match(1:100, rx[1:100]), match(1:70, rx[101:170]),
                                             1:3)))
  expect_identical(res$y_index, as.integer(c(match(1:100, ry[1:100]), match(1:70, ry[101:170]),
                                             3:1)))
})

test_that("per-process summaries from the core are R's mean() and median()", {
  set.seed(32)
  pu <- speeduptest:::process_units
  for (i in 1:100) {
    n <- sample(c(1:10, 50), 1)
    t <- rlnorm(n) * 10^sample(-3:3, 1)
    if (i %% 4 == 0) t <- round(t, 1) + 0.1
    p <- sample(switch(i %% 3 + 1, 1:3, c("a", "b"), c(2.5, 7)), n, TRUE)
    r <- sample(c(1L, 2L, NA), n, TRUE)
    g <- factor(as.character(p), levels = unique(as.character(p)))
    idx <- split(seq_len(n), g)
    for (centre in c("mean", "median")) {
      fun <- if (centre == "mean") mean else stats::median
      u <- pu(t, p, r, centre)
      expect_identical(u$value, vapply(idx, function(i) fun(t[i]), 1, USE.NAMES = FALSE))
      expect_identical(u$runs, lengths(idx, use.names = FALSE))
      expect_identical(u$round, vapply(idx, function(i) {
        v <- unique(r[i])
        if (length(v) == 1L) as.integer(v) else NA_integer_
      }, 1L, USE.NAMES = FALSE))
      expect_identical(u$excess, vapply(idx, function(i) {
        if (length(i) < 2L) NA_real_ else t[i[1L]] - mean(t[i[-1L]])
      }, 1, USE.NAMES = FALSE))
      expect_identical(u$group, as.integer(g))
      expect_null(pu(t, p, NULL, centre)$round)
    }
  }
})

test_that("process labels are grouped as their text, whatever their type", {
  codes <- speeduptest:::label_codes
  by_text <- function(p) as.integer(factor(as.character(p), levels = unique(as.character(p))))
  for (p in list(c(3L, 1L, 3L, NA, 1L), c("b", "a", "b", NA), c(2, 2, 1e14, -0, 0),
                 c(0.1 + 0.2, 0.3, 1), factor(c("z", "y", "z")), c(TRUE, FALSE, TRUE),
                 c(1e15 + 2, 1e15, 1e15 + 2), c(NaN, NA, 1))) {
    expect_identical(codes(p), by_text(p))
  }
})

test_that("a timings table split once gives each benchmark what timings_pair() gives", {
  set.seed(33)
  df <- do.call(rbind, lapply(1:30, function(j) {
    n <- sample(3:8, 1)
    data.frame(benchmark = sprintf("b%02d", j),
               version = sample(c("old", "new", "other"), 2 * n, TRUE, c(4, 4, 1)),
               time = rlnorm(2 * n), process = sample(1:4, 2 * n, TRUE),
               round = sample(c(1:5, NA), 2 * n, TRUE),
               run = sample(2 * n))
  }))
  df$timestamp <- as.POSIXct("2026-01-01", tz = "UTC") + sample(c(1:5, 5), nrow(df), TRUE)
  df$timestamp[df$benchmark == "b03"][1] <- NA
  # the warm-ups a tool marked are left out by both
  df$warmup <- seq_len(nrow(df)) %% 7L == 0L
  for (ts in c(TRUE, FALSE)) {
    t <- as_timings(if (ts) df else df[names(df) != "timestamp"])
    have <- tapply(as.character(t$version), t$benchmark,
                   function(v) all(c("old", "new") %in% v))
    bs <- names(have)[have]
    sp <- speeduptest:::timings_split(t, c("new", "old"), rev(bs))
    for (j in seq_along(sp$benchmarks)) {
      # (timings_pair() also says when its times passed the checks)
      tp <- speeduptest:::timings_pair(t, sp$benchmarks[j], c("new", "old"), NULL, FALSE)
      if (isTRUE(tp$plain)) {
        expect_true(all(is.finite(c(tp$x, tp$y)) & c(tp$x, tp$y) > 0))
      }
      tp$plain <- NULL
      expect_identical(speeduptest:::split_part(sp, j), tp)
    }
  }
})

test_that("a suite's benchmarks are classified at once as one at a time would", {
  set.seed(34)
  df <- do.call(rbind, lapply(1:120, function(j) {
    k <- sample(c(2, 4, 7), 1)
    r <- sample(1:3, 1)
    n <- k * r
    type <- j %% 6
    proc <- switch(type + 1, seq_len(2 * n), rep(1:2, each = n),
                   rep(seq_len(2 * k), each = r), rep(seq_len(k), each = r, times = 2),
                   rep(NA, 2 * n), sprintf("p%d", rep(seq_len(2 * k), each = r)))
    rnd <- if (j %% 4 == 0) rep(rep(seq_len(k), each = r), 2) else
      if (j %% 4 == 1) rep(seq_len(n), 2) else rep(NA, 2 * n)
    time <- rlnorm(2 * n)
    if (j %% 29 == 0) time[2] <- NA
    data.frame(benchmark = sprintf("s%03d", j), version = rep(c("old", "new"), each = n),
               time = time, process = proc, round = rnd)
  }))
  t <- as_timings(df)
  bs <- unique(t$benchmark)
  sp <- speeduptest:::timings_split(t, c("old", "new"), bs)
  # labels on both sides, several of them, some with several runs: the
  # suite hands them to structured_samples(), which reads them per version
  # or as shared (processes_shared())
  shared_multi <- vapply(bs, function(b) {
    e <- df[df$benchmark == b & !is.na(df$time), ]
    px <- as.character(e$process[e$version == "old"])
    py <- as.character(e$process[e$version == "new"])
    !anyNA(c(px, py)) && length(intersect(px, py)) > 0L &&
      max(length(unique(px)), length(unique(py))) > 1L &&
      (anyDuplicated(px) > 0L || anyDuplicated(py) > 0L)
  }, TRUE, USE.NAMES = FALSE)
  for (rep in c("auto", "run", "process")) for (des in c("auto", "unpaired", "paired")) {
    act <- speeduptest:::structure_actions(sp, rep, des)
    one <- vapply(seq_along(bs), function(j) {
      st <- tryCatch(speeduptest:::structured_samples(
        "median", speeduptest:::split_part(sp, j), TRUE, rep, des), error = function(e) NULL)
      if (is.null(st) || st$info$unit == "process" || st$pairing$paired) "full"
      else if (st$info$kind == "single" && rep == "auto") "single"
      else if (shared_multi[j]) "full" else "none"
    }, "")
    expect_identical(act, one, info = paste(rep, des))
  }
})

test_that("two vectors paired by position give the verdict of timings with their rounds", {
  set.seed(31)
  for (k in c(7, 40, 3000)) {
    x <- rlnorm(k, 1, 0.05)
    y <- x / 1.01 * exp(rnorm(k, 0, 0.01))
    rnd <- sample(k)
    t <- as_timings(data.frame(version = rep(c("a", "b"), each = k), time = c(x, y),
                               round = c(rnd, rnd)))
    for (test in c("mean", "median")) {
      f <- get(paste0(test, "_test"))
      v <- f(x, y, design = "paired")
      w <- f(t)
      # the rounds of the timings, in increasing round, are the pairs
      o <- order(rnd)
      expect_identical(v$rounds$x, x)
      expect_identical(v$rounds$d, log(x) - log(y))
      expect_identical(w$rounds$x, x[o])
      for (part in c("p_value", "p_value_slowdown", "speedup", "decision",
                     "confidence_guaranteed")) {
        expect_equal(v[[part]], w[[part]], info = paste(test, k, part), tolerance = 1e-12)
      }
      expect_identical(v$design$rounds, as.integer(k))
    }
  }
})

test_that("process labels repeated in each version are read per version", {
  # a long CSV numbering the processes 1..20 in each version, one version
  # after the other: the process 3 of "old" is not the process 3 of "new"
  set.seed(291)
  p <- rep(1:20, each = 3)
  x <- exp(rnorm(20, 0, 0.02)[p] + rnorm(60, 0, 0.005))
  y <- exp(rnorm(20, 0, 0.02)[p] + rnorm(60, 0, 0.005))
  d <- data.frame(version = rep(c("old", "new"), each = 60), time = c(x, y),
                  process = c(p, p))
  rep_lab <- as_timings(d)
  d2 <- d
  d2$process[61:120] <- d2$process[61:120] + 20L
  own_lab <- as_timings(d2)
  # the reference: the protocols on the per-process summaries, computed here
  for (test in c("median", "mean")) {
    fun <- if (test == "median") stats::median else mean
    v <- (if (test == "median") median_test else mean_test)(rep_lab)
    expect_identical(v$replication$unit, "process")
    expect_identical(v$replication$processes, c(20L, 20L))
    ref <- (if (test == "median") median_test else mean_test)(as.double(tapply(x, p, fun)), as.double(tapply(y, p, fun)))
    expect_equal(v$p_value, ref$p_value, tolerance = 1e-12)
    expect_identical(v$direction, ref$direction)
    w <- (if (test == "median") median_test else mean_test)(own_lab)
    expect_equal(v$p_value, w$p_value, tolerance = 1e-12)
    expect_match(paste(v$notes, collapse = " "), "labels repeat in both versions")
    expect_match(paste(format(v), collapse = " "), "read as its own")
    expect_false(any(grepl("repeat", w$notes)))
  }
  # the suite and the CSV read it the same way, and say it
  f <- withr::local_tempfile(fileext = ".csv")
  utils::write.csv(cbind(benchmark = "b", d), f, row.names = FALSE)
  s <- speedup_suite(read_timings(f))
  expect_equal(s$benchmarks$median_p_value, median_test(rep_lab)$p_value, tolerance = 1e-12)
  expect_match(s$benchmarks$median_caveats, "labels repeat")
  expect_equal(speedup_suite(own_lab)$benchmarks$median_p_value, s$benchmarks$median_p_value,
               tolerance = 1e-12)
  # a round holding both versions of a label, or runs of both interleaved in
  # the recorded order, show a process that ran both: the labels stay shared
  d3 <- d
  d3$round <- c(p, p)
  v <- median_test(as_timings(d3), design = "unpaired")
  expect_identical(v$replication$kind, "shared")
  expect_identical(v$replication$unit, "run")
  d4 <- d[c(rbind(1:60, 61:120)), ]
  d4$timestamp <- as.POSIXct("2026-01-01", tz = "UTC") + seq_len(120)
  v <- median_test(as_timings(d4))
  expect_identical(v$replication$kind, "shared")
  # one label for every run (the R session) stays shared
  v <- median_test(as_timings(transform(d, process = 1L)))
  expect_identical(v$replication$kind, "shared")
})

test_that("A/A with labels repeated per version: claims within alpha", {
  set.seed(292)
  B <- 300
  rows <- lapply(seq_len(B), function(b) {
    p <- rep(1:20, each = 3)
    x <- exp(rnorm(20, 0, 0.02)[p] + rnorm(60, 0, 0.005))
    y <- exp(rnorm(20, 0, 0.02)[p] + rnorm(60, 0, 0.005))
    data.frame(benchmark = sprintf("b%03d", b), version = rep(c("old", "new"), each = 60),
               time = c(x, y), process = c(p, p))
  })
  s <- speedup_suite(as_timings(do.call(rbind, rows)))
  for (pr in c("mean", "median")) {
    d <- s$benchmarks[[paste0(pr, "_direction")]]
    # the pooled runs claimed 16-18 % each way; with the process as the
    # unit each claim is at most alpha (binomial upper limit at B = 300)
    expect_lt(mean(d %in% "speedup"), stats::qbinom(0.999, B, 0.05) / B)
    expect_lt(mean(d %in% "slowdown"), stats::qbinom(0.999, B, 0.05) / B)
  }
})

test_that("processes of unequal runs are summarised by the median of their first runs", {
  set.seed(293)
  px <- rep(1:20, each = 3)
  py <- rep(21:40, each = 30)
  x <- exp(rnorm(20, 0, 0.01)[px] + rexp(60, 50))
  y <- exp(rnorm(20, 0, 0.01)[py - 20L] + rexp(600, 50))
  t <- as_timings(data.frame(version = rep(c("old", "new"), c(60, 600)), time = c(x, y),
                             process = c(px, py)))
  v <- median_test(t)
  first3 <- function(tm, p) as.double(tapply(tm, p, function(z) stats::median(z[1:3])))
  ref <- median_test(first3(x, px), first3(y, py))
  expect_equal(v$p_value, ref$p_value, tolerance = 1e-12)
  expect_identical(v$replication$take, 3L)
  expect_match(paste(v$notes, collapse = " "), "median of its first 3 runs")
  # the mean protocol: the mean of the first 3 runs (the same law for
  # every process, so that neither tail of the t-test is tilted)
  w <- mean_test(t)
  first3m <- function(tm, p) as.double(tapply(tm, p, function(z) mean(z[1:3])))
  expect_equal(w$p_value, mean_test(first3m(x, px), first3m(y, py))$p_value,
               tolerance = 1e-12)
  expect_identical(w$replication$take, 3L)
  # equal runs per process: the median of all of them, as before
  u <- as_timings(data.frame(version = rep(c("old", "new"), each = 60), time = c(x, y[1:60]),
                             process = c(px, rep(21:40, each = 3))))
  expect_null(median_test(u)$replication$take)
  expect_equal(median_test(u)$p_value,
               median_test(as.double(tapply(x, px, stats::median)),
                           as.double(tapply(y[1:60], rep(21:40, each = 3), stats::median)))$p_value,
               tolerance = 1e-12)
  # the core's first runs: R's median of the first `take` runs
  pu <- speeduptest:::process_units
  for (k in 1:5) {
    expect_identical(pu(y, py, NULL, "median", k)$value,
                     as.double(tapply(y, py, function(z) stats::median(z[seq_len(k)]))))
  }
})

test_that("A/A with 3 runs a process against 30 and skewed noise: claims within alpha", {
  set.seed(294)
  B <- 300
  rows <- lapply(seq_len(B), function(b) {
    px <- rep(1:20, each = 3)
    py <- rep(1:20, each = 30)
    x <- exp(rnorm(20, 0, 0.01)[px] + rexp(60, 50))
    y <- exp(rnorm(20, 0, 0.01)[py] + rexp(600, 50))
    data.frame(benchmark = sprintf("b%03d", b), version = rep(c("old", "new"), c(60, 600)),
               time = c(x, y), process = c(px, py + 20L))
  })
  d <- do.call(rbind, rows)
  s <- speedup_suite(as_timings(d))
  lim <- stats::qbinom(0.999, B, 0.05) / B
  for (pr in c("mean", "median")) {
    dd <- s$benchmarks[[paste0(pr, "_direction")]]
    expect_lt(mean(dd %in% "speedup"), lim)
    expect_lt(mean(dd %in% "slowdown"), lim)
  }
  # the medians of all runs claimed speedups far more often
  before <- speedup_suite(lapply(split(d, d$benchmark), function(e) {
    f <- function(v) as.double(tapply(e$time[e$version == v], e$process[e$version == v],
                                      stats::median))
    list(x = f("old"), y = f("new"))
  }))
  expect_gt(mean(before$benchmarks$median_direction %in% "speedup"), lim)
})

test_that("the actions without rounds follow the rules one benchmark at a time", {
  # st_structure_actions() against the rules written out per benchmark
  # (the kind by precedence, the unit, then the action)
  set.seed(41)
  nb <- 400
  nx <- sample(0:6, nb, replace = TRUE)
  ny <- sample(0:6, nb, replace = TRUE)
  kx <- pmin(nx, sample(0:6, nb, replace = TRUE))
  ky <- pmin(ny, sample(0:6, nb, replace = TRUE))
  pc <- list(has_na = runif(nb) < 0.1, kx = kx, ky = ky, shared = runif(nb) < 0.3)
  bad <- runif(nb) < 0.05
  rule <- function(j, rep, labels, bad) {
    kind <- if (!labels || pc$has_na[j] || nx[j] == 0L || ny[j] == 0L) "unknown"
      else if (pc$shared[j]) "shared"
      else if (kx[j] == nx[j] && ky[j] == ny[j]) "one_per_run"
      else if (kx[j] == 1L || ky[j] == 1L) "single"
      else "processes"
    unit <- if (rep == "run") "run" else if (rep == "process" || kind == "processes") "process" else "run"
    refused <- bad[j] || (rep == "process" && kind %in% c("unknown", "shared"))
    if (unit == "process" || refused) return("full")
    if (labels && kind == "shared" && (kx[j] > 1L || ky[j] > 1L) &&
        (kx[j] < nx[j] || ky[j] < ny[j])) return("full")
    if (kind == "single" && rep == "auto") "single" else "none"
  }
  for (rep in c("auto", "process", "run")) for (labels in c(TRUE, FALSE)) {
    code <- .Call(speeduptest:::ffi_structure_actions, nx, ny, if (labels) pc, bad,
                  match(rep, c("auto", "process", "run")) - 1L)
    expect_identical(c("none", "single", "full")[code],
                     vapply(seq_len(nb), rule, "", rep = rep, labels = labels, bad = bad),
                     info = paste(rep, labels))
  }
  # through structure_actions() with the counts of the grouping (clean
  # timings: no benchmark is bad)
  sp <- list(benchmarks = sprintf("b%d", seq_len(nb)), x_len = nx, y_len = ny,
             clean = TRUE, process_counts = pc)
  for (rep in c("auto", "process", "run")) {
    expect_identical(speeduptest:::structure_actions(sp, rep, "auto"),
                     vapply(seq_len(nb), rule, "", rep = rep, labels = TRUE,
                            bad = logical(nb)))
  }
})
