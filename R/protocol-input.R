# The two samples of one comparison, from the three ways a user gives them:
# two vectors, a formula `time ~ version` with its data, or one benchmark
# and two versions of timings.  Each sample keeps the order its runs were
# recorded in (the run-order checks read it), and the baseline says which
# version is the initial code and how it was chosen.

# The two samples of a pair of arguments (x, y), of a formula or of timings,
# for highest_confidence() and observed_speedups().
pair_samples <- function(x, y, data, na_rm, initial, benchmark, versions) {
  if (inherits(x, "speedup_timings")) {
    if (!is.null(y)) {
      abort("`y` must be NULL when `x` holds timings; choose the versions with `versions` or `initial`.")
    }
    return(timings_pair(x, benchmark, versions, initial, na_rm))
  }
  if (inherits(x, "formula")) {
    if (!is.null(y)) {
      abort("`y` must be NULL when `x` is a formula; pass the data frame as `data`.")
    }
    return(split_formula(x, data, na_rm, initial))
  }
  if (is.null(y)) {
    abort("`y` is missing: give the run times of the transformed code.")
  }
  list(x = x, y = y)
}

# Splits `time ~ version` into the two samples, each in the order of the
# rows.  The initial code x is `initial` when given; otherwise the first
# level of a factor, or the first value to appear in any other variable.
split_formula <- function(formula, data, na_rm, initial = NULL) {
  if (!inherits(formula, "formula") || length(formula) != 3L) {
    abort("`x` must be a formula `time ~ version` with a response and one grouping variable.")
  }
  rhs <- formula[[3L]]
  if (!is.name(rhs) && !is.call(rhs) || (is.call(rhs) &&
      deparse1(rhs[[1L]]) %in% c("+", "*", ":", "|", "-"))) {
    abort("The right-hand side of the formula must be a single grouping variable.")
  }
  env <- environment(formula)
  if (is.null(env)) env <- parent.frame()
  if (is.null(data)) {
    data <- env
  } else {
    check_formula_data(data, "data")
  }
  get_var <- function(expr, what) {
    out <- tryCatch(eval(expr, data, env), error = function(e) {
      abort(sprintf("Cannot find the %s `%s` of the formula: %s", what,
                    deparse1(expr), conditionMessage(e)))
    })
    out
  }
  time <- get_var(formula[[2L]], "response")
  group <- get_var(rhs, "grouping variable")
  if (!is.numeric(time)) {
    abort(sprintf("The response `%s` must be numeric, not %s.",
                  deparse1(formula[[2L]]), describe_type(time)))
  }
  if (length(group) != length(time)) {
    abort(sprintf("The response and the grouping variable must have the same length (%d and %d).",
                  length(time), length(group)))
  }
  if (anyNA(group)) {
    if (!isTRUE(na_rm)) {
      abort(sprintf("The grouping variable `%s` has %d missing value(s); remove them or set `na_rm = TRUE`.",
                    deparse1(rhs), sum(is.na(group))))
    }
    keep <- !is.na(group)
    time <- time[keep]
    group <- group[keep]
  }
  how <- if (is.factor(group)) "first level of the factor" else "first in the data"
  group <- if (is.factor(group)) {
    droplevels(group)
  } else {
    factor(group, levels = unique(as.character(group)))
  }
  lev <- levels(group)
  if (length(lev) != 2L) {
    abort(sprintf("The grouping variable `%s` must have exactly 2 levels (initial and transformed code), not %d: %s.",
                  deparse1(rhs), length(lev), quote_list(lev)), class = "data")
  }
  if (!is.null(initial)) {
    lev <- pick_initial(initial, lev)
    how <- "initial ="
  }
  list(x = time[group == lev[1L]], y = time[group == lev[2L]],
       labels = lev,
       data_name = sprintf("%s by %s (%s vs %s)", deparse1(formula[[2L]]),
                           deparse1(rhs), lev[1L], lev[2L]),
       baseline = sprintf('"%s" (%s)', lev[1L], how))
}

quote_list <- function(v, max = 10L) {
  out <- paste0('"', utils::head(v, max), '"', collapse = ", ")
  if (length(v) > max) out <- paste0(out, sprintf(", ... (%d in all)", length(v)))
  out
}

# The levels reordered so that `initial` comes first.
pick_initial <- function(initial, lev) {
  initial <- check_member(initial, lev, "initial", "the versions ")
  c(initial, setdiff(lev, initial))
}

# One benchmark and two versions of a speedup_timings object, each sample in
# recorded order, with the global positions of the runs when known.  The
# rows of the pair are found from integer codes in two passes of the core
# (ffi_pair_counts(), ffi_pair_rows()), without copying the table; when the
# runs are not already in recorded order, or a column is not of the type
# timings have, the table is subset and sorted (timings_pair_table()).
# With `rows = FALSE` the rows of the pair (`rows`, for warmup = "detect")
# are left out when nothing else needs them.  With `by_round = TRUE` (a
# design that pairs by round when it can), a pair whose sides each hold
# every round of a range once, in recorded order, with plain times and no
# processes, is given as its samples in increasing round, found in one
# pass of the core (ffi_pair_by_round): `rounds_in_order`, the rounds
# lo..hi, no rows nor positions (the paired design reads none of them).
timings_pair <- function(t, benchmark, versions, initial, na_rm, rows = TRUE,
                         by_round = FALSE) {
  bcol <- t$benchmark
  # the distinct benchmarks are among the rows where a name's runs start
  bs <- if (is.character(bcol) && length(bcol)) {
    unique(bcol[.Call(ffi_run_starts, bcol)])
  } else {
    unique(as.character(bcol))
  }
  if (is.null(benchmark)) {
    if (length(bs) != 1L) {
      abort(sprintf("The timings hold %d benchmarks; choose one with `benchmark =`: %s.",
                    length(bs), quote_list(bs)))
    }
    benchmark <- bs
  } else {
    benchmark <- check_member(benchmark, bs, "benchmark")
  }
  ver <- t$version
  levs <- attr(ver, "levels")
  run <- t$run
  ts <- t$timestamp
  if (!inherits(ts, "POSIXct")) ts <- NULL
  w <- t[["warmup"]]
  if (!is.character(bcol) || !is.factor(ver) || typeof(ver) != "integer" ||
      !is.character(levs) || anyNA(levs) ||
      !(is.null(run) || typeof(run) == "integer") ||
      !(is.null(ts) || typeof(ts) == "double")) {
    return(timings_pair_table(t, benchmark, versions, initial))
  }
  # the rows of the benchmark less the warm-ups a tool marked (pyperf,
  # BenchmarkDotNet), which are not runs to compare (warmup = "detect"
  # classifies them with the rest: warmup.R)
  sel <- if (length(bs) == 1L && !is.na(bs)) NULL else bcol == benchmark
  marked <- if (is.null(w)) NULL else if (is.logical(w)) w else w %in% TRUE
  counts <- .Call(ffi_pair_counts, sel, marked, ver, length(levs))
  if (is.null(counts)) return(timings_pair_table(t, benchmark, versions, initial))
  pv <- pair_versions(levs[counts > 0], benchmark, versions, initial)
  lev <- pv$lev
  side <- match(levs, lev, nomatch = 0L)
  run_global <- identical(attr(t, "run_order"), "global")
  # the times and rounds of plain columns are gathered in the same pass
  time <- t$time
  rnd <- t[["round"]]
  gt <- if (is.double(time) && is.null(attributes(time))) time
  gr <- if (is.integer(rnd) && is.null(attributes(rnd))) rnd
  proc <- t[["process"]]
  rows <- rows || is.null(gt) || !is.null(proc) || (!is.null(rnd) && is.null(gr))
  m <- as.integer(sum(counts[side == 1L]))
  if (by_round && is.null(ts) && !is.null(gt) && !is.null(gr) && is.null(proc) &&
      m >= 6L && m == sum(counts[side == 2L])) {
    pb <- .Call(ffi_pair_by_round, sel, marked, ver, side, run, m, run_global, gt, gr)
    if (!is.null(pb)) {
      r <- pb$lo:(pb$lo + m - 1L)
      return(list(x = pb$x, y = pb$y, labels = lev,
                  data_name = sprintf("%s: %s vs %s", benchmark, lev[1L], lev[2L]),
                  baseline = sprintf('"%s" (%s)', lev[1L], pv$how),
                  round = list(x = r, y = r), plain = TRUE, rounds_in_order = TRUE))
    }
  }
  pr <- .Call(ffi_pair_rows, sel, marked, ver, side, run, ts,
              as.integer(sum(counts[side == 1L])), as.integer(sum(counts[side == 2L])),
              !is.null(ts) || run_global, gt, gr, rows)
  # a run without its timestamp: the runs are in the order of `run`
  if (!is.null(pr) && !is.null(ts) && pr$ts_na) {
    ts <- NULL
    pr <- .Call(ffi_pair_rows, sel, marked, ver, side, run, NULL,
                as.integer(sum(counts[side == 1L])), as.integer(sum(counts[side == 2L])),
                run_global, gt, gr, rows)
  }
  global <- !is.null(ts) || run_global
  if (is.null(pr) || !pr$in_order || (global && !pr$in_order_both)) {
    return(timings_pair_table(t, benchmark, versions, initial))
  }
  ix <- pr$x
  iy <- pr$y
  out <- list(x = if (is.null(gt)) time[ix] else pr$time_x,
              y = if (is.null(gt)) time[iy] else pr$time_y, labels = lev,
       data_name = sprintf("%s: %s vs %s", benchmark, lev[1L], lev[2L]),
       baseline = sprintf('"%s" (%s)', lev[1L], pv$how),
       positions = if (global) list(x = pr$pos_x, y = pr$pos_y),
       process = if (!is.null(proc)) list(x = proc[ix], y = proc[iy]),
       round = if (!is.null(gr)) list(x = pr$round_x, y = pr$round_y)
               else if (!is.null(rnd)) list(x = rnd[ix], y = rnd[iy]),
       rows = if (rows) list(x = ix, y = iy))
  # every time gathered is a plain double, finite and > 0: the checks of
  # structured_samples() hold already
  if (isTRUE(pr$plain)) out$plain <- TRUE
  out
}

# The two versions of a benchmark whose versions are `lev` (in order of
# the factor levels, or of first appearance): `versions` when given, else
# `initial` and the other, else the two; and how the initial was chosen.
pair_versions <- function(lev, benchmark, versions, initial) {
  if (!is.null(versions)) {
    if (!is.null(initial)) {
      abort("Give `versions` or `initial`, not both.")
    }
    if (!is.character(versions) || length(versions) != 2L || anyNA(versions) ||
        !all(versions %in% lev) || versions[1L] == versions[2L]) {
      abort(sprintf("`versions` must be two different versions of %s (initial first), not %s.",
                    quote_list(lev), describe_value(versions)))
    }
    lev <- versions
    how <- "versions ="
  } else if (!is.null(initial)) {
    lev <- pick_initial(initial, lev)
    if (length(lev) > 2L) {
      abort(sprintf("Benchmark \"%s\" has %d versions (%s); name both with `versions = c(initial, transformed)`.",
                    benchmark, length(lev), quote_list(lev)))
    }
    how <- "initial ="
  } else {
    if (length(lev) != 2L) {
      abort(sprintf("Benchmark \"%s\" has %d version(s) (%s); choose two with `versions = c(initial, transformed)`.",
                    benchmark, length(lev), quote_list(lev)), class = "data")
    }
    how <- "first version in the timings"
  }
  list(lev = lev, how = how)
}

# timings_pair() of benchmark `benchmark` (checked) by subsetting and
# sorting the table: for timings whose runs are not in recorded order in
# the table, or whose columns are not of the types timings have.
timings_pair_table <- function(t, benchmark, versions, initial) {
  run_order <- attr(t, "run_order")
  t <- as.data.frame(unclass(t), stringsAsFactors = FALSE)
  marked <- if (is.null(t[["warmup"]])) FALSE else t[["warmup"]] %in% TRUE
  row_id <- which(t$benchmark == benchmark & !marked)
  t <- t[row_id, , drop = FALSE]
  ver <- t$version
  lev <- if (is.factor(ver)) levels(droplevels(ver)) else unique(as.character(ver))
  ver <- as.character(ver)
  pv <- pair_versions(lev, benchmark, versions, initial)
  lev <- pv$lev
  how <- pv$how
  keep <- ver %in% lev
  t <- t[keep, , drop = FALSE]
  row_id <- row_id[keep]
  ver <- ver[keep]
  run <- if (is.null(t$run)) seq_len(nrow(t)) else t$run
  ts <- t$timestamp
  has_ts <- !is.null(ts) && inherits(ts, "POSIXct") && length(ts) > 0L &&
    !anyNA(ts)
  o <- if (has_ts) order(as.double(ts), run) else order(run)
  ver <- ver[o]
  time <- t$time[o]
  global <- has_ts || identical(run_order, "global")
  pos <- seq_along(time)
  ix <- ver == lev[1L]
  iy <- ver == lev[2L]
  proc <- t[["process"]][o]
  rnd <- t[["round"]][o]
  list(x = time[ix], y = time[iy], labels = lev,
       data_name = sprintf("%s: %s vs %s", benchmark, lev[1L], lev[2L]),
       baseline = sprintf('"%s" (%s)', lev[1L], how),
       positions = if (global) list(x = pos[ix], y = pos[iy]),
       process = if (!is.null(proc)) list(x = proc[ix], y = proc[iy]),
       round = if (!is.null(rnd)) list(x = rnd[ix], y = rnd[iy]),
       rows = list(x = row_id[o][ix], y = row_id[o][iy]))
}

# Every benchmark `benchmarks` of timings t split once, by integer codes,
# into the two versions `versions` (initial first): what timings_pair()
# returns for each benchmark with `versions` given, without scanning the
# whole table once per benchmark.  Each benchmark must have runs of both
# versions.  The runs are sorted by benchmark, then in recorded order
# (timestamps when the benchmark has them all, then `run`, then the rows),
# which gives each run its position; then by version, so that the runs of
# a sample are one slice: x of benchmark j is time[x_start[j] + 1:x_len[j]]
# and y follows it.  With `recorded = FALSE` the runs of each sample stay in
# the order of the table and have no positions: enough to count them and
# their processes and rounds (structure_actions()), not for split_part().
timings_split <- function(t, versions, benchmarks, recorded = TRUE) {
  nb <- length(benchmarks)
  bi <- match(as.character(t$benchmark), benchmarks)
  ver <- t$version
  vi <- if (is.factor(ver)) match(levels(ver), versions)[as.integer(ver)]
        else match(as.character(ver), versions)
  # the warm-ups a tool marked are left out, as timings_pair() leaves them
  marked <- if (is.null(t[["warmup"]])) FALSE else t[["warmup"]] %in% TRUE
  keep <- which(!is.na(bi) & !is.na(vi) & !marked)
  bk <- bi[keep]
  run <- if (is.null(t$run)) keep else t$run[keep]
  ts <- t$timestamp
  has_ts <- logical(nb)
  if (!recorded) {
    # the rows of each sample in the order of the table, no positions
    o <- seq_along(keep)
  } else if (!is.null(ts) && inherits(ts, "POSIXct")) {
    tsd <- as.double(ts)[keep]
    has_ts <- tabulate(bk[is.na(tsd)], nb) == 0L & tabulate(bk, nb) > 0L
    tsd[!has_ts[bk]] <- 0
    o <- order(bk, tsd, run)
  } else {
    o <- order(bk, run)
  }
  counts <- tabulate(bk, nb)
  first <- cumsum(c(0L, counts))[seq_len(nb)]
  pos <- seq_along(o) - first[bk[o]]
  side <- vi[keep][o]
  o2 <- order(bk[o], side)
  rows <- keep[o][o2]
  side <- side[o2]
  x_len <- tabulate(bk[o][o2][side == 1L], nb)
  proc <- t[["process"]]
  rnd <- t[["round"]]
  list(benchmarks = benchmarks, versions = versions, rows = rows,
       time = t$time[rows], side = side, pos = if (recorded) pos[o2],
       process = if (!is.null(proc)) proc[rows],
       round = if (!is.null(rnd)) rnd[rows],
       start = first, x_len = x_len, y_len = counts - x_len,
       global = has_ts | identical(attr(t, "run_order"), "global"))
}

# Benchmark j of a timings_split(): the list timings_pair() returns.
split_part <- function(sp, j) {
  ix <- sp$start[j] + seq_len(sp$x_len[j])
  iy <- sp$start[j] + sp$x_len[j] + seq_len(sp$y_len[j])
  b <- sp$benchmarks[j]
  lev <- sp$versions
  list(x = sp$time[ix], y = sp$time[iy], labels = lev,
       data_name = sprintf("%s: %s vs %s", b, lev[1L], lev[2L]),
       baseline = sprintf('"%s" (%s)', lev[1L], "versions ="),
       positions = if (sp$global[j]) list(x = sp$pos[ix], y = sp$pos[iy]),
       process = if (!is.null(sp$process)) list(x = sp$process[ix], y = sp$process[iy]),
       round = if (!is.null(sp$round)) list(x = sp$round[ix], y = sp$round[iy]),
       rows = list(x = sp$rows[ix], y = sp$rows[iy]))
}
