# min_speedup, equivalence, detectable and plan_runs() (SPEC section 10).

tol_p <- function(x, y, test, pooled, s0) {
  speeduptest:::tolerance_p_values(x, y, test, pooled, s0)
}

test_that("the tolerance tests are Welch's and the rank-sum test of x against s0 y", {
  set.seed(11)
  for (i in 1:5) {
    n <- sample(c(8, 35, 60), 1)
    m <- sample(c(10, 40, 70), 1)
    x <- rlnorm(n, 0, 0.05)
    y <- rlnorm(m, -0.02, 0.08)
    s0 <- runif(1, 1, 1.1)
    p <- tol_p(x, y, "mean", FALSE, s0)
    ref <- c(t.test(x, s0 * y, alternative = "greater")$p.value,
             t.test(y, s0 * x, alternative = "greater")$p.value,
             t.test(x, s0 * y, alternative = "less")$p.value,
             t.test(y, s0 * x, alternative = "less")$p.value)
    expect_lt(rel_diff(p, ref), 1e-10)
    p <- tol_p(x, y, "median", FALSE, s0)
    ref <- c(wilcox.test(x, s0 * y, alternative = "greater")$p.value,
             wilcox.test(y, s0 * x, alternative = "greater")$p.value,
             wilcox.test(x, s0 * y, alternative = "less")$p.value,
             wilcox.test(y, s0 * x, alternative = "less")$p.value)
    expect_lt(rel_diff(p, ref), 1e-10)
    # Student's branch: the pooled variance of x and y, se sp sqrt(1/n + s0^2/m)
    p <- tol_p(x, y, "mean", TRUE, s0)
    sp2 <- ((n - 1) * var(x) + (m - 1) * var(y)) / (n + m - 2)
    t1 <- (mean(x) - s0 * mean(y)) / sqrt(sp2 * (1 / n + s0^2 / m))
    t2 <- (mean(y) - s0 * mean(x)) / sqrt(sp2 * (1 / m + s0^2 / n))
    ref <- c(pt(t1, n + m - 2, lower.tail = FALSE), pt(t2, n + m - 2, lower.tail = FALSE),
             pt(t1, n + m - 2), pt(t2, n + m - 2))
    expect_lt(rel_diff(p, ref), 1e-10)
  }
})

test_that("with ties the rank-sum tests against s0 y are exact (enumeration)", {
  x <- c(10, 10, 11, 12, 12, 13)
  y <- c(9, 9.5, 10, 10, 10.5)
  s0 <- 1.1   # s0 * y ties with x at 11
  p <- tol_p(x, y, "median", FALSE, s0)
  sy <- s0 * y
  v <- c(x, sy)
  r <- rank(v)
  obs <- sum(r[seq_along(x)])
  null <- combn(length(v), length(x), function(i) sum(r[i]))
  expect_equal(p[1], mean(null >= obs - 1e-9), tolerance = 1e-12)
  expect_equal(p[3], mean(null <= obs + 1e-9), tolerance = 1e-12)
})

test_that("min_speedup = 1 is the paper's test, and never says equivalent", {
  set.seed(12)
  x <- rlnorm(40, 0, 0.05)
  y <- rlnorm(40, -0.01, 0.05)
  for (f in list(mean_test, median_test)) {
    a <- f(x, y)
    b <- f(x, y, min_speedup = 1)
    expect_identical(a$p_value, b$p_value)
    expect_identical(a$direction, b$direction)
    expect_identical(b$min_speedup, 1)
  }
  same <- rlnorm(500, 0, 0.001)
  expect_false(identical(median_test(same, rev(same))$direction, "equivalent"))
})

test_that("the verdict decides on the tolerance tests and tells it", {
  set.seed(13)
  x <- 1 + 0.01 * rnorm(100)
  y <- (1 + 0.01 * rnorm(100)) / 1.01      # 1 % faster
  v0 <- median_test(x, y)
  expect_identical(v0$direction, "speedup")
  v <- median_test(x, y, min_speedup = 1.03)
  expect_identical(v$direction, "equivalent")
  expect_false(v$significant)
  expect_identical(v$decision, "equivalent")
  p <- tol_p(x, y, "median", FALSE, 1.03)
  expect_identical(v$p_value, p[1])
  expect_identical(v$p_value_equivalence, max(p[3:4]))
  out <- format(v)
  expect_match(out[1], "equivalent within 3 % at 95% confidence", fixed = TRUE)
  expect_true(any(grepl("tolerance 3 %", out, fixed = TRUE)))
  expect_true(all(nchar(out) <= 80))
  # a 10 % slowdown is declared beyond a 3 % tolerance, and said so
  w <- mean_test(x, x * 1.1 + 0.001 * rnorm(100), min_speedup = 1.03)
  expect_identical(w$direction, "slowdown")
  expect_match(format(w)[1], "significant slowdown beyond 3 %", fixed = TRUE)
  df <- as.data.frame(v)
  expect_identical(df$direction, "equivalent")
  expect_identical(df$min_speedup, 1.03)
  expect_identical(glance(v)$direction, "equivalent")
  expect_identical(glance(v)$min_speedup, 1.03)
  expect_match(tidy(v)$method, "against 1.03 y", fixed = TRUE)
  # the plot says it too
  f <- tempfile(fileext = ".png")
  grDevices::png(f, 700, 500)
  plot(v)
  grDevices::dev.off()
  expect_gt(file.size(f), 1000)
  expect_identical(speeduptest:::verdict_plot_title(v),
                   "Median run time: equivalent within 3 % (95% confidence)")
})

test_that("bad tolerances are classed errors naming the argument", {
  for (bad in list(0.99, NA, "1.02", c(1, 2), Inf, -1)) {
    expect_error(median_test(1:5 + 10, 1:5 + 10, min_speedup = bad),
                 class = "speeduptest_error_input", regexp = "min_speedup")
  }
  expect_error(median_test(1:5 + 10, 1:5 + 10, margin = 0.01),
               class = "speeduptest_error_argument", regexp = "min_speedup = 1.01")
  expect_error(speedup_suite(list(a = list(x = 1:5 + 10, y = 1:5 + 11)),
                             conf_level = NA, min_speedup = 1.01),
               class = "speeduptest_error_input", regexp = "min_speedup")
})

test_that("the C decision of the simulations is the verdict's direction", {
  set.seed(14)
  for (i in 1:150) {
    n <- sample(c(5, 20, 31, 45, 80), 1)
    x <- rlnorm(n, 0, runif(1, 0.005, 0.05))
    y <- rlnorm(sample(c(5, 20, 31, 45, 80), 1), rnorm(1, 0, 0.02), 0.02)
    if (i %% 5 == 0) y <- round(y, 2)
    s0 <- sample(c(1, 1.005, 1.02), 1)
    test <- sample(c("mean", "median"), 1)
    f <- if (test == "mean") mean_test else median_test
    v <- f(x, y, min_speedup = s0)
    code <- .Call(speeduptest:::ffi_decide, x, y,
                  speeduptest:::protocol_code(test), 0.05, TRUE, s0)
    dir <- speeduptest:::st_code_name("direction", code)
    if (dir == "na") dir <- NA_character_
    expect_identical(dir, v$direction, label = sprintf("case %d (%s, s0 %s)", i, test, s0))
  }
})

test_that("equivalence holds its level and its power (fixed-seed simulation)", {
  set.seed(15)
  aa <- mean(replicate(200, median_test(1 + 0.01 * rnorm(100), 1 + 0.01 * rnorm(100),
                                        min_speedup = 1.02)$direction == "equivalent"))
  expect_gte(aa, 0.9)
  wrong <- mean(replicate(200, mean_test(1 + 0.01 * rnorm(100),
                                         (1 + 0.01 * rnorm(100)) / 1.03,
                                         min_speedup = 1.02)$direction == "equivalent"))
  expect_lte(wrong, 0.05)
})

test_that("detectable is the speedup declared with probability 0.8", {
  set.seed(16)
  x <- 1 + 0.02 * rnorm(60)
  y <- 1 + 0.02 * rnorm(60)
  for (test in c("median", "mean")) {
    f <- if (test == "mean") mean_test else median_test
    v <- f(x, y)
    skip_if(v$direction != "none")
    d <- v$detectable
    expect_gt(d, 1)
    expect_lt(d, 1.05)
    hit <- mean(replicate(300, isTRUE(f(1 + 0.02 * rnorm(60),
                                       (1 + 0.02 * rnorm(60)) / d)$significant)))
    expect_gt(hit, 0.7)
    expect_lt(hit, 0.9)
    expect_true(any(grepl("detectable:", format(v))))
  }
  # a verdict that declares something has no detectable speedup
  expect_true(is.na(median_test(x, y / 1.1)$detectable))
})

test_that("highest_confidence() with a tolerance is exact", {
  set.seed(17)
  x <- 1 + 0.01 * rnorm(50)
  y <- (1 + 0.01 * rnorm(50)) / 1.03
  for (test in c("median", "mean")) {
    f <- if (test == "mean") mean_test else median_test
    h <- highest_confidence(x, y, test = test, min_speedup = 1.01)
    a <- attr(h, "alpha")
    expect_true(isTRUE(f(x, y, alpha = a, min_speedup = 1.01)$significant))
    expect_false(isTRUE(f(x, y, alpha = a * (1 - 1e-9), min_speedup = 1.01)$significant))
    # a larger tolerance is harder to beat
    h2 <- highest_confidence(x, y, test = test, min_speedup = 1.02)
    expect_lte(as.numeric(h2), as.numeric(h))
  }
  expect_true(is.na(highest_confidence(x, x * 1.001, min_speedup = 1.05)))
})

test_that("plan_runs() reaches its power, leaves R's random numbers alone", {
  set.seed(18)
  x <- 1 + 0.01 * rnorm(80)
  y <- 1 + 0.01 * rnorm(80)
  seed <- .Random.seed
  p <- plan_runs(x, y, speedup = 1.008, reps = 400)
  expect_identical(.Random.seed, seed)
  expect_identical(plan_runs(x, y, speedup = 1.008, reps = 400)$runs, p$runs)
  expect_s3_class(p, "speedup_plan")
  r <- speeduptest:::plan_samples(x, y, "median")
  # the resampled versions differ by the speedup asked for only: the
  # Hodges-Lehmann shift of their log times is 0 before it is applied
  expect_lt(abs(wilcoxon_test(log(r$x), log(r$y), conf_int = TRUE)$estimate[[1]]), 1e-12)
  expect_gte(p$power, 0.8)
  sim <- function(k) .Call(speeduptest:::ffi_power_sim, r$x, r$y,
                           1.008, 1L, 0.05, TRUE, 1, 1L, as.double(k), as.double(k),
                           400, 1, r$smooth)$power
  expect_gte(sim(p$runs), 0.8)
  expect_lt(sim(p$runs - 1), 0.8)
  out <- format(p)
  expect_match(out[1], sprintf("About %d runs of each version would detect a 0.8 %% speedup",
                               p$runs), fixed = TRUE)
  expect_true(all(nchar(out) <= 80))
  # the same from a verdict, and a slowdown
  v <- median_test(x, y)
  expect_identical(plan_runs(v, speedup = 1.008, reps = 400)$runs, p$runs)
  expect_gt(plan_runs(x, y, speedup = 1 / 1.008, reps = 400)$runs, 3)
  # a change within the tolerance is never declared
  expect_error(plan_runs(x, y, speedup = 1.01, min_speedup = 1.02),
               class = "speeduptest_error_input", regexp = "tolerance")
  expect_error(plan_runs(x, y, power = 1.2), class = "speeduptest_error_input")
  expect_error(plan_runs(x, y, reps = 0), class = "speeduptest_error_input")
  # more noise, more runs
  expect_gt(plan_runs(x * (1 + 0.02 * rnorm(80)), y, speedup = 1.008, reps = 400)$runs,
            p$runs)
})

test_that("plan_runs() counts processes when the timings have them", {
  set.seed(19)
  mk <- function(v, k, r, shift) {
    eff <- rep(rnorm(k, 0, 0.01), each = r)
    data.frame(benchmark = "b", version = v, process = rep(seq_len(k), each = r),
               time = (1 + eff + 0.002 * rnorm(k * r)) / shift)
  }
  d <- rbind(mk("old", 10, 5, 1), mk("new", 10, 5, 1))
  t <- as_timings(d)
  skip_if(is.null(t[["process"]]), "these timings do not keep the process")
  p <- plan_runs(t, speedup = 1.01, reps = 300)
  expect_identical(p$unit, "process")
  expect_identical(p$runs, p$processes * 5)
  expect_match(format(p)[1], "processes of each version")
})

test_that("the advice of a verdict that decides nothing agrees with plan_runs()", {
  # the print's figure is plan_runs() of the verdict, with its defaults
  for (seed in c(20, 3)) {
    set.seed(seed)
    x <- 1 + 0.02 * rnorm(40)
    y <- 1 + 0.02 * rnorm(40)
    for (f in list(median_test, mean_test)) {
      v <- f(x, y)
      if (v$direction != "none") next
      adv <- paste(grep("advice:", format(v), value = TRUE), collapse = " ")
      # no advice when the runs at hand already detect a 1 % speedup
      if (!nzchar(adv)) {
        expect_lte(v$detectable, 1.01)
        next
      }
      expect_match(adv, "runs of each would detect a 1 % speedup", fixed = TRUE)
      k <- as.numeric(sub(".*about ([0-9,]+) runs.*", "\\1", gsub(",", "", adv)))
      expect_identical(k, plan_runs(v)$runs)
    }
  }
})

test_that("speedup_suite(min_speedup =) decides each benchmark as the protocol does", {
  set.seed(21)
  change <- c(1, 1, 1.03, 1 / 1.03, 1.005, 1)
  suite <- lapply(change, function(s) list(x = 1 + 0.01 * rnorm(60),
                                           y = (1 + 0.01 * rnorm(60)) / s))
  names(suite) <- paste0("b", seq_along(suite))
  r <- speedup_suite(suite, min_speedup = 1.01)
  bm <- r$benchmarks
  for (j in seq_along(suite)) {
    v <- median_test(suite[[j]]$x, suite[[j]]$y, min_speedup = 1.01)
    w <- mean_test(suite[[j]]$x, suite[[j]]$y, min_speedup = 1.01)
    expect_identical(bm$median_direction[j], v$direction)
    expect_equal(bm$median_p_value[j], v$p_value, tolerance = 1e-12)
    expect_equal(bm$median_p_value_equivalence[j], v$p_value_equivalence, tolerance = 1e-12)
    expect_identical(bm$mean_direction[j], w$direction)
    expect_equal(bm$mean_p_value[j], w$p_value, tolerance = 1e-12)
    if (identical(v$direction, "none")) {
      expect_equal(bm$median_detectable[j], v$detectable, tolerance = 1e-10)
    }
  }
  expect_true("equivalent" %in% bm$median_direction)
  expect_identical(r$proportion$equivalent[2], sum(bm$median_direction == "equivalent"))
  expect_true(any(grepl("Tolerance 1 %", format(r), fixed = TRUE)))
  expect_true(all(nchar(format(r)) <= 80))
  out <- utils::capture.output(print(summary(r)))
  expect_true(any(grepl("equiv.", out, fixed = TRUE)))
  # with Holm's adjustment the decisions follow the adjusted p-values
  h <- speedup_suite(suite, min_speedup = 1.01, p_adjust = "holm")
  expect_equal(h$benchmarks$median_p_adjusted,
               p.adjust(bm$median_p_value, "holm"), tolerance = 1e-12)
  f <- tempfile(fileext = ".png")
  grDevices::png(f, 700, 500)
  plot(r)
  grDevices::dev.off()
  expect_gt(file.size(f), 1000)
})

test_that("the suite's variances are R's var() of each sample, bit for bit", {
  set.seed(21)
  samples <- lapply(1:300, function(i) {
    rlnorm(sample(c(1:5, 31, 200), 1), runif(1, -30, 30), runif(1, 1e-6, 1))
  })
  lens <- lengths(samples)
  starts <- c(0, cumsum(lens)[-length(lens)])
  v <- .Call(speeduptest:::ffi_suite_variances, unlist(samples),
             as.double(starts), as.double(lens))
  ref <- vapply(samples, function(s) if (length(s) < 2L) NA_real_ else stats::var(s), 0)
  expect_identical(v, ref)
  # and the suite's detectable speedups of the mean protocol are the verdicts'
  suite <- lapply(1:40, function(i) list(x = rlnorm(12, 0, 0.05), y = rlnorm(12, 0, 0.05)))
  names(suite) <- paste0("b", 1:40)
  s <- speedup_suite(suite, conf_level = 0.95)
  d <- vapply(suite, function(b) mean_test(b$x, b$y)$detectable, 0)
  expect_identical(unname(s$benchmarks$mean_detectable), unname(d))
})

test_that("plan_runs() refuses work past its bound before it starts", {
  x <- c(1.02, 0.98, 1.01, 0.99, 1.03, 0.97, 1.00, 1.02)
  y <- x * 0.99
  # the search could draw some 6e13 run times: refused at once
  expect_error(plan_runs(x, y, speedup = 1.0001, max_runs = 1e9),
               "would simulate up to .* lower `max_runs` or `reps`",
               class = "speeduptest_error_input")
  expect_error(plan_runs(x, y, reps = 2^53), "`reps`", class = "speeduptest_error_input")
  expect_error(plan_runs(x, y, reps = 2^31), "would simulate", class = "speeduptest_error_input")
  expect_error(plan_runs(x, y, max_runs = 2^53), "`max_runs`", class = "speeduptest_error_input")
  # the default search is within the bound
  expect_lte(speeduptest:::check_plan_work(1000, 10000), speeduptest:::plan_max_draws)
})

test_that("qt_each() gives stats::qt() value by value", {
  qt_each <- speeduptest:::qt_each
  set.seed(7)
  for (k in 1:60) {
    n <- sample(c(1, 63, 64, 500), 1)
    p <- sample(c(0.95, 0.8, NA, NaN, 0, 1, runif(3)), n, TRUE)
    df <- sample(c(1, 18, 58, 0, NA, Inf, 3.5), n, TRUE)
    if (k %% 3 == 0) p <- p[1]
    expect_identical(suppressWarnings(qt_each(p, df)), suppressWarnings(stats::qt(p, df)))
  }
})
