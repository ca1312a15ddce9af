# Warm-up and steady state (SPEC section 13): each process's iterations
# classified (src/warmup.c), the steady iterations kept (trim_warmup()),
# and the `warmup = "detect"` of the protocols, suites and compare.
# Printing is in warmup-print.R, plots in warmup-plot.R.

warmup_classes <- c("flat", "warm-up", "slowdown", "no steady state",
                    "too short")

#' Warm-up and steady state of each process
#'
#' Finds, for each process, where its iterations settle: change points by
#' PELT ([pelt_changepoints()], normal mean-and-variance cost, penalty
#' `15 log n` by default as Barrett et al. 2017), then a class from the
#' segments between them, judged by the package's own equivalence test
#' rather than by a fixed number of warm-up iterations.
#'
#' For each process, in the order its iterations ran:
#' 1. **Outliers** are the iterations outside `median +- outlier_k * (q90 -
#'    q10)` of the `window` iterations around them. They are marked (column
#'    `outliers`, and in the plots), not removed: the change-point search
#'    sees each at its window's bound, so that one freak iteration does not
#'    make a segment of its own; every other step sees it as it is.
#' 2. **Change points** by PELT on the times relative to the process's
#'    median, with `penalty` and segments of at least `minseg` iterations.
#'    Unless `exact = TRUE` the search runs on a grid of
#'    `ceiling(n / 150)` iterations and each change is then placed to the
#'    iteration (see the `step` of [pelt_changepoints()]): the exact
#'    search costs about `n^2 / 2` segment costs on a process without
#'    changes.
#' 3. **Segments** are *equivalent* to the last one when the two one-sided
#'    rank-sum tests of the median protocol's tolerance ([tolerance]) both
#'    show, at `alpha`, that they are within a factor `1 + margin` of each
#'    other (not by the overlap of "mean +- variance" ranges of Barrett et
#'    al.'s scripts). The steady state starts at the first of the segments
#'    at the end that are all equivalent to the last one. The class is:
#'    * `"flat"`: no change, or every segment equivalent to the last;
#'    * `"no steady state"`: the steady state starts within the last
#'      `steady` iterations;
#'    * `"slowdown"`: an earlier segment that is not equivalent is faster
#'      than the last (the process settles below its best performance);
#'    * `"warm-up"`: the earlier segments that are not equivalent are
#'      slower;
#'    * `"too short"`: fewer than `2 * minseg` iterations, too few to hold
#'      a change; all its iterations count as steady.
#'
#' **Processes.** The timings' `process` column says which runs shared a
#' process (without it, each version of each benchmark is one process),
#' and the `iteration` column, when there is one, their order within it
#' (else the `run` order). Importers that know the iterations of a process
#' fill them: pyperf (its warm-ups kept and marked in the column
#' `warmup`), Google Benchmark's repetitions, JMH's raw iteration data and
#' BenchmarkDotNet's measurements.
#'
#' @param timings Timings ([read_timings()], [as_timings()], [measure()]),
#'   a data frame [as_timings()] accepts, a numeric vector (the iterations
#'   of one process) or a list of numeric vectors (the processes of one
#'   benchmark).
#' @param penalty PELT's penalty on each change: `"15logn"` (default), a
#'   name [pelt_changepoints()] knows, or a number.
#' @param minseg The minimum number of iterations of a segment (at least 2).
#' @param steady A process whose steady state starts within its last
#'   `steady` iterations has none; `NULL` (default) is a quarter of its
#'   iterations (500 of 2,000, as Barrett et al.).
#' @param margin Segments within a factor `1 + margin` of each other are
#'   equivalent (default 1 %).
#' @param alpha The level of the two one-sided tests of equivalence.
#' @param window,outlier_k The outlier rule: the rolling window's length
#'   in iterations, and the multiple of its 10 %-90 % spread.
#' @param exact `TRUE` for the exact PELT search (slow on long processes).
#' @return A `speedup_warmup` data frame, one row per process: `benchmark`,
#'   `version`, `process`, `iterations`, `class` (a factor), `steady_iteration`
#'   (the first steady iteration, `NA` without a steady state),
#'   `steady_time` (seconds spent before it), `steady_median` (the median
#'   time of the steady iterations), `changes`, `outliers`, and the list
#'   columns `changepoints` (the last iteration of each segment that a
#'   change follows) and `segment_medians`. Its attribute `benchmarks` holds
#'   one row per benchmark and version (see [summary.speedup_warmup()]).
#'   Methods: `print()`, `summary()`, `plot()`, `autoplot()`.
#' @references Barrett, E., Bolz-Tereick, C. F., Killick, R., Mount, S. and
#'   Tratt, L. (2017). Virtual machine warmup blows hot and cold.
#'   *Proceedings of the ACM on Programming Languages* 1(OOPSLA), 52.
#' @seealso [trim_warmup()], [pelt_changepoints()]
#' @examples
#' set.seed(1)
#' warm <- c(1.3 + rnorm(150, 0, 0.01), 1 + rnorm(850, 0, 0.01))
#' flat <- 1 + rnorm(1000, 0, 0.01)
#' w <- warmup_classify(list(warm, flat))
#' w
#' summary(w)
#' @export
warmup_classify <- function(timings, penalty = "15logn", minseg = 10L,
                            steady = NULL, margin = 0.01, alpha = 0.05,
                            window = 200L, outlier_k = 3, exact = FALSE) {
  # vectors go to the core as they are; timings are grouped by process
  vectors <- is.numeric(timings) && is.null(dim(timings)) ||
    is.list(timings) && !is.data.frame(timings) && length(timings) &&
      all(vapply(timings, function(v) is.numeric(v) && is.null(dim(v)), NA))
  t <- if (!vectors) warmup_input(timings)
  penalty <- check_penalty(penalty, pelt_penalties)
  minseg <- check_whole(minseg, "minseg", min = 2, max = 1e9)
  if (!is.null(steady)) steady <- check_whole(steady, "steady", min = 0)
  margin <- check_number(margin, "margin")
  if (margin < 0) {
    abort(sprintf("`margin` must be a number >= 0, not %s.", describe_value(margin)))
  }
  alpha <- check_alpha(alpha)
  window <- check_whole(window, "window", min = 1, max = 1e9)
  outlier_k <- check_number(outlier_k, "outlier_k")
  if (outlier_k < 0) {
    abort(sprintf("`outlier_k` must be a number >= 0, not %s.", describe_value(outlier_k)))
  }
  exact <- check_flag(exact, "exact")
  settings <- list(penalty = penalty, minseg = minseg, steady = steady,
                   margin = margin, alpha = alpha, window = window,
                   outlier_k = outlier_k, exact = exact)
  if (!vectors) return(warmup_run(t, settings))
  if (is.numeric(timings)) timings <- list(timings)
  len <- lengths(timings)
  if (any(len == 0L)) {
    abort("`timings` must hold run times: a process has none.", class = "data")
  }
  info <- data.frame(benchmark = rep("benchmark", length(len)),
                     version = factor(rep("x", length(len))),
                     process = as.character(seq_along(len)), stringsAsFactors = FALSE)
  warmup_core(as.double(unlist(timings, use.names = FALSE)), len, info, NULL,
              settings)
}

# The timings of warmup_classify(): speedup_timings, with their processes
# in iteration order.  A vector is one process, a list of vectors the
# processes of one benchmark.
warmup_input <- function(x, arg = "timings") {
  if (is.numeric(x) && is.null(dim(x))) x <- list(x)
  if (is.list(x) && !is.data.frame(x)) {
    if (!length(x) || !all(vapply(x, function(v) is.numeric(v) && is.null(dim(v)), NA))) {
      abort(sprintf("`%s` must be timings, a data frame of run times, a numeric vector or a list of numeric vectors, not %s.",
                    arg, describe_type(x)))
    }
    lens <- lengths(x)
    total <- sum(lens)
    x <- structure(
      list(benchmark = rep("benchmark", total),
           version = structure(rep(1L, total), levels = "x", class = "factor"),
           time = as.double(unlist(x, use.names = FALSE)),
           run = sequence(lens), process = rep(seq_along(lens), lens),
           iteration = sequence(lens)),
      row.names = c(NA_integer_, -total), source = "vectors",
      run_order = "sample", class = c("speedup_timings", "data.frame"))
  }
  if (!inherits(x, "speedup_timings")) {
    if (!is.data.frame(x)) {
      abort(sprintf("`%s` must be timings, a data frame of run times, a numeric vector or a list of numeric vectors, not %s.",
                    arg, describe_type(x)))
    }
    x <- as_timings(x)
  }
  if (!nrow(x)) {
    abort(sprintf("`%s` holds no run time.", arg), class = "data")
  }
  bad <- !is.finite(x$time) | x$time <= 0
  if (any(bad)) {
    abort(sprintf("`%s` must hold positive, finite times; %d are not.", arg, sum(bad)),
          class = "data")
  }
  x
}

# The processes of timings: a key per row (benchmark, version, process)
# and the rows in iteration order within each.
warmup_groups <- function(t) {
  proc <- t[["process"]]
  if (is.null(proc)) proc <- rep(NA_character_, nrow(t))
  b <- t$benchmark
  nv <- max(1, nlevels(t$version))
  # one number per (benchmark, version, process): the ids of each part
  pid <- match(proc, unique(proc))
  bid <- if (length(b) && all(b == b[1L])) 1 else match(b, unique(b))
  key <- ((bid - 1) * nv + (as.integer(t$version) - 1)) * (max(pid) + 1) + pid
  within <- if (!is.null(t[["iteration"]])) t[["iteration"]] else t$run
  n <- length(key)
  # already grouped and in order (vectors, most importers): no sort
  in_order <- n < 2L || (!anyNA(within) && !is.unsorted(key) && {
    m <- max(abs(within)) + 1
    max(key) * m < 2^52 && !is.unsorted(key * m + within, strictly = TRUE)
  })
  o <- if (in_order) seq_len(n) else
    order(match(key, key), within, seq_len(n), method = "radix")
  list(key = key, order = o, process = proc, in_order = in_order)
}

warmup_run <- function(t, settings) {
  g <- warmup_groups(t)
  o <- g$order
  key <- g$key[o]
  ends <- c(which(diff(key) != 0), length(key))
  k <- length(ends)
  len <- diff(c(0L, ends))
  start <- c(0, ends[-k])
  times <- if (g$in_order) t$time else t$time[o]
  first <- o[start + 1L]
  info <- data.frame(benchmark = t$benchmark[first], version = t$version[first],
                     process = as.character(g$process[first]),
                     stringsAsFactors = FALSE)
  warmup_core(times, len, info, o, settings)
}

# The classification of k processes whose iterations are times (process
# after process, len[i] each, in order); info: their benchmark, version and
# process; rows: the rows of the timings behind times (NULL: 1, 2, ...).
warmup_core <- function(times, len, info, rows, settings) {
  k <- length(len)
  start <- c(0, cumsum(as.double(len))[-k])
  penalty <- if (is.numeric(settings$penalty)) settings$penalty else
    vapply(len, function(n) pelt_penalty_value(settings$penalty, n, "meanvar"), 0)
  step <- if (settings$exact) 1 else pmax(1, ceiling(len / 150))
  steady <- if (is.null(settings$steady)) ceiling(len / 4) else settings$steady
  res <- .Call(ffi_warmup_classify, times, start,
               as.double(len), as.double(penalty), as.integer(settings$minseg),
               as.double(step), as.integer(settings$window),
               as.double(settings$outlier_k), as.double(steady),
               as.double(settings$margin), as.double(settings$alpha))
  check_status(res, "warmup_classify()")
  ok <- res$process_status == 0L
  if (!all(ok)) {
    bad <- st_code_name("status", res$process_status[!ok][1L])
    abort(if (identical(bad, "domain"))
      "`timings` must hold positive, finite times; some are not." else
        sprintf("warmup_classify(): %d process(es) could not be classified.", sum(!ok)),
      class = "data")
  }
  nch <- res$changes
  cps <- split(as.integer(res$cpts), factor(rep(seq_len(k), nch), levels = seq_len(k)))
  sms <- split(res$seg_median, factor(rep(seq_len(k), nch + 1L), levels = seq_len(k)))
  out <- data.frame(
    benchmark = info$benchmark,
    version = info$version,
    process = info$process,
    iterations = len,
    class = factor(warmup_classes[res$class + 1L], levels = warmup_classes),
    steady_iteration = as.integer(res$steady_iteration),
    steady_time = res$steady_time,
    steady_median = res$steady_median,
    changes = nch,
    outliers = res$outliers,
    stringsAsFactors = FALSE)
  out$changepoints <- unname(cps)
  out$segment_medians <- unname(sms)
  # the iterations, for the plots and trim_warmup() (warmup_series())
  series <- list(time = times, outlier = res$outlier)
  structure(out, class = c("speedup_warmup", "data.frame"),
            settings = settings, series = series,
            rows = if (is.null(rows)) seq_along(times) else rows,
            benchmarks = warmup_benchmarks(out))
}

# The iterations of a classification: row (its process), iteration, time
# and outlier, one row per iteration.
warmup_series <- function(w) {
  s <- attr(w, "series")
  if (is.null(s)) return(NULL)
  data.frame(row = rep(seq_len(nrow(w)), w$iterations),
             iteration = sequence(w$iterations), time = s$time,
             outlier = s$outlier)
}

# Per benchmark and version: the processes by class, whether they agree,
# and the steady iteration and time to steady state over the processes
# that settled (median, smallest, largest).
warmup_benchmarks <- function(w) {
  key <- paste(w$benchmark, as.integer(w$version), sep = "\r")
  idx <- split(seq_len(nrow(w)), factor(key, levels = unique(key)))
  rows <- lapply(idx, function(i) {
    cl <- w$class[i]
    judged <- cl[cl != "too short"]
    counts <- table(factor(cl, levels = warmup_classes))
    settled <- i[!is.na(w$steady_iteration[i]) & cl != "too short"]
    stat <- function(v) if (length(v)) c(stats::median(v), min(v), max(v)) else rep(NA_real_, 3L)
    si <- stat(w$steady_iteration[settled])
    stt <- stat(w$steady_time[settled])
    consistent <- length(unique(as.character(judged))) <= 1L
    data.frame(
      benchmark = w$benchmark[i[1L]], version = w$version[i[1L]],
      processes = length(i),
      class = if (!length(judged)) "too short" else
        if (consistent) as.character(judged[1L]) else "inconsistent",
      consistent = consistent,
      flat = counts[["flat"]], warm_up = counts[["warm-up"]],
      slowdown = counts[["slowdown"]], no_steady_state = counts[["no steady state"]],
      too_short = counts[["too short"]],
      steady_iteration = si[1L], steady_iteration_min = si[2L],
      steady_iteration_max = si[3L],
      steady_time = stt[1L], steady_time_min = stt[2L], steady_time_max = stt[3L],
      stringsAsFactors = FALSE)
  })
  out <- do.call(rbind, rows)
  rownames(out) <- NULL
  out
}

#' Keep the steady iterations of each process
#'
#' Drops each process's iterations before its steady state, as found by
#' [warmup_classify()], and the processes that never reached one.
#'
#' @param timings Timings, or what [warmup_classify()] accepts.
#' @param ... Passed to [warmup_classify()] (`penalty`, `minseg`,
#'   `steady`, `margin`, ...).
#' @param classified The result of [warmup_classify()] on these timings,
#'   when already computed.
#' @return The timings (`speedup_timings`) without the warm-up iterations
#'   and without the processes that have no steady state; its attribute
#'   `warmup` is the classification, `kept` the row numbers kept, and
#'   `warmup_dropped` a data frame with
#'   one row per benchmark and version: the iterations dropped, the
#'   processes left out and their classes.
#' @seealso [warmup_classify()]
#' @examples
#' set.seed(2)
#' t <- as_timings(data.frame(
#'   version = "a", process = rep(1:3, each = 600),
#'   time = unlist(lapply(1:3, function(p)
#'     c(1.2 + rnorm(100, 0, 0.01), 1 + rnorm(500, 0, 0.01))))))
#' nrow(trim_warmup(t))
#' @export
trim_warmup <- function(timings, ..., classified = NULL) {
  t <- warmup_input(timings)
  w <- if (is.null(classified)) warmup_classify(t, ...) else {
    if (!inherits(classified, "speedup_warmup")) {
      abort(sprintf("`classified` must be the result of warmup_classify(), not %s.",
                    describe_type(classified)))
    }
    classified
  }
  keep <- warmup_keep(t, w)
  out <- timings_rows(t, keep)
  attr(out, "kept") <- which(keep)
  attr(out, "warmup") <- w
  attr(out, "warmup_dropped") <- warmup_dropped(t, w, keep)
  out
}

# Rows i of timings, with the timings' attributes.
timings_rows <- function(t, i) {
  out <- as.data.frame(unclass(t), stringsAsFactors = FALSE)[i, , drop = FALSE]
  rownames(out) <- NULL
  for (a in setdiff(names(attributes(t)), c("names", "row.names", "class"))) {
    attr(out, a) <- attr(t, a)
  }
  class(out) <- class(t)
  out
}

# The rows of t that are steady iterations of processes that settled.
warmup_keep <- function(t, w) {
  series <- warmup_series(w)
  rows <- attr(w, "rows")
  if (length(rows) != nrow(t) || !identical(sort(rows), seq_len(nrow(t)))) {
    abort("`classified` does not match the timings: classify these timings.")
  }
  si <- w$steady_iteration[series$row]
  keep <- logical(nrow(t))
  keep[rows] <- !is.na(si) & series$iteration >= si
  keep
}

# What trimming dropped, per benchmark and version.
warmup_dropped <- function(t, w, keep) {
  key <- paste(t$benchmark, as.integer(t$version), sep = "\r")
  wkey <- paste(w$benchmark, as.integer(w$version), sep = "\r")
  ks <- unique(wkey)
  data.frame(
    benchmark = w$benchmark[match(ks, wkey)],
    version = w$version[match(ks, wkey)],
    iterations = vapply(ks, function(k) sum(key == k), 0L),
    dropped = vapply(ks, function(k) sum(key == k & !keep), 0L),
    processes = vapply(ks, function(k) sum(wkey == k), 0L),
    left_out = vapply(ks, function(k) sum(wkey == k & is.na(w$steady_iteration)), 0L),
    left_out_processes = I(lapply(ks, function(k)
      w$process[wkey == k & is.na(w$steady_iteration)])),
    row.names = NULL, stringsAsFactors = FALSE)
}

# ---- warmup = "detect" in the analyses ---------------------------------------

# The `warmup` argument of the protocols, suites and compare: "keep" (the
# iterations as given) or "detect" (each process's steady iterations).
# Returns the timings to analyse, with attribute "warmup_dropped" when
# detected.
warmup_apply <- function(t, warmup, arg = "warmup") {
  warmup <- check_choice(warmup, c("keep", "detect"), arg)
  if (warmup == "keep" || !inherits(t, "speedup_timings")) return(t)
  trim_warmup(t)
}

# The two samples of a comparison (timings_pair()): with warmup = "keep"
# the runs as given less the warm-ups the tool marked; with "detect" every
# run of the two versions classified (the marked warm-ups too), each sample
# keeping its steady iterations; what was dropped goes in parts$warmup.
warmup_pair <- function(t, benchmark, versions, initial, na_rm, warmup,
                        by_round = FALSE) {
  warmup <- check_choice(warmup, c("keep", "detect"), "warmup")
  if (warmup == "keep") {
    return(timings_pair(t, benchmark, versions, initial, na_rm, rows = FALSE,
                        by_round = by_round))
  }
  t$warmup <- NULL
  parts <- timings_pair(t, benchmark, versions, initial, na_rm)
  rows <- c(parts$rows$x, parts$rows$y)
  sub <- t[rows, , drop = FALSE]
  ok <- is.finite(sub$time) & sub$time > 0
  keep <- rep(TRUE, length(rows))
  if (any(ok)) {
    cl <- warmup_classify(sub[ok, , drop = FALSE])
    keep[ok] <- warmup_keep(sub[ok, , drop = FALSE], cl)
    d <- warmup_dropped(sub[ok, , drop = FALSE], cl, keep[ok])
    d <- d[match(parts$labels, as.character(d$version)), , drop = FALSE]
    parts$warmup <- d[!is.na(d$version), , drop = FALSE]
  }
  kx <- keep[seq_along(parts$rows$x)]
  ky <- keep[length(parts$rows$x) + seq_along(parts$rows$y)]
  cut <- function(v) if (!is.null(v)) list(x = v$x[kx], y = v$y[ky])
  parts$x <- parts$x[kx]
  parts$y <- parts$y[ky]
  parts$process <- cut(parts$process)
  parts$round <- cut(parts$round)
  parts$positions <- cut(parts$positions)
  parts$rows <- cut(parts$rows)
  parts
}

# The verdict of one benchmark with what warmup = "detect" did: its notes
# (iterations dropped) and caveats (processes left out, versions where
# none settled: warmup_caveats() in verdict-story.R), kept in v$warmup for
# every surface that prints a verdict.
warmup_verdict <- function(v, parts) {
  d <- parts$warmup
  if (is.null(d)) return(v)
  v$warmup <- d
  v$notes <- c(v$notes, warmup_words$dropped(d))
  v
}

# What warmup = "detect" did to whole timings (speedup_suite(), compare):
# the trimmed timings, and one message per benchmark that dropped
# iterations or left processes out.
warmup_timings <- function(t, warmup) {
  warmup <- check_choice(warmup, c("keep", "detect"), "warmup")
  marked <- t[["warmup"]] %in% TRUE
  if (warmup == "keep") {
    if (any(marked)) t <- timings_rows(t, !marked)
    return(list(t = t, messages = character(), dropped = NULL))
  }
  t$warmup <- NULL
  ok <- is.finite(t$time) & t$time > 0
  tt <- trim_warmup(timings_rows(t, ok))
  out <- timings_rows(t, c(which(ok)[attr(tt, "kept")], which(!ok)))
  d <- attr(tt, "warmup_dropped")
  msgs <- character()
  for (b in unique(d$benchmark)) {
    db <- d[d$benchmark == b, , drop = FALSE]
    words <- c(if (sum(db$dropped)) warmup_words$dropped(db), warmup_caveats(db))
    if (length(words)) {
      msgs <- c(msgs, sprintf("benchmark \"%s\": %s.", b, paste(words, collapse = "; ")))
    }
  }
  list(t = out, messages = msgs, dropped = d)
}

# The caveats a verdict owes to warmup = "detect" (verdict-story.R).
warmup_caveats <- function(d) {
  if (is.null(d) || !nrow(d)) return(character())
  out <- character()
  for (i in seq_len(nrow(d))) {
    if (d$left_out[i] == 0L) next
    out <- c(out, if (d$left_out[i] == d$processes[i]) {
      warmup_words$none_settled(as.character(d$version[i]), d$processes[i])
    } else {
      warmup_words$left_out(as.character(d$version[i]), d$left_out[i],
                            d$processes[i], d$left_out_processes[[i]])
    })
  }
  out
}

# ---- measure(.until = "steady") ----------------------------------------------

# The rule of measure(.until = "steady"): at each look, every version's runs
# so far classified; stop when each has a steady state of at least `runs`.
steady_rule <- function(looks, runs, max_runs) {
  list(kind = "steady", looks = looks, runs = runs, max_runs = max_runs)
}

# One look (measure_loop()): TRUE to stop.
steady_step <- function(st, rule, j, ctx = NULL) {
  idx <- st$version[seq_len(st$n)]
  tm <- if (is.null(ctx)) st$time[seq_len(st$n)] else measure_corrected(st, ctx)$time
  k <- max(idx)
  xs <- lapply(seq_len(k), function(i) tm[idx == i])
  ok <- vapply(xs, function(v) length(v) > 0L && all(is.finite(v) & v > 0), NA)
  steady_runs <- integer(k)
  cls <- rep(NA_character_, k)
  if (any(ok)) {
    w <- warmup_classify(xs[ok])
    cls[ok] <- as.character(w$class)
    steady_runs[ok] <- ifelse(is.na(w$steady_iteration) | w$class == "too short", 0L,
                              w$iterations - w$steady_iteration + 1L)
  }
  done <- all(cls %in% c("flat", "warm-up", "slowdown") & steady_runs >= rule$runs)
  st$looks[[j]] <- data.frame(look = j, runs = min(lengths(xs)),
                              version = seq_len(k), class = cls,
                              steady_runs = steady_runs, stringsAsFactors = FALSE)
  st$status_text <- sprintf("| steady: %d of %d versions", sum(steady_runs >= rule$runs &
                              cls %in% c("flat", "warm-up", "slowdown")), k)
  done
}

steady_attr <- function(st, rule) {
  looks <- do.call(rbind, st$looks)
  last <- if (length(st$looks)) looks[looks$look == max(looks$look), , drop = FALSE] else NULL
  list(runs = rule$runs, max_runs = rule$max_runs, looks = looks,
       settled = !is.null(last) && all(last$class %in% c("flat", "warm-up", "slowdown") &
                                          last$steady_runs >= rule$runs))
}
