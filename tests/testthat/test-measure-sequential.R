# Runs of a sequential stop (measure(.until = "decided")) analysed again
# keep their design (SPEC section 10): the looks repeated on the runs, the
# verdict of the look that decided at its level, the same answer after the
# runs were written and read back, and in `compare`.

# measure()'s loop with simulated runs (no process is run): version b is
# `speedup` times faster.
sequential_runs <- function(speedup, seed, test = "median", max_runs = 60L) {
  set.seed(seed)
  fake <- function(v, ctx) {
    s <- if (identical(v$name, "b")) speedup else 1
    list(time = rlnorm(1, log(0.1), 0.05) / s, user = 0, sys = 0, max_rss = NA_real_,
         exit_status = 0L, start = 0, status = "ok")
  }
  ctx <- list(versions = list(list(name = "a", kind = "command", what = "a", label = "a"),
                              list(name = "b", kind = "command", what = "b", label = "b")),
              setup = NULL, cleanup = NULL, timeout = Inf, output = NULL,
              env = globalenv(), name = "sim", machine = list(), timer = list(),
              order = "interleaved", warmup = 0L, until = "decided")
  plan <- measure_plan(2L, 31L, 0L, "interleaved", "decided", max_runs)
  rule <- sequential_rule(plan$looks, max_runs, 0.05, test)
  measure_loop(ctx, plan, rule, runner = fake)
}

test_that("the analysis of a sequential stop repeats its looks and agrees with it", {
  for (case in list(list(1.06, 1), list(1 / 1.06, 2), list(1.02, 3), list(1, 4))) {
    t <- sequential_runs(case[[1]], case[[2]])
    sq <- attr(t, "sequential")
    v <- median_test(t)
    expect_identical(v$direction %in% c("speedup", "slowdown"),
                     sq$decision %in% c("speedup", "slowdown"))
    if (sq$decision != "none") expect_identical(v$direction, sq$decision)
    # the verdict of the deciding look, at its level, on its runs
    j <- nrow(sq$looks)
    expect_identical(v$sequential$look, j)
    expect_equal(v$alpha, sq$level)
    expect_identical(v$n, sq$looks$runs[j])
    ref <- median_test(t$time[t$version == "a"][seq_len(v$n)],
                       t$time[t$version == "b"][seq_len(v$n)],
                       alpha = sq$level, rigorous = v$n > 30)
    expect_equal(v$p_value, ref$p_value, tolerance = 1e-12)
    expect_equal(v$p_value, sq$looks$p_speedup[j], tolerance = 1e-12)
    # the sequential p-value is at most alpha exactly when a look decided
    p_seq <- if (identical(v$direction, "slowdown")) v$sequential$p_value_slowdown else
      v$sequential$p_value
    expect_identical(p_seq <= 0.05, sq$decision != "none")
    expect_match(paste(format(v), collapse = " "), "sequential design")
    # written as `speeduptest measure --export` writes it and read back
    f <- withr::local_tempfile(fileext = ".csv")
    measure_cli_export(t, f)
    v2 <- median_test(read_timings(f))
    expect_identical(v2$direction, v$direction)
    expect_equal(v2$p_value, v$p_value, tolerance = 1e-12)
    expect_identical(v2$sequential$look, j)
    # compare on that file without a tolerance: the same decision, from the
    # sequential p-value
    out <- utils::capture.output(st <- cli_compare(c(f, "--output", "json",
                                                     "--tolerance", "0")))
    js <- jsonlite::fromJSON(paste(out, collapse = "\n"))
    expect_identical(js$comparisons$decision, v$direction)
    expect_equal(js$comparisons$p_speedup, v$sequential$p_value, tolerance = 1e-9)
    expect_match(js$comparisons$note, "sequential design: look")
  }
})

test_that("another protocol repeats the looks; a forced fixed design says what it loses", {
  t <- sequential_runs(1.06, 11)
  w <- mean_test(t)
  expect_false(is.null(w$sequential))
  expect_match(paste(w$notes, collapse = " "), "stopped by the median protocol")
  # `alpha` given: the looks at that overall risk
  expect_equal(median_test(t, alpha = 0.01)$sequential$alpha, 0.01)
  v <- median_test(t, design = "unpaired")
  expect_null(v$sequential)
  expect_false(v$confidence_guaranteed)
  expect_match(paste(v$notes, collapse = " "), "does not keep its risk")
})

test_that("A/A streams: the analysis again claims within alpha and agrees with the stop", {
  res <- vapply(1:60, function(i) {
    t <- sequential_runs(1, 100 + i, max_runs = 40L)
    c(attr(t, "sequential")$decision, median_test(t)$direction)
  }, c("", ""))
  expect_identical(res[2, ] %in% c("speedup", "slowdown"), res[1, ] != "none")
})

test_that("the progress line keeps its width and explains its status", {
  w <- 80L
  lines <- c(measure_progress_line(0L, 62L, 0, "", width = w),
             measure_progress_line(5L, 62L, 3, "", width = w),
             measure_progress_line(40L, 62L, 3.4, "| look 2 of 6: undecided", width = w),
             measure_progress_line(62L, 62L, 4000, "| look 6 of 6: speedup", width = w),
             measure_progress_line(1234L, 100000L, 86000, strrep("x", 200), width = w))
  expect_identical(nchar(lines), rep(w - 1L, length(lines)))
  # the bar's brackets stay in place
  expect_length(unique(regexpr("]", lines, fixed = TRUE)), 1L)
  for (nw in c(40L, 60L)) {
    l2 <- c(measure_progress_line(3L, 10L, 1, "", width = nw),
            measure_progress_line(9L, 10L, 100, "| look 3 of 4: undecided", width = nw))
    expect_identical(nchar(l2), rep(nw - 1L, 2L))
  }
  # the sequential status names the look and its decision, no bare "p a/b"
  set.seed(21)
  rule <- sequential_rule(sequential_looks(40L), 40L, 0.05, "median")
  st <- new.env()
  st$n <- 20L
  st$version <- rep(1:2, 10)
  st$time <- rlnorm(20)
  st$looks <- list()
  sequential_step(st, rule, 1L)
  expect_identical(st$status_text, "| look 1 of 5: undecided")
})
