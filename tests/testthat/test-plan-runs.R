# plan_runs(), `detectable` and the advice: one computation, one plan
# (SPEC section 10, issue 29).

test_that("the suite's detectable is the verdict's, for every protocol", {
  # the issue's example: the suite read the 90 % interval with the normal
  # quantile of a 95 % one (1.00893 against the verdict's 1.01065)
  set.seed(3)
  x <- rlnorm(40, 0, .02)
  y <- rlnorm(40, 0, .02)
  s <- speedup_suite(list(a = list(x, y)), protocols = c("mean", "median", "prob"))
  for (p in c("mean", "median", "prob")) {
    v <- speeduptest:::protocol_fun(p, "default")(x, y)
    expect_identical(v$direction, "none")
    expect_identical(s$benchmarks[[paste0(p, "_detectable")]], v$detectable)
  }
  # the median's detectable from the interval's own level: 1.01065
  v <- median_test(x, y)
  ci <- v$speedup_ci
  se <- diff(log(as.double(ci))) / (2 * qnorm((1 + attr(ci, "conf.level")) / 2))
  expect_equal(v$detectable, exp((qnorm(0.95) + qnorm(0.8)) * se))
  expect_equal(round(v$detectable, 5), 1.01065)
})

test_that("a suite's detectable equals the verdicts' at other levels and sizes", {
  set.seed(29)
  suite <- lapply(1:30, function(i) {
    n <- sample(c(5, 12, 40), 1)
    list(x = rlnorm(n, 0, runif(1, 0.005, 0.05)), y = rlnorm(n, 0, 0.02))
  })
  names(suite) <- paste0("b", seq_along(suite))
  for (cl in c(0.95, 0.99)) {
    s <- speedup_suite(suite, conf_level = cl, protocols = c("mean", "median", "prob"))
    for (p in c("mean", "median", "prob")) {
      f <- speeduptest:::protocol_fun(p, "default")
      d <- vapply(suite, function(b) {
        v <- f(b$x, b$y, alpha = 1 - cl)
        if (identical(v$direction, "none")) v$detectable else NA_real_
      }, 0)
      got <- s$benchmarks[[paste0(p, "_detectable")]]
      expect_identical(is.na(got), is.na(unname(d)))
      expect_equal(got, unname(d), tolerance = 1e-12)
    }
  }
})

test_that("the advice of a verdict states plan_runs() of the verdict", {
  # before, the advice's figure came from a normal approximation (2,169
  # runs) and plan_runs() from the simulation (4,979)
  for (f in list(median_test, mean_test)) {
    set.seed(3)
    x <- rlnorm(40, 0, .03)
    y <- rlnorm(40, 0, .03)
    v <- f(x, y)
    expect_identical(v$direction, "none")
    adv <- grep("advice: about", format(v), value = TRUE)
    expect_length(adv, 1L)
    p <- plan_runs(v)
    k <- as.numeric(gsub(",", "", sub(".*about ([0-9,]+) runs.*", "\\1", adv)))
    expect_identical(k, p$runs)
    expect_identical(p$speedup, 1.01)
    # beyond 100 runs the plan is the normal approximation, and says so
    if (identical(p$method, "normal")) {
      expect_match(paste(format(v), collapse = " "), "normal approximation", fixed = TRUE)
    }
  }
  # with a tolerance, the change 1 % beyond it
  v <- median_test(x, y, min_speedup = 1.01)
  expect_equal(plan_runs(v)$speedup, 1.01 * 1.01)
})

test_that("with processes as the unit the advice and the plan count processes", {
  set.seed(29)
  mk <- function(v, off) {
    e <- rnorm(20, 0, .02)
    data.frame(benchmark = "b", version = v, process = rep(1:20, each = 3) + off,
               time = exp(rep(e, each = 3) + rnorm(60, 0, .005)))
  }
  t <- as_timings(rbind(mk("old", 0), mk("new", 100)))
  skip_if(is.null(t[["process"]]), "these timings do not keep the process")
  v <- median_test(t)
  skip_if(!identical(v$direction, "none"))
  p <- plan_runs(v)
  expect_identical(p$unit, "process")
  expect_identical(p$runs, 3 * p$processes)
  # the same plan from the timings
  pt <- plan_runs(t)
  expect_identical(pt$processes, p$processes)
  expect_identical(pt$runs, p$runs)
  out <- format(pt)
  expect_false(any(grepl("processs", out)))
  expect_true(any(grepl("the 20 and 20 observed processes", paste(out, collapse = " "),
                        fixed = TRUE)))
  adv <- paste(grep("advice: about", format(v), value = TRUE), collapse = " ")
  expect_match(adv, sprintf("about %s processes of each (%s runs, 3 a process)",
                            format(p$processes, big.mark = ","),
                            format(p$runs, big.mark = ",")), fixed = TRUE)
})

# The true power of the protocol at k runs of each, on fresh data from
# the law rlaw with the new version faster by s.
true_power <- function(f, k, rlaw, s, reps = 400) {
  mean(replicate(reps, isTRUE(f(rlaw(k), rlaw(k) / s)$significant)))
}

test_that("plan_runs() plans for what the protocol does below 31 runs", {
  # the issue: the mean protocol's plan was 31 whatever the pilot (its
  # resamples held ties that Shapiro-Wilk rejects, and the rigorous stop
  # then made every size below 31 look hopeless); about 21 runs give 0.8
  rlaw <- function(n) rlnorm(n, 0, 0.01)
  set.seed(29)
  x <- rlaw(30)
  y <- rlaw(30)
  p <- plan_runs(x, y, speedup = 1.01, test = "mean", reps = 1000)
  expect_lt(p$runs, 31)
  set.seed(1)
  tp <- true_power(mean_test, p$runs, rlaw, 1.01)
  expect_gt(tp, 0.72)
  expect_lt(tp, 0.88)
  # a smoothed bootstrap: the drawn runs are not the pilot's
  r <- speeduptest:::plan_samples(x, y, "mean")
  expect_length(r$smooth, 9L)
  expect_gt(r$smooth[3], 0)
  # the median protocol, pilots of 10 runs and of 100 (independent truth)
  for (n in c(10, 100)) {
    set.seed(n)
    p <- plan_runs(rlaw(n), rlaw(n), speedup = 1.01, reps = 500)
    expect_identical(p$method, "simulation")
    expect_gt(p$runs, 5)
    expect_lt(p$runs, 60)
  }
})

test_that("the smoothed bootstrap keeps the protocol's centre and spread", {
  set.seed(30)
  x <- rlnorm(25, 0, 0.05)
  y <- rlnorm(25, 0, 0.05)
  for (test in c("mean", "median")) {
    r <- speeduptest:::plan_samples(x, y, test)
    expect_length(r$smooth, 9L)
    expect_identical(r$smooth[9], 48)
    sm <- matrix(r$smooth[1:8], 4)
    # draws as src/tolerance.c makes them (at the observed spread), in R
    draw <- function(v, p, k) {
      lv <- log(v)
      a <- if (p[4] > 0) 1 / (mean(exp(p[1] + p[2] * (lv - p[1]))) *
                              exp((p[2] * p[3])^2 / 2)) else 1
      l <- lv[sample.int(length(v), k, TRUE)]
      a * exp(p[1] + p[2] * (l - p[1] + p[3] * rnorm(k)))
    }
    dx <- draw(r$x, sm[, 1], 2e5)
    dy <- draw(r$y, sm[, 2], 2e5)
    expect_equal(sd(log(dx)), sd(log(r$x)), tolerance = 0.02)
    expect_equal(sd(log(dy)), sd(log(r$y)), tolerance = 0.02)
    if (test == "mean") {
      expect_equal(mean(dx), 1, tolerance = 1e-3)
      expect_equal(mean(dy), 1, tolerance = 1e-3)
    }
    # no ties
    expect_identical(anyDuplicated(dx[1:1000]), 0L)
  }
})
