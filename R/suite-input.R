# The input of speedup_suite(): the checks of its arguments, and the rule
# that a fault of one benchmark (a run without a version or benchmark name,
# a third version, an invalid level of its own, a weight that varies over
# its runs) skips that benchmark only, with the reason kept in `problems`.

# The precision r of the minimal number of benchmarks, strictly inside
# (0, 1) (a half-width of an interval for a proportion).
check_precision <- function(precision, arg = "precision") {
  precision <- check_number(precision, arg)
  if (precision <= 0 || precision >= 1) {
    abort(sprintf("`%s` must be strictly between 0 and 1, not %s.", arg,
                  describe_value(precision)))
  }
  precision
}

# The name of a column of a data frame `data`, given as the argument `arg`.
check_column_name <- function(value, arg) {
  if (!is.character(value) || length(value) != 1L || is.na(value) ||
      !nzchar(value)) {
    abort(sprintf("`%s` must be the name of a column of `data` (a single string), not %s.",
                  arg, describe_value(value)))
  }
  value
}

# `initial` with a list of benchmarks (or a configuration), whose initial
# code is always `x`: anything else would be silently ignored.
check_list_initial <- function(initial) {
  if (is.null(initial) || identical(initial, "x")) return(invisible(NULL))
  abort(sprintf("`initial` names the initial version of a data frame or of timings; in a list of benchmarks the initial code is `x`, so `initial` must be NULL, not %s.",
                describe_value(initial)))
}

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
  if (!is.null(initial) &&
      (!(is.character(initial) || is.factor(initial)) ||
       length(initial) != 1L || is.na(initial) ||
       !(as.character(initial) %in% lv))) {
    abort(sprintf("`initial` must be one of the versions %s, not %s.",
                  paste0('"', lv, '"', collapse = ", "),
                  describe_value(initial)))
  }
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
           "weight", "runs", "level_problem", "weight_problem")
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
  suite_subset(suite, !drop)
}
