# A fault of one benchmark costs that benchmark only: every good benchmark
# of the suite keeps the result it has in the suite without the bad one.

frame_suite <- function(nb = 5, n = 12, seed = 41) {
  set.seed(seed)
  do.call(rbind, lapply(seq_len(nb), function(j) {
    s <- c(1, 1.1, 1.3, 0.95, 1)[(j - 1) %% 5 + 1]
    data.frame(benchmark = sprintf("b%d", j),
               version = rep(c("old", "new"), each = n),
               time = c(rlnorm(n, log(2), 0.05), rlnorm(n, log(2 / s), 0.05)),
               stringsAsFactors = FALSE)
  }))
}

# the per-benchmark columns that do not depend on the other benchmarks
# (the weights are normalised over the analysed ones)
own_columns <- function(res) {
  bm <- as.data.frame(res$benchmarks)
  bm[, !grepl("^weight_", names(bm))]
}

expect_survivors <- function(res, clean, skipped) {
  good <- setdiff(clean$benchmarks$benchmark, skipped)
  expect_identical(res$benchmarks$benchmark, good)
  ref <- own_columns(clean)
  ref <- ref[match(good, ref$benchmark), ]
  rownames(ref) <- NULL
  expect_identical(own_columns(res), ref)
  pr <- res$problems
  for (s in skipped) {
    expect_true(any(pr$benchmark %in% s & pr$severity == "error"), label = s)
  }
}

skip_warnings <- function(expr) {
  classes <- character()
  value <- withCallingHandlers(expr, warning = function(w) {
    classes <<- c(classes, class(w)[1])
    invokeRestart("muffleWarning")
  })
  list(value = value, classes = classes)
}

test_that("a run without a version skips its benchmark only", {
  df <- frame_suite()
  clean <- speedup_suite(df)
  df$version[df$benchmark == "b2"][5] <- NA
  out <- skip_warnings(speedup_suite(df))
  expect_identical(out$classes, "speeduptest_warning_skipped")
  expect_survivors(out$value, clean, "b2")
  expect_match(out$value$problems$message, "missing version", all = FALSE)
  # a factor column with a missing value
  df$version <- factor(df$version, levels = c("old", "new"))
  res <- suppressWarnings(speedup_suite(df))
  expect_survivors(res, clean, "b2")
})

test_that("runs without a benchmark name are dropped, the benchmarks kept", {
  df <- frame_suite()
  clean <- speedup_suite(df)
  extra <- df[1:3, ]
  extra$benchmark <- NA
  out <- skip_warnings(speedup_suite(rbind(df, extra)))
  expect_identical(out$classes, "speeduptest_warning_skipped")
  expect_survivors(out$value, clean, character())
  pr <- out$value$problems
  expect_identical(nrow(pr), 1L)
  expect_true(is.na(pr$benchmark))
  expect_match(pr$message, "3 run\\(s\\) with a missing benchmark name")
})

test_that("a third version in one benchmark skips that benchmark only", {
  df <- frame_suite()
  clean <- speedup_suite(df)
  bad <- df
  bad$version[bad$benchmark == "b4"][c(2, 20)] <- "O3"
  out <- skip_warnings(speedup_suite(bad))
  expect_identical(out$classes, "speeduptest_warning_skipped")
  expect_survivors(out$value, clean, "b4")
  expect_identical(out$value$versions, c("old", "new"))
  expect_match(out$value$problems$message, "\"O3\"", all = FALSE)
  # a benchmark whose runs are of another pair of versions
  other <- df[df$benchmark == "b1", ]
  other$benchmark <- "b9"
  other$version[other$version == "new"] <- "O3"
  res <- suppressWarnings(speedup_suite(rbind(df, other)))
  expect_survivors(res, clean, "b9")
  # the rare version first in the levels, and `initial`
  bad$version <- factor(bad$version, levels = c("O3", "old", "new"))
  res <- suppressWarnings(speedup_suite(bad))
  expect_identical(res$versions, c("old", "new"))
  expect_survivors(res, clean, "b4")
  res <- suppressWarnings(speedup_suite(bad, initial = "new"))
  expect_identical(res$versions, c("new", "old"))
  expect_equal(res$benchmarks$speedup_mean,
               1 / clean$benchmarks$speedup_mean[-4])
  # three versions throughout is still an error
  all3 <- df
  all3$version <- rep(c("a", "b", "c"), length.out = nrow(df))
  expect_error(speedup_suite(all3), "exactly 2 versions",
               class = "speeduptest_error_input")
})

test_that("an invalid level of one benchmark skips it when the levels are used", {
  df <- frame_suite()
  df$conf_level <- 0.9
  clean <- speedup_suite(df)
  bad <- df
  bad$conf_level[bad$benchmark == "b3"] <- 1.5
  out <- skip_warnings(speedup_suite(bad))
  expect_identical(out$classes, "speeduptest_warning_skipped")
  expect_survivors(out$value, clean, "b3")
  expect_match(out$value$problems$message, "not 1.5", all = FALSE)
  # a level varying over the runs of a benchmark
  bad <- df
  bad$conf_level[bad$benchmark == "b5"][1] <- 0.8
  res <- suppressWarnings(speedup_suite(bad))
  expect_survivors(res, clean, "b5")
  # a level given for every benchmark: the data's levels are not read
  res <- expect_silent(speedup_suite(bad, conf_level = 0.9))
  expect_identical(own_columns(res), own_columns(clean))
  # a list of benchmarks
  lst <- lapply(split(df, df$benchmark), function(d) {
    list(x = d$time[d$version == "old"], y = d$time[d$version == "new"],
         conf_level = 0.9)
  })
  ref <- speedup_suite(lst)
  for (v in list(0, 1, -2, "0.9", c(0.9, 0.95), Inf)) {
    lst$b2$conf_level <- v
    res <- suppressWarnings(speedup_suite(lst))
    expect_survivors(res, ref, "b2")
  }
})

test_that("a weight varying within a benchmark skips it under custom weights", {
  df <- frame_suite()
  df$weight <- rep(1:5, each = 24)
  clean <- speedup_suite(df)
  expect_identical(clean$weights, "custom")
  bad <- df
  bad$weight[bad$benchmark == "b1"][7] <- 2
  out <- skip_warnings(speedup_suite(bad))
  expect_identical(out$classes, "speeduptest_warning_skipped")
  expect_survivors(out$value, clean, "b1")
  # the weights of the others, normalised over them
  expect_equal(out$value$benchmarks$weight_mean, (2:5) / 14)
  # weights not used: nothing skipped
  res <- expect_silent(speedup_suite(bad, weights = "equal"))
  expect_identical(res$benchmarks$benchmark, clean$benchmarks$benchmark)
})

test_that("the column arguments and `initial` are checked", {
  df <- frame_suite(2)
  for (arg in c("benchmark", "version", "time")) {
    for (v in list(NULL, NA_character_, c("a", "b"), 1, "")) {
      args <- list(df)
      args[arg] <- list(v)
      expect_error(do.call(speedup_suite, args), sprintf("`%s`", arg),
                   class = "speeduptest_error_input")
    }
  }
  lst <- list(a = list(x = c(2, 2.1, 2.2), y = c(1, 1.1, 1.2)))
  expect_error(speedup_suite(lst, initial = "anything"), "`initial`",
               class = "speeduptest_error_input")
  expect_error(speedup_suite(lst, initial = "y"), "`initial`",
               class = "speeduptest_error_input")
  expect_identical(speedup_suite(lst, initial = "x")$benchmarks,
                   speedup_suite(lst)$benchmarks)
  cfg <- read_speedup_config(system.file("extdata", "config.csv",
                                         package = "speeduptest"))
  expect_error(speedup_suite(cfg, initial = "old"), "`initial`",
               class = "speeduptest_error_input")
})

test_that("min_benchmarks() takes the precisions speedup_suite() takes", {
  lst <- list(a = list(x = c(2, 2.1, 2.2, 2.3), y = c(1, 1.1, 1.2, 1.3)))
  for (r in list(0, 1, 2, -0.1, Inf, NA)) {
    expect_error(min_benchmarks(0.5, precision = r), "`precision`",
                 class = "speeduptest_error_input")
    expect_error(speedup_suite(lst, precision = r), "`precision`",
                 class = "speeduptest_error_input")
  }
  # inside (0, 1): the formula ceil(z^2 C (1 - C) / r^2)
  z <- stats::qnorm(0.975)
  for (r in c(0.01, 0.5, 0.999)) {
    expect_identical(min_benchmarks(0.3, precision = r),
                     ceiling(z^2 * 0.3 * 0.7 / r^2))
    expect_silent(speedup_suite(lst, precision = r))
  }
})

test_that("the .out file has NA where the level search found no level", {
  set.seed(43)
  # ten runs each: an outlier keeps x from being normal, so the mean
  # protocol asks for more runs at every level; the median protocol
  # declares the speedup at 0.99 (the Smirnov test's p = 0.168 stops it
  # only from alpha = 0.17 on)
  short <- list(x = c(10 + (1:9) / 1000, 20), y = seq(5, 6, length.out = 10))
  clear <- list(x = rnorm(40, 10, 0.1), y = rnorm(40, 8, 0.1))
  flat <- list(x = rnorm(40, 10, 0.1), y = rnorm(40, 10, 0.1))
  suite <- list(short = short, clear = clear, flat = flat)
  res <- speedup_suite(suite, conf_level = NA)
  bm <- res$benchmarks
  expect_true(is.na(bm$mean_significant[1]))
  expect_identical(bm$mean_conf_level[1], 0.5)
  expect_identical(bm$median_conf_level[1], 0.99)
  dir <- tempfile("suite-out")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE), add = TRUE)
  prefix <- file.path(dir, "s")
  write_speedup_report(res, prefix)
  out <- utils::read.csv(paste0(prefix, ".out"))
  expect_identical(out$MeanConfLevel, c(NA, bm$mean_conf_level[2:3]))
  expect_identical(out$MedianConfLevel, bm$median_conf_level)
  expect_identical(bm$mean_conf_level[2], 0.99)
  # a level given: written as given, whatever the decision
  res <- speedup_suite(suite, conf_level = 0.9)
  write_speedup_report(res, prefix)
  out <- utils::read.csv(paste0(prefix, ".out"))
  expect_identical(out$MeanConfLevel, rep(0.9, 3))
})

test_that("mean_test() gives the same verdict for tiny and huge run times", {
  set.seed(44)
  for (n in c(8, 35)) {
    # largest value in [1, 2): the scaled times are these times exactly
    x <- runif(n, 1.2, 1.9)
    y <- runif(n, 1.0, 1.7)
    x <- x / max(c(x, y)) * 1.5
    y <- y / max(c(x, y)) * 1.5
    v0 <- mean_test(x, y, rigorous = FALSE)
    ref <- stats::t.test(x, y, alternative = "greater",
                         var.equal = v0$branch %in% c("student", "student_not_normal"))
    for (k in c(-1000, -900, -600, -200, -100, 100, 200, 600, 1000)) {
      s <- 2^k
      v <- mean_test(x * s, y * s, rigorous = FALSE)
      expect_identical(v$decision, v0$decision, label = k)
      expect_identical(v$p_value, v0$p_value, label = k)
      expect_identical(v$speedup_ci, v0$speedup_ci, label = k)
      expect_identical(v$caveat_flags, v0$caveat_flags, label = k)
      expect_false(any(grepl("constant", v$caveats)))
      # the t-test step in the unit of the data
      tt <- v$steps[[length(v$steps)]]
      expect_equal(unname(tt$estimate), c(mean(x), mean(y)) * s)
    }
    # decimal units (not exact scalings): the same figures to rounding
    for (s in c(1e-300, 1e-200, 1e-160, 1e160, 1e200, 1e300)) {
      v <- mean_test(x * s, y * s, rigorous = FALSE)
      expect_identical(v$decision, v0$decision)
      expect_equal(v$p_value, v0$p_value, tolerance = 1e-9)
    }
  }
  # a suite at 1e-200 s: the decisions of the same suite in seconds
  suite <- list(a = list(x = rnorm(35, 10, 0.1), y = rnorm(35, 9, 0.1)),
                b = list(x = rnorm(35, 10, 0.1), y = rnorm(35, 10, 0.1)))
  tiny <- lapply(suite, function(b) list(x = b$x * 1e-200, y = b$y * 1e-200))
  r1 <- speedup_suite(suite)$benchmarks
  r2 <- speedup_suite(tiny)$benchmarks
  expect_identical(r2$mean_decision, r1$mean_decision)
  expect_equal(r2$mean_p_value, r1$mean_p_value, tolerance = 1e-9)
})
