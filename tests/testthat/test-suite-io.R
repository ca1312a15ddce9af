# The SpeedupTest tool compatibility: configuration, four output files, CLI.
# Every file is written under tempdir(), never in the package or the
# working directory.

example_cfg <- function() {
  system.file("extdata", "config.csv", package = "speeduptest", mustWork = TRUE)
}

new_dir <- function() {
  d <- tempfile("suite-io-")
  dir.create(d)
  d
}

# Writes a configuration and its sample files; `samples` is a named list of
# character vectors (file contents), NULL for a file that must not exist.
write_config <- function(dir, lines, samples) {
  for (nm in names(samples)) {
    if (!is.null(samples[[nm]])) writeLines(samples[[nm]], file.path(dir, nm))
  }
  cfg <- file.path(dir, "suite.csv")
  writeLines(lines, cfg)
  cfg
}

runs <- function(n, mu, sd = 0.01 * mu) format(round(rnorm(n, mu, sd), 4), nsmall = 4)

collect_warnings <- function(expr) {
  ws <- list()
  val <- withCallingHandlers(expr, warning = function(w) {
    ws[[length(ws) + 1L]] <<- w
    invokeRestart("muffleWarning")
  })
  list(value = val, warnings = ws)
}

test_that("the shipped example configuration is read", {
  cfg <- read_speedup_config(example_cfg())
  expect_s3_class(cfg, "speedup_config")
  expect_identical(names(cfg), c("bzip2", "gcc", "mcf", "milc", "sjeng", "lbm"))
  expect_equal(nrow(attr(cfg, "problems")), 0)
  expect_equal(vapply(cfg, function(b) length(b$x), 1), rep(31, 6), ignore_attr = TRUE)
  expect_equal(unname(vapply(cfg, `[[`, 1, "conf_level")), c(0.95, 0.95, 0.95, NA, 0.9, NA))
  expect_equal(unname(vapply(cfg, `[[`, 1, "weight")), c(2, 1, 1, 3, 1, 2))
  x <- as.numeric(readLines(system.file("extdata", "example", "gcc-O1.txt",
                                        package = "speeduptest")))
  expect_equal(cfg$gcc$x, x)
  res <- speedup_suite(cfg)
  expect_identical(res$weights, "custom")
  expect_equal(res$benchmarks$searched, c(FALSE, FALSE, FALSE, TRUE, FALSE, TRUE))
})

test_that("the four files hold the tool's columns, rounding and text", {
  set.seed(21)
  res <- speedup_suite(read_speedup_config(example_cfg()))
  prefix <- file.path(new_dir(), "ex")
  paths <- write_speedup_report(res, prefix)
  expect_identical(unname(paths), paste0(prefix, c(".out", ".report", ".warning", ".error")))
  expect_true(all(file.exists(paths)))
  out <- utils::read.csv(paths[["out"]], stringsAsFactors = FALSE)
  expect_identical(names(out), c("Name", "SpeedupMin", "SpeedupMean",
    "IsMeanSignificant", "MeanConfLevel", "SpeedupMedian",
    "IsMedianSignificant", "MedianConfLevel", "CoefMin", "CoefMean", "CoefMedian"))
  bm <- res$benchmarks
  expect_identical(out$Name, bm$benchmark)
  expect_equal(out$SpeedupMean, round(bm$speedup_mean, 3))
  expect_equal(out$SpeedupMedian, round(bm$speedup_median, 3))
  expect_equal(out$SpeedupMin, round(bm$speedup_min, 3))
  expect_identical(out$IsMeanSignificant, bm$mean_decision == "significant")
  expect_equal(out$MeanConfLevel, bm$mean_conf_level)
  expect_equal(out$CoefMean, round(c(2, 1, 1, 3, 1, 2) / 10, 3))
  # every figure has at most 3 decimals
  txt <- readLines(paths[["out"]])[-1]
  expect_false(any(grepl("\\.[0-9]{4,}", txt)))
  expect_identical(readLines(paths[["report"]]), format(res))
  expect_identical(readLines(paths[["error"]]), character())
  w <- readLines(paths[["warning"]])
  expect_true(any(grepl("^benchmark \"mcf\": speedup of the mean = .* not significant", w)))
})

test_that("the report of the shipped example is stable", {
  res <- speedup_suite(read_speedup_config(example_cfg()))
  expect_snapshot(cat(format(res), sep = "\n"))
  expect_snapshot(cat(suite_out_lines(res), sep = "\n"))
  expect_snapshot(cat(suite_warning_lines(res), sep = "\n"))
})

test_that("a broken suite reports every good benchmark and says what is wrong", {
  set.seed(22)
  dir <- new_dir()
  samples <- list(
    "a1.txt" = runs(32, 10), "a2.txt" = runs(32, 8),
    "b1.txt" = runs(32, 5), "b2.txt" = runs(32, 4),
    "c1.txt" = runs(32, 3), "c2.txt" = runs(32, 3),
    "empty.txt" = character(),
    "text.txt" = c("1.2", "1.3", "oops", "1.1"),
    "two.txt" = c("1.5", "1.6"),
    "neg.txt" = c("1", "-2", "3")
  )
  cfg <- write_config(dir, c(
    "Name,Sample1,Sample2,ConfLevel,Coef",
    "good_a,a1.txt,a2.txt,0.95,1",
    "good_b,b1.txt,b2.txt,,2",
    "missing,nothere.txt,a2.txt,0.95,1",
    "empty,empty.txt,a2.txt,0.95,1",
    "text,a1.txt,text.txt,0.95,1",
    "two,two.txt,b2.txt,0.95,1",
    "negweight,c1.txt,c2.txt,0.95,-3",
    "this line,is,malformed,0.9,1,extra",
    "badlevel,a1.txt,a2.txt,95,1",
    "negative,neg.txt,a2.txt,0.95,1",
    "good_a,b1.txt,b2.txt,0.95,1"
  ), samples)

  # read: one classed warning per bad line or file
  r <- collect_warnings(read_speedup_config(cfg))
  config <- r$value
  cls <- vapply(r$warnings, function(w) class(w)[1], "")
  expect_true(all(vapply(r$warnings, inherits, NA, "speeduptest_warning")))
  expect_equal(sum(cls == "speeduptest_warning_file"), 4)
  expect_equal(sum(cls == "speeduptest_warning_config"), 3)
  expect_identical(names(config), c("good_a", "good_b", "two", "negweight"))

  # analyse: the good ones and the 2-run one are analysed
  s <- collect_warnings(speedup_suite(config))
  res <- s$value
  cls <- vapply(s$warnings, function(w) class(w)[1], "")
  expect_true("speeduptest_warning_few_runs" %in% cls)
  expect_true("speeduptest_warning_weights" %in% cls)
  expect_identical(res$benchmarks$benchmark, c("good_a", "good_b", "two", "negweight"))
  expect_identical(res$weights, "equal")
  expect_identical(res$benchmarks$mean_decision[1:2], c("significant", "significant"))
  expect_identical(res$benchmarks$mean_decision[3], "insufficient data")

  # the four files: every bad part is named with its reason
  prefix <- file.path(dir, "suite")
  write_speedup_report(res, prefix)
  err <- readLines(paste0(prefix, ".error"))
  warn <- readLines(paste0(prefix, ".warning"))
  one <- function(lines, pattern) sum(grepl(pattern, lines))
  expect_equal(one(err, "\"missing\".*nothere.txt' does not exist"), 1)
  expect_equal(one(err, "\"empty\".*empty.txt' is empty"), 1)
  expect_equal(one(err, "\"text\".*text.txt' holds 1 line\\(s\\) that are not numbers \\(e.g. \"oops\"\\)"), 1)
  expect_equal(one(err, "\"negative\".*neg.txt' holds 1 run time\\(s\\) that are not positive"), 1)
  expect_equal(one(err, "line 9 of 'suite.csv' is malformed"), 1)
  expect_equal(one(err, "line 10 .*ConfLevel of benchmark \"badlevel\""), 1)
  expect_equal(one(err, "line 12 .*repeats the benchmark name \"good_a\""), 1)
  expect_length(err, 7)
  expect_equal(one(warn, "illegal custom weight.*\"negweight\".*equal weights"), 1)
  expect_equal(one(warn, "benchmark \"two\": only 2 run"), 1)
  expect_equal(one(warn, "benchmark \"two\": speedup of the mean: insufficient data"), 1)
  out <- utils::read.csv(paste0(prefix, ".out"))
  expect_identical(out$Name, c("good_a", "good_b", "two", "negweight"))
  expect_identical(out$IsMeanSignificant[3], FALSE)
  rep <- readLines(paste0(prefix, ".report"))
  expect_true("Benchmarks analysed: 4 (skipped: 7)" %in% rep)

  # the command line gives the same files and never stops on them
  prefix2 <- file.path(dir, "cli")
  expect_output(speeduptest_cli(c(cfg, "-o", prefix2)), "4 benchmark\\(s\\) analysed; .*7 error")
  for (ext in c(".out", ".report", ".warning", ".error")) {
    expect_identical(readLines(paste0(prefix2, ext)), readLines(paste0(prefix, ext)))
  }
})

test_that("an all-zero Coef falls back to equal weights", {
  set.seed(23)
  dir <- new_dir()
  cfg <- write_config(dir, c("Name,Sample1,Sample2,ConfLevel,Coef",
                             "a,a1.txt,a2.txt,,0", "b,a2.txt,a1.txt,,0"),
                      list("a1.txt" = runs(8, 2), "a2.txt" = runs(8, 1)))
  expect_warning(res <- speedup_suite(read_speedup_config(cfg)),
                 "all custom weights are zero", class = "speeduptest_warning_weights")
  expect_identical(res$weights, "equal")
})

test_that("the configuration may leave out ConfLevel and Coef and quote fields", {
  set.seed(24)
  dir <- new_dir()
  cfg <- write_config(dir, c("Name,Sample1,Sample2", "\"a, quoted\",a1.txt,a2.txt",
                             "", "# a comment", "b,a2.txt,a1.txt"),
                      list("a1.txt" = runs(8, 2), "a2.txt" = runs(8, 1)))
  config <- read_speedup_config(cfg)
  expect_identical(names(config), c("a, quoted", "b"))
  expect_true(is.na(config[[1]]$conf_level))
  prefix <- file.path(dir, "q")
  res <- speedup_suite(config)
  write_speedup_report(res, prefix)
  out <- utils::read.csv(paste0(prefix, ".out"))
  expect_identical(out$Name, c("a, quoted", "b"))
})

test_that("an unreadable configuration is a classed error", {
  dir <- new_dir()
  expect_error(read_speedup_config(file.path(dir, "none.csv")),
               class = "speeduptest_error_file")
  bad <- file.path(dir, "bad.csv")
  writeLines(c("Benchmark,File1,File2", "a,b,c"), bad)
  expect_error(read_speedup_config(bad), "header", class = "speeduptest_error_file")
  writeLines(character(), bad)
  expect_error(read_speedup_config(bad), "empty", class = "speeduptest_error_file")
  expect_error(read_speedup_config(1), class = "speeduptest_error_input")
  expect_error(write_speedup_report(list(), "x"), class = "speeduptest_error_input")
})

test_that("the command line takes the tool's options", {
  dir <- new_dir()
  prefix <- file.path(dir, "run")
  expect_silent(res <- speeduptest_cli(c(example_cfg(), "--conf-level", "0.9",
                                         "--weight", "fraction", "--precision",
                                         "0.1", "-o", prefix, "-q")))
  expect_true(all(file.exists(paste0(prefix, c(".out", ".report", ".warning", ".error")))))
  expect_equal(res$benchmarks$mean_conf_level, rep(0.9, 6))
  expect_identical(res$weights, "fraction")
  expect_equal(res$proportion$conf_level, c(0.9, 0.9))
  expect_equal(res$proportion$precision, c(0.1, 0.1))
  rep <- readLines(paste0(prefix, ".report"))
  expect_true("(in order to have a precision r=0.1)." %in% rep)
  out <- utils::read.csv(paste0(prefix, ".out"))
  expect_equal(out$CoefMedian, round(res$benchmarks$median_x / sum(res$benchmarks$median_x), 3))
  # --name=value, NA searches every level
  res <- speeduptest_cli(c(example_cfg(), "--conf-level=NA", "--weight=equal",
                           paste0("-o"), prefix, "--quiet"))
  expect_true(all(res$benchmarks$searched))
  expect_output(speeduptest_cli("--help"), "usage: speeduptest")
  expect_error(speeduptest_cli(c(example_cfg(), "--weight", "heavy")),
               "custom, equal or fraction", class = "speeduptest_error_input")
  expect_error(speeduptest_cli(c(example_cfg(), "--conf-level", "95")),
               class = "speeduptest_error_input")
  expect_error(speeduptest_cli(c(example_cfg(), "--bogus")), "unknown option",
               class = "speeduptest_error_input")
  expect_error(speeduptest_cli(character()), "no configuration",
               class = "speeduptest_error_input")
  expect_error(speeduptest_cli(c(file.path(dir, "none.csv"), "-o", prefix)),
               class = "speeduptest_error_file")
  expect_match(readLines(paste0(prefix, ".error")), "cannot read the configuration")
})

test_that("the installed script runs the example end to end", {
  skip_on_cran()
  script <- system.file("bin", "speeduptest", package = "speeduptest")
  expect_true(nzchar(script))
  expect_identical(unname(file.access(script, 1)), 0L)
  expect_match(readLines(script, n = 1), "^#!/usr/bin/env Rscript")
  rscript <- file.path(R.home("bin"), "Rscript")
  prefix <- file.path(new_dir(), "script")
  env <- paste0("R_LIBS=", paste(.libPaths(), collapse = .Platform$path.sep))
  out <- system2(rscript, c(shQuote(script), shQuote(example_cfg()), "-o",
                            shQuote(prefix)), stdout = TRUE, stderr = TRUE, env = env)
  expect_true(any(grepl("Overall speedup \\(ExecutionTime=median\\)", out)))
  expect_true(all(file.exists(paste0(prefix, c(".out", ".report", ".warning", ".error")))))
  status <- suppressWarnings(system2(rscript, c(shQuote(script), "--bogus"),
                                     stdout = TRUE, stderr = TRUE, env = env))
  expect_identical(attr(status, "status"), 1L)
  expect_true(any(grepl("unknown option", status)))
})
