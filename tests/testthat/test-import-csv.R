test_that("a long CSV is read with its version order and extra columns", {
  f <- timings_tempfile(c("benchmark,version,time,run,host",
                          "a,new,0.9,2,m1", "a,old,1.2,1,m1", "a,new,1.0,1,m1",
                          "a,old,1.1,2,m1", "b,old,2,1,m2", "b,new,1.5,1,m2"), ".csv")
  t <- read_timings(f)
  expect_identical(attr(t, "source"), "csv")
  expect_identical(levels(t$version), c("new", "old"))
  expect_equal(t$time, c(0.9, 1.2, 1.0, 1.1, 2, 1.5))
  expect_identical(t$run, c(2L, 1L, 1L, 2L, 1L, 1L))
  expect_identical(t$host, c("m1", "m1", "m1", "m1", "m2", "m2"))
  # metric names another time column
  g <- timings_tempfile(c("benchmark,version,wall,cpu", "a,x,1,0.9", "a,y,2,1.8"), ".csv")
  expect_equal(read_timings(g, metric = "cpu")$time, c(0.9, 1.8))
  expect_error(read_timings(g, metric = "gpu"), class = "speeduptest_error_input")
  expect_error(read_timings(g, metric = "gpu"), basename(g), fixed = TRUE)
})

test_that("CSV files without a version column are one version each", {
  a <- timings_tempfile(c("benchmark,time", "x,1", "x,1.1", "y,2"), ".csv")
  b <- timings_tempfile(c("benchmark,time", "x,0.8", "y,1.9"), ".csv")
  t <- read_timings(c(before = a, after = b))
  expect_identical(levels(t$version), c("before", "after"))
  expect_equal(t$time, c(1, 1.1, 2, 0.8, 1.9))
  expect_error(read_timings(a), class = "speeduptest_error_format")
})

test_that("a SpeedupTest configuration is read through read_speedup_config()", {
  cfg <- system.file("extdata", "config.csv", package = "speeduptest")
  ref <- read_speedup_config(cfg)
  t <- read_timings(cfg)
  expect_identical(attr(t, "source"), "speeduptest")
  expect_identical(levels(t$version), c("Sample1", "Sample2"))
  expect_identical(unique(t$benchmark), names(ref))
  for (b in names(ref)) {
    expect_equal(t$time[t$benchmark == b & t$version == "Sample1"], ref[[b]]$x)
    expect_equal(t$time[t$benchmark == b & t$version == "Sample2"], ref[[b]]$y)
  }
  # the suite on the timings is the suite on the configuration
  s1 <- speedup_suite(t, conf_level = 0.95)
  s2 <- speedup_suite(ref, conf_level = 0.95)
  cols <- setdiff(names(s2$benchmarks), c("weight_min", "weight_mean", "weight_median"))
  expect_equal(s1$benchmarks[cols], s2$benchmarks[cols])
})

test_that("a CSV separated by semicolons with decimal commas is read", {
  f <- withr::local_tempfile(fileext = ".csv")
  writeLines(c("benchmark;version;time;process", "b;old;0,0123;1", "b;old;0,0125;2",
               "b;new;0,0111;3", "b;new;0,0112;4"), f)
  t <- read_timings(f)
  expect_identical(t$time, c(0.0123, 0.0125, 0.0111, 0.0112))
  expect_identical(as.character(t$version), c("old", "old", "new", "new"))
  expect_equal(t$process, 1:4)
  expect_identical(read_timings(f, format = "csv")$time, t$time)
  # the same file written by utils::write.csv2() reads the same
  g <- withr::local_tempfile(fileext = ".csv")
  utils::write.csv2(data.frame(benchmark = "b", version = c("old", "new"),
                               time = c(1.5, 0.25)), g, row.names = FALSE)
  expect_identical(read_timings(g)$time, c(1.5, 0.25))
  # semicolons with decimal points read too
  writeLines(c("benchmark;version;time", "b;old;1.5", "b;new;0.25"), g)
  expect_identical(read_timings(g)$time, c(1.5, 0.25))
})
