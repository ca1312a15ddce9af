# The pair of one benchmark of timings found from integer codes in the core
# (timings_pair()) against the subset and sort of the table
# (timings_pair_table(), the way every pair was found before).

pair_table <- function(t, benchmark, versions, initial) {
  tp <- speeduptest:::timings_pair(t, benchmark, versions, initial, FALSE)
  tp$plain <- NULL
  tp
}

test_that("the pair found from codes is the pair of the subset and sorted table", {
  set.seed(41)
  for (i in 1:150) {
    nb <- sample(c(1, 3), 1)
    nv <- sample(c(2, 3), 1)
    n <- sample(c(3, 8, 30), 1)
    d <- expand.grid(run = seq_len(n), version = c("old", "new", "mid")[seq_len(nv)],
                     benchmark = sprintf("b%d", seq_len(nb)), stringsAsFactors = FALSE)
    d$time <- rlnorm(nrow(d))
    if (i %% 3 == 0) d$round <- sample(d$run)
    if (i %% 4 == 0) d$process <- d$run %% 2
    if (i %% 5 == 0) d$warmup <- sample(c(TRUE, FALSE, NA), nrow(d), TRUE)
    if (i %% 6 == 0) {
      d$timestamp <- as.POSIXct("2026-01-01", tz = "UTC") + seq_len(nrow(d)) %/% 2
    }
    if (i %% 7 == 0) d$time[2] <- NA
    if (i %% 2 == 0) d <- d[sample(nrow(d)), ]
    t <- as_timings(d, run_order = if (i %% 3 == 1) "global" else "sample")
    b <- if (nb > 1) sample(unique(d$benchmark), 1) else NULL
    vv <- if (nv == 3) sample(c("old", "new", "mid"), 2) else NULL
    bm <- if (is.null(b)) unique(as.character(t$benchmark)) else b
    got <- pair_table(t, b, vv, NULL)
    want <- speeduptest:::timings_pair_table(t, bm, vv, NULL)
    expect_identical(got, want)
  }
})

test_that("the errors of a pair are those of the table", {
  t <- as_timings(data.frame(benchmark = rep(c("a", "b"), each = 6),
                             version = rep(c("x", "y", "z"), 4),
                             time = rlnorm(12)))
  expect_error(speeduptest:::timings_pair(t, NULL, NULL, NULL, FALSE),
               "The timings hold 2 benchmarks")
  expect_error(speeduptest:::timings_pair(t, "c", NULL, NULL, FALSE), "`benchmark` must be one of")
  expect_error(speeduptest:::timings_pair(t, "a", NULL, NULL, FALSE), "has 3 version")
  expect_error(speeduptest:::timings_pair(t, "a", c("x", "w"), NULL, FALSE),
               "`versions` must be two different versions")
  expect_error(speeduptest:::timings_pair(t, "a", NULL, "y", FALSE), "name both with `versions")
  one <- as_timings(data.frame(version = rep(c("x", "y"), each = 3), time = rlnorm(6)))
  expect_identical(pair_table(one, NULL, NULL, "y")$labels, c("y", "x"))
})

# A table of one or two benchmarks whose versions "old" and "new" ran m
# rounds, and the ways it may fall short of every round once per side.
round_table <- function(m, lo, flaw, shuffle, nb = 1L) {
  d <- do.call(rbind, lapply(sprintf("b%d", seq_len(nb)), function(b) {
    data.frame(benchmark = b, version = rep(c("old", "new"), each = m),
               round = c(sample(m), sample(m)) + lo - 1L, time = rlnorm(2 * m),
               stringsAsFactors = FALSE)
  }))
  d$run <- seq_len(nrow(d))
  switch(flaw,
         repeated = d$round[2] <- d$round[1],
         na_round = d$round[3] <- NA,
         missing = d <- d[-2, ],
         extra = d$round[1] <- lo + m,
         na_time = d$time[4] <- NA,
         zero_time = d$time[5] <- 0,
         process = d$process <- d$run %% 3,
         timestamp = d$timestamp <- as.POSIXct("2026-01-01", tz = "UTC") + d$run,
         warmup = d$warmup <- d$run %% 7 == 0,
         third = d$version[d$round %% 5 == 0 & d$version == "new"] <- "mid",
         none = NULL)
  if (shuffle == "rows") d <- d[sample(nrow(d)), ]
  if (shuffle == "runs") d$run <- sample(d$run)
  d
}

test_that("a pair holding every round once per side is paired by round in one pass, as the general path pairs it", {
  set.seed(43)
  flaws <- c("none", "repeated", "na_round", "missing", "extra", "na_time", "zero_time",
             "process", "timestamp", "warmup", "third")
  taken <- 0L
  for (i in 1:110) {
    m <- sample(c(3L, 6L, 40L, 70L), 1)
    lo <- sample(c(1L, 7L, -5L), 1)
    flaw <- flaws[(i - 1L) %% length(flaws) + 1L]
    shuffle <- sample(c("none", "rows", "runs"), 1, prob = c(2, 1, 1))
    nb <- sample(1:2, 1)
    d <- round_table(m, lo, flaw, shuffle, nb)
    t <- as_timings(d, run_order = if (i %% 4 == 0) "global" else "sample")
    b <- if (nb > 1L) "b2" else NULL
    vv <- if (flaw == "third") c("old", "new") else NULL
    p0 <- speeduptest:::timings_pair(t, b, vv, NULL, FALSE, by_round = FALSE)
    p1 <- speeduptest:::timings_pair(t, b, vv, NULL, FALSE, rows = FALSE, by_round = TRUE)
    # taken exactly when each side holds every round of lo..lo + m - 1
    # once, in recorded order, with plain times and no process or timestamp
    bb <- if (is.null(b)) "b1" else b
    marked <- if (is.null(d[["warmup"]])) FALSE else d[["warmup"]] %in% TRUE
    db <- d[d$benchmark == bb & !marked, ]
    dx <- db[db$version == "old", ]
    dy <- db[db$version == "new", ]
    once <- function(r) !anyNA(r) && length(r) == m && identical(sort(r), lo + seq_len(m) - 1L)
    ordered <- !is.unsorted(dx$run) && !is.unsorted(dy$run) &&
      (i %% 4 != 0 || !is.unsorted(db$run[db$version %in% c("old", "new")]))
    expect_fast <- m >= 6L && once(dx$round) && once(dy$round) && ordered &&
      all(is.finite(db$time) & db$time > 0) && is.null(d$process) && is.null(d$timestamp) &&
      flaw != "third"
    expect_identical(isTRUE(p1$rounds_in_order), expect_fast, info = paste(i, flaw, shuffle))
    if (expect_fast) {
      taken <- taken + 1L
      # the times in increasing round, by brute force
      expect_identical(p1$x, dx$time[order(dx$round)])
      expect_identical(p1$y, dy$time[order(dy$round)])
      expect_null(p1$rows)
    } else {
      expect_identical(p1[names(p0) != "rows"], p0[names(p0) != "rows"])
    }
    for (design in c("auto", "paired", "unpaired")) {
      s0 <- tryCatch(speeduptest:::structured_samples("mean", p0, TRUE, "auto", design),
                     error = conditionMessage)
      s1 <- tryCatch(speeduptest:::structured_samples("mean", p1, TRUE, "auto", design),
                     error = conditionMessage)
      if (is.character(s0) || design == "unpaired" || !isTRUE(s0$pairing$paired)) {
        # by_round is asked only for the designs that pair by round
        if (design != "unpaired") expect_identical(s1, s0)
      } else {
        expect_identical(s1$pairing, s0$pairing, info = paste(i, flaw, design))
        expect_identical(s1$info, s0$info)
      }
    }
    # the verdicts, which take the pass when they can, against the
    # general path
    # (the others were given the same parts, above)
    if (!expect_fast) next
    for (test in c("mean", "median")) {
      f <- if (test == "mean") mean_test else median_test
      v1 <- tryCatch(suppressWarnings(f(t, benchmark = b, versions = vv, na_rm = TRUE)),
                     error = conditionMessage)
      v0 <- tryCatch(suppressWarnings(speeduptest:::run_structured(
        test, p0, 0.05, TRUE, TRUE, quote(f()), "auto", "auto")), error = conditionMessage)
      if (is.character(v0)) {
        expect_identical(v1, v0)
        next
      }
      v0$call <- v1$call
      expect_identical(suppressWarnings(utils::capture.output(print(v1))),
                       suppressWarnings(utils::capture.output(print(v0))))
      expect_identical(v1$x, v0$x)
      expect_identical(v1$y, v0$y)
      expect_identical(v1$design, v0$design)
    }
  }
  expect_gt(taken, 10L)
})

test_that("the complete rounds' values gathered with the rounds are the values at their indices", {
  set.seed(44)
  for (i in 1:300) {
    nx <- sample(c(0L, 1L, 5L, 70L, 300L), 1)
    ny <- if (i %% 2) nx else sample(c(0L, 5L, 70L, 300L), 1)
    span <- sample(c(nx, 2L * nx + 3L, 10L * nx + 100L), 1)
    rx <- if (i %% 3 == 0) sample.int(nx) else sample.int(max(span, 1L), nx, replace = TRUE)
    ry <- if (i %% 3 == 0 && ny == nx) sample.int(nx) else sample.int(max(span, 1L), ny, replace = TRUE)
    if (i %% 5 == 0 && nx > 0) rx[1] <- NA
    if (i %% 7 == 0 && ny > 1) ry[2] <- ry[1]
    if (i %% 11 == 0) {
      rx <- rx + 1000000L
      ry <- ry + 1000000L
    }
    x <- rlnorm(nx)
    y <- rlnorm(ny)
    a <- .Call(speeduptest:::ffi_round_pairs, rx, c(0L, nx), ry, c(0L, ny))
    b <- .Call(speeduptest:::ffi_round_pair_values, rx, ry, x, y)
    expect_identical(b[c("status", "complete", "rounds", "shared")],
                     a[c("status", "complete", "rounds", "shared")])
    expect_identical(b$x, x[a$x_index])
    expect_identical(b$y, y[a$y_index])
  }
  expect_error(.Call(speeduptest:::ffi_round_pair_values, 1:3, 1:3, 1:3, c(1, 2, 3)),
               "must be double vectors")
})
