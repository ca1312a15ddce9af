# The r-Speedup search of hpt_speedup() (src/hpt.c) against two references:
# the candidate sweep that evaluates the confidence at every candidate
# gamma (about n^2 of them; the C core keeps it as method 1), and a
# brute-force scan written here in R over every candidate point and every
# interval between two, each evaluated by hpt() itself.  Also the input
# rules of hpt() and hpt_speedup(): bad benchmarks skipped, checks before
# allocation, NA where no speedup reaches the level.

# The C core's answer by the search (method 0) or the candidate sweep (1).
speedup_core <- function(a, b, higher, confidence, method, exact_ties = FALSE,
                         precision = 0.01) {
  data <- suppressWarnings(speeduptest:::hpt_data(a, b, na_rm = FALSE))
  alpha <- speeduptest:::hpt_alpha(NULL, data)
  .Call(speeduptest:::ffi_hpt_speedup, data$a, data$a_len, data$b,
        data$b_len, higher, alpha, exact_ties, confidence, precision,
        method == 1)
}

# Random suites: per-benchmark scales and gains, unequal run counts, data
# rounded into ties, and mixtures whose rank-sum winner can disagree with
# the medians (where the confidence is not monotone in gamma).
gen_suite <- function(seed, sizes = c(1:8, 10, 15, 20, 30, 60)) {
  set.seed(seed)
  nb <- if (length(sizes) == 1L) sizes else sample(sizes, 1)
  na <- sample(3:14, 1)
  nbr <- sample(3:14, 1)
  sc <- exp(rnorm(nb))
  gain <- exp(rnorm(nb, runif(1, -0.1, 0.5), runif(1, 0.05, 0.4)))
  sd <- runif(1, 0.01, 0.3)
  a <- lapply(seq_len(nb), function(i) rlnorm(na, 0, sd) * sc[i])
  b <- lapply(seq_len(nb), function(i) rlnorm(nbr, 0, sd) * sc[i] * gain[i])
  mode <- sample(4, 1)
  if (mode == 2) {
    a <- lapply(a, round, 1)
    b <- lapply(b, round, 1)
  } else if (mode == 3) {
    a <- lapply(a, function(v) round(v * 10))
    b <- lapply(b, function(v) round(v * 10))
  } else if (mode == 4) {
    a <- lapply(a, function(v) v * ifelse(runif(length(v)) < 0.4, 3, 1))
    b <- lapply(b, function(v) v * ifelse(runif(length(v)) < 0.3, 0.5, 1))
  }
  a <- lapply(a, pmax, 0.1)
  b <- lapply(b, pmax, 0.1)
  names(a) <- names(b) <- paste0("b", seq_len(nb))
  list(a = a, b = b, higher = runif(1) < 0.3,
       conf = sample(c(0.6, 0.8, 0.9, 0.95, 0.99), 1))
}

# speedup identical, supremum to 1e-12, attained identical when the suprema
# are (they can differ by a few ulps where an exact tie of the data is split
# by rounding into neighbouring doubles, or where |d|'s within st_hpt's
# 1e-9 tie tolerance meet; each is then the other's neighbour)
expect_same_speedup <- function(new, ref, info = NULL) {
  expect_identical(new$status, 0L, info = info)
  expect_identical(new$speedup, ref$speedup, info = info)
  expect_equal(new$supremum, ref$supremum, tolerance = 1e-12, info = info)
  if (identical(new$supremum, ref$supremum)) {
    expect_identical(new$attained, ref$attained, info = info)
  }
}

test_that("the search agrees with the candidate sweep on random suites", {
  skip_on_cran()
  for (seed in 1:250) {
    s <- gen_suite(seed)
    new <- speedup_core(s$a, s$b, s$higher, s$conf, 0)
    ref <- speedup_core(s$a, s$b, s$higher, s$conf, 1)
    expect_same_speedup(new, ref, info = paste("seed", seed))
  }
  # larger suites, where the search skips whole blocks of events
  for (seed in 1001:1006) {
    s <- gen_suite(seed, sizes = c(150, 400))
    new <- speedup_core(s$a, s$b, s$higher, s$conf, 0)
    ref <- speedup_core(s$a, s$b, s$higher, s$conf, 1)
    expect_same_speedup(new, ref, info = paste("seed", seed))
  }
})

test_that("some random suites reach a finite r-Speedup, others none", {
  # the comparison above is not vacuous
  sp <- vapply(1:200, function(seed) {
    s <- gen_suite(seed)
    speedup_core(s$a, s$b, s$higher, s$conf, 0)$speedup
  }, numeric(1))
  expect_gt(sum(is.finite(sp) & sp > 1), 20)
  expect_gt(sum(is.nan(sp)), 20)
})

# ---- an independent brute force ---------------------------------------------

# Every gamma >= 1 where the confidence can change: the benchmarks'
# breakpoints (ratios of runs), the zero crossings of the d's, and the
# points where two |d| are equal; the confidence by hpt() at each point,
# inside each interval between two and above the last.
brute_speedup <- function(a, b, higher, level) {
  ma <- vapply(a, median, 0)
  mb <- vapply(b, median, 0)
  pr <- function(x, y) if (higher) x / y else y / x
  pts <- unlist(lapply(seq_along(a), function(i) as.vector(outer(a[[i]], b[[i]], pr))))
  pts <- c(pts, pr(ma, mb))
  for (i in seq_along(a)) for (k in seq_along(a)) if (i < k) {
    u <- c((mb[i] + mb[k]) / (ma[i] + ma[k]), (mb[i] - mb[k]) / (ma[i] - ma[k]))
    u <- u[is.finite(u) & u > 0]
    pts <- c(pts, if (higher) 1 / u else u)
  }
  pts <- sort(unique(c(1, pts[pts > 1])))
  conf <- function(g) {
    suppressWarnings(hpt(a, b, higher_is_better = higher, speedup = g)$confidence)
  }
  breaks <- unlist(lapply(seq_along(a), function(i) as.vector(outer(a[[i]], b[[i]], pr))))
  # at a ratio of two runs hpt() compares the handicapped run with the
  # other as rounded, where the search counts the pair as the tie it is
  at_break <- function(g) any(breaks == g)
  if (conf(2 * max(pts)) >= level) {
    return(list(supremum = Inf, attained = TRUE, at_break = FALSE))
  }
  for (k in rev(seq_along(pts))) {
    if (k < length(pts) && conf((pts[k] + pts[k + 1]) / 2) >= level) {
      return(list(supremum = pts[k + 1], attained = FALSE,
                  at_break = at_break(pts[k + 1])))
    }
    if (conf(pts[k]) >= level) {
      return(list(supremum = pts[k], attained = TRUE, at_break = at_break(pts[k])))
    }
  }
  list(supremum = NA_real_, attained = FALSE, at_break = FALSE)
}

test_that("hpt_speedup() is the supremum of a brute-force scan of every candidate", {
  skip_on_cran()
  set.seed(2026)
  checked <- finite <- 0
  for (rep in 1:40) {
    nb <- sample(2:6, 1)
    higher <- rep %% 3 == 0
    na <- sample(3:6, 1)
    a <- lapply(seq_len(nb), function(i) rlnorm(na, rnorm(1), 0.15))
    b <- lapply(seq_len(nb), function(i) {
      rlnorm(sample(3:6, 1), log(median(a[[i]])) + rnorm(1, if (higher) -0.4 else 0.4, 0.3), 0.15)
    })
    if (rep %% 4 == 0) {
      # a winner whose medians disagree with it
      a[[1]] <- c(1, 1.01, 1.02, 5, 5.1, 5.2)
      b[[1]] <- c(1.5, 1.51, 1.52, 1.53, 1.54, 6)
    }
    level <- sample(c(0.6, 0.75, 0.9), 1)
    sp <- hpt_speedup(a, b, confidence = level, higher_is_better = higher)
    ref <- brute_speedup(a, b, higher, level)
    expect_equal(sp$supremum, ref$supremum, tolerance = 1e-12)
    finite <- finite + isTRUE(is.finite(ref$supremum))
    if (!is.na(ref$supremum) && !ref$at_break) {
      expect_identical(sp$attained, ref$attained)
      checked <- checked + is.finite(ref$supremum)
    }
  }
  expect_gt(finite, 15)
  expect_gt(checked, 1)
})

# ---- size, memory and bad input -----------------------------------------------

test_that("hpt_speedup() takes 100,000 runs a side without a table of their pairs", {
  skip_on_cran()
  set.seed(5)
  n <- 1e5
  a <- list(x = rlnorm(n), y = rlnorm(n, 0, 0.5))
  b <- list(x = rlnorm(n, 0.05), y = rlnorm(n, 0.1, 0.5))
  # 1e10 pairs of runs per benchmark: listed, they would take 80 GB
  t <- system.time(sp <- hpt_speedup(a, b, confidence = 0.6))[["elapsed"]]
  expect_lt(t, 60)
  expect_true(is.finite(sp$supremum))
  expect_gte(hpt(a, b, speedup = sp$speedup)$confidence, 0.6)
  expect_lt(hpt(a, b, speedup = sp$supremum * (1 + 1e-9))$confidence, 0.6)
  # the exact conditional laws refuse before allocating anything
  t <- system.time(expect_error(hpt_speedup(a, b, exact_ties = TRUE),
                                "exact_ties = FALSE",
                                class = "speeduptest_error_data"))[["elapsed"]]
  expect_lt(t, 10)
  expect_error(hpt(a, b, exact_ties = TRUE), "exact_ties = FALSE",
               class = "speeduptest_error_data")
})

test_that("a bad benchmark is skipped with its reason, the others analysed", {
  set.seed(3)
  a <- lapply(1:6, function(i) rlnorm(6, i / 3, 0.1))
  b <- lapply(1:6, function(i) rlnorm(6, i / 3 + 0.4, 0.1))
  names(a) <- names(b) <- paste0("k", 1:6)
  bad_a <- a
  bad_b <- b
  bad_a$k2[3] <- 0                 # a time <= 0
  bad_b$k4[1] <- NA                # a missing value
  bad_a$k5 <- bad_a$k5[1:2]        # only 2 runs
  good <- c("k1", "k3", "k6")
  w <- character()
  h <- withCallingHandlers(hpt(bad_a, bad_b), speeduptest_warning_skipped =
                             function(cnd) {
                               w <<- c(w, conditionMessage(cnd))
                               invokeRestart("muffleWarning")
                             })
  expect_length(w, 3L)
  expect_equal(h$benchmarks$benchmark, good)
  expect_equal(h$n, 3L)
  expect_equal(h$problems$benchmark, c("k2", "k4", "k5"))
  expect_equal(h$problems$severity, rep("error", 3))
  expect_match(h$problems$message[1], "1 value\\(s\\) <= 0 in `a`")
  expect_match(h$problems$message[2], "1 missing value\\(s\\) in `b`")
  expect_match(h$problems$message[3], "2 runs in `a` \\(at least 3")
  # the good benchmarks give what they give alone
  h_good <- hpt(a[good], b[good])
  expect_equal(h$confidence, h_good$confidence)
  expect_equal(h$benchmarks, h_good$benchmarks)
  expect_output(print(h), "3 benchmarks \\(3 skipped")
  sp <- suppressWarnings(hpt_speedup(bad_a, bad_b, confidence = 0.8))
  sp_good <- hpt_speedup(a[good], b[good], confidence = 0.8)
  expect_identical(sp$speedup, sp_good$speedup)
  expect_identical(sp$supremum, sp_good$supremum)
  expect_equal(sp$problems, h$problems)
  n_warn <- 0L
  withCallingHandlers(hpt_speedup(bad_a, bad_b),
                      speeduptest_warning_skipped = function(cnd) {
                        n_warn <<- n_warn + 1L
                        invokeRestart("muffleWarning")
                      })
  expect_equal(n_warn, 3L)
  # na_rm drops the NA and keeps k4
  h2 <- suppressWarnings(hpt(bad_a, bad_b, na_rm = TRUE))
  expect_true("k4" %in% h2$benchmarks$benchmark)
  expect_equal(h2$benchmarks$runs_b[h2$benchmarks$benchmark == "k4"], 5L)
  # a long data frame: a run without a benchmark name is left out, said so
  long <- data.frame(benchmark = rep(names(a), each = 12),
                     machine = rep(rep(c("new", "old"), each = 6), 6),
                     time = unlist(Map(c, a, b)))
  long$benchmark[1] <- NA
  expect_warning(hl <- hpt(long), "1 run with a missing benchmark",
                 class = "speeduptest_warning_skipped")
  expect_equal(hl$benchmarks$runs_a[1], 5L)
  long$benchmark[1] <- "k1"
  long$machine[8] <- NA            # a run of "old" in k1
  expect_warning(hl <- hpt(long), "1 run with a missing benchmark or machine",
                 class = "speeduptest_warning_skipped")
  expect_equal(hl$benchmarks$runs_b[1], 5L)
  expect_false(anyNA(hl$benchmarks$median_b))
})

test_that("arguments are checked before the data, naming the user's argument", {
  set.seed(4)
  a <- matrix(rlnorm(30), 5)
  b <- matrix(rlnorm(30, 0.3), 5)
  expect_error(hpt(a, b, na_rm = "yes"), "`na_rm` must be TRUE or FALSE",
               class = "speeduptest_error_input")
  expect_error(hpt_speedup(a, b, na_rm = "yes"), "`na_rm`",
               class = "speeduptest_error_input")
  expect_error(hpt(a, b, alpha_bench = 2), "`alpha_bench`",
               class = "speeduptest_error_input")
  expect_error(hpt_speedup(a, b, alpha_bench = -1), "`alpha_bench`",
               class = "speeduptest_error_input")
  expect_error(hpt(a, b, initial = "x"), "`initial`",
               class = "speeduptest_error_input")
  a[2, 2] <- -1
  expect_warning(hpt(a, b), "in `a`")
  expect_error(hpt(a[2, , drop = FALSE], b[2, , drop = FALSE]), "in `a`",
               class = "speeduptest_error_data")
})

test_that("no speedup reaching the level is NA, not NaN", {
  set.seed(6)
  a <- matrix(rlnorm(40, 0.5), 8)  # A slower
  b <- matrix(rlnorm(40), 8)
  sp <- hpt_speedup(a, b)
  expect_identical(sp$speedup, NA_real_)
  expect_identical(sp$supremum, NA_real_)
  expect_false(sp$attained)
  expect_null(sp$test)
  expect_output(print(sp), "No speedup >= 1 reaches confidence 0.95")
})

test_that("on timings, hpt_speedup() takes the first version as the baseline, as hpt() does", {
  # O0 (initial, first) is slower; O3 is the new code, about 1.5 times faster
  set.seed(30)
  d <- do.call(rbind, lapply(sprintf("b%02d", 1:12), function(b) {
    s <- exp(rnorm(1))
    data.frame(benchmark = b, version = rep(c("O0", "O3"), each = 15),
               time = s * c(rlnorm(15, log(1.5), 0.05), rlnorm(15, 0, 0.05)))
  }))
  t <- as_timings(d)
  h <- hpt(t)
  s <- hpt_speedup(t)
  # both say "O3 is faster than O0": A is O3, B is O0
  expect_identical(h$labels, s$labels)
  expect_identical(s$labels, c("O3", "O0"))
  expect_gt(s$speedup, 1.3)
  expect_gte(s$test$confidence, 0.95)
  # the same answer as the two machines given by hand, new code as A
  wide <- function(v) lapply(split(d$time[d$version == v], d$benchmark[d$version == v]), identity)
  ref <- hpt_speedup(wide("O3"), wide("O0"))
  expect_identical(s$speedup, ref$speedup)
  expect_identical(s$supremum, ref$supremum)
  # `initial` names another baseline, as in hpt()
  expect_identical(hpt_speedup(t, initial = "O3")$labels, c("O0", "O3"))
  expect_true(is.na(hpt_speedup(t, initial = "O3")$speedup))
  expect_error(hpt_speedup(wide("O3"), wide("O0"), initial = "O0"), class = "speeduptest_error")
})
