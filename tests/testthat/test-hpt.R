# Tests of hpt() and hpt_speedup() (src/hpt.c, R/hpt.R).
#
# References: the paper's Table 1 (Chen et al. 2012, section 4.3), R's
# pwilcox / psignrank / pnorm through an independent R implementation of
# the HPT written below from the paper, and brute-force enumeration of the
# null distributions (subsets of the pooled ranks, signs of the d's).

x_scores <- function() {
  x <- splash2_hpt
  x$score[x$machine == "X"] <- 1.76 * x$score[x$machine == "X"]
  x
}

# ---- an independent reference implementation ------------------------------

# Brute force: all subsets of size k of the pooled mid-ranks r.
brute_ranksum_upper <- function(r, k, obs) {
  s <- colSums(utils::combn(r, k))
  mean(s >= obs - 1e-9)
}

# Brute force: all sign patterns of the non-zero d; R_B* = sum of the ranks
# given a minus sign plus the zeros' fixed half-ranks.
brute_signrank_lower <- function(rank, d, r_b) {
  nz <- d != 0
  fixed <- sum(rank[!nz]) / 2
  rr <- rank[nz]
  if (!length(rr)) return(as.numeric(fixed <= r_b + 1e-9))
  signs <- as.matrix(expand.grid(rep(list(0:1), length(rr))))
  mean(signs %*% rr + fixed <= r_b + 1e-9)
}

ref_hpt <- function(a, b, higher = FALSE, gamma = 1, alpha = NULL,
                    exact_ties = FALSE) {
  if (is.null(alpha)) {
    alpha <- if (all(lengths(a) >= 5 & lengths(b) >= 5)) 0.05 else 0.10
  }
  n <- length(a)
  out <- data.frame(p_a = numeric(n), p_b = numeric(n), winner = "",
                    d = numeric(n), stringsAsFactors = FALSE)
  for (i in seq_len(n)) {
    ai <- a[[i]]
    bi <- b[[i]]
    na <- length(ai)
    nb <- length(bi)
    va <- if (higher) ai else -gamma * ai
    vb <- if (higher) gamma * bi else -bi
    r <- rank(c(va, vb))
    ra <- sum(r[seq_len(na)])
    w <- ra - na * (na + 1) / 2
    if (exact_ties) {
      p_a <- brute_ranksum_upper(r, na, ra)
      p_b <- brute_ranksum_upper(r, nb, sum(r[-seq_len(na)]))
    } else if (na < 12 && nb < 12) {
      p_a <- pwilcox(ceiling(w) - 1, na, nb, lower.tail = FALSE)
      p_b <- pwilcox(ceiling(na * nb - w) - 1, nb, na, lower.tail = FALSE)
    } else {
      z <- (ra - na * (na + nb + 1) / 2) / sqrt(na * nb * (na + nb + 1) / 12)
      p_a <- pnorm(z, lower.tail = FALSE)
      p_b <- pnorm(z)
    }
    win <- if (p_a <= alpha) "A" else if (p_b <= alpha) "B" else "tie"
    ma <- if (higher) median(ai) / gamma else gamma * median(ai)
    mb <- median(bi)
    d <- if (win == "tie") 0 else if (higher) ma - mb else mb - ma
    out[i, ] <- list(p_a, p_b, win, d)
  }
  out$d[abs(out$d) < 1e-12] <- 0
  out$rank <- rank(signif(abs(out$d), 9))
  r_a <- sum(out$rank[out$d > 0]) + sum(out$rank[out$d == 0]) / 2
  r_b <- sum(out$rank[out$d < 0]) + sum(out$rank[out$d == 0]) / 2
  conf <- if (exact_ties) {
    1 - brute_signrank_lower(out$rank, out$d, r_b)
  } else if (n < 25) {
    1 - psignrank(floor(r_b), n)
  } else {
    pnorm((r_b - n * (n + 1) / 4) / sqrt(n * (n + 1) * (2 * n + 1) / 24),
          lower.tail = FALSE)
  }
  list(bench = out, R_A = r_a, R_B = r_b, confidence = conf)
}

expect_matches_ref <- function(h, ref) {
  expect_equal(h$benchmarks$winner, ref$bench$winner)
  expect_equal(h$benchmarks$p_a, ref$bench$p_a, tolerance = 1e-10)
  expect_equal(h$benchmarks$p_b, ref$bench$p_b, tolerance = 1e-10)
  expect_equal(h$benchmarks$d, ref$bench$d, tolerance = 1e-10)
  expect_equal(h$benchmarks$rank, ref$bench$rank)
  expect_equal(h$R_A, ref$R_A)
  expect_equal(h$R_B, ref$R_B)
  expect_equal(h$confidence, ref$confidence, tolerance = 1e-10)
}

random_suite <- function(n, na, nb = na, shift = 0.3, digits = NULL) {
  a <- lapply(seq_len(n), function(i) rlnorm(na, rnorm(1), 0.1))
  b <- lapply(seq_len(n), function(i) {
    rlnorm(nb, log(median(a[[i]])) + rnorm(1, shift, 0.3), 0.1)
  })
  if (!is.null(digits)) {
    a <- lapply(a, signif, digits)
    b <- lapply(b, signif, digits)
  }
  names(a) <- names(b) <- paste0("b", seq_len(n))
  list(a = a, b = b)
}

# ---- Table 1 ----------------------------------------------------------------

test_that("hpt() reproduces Table 1 of Chen et al. (2012)", {
  h <- hpt(splash2_hpt, higher_is_better = TRUE)
  bm <- h$benchmarks
  expect_equal(bm$benchmark, levels(splash2_hpt$benchmark))
  # printed: Stat. Win., Diff. (d_r), Rank, and both medians
  expect_equal(bm$winner, c("B", "B", "B", "tie", "A", "A", "A", "A", "tie",
                            "A", "A", "B", "A", "A"))
  expect_equal(bm$d, c(-0.50, -0.03, -0.27, 0, 0.27, 0.49, 0.17, 0.95, 0,
                       1.50, 0.32, -0.08, 0.69, 0.80), tolerance = 1e-9)
  expect_equal(bm$rank, c(10, 3, 6.5, 1.5, 6.5, 9, 5, 13, 1.5, 14, 8, 4, 11, 12))
  expect_equal(bm$median_a, c(0.54, 0.96, 0.76, 1.05, 1.27, 1.48, 1.15, 1.93,
                              1.01, 2.47, 1.39, 0.92, 1.64, 1.80))
  expect_equal(bm$median_b, c(1.04, 0.99, 1.03, 1.04, 1.00, 0.99, 0.98, 0.98,
                              1.00, 0.97, 1.07, 1.00, 0.95, 1.00))
  expect_equal(h$R_A, 80)
  expect_equal(h$R_B, 25)
  expect_equal(h$n, 14L)
  expect_equal(h$alpha_bench, 0.05)
  expect_equal(h$confidence, 1 - psignrank(25, 14), tolerance = 1e-12)
  expect_gte(h$confidence, 0.95)
  expect_equal(h$labels, c("X", "Y"))

  # the same claim on X's own scores: X is more than 1.76 times faster
  h2 <- hpt(x_scores(), higher_is_better = TRUE, speedup = 1.76)
  expect_equal(h2$benchmarks[, c("winner", "rank", "p_a", "p_b")],
               bm[, c("winner", "rank", "p_a", "p_b")])
  expect_equal(h2$benchmarks$d, bm$d, tolerance = 1e-9)
  expect_equal(c(h2$R_A, h2$R_B, h2$confidence), c(h$R_A, h$R_B, h$confidence))
  expect_equal(h2$conclusion,
               "X is more than 1.76 times faster than Y with confidence 0.95.")
  expect_snapshot(print(h2))

  # matrices give the same as the long data frame
  xa <- matrix(x_scores()$score[splash2_hpt$machine == "X"], 14, byrow = TRUE,
               dimnames = list(bm$benchmark, NULL))
  yb <- matrix(splash2_hpt$score[splash2_hpt$machine == "Y"], 14, byrow = TRUE,
               dimnames = list(bm$benchmark, NULL))
  h3 <- hpt(xa, yb[rev(rownames(yb)), ], higher_is_better = TRUE, speedup = 1.76)
  expect_equal(h3$benchmarks$winner, bm$winner)
  expect_equal(h3$confidence, h$confidence)
  expect_equal(as.data.frame(h3)$rank, bm$rank)
})

test_that("Table 1 per-benchmark p-values agree with the reference and brute force", {
  a <- split(splash2_hpt$score[splash2_hpt$machine == "X"],
             splash2_hpt$benchmark[splash2_hpt$machine == "X"])
  b <- split(splash2_hpt$score[splash2_hpt$machine == "Y"],
             splash2_hpt$benchmark[splash2_hpt$machine == "Y"])
  h <- hpt(a, b, higher_is_better = TRUE)
  expect_matches_ref(h, ref_hpt(a, b, higher = TRUE))
  # the classical p-value is the no-ties distribution at ceiling(W):
  # enumerate subsets of 1..10 directly
  for (i in seq_along(a)) {
    w <- h$benchmarks$w_a[i]
    expect_equal(h$benchmarks$p_a[i],
                 brute_ranksum_upper(1:10, 5, ceiling(w) + 15), tolerance = 1e-12)
  }
})

test_that("exact_ties changes Table 1 where the ties matter, and matches brute force", {
  a <- split(splash2_hpt$score[splash2_hpt$machine == "X"],
             splash2_hpt$benchmark[splash2_hpt$machine == "X"])
  b <- split(splash2_hpt$score[splash2_hpt$machine == "Y"],
             splash2_hpt$benchmark[splash2_hpt$machine == "Y"])
  h0 <- hpt(a, b, higher_is_better = TRUE)
  h1 <- hpt(a, b, higher_is_better = TRUE, exact_ties = TRUE)
  expect_true(all(h1$exact))
  expect_matches_ref(h1, ref_hpt(a, b, higher = TRUE, exact_ties = TRUE))
  changed <- h1$benchmarks$winner != h0$benchmarks$winner
  # some benchmark changes, and only benchmarks with tied runs can
  expect_true(any(changed))
  has_ties <- mapply(function(x, y) anyDuplicated(c(x, y)) > 0, a, b)
  expect_true(all(has_ties[changed]))
  # without ties both p-values coincide
  expect_equal(h1$benchmarks$p_a[!has_ties], h0$benchmarks$p_a[!has_ties],
               tolerance = 1e-12)
  # which benchmarks change, and what the conclusion becomes, are recorded
  # in the snapshot for the reader
  expect_snapshot({
    h0$benchmarks$benchmark[changed]
    h0$benchmarks$winner[changed]
    h1$benchmarks$winner[changed]
    c(classical = h0$confidence, exact_ties = h1$confidence)
  })
})

# ---- p-values on random suites ------------------------------------------------

test_that("hpt() agrees with an independent implementation on random suites", {
  set.seed(101)
  for (rep in 1:6) {
    higher <- rep %% 2 == 0
    na <- c(3, 5, 7, 4, 6, 10)[rep]
    nb <- c(3, 5, 5, 6, 6, 11)[rep]
    s <- random_suite(n = c(6, 10, 14, 20, 9, 12)[rep], na, nb, shift = 0.2)
    for (gamma in c(1, 1.1, 1.3)) {
      h <- hpt(s$a, s$b, higher_is_better = higher, speedup = gamma)
      expect_matches_ref(h, ref_hpt(s$a, s$b, higher, gamma))
      expect_true(all(h$exact))
    }
  }
})

test_that("the classical levels use the paper's normal approximations", {
  set.seed(102)
  # >= 12 runs: normal approximation per benchmark; >= 25 benchmarks:
  # normal approximation across benchmarks
  s <- random_suite(n = 30, na = 12, nb = 15, shift = 0.05)
  h <- hpt(s$a, s$b)
  expect_equal(unname(h$exact), c(FALSE, FALSE))
  expect_matches_ref(h, ref_hpt(s$a, s$b))
  # 11 runs and 24 benchmarks: still the exact tables
  s <- random_suite(n = 24, na = 11, nb = 11, shift = 0.05)
  h <- hpt(s$a, s$b)
  expect_equal(unname(h$exact), c(TRUE, TRUE))
  expect_matches_ref(h, ref_hpt(s$a, s$b))
  # psignrank itself against enumeration of the signs (n = 10, no ties)
  d <- c(-3, 1, 4, -1.5, 5, 9, 2.6, 6, -5.3, 8)
  rk <- rank(abs(d))
  r_b <- sum(rk[d < 0])
  expect_equal(psignrank(floor(r_b), 10), brute_signrank_lower(rk, d, r_b))
})

test_that("ties at both levels: classical and exact_ties against references", {
  set.seed(103)
  for (rep in 1:4) {
    # two significant digits: many ties within and between samples, and
    # equal |d| across benchmarks
    s <- random_suite(n = c(8, 10, 12, 9)[rep], na = 4 + rep %% 2, nb = 5,
                      shift = 0.1, digits = 2)
    higher <- rep > 2
    h0 <- hpt(s$a, s$b, higher_is_better = higher)
    expect_matches_ref(h0, ref_hpt(s$a, s$b, higher))
    h1 <- hpt(s$a, s$b, higher_is_better = higher, exact_ties = TRUE)
    expect_matches_ref(h1, ref_hpt(s$a, s$b, higher, exact_ties = TRUE))
  }
  # exact_ties without any ties gives the classical p-values
  set.seed(104)
  s <- random_suite(n = 10, na = 5, nb = 6, shift = 0.1)
  h0 <- hpt(s$a, s$b)
  h1 <- hpt(s$a, s$b, exact_ties = TRUE)
  expect_equal(h1$benchmarks$p_a, h0$benchmarks$p_a, tolerance = 1e-12)
  if (all(h0$benchmarks$d != 0) && !anyDuplicated(abs(h0$benchmarks$d))) {
    expect_equal(h1$confidence, h0$confidence, tolerance = 1e-12)
  }
})

test_that("exact_ties across benchmarks with zeros and tied |d| matches enumeration", {
  # build benchmarks whose outcome is forced: clear wins, ties and losses
  # with equal medians differences
  a <- list(c(2, 2.1, 2.2, 2.3, 2.4), c(1, 1.1, 1.2, 1.3, 1.4),
            c(1, 1.01, 1.02, 0.99, 0.98), c(3, 3.1, 3.2, 3.3, 3.4),
            c(1, 1.1, 1.2, 1.3, 1.4), c(5, 5.1, 5.2, 5.3, 5.4))
  b <- list(c(1, 1.1, 1.2, 1.3, 1.4), c(2, 2.1, 2.2, 2.3, 2.4),
            c(1, 1.01, 1.02, 0.99, 0.98), c(2, 2.1, 2.2, 2.3, 2.4),
            c(1.0, 1.1, 1.2, 1.3, 1.4) + 1, c(1, 1.1, 1.2, 1.3, 1.4))
  h <- hpt(a, b, higher_is_better = TRUE, exact_ties = TRUE)
  expect_equal(h$benchmarks$winner, c("A", "B", "tie", "A", "B", "A"))
  expect_equal(h$benchmarks$rank, c(3.5, 3.5, 1, 3.5, 3.5, 6))
  expect_matches_ref(h, ref_hpt(a, b, TRUE, exact_ties = TRUE))
  hc <- hpt(a, b, higher_is_better = TRUE)
  expect_equal(hc$confidence, 1 - psignrank(floor(hc$R_B), 6))
})

# ---- r-Speedup -------------------------------------------------------------

scan_confidence <- function(s, higher, gamma, ...) {
  vapply(gamma, function(g) {
    hpt(s$a, s$b, higher_is_better = higher, speedup = g, ...)$confidence
  }, numeric(1))
}

test_that("hpt_speedup() is the supremum found by a fine scan of gamma", {
  set.seed(105)
  for (rep in 1:5) {
    higher <- rep %% 2 == 1
    s <- random_suite(n = 10, na = 5, nb = 5, shift = if (higher) -0.6 else 0.6,
                      digits = if (rep > 3) 2 else NULL)
    r <- c(0.95, 0.9, 0.95, 0.8, 0.95)[rep]
    sp <- hpt_speedup(s$a, s$b, confidence = r, higher_is_better = higher)
    expect_true(is.finite(sp$supremum))
    grid <- seq(1, sp$supremum + 0.05, by = 0.0005)
    conf <- scan_confidence(s, higher, grid)
    reach <- grid[conf >= r]
    # the scan never goes beyond the supremum, and gets within a step of it
    expect_lte(max(reach), sp$supremum)
    expect_lt(sp$supremum - max(reach), 0.0005 + 1e-12)
    # the printed value is a multiple of 0.01 within 0.01 below the
    # supremum (the supremum itself only when attained), and its claim holds
    expect_equal(sp$speedup * 100, round(sp$speedup * 100))
    expect_lte(sp$speedup, sp$supremum)
    expect_lte(sp$supremum - sp$speedup, 0.01 + 1e-9)
    if (!sp$attained) expect_lt(sp$speedup, sp$supremum)
    expect_gte(hpt(s$a, s$b, higher_is_better = higher,
                   speedup = sp$speedup)$confidence, r)
    expect_gte(sp$test$confidence, r)
    expect_lt(hpt(s$a, s$b, higher_is_better = higher,
                  speedup = sp$speedup + 0.01)$confidence, r)
    # attained or not, as the confidence at the supremum says
    expect_equal(sp$attained,
                 scan_confidence(s, higher, sp$supremum) >= r)
  }
})

test_that("hpt_speedup() on Table 1 and with exact_ties", {
  sp <- hpt_speedup(x_scores(), higher_is_better = TRUE)
  # the paper reports 1.76 from unrounded data; the printed, rounded scores
  # give a supremum a little above it
  expect_gte(sp$speedup, 1.76)
  expect_lt(sp$speedup, 1.80)
  expect_gte(hpt(x_scores(), higher_is_better = TRUE,
                 speedup = sp$speedup)$confidence, 0.95)
  grid <- seq(1.7, 1.85, by = 0.0005)
  s <- list(a = split(x_scores()$score[1:70], splash2_hpt$benchmark[1:70]),
            b = split(splash2_hpt$score[71:140], splash2_hpt$benchmark[71:140]))
  conf <- scan_confidence(s, TRUE, grid)
  expect_lt(sp$supremum - max(grid[conf >= 0.95]), 0.0005 + 1e-12)
  expect_snapshot(print(sp))

  se <- hpt_speedup(s$a, s$b, higher_is_better = TRUE, exact_ties = TRUE)
  conf <- scan_confidence(s, TRUE, grid, exact_ties = TRUE)
  reach <- grid[conf >= 0.95]
  expect_lte(max(reach), se$supremum)
  expect_lt(se$supremum - max(reach), 0.0005 + 1e-12)
  expect_gte(se$test$confidence, 0.95)
})

test_that("hpt_speedup() gives NA when gamma = 1 is not enough, and honours precision", {
  set.seed(106)
  s <- random_suite(n = 8, na = 5, nb = 5, shift = -0.5)   # B is faster
  sp <- hpt_speedup(s$a, s$b)
  expect_true(is.na(sp$speedup))
  expect_true(is.na(sp$supremum))
  expect_null(sp$test)
  expect_lt(hpt(s$a, s$b)$confidence, 0.95)
  expect_output(print(sp), "No speedup")

  s <- random_suite(n = 8, na = 5, nb = 5, shift = 0.8)
  sp <- hpt_speedup(s$a, s$b, precision = 0.001)
  expect_equal(sp$speedup * 1000, round(sp$speedup * 1000))
  expect_lte(sp$supremum - sp$speedup, 0.001 + 1e-9)
  expect_gte(sp$test$confidence, 0.95)
  expect_output(print(sp), "r-Speedup")
})

# ---- output and plot ----------------------------------------------------------

test_that("format, summary, as.data.frame and plot", {
  h <- hpt(splash2_hpt, higher_is_better = TRUE)
  txt <- format(h)
  expect_true(any(grepl("R_A = 80, R_B = 25", txt, fixed = TRUE)))
  expect_true(any(grepl("Stat. Win.", txt, fixed = TRUE)))
  sm <- summary(h)
  expect_s3_class(sm, "summary.speeduptest_hpt")
  expect_equal(unname(sm$statistics[c("R_A", "R_B")]), c(80, 25))
  expect_output(print(sm), "confidence")
  df <- as.data.frame(h)
  expect_named(df, c("benchmark", "median_a", "median_b", "winner", "d",
                     "rank", "p_a", "p_b", "w_a", "runs_a", "runs_b"))
  grDevices::pdf(NULL)
  on.exit(grDevices::dev.off())
  pl <- plot(h, gamma = seq(0.9, 1.2, by = 0.05))
  expect_equal(pl$confidence[pl$gamma == 1], h$confidence)
  expect_true(all(diff(pl$confidence) <= 1e-12))   # decreasing here
  expect_silent(plot(hpt(x_scores(), higher_is_better = TRUE, speedup = 1.76)))
  set.seed(107)
  s <- random_suite(n = 6, na = 5, nb = 5, shift = 0.5)
  ht <- hpt(s$a, s$b, speedup = 1.2)
  pt <- plot(ht)
  expect_equal(pt$confidence[1], hpt(s$a, s$b)$confidence)
  h_fail <- hpt(splash2_hpt, higher_is_better = TRUE, speedup = 1.5)
  expect_match(h_fail$conclusion, "^Cannot conclude")
})

# ---- input ----------------------------------------------------------------------

test_that("ragged runs, unequal run counts and the alpha_bench default", {
  a <- rbind(p = c(1, 1.1, 1.2, NA), q = c(2, 2.1, 2.3, 2.2), r = c(3, 3.3, 3.1, NA))
  b <- rbind(p = c(1.5, 1.6, 1.7), q = c(2.6, 2.7, 2.8), r = c(3.6, 3.5, 3.9))
  # without na_rm the benchmarks holding NA are skipped, q is analysed
  expect_warning(expect_warning(h1 <- hpt(a, b), '"p" skipped'), '"r" skipped',
                 class = "speeduptest_warning_skipped")
  expect_equal(h1$benchmarks$benchmark, "q")
  expect_equal(h1$problems$benchmark, c("p", "r"))
  expect_match(h1$problems$message[1], "1 missing value.*`a`.*na_rm = TRUE")
  h <- hpt(a, b, na_rm = TRUE)
  expect_equal(nrow(h$problems), 0L)
  expect_equal(h$benchmarks$runs_a, c(3L, 4L, 3L))
  expect_equal(h$alpha_bench, 0.10)       # fewer than 5 runs
  expect_equal(h$benchmarks$winner, rep("A", 3))   # A's times are lower
  expect_matches_ref(h, ref_hpt(list(a[1, 1:3], a[2, ], a[3, 1:3]),
                                list(b[1, ], b[2, ], b[3, ])))
  expect_equal(hpt(a, b, na_rm = TRUE, alpha_bench = 0.01)$alpha_bench, 0.01)
})

test_that("bad input raises classed errors", {
  a <- matrix(1:15 / 10, 5, dimnames = list(letters[1:5], NULL))
  b <- matrix(2:16 / 10, 5, dimnames = list(letters[c(1:4, 6)], NULL))
  # benchmarks in one of a and b only are skipped, the others analysed
  expect_warning(expect_warning(h <- hpt(a, b), '"e" skipped: it is in `a`'),
                 '"f" skipped: it is in `b`')
  expect_equal(h$benchmarks$benchmark, letters[1:4])
  expect_equal(h$n, 4L)
  expect_error(hpt(a, unname(b)[1:4, ]), class = "speeduptest_error_mismatch")
  # nothing left: a classed error giving the reasons
  expect_error(hpt(a[, 1:2], a[, 1:2]), class = "speeduptest_error_data")
  expect_error(hpt(a[, 1:2], a[, 1:2]), "2 runs in `a` \\(at least 3")
  expect_error(hpt(-a, a), "value\\(s\\) <= 0 in `a`")
  expect_error(hpt(a, -a), "value\\(s\\) <= 0 in `b`")
  expect_error(hpt(matrix(letters[1:15], 5), a), class = "speeduptest_error_input")
  expect_error(hpt(list(a = "x"), list(a = 1:3)), class = "speeduptest_error_input")
  expect_error(hpt(a), class = "speeduptest_error_input")
  long <- splash2_hpt[!(splash2_hpt$benchmark == "fft" & splash2_hpt$machine == "Y"), ]
  expect_warning(hl <- hpt(long, higher_is_better = TRUE),
                 '"fft" skipped: no runs of Y', class = "speeduptest_warning_skipped")
  expect_false("fft" %in% hl$benchmarks$benchmark)
  expect_equal(hl$n, length(unique(splash2_hpt$benchmark)) - 1L)
  three <- splash2_hpt
  three$machine <- as.character(three$machine)
  three$machine[1] <- "Z"
  # a third machine in one benchmark skips that benchmark only
  expect_warning(h3 <- hpt(three, higher_is_better = TRUE),
                 sprintf('"%s" skipped: runs of a machine other than "X" and "Y": "Z"',
                         three$benchmark[1]),
                 class = "speeduptest_warning_skipped")
  expect_false(three$benchmark[1] %in% h3$benchmarks$benchmark)
  expect_equal(h3$n, length(unique(splash2_hpt$benchmark)) - 1L)
  expect_error(hpt(splash2_hpt, splash2_hpt), class = "speeduptest_error_input")
  expect_error(hpt(a, a, speedup = 0), class = "speeduptest_error_input")
  expect_error(hpt(a, a, alpha_bench = 1), class = "speeduptest_error_input")
  expect_error(hpt(a, a, exact_ties = NA), class = "speeduptest_error_input")
  expect_error(hpt_speedup(a, a, confidence = 1.2), class = "speeduptest_error_input")
  expect_error(hpt_speedup(a, a, precision = 0), class = "speeduptest_error_input")
  expect_warning(expect_warning(hpt_speedup(a, b), "skipped"), "skipped")
  expect_error(hpt(a, a), NA)
})

test_that("hpt_speedup() runs beyond 4,500 benchmarks and its supremum is where the confidence crosses", {
  # the old candidate-by-candidate scan refused above about 4,500
  set.seed(46)
  nb <- 4600
  a <- matrix(rlnorm(nb * 5, 0, 0.05), nb) * exp(rnorm(nb))
  b <- a * exp(rnorm(nb, 0.2, 0.1)) * matrix(rlnorm(nb * 5, 0, 0.05), nb)
  sp <- hpt_speedup(a, b)
  expect_true(is.finite(sp$supremum))
  expect_gte(hpt(a, b, speedup = sp$speedup)$confidence, 0.95)
  expect_lt(hpt(a, b, speedup = sp$supremum * (1 + 1e-6))$confidence, 0.95)
  expect_equal(hpt(a, b, speedup = sp$supremum)$confidence >= 0.95,
               sp$attained)
})

test_that("hpt_speedup() is the supremum of a fine scan on larger tied suites", {
  # runs between decision events are settled by bisection: compare with a
  # scan on suites with many events and ties, both orientations
  set.seed(107)
  for (rep in 1:4) {
    higher <- rep %% 2 == 0
    s <- random_suite(n = 40, na = 6, nb = 7, shift = if (higher) -0.5 else 0.5,
                      digits = if (rep > 2) 2 else 3)
    sp <- hpt_speedup(s$a, s$b, confidence = 0.9, higher_is_better = higher)
    expect_true(is.finite(sp$supremum))
    grid <- seq(1, sp$supremum + 0.1, by = 0.001)
    conf <- scan_confidence(s, higher, grid)
    expect_lte(max(grid[conf >= 0.9]), sp$supremum)
    expect_lt(sp$supremum - max(grid[conf >= 0.9]), 0.001 + 1e-12)
    expect_equal(sp$attained,
                 scan_confidence(s, higher, sp$supremum) >= 0.9)
  }
})
