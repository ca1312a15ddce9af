test_that("as_timings() on lists of pairs and long data frames", {
  t <- as_timings(list(old = c(3, 1, 2), new = c(0.5, 0.7)))
  expect_s3_class(t, "speedup_timings")
  expect_identical(levels(t$version), c("old", "new"))
  expect_identical(t$time, c(3, 1, 2, 0.5, 0.7))
  expect_identical(t$run, c(1:3, 1:2))
  s <- as_timings(list(a = list(1:3, 4:6), b = list(x = 7:8, y = 9:10)),
                  versions = c("before", "after"))
  expect_identical(unique(s$benchmark), c("a", "b"))
  expect_identical(levels(s$version), c("before", "after"))
  expect_equal(s$time, c(1:6, 7:10))
  d <- data.frame(bench = c("p", "p", "q"), v = factor(c("n", "o", "o"), levels = c("o", "n")),
                  secs = c(1, 2, 3), note = c("a", "b", "c"))
  u <- as_timings(d, benchmark = "bench", version = "v", time = "secs")
  expect_identical(levels(u$version), c("o", "n"))
  expect_identical(u$note, c("a", "b", "c"))
  expect_identical(as_timings(u), u)
  expect_error(as_timings(1:3), class = "speeduptest_error_input")
  expect_error(as_timings(list(1, "a")), class = "speeduptest_error_input")
  expect_error(as_timings(d, time = "nope"), class = "speeduptest_error_input")
})

test_that("as_timings() on bench::mark() results keeps every iteration", {
  skip_if_not_installed("bench")
  m <- bench::mark(slow = sum(sqrt(seq_len(20000))), sum(seq_len(10)), check = FALSE,
                   min_iterations = 20, max_iterations = 20, filter_gc = FALSE)
  t <- as_timings(m, benchmark = "sqrt")
  expect_identical(attr(t, "source"), "bench::mark")
  expect_identical(levels(t$version), c("slow", "sum(seq_len(10))"))
  expect_identical(unique(t$benchmark), "sqrt")
  expect_equal(t$time[t$version == "slow"], as.numeric(m$time[[1]]))
  expect_equal(t$time[t$version != "slow"], as.numeric(m$time[[2]]))
  expect_identical(t$run, c(seq_along(m$time[[1]]), seq_along(m$time[[2]])))
})

test_that("as_timings() on microbenchmark objects: seconds, execution order kept", {
  skip_if_not_installed("microbenchmark")
  set.seed(1)
  mb <- microbenchmark::microbenchmark(big = sum(sqrt(seq_len(20000))),
                                       small = sum(seq_len(10)), times = 31)
  t <- as_timings(mb)
  expect_identical(attr(t, "source"), "microbenchmark")
  expect_identical(attr(t, "run_order"), "global")
  expect_identical(levels(t$version), levels(mb$expr))
  expect_equal(t$time, mb$time * 1e-9)
  expect_identical(as.character(t$version), as.character(mb$expr))
  expect_identical(t$run, seq_len(nrow(mb)))
  # the verdict: the small expression is much faster
  s <- speedup_suite(t)
  expect_true(s$benchmarks$median_significant)
})

test_that("print() and summary() fit in 80 columns and show the samples", {
  t <- read_timings(timings_fixture(c("gbench-base.json", "gbench-slower.json")))
  out <- capture.output(print(t))
  expect_true(all(nchar(out) <= 80))
  expect_match(out[1], "210 runs from google-benchmark", fixed = TRUE)
  expect_true(any(grepl("gbench-base (initial), gbench-slower", out, fixed = TRUE)))
  expect_true(any(grepl("3 benchmarks, 35 runs per sample", out, fixed = TRUE)))
  s <- summary(t)
  expect_s3_class(s, "summary.speedup_timings")
  expect_equal(nrow(s), 6L)
  expect_equal(s$median[1], median(t$time[t$benchmark == "BM_lcg/20000" &
                                           t$version == "gbench-base"]))
  out <- capture.output(print(s))
  expect_true(all(nchar(out) <= 80))
  long <- as_timings(list(x = list(1:3, 4:6), y = list(1:3, 4:6)),
                     versions = c(strrep("v", 60), strrep("w", 60)))
  expect_true(all(nchar(capture.output(print(long), print(summary(long)))) <= 80))
})

test_that("speedup_suite() on timings equals the suite on the same numbers as vectors", {
  f <- timings_fixture(c("gbench-base.json", "gbench-faster.json"))
  t <- read_timings(f)
  pairs <- lapply(split(t, t$benchmark)[unique(t$benchmark)], function(d)
    list(x = d$time[d$version == "gbench-base"], y = d$time[d$version == "gbench-faster"]))
  s1 <- speedup_suite(t, replication = "run")
  s2 <- speedup_suite(pairs)
  expect_equal(s1$benchmarks, s2$benchmarks)
  # by default, one process per file: the same decisions, never guaranteed
  s0 <- speedup_suite(t)
  expect_identical(s0$benchmarks$median_decision, s2$benchmarks$median_decision)
  expect_false(any(s0$benchmarks$median_guaranteed | s0$benchmarks$mean_guaranteed))
  expect_true(all(grepl("one process", s0$benchmarks$median_caveats)))
  expect_identical(s1$versions, c("gbench-base", "gbench-faster"))
  # and each benchmark's median verdict is the protocol on the vectors
  for (b in names(pairs)) {
    v <- median_test(pairs[[b]]$x, pairs[[b]]$y)
    row <- s1$benchmarks[s1$benchmarks$benchmark == b, ]
    expect_identical(row$median_decision, v$decision)
    expect_equal(row$median_p_value, v$p_value)
  }
  # initial = swaps the roles
  s3 <- speedup_suite(t, initial = "gbench-faster")
  expect_identical(s3$versions, c("gbench-faster", "gbench-base"))
  expect_equal(s3$benchmarks$speedup_median, 1 / s1$benchmarks$speedup_median)
})

test_that("protocol methods for timings (when present) agree with the vectors", {
  skip_if_not(exists("median_test.speedup_timings", asNamespace("speeduptest")),
              "median_test() for timings not on this branch yet")
  t <- read_timings(timings_fixture("hyperfine-speedup.json"))
  x <- t$time[t$version == "old"]
  y <- t$time[t$version == "new"]
  expect_identical(median_test(t)$decision, median_test(x, y)$decision)
  expect_equal(median_test(t)$p_value, median_test(x, y)$p_value)
  expect_equal(mean_test(t)$p_value, mean_test(x, y)$p_value)
})

test_that("benchmarks present in one version only are reported and left out", {
  t <- as_timings(data.frame(
    benchmark = c(rep("both", 10), rep("only_old", 5), rep("only_new", 5)),
    version = factor(c(rep(c("old", "new"), 5), rep("old", 5), rep("new", 5)),
                     levels = c("old", "new")),
    time = c(rep(c(2, 1), 5) + (1:10) / 100, 1:5, 1:5)))
  w <- list()
  s <- withCallingHandlers(speedup_suite(t), warning = function(c) {
    w[[length(w) + 1L]] <<- c
    invokeRestart("muffleWarning")
  })
  expect_length(w, 2L)
  expect_true(all(vapply(w, inherits, TRUE, "speeduptest_warning_unpaired")))
  expect_setequal(vapply(w, `[[`, "", "benchmark"), c("only_old", "only_new"))
  expect_identical(s$benchmarks$benchmark, "both")
  expect_setequal(s$problems$benchmark, c("only_old", "only_new"))
  expect_match(s$problems$message[s$problems$benchmark == "only_old"],
               "runs of \"old\" only", fixed = TRUE)
  expect_output(print(t), "Missing a version")
  expect_error(suppressWarnings(speedup_suite(t[t$benchmark != "both", ])),
               class = "speeduptest_error_unpaired")
})

test_that("three versions need a choice", {
  t <- as_timings(data.frame(version = rep(c("a", "b", "c"), each = 5), time = 1:15))
  expect_error(speedup_suite(t), "3 version", class = "speeduptest_error_input")
  expect_error(hpt(t), "3 version", class = "speeduptest_error_input")
})

test_that("hpt() on timings: A is the transformed code, B the initial code", {
  f <- timings_fixture(c("gbench-base.json", "gbench-faster.json"))
  t <- read_timings(c(base = f[1], faster = f[2]))
  h <- hpt(t)
  a <- lapply(split(t$time[t$version == "faster"], t$benchmark[t$version == "faster"]), identity)
  b <- lapply(split(t$time[t$version == "base"], t$benchmark[t$version == "base"]), identity)
  ref <- hpt(a, b)
  expect_equal(h$confidence, ref$confidence)
  expect_equal(h$R_A, ref$R_A)
  expect_identical(h$labels, c("faster", "base"))
  h2 <- hpt(t, initial = "faster")
  expect_equal(h2$R_A, ref$R_B)
})

test_that("run_within() numbers each group's elements as stats::ave() does", {
  set.seed(35)
  for (k in 1:30) {
    n <- sample(0:200, 1)
    g <- sample(c(letters[1:5], NA), n, replace = TRUE)
    h <- sample(1:3, n, replace = TRUE)
    ref1 <- if (n) stats::ave(seq_len(n), addNA(factor(g)), FUN = seq_along) else integer()
    expect_identical(speeduptest:::run_within(g), as.integer(ref1))
    ref2 <- if (n) stats::ave(seq_len(n), paste(g, h), FUN = seq_along) else integer()
    expect_identical(speeduptest:::run_within(g, h), as.integer(ref2))
  }
  # a factor and its codes group alike
  f <- factor(c("b", "a", "b", "b", "a"))
  expect_identical(speeduptest:::run_within(f), c(1L, 1L, 2L, 3L, 2L))
  expect_identical(speeduptest:::run_within(c("x", "x"), f[1:2]), c(1L, 1L))
})

test_that("autoplot() of timings labels its time axes in ms/us as plot() does", {
  skip_if_not_installed("ggplot2")
  set.seed(292)
  d <- rbind(data.frame(benchmark = "fast", version = rep(c("old", "new"), each = 30),
                        time = c(rlnorm(30, log(2e-5), 0.05), rlnorm(30, log(1.8e-5), 0.05))),
             data.frame(benchmark = "slow", version = rep(c("old", "new"), each = 30),
                        time = c(rlnorm(30, log(0.0123), 0.05), rlnorm(30, log(0.011), 0.05))))
  b <- ggplot2::ggplot_build(ggplot2::autoplot(as_timings(d)))
  fast <- stats::na.omit(b$layout$panel_params[[1L]]$y$get_labels())
  slow <- stats::na.omit(b$layout$panel_params[[2L]]$y$get_labels())
  expect_true(all(grepl("^[0-9.]+ us$", fast)))
  expect_true(all(grepl("^[0-9.]+ ms$", slow)))
  # the numbers are the breaks in that unit
  br <- b$layout$panel_params[[2L]]$y$breaks
  br <- br[!is.na(br)]
  expect_equal(as.numeric(sub(" ms", "", slow)), br * 1000, tolerance = 1e-9)
})
