# speedup_suite() on timings grouped by integer codes in one pass
# (R/suite-timings.R, src/suite-timings.c): the same suites as the table of
# timings_pairs() read by suite_from_frame(), the path every timings took
# before, which stays for the timings that need their checks one by one.

ns <- asNamespace("speeduptest")

# expr evaluated with the grouping switched off: every timings goes
# through timings_pairs() and suite_from_frame()
without_grouping <- function(expr) {
  old <- get("suite_from_timings", ns)
  unlockBinding("suite_from_timings", ns)
  assign("suite_from_timings", function(t, initial) NULL, ns)
  on.exit({
    assign("suite_from_timings", old, ns)
    lockBinding("suite_from_timings", ns)
  })
  expr
}

# timings of nb benchmarks x n runs per version, the rows shuffled within
# each benchmark when `shuffle`, processes as `process` says
make_timings <- function(nb, n, process = "none", seed = 1, shuffle = FALSE,
                         factor_names = FALSE, rounds = FALSE,
                         run_order = "sample") {
  set.seed(seed)
  df <- do.call(rbind, lapply(seq_len(nb), function(j) {
    s <- c(1, 1.03, 1.2)[j %% 3 + 1]
    d <- data.frame(benchmark = sprintf("b%03d", j),
                    version = rep(c("old", "new"), each = n),
                    time = c(rlnorm(n, 0, 0.05), rlnorm(n, -log(s), 0.05)),
                    run = rep(seq_len(n), 2))
    d$process <- switch(process,
                        none = NULL,
                        file = rep(1:2, each = n),
                        run = seq_len(2 * n) + 1000L * j,
                        several = rep(rep(1:3, length.out = n), 2) + rep(c(0L, 3L), each = n),
                        shared = rep(rep(1:2, length.out = n), 2))
    if (rounds) d$round <- rep(seq_len(n), 2)
    if (shuffle) d <- d[sample(nrow(d)), ]
    d
  }))
  if (factor_names) df$benchmark <- factor(df$benchmark, levels = rev(unique(df$benchmark)))
  t <- as_timings(df)
  attr(t, "run_order") <- run_order
  t
}

test_that("st_group_order gives the order of order(group, run), ties in row order", {
  set.seed(3)
  for (k in 1:30) {
    n <- sample(0:300, 1)
    ng <- sample(1:12, 1)
    g <- sample.int(ng, n, replace = TRUE)
    run <- if (k %% 3 == 0) as.double(seq_len(n)) else as.double(sample(0:20, n, replace = TRUE))
    r <- .Call(ns$ffi_group_order, g, run, ng)
    expect_identical(r$status, 0L)
    expect_identical(r$order, order(g, run))
    expect_identical(r$count, tabulate(g, ng))
    r0 <- .Call(ns$ffi_group_order, g, NULL, ng)
    expect_identical(r0$order, order(g))
  }
  # a code outside 1..ng is a domain error, never a write out of bounds
  bad <- .Call(ns$ffi_group_order, c(1L, 3L), c(1, 2), 2L)
  expect_identical(bad$status, 5L)
  bad <- .Call(ns$ffi_group_order, c(1L, NA), c(1, 2), 2L)
  expect_identical(bad$status, 5L)
  expect_error(.Call(ns$ffi_group_order, c(1, 2), NULL, 2L), "integer")
  expect_error(.Call(ns$ffi_group_order, 1L, c(1, 2), 2L), "as long")
})

test_that("st_timings_group groups by benchmark then version and checks the times", {
  set.seed(5)
  for (k in 1:20) {
    n <- sample(1:200, 1)
    nb <- sample(1:6, 1)
    b <- sample.int(nb, n, replace = TRUE)
    v <- sample(1:2, n, replace = TRUE)
    run <- sample(1:15, n, replace = TRUE)
    tm <- rlnorm(n)
    if (k %% 4 == 0) tm[sample(n, 1)] <- c(NA, Inf, 0, -2, NaN)[k %% 5 + 1]
    r <- .Call(ns$ffi_timings_group, b, v, if (k %% 2) run else as.double(run), tm, nb)
    expect_identical(r$status, 0L)
    expect_identical(r$order, order(b, v, run))
    expect_identical(r$count, tabulate(2L * b - 2L + v, 2L * nb))
    expect_identical(r$clean, all(is.finite(tm) & tm > 0))
  }
  expect_identical(.Call(ns$ffi_timings_group, 1:2, c(1L, 3L), NULL, c(1, 1), 2L)$status, 5L)
  expect_identical(.Call(ns$ffi_timings_group, c(1L, 3L), 1:2, NULL, c(1, 1), 2L)$status, 5L)
})

test_that("st_timings_suite groups as st_timings_group and counts processes as st_process_counts", {
  set.seed(11)
  for (k in 1:40) {
    nb <- sample(1:7, 1)
    len <- sample(1:9, nb, replace = TRUE)
    # runs of a benchmark together, benchmarks given per row or per start
    # (a name may come back later: a new start with an old code)
    seg <- sample.int(nb, sample(nb:(2 * nb), 1), replace = TRUE)
    seg[seq_len(nb)] <- seq_len(nb)
    seg_len <- sample(1:8, length(seg), replace = TRUE)
    b <- rep.int(seg, seg_len)
    n <- length(b)
    v <- sample(1:2, n, replace = TRUE)
    run <- sample(1:12, n, replace = TRUE)
    tm <- rlnorm(n)
    if (k %% 5 == 0) tm[sample(n, 1)] <- c(NA, Inf, 0, -1)[k %% 4 + 1]
    proc <- switch(k %% 6 + 1,
                   NULL,
                   sample(1:5, n, replace = TRUE),
                   ifelse(runif(n) < 0.2, NA_integer_, sample(1:5, n, replace = TRUE)),
                   as.double(sample(-3:40, n, replace = TRUE)),
                   sample(c(1.5, 2, 3), n, replace = TRUE),
                   c(1e15, rep(2, n - 1)))
    starts <- cumsum(c(1L, seg_len))[seq_along(seg)]
    rn <- if (k %% 2) run else as.double(run)
    for (given in c("rows", "starts")) {
      g <- if (given == "rows") {
        .Call(ns$ffi_timings_suite, b, NULL, v, rn, tm, proc, nb, TRUE)
      } else {
        .Call(ns$ffi_timings_suite, seg, as.integer(starts), v, rn, tm, proc, nb, TRUE)
      }
      ref <- .Call(ns$ffi_timings_group, b, v, rn, tm, nb)
      expect_identical(g$status, 0L)
      expect_identical(g$order, ref$order)
      expect_identical(g$order, order(b, v, run))
      expect_identical(g$count, ref$count)
      expect_identical(g$clean, ref$clean)
      expect_identical(g$values, tm[ref$order])
      if (is.null(proc)) {
        expect_identical(g$labelled, NA)
        expect_null(g$process_counts)
        next
      }
      expect_identical(g$labelled, !all(is.na(proc)))
      p <- proc[g$order]
      whole <- if (is.integer(p)) !all(is.na(p)) else
        all(!is.na(p) & p == trunc(p) & abs(p) < 1e15)
      if (!whole) {
        expect_null(g$process_counts)
        next
      }
      code <- ns$count_codes(p)
      j <- rep.int(seq_len(nb), g$count[c(TRUE, FALSE)] + g$count[c(FALSE, TRUE)])
      pc <- .Call(ns$ffi_process_counts, j, v[g$order], code, nb,
                  max(0L, code, na.rm = TRUE))
      expect_identical(g$process_counts, pc[c("has_na", "kx", "ky", "shared")])
      # without the rows asked for, the order stays in the core
      g2 <- .Call(ns$ffi_timings_suite, b, NULL, v, rn, tm, proc, nb, FALSE)
      expect_null(g2$order)
      expect_identical(g2[-2L], g[-2L])
    }
  }
  # codes outside their range are a domain error, never a write out of bounds
  expect_identical(.Call(ns$ffi_timings_suite, 1:2, NULL, c(1L, 3L), NULL, c(1, 1),
                         NULL, 2L, TRUE)$status, 5L)
  expect_identical(.Call(ns$ffi_timings_suite, c(1L, 3L), NULL, 1:2, NULL, c(1, 1),
                         NULL, 2L, TRUE)$status, 5L)
  expect_identical(.Call(ns$ffi_timings_suite, c(1L, 3L), c(1L, 2L), 1:2, NULL,
                         c(1, 1), NULL, 2L, TRUE)$status, 5L)
  expect_error(.Call(ns$ffi_timings_suite, 1:2, c(2L, 1L), 1:2, NULL, c(1, 1), NULL, 2L, TRUE),
               "increasing")
  expect_error(.Call(ns$ffi_timings_suite, 1:2, c(2L, 3L), 1:3, NULL, c(1, 1, 1), NULL, 2L, TRUE),
               "increasing")
  expect_error(.Call(ns$ffi_timings_suite, 1:2, NULL, 1:2, NULL, 1, NULL, 2L, TRUE), "as long")
})

test_that("rows in blocks, as files give them, are grouped in place as order() groups them", {
  # each (benchmark, version) group one run of rows in run order, the
  # blocks benchmark after benchmark or version after version (two files),
  # and near misses (a group split in two, a run number going back) that
  # take the general path: the same order, times and process counts
  set.seed(12)
  for (k in 1:60) {
    nb <- sample(1:6, 1)
    len <- matrix(sample(1:7, 2 * nb, replace = TRUE), 2)
    grp <- if (k %% 2) rbind(rep(seq_len(nb), each = 2), rep(1:2, nb)) else
      rbind(rep(seq_len(nb), 2), rep(1:2, each = nb))
    lens <- if (k %% 2) as.vector(len) else c(len[1, ], len[2, ])
    b <- rep.int(grp[1, ], lens)
    v <- rep.int(grp[2, ], lens)
    n <- length(b)
    run <- sequence(lens) + sample(0:2, 1)
    miss <- k %% 5
    if (miss == 1 && n > 2) {
      i <- sample(2:n, 1)
      run[i] <- run[i - 1] - 1L          # a run number goes back
    } else if (miss == 2 && n > 2) {
      o <- c(n, seq_len(n - 1))           # the last row first: a group split
      b <- b[o]
      v <- v[o]
      run <- run[o]
    }
    tm <- rlnorm(n)
    if (k %% 7 == 0) tm[sample(n, 1)] <- c(NA, Inf, 0, -1)[k %% 4 + 1]
    proc <- switch(k %% 5 + 1,
                   NULL,
                   c(1L, 2L)[v],
                   ifelse(runif(n) < 0.2, NA_integer_, sample(5:9, n, replace = TRUE)),
                   as.double(sample(-3:40, n, replace = TRUE)),
                   seq_len(n) + 1000)
    rn <- if (k %% 3) run else as.double(run)
    starts <- which(c(TRUE, b[-1L] != b[-n]))
    for (given in c("rows", "starts")) {
      g <- if (given == "rows") {
        .Call(ns$ffi_timings_suite, b, NULL, v, rn, tm, proc, nb, TRUE)
      } else {
        .Call(ns$ffi_timings_suite, b[starts], as.integer(starts), v, rn, tm, proc, nb, TRUE)
      }
      expect_identical(g$status, 0L)
      expect_identical(g$order, order(b, v, run))
      ref <- .Call(ns$ffi_timings_group, b, v, rn, tm, nb)
      expect_identical(g$count, ref$count)
      expect_identical(g$clean, ref$clean)
      expect_identical(g$values, tm[g$order])
      g2 <- .Call(ns$ffi_timings_suite, b, NULL, v, rn, tm, proc, nb, FALSE)
      expect_identical(g2$values, g$values)
      expect_identical(g2$count, g$count)
      if (is.null(proc)) {
        expect_null(g$process_counts)
        next
      }
      code <- ns$count_codes(proc[g$order])
      j <- rep.int(seq_len(nb), g$count[c(TRUE, FALSE)] + g$count[c(FALSE, TRUE)])
      pc <- .Call(ns$ffi_process_counts, j, v[g$order], code, nb,
                  max(0L, code, na.rm = TRUE))
      expect_identical(g$process_counts, pc[c("has_na", "kx", "ky", "shared")])
      expect_identical(g2$process_counts, g$process_counts)
    }
  }
})

test_that("the actions found from the core's process counts are those of the grouped rows", {
  for (process in c("file", "run", "several", "shared")) {
    for (seed in 1:3) {
      t <- make_timings(9, 5, process = process, seed = seed, shuffle = seed == 2)
      if (seed == 3) t$process[c(2, 17)] <- NA
      fast <- ns$suite_from_timings(t, NULL)
      expect_false(is.null(fast))
      # (counted by the core for whole-number labels in a short range)
      if (process == "file") expect_false(is.null(fast$split$process_counts))
      sp <- ns$timings_split(t, fast$split$versions, fast$split$benchmarks,
                             recorded = FALSE)
      for (rep in c("auto", "run", "process")) for (des in c("auto", "unpaired")) {
        expect_identical(ns$structure_actions(fast$split, rep, des),
                         ns$structure_actions(sp, rep, des),
                         info = paste(process, seed, rep, des))
      }
    }
  }
})

test_that("ffi_run_starts finds where a run of one text starts", {
  x <- c("a", "a", "b", "a", "a", "c", "c")
  expect_identical(.Call(ns$ffi_run_starts, x), c(1L, 3L, 4L, 6L))
  expect_identical(.Call(ns$ffi_run_starts, character()), integer())
  # one text in two encodings may start a run; the names stay one benchmark
  lat <- iconv("caf\u00e9", "UTF-8", "latin1")
  utf <- enc2utf8(lat)
  t <- as_timings(data.frame(benchmark = c(rep(lat, 6), rep(utf, 6)),
                             version = rep(rep(c("a", "b"), each = 3), 2),
                             time = rlnorm(12)))
  s <- suppressWarnings(speedup_suite(t))
  expect_identical(nrow(s$benchmarks), 1L)
  expect_identical(s$benchmarks$n, 6L)
})

test_that("the grouped suite is the suite of timings_pairs() read by suite_from_frame()", {
  cases <- list(
    make_timings(7, 5),
    make_timings(7, 5, shuffle = TRUE),
    make_timings(6, 4, factor_names = TRUE, shuffle = TRUE),
    make_timings(5, 6, process = "file", run_order = "global", shuffle = TRUE),
    make_timings(5, 6, process = "several", rounds = TRUE)
  )
  for (t in cases) {
    for (initial in list(NULL, "new")) {
      fast <- ns$suite_from_timings(t, initial)
      expect_false(is.null(fast))
      tp <- ns$timings_pairs(t, initial, require = TRUE, pairs = FALSE)
      ref <- ns$suite_from_frame(tp$data, "benchmark", "version", "time", FALSE, NULL)
      expect_identical(fast$suite, ref)
      expect_identical(fast$problems, tp$problems)
    }
  }
})

test_that("timings that need their checks one by one are left to the table", {
  t <- make_timings(4, 5)
  lone <- t[!(t$benchmark == "b002" & t$version == "new"), ]
  expect_null(ns$suite_from_timings(lone, NULL))
  bad <- t
  bad$time[3] <- -1
  expect_null(ns$suite_from_timings(bad, NULL))
  three <- t
  three$version <- factor(as.character(three$version), levels = c("old", "new", "mid"))
  three$version[1] <- "mid"
  expect_null(ns$suite_from_timings(three, NULL))
  ts <- t
  ts$timestamp <- as.POSIXct("2026-01-01", tz = "UTC") + seq_len(nrow(ts))
  expect_null(ns$suite_from_timings(ts, NULL))
  # and their suites are what they were
  for (x in list(lone, bad, three)) {
    expect_identical(suppressWarnings(speedup_suite(x)[-which(names(speedup_suite(t)) == "call")]),
                     suppressWarnings(without_grouping(speedup_suite(x))[-which(names(speedup_suite(t)) == "call")]))
  }
})

test_that("suites on timings with processes and rounds are those of the table path", {
  drop_call <- function(s) {
    s$call <- NULL
    s
  }
  for (proc in c("none", "file", "run", "several", "shared")) {
    for (rounds in c(FALSE, TRUE)) {
      t <- make_timings(9, 8, process = proc, rounds = rounds, shuffle = TRUE,
                        seed = nchar(proc))
      for (args in list(list(), list(p_adjust = "holm"), list(conf_level = NA),
                        list(replication = "run"), list(min_speedup = 1.02))) {
        if (!is.null(args$conf_level) && proc == "shared") next
        a <- tryCatch(suppressWarnings(drop_call(do.call(speedup_suite, c(list(t), args)))),
                      error = conditionMessage)
        b <- tryCatch(suppressWarnings(without_grouping(
          drop_call(do.call(speedup_suite, c(list(t), args))))), error = conditionMessage)
        expect_identical(a, b, label = sprintf("process %s, rounds %s, %s", proc, rounds,
                                               paste(names(args), args, collapse = " ")))
      }
    }
  }
})

test_that("one process per version: every benchmark keeps its caveat and loses its guarantee", {
  t <- make_timings(6, 8, process = "file")
  s <- suppressWarnings(speedup_suite(t))
  phrase <- ns$suite_run_order_phrases[["single_process"]]
  expect_true(all(endsWith(s$benchmarks$mean_caveats, phrase)))
  expect_true(all(endsWith(s$benchmarks$median_caveats, phrase)))
  expect_false(any(s$benchmarks$mean_guaranteed))
  expect_false(any(s$benchmarks$median_guaranteed))
  # a note per benchmark and protocol, as none is guaranteed, each ending
  # with the benchmark's caveats
  expect_identical(nrow(s$notes), 12L)
  for (p in c("mean", "median")) {
    nt <- s$notes[s$notes$protocol == p, ]
    cav <- s$benchmarks[[paste0(p, "_caveats")]][match(nt$benchmark, s$benchmarks$benchmark)]
    dirn <- s$benchmarks[[paste0(p, "_direction")]][match(nt$benchmark, s$benchmarks$benchmark)]
    sep <- ifelse(is.na(dirn) | dirn %in% "speedup", ": ", "; ")
    expect_true(all(endsWith(nt$message, paste0(sep, cav))))
    expect_true(any(!dirn %in% "speedup"))
  }
  expect_identical(s$replication, list(replication = "auto", design = "auto"))
})

test_that("count_codes() tells labels apart as label_codes() does", {
  set.seed(4)
  for (p in list(sample(1:5, 40, TRUE), c(3L, NA, 3L, 7L), as.double(sample(-3:3, 20, TRUE)),
                 c(1e12, 5, 1e12), c("a", "b", "a"), c(1.5, 2, 1.5), c(NaN, 1, NA))) {
    a <- ns$count_codes(p)
    b <- ns$label_codes(p)
    # the same partition of the runs, NA where no label
    expect_identical(is.na(a), is.na(b))
    ok <- !is.na(a)
    expect_identical(match(a[ok], a[ok]), match(b[ok], b[ok]))
    expect_true(all(a[ok] >= 1L))
  }
})

test_that("count_codes() offsets whole numbers in a short range as R's arithmetic does", {
  set.seed(5)
  ref <- function(p) as.integer(p - min(p, na.rm = TRUE)) + 1L
  for (k in 1:50) {
    p <- sample(c(sample(-40:40, 6), NA), rpois(1, 25) + 1L, TRUE)
    if (all(is.na(p))) next
    expect_identical(ns$count_codes(p), ref(p))
    d <- as.double(p[!is.na(p)])
    expect_identical(ns$count_codes(d), ref(d))
  }
  # a span wider than 4 n + 64, a fraction, an infinite or missing double,
  # an integer span beyond the integers: the codes of label_codes()
  for (p in list(c(1L, 1000L), c(1, 2.5), c(1, Inf), c(1, NA, 2), c(NA_integer_, NA),
                 c(-.Machine$integer.max, .Machine$integer.max), integer(), double())) {
    expect_identical(ns$count_codes(p), ns$label_codes(p))
  }
})

test_that("times already in group order are the time column itself, the samples' bounds as cumsum() gives them", {
  # one process per version, benchmark after benchmark (Google Benchmark
  # files): the blocks come in group order and the times need no copy;
  # version after version (two files): copied in group order
  for (layout in c("benchmarks", "versions")) {
    t <- make_timings(6, 5, process = "file")
    if (layout == "versions") t <- t[order(t$version != "old"), ]
    b <- t$benchmark
    starts <- .Call(ns$ffi_run_starts, b)
    bi <- match(b[starts], unique(b[starts]))
    g <- .Call(ns$ffi_timings_suite, bi, starts, t$version, t$run, t$time,
               t$process, 6L, FALSE)
    expect_identical(g$status, 0L)
    o <- order(match(b, unique(b)), t$version, t$run)
    expect_identical(g$values, t$time[o])
    if (layout == "benchmarks") expect_identical(g$values, t$time)
    odd <- seq(1L, by = 2L, length.out = 6L)
    cs <- cumsum(c(0, g$count))
    expect_identical(g$x_len, g$count[odd])
    expect_identical(g$y_len, g$count[odd + 1L])
    expect_identical(g$x_start, cs[odd])
    expect_identical(g$y_start, cs[odd + 1L])
    expect_true(g$both)
    # the suite's values change with the timings' times, never the other
    # way round
    fast <- ns$suite_from_timings(t, NULL)
    before <- t$time
    fast$suite$values[1] <- -1
    expect_identical(t$time, before)
  }
  # a benchmark with runs of one version only
  g <- .Call(ns$ffi_timings_suite, 1:2, 1:2, factor(c("a", "a")), NULL,
             c(1, 2), NULL, 2L, FALSE)
  expect_false(g$both)
})

test_that("missing names and versions, and a version without runs, leave the timings to the table", {
  t <- make_timings(4, 5, process = "file")
  na_name <- t
  na_name$benchmark[c(11, 12)] <- NA           # inside a benchmark's runs
  expect_null(ns$suite_from_timings(na_name, NULL))
  na_first <- t
  na_first$benchmark[1] <- NA                  # a run of its own
  expect_null(ns$suite_from_timings(na_first, NULL))
  na_version <- t
  na_version$version[7] <- NA
  expect_null(ns$suite_from_timings(na_version, NULL))
  unused <- t[t$version == "old", ]
  expect_identical(nlevels(unused$version), 2L)
  expect_null(ns$suite_from_timings(unused, NULL))
  expect_error(ns$suite_from_timings(unused, "new"), class = "speeduptest_error")
  drop_call <- function(s) s[names(s) != "call"]
  for (x in list(na_name, na_first, na_version)) {
    expect_identical(drop_call(suppressWarnings(speedup_suite(x))),
                     drop_call(suppressWarnings(without_grouping(speedup_suite(x)))))
  }
  # repeated names at the run starts (a benchmark's runs in two places):
  # grouped by name as the table groups them
  split_runs <- t[c(6:10, 1:5, 11:nrow(t)), ]
  fast <- ns$suite_from_timings(split_runs, NULL)
  expect_false(is.null(fast))
  tp <- ns$timings_pairs(split_runs, NULL, require = TRUE, pairs = FALSE)
  expect_identical(fast$suite,
                   ns$suite_from_frame(tp$data, "benchmark", "version", "time", FALSE, NULL))
})
