# tidy() and glance(): broom's columns, the numbers of the objects.

norm_s <- function(n, mean, sd) mean + sd * stats::qnorm(stats::ppoints(n))
before <- norm_s(20, 10, 1)
after <- norm_s(20, 9, 1)

test_that("tidy() of a verdict is its speedup, interval and final test", {
  v <- median_test(before, after)
  td <- tidy(v)
  expect_s3_class(td, "data.frame")
  expect_identical(nrow(td), 1L)
  # the interval's own estimate, inside it; the observed ratio apart
  expect_identical(td$estimate, attr(v$speedup_ci, "estimate"))
  expect_identical(td$observed, v$speedup)
  expect_identical(c(td$conf.low, td$conf.high), as.vector(v$speedup_ci))
  expect_true(td$conf.low <= td$estimate && td$estimate <= td$conf.high)
  expect_identical(td$p.value, v$p_value)
  expect_identical(td$method, v$steps$wilcoxon$method)
  expect_identical(td$conf.method, "Hodges-Lehmann on log times")
  expect_identical(td$alternative, "greater")
  # the same generic as broom's
  expect_identical(generics::tidy(v), td)
  expect_snapshot({
    tidy(v)
    tidy(mean_test(before, after))
    tidy(mean_test(c(1, 2), before))
  })
})

test_that("tidy(steps = TRUE) lists the sub-tests, glance() the decision", {
  v <- mean_test(before, after)
  st <- tidy(v, steps = TRUE)
  expect_identical(st$step, names(v$steps))
  expect_identical(st$p.value[st$step == "t_test"], v$steps$t_test$p.value)
  expect_identical(nrow(tidy(mean_test(c(1, 2), before), steps = TRUE)), 0L)
  gl <- glance(v)
  expect_identical(gl$decision, v$decision)
  expect_identical(gl$guaranteed, v$confidence_guaranteed)
  expect_identical(c(gl$n, gl$m), c(20L, 20L))
  expect_snapshot({
    tidy(v, steps = TRUE)
    glance(v)
    glance(median_test(c(1, 2), before))
  })
  expect_error(tidy(v, conf.int = TRUE), class = "speeduptest_error_argument")
})

test_that("tidy() and glance() of a suite", {
  two <- cpu_runs[cpu_runs$version %in% c("O1", "O3") &
                    cpu_runs$benchmark %in% c("fft", "crc", "matmul"), ]
  two$version <- droplevels(two$version)
  two$benchmark <- droplevels(two$benchmark)
  s <- speedup_suite(two)
  td <- tidy(s)
  expect_identical(td$benchmark, s$benchmarks$benchmark)
  expect_identical(td$estimate, s$benchmarks$median_ci_estimate)
  expect_identical(td$observed, s$benchmarks$speedup_median)
  ok <- !is.na(td$conf.low)
  expect_true(all(td$conf.low[ok] <= td$estimate[ok] & td$estimate[ok] <= td$conf.high[ok]))
  # the p-value of each decision (the slowdown's for a slowdown)
  slow <- s$benchmarks$median_direction %in% "slowdown"
  expect_identical(td$p.value[!slow], s$benchmarks$median_p_value[!slow])
  expect_identical(td$p.value[slow], s$benchmarks$median_p_value_slowdown[slow])
  expect_identical(tidy(s, which = "mean")$conf.low, s$benchmarks$mean_ci_low)
  gl <- glance(s)
  expect_identical(nrow(gl), 1L)
  expect_identical(gl$speedup_median, s$overall$speedup[3L])
  expect_identical(gl$accelerated_mean, s$proportion$a[1L])
  expect_snapshot({
    tidy(s)
    glance(s)
  })
})

test_that("tidy() and glance() of an HPT name the machines", {
  h <- hpt(splash2_hpt, higher_is_better = TRUE)
  td <- tidy(h)
  expect_identical(td$benchmark, h$benchmarks$benchmark)
  expect_setequal(unique(td$winner), c("X", "Y", "tie"))
  gl <- glance(h)
  expect_identical(c(gl$R_A, gl$R_B), c(80, 25))
  expect_identical(gl$confidence, h$confidence)
  x <- splash2_hpt
  x$score[x$machine == "X"] <- 1.76 * x$score[x$machine == "X"]
  sp <- hpt_speedup(x, higher_is_better = TRUE)
  expect_identical(glance(sp)$r_speedup, sp$speedup)
  expect_snapshot({
    head(tidy(h), 4)
    glance(h)
    glance(sp)
  })
})
