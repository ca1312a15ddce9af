# The probability protocol (src/prob.c, R/prob.R) against an independent
# implementation written here from the formulas of Brunner and Munzel
# (2000) and Neubert and Brunner (2007), brute-force permutations, the
# published example, the binomial law (the paired sign test), and error
# rates by simulation with fixed seeds.

# ---- an independent Brunner-Munzel test ---------------------------------------

# Our direction: p = P[X > Y] + P[X = Y] / 2 (x the initial code's times).
bm_ref <- function(x, y) {
  n <- length(x)
  m <- length(y)
  r <- rank(c(x, y))
  place_x <- r[seq_len(n)] - rank(x)
  place_y <- r[n + seq_len(m)] - rank(y)
  p <- mean(place_x) / m
  vx <- sum((place_x - mean(place_x))^2) / (n - 1)
  vy <- sum((place_y - mean(place_y))^2) / (m - 1)
  se <- sqrt(vx / (n * m^2) + vy / (m * n^2))
  df <- (n * vx + m * vy)^2 / ((n * vx)^2 / (n - 1) + (m * vy)^2 / (m - 1))
  stat <- if (se > 0) (p - 0.5) / se else sign(p - 0.5) * Inf
  list(p = p, se = se, df = df, statistic = stat)
}

# The statistic the permutation test permutes: the delta method's
# studentization of logit(p) (Pauly, Asendorf and Konietschke 2016),
# logit(p) p (1 - p) / se, infinite with the sign of p - 1/2 at p = 0 or 1
# or se = 0.
logit_stat <- function(b) {
  if (b$p <= 0 || b$p >= 1 || !(b$se > 0)) return(sign(b$p - 0.5) * Inf)
  stats::qlogis(b$p) * b$p * (1 - b$p) / b$se
}

# The studentized permutation test by brute force over combn().
perm_ref <- function(x, y) {
  z <- c(x, y)
  n <- length(x)
  t0 <- logit_stat(bm_ref(x, y))
  ts <- utils::combn(length(z), n, function(i) logit_stat(bm_ref(z[i], z[-i])))
  tol <- 1e-9 * (1 + abs(t0))
  if (is.infinite(t0)) {
    return(c(up = mean(ts >= t0), down = mean(ts <= t0)))
  }
  c(up = mean(ts >= t0 - tol), down = mean(ts <= t0 + tol))
}

test_that("the estimate, statistic and t law match the independent formulas", {
  set.seed(281)
  for (i in 1:40) {
    n <- sample(c(14, 20, 35, 60), 1)
    m <- sample(c(12, 20, 41), 1)
    x <- rlnorm(n, 0, runif(1, 0.01, 0.3))
    y <- rlnorm(m, log(runif(1, 0.9, 1.1)), runif(1, 0.01, 0.3))
    if (i %% 3 == 0) {
      x <- round(x, 1) + 1
      y <- round(y, 1) + 1
    }
    v <- prob_test(x, y, alpha = 0.1)
    ref <- bm_ref(x, y)
    expect_equal(v$prob_greater, ref$p, tolerance = 1e-12)
    expect_identical(v$branch, "prob_t")
    step <- v$steps$brunner_munzel
    expect_equal(unname(step$statistic), ref$statistic, tolerance = 1e-10)
    expect_equal(unname(step$parameter), ref$df, tolerance = 1e-10)
    expect_equal(v$p_value, stats::pt(ref$statistic, ref$df, lower.tail = FALSE),
                 tolerance = 1e-10)
    expect_equal(v$p_value_slowdown, stats::pt(ref$statistic, ref$df),
                 tolerance = 1e-10)
    q <- stats::qt(0.9, ref$df)
    expect_equal(as.double(v$prob_ci),
                 pmin(1, pmax(0, ref$p + c(-1, 1) * q * ref$se)), tolerance = 1e-10)
    expect_identical(v$decision, speeduptest:::decision_words(v$direction))
  }
})

test_that("the pain scores of Brunner and Munzel (2000) give the published figures", {
  # lawstat::brunner.munzel.test(Y, N): statistic 3.1375, df 17.683,
  # two-sided p 0.005786, 95% interval [0.5952169, 0.9827052], estimate
  # 0.788961 of P(Y < N) + P(Y = N) / 2 (Neubert and Brunner 2007 give the
  # corrected figures of the example)
  Y <- c(1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4, 1, 1)
  N <- c(3, 3, 4, 3, 1, 2, 3, 1, 1, 5, 4)
  v <- prob_test(N, Y, alpha = 0.025)
  expect_equal(v$prob_greater, 0.788961, tolerance = 1e-6)
  step <- v$steps$brunner_munzel
  expect_equal(unname(step$statistic), 3.1375, tolerance = 1e-4)
  expect_equal(unname(step$parameter), 17.683, tolerance = 1e-4)
  expect_equal(2 * v$p_value, 0.005786, tolerance = 1e-3)
  expect_equal(as.double(v$prob_ci), c(0.5952169, 0.9827052), tolerance = 1e-6)
  expect_identical(v$direction, "speedup")
})

test_that("small samples use the exact studentized permutation law", {
  set.seed(282)
  for (i in 1:25) {
    n <- sample(3:7, 1)
    m <- sample(3:7, 1)
    x <- rlnorm(n, 0, runif(1, 0.01, 0.2))
    y <- rlnorm(m, 0.05 * rnorm(1), runif(1, 0.01, 0.2))
    if (i %% 4 == 0) {
      x <- ceiling(x * 5)
      y <- ceiling(y * 5)
    }
    if (length(unique(c(x, y))) == 1L) next
    v <- prob_test(x, y)
    expect_identical(v$branch, "prob_permutation")
    ref <- perm_ref(x, y)
    expect_equal(v$p_value, ref[["up"]], tolerance = 1e-12)
    expect_equal(v$p_value_slowdown, ref[["down"]], tolerance = 1e-12)
    expect_true(isTRUE(v$steps$brunner_munzel$exact) ||
                  grepl("permutation", v$steps$brunner_munzel$method))
  }
})

test_that("complete separation gives the chance of the observed ordering", {
  x <- c(10.1, 10.3, 10.2, 10.5)
  y <- c(9.1, 9.0, 9.3, 9.2, 9.4)
  v <- prob_test(x, y)
  expect_equal(v$prob_greater, 1)
  expect_equal(v$p_value, 1 / choose(9, 4))
  expect_equal(v$p_value_slowdown, 1)
  # beyond the exact limit: the same chance, not 0
  x <- 10 + (1:40) / 100
  y <- 9 + (1:40) / 100
  v <- prob_test(x, y)
  expect_identical(v$branch, "prob_t")
  expect_equal(v$p_value, 1 / choose(80, 40))
  expect_gt(v$p_value, 0)
})

test_that("too few runs and constant runs give insufficient data", {
  v <- prob_test(c(1, 2), c(1, 2, 3))
  expect_true(is.na(v$significant))
  expect_identical(v$branch, "too_few_values")
  v <- prob_test(rep(2, 5), rep(2, 6))
  expect_identical(v$branch, "constant_samples")
  expect_true(is.na(v$direction))
  expect_error(prob_test(c(1, 2, -1), c(1, 2, 3)), class = "speeduptest_error")
})

test_that("highest_confidence() of the probability protocol is 1 - p", {
  set.seed(283)
  x <- rlnorm(30, 0.03, 0.05)
  y <- rlnorm(30, 0, 0.05)
  v <- prob_test(x, y)
  h <- highest_confidence(x, y, test = "prob")
  expect_equal(as.double(h), 1 - v$p_value)
  # its alpha declares the speedup, just below it does not
  expect_true(prob_test(x, y, alpha = v$p_value)$significant)
  expect_false(prob_test(x, y, alpha = v$p_value * 0.999)$significant)
  # a slowdown has no level of speedup
  expect_true(is.na(highest_confidence(y, x, test = "prob")))
})

# ---- the tolerance: a margin on the probability --------------------------------

test_that("the margin tests are the studentized statistic at 1/2 +- d", {
  set.seed(284)
  x <- rlnorm(40, 0.02, 0.03)
  y <- rlnorm(40, 0, 0.03)
  ref <- bm_ref(x, y)
  d <- 0.05
  v <- prob_test(x, y, min_speedup = 1 + d)
  tu <- (ref$p - 0.5 - d) / ref$se
  tl <- (ref$p - 0.5 + d) / ref$se
  expect_equal(unname(v$p_value_tolerance),
               c(stats::pt(tu, ref$df, lower.tail = FALSE), stats::pt(tl, ref$df),
                 stats::pt(tu, ref$df), stats::pt(tl, ref$df, lower.tail = FALSE)),
               tolerance = 1e-10)
  # equal versions, a wide margin: equivalent
  set.seed(285)
  x <- rlnorm(60, 0, 0.02)
  y <- rlnorm(60, 0, 0.02)
  v <- prob_test(x, y, min_speedup = 1.3)
  expect_identical(v$direction, "equivalent")
  # the C core decides as the verdict does
  code <- .Call(speeduptest:::ffi_decide, x, y, speeduptest:::protocol_code("prob"),
                0.05, TRUE, 1.3)
  expect_identical(speeduptest:::st_code_name("direction", code), "equivalent")
})

# ---- the paired twin: the sign test -----------------------------------------------

test_that("the paired twin is the sign test with ties split", {
  set.seed(286)
  for (i in 1:20) {
    k <- sample(c(6, 9, 15, 40), 1)
    x <- round(rlnorm(k, 0, 0.02), 2)
    y <- round(x * rlnorm(k, sample(c(0, -0.01), 1), 0.01), 2)
    v <- prob_test(x, y, design = "paired")
    pos <- sum(x > y)
    ties <- sum(x == y)
    s <- pos + ties / 2
    expect_equal(v$prob_greater, s / k)
    expect_equal(v$p_value, stats::pbinom(floor(s) - 1, k, 0.5, lower.tail = FALSE))
    sd <- sum(x < y) + ties / 2
    expect_equal(v$p_value_slowdown,
                 stats::pbinom(floor(sd) - 1, k, 0.5, lower.tail = FALSE))
    if (ties == 0) {
      # without ties: binom.test's exact one-sided test and interval
      bt <- stats::binom.test(pos, k, alternative = "greater")
      expect_equal(v$p_value, bt$p.value)
      ci <- stats::binom.test(pos, k, conf.level = 0.9)$conf.int
      expect_equal(as.double(v$prob_ci), as.double(ci), tolerance = 1e-10)
    }
    expect_identical(v$branch, "paired_sign")
  }
})

test_that("the sign test keeps its level with ties (simulation, fixed seed)", {
  set.seed(287)
  claims <- replicate(2000, {
    k <- 12
    x <- round(rlnorm(k, 0, 0.01), 3)
    y <- round(rlnorm(k, 0, 0.01), 3)
    v <- prob_test(x, y, design = "paired")
    c(v$p_value <= 0.05, v$p_value_slowdown <= 0.05)
  })
  expect_lt(mean(claims[1, ]), 0.05 + 0.015)
  expect_lt(mean(claims[2, ]), 0.05 + 0.015)
})

# ---- error rates under unequal spreads (the median's shift model fails) -----------

test_that("A/A: at most alpha per direction with sd 1 % against sd 5 %", {
  set.seed(288)
  for (n in c(10, 50)) {
    reps <- 400
    out <- replicate(reps, {
      x <- rlnorm(n, 0, 0.01)
      y <- rlnorm(n, 0, 0.05)
      v <- prob_test(x, y)
      c(v$p_value <= 0.05, v$p_value_slowdown <= 0.05)
    })
    # binomial 99.9 % upper bound for a true rate of 0.05
    lim <- stats::qbinom(0.999, reps, 0.05) / reps
    expect_lte(mean(out[1, ]), lim)
    expect_lte(mean(out[2, ]), lim)
  }
})

# ---- every surface through the descriptor ------------------------------------------

test_that("the protocol reaches the suite, the planner and the prints", {
  set.seed(289)
  suite <- lapply(1:6, function(i) {
    list(x = rlnorm(30, 0.02 * (i %% 2), 0.02), y = rlnorm(30, 0, 0.02))
  })
  names(suite) <- paste0("b", 1:6)
  s <- speedup_suite(suite, protocols = c("mean", "median", "prob"))
  expect_identical(s$protocols, c("mean", "median", "prob"))
  expect_identical(nrow(s$results), 18L)
  expect_true(all(c("prob_decision", "prob_p_value", "prob_detectable") %in%
                    names(s$benchmarks)))
  for (j in 1:6) {
    v <- prob_test(suite[[j]]$x, suite[[j]]$y)
    expect_equal(s$benchmarks$prob_p_value[j], v$p_value)
    expect_identical(s$benchmarks$prob_decision[j], v$decision)
  }
  # the mean's and the median's columns are those of the default suite
  # (but the interval of P[X > Y], which only the probability protocol has)
  s2 <- speedup_suite(suite)
  for (col in setdiff(names(s2$benchmarks),
                      c("prob_greater_low", "prob_greater_high"))) {
    expect_identical(s$benchmarks[[col]], s2$benchmarks[[col]], info = col)
  }
  expect_identical(s$proportion$protocol, c("mean", "median", "prob"))
  txt <- utils::capture.output(print(summary(s)))
  expect_true(any(grepl("prob", txt)))
  expect_true(all(nchar(txt) <= 80))
  expect_s3_class(tidy(s, which = "prob"), "data.frame")
  # a suite without the median has no original-tool files
  s3 <- speedup_suite(suite, protocols = "prob")
  expect_error(write_speedup_report(s3, file.path(tempdir(), "p")),
               class = "speeduptest_error_unsupported")
  v <- prob_test(suite[[2]]$x, suite[[2]]$y)
  txt <- utils::capture.output(print(v), print(summary(v)))
  expect_true(any(grepl("P[X > Y]", txt, fixed = TRUE)))
  expect_true(all(nchar(txt) <= 80))
  p <- plan_runs(v, speedup = 1.02, reps = 100L)
  expect_true(is.finite(p$runs) || is.na(p$runs))
})

test_that("compare --test prob runs", {
  dir <- withr::local_tempdir()
  set.seed(290)
  f <- file.path(dir, "t.csv")
  utils::write.csv(data.frame(benchmark = "b",
                              version = rep(c("old", "new"), each = 20),
                              time = c(rlnorm(20, 0.05, 0.02), rlnorm(20, 0, 0.02))),
                   f, row.names = FALSE)
  out <- utils::capture.output(code <- speeduptest:::cli_compare(c(f, "--test", "prob")))
  expect_identical(as.integer(code), 0L)
  expect_true(any(grepl("Speedup-Test for the probability", out, fixed = TRUE)))
  expect_true(any(grepl("significant speedup", out, fixed = TRUE)))
  # the same decision as the function
  v <- prob_test(time ~ version, data = utils::read.csv(f), initial = "old",
                 min_speedup = 1.01)
  expect_identical(v$direction, "speedup")
})

test_that("every paired twin's highest confidence is the smallest significant alpha", {
  # brute force: the decision on a fine grid of alpha and at the steps'
  # p-values, against highest_confidence(design = "paired")
  set.seed(291)
  for (i in 1:12) {
    k <- sample(c(8, 12, 25, 40), 1)
    x <- rlnorm(k, 0, 0.02)
    y <- x * rlnorm(k, sample(c(-0.01, -0.003, 0), 1), 0.01)
    if (i %% 3 == 0) y <- y * rlnorm(k, 0, 0.03)   # not normal differences
    for (test in speeduptest:::protocol_choices()) {
      fun <- speeduptest:::protocol_fun(test)
      h <- highest_confidence(x, y, test = test, design = "paired")
      v <- fun(x, y, design = "paired", alpha = 0.5, rigorous = FALSE)
      cand <- sort(unique(c(vapply(v$steps, function(s) as.double(s$p.value), 0),
                            seq(0.005, 0.5, by = 0.005))))
      cand <- cand[!is.na(cand) & cand > 0 & cand <= 0.5]
      sig <- vapply(cand, function(a) isTRUE(fun(x, y, design = "paired",
                                                  alpha = a)$significant), NA)
      want <- if (any(sig)) 1 - cand[which(sig)[1L]] else NA_real_
      if (is.na(want)) {
        expect_true(is.na(h), info = paste(test, i))
      } else {
        expect_equal(as.double(h), want, tolerance = 1e-12, info = paste(test, i))
      }
    }
  }
})

test_that("a suite reports the probability protocol's P[X > Y] with the verdict's interval", {
  set.seed(71)
  l <- lapply(1:4, function(i) list(old = rlnorm(20, 0, 0.02),
                                    new = rlnorm(20, -0.01 * i, 0.02)))
  names(l) <- paste0("b", 1:4)
  s <- speedup_suite(l, protocols = c("median", "prob"))
  for (b in names(l)) {
    v <- prob_test(l[[b]]$old, l[[b]]$new)
    row <- s$benchmarks[s$benchmarks$benchmark == b, ]
    expect_equal(row$prob_greater, v$prob_greater)
    expect_equal(c(row$prob_greater_low, row$prob_greater_high),
                 as.double(v$prob_ci))
    td <- tidy(v)
    expect_identical(td$term, "P[X > Y]")
    expect_equal(c(td$estimate, td$conf.low, td$conf.high),
                 c(v$prob_greater, as.double(v$prob_ci)))
  }
  ts <- tidy(s, which = "prob")
  expect_false(anyNA(ts$estimate))
  expect_equal(ts$conf.low, s$benchmarks$prob_greater_low)
  # the Markdown shows the estimate and its interval, not NA
  md <- as.character(knitr::knit_print(s))
  expect_match(md, "P[X > Y] [interval]", fixed = TRUE)
  v1 <- prob_test(l$b1$old, l$b1$new)
  expect_match(md, gsub(" ", "\u00a0", speeduptest:::prob_text(v1), fixed = TRUE),
               fixed = TRUE)
  expect_false(grepl("| NA |", md, fixed = TRUE))
  # without the probability protocol the interval columns stay empty
  s2 <- speedup_suite(l)
  expect_true(all(is.na(s2$benchmarks$prob_greater_low)))
})
