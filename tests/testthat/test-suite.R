# speedup_suite(): per-benchmark verdicts, overall gains, proportions.

# ---- an independent reference written with R's stats functions ---------------

# The flowcharts of SPEC sections 2 and 3 written directly with stats.
# The random suites below have even sample sizes and continuous times, so
# that x - median(x) and y - median(y) have no ties: R 4.2's ks.test has no
# exact p-value with ties, while the package's Smirnov test does.
ref_mean <- function(x, y, alpha, rigorous = TRUE) {
  n <- length(x); m <- length(y)
  if (n < 3 || m < 3) return("insufficient data")
  normal <- function(v) length(unique(v)) > 1 && length(v) <= 5000 &&
    shapiro.test(v)$p.value > alpha
  nx <- normal(x); ny <- normal(y)
  if (rigorous && ((!nx && n <= 30) || (!ny && m <= 30))) return("insufficient data")
  eq <- var.test(x, y)$p.value > alpha
  p <- t.test(x, y, alternative = "greater", var.equal = eq)$p.value
  structure(if (p <= alpha) "significant" else "not significant", p = p)
}

ref_median <- function(x, y, alpha, rigorous = TRUE) {
  n <- length(x); m <- length(y)
  if (n < 3 || m < 3) return("insufficient data")
  shift <- ks.test(x - median(x), y - median(y))$p.value > alpha
  if (rigorous && !shift && (n <= 30 || m <= 30)) return("insufficient data")
  p <- wilcox.test(x, y, alternative = "greater")$p.value
  structure(if (p <= alpha) "significant" else "not significant", p = p)
}

# The original tool's search: the first risk 0.01, ..., 0.50 that declares.
ref_search <- function(fun, x, y) {
  for (k in 1:50) {
    d <- fun(x, y, k / 100)
    if (d == "significant") return(list(level = 1 - k / 100, decision = d))
  }
  list(level = 0.5, decision = fun(x, y, 0.5))
}

ref_overall <- function(cx, cy, w) {
  g <- sum(w * (cx - cy)) / sum(w * cx)
  c(gain = g, speedup = 1 / (1 - g))
}

random_suite <- function(nb) {
  lapply(seq_len(nb), function(j) {
    n <- sample(c(6, 10, 20, 32, 40, 44), 1)
    m <- sample(c(6, 10, 20, 32, 40, 44), 1)
    base <- runif(1, 1, 20)
    s <- sample(c(1, 1.01, 1.05, 1.3), 1)
    sdl <- runif(1, 0.01, 0.08)
    shape <- sample(c("lnorm", "norm", "exp"), 1)
    gen <- function(k, mu) switch(shape,
      lnorm = rlnorm(k, log(mu), sdl),
      norm = rnorm(k, mu, mu * sdl),
      exp = mu * (1 + rexp(k, 1 / sdl)))
    list(x = gen(n, base), y = gen(m, base / s), weight = runif(1, 0.5, 3))
  })
}

test_that("per-benchmark verdicts and levels match the stats flowcharts", {
  set.seed(11)
  suite <- random_suite(40)
  names(suite) <- sprintf("b%02d", seq_along(suite))
  levels <- sample(c(0.9, 0.95, 0.99, NA), length(suite), replace = TRUE)
  for (j in seq_along(suite)) suite[[j]]$conf_level <- levels[j]
  res <- speedup_suite(suite)
  bm <- as.data.frame(res)
  expect_equal(nrow(bm), 40)
  expect_identical(bm$benchmark, names(suite))
  for (j in seq_along(suite)) {
    x <- suite[[j]]$x; y <- suite[[j]]$y
    if (is.na(levels[j])) {
      rm <- ref_search(ref_mean, x, y)
      rd <- ref_search(ref_median, x, y)
      expect_true(bm$searched[j])
    } else {
      a <- 1 - levels[j]
      rm <- list(level = levels[j], decision = ref_mean(x, y, a))
      rd <- list(level = levels[j], decision = ref_median(x, y, a))
      expect_false(bm$searched[j])
    }
    # the p-value of the final test, when the flowchart reached it
    pm <- attr(rm$decision, "p")
    pd <- attr(rd$decision, "p")
    if (!is.null(pm)) expect_equal(bm$mean_p_value[j], pm, tolerance = 1e-10)
    if (!is.null(pd)) expect_equal(bm$median_p_value[j], pd, tolerance = 1e-10)
    expect_identical(outcome(bm$mean_significant[j]), as.vector(rm$decision), info = names(suite)[j])
    expect_identical(outcome(bm$median_significant[j]), as.vector(rd$decision), info = names(suite)[j])
    expect_equal(bm$mean_conf_level[j], rm$level, info = names(suite)[j])
    expect_equal(bm$median_conf_level[j], rd$level, info = names(suite)[j])
    expect_equal(bm$speedup_min[j], min(x) / min(y), tolerance = 1e-12)
    expect_equal(bm$speedup_mean[j], mean(x) / mean(y), tolerance = 1e-12)
    expect_equal(bm$speedup_median[j], median(x) / median(y), tolerance = 1e-12)
  }
  # the suite exercises every outcome
  expect_true(all(c("significant", "not significant") %in% outcome(bm$mean_significant)))
  expect_true(all(c("significant", "not significant", "insufficient data") %in%
                    outcome(bm$median_significant)))
  expect_true(any(bm$searched & bm$mean_conf_level < 0.99 &
                    outcome(bm$mean_significant) == "significant"))
})

test_that("the suite agrees with the package's own protocols", {
  set.seed(12)
  suite <- random_suite(15)
  names(suite) <- paste0("b", seq_along(suite))
  res <- speedup_suite(suite, conf_level = 0.9, rigorous = FALSE)
  bm <- res$benchmarks
  for (j in seq_along(suite)) {
    vm <- mean_test(suite[[j]]$x, suite[[j]]$y, alpha = 0.1, rigorous = FALSE)
    vd <- median_test(suite[[j]]$x, suite[[j]]$y, alpha = 0.1, rigorous = FALSE)
    expect_identical(bm$mean_decision[j], vm$decision)
    expect_identical(bm$median_decision[j], vd$decision)
    expect_equal(bm$mean_p_value[j], vm$p_value, tolerance = 1e-12)
    expect_equal(bm$median_p_value[j], vd$p_value, tolerance = 1e-12)
    expect_identical(bm$mean_guaranteed[j], vm$confidence_guaranteed)
  }
})

test_that("overall gains and proportions match the formulas on random suites", {
  set.seed(13)
  suite <- random_suite(30)
  names(suite) <- paste0("b", seq_along(suite))
  cx <- sapply(suite, function(b) c(min(b$x), mean(b$x), median(b$x)))
  cy <- sapply(suite, function(b) c(min(b$y), mean(b$y), median(b$y)))
  w <- sapply(suite, `[[`, "weight")
  for (mode in c("custom", "equal", "fraction")) {
    res <- speedup_suite(suite, weights = mode, prop_conf_level = 0.9,
                         precision = 0.1)
    expect_identical(res$weights, mode)
    bm <- res$benchmarks
    for (c in 1:3) {
      wc <- switch(mode, custom = w, equal = rep(1, 30), fraction = cx[c, ])
      expect_equal(unname(ref_overall(cx[c, ], cy[c, ], wc)),
                   c(res$overall$gain[c], res$overall$speedup[c]),
                   tolerance = 1e-12)
      expect_equal(bm[[c("weight_min", "weight_mean", "weight_median")[c]]],
                   unname(wc / sum(wc)), tolerance = 1e-12)
      sig <- switch(c,
        outcome(bm$mean_significant) == "significant" & outcome(bm$median_significant) == "significant",
        outcome(bm$mean_significant) == "significant",
        outcome(bm$median_significant) == "significant")
      expect_equal(unname(ref_overall(cx[c, sig], cy[c, sig], wc[sig])),
                   c(res$overall$gain_significant[c],
                     res$overall$speedup_significant[c]), tolerance = 1e-12)
      expect_equal(res$overall$n_significant[c], sum(sig))
    }
    for (p in c("mean", "median")) {
      a <- sum(outcome(bm[[paste0(p, "_significant")]]) == "significant")
      pr <- res$proportion[res$proportion$protocol == p, ]
      ref <- prop.test(a, 30, conf.level = 0.9)
      expect_equal(pr$a, a)
      expect_equal(pr$b, 30)
      expect_equal(c(pr$conf_low, pr$conf_high), as.vector(ref$conf.int),
                   tolerance = 1e-10)
      expect_identical(pr$valid, a * (1 - a / 30) > 5)
      C <- a / 30
      expect_equal(pr$min_benchmarks, ceiling(qnorm(0.95)^2 * C * (1 - C) / 0.1^2))
    }
  }
})

test_that("a long data frame gives the same suite as a list of pairs", {
  set.seed(14)
  suite <- random_suite(6)
  names(suite) <- paste0("b", 1:6)
  df <- do.call(rbind, lapply(names(suite), function(nm) {
    b <- suite[[nm]]
    data.frame(benchmark = nm, version = rep(c("O1", "O3"), c(length(b$x), length(b$y))),
               time = c(b$x, b$y), weight = b$weight)
  }))
  df <- df[sample(nrow(df)), ]   # row order must not matter
  r1 <- speedup_suite(suite)
  # a character version: the first to appear is the initial code
  expect_identical(speedup_suite(df)$versions, unique(df$version))
  r2 <- speedup_suite(df, initial = "O1")
  expect_identical(r2$versions, c("O1", "O3"))
  expect_identical(r2$weights, "custom")
  expect_setequal(r2$benchmarks$benchmark, r1$benchmarks$benchmark)
  o <- match(r1$benchmarks$benchmark, r2$benchmarks$benchmark)
  cols <- c("speedup_min", "speedup_mean", "speedup_median", "mean_decision",
            "median_decision", "mean_p_value", "median_p_value", "weight_mean")
  expect_equal(r2$benchmarks[o, cols], r1$benchmarks[, cols], ignore_attr = TRUE)
  expect_equal(r2$overall, r1$overall)
  # a factor version: its first level is the initial code; or say which
  r4 <- speedup_suite(df, initial = "O3")
  df$version <- factor(df$version, levels = c("O3", "O1"))
  r3 <- speedup_suite(df)
  expect_equal(r3$benchmarks$speedup_mean[match(r1$benchmarks$benchmark, r3$benchmarks$benchmark)],
               1 / r1$benchmarks$speedup_mean)
  expect_equal(r4$benchmarks$speedup_mean, r3$benchmarks$speedup_mean)
  expect_error(speedup_suite(df, initial = "O2"), class = "speeduptest_error_input")
})

# ---- the paper's printed figures --------------------------------------------

# A suite with a accelerated benchmarks out of b: clear speedups and clear
# slowdowns, 32 runs each (the paper ran every binary 31 times).
counted_suite <- function(a, b) {
  set.seed(a * 100 + b)
  out <- lapply(seq_len(b), function(j) {
    x <- rnorm(32, 10, 0.1)
    y <- if (j <= a) rnorm(32, 5, 0.05) else rnorm(32, 15, 0.15)
    list(x = x, y = y)
  })
  names(out) <- paste0("bench", seq_len(b))
  out
}

report_of <- function(a, b, conf, precision = 0.05) {
  res <- speedup_suite(counted_suite(a, b), prop_conf_level = conf,
                       precision = precision)
  expect_equal(res$proportion$a, c(a, a))
  # the lines of the .report file, as the original tool wrote them
  suite_report_file_lines(res, "suite.csv")
}

test_that("the paper's proportions, intervals and minimal b are reproduced", {
  # Section 6.2: 31/45 at 95 %, [0.532; 0.814], minimal b = 330 for r = 0.05.
  rep <- report_of(31, 45, 0.95)
  expect_true("a/b = 31/45 = 0.689" %in% rep)
  expect_true("Proportion confidence interval (speedup of the mean) = [0.532; 0.814]" %in% rep)
  expect_true("The minimal needed number of randomly selected benchmarks is 330" %in% rep)
  expect_true("The confidence level for computing proportion confidence interval is 0.95." %in% rep)
  expect_false(any(grepl("validity condition", rep)))
  # Section 6.3: 41/54 at 95 %, [0.621; 0.861], minimal b = 281.
  rep <- report_of(41, 54, 0.95)
  expect_true("a/b = 41/54 = 0.759" %in% rep)
  expect_true("Proportion confidence interval (speedup of the median) = [0.621; 0.861]" %in% rep)
  expect_true("The minimal needed number of randomly selected benchmarks is 281" %in% rep)
  # Section 6.1: 34/34 at 90 %, [0.901; 1], and the validity warning.
  rep <- report_of(34, 34, 0.9)
  expect_true("a/b = 34/34 = 1" %in% rep)
  expect_true("Proportion confidence interval (speedup of the mean) = [0.901; 1]" %in% rep)
  expect_true("the validity condition {a(1-a/b) > 5} is not satisfied." %in% rep)
  # Section 4, examples 1-2: 17/30 at 90 % is [0.4027157; 0.7184049]
  # (prop.test's printout in the paper); at 95 % and r = 0.05, 378 benchmarks.
  res <- speedup_suite(counted_suite(17, 30), prop_conf_level = 0.9)
  expect_equal(res$proportion$conf_low[1], 0.4027157, tolerance = 1e-6)
  expect_equal(res$proportion$conf_high[1], 0.7184049, tolerance = 1e-6)
  expect_true(all(res$proportion$valid))   # 17 - 17^2/30 = 7.37 > 5
  res <- speedup_suite(counted_suite(17, 30))
  expect_equal(res$proportion$min_benchmarks, c(378, 378))
})

test_that("the report text is stable", {
  expect_snapshot(cat(report_of(31, 45, 0.95), sep = "\n"))
  expect_snapshot(cat(report_of(34, 34, 0.9), sep = "\n"))
})

# ---- levels, weights and bad input in the R API ------------------------------

test_that("conf_level: global, per benchmark, NA searches", {
  set.seed(15)
  suite <- counted_suite(3, 4)
  r <- speedup_suite(suite)
  expect_equal(r$benchmarks$mean_conf_level, rep(0.95, 4))
  r <- speedup_suite(suite, conf_level = 0.9)
  expect_equal(r$benchmarks$median_conf_level, rep(0.9, 4))
  r <- speedup_suite(suite, conf_level = NA)
  expect_true(all(r$benchmarks$searched))
  # clear speedups: the highest level on the grid is 0.99
  expect_equal(r$benchmarks$mean_conf_level, c(0.99, 0.99, 0.99, 0.5))
  expect_identical(outcome(r$benchmarks$mean_significant[4]), "not significant")
  suite[[1]]$conf_level <- 0.8
  suite[[2]]$conf_level <- NA
  r <- speedup_suite(suite)
  # levels given for some benchmarks: the missing ones are searched
  expect_equal(r$benchmarks$mean_conf_level, c(0.8, 0.99, 0.99, 0.5))
  expect_identical(r$benchmarks$searched, c(FALSE, TRUE, TRUE, TRUE))
  expect_error(speedup_suite(suite, conf_level = 2), class = "speeduptest_error_input")
  # a conf_level column of a data frame, NA searching
  df <- do.call(rbind, lapply(1:4, function(j) data.frame(
    benchmark = names(suite)[j], version = rep(c("a", "b"), each = 32),
    time = c(suite[[j]]$x, suite[[j]]$y), conf_level = c(0.8, NA, 0.9, 0.9)[j])))
  r <- speedup_suite(df)
  expect_equal(r$benchmarks$median_conf_level, c(0.8, 0.99, 0.9, 0.9))
  # a level that varies within a benchmark, or an invalid one, skips that
  # benchmark only
  df$conf_level[1] <- 0.7
  expect_warning(r <- speedup_suite(df), "varies over its runs",
                 class = "speeduptest_warning_skipped")
  expect_identical(r$benchmarks$benchmark, names(suite)[2:4])
  suite[[3]]$conf_level <- 1.5
  expect_warning(r <- speedup_suite(suite), "confidence level must be NA",
                 class = "speeduptest_warning_skipped")
  expect_identical(r$benchmarks$benchmark, names(suite)[-3])
})

test_that("illegal custom weights fall back to equal weights with a warning", {
  suite <- counted_suite(3, 4)
  for (j in 1:4) suite[[j]]$weight <- j
  r <- speedup_suite(suite)
  expect_identical(r$weights, "custom")
  expect_equal(r$benchmarks$weight_mean, (1:4) / 10)
  suite[[2]]$weight <- -1
  expect_warning(r <- speedup_suite(suite), class = "speeduptest_warning_weights")
  expect_identical(r$weights, "equal")
  expect_identical(r$weights_requested, "custom")
  expect_equal(r$benchmarks$weight_mean, rep(0.25, 4))
  expect_match(r$problems$message, "bench2", all = FALSE)
  for (j in 1:4) suite[[j]]$weight <- 0
  expect_warning(r <- speedup_suite(suite), "all custom weights are zero",
                 class = "speeduptest_warning_weights")
  suite <- counted_suite(3, 4)
  expect_warning(r <- speedup_suite(suite, weights = "custom"),
                 class = "speeduptest_warning_weights")
  expect_identical(r$weights, "equal")
  expect_error(speedup_suite(suite, weights = "median"), class = "speeduptest_error_input")
})

test_that("bad benchmarks are skipped with classed warnings, never silently", {
  set.seed(16)
  suite <- counted_suite(2, 3)
  suite$na <- list(x = c(1, NA, 2, 3), y = c(1, 2, 3))
  suite$neg <- list(x = c(1, 2, 3), y = c(1, -2, 3))
  suite$empty <- list(x = numeric(), y = c(1, 2, 3))
  suite$text <- list(x = c("a", "b"), y = c(1, 2, 3))
  suite$notlist <- 3
  suite$two <- list(x = c(1.1, 1.2), y = c(1, 0.9, 1.05, 1))
  ws <- list()
  res <- withCallingHandlers(speedup_suite(suite), warning = function(w) {
    ws[[length(ws) + 1L]] <<- w
    invokeRestart("muffleWarning")
  })
  cls <- vapply(ws, function(w) class(w)[1], "")
  expect_equal(sum(cls == "speeduptest_warning_skipped"), 5)
  expect_equal(sum(cls == "speeduptest_warning_few_runs"), 1)
  expect_true(all(vapply(ws, inherits, NA, "speeduptest_warning")))
  expect_identical(res$benchmarks$benchmark, c("bench1", "bench2", "bench3", "two"))
  pr <- res$problems
  expect_setequal(pr$benchmark[pr$severity == "error"],
                  c("na", "neg", "empty", "text", "notlist"))
  expect_match(pr$message[pr$benchmark == "na"], "missing run time")
  expect_match(pr$message[pr$benchmark == "neg"], "<= 0")
  expect_match(pr$message[pr$benchmark == "empty"], "no run times")
  expect_match(pr$message[pr$benchmark == "text"], "not numbers")
  expect_identical(outcome(res$benchmarks$mean_significant[4]), "insufficient data")
  expect_true(is.na(res$benchmarks$mean_significant[4]))
  expect_match(res$notes$message[res$notes$benchmark == "two"], "fewer than 3 runs")
  # na_rm keeps the benchmark with a missing time
  res <- suppressWarnings(speedup_suite(suite[c("bench1", "na")], na_rm = TRUE))
  expect_identical(res$benchmarks$benchmark, c("bench1", "na"))
  # a data frame: a missing or non-positive time skips its benchmark
  df <- data.frame(benchmark = rep(c("a", "b"), each = 8),
                   version = rep(rep(c("v1", "v2"), each = 4), 2),
                   time = c(5:8, 1:4, 5:8, 1:3, NA))
  expect_warning(res <- speedup_suite(df), "benchmark \"b\" skipped",
                 class = "speeduptest_warning_skipped")
  expect_identical(res$benchmarks$benchmark, "a")
  expect_error(speedup_suite(transform(df, version = "v1")),
               class = "speeduptest_error_input")
})

test_that("bad arguments are classed errors", {
  suite <- counted_suite(1, 2)
  expect_error(speedup_suite(1:3), class = "speeduptest_error_input")
  expect_error(speedup_suite(suite, prop_method = "exact"), class = "speeduptest_error_input")
  expect_error(speedup_suite(suite, precision = 0), class = "speeduptest_error_input")
  expect_error(speedup_suite(suite, rigorous = NA), class = "speeduptest_error_input")
  expect_error(speedup_suite(data.frame(a = 1)), class = "speeduptest_error_input")
  names(suite) <- c("a", "a")
  expect_error(speedup_suite(suite), class = "speeduptest_error_input")
})

test_that("significant_only reports the gains over the significant benchmarks", {
  suite <- counted_suite(3, 5)
  res <- speedup_suite(suite, significant_only = TRUE)
  rep <- suite_report_file_lines(res, "suite.csv")
  g <- res$overall$gain_significant[2]
  expect_true(sprintf("Overall gain (ExecutionTime=mean) over the significant benchmarks only = %s",
                      round(g, 3)) %in% rep)
  cx <- sapply(suite[1:3], function(b) mean(b$x))
  cy <- sapply(suite[1:3], function(b) mean(b$y))
  expect_equal(g, sum(cx - cy) / sum(cx))
  expect_true(res$overall$gain[2] < g)
})

test_that("an empty suite gives NA figures, not an error", {
  res <- suppressWarnings(speedup_suite(list(a = list(x = numeric(), y = 1))))
  expect_equal(nrow(res$benchmarks), 0)
  expect_true(all(is.na(res$overall$gain)))
  expect_equal(res$proportion$b, c(0, 0))
  expect_output(print(res), "0 benchmark")
})

# ---- methods -------------------------------------------------------------------

test_that("print, summary, format, as.data.frame and plot work", {
  set.seed(17)
  suite <- counted_suite(3, 5)
  suite$short <- list(x = rnorm(10, 3, 0.3), y = rnorm(10, 2.9, 0.3))
  res <- speedup_suite(suite)
  expect_s3_class(res, "speedup_suite")
  expect_output(print(res), "Speedup-Test of a suite")
  expect_output(print(res), "mean +3/6")
  s <- summary(res)
  expect_s3_class(s, "summary.speedup_suite")
  expect_output(print(s), "Per benchmark")
  expect_output(print(s), "short")
  df <- as.data.frame(res)
  expect_s3_class(df, "data.frame")
  expect_equal(nrow(df), 6)
  expect_true(all(c("benchmark", "speedup_mean", "mean_decision", "median_ci_low",
                    "weight_median") %in% names(df)))
  expect_type(format(res), "character")
  # the plot: per benchmark the speedup and its interval
  pdf(NULL)
  on.exit(dev.off(), add = TRUE)
  expect_invisible(plot(res))
  expect_invisible(plot(res, which = "mean"))
  sig <- df$median_decision == "significant"
  expect_true(all(df$median_ci_low[sig] <= df$speedup_median[sig] &
                    df$speedup_median[sig] <= df$median_ci_high[sig]))
  expect_true(all(df$median_ci_low[sig] > 1))
})

# ---- direction, multiplicity ---------------------------------------------------

test_that("p_adjust adjusts the final p-values as p.adjust() and re-decides", {
  set.seed(41)
  suite <- lapply(1:40, function(i) {
    s <- if (i <= 8) 1.15 else if (i <= 12) 1 / 1.15 else 1
    list(x = rlnorm(35, log(10), 0.1), y = rlnorm(35, log(10 / s), 0.1))
  })
  names(suite) <- paste0("b", 1:40)
  s0 <- speedup_suite(suite)
  for (adj in c("holm", "BH")) {
    s <- speedup_suite(suite, p_adjust = adj)
    bm <- s$benchmarks
    for (p in c("mean", "median")) {
      pv <- bm[[paste0(p, "_p_value")]]
      expect_equal(pv, s0$benchmarks[[paste0(p, "_p_value")]])
      expect_equal(bm[[paste0(p, "_p_adjusted")]], stats::p.adjust(pv, adj))
      tested <- outcome(bm[[paste0(p, "_significant")]]) != "insufficient data"
      expect_identical(bm[[paste0(p, "_significant")]][tested],
                       stats::p.adjust(pv, adj)[tested] <= 0.05)
      slow <- stats::p.adjust(bm[[paste0(p, "_p_value_slowdown")]], adj) <= 0.05
      expect_identical(bm[[paste0(p, "_direction")]][tested],
                       ifelse(bm[[paste0(p, "_significant")]], "speedup",
                              ifelse(slow, "slowdown", "none"))[tested])
    }
    pr <- s$proportion
    expect_equal(pr$a, c(sum(bm$mean_significant, na.rm = TRUE),
                         sum(bm$median_significant, na.rm = TRUE)))
    ci <- proportion_ci(pr$a[2], pr$b[2])
    expect_equal(c(pr$conf_low[2], pr$conf_high[2]), as.vector(ci$conf.int))
    expect_equal(pr$slowdowns, c(sum(bm$mean_direction %in% "slowdown"),
                                 sum(bm$median_direction %in% "slowdown")))
    # the gain over the significant benchmarks, recomputed over the new set
    sig <- bm$median_significant %in% TRUE
    g <- sum(bm$weight_median[sig] * (bm$median_x[sig] - bm$median_y[sig])) /
      sum(bm$weight_median[sig] * bm$median_x[sig])
    expect_equal(s$overall$gain_significant[3], g)
    expect_equal(s$overall$n_significant[3], sum(sig))
  }
  expect_true(all(s0$benchmarks$median_direction[1:8] == "speedup"))
  expect_true(all(s0$benchmarks$median_direction[9:12] == "slowdown"))
  expect_equal(s0$proportion$slowdowns[2], sum(s0$benchmarks$median_direction == "slowdown"))
  expect_gte(s0$proportion$slowdowns[2], 4)
  expect_error(speedup_suite(suite, p_adjust = "bonferroni"), class = "speeduptest_error_input")
  expect_error(speedup_suite(suite, conf_level = NA, p_adjust = "BH"), "level",
               class = "speeduptest_error_input")
})

test_that("a 300-benchmark null suite with p_adjust = \"BH\" has at most 2 false discoveries", {
  set.seed(42)
  same <- lapply(1:300, function(i) list(x = rlnorm(35, log(10), 0.1),
                                         y = rlnorm(35, log(10), 0.1)))
  names(same) <- paste0("b", 1:300)
  s0 <- speedup_suite(same)
  s <- speedup_suite(same, p_adjust = "BH")
  fd <- sum(s$benchmarks$median_direction != "none", na.rm = TRUE) +
    sum(s$benchmarks$mean_direction != "none", na.rm = TRUE)
  expect_lte(fd, 2)
  # without adjustment, chance gives about alpha x 300 per protocol and side
  expect_gt(sum(s0$benchmarks$median_significant), 5)
  expect_equal(s0$multiplicity$expected_false, c(15, 15))
  ml <- suite_multiplicity_lines(s0)
  expect_match(paste(ml, collapse = " "), "about 15 significant speedups")
  expect_match(paste(ml, collapse = " "), "computed on a selection")
  expect_true(all(nchar(ml) <= 80))
  expect_match(paste(suite_multiplicity_lines(s), collapse = " "), "Benjamini-Hochberg")
})

test_that("the suite print counts slowdowns and says what chance gives", {
  set.seed(43)
  suite <- lapply(1:6, function(i) {
    s <- c(1.2, 1.2, 1, 1, 1 / 1.2, 1)[i]
    list(x = rlnorm(35, log(10), 0.05), y = rlnorm(35, log(10 / s), 0.05))
  })
  names(suite) <- paste0("bench", 1:6)
  expect_snapshot(print(speedup_suite(suite)))
  expect_snapshot(print(speedup_suite(suite, p_adjust = "holm")))
})

test_that("the long table stacks the protocols' columns as unlist() and reordering would", {
  ns <- asNamespace("speeduptest")
  # the reference: each column of every protocol unlisted, then the rows
  # read benchmark after benchmark
  ref <- function(benchmark, cols, protocols) {
    k <- length(protocols)
    nb <- length(benchmark)
    idx <- as.vector(t(matrix(seq_len(nb * k), nrow = nb)))
    out <- list(benchmark = rep(benchmark, each = k), protocol = rep(protocols, times = nb))
    for (nm in names(cols[[1L]])) {
      v <- unlist(lapply(cols, `[[`, nm), use.names = FALSE)
      if (is.null(v)) v <- logical()
      out[[nm]] <- v[idx]
    }
    structure(out, row.names = .set_row_names(nb * k), class = "data.frame")
  }
  b <- c("a", "b", "c")
  one <- list(d = c(1.5, NA, -0), s = c("x", NA, "z"), l = c(TRUE, NA, FALSE),
              i = 1:3, f = factor(c("u", "v", "u")), n = c(p = 1, q = 2, r = 3))
  two <- list(d = c(NaN, Inf, 2), s = c("y", "w", ""), l = c(1L, 0L, NA),
              i = c(0.5, 1, 2), f = factor(c("w", "u", "w")), n = c(4, 5, 6))
  three <- list(d = c(1, 2, 3), s = c("a", "b", "c"), l = c(FALSE, TRUE, TRUE),
                i = 4:6, f = factor(c("a", "b", "c")), n = 7:9)
  for (cols in list(list(one), list(one, two), list(two, one, three),
                    list(one[c(1, 2)], three[c(1, 2)]))) {
    p <- c("mean", "median", "prob")[seq_along(cols)]
    expect_identical(ns$suite_long(b, cols, p), ref(b, cols, p))
  }
  # no benchmark
  z <- list(list(d = double(), s = character()), list(d = double(), s = character()))
  expect_identical(ns$suite_long(character(), z, c("mean", "median")),
                   ref(character(), z, c("mean", "median")))
})

test_that("is_word() is %in% of one word", {
  ns <- asNamespace("speeduptest")
  x <- c("speedup", NA, "slowdown", "speedup", "none")
  for (w in c("speedup", "slowdown", "other")) {
    expect_identical(ns$is_word(x, w), x %in% w)
  }
  l <- c(TRUE, NA, FALSE)
  expect_identical(ns$is_word(l, TRUE), l %in% TRUE)
  expect_identical(ns$is_word(NULL, TRUE), NULL %in% TRUE)
  f <- factor(x)
  expect_identical(ns$is_word(f, "speedup"), f %in% "speedup")
  expect_identical(ns$is_word(c(a = "speedup"), "speedup"), c(a = "speedup") %in% "speedup")
})
