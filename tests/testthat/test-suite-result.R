# The pieces of a suite's result made in C or by shortcuts
# (R/suite-result.R, R/suite-notes.R, src/suite-columns.c,
# src/round-text.c, src/paste.c) against the R code they replace.

test_that("round_text() and round_coder() give as.character(round()) with NA as \"NA\"", {
  ns <- asNamespace("speeduptest")
  set.seed(11)
  ref <- function(x, d) {
    out <- as.character(round(x, d))
    out[is.na(x)] <- "NA"
    out
  }
  # ties at the last digit, both signs, zeros of both signs, the missing,
  # the infinite, the large and the tiny
  x <- c(runif(2000, 0, 5), -runif(200, 0, 5), (0:2000) / 1000 + 5e-4,
         c(0, -0, NA, NaN, Inf, -Inf, 1e20, -1e-20, 123456.78951, 2.675,
           1.0005, 0.0015, 5e-4, -5e-4))
  x <- sample(x)
  for (d in c(0L, 3L, 4L)) {
    expect_identical(ns$round_text(x, d), ref(x, d))
    coder <- ns$round_coder(d)
    expect_identical(ns$uncoded(coder(x)), ref(x, d))
    # the strings of the first vector kept for the next
    y <- c(x[1:100], runif(50))
    expect_identical(ns$uncoded(coder(y)), ref(y, d))
    expect_identical(ns$uncoded(coder(x)), ref(x, d))
  }
  expect_identical(ns$round_text(double(), 3L), character())
  expect_identical(ns$round_text(c(a = 1.23456), 3L), "1.235")
  expect_identical(ns$round_text(c(1L, NA), 3L), c("1", "NA"))
  expect_identical(ns$round_coder(3L)(c(1L, NA)), c("1", "NA"))
  # the distinct values in order of appearance, 0 and -0 as one
  ri <- .Call(ns$ffi_round_index, c(2.0004, -0, 0, NA, 2, NaN, 1), 3)
  expect_identical(ri[[1L]], c(2, 0, 1))
  expect_identical(ri[[2L]], c(1L, 2L, 2L, 4L, 1L, 4L, 3L))
})

test_that("lazy_rows() joins coded pieces as their strings", {
  ns <- asNamespace("speeduptest")
  set.seed(12)
  lev <- c("alpha", NA, "", "caf\u00e9")
  code <- sample(c(1:4, NA), 30, replace = TRUE)
  piece <- ns$coded(code, lev)
  x <- as.character(1:30)
  groups <- list(list("a: ", piece, " / ", x), list(piece, ns$coded(2L, lev)))
  sizes <- c(30L, 30L)
  g <- rep(1:2, each = 30)
  r <- c(30:1, 1:30)
  want <- c(paste0("a: ", lev[code], " / ", x)[30:1], paste0(lev[code], NA))
  got <- ns$lazy_rows(groups, sizes, g, r)
  expect_identical(got[[5]], want[[5]])
  expect_identical(got, want)
  expect_identical(Encoding(ns$lazy_rows(groups, sizes, g, r)), Encoding(want))
  # a code outside its levels, or latin1 text: joined by paste0() instead
  bad <- list(list("a", ns$coded(c(1L, 5L), c("x", "y", "z", "w"))))
  expect_null(.Call(ns$ffi_paste_rows_lazy, bad, 2L, c(1L, 1L), 1:2))
  l1 <- iconv("caf\u00e9", "UTF-8", "latin1")
  lat <- list(list("a", ns$coded(c(1L, 2L), c("x", l1))))
  expect_null(.Call(ns$ffi_paste_rows_lazy, lat, 2L, c(1L, 1L), 1:2))
  expect_identical(ns$lazy_rows(lat, 2L, c(1L, 1L), 2:1), paste0("a", c(l1, "x")))
})

test_that("ffi_suite_split() reads a protocol's columns as indexing and na_if_nan()", {
  ns <- asNamespace("speeduptest")
  set.seed(13)
  for (np in 1:3) {
    nb <- 25
    cols <- list(a = c(runif(nb * np - 3), NaN, NA, 1), b = rep(c(NaN, 2), length.out = nb * np))
    for (i in seq_len(np)) {
      got <- .Call(ns$ffi_suite_split, cols, np, i, c(TRUE, FALSE))
      rows <- seq.int(i, by = np, length.out = nb)
      expect_identical(got, list(a = ns$na_if_nan(cols$a[rows]), b = cols$b[rows]))
    }
  }
})

test_that("ffi_suite_decide() gives the decisions and directions of R's vector code", {
  ns <- asNamespace("speeduptest")
  set.seed(14)
  n <- 3000
  pick <- function(v) sample(v, n, replace = TRUE)
  dec <- pick(c(-1, 0, 1))
  alpha <- pick(c(0.05, 0.01, NA, 0.5))
  pa <- pick(c(runif(20), NA))
  psa <- pick(c(runif(20), NA))
  peqa <- pick(c(runif(20), NA))
  # the R code of new_speedup_suite() before ffi_suite_decide()
  ref <- function(dec, alpha, pa, psa, peqa) {
    tested <- dec >= 0 & !is.na(pa)
    dec[tested] <- as.integer(pa[tested] <= alpha[tested])
    direction <- c("none", "slowdown")[(!is.na(psa) & psa <= alpha) + 1L]
    if (!is.null(peqa)) {
      direction[which(direction == "none" & !is.na(peqa) & peqa <= alpha)] <- "equivalent"
    }
    direction[which(dec == 1)] <- "speedup"
    direction[which(dec < 0)] <- NA_character_
    significant <- dec == 1
    significant[dec < 0] <- NA
    list(decision = dec, direction = direction, words = ns$decision_words(direction),
         significant = significant)
  }
  for (eq in list(NULL, peqa)) {
    got <- .Call(ns$ffi_suite_decide, dec, alpha, pa, psa, eq)
    want <- ref(dec, alpha, pa, psa, eq)
    expect_identical(got$decision, want$decision)
    expect_identical(got$significant, want$significant)
    expect_identical(ns$decision_table$direction[got$direction], want$direction)
    expect_identical(ns$decision_table$words[got$direction], want$words)
  }
})

test_that("interleave_columns() and ffi_suite_short() give R's indexing", {
  ns <- asNamespace("speeduptest")
  set.seed(15)
  nb <- 40
  for (v in list(runif(nb), sample(c(TRUE, FALSE, NA), nb, TRUE), 1:nb,
                 sample(c("a", NA, "b"), nb, TRUE))) {
    for (k in 1:3) {
      parts <- lapply(seq_len(k), function(i) v[c(i:nb, seq_len(i - 1))])
      want <- as.vector(t(do.call(cbind, parts)))
      expect_identical(ns$interleave_columns(parts), want)
    }
  }
  expect_null(ns$interleave_columns(list(1:3, c(1, 2, 3))))
  expect_null(ns$interleave_columns(list(1:3, 1:2)))
  expect_null(ns$interleave_columns(list(c(a = 1))))
  expect_null(ns$interleave_columns(list(1:2, factor(c("a", "b")))))
  expect_null(ns$interleave_columns(list()))
  lev <- sample(c(runif(30, 0.5, 1), NA, 0.98, 0.9), 500, TRUE)
  alpha <- sample(c(0.01, 0.05, 0.5, 0.6, NA), 500, TRUE)
  want <- which(!is.na(lev) & !is.na(alpha) & alpha < 0.5 & lev < 1 - 2 * alpha - 1e-9)
  expect_identical(ns$suite_short_rows(lev, alpha), want)
})

test_that("ffi_suite_detectable_mean() gives detectable_mean_at()", {
  ns <- asNamespace("speeduptest")
  set.seed(19)
  k <- 500
  vx <- sample(c(rexp(20), 0, NA), k, TRUE)
  vy <- sample(c(rexp(20), 0, NaN), k, TRUE)
  n <- sample(c(1L, 2L, 5L, 31L), k, TRUE)
  m <- sample(c(1L, 3L, 10L), k, TRUE)
  mx <- sample(c(runif(20, 0.1, 3), 0.01, NA, NaN), k, TRUE)
  alpha <- sample(c(0.05, 0.01, 0.2, NA), k, TRUE)
  for (s0 in c(1, 1.02)) {
    got <- .Call(ns$ffi_suite_detectable_mean, vx, vy, as.double(n), as.double(m),
                 mx, alpha, 0.8, s0)
    # (R's qt() warns of the NaN of one run a side, which a suite never
    # reaches: its benchmarks without a decision have no detectable)
    want <- suppressWarnings(ns$detectable_mean_at(vx, vy, n, m, mx, alpha, 0.8, s0))
    expect_identical(got, want)
  }
  expect_true(any(is.infinite(got)) && anyNA(got))
})

test_that("suite_caveats() gives the caveats appended in turn", {
  ns <- asNamespace("speeduptest")
  set.seed(16)
  nb <- 300
  codes <- as.double(sample(c(0, 1, 3, 10, 64), nb, TRUE))
  single <- sample(c(TRUE, FALSE), nb, TRUE)
  ro <- sort(sample(nb, 20))
  ro_text <- character(nb)
  ro_text[ro] <- paste("drift", ro)
  short <- sort(sample(nb, 15))
  short_txt <- paste("short", short)
  # the sequential code of new_speedup_suite() before suite_caveats()
  cav <- ns$suite_caveat_text(codes)
  cav[ro] <- ifelse(nzchar(cav[ro]), paste(cav[ro], ro_text[ro], sep = "; "), ro_text[ro])
  cav[short] <- ifelse(nzchar(cav[short]), paste(cav[short], short_txt, sep = "; "), short_txt)
  one <- which(single)
  txt <- ns$suite_run_order_phrases[["single_process"]]
  u <- unique(cav[one])
  cav[one] <- ifelse(nzchar(u), paste(u, txt, sep = "; "), txt)[match(cav[one], u)]
  expect_identical(ns$suite_caveats(codes, single, ro, ro_text, short, short_txt), cav)
  expect_identical(ns$suite_caveats(codes, FALSE & single, integer(), character(nb),
                                    integer(), NULL),
                   ns$suite_caveat_text(codes))
})

test_that("the shortcuts give the values of the code they replace", {
  ns <- asNamespace("speeduptest")
  set.seed(17)
  # interval_level() and ifelse()
  for (a in list(runif(100), c(0.05, NA, 0.7), double(), c(a = 0.1), 0.5)) {
    expect_identical(ns$interval_level(a), ifelse(a < 0.5, 1 - 2 * a, NA_real_))
  }
  # fmt_p_each() and fmt_p() value by value
  p <- c(0, NA, 1e-7, 3.2e-5, 1e-4, 0.0312, 0.99951, 1, 0.5, NaN)
  expect_identical(ns$fmt_p_each(p), vapply(p, ns$fmt_p, ""))
  # qnorm_each(), qt_each() and R's
  q <- rep(0.95, 200)
  expect_identical(ns$qnorm_each(q), stats::qnorm(q))
  expect_identical(ns$qt_each(q, rep(18, 200)), stats::qt(q, 18))
  q2 <- sample(c(0.9, 0.95, 0.99), 200, TRUE)
  expect_identical(ns$qnorm_each(q2), stats::qnorm(q2))
  df <- sample(5:8, 200, TRUE)
  expect_identical(ns$qt_each(q2, df), stats::qt(q2, df))
  # small_frame() and data.frame()
  expect_identical(ns$small_frame(a = c("x", "y"), b = 1:2, c = 0.5, d = TRUE),
                   data.frame(a = c("x", "y"), b = 1:2, c = 0.5, d = TRUE,
                              stringsAsFactors = FALSE))
  expect_identical(ns$small_frame(a = c(u = 1, v = 2), b = 1:2),
                   data.frame(a = c(u = 1, v = 2), b = 1:2))
  # suite_log_sd() on the needed values and on all of them
  s <- list(values = rlnorm(400), x_start = c(0, 100, 200), x_len = c(50L, 60L, 2L),
            y_start = c(50, 160, 300), y_len = c(50L, 40L, 100L))
  idx <- c(3L, 1L)
  lv <- log(s$values)
  n <- s$x_len[idx]
  m <- s$y_len[idx]
  vx <- .Call(ns$ffi_suite_variances, lv, as.double(s$x_start[idx]), as.double(n))
  vy <- .Call(ns$ffi_suite_variances, lv, as.double(s$y_start[idx]), as.double(m))
  expect_identical(ns$suite_log_sd(s, idx),
                   sqrt(((n - 1) * vx + (m - 1) * vy) / (n + m - 2)))
})

test_that("suite_notes() gives the notes of the rows shown in benchmark order", {
  set.seed(18)
  same <- lapply(1:60, function(i) {
    n <- sample(c(3, 8, 31), 1)
    list(x = rlnorm(n, log(10), 0.05), y = rlnorm(n, log(10 / sample(c(1, 1.05), 1)), 0.05))
  })
  names(same) <- sprintf("b%02d", 1:60)
  for (args in list(list(), list(p_adjust = "holm"), list(min_speedup = 1.02),
                    list(protocols = c("median", "mean", "prob")))) {
    s <- do.call(speedup_suite, c(list(same), args))
    bm <- s$benchmarks
    msg <- s$notes$message
    expect_identical(s$notes$benchmark, bm$benchmark[match(s$notes$benchmark, bm$benchmark)])
    expect_false(is.unsorted(match(s$notes$benchmark, bm$benchmark)))
    # each note names its protocol's figure and its decision words
    for (k in seq_along(msg)) {
      p <- s$notes$protocol[k]
      b <- match(s$notes$benchmark[k], bm$benchmark)
      expect_true(startsWith(msg[k], speeduptest:::protocol_info(p)$what))
      if (!is.na(bm[[paste0(p, "_direction")]][b])) {
        expect_true(grepl(bm[[paste0(p, "_decision")]][b], msg[k], fixed = TRUE))
      }
    }
  }
})
