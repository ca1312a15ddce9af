# The input of speedup_suite(): the checks of its arguments, and the rule
# that a fault of one benchmark (a run without a version or benchmark name,
# a third version, an invalid level of its own, a weight that varies over
# its runs) skips that benchmark only, with the reason kept in `problems`.

# Why a benchmark's own confidence level cannot be used (NULL when it can:
# NA, searched, or a number strictly between 0 and 1).
suite_level_problem <- function(v, name) {
  if (length(v) == 1L && (is.na(v) ||
      (is.numeric(v) && v > 0 && v < 1))) {
    return(NULL)
  }
  sprintf("benchmark \"%s\" skipped: its confidence level must be NA or a number strictly between 0 and 1, not %s.",
          name, describe_value(v))
}

# The versions of a data frame's suite: the two versions met in the most
# benchmarks (the earlier level first on a tie), in the order of the
# levels; `initial` (when given) is one of them.
# v and b: factors of the rows (no NA).
suite_frame_versions <- function(v, b, initial) {
  lv <- levels(v)
  if (!is.null(initial)) check_member(initial, lv, "initial", "the versions ")
  if (length(lv) <= 2L) return(lv)
  nl <- length(lv)
  pair <- unique((as.integer(b) - 1L) * nl + as.integer(v))
  seen <- tabulate((pair - 1L) %% nl + 1L, nl)   # benchmarks per version
  if (!is.null(initial)) {
    first <- match(as.character(initial), lv)
    others <- setdiff(seq_along(lv), first)
    second <- others[order(-seen[others], others)][1L]
    return(lv[sort(c(first, second))])
  }
  lv[sort(order(-seen, seq_along(lv))[1:2])]
}

# The rows of a data frame suite that belong to no benchmark or to no
# version of the two, and the benchmarks they spoil.  Returns the rows to
# keep, the two versions and the problems (each spoiled benchmark skipped,
# the rows without a benchmark name dropped), or stops when no benchmark
# is left with the two versions only.  b, v: the benchmark and version
# columns as factors (NA where missing).
suite_frame_rows <- function(b, v, initial, benchmark, version, problems) {
  no_bench <- is.na(b)
  if (any(no_bench)) {
    msg <- sprintf("%d run(s) with a missing benchmark name (column `%s`) dropped.",
                   sum(no_bench), benchmark)
    warn(msg, class = "skipped", benchmark = NA_character_)
    problems <- add_problem(problems, NA_character_, "data", "error", msg)
  }
  bf <- droplevels(b[!no_bench])
  vk <- droplevels(v[!no_bench])
  known <- !is.na(vk)
  if (nlevels(vk) < 2L) {
    abort(sprintf("column `%s` of `data` must have exactly 2 versions (initial, transformed), not %d.",
                  version, nlevels(vk)))
  }
  two <- suite_frame_versions(droplevels(vk[known]), bf[known], initial)
  ok_row <- known & vk %in% two
  spoiled <- tabulate(as.integer(bf)[!ok_row], nlevels(bf)) > 0L
  if (all(spoiled) && nlevels(vk) > 2L) {
    abort(sprintf("column `%s` of `data` must have exactly 2 versions (initial, transformed), not %d.",
                  version, nlevels(vk)))
  }
  for (j in which(spoiled)) {
    rows <- as.integer(bf) == j
    why <- character()
    nna <- sum(rows & !known)
    if (nna > 0L) {
      why <- c(why, sprintf("%d run(s) with a missing version (column `%s`)",
                            nna, version))
    }
    other <- unique(as.character(vk[rows & known & !(vk %in% two)]))
    if (length(other)) {
      why <- c(why, sprintf("runs of a version other than %s: %s",
                            paste0('"', two, '"', collapse = " and "),
                            paste0('"', other, '"', collapse = ", ")))
    }
    name <- levels(bf)[j]
    problems <- skip_benchmark(problems, name, sprintf(
      "benchmark \"%s\" skipped: %s.", name, paste(why, collapse = "; ")))
  }
  keep <- !no_bench
  keep[keep] <- !spoiled[as.integer(bf)]
  list(keep = keep, versions = two, problems = problems)
}

# A column of per-benchmark values (conf_level, weight) of a data frame
# suite: the value of each benchmark (its first row) and, per benchmark,
# why it cannot be used (NA when it can): it varies over the benchmark's
# runs, or (levels) it is not NA nor strictly between 0 and 1.  A column
# that is not numeric at all stops the call.
suite_frame_per_bench <- function(data, col, bi, names) {
  if (!(col %in% names(data))) return(NULL)
  val <- data[[col]]
  text <- NULL
  if ((is.character(val) || is.factor(val)) && !all(is.na(val))) {
    # Text: each benchmark's value read as a number; a benchmark whose
    # value is not one is skipped alone.
    text <- as.character(val)
    val <- suppressWarnings(as.numeric(text))
  }
  if (!is.numeric(val) && !all(is.na(val))) {
    abort(sprintf("column `%s` of `data` must be numeric, not %s.", col,
                  describe_type(val)))
  }
  val <- as.double(val)
  nb <- length(names)
  out <- val[match(seq_len(nb), bi)]
  same <- as.vector(tapply(val, factor(bi, levels = seq_len(nb)),
                           function(u) length(unique(u)) <= 1L))
  same[is.na(same)] <- TRUE
  why <- rep(NA_character_, nb)
  why[!same] <- sprintf("benchmark \"%s\" skipped: column `%s` of `data` varies over its runs (it must be constant within a benchmark).",
                        names[!same], col)
  if (!is.null(text)) {
    nan <- tabulate(bi[is.na(val) & !is.na(text)], nb) > 0L & is.na(why)
    why[nan] <- sprintf("benchmark \"%s\" skipped: its value in column `%s` of `data` is not a number: %s.",
                        names[nan], col,
                        vapply(which(nan), function(j) {
                          describe_value(text[match(j, bi)])
                        }, ""))
  }
  if (col == "conf_level") {
    for (j in which(same)) {
      w <- suite_level_problem(out[j], names[j])
      if (!is.null(w)) why[j] <- w
    }
  }
  out[!is.na(why)] <- NA_real_
  list(value = out, problem = why)
}

# The benchmarks j of a packed suite (see suite_pack) with keep[j]; the
# run times stay where they are.
suite_subset <- function(suite, keep) {
  per <- c("names", "x_start", "x_len", "y_start", "y_len", "level",
           "weight", "runs", "level_problem", "weight_problem", "level_given")
  for (f in intersect(per, names(suite))) {
    if (!is.null(suite[[f]])) suite[[f]] <- suite[[f]][keep]
  }
  suite
}

# Skips the benchmarks whose own level (used when `conf_level` is NULL)
# or weight (used with custom weights) is unusable, recording why.
suite_drop_bad_fields <- function(suite, conf_level, weights) {
  nb <- length(suite$names)
  drop <- rep(FALSE, nb)
  why <- rep(NA_character_, nb)
  lp <- suite$level_problem
  if (is.null(conf_level) && suite$has_level && !is.null(lp)) {
    bad <- !is.na(lp)
    why[bad] <- lp[bad]
    drop <- drop | bad
  }
  wp <- suite$weight_problem
  uses_weights <- if (is.null(weights)) suite$has_weight else identical(weights, "custom")
  if (isTRUE(uses_weights) && !is.null(wp)) {
    bad <- !is.na(wp) & !drop
    why[bad] <- wp[bad]
    drop <- drop | bad
  }
  if (!any(drop)) return(suite)
  for (j in which(drop)) {
    suite$problems <- skip_benchmark(suite$problems, suite$names[j], why[j])
  }
  suite <- suite_subset(suite, !drop)
  # a skipped benchmark never changes the others: its own level no longer
  # makes the suite one with levels (whose benchmarks without one would
  # search the highest)
  if (!is.null(suite$level_given)) suite$has_level <- any(suite$level_given)
  suite
}

# (what data.frame() of the four empty columns gives, without its cost,
# which a suite of a thousand benchmarks notices)
empty_problems <- function() {
  structure(list(benchmark = character(), where = character(),
                 severity = character(), message = character()),
            class = "data.frame", row.names = integer())
}

add_problem <- function(problems, benchmark, where, severity, message) {
  rbind(problems, data.frame(benchmark = benchmark, where = where,
                             severity = severity, message = message,
                             stringsAsFactors = FALSE))
}

# A benchmark that cannot be analysed: recorded and signalled.
skip_benchmark <- function(problems, name, message, where = "data") {
  warn(message, class = "skipped", benchmark = name)
  add_problem(problems, name, where, "error", message)
}

# Why a sample of run times cannot be analysed (NULL when it can).
sample_problem <- function(v, label) {
  if (!is.numeric(v)) return(sprintf("the %s are %s, not numbers", label, describe_type(v)))
  if (length(v) == 0L) return(sprintf("no run times for the %s", label))
  if (anyNA(v)) return(sprintf("%d missing run time(s) for the %s", sum(is.na(v)), label))
  if (any(!is.finite(v))) return(sprintf("%d infinite run time(s) for the %s", sum(!is.finite(v)), label))
  if (any(v <= 0)) return(sprintf("%d run time(s) <= 0 for the %s", sum(v <= 0), label))
  NULL
}

# The internal form: all values in one vector, 0-based starts and lengths of
# each benchmark's x and y, per-benchmark level and weight (NA when absent).
suite_from_list <- function(data, na_rm) {
  problems <- attr(data, "problems")
  if (is.null(problems)) problems <- empty_problems()
  nms <- names(data)
  if (is.null(nms)) nms <- rep("", length(data))
  nms[is.na(nms) | nms == ""] <- paste0("benchmark ", which(is.na(nms) | nms == ""))
  if (anyDuplicated(nms)) {
    abort(sprintf("benchmark names must be unique; %s is repeated.",
                  paste0('"', unique(nms[duplicated(nms)]), '"', collapse = ", ")))
  }
  xs <- ys <- vector("list", length(data))
  lev <- wt <- rep(NA_real_, length(data))
  lev_problem <- rep(NA_character_, length(data))
  lev_given <- rep(FALSE, length(data))
  has_level <- has_weight <- FALSE
  # One pass in C (src/suite.c) counts the run times of the benchmarks
  # holding two clean samples (double, no missing, infinite or non-positive
  # value) and no level or weight (-1 for the others); they are taken as
  # they are, and when all are, that pass has packed them.  The others go
  # through the checks one by one below, in order (same problems, same
  # messages).
  if (typeof(data) != "list") data <- as.list(data)
  read <- .Call(ffi_suite_list_read, data, na_rm)
  count <- read$count
  simple <- count >= 0
  keep <- simple
  for (j in which(!simple)) {
    el <- data[[j]]
    if (!is.list(el) || length(el) < 2L) {
      problems <- skip_benchmark(problems, nms[j], sprintf(
        "benchmark \"%s\" skipped: it must be a list holding the run times x and y, not %s.",
        nms[j], describe_value(el)))
      next
    }
    x <- el[["x", exact = TRUE]]
    y <- el[["y", exact = TRUE]]
    if (is.null(x)) x <- el[[1L]]
    if (is.null(y)) y <- el[[2L]]
    if (is.numeric(x) && na_rm) x <- x[!is.na(x)]
    if (is.numeric(y) && na_rm) y <- y[!is.na(y)]
    why <- c(sample_problem(x, "initial code (x)"),
             sample_problem(y, "transformed code (y)"))
    if (length(why)) {
      problems <- skip_benchmark(problems, nms[j], sprintf(
        "benchmark \"%s\" skipped: %s.", nms[j], paste(why, collapse = "; ")))
      next
    }
    if (!is.null(el[["conf_level", exact = TRUE]])) {
      has_level <- TRUE
      lev_given[j] <- TRUE
      lj <- el[["conf_level", exact = TRUE]]
      why_level <- suite_level_problem(lj, nms[j])
      if (is.null(why_level)) lev[j] <- as.double(lj)
      else lev_problem[j] <- why_level
    }
    if (!is.null(el[["weight", exact = TRUE]])) {
      has_weight <- TRUE
      w <- el[["weight", exact = TRUE]]
      wt[j] <- if (is.numeric(w) && length(w) == 1L) as.double(w) else NA_real_
    }
    keep[j] <- TRUE
    xs[[j]] <- as.double(x)
    ys[[j]] <- as.double(y)
  }
  packed <- if (!is.null(read$packed)) read$packed
            else .Call(ffi_suite_list_pack, data, count, xs, ys, keep, na_rm)
  c(list(names = nms[keep]), packed,
    list(level = lev[keep], weight = wt[keep], has_level = has_level,
         has_weight = has_weight, problems = problems, versions = c("x", "y"),
         level_problem = lev_problem[keep], level_given = lev_given[keep]))
}

suite_pack <- function(names, xs, ys, lev, wt, has_level, has_weight,
                       problems, versions) {
  nx <- lengths(xs)
  ny <- lengths(ys)
  values <- as.double(unlist(rbind(xs, ys), use.names = FALSE))
  tot <- as.vector(rbind(nx, ny))
  starts <- cumsum(c(0, tot))[seq_along(tot)]
  odd <- seq(1L, by = 2L, length.out = length(names))
  list(names = names, values = values,
       x_start = starts[odd], x_len = nx, y_start = starts[odd + 1L], y_len = ny,
       level = lev, weight = wt, has_level = has_level, has_weight = has_weight,
       problems = problems, versions = versions)
}

# droplevels(f), without rebuilding a factor whose levels are all used
# (the benchmarks of timings handed over by timings_pairs()).
drop_unused_levels <- function(f) {
  if (all(tabulate(f, nlevels(f)) > 0L)) f else droplevels(f)
}

suite_from_frame <- function(data, benchmark, version, time, na_rm, initial) {
  global_order <- identical(attr(data, "run_order"), "global")
  check_column_name(benchmark, "benchmark")
  check_column_name(version, "version")
  check_column_name(time, "time")
  for (col in c(benchmark, version, time)) {
    if (!(col %in% names(data))) {
      abort(sprintf("`data` must have a column %s.", describe_value(col)))
    }
  }
  b <- data[[benchmark]]
  v <- data[[version]]
  t <- data[[time]]
  if (!is.numeric(t)) {
    abort(sprintf("column `%s` of `data` must be numeric, not %s.", time,
                  describe_type(t)))
  }
  b <- if (is.factor(b)) drop_unused_levels(b) else factor(b, levels = unique(b[!is.na(b)]))
  v <- if (is.factor(v)) drop_unused_levels(v) else factor(v, levels = unique(v[!is.na(v)]))
  problems <- empty_problems()
  if (anyNA(b) || anyNA(v) || nlevels(v) != 2L) {
    # runs without a benchmark or version, or of a third version: their
    # benchmarks are skipped (suite-input.R)
    rows <- suite_frame_rows(b, v, initial, benchmark, version, problems)
    problems <- rows$problems
    data <- data[rows$keep, , drop = FALSE]
    b <- droplevels(b[rows$keep])
    v <- factor(as.character(v[rows$keep]), levels = rows$versions)
    t <- t[rows$keep]
  }
  if (!is.null(initial)) {
    v <- stats::relevel(v, check_member(initial, levels(v), "initial", "the versions "))
  }
  t <- as.double(t)
  if (na_rm && anyNA(t)) {
    ok <- !is.na(t)
    b <- b[ok]; v <- v[ok]; t <- t[ok]
    data <- data[ok, , drop = FALSE]
  }
  nb <- nlevels(b)
  bi <- as.integer(b)
  vi <- as.integer(v)
  key <- (bi - 1L) * 2L + vi
  # the recorded order of the runs: the `run` column of timings, else the rows
  rec <- if (is.numeric(data[["run"]]) && !anyNA(data[["run"]])) data[["run"]] else seq_along(t)
  ts <- data[["timestamp"]]
  has_ts <- inherits(ts, "POSIXct") && !anyNA(ts)
  if (has_ts) rec <- rank(as.double(ts), ties.method = "first") * (length(t) + 1) + rec
  o <- order(key, rec)
  counts <- tabulate(key, 2L * nb)
  starts <- cumsum(c(0, counts))[seq_len(2L * nb)]
  odd <- seq(1L, by = 2L, length.out = nb)
  x_len <- counts[odd]
  y_len <- counts[odd + 1L]
  values <- t[o]

  # benchmarks whose times cannot be analysed
  bad_row <- is.na(t) | !is.finite(t) | t <= 0
  nbad <- tabulate(bi[bad_row], nb)
  keep <- x_len > 0 & y_len > 0 & nbad == 0
  for (j in which(!keep)) {
    why <- character()
    if (x_len[j] == 0) why <- c(why, sprintf("no run times for the initial code (\"%s\")", levels(v)[1L]))
    if (y_len[j] == 0) why <- c(why, sprintf("no run times for the transformed code (\"%s\")", levels(v)[2L]))
    if (nbad[j] > 0) {
      tj <- t[bi == j]
      why <- c(why, sprintf("%d missing, infinite or non-positive run time(s) (%d missing)",
                            nbad[j], sum(is.na(tj))))
    }
    problems <- skip_benchmark(problems, levels(b)[j], sprintf(
      "benchmark \"%s\" skipped: %s.", levels(b)[j], paste(why, collapse = "; ")))
  }

  lev <- suite_frame_per_bench(data, "conf_level", bi, levels(b))
  wt <- suite_frame_per_bench(data, "weight", bi, levels(b))
  # global order known (timings with run_order "global", or timestamps):
  # the number of runs of the version labels within each benchmark
  runs <- NULL
  if (has_ts || global_order) {
    og <- order(bi, rec)
    lab <- vi[og]
    bb <- bi[og]
    nn <- length(og)
    change <- nn > 1L & c(FALSE, lab[-1L] != lab[-nn] & bb[-1L] == bb[-nn])
    runs <- 1 + tabulate(bb[change], nb)
  }
  list(names = levels(b)[keep], values = values, runs = runs[keep],
       x_start = starts[odd][keep], x_len = x_len[keep],
       y_start = starts[odd + 1L][keep], y_len = y_len[keep],
       level = if (is.null(lev)) rep(NA_real_, sum(keep)) else lev$value[keep],
       weight = if (is.null(wt)) rep(NA_real_, sum(keep)) else wt$value[keep],
       has_level = !is.null(lev), has_weight = !is.null(wt),
       problems = problems, versions = levels(v),
       level_problem = lev$problem[keep], weight_problem = wt$problem[keep])
}

# Per-benchmark levels; NA means "search the highest".
suite_levels <- function(conf_level, suite) {
  nb <- length(suite$names)
  if (is.null(conf_level)) {
    if (suite$has_level) return(suite$level)
    return(rep(0.95, nb))
  }
  if (length(conf_level) == 1L && is.na(conf_level)) return(rep(NA_real_, nb))
  rep(check_conf_level_risk(conf_level), nb)
}

# How the benchmarks are weighted: `weights` as checked by speedup_suite(),
# or by default custom weights when the suite has some, else equal.
suite_weights_mode <- function(weights, suite) {
  if (is.null(weights)) {
    return(if (suite$has_weight && any(!is.na(suite$weight))) "custom" else "equal")
  }
  weights
}
suite_weight_modes <- c("custom", "equal", "fraction")
