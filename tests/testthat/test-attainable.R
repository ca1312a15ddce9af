# Levels a verdict's sizes cannot reach, and intervals that agree with the
# decision (R/attainable.R; issue 29).  References: the exact laws'
# floors in closed form (1 / choose(n + m, n) for the rank sum, 2^-n for
# the signed rank), the Hodges-Lehmann order statistics counted by brute
# force, and R's wilcox.test.

test_that("3 against 3 runs at alpha = 0.01: no 98% interval, the smallest attainable alpha, no detectable", {
  x <- c(1.2, 1.3, 1.25)
  y <- c(1.0, 1.01, 1.02)
  v <- median_test(x, y, alpha = 0.01)
  expect_identical(v$direction, "none")
  # the rank-sum floor: every x above every y
  expect_equal(unname(v$min_alpha), rep(1 / choose(6, 3), 2))
  expect_true(all(is.na(v$speedup_ci)))
  # the widest exact interval reaches 1 - 2 / choose(6, 3) = 90% only
  expect_equal(attr(v$speedup_ci, "attainable"), 1 - 2 / choose(6, 3))
  expect_identical(v$detectable, Inf)
  txt <- paste(format(v), collapse = " ")
  txt <- gsub("\\s+", " ", txt)
  expect_match(txt, "no 98% interval with 3 and 3 runs", fixed = TRUE)
  expect_match(txt, "reaches 90% at most", fixed = TRUE)
  expect_match(txt, "smallest p-value the Wilcoxon-Mann-Whitney test can reach is 0.0500 (the smallest attainable alpha)",
               fixed = TRUE)
  expect_match(txt, "take alpha >= 0.0500, or more runs", fixed = TRUE)
  expect_no_match(txt, "98% interval, each end")
  expect_true(is.na(as.data.frame(v)$speedup_low))
  expect_true(is.na(tidy(v)$conf.low))
  expect_identical(glance(v)$detectable, Inf)
  # at alpha = 0.05 the floor is reached: the widest interval is the 90% one
  w <- median_test(x, y, alpha = 0.05)
  expect_identical(w$direction, "speedup")
  d <- sort(outer(log(x), log(y), "-"))
  expect_equal(as.double(w$speedup_ci), exp(range(d)))
  expect_null(attr(w$speedup_ci, "attainable"))
})

test_that("4 against 4 processes and 6 rounds at alpha = 0.01 cannot declare a change", {
  set.seed(291)
  d <- data.frame(benchmark = "b", version = rep(c("old", "new"), each = 12),
                  process = rep(1:8, each = 3),
                  time = c(rlnorm(12, 0.2, 0.01), rlnorm(12, 0, 0.01)))
  v <- median_test(as_timings(d), alpha = 0.01)
  expect_identical(c(v$n, v$m), c(4L, 4L))
  expect_identical(v$direction, "none")
  expect_equal(min(v$min_alpha), 1 / choose(8, 4))
  expect_true(all(is.na(v$speedup_ci)))
  # within wilcox.test's tolerance (it would label this 98%), yet short of it
  expect_equal(attr(v$speedup_ci, "attainable"), 1 - 2 / choose(8, 4))
  expect_identical(v$detectable, Inf)
  expect_match(paste(format(v), collapse = " "), "4 and 4\\s+processes")

  r <- data.frame(benchmark = "b", version = rep(c("old", "new"), 6),
                  round = rep(1:6, each = 2),
                  time = as.vector(rbind(rlnorm(6, 0.2, 0.01), rlnorm(6, 0, 0.01))))
  p <- median_test(as_timings(r), alpha = 0.01)
  expect_identical(p$design$design, "paired")
  expect_equal(unname(p$min_alpha), rep(2^-6, 2))
  expect_equal(attr(p$speedup_ci, "attainable"), 1 - 2 * 2^-6)
  expect_identical(p$detectable, Inf)
  expect_match(gsub("\\s+", " ", paste(format(p), collapse = " ")),
               "at alpha = 0.01 with 6 rounds", fixed = TRUE)
  # 7 rounds reach it
  r7 <- data.frame(benchmark = "b", version = rep(c("old", "new"), 7),
                   round = rep(1:7, each = 2),
                   time = as.vector(rbind(rlnorm(7, 0.2, 0.01), rlnorm(7, 0, 0.01))))
  p7 <- median_test(as_timings(r7), alpha = 0.01)
  expect_identical(p7$direction, "speedup")
  expect_false(anyNA(p7$speedup_ci))
  expect_gt(p7$speedup_ci[1L], 1)
})

test_that("the floor of the rank-sum test counts the ties, and the t-tests have none", {
  # two tie groups: the most extreme arrangement has the exact conditional
  # p-value of R's coin-free count: choose over the tie pattern
  x <- c(2, 2, 2, 1)
  y <- c(1, 1, 1, 1)
  v <- median_test(x, y, alpha = 0.01, rigorous = FALSE)
  # extreme arrangement: x = (2, 2, 2, 1), y all 1 is already it; the
  # conditional law of the rank sum given 3 values 2 and 5 values 1:
  # P(all three 2s in x) = choose(5, 1) / choose(8, 4)
  expect_equal(v$min_alpha[["speedup"]], choose(5, 1) / choose(8, 4))
  m <- mean_test(c(1.2, 1.3, 1.25), c(1.0, 1.01, 1.02), alpha = 0.01)
  expect_equal(unname(m$min_alpha), c(0, 0))
  expect_false(anyNA(m$speedup_ci))
})

test_that("the interval's one-sided end is the decision's test: 3 against 3 at alpha = 0.1", {
  x <- c(1.023009, 1.074179, 1.094100)
  y <- c(0.9656289, 1.0100073, 1.0471652)
  v <- median_test(x, y, alpha = 0.1)
  # p = P(W >= 8) = 2 / 20 = 0.1 <= alpha: significant
  expect_equal(v$p_value, stats::wilcox.test(x, y, alternative = "greater")$p.value)
  expect_identical(v$direction, "speedup")
  # the one-sided 90% lower bound is the second smallest log difference
  # (P(W <= 1) = 0.1 <= alpha), which lies above 0
  d <- sort(outer(log(x), log(y), "-"))
  expect_equal(v$speedup_ci[[1L]], exp(d[2L]))
  expect_gt(v$speedup_ci[[1L]], 1)
})

test_that("ties on the boundary: the end the test rejects is open, an empty set is said", {
  x <- c(1.05, 1.02, 1.02, 1.02, 0.99, 1.02, 0.96, 0.99, 1.02, 1.02, 0.99, 1.02,
         1.02, 0.99)
  y <- c(0.96, 0.96, 0.99, 0.99)
  v <- median_test(x, y, min_speedup = 1.02)
  expect_identical(v$direction, "speedup")
  ci <- v$speedup_ci
  expect_equal(ci[[1L]], 1.02)
  expect_identical(attr(ci, "open"), c(TRUE, FALSE))
  txt <- gsub("\\s+", " ", paste(format(v), collapse = " "))
  expect_match(txt, "(1.02, ", fixed = TRUE)
  expect_match(txt, "open at 1.02: the test rejects it", fixed = TRUE)

  # runs tied at the timer's resolution: the speedup test rejects 1, and the
  # slowdown test every shift off it
  x <- rep(c(0.9, 0.975, 1.05, 1.125), c(1, 32, 15, 3))
  y <- rep(c(0.9, 0.975, 1.05, 1.125), c(6, 35, 8, 2))
  w <- median_test(x, y)
  expect_identical(w$direction, "speedup")
  expect_true(all(is.na(w$speedup_ci)))
  expect_true(isTRUE(attr(w$speedup_ci, "empty")))
  # R's own interval of the same data is inverted (its ends cross)
  r <- suppressWarnings(stats::wilcox.test(log(x), log(y), conf.int = TRUE,
                                           conf.level = 0.9))$conf.int
  expect_gt(r[1L], r[2L])
  expect_match(gsub("\\s+", " ", paste(format(w), collapse = " ")),
               "no shift of the log times is consistent with the tied runs", fixed = TRUE)
})

test_that("random verdicts print no interval that contradicts their decision or a level they lack", {
  set.seed(2929)
  bad <- 0L
  for (i in 1:150) {
    alpha <- sample(c(0.01, 0.05, 0.1), 1)
    n <- sample(3:45, 1)
    m <- sample(3:45, 1)
    s0 <- sample(c(1, 1.02), 1)
    step <- sample(c(0.01, 0.03), 1)
    x <- round(rlnorm(n, 0, 0.03) / step) * step
    y <- round(rlnorm(m, log(1 / sample(c(1, 1.02, 1.05), 1)), 0.03) / step) * step
    v <- median_test(x, y, alpha = alpha, rigorous = FALSE, min_speedup = s0)
    ci <- as.double(v$speedup_ci)
    open <- attr(v$speedup_ci, "open") %||% c(FALSE, FALSE)
    floor_p <- 1 / choose(n + m, n)
    if (n < 50 && m < 50 && floor_p > alpha && !anyNA(ci)) bad <- bad + 1L
    if (anyNA(ci) || is.na(v$direction)) next
    bad <- bad + switch(v$direction,
      speedup = ci[1] < s0 || (ci[1] == s0 && !open[1]),
      slowdown = ci[2] > 1 / s0 || (ci[2] == 1 / s0 && !open[2]),
      none = ci[1] > s0 || ci[2] < 1 / s0,
      FALSE)
  }
  expect_identical(bad, 0L)
})

test_that("compare says why nothing can be declared, in text, Markdown and JSON", {
  skip_if_not_installed("jsonlite")
  f <- tempfile(fileext = ".csv")
  on.exit(unlink(f))
  d <- data.frame(benchmark = "b", version = rep(c("old", "new"), each = 3),
                  time = c(1.2, 1.3, 1.25, 1.0, 1.01, 1.02))
  utils::write.csv(d, f, row.names = FALSE)
  out <- function(fmt) {
    res <- utils::capture.output(speeduptest:::cli_compare(
      c(f, "--alpha", "0.01", "--p-adjust", "none", "--output", fmt)))
    paste(res, collapse = "\n")
  }
  txt <- gsub("\\s+", " ", out("text"))
  expect_match(txt, "the smallest attainable alpha is 0.0500", fixed = TRUE)
  md <- gsub("\\s+", " ", out("markdown"))
  expect_match(md, "the smallest attainable alpha is 0.0500", fixed = TRUE)
  js <- jsonlite::fromJSON(out("json"))
  expect_equal(js$comparisons$min_alpha, 0.05)
  expect_true(all(is.na(unlist(js$comparisons$interval))))
})

test_that("a suite gives no interval at a level its sizes cannot reach, and says why", {
  s <- speedup_suite(list(small = list(x = c(1.2, 1.3, 1.25), y = c(1.0, 1.01, 1.02)),
                          big = list(x = 1 + (1:20) / 100, y = 0.9 + (1:20) / 100)),
                     conf_level = 0.99)
  bm <- s$benchmarks
  i <- match("small", bm$benchmark)
  expect_true(is.na(bm$median_ci_low[i]) && is.na(bm$median_ci_high[i]))
  expect_match(bm$median_caveats[i], "no 98% interval with 3 and 3 runs", fixed = TRUE)
  expect_identical(bm$median_detectable[i], Inf)
  j <- match("big", bm$benchmark)
  expect_false(is.na(bm$median_ci_low[j]))
})
