# history_changes(): per series, stable ids, incremental analysis,
# adjustment across series, machines never pooled, annotations, future.
# The detection is toy_series_changes() of helper-history.R, a stand-in with
# the interface of series_changes().

detect <- function(...) toy_series_changes(...)

test_that("the default detection (the certified scan) finds a step in its range", {
  h <- local_history()
  history_add(h, history_sim(commits = 60, benchmarks = 2, step_at = 31, step = 1.05,
                             stepped = 1), machine = "m1")
  ch <- history_changes(h)
  expect_equal(ch$benchmark, "bench1")
  expect_equal(ch$method, "scan")
  # the change came in at a commit of (range_from, range_to]
  expect_lt(ch$pos_from, 31)
  expect_gte(ch$pos_to, 31)
  expect_equal(ch$decision, "regression beyond 1 %")
  v <- speeduptest:::history_values(h, benchmark = "bench1")
  # each of the 2 series is scanned at alpha / 2 (Holm across them)
  ref <- series_changes(v$value, v$position, level = 0.05 / 2)
  expect_equal(ch$ratio, ref$ratio)
  expect_equal(ch$pos_first_bad, ref$first_bad)
  expect_equal(ch$pos_from, ref$range_from)
  expect_equal(ch$pos_to, ref$range_to)
  expect_lte(ch$p_adjusted, 0.05)
})

test_that("each series is scanned at alpha / m, so Holm across many series keeps the steps", {
  h <- local_history()
  # 40 series of 80 commits, 4 of them 3 % slower from commit 41
  history_add(h, history_sim(commits = 80, benchmarks = 40, iterations = 1,
                             step_at = 41, step = 1.03, stepped = c(3, 11, 25, 38),
                             seed = 7), machine = "m1")
  ch <- history_changes(h)
  expect_setequal(ch$benchmark, sprintf("bench%d", c(3, 11, 25, 38)))
  expect_true(all(ch$pos_from < 41 & ch$pos_to >= 41))
  expect_true(all(ch$p_adjusted <= 0.05))
  # the range of each is the one the scan certifies at 0.05 / 40
  v <- speeduptest:::history_values(h, benchmark = "bench11")
  ref <- series_changes(v$value, v$position, level = 0.05 / 40)
  expect_equal(ch$pos_from[ch$benchmark == "bench11"], ref$range_from)
  # scanned at alpha, the ranges are the shortest ones at 0.05, whose
  # p-values Holm over 40 series mostly discards
  few <- history_changes(h, level = 0.05)
  expect_lt(nrow(few), nrow(ch))
  expect_error(series_changes(v$value, v$position, level = 0.1),
               class = "speeduptest_error_input")
})

test_that("a step is found in its series only, with its commits and figures", {
  h <- local_history()
  history_add(h, history_sim(commits = 30, benchmarks = 3, step_at = 20, step = 1.1,
                             stepped = 2), machine = "m1")
  ch <- history_changes(h, method = detect)
  expect_s3_class(ch, "speedup_history_changes")
  expect_equal(nrow(ch), 1L)
  expect_equal(ch$benchmark, "bench2")
  expect_equal(ch$last_good, "c019")
  expect_equal(ch$first_bad, "c020")
  expect_equal(ch$pos_first_bad, 20)
  expect_true(ch$is_new)
  expect_true(ch$at_head)
  expect_equal(ch$state, "new")
  # the figures are the detection's on the series' per-process values
  v <- speeduptest:::history_values(h, benchmark = "bench2")
  ref <- toy_series_changes(v$value, v$position)
  expect_equal(ch$ratio, ref$ratio)
  expect_equal(ch$p_value, ref$p_value)
  expect_equal(ch$n_before, ref$n_before)
  expect_equal(attr(ch, "series"), 3L)
  # Holm over the 3 series: the smallest p-value times 3
  expect_equal(ch$p_adjusted, min(1, 3 * ref$p_value))
})

test_that("a change keeps its id and triage, is not reported twice, and only touched series are analysed", {
  h <- local_history()
  history_add(h, history_sim(commits = 30, benchmarks = 2, step_at = 15, step = 1.1,
                             stepped = 1:2), machine = "m1")
  first <- history_changes(h, method = detect)
  expect_equal(nrow(first), 2L)
  expect_equal(attr(first, "analysed"), 2L)
  history_triage(h, first$change_id[1], "acknowledged", note = "known: new allocator")
  again <- history_changes(h, method = detect)
  expect_equal(attr(again, "analysed"), 0L)
  expect_equal(again$change_id, first$change_id)
  expect_false(any(again$is_new))
  # new commits of one benchmark: only its series is analysed again
  t <- history_sim(commits = 5, benchmarks = 2, step_at = 1, step = 1.1, first = 31,
                   seed = 3)
  t <- t[t$benchmark == "bench1", ]
  history_add(h, t, machine = "m1")
  third <- history_changes(h, method = detect)
  expect_equal(attr(third, "analysed"), 1L)
  expect_equal(sort(third$change_id), sort(first$change_id))
  expect_equal(third$state[third$change_id == first$change_id[1]], "acknowledged")
  expect_equal(third$note[third$change_id == first$change_id[1]], "known: new allocator")
  expect_false(any(third$is_new))
  # another analysis (another alpha) analyses everything again, same ids
  fourth <- history_changes(h, method = detect, alpha = 0.01)
  expect_equal(attr(fourth, "analysed"), 2L)
  expect_equal(sort(fourth$change_id), sort(first$change_id))
  # refresh = TRUE too
  expect_equal(attr(history_changes(h, method = detect, alpha = 0.01, refresh = TRUE),
                    "analysed"), 2L)
})

test_that("a new change gets a new id; one no longer found is retired", {
  h <- local_history()
  history_add(h, history_sim(commits = 20, benchmarks = 1), machine = "m")
  expect_equal(nrow(history_changes(h, method = detect)), 0L)
  history_add(h, history_sim(commits = 15, benchmarks = 1, first = 21, step_at = 21,
                             step = 1.2, seed = 4), machine = "m")
  ch <- history_changes(h, method = detect)
  expect_equal(nrow(ch), 1L)
  expect_equal(ch$first_bad, "c021")
  expect_true(ch$is_new)
  # a detection that finds nothing retires it
  none <- function(value, position, ...) toy_series_changes(value, position, alpha = 1e-300)
  expect_equal(nrow(history_changes(h, method = none)), 0L)
  expect_equal(DBI::dbGetQuery(h$con, "SELECT COUNT(*) AS n FROM changes")$n, 1L)
})

test_that("series are never pooled across machines, and annotations split them", {
  h <- local_history()
  # two machines at levels 1 and 1.3, no change on either
  history_add(h, history_sim(commits = 20, benchmarks = 1, seed = 1), machine = "fast")
  history_add(h, history_sim(commits = 20, benchmarks = 1, seed = 2, base = 1.3),
              machine = "slow")
  expect_equal(nrow(history_changes(h, method = detect)), 0L)
  # one machine's series steps where its hardware changed
  h2 <- local_history()
  history_add(h2, history_sim(commits = 30, benchmarks = 1, step_at = 16, step = 1.3),
              machine = "box")
  expect_equal(nrow(history_changes(h2, method = detect)), 1L)
  history_annotate(h2, "box", commit = "c016", note = "new CPU")
  ch <- history_changes(h2, method = detect)
  expect_equal(nrow(ch), 0L)
  expect_equal(attr(ch, "series"), 2L)
})

test_that("the adjustment across series is Holm's or BH's over every series", {
  h <- local_history()
  history_add(h, history_sim(commits = 24, benchmarks = 4, step_at = 12, step = 1.05,
                             stepped = 1:2, sd = 0.02), machine = "m")
  raw <- lapply(sprintf("bench%d", 1:4), function(b) {
    v <- speeduptest:::history_values(h, benchmark = b)
    toy_series_changes(v$value, v$position)
  })
  pmin_s <- vapply(raw, function(r) if (nrow(r)) min(r$p_value) else 1, 0)
  for (m in c("holm", "BH", "none")) {
    ch <- history_changes(h, method = detect, p_adjust = m)
    q <- stats::p.adjust(pmin_s, m)
    keep <- which(q <= 0.05 & pmin_s < 1)
    expect_setequal(ch$benchmark, sprintf("bench%d", keep))
    for (b in keep) {
      expect_equal(min(ch$p_adjusted[ch$benchmark == sprintf("bench%d", b)]), q[b])
    }
  }
})

test_that("a series whose detection fails is skipped with its reason", {
  h <- local_history()
  history_add(h, history_sim(commits = 20, benchmarks = 2, step_at = 10, step = 1.2,
                             stepped = 1:2, base = c(1, 2)), machine = "m")
  # fails on the series at level 2 (bench2) while the option is set
  flaky <- function(value, position, ...) {
    if (isTRUE(getOption("flaky_fail")) && stats::median(value) > 1.5) {
      stop("cannot analyse this one")
    }
    toy_series_changes(value, position, ...)
  }
  withr::local_options(flaky_fail = TRUE)
  expect_warning(ch <- history_changes(h, method = flaky),
                 class = "speeduptest_warning_skipped", regexp = "cannot analyse")
  expect_equal(ch$benchmark, "bench1")
  expect_length(attr(ch, "skipped"), 1L)
  # the failed series is analysed next time
  withr::local_options(flaky_fail = FALSE)
  ch2 <- history_changes(h, method = flaky)
  expect_equal(attr(ch2, "analysed"), 1L)
  expect_equal(ch2$benchmark, c("bench1", "bench2"))
})

test_that("under a future plan the answers are the same", {
  skip_if_not_installed("future")
  skip_if_not_installed("future.apply")
  skip_on_cran()
  h1 <- local_history()
  h2 <- local_history()
  t <- history_sim(commits = 20, benchmarks = 4, step_at = 12, step = 1.1, stepped = c(1, 3))
  history_add(h1, t, machine = "m")
  history_add(h2, t, machine = "m")
  a <- history_changes(h1, method = detect)
  old <- future::plan(future::multisession, workers = 2)
  on.exit(future::plan(old), add = TRUE)
  withr::local_options(speeduptest.history_parallel_min = 0)
  b <- history_changes(h2, method = detect)
  cols <- c("change_id", "benchmark", "last_good", "first_bad", "ratio", "p_value",
            "p_adjusted", "decision")
  expect_equal(as.data.frame(b)[cols], as.data.frame(a)[cols])
  expect_equal(nrow(a), 2L)
})

test_that("the arguments are checked", {
  h <- local_history()
  expect_error(history_changes(h, method = detect, alpha = 2), class = "speeduptest_error_input")
  expect_error(history_changes(h, method = detect, p_adjust = "bonf"),
               class = "speeduptest_error_input")
  expect_error(history_changes(h, method = "nope"), class = "speeduptest_error_input")
  bad <- function(value, position, ...) data.frame(x = 1)
  history_add(h, history_sim(commits = 3, benchmarks = 1), machine = "m")
  expect_warning(history_changes(h, method = bad), regexp = "columns of series_changes")
})
