# Timings handed to an analysis that compares two versions benchmark by
# benchmark (speedup_suite(), hpt(), cli_compare()): the two versions, the
# initial code first, and the benchmarks with runs of both.  A benchmark
# with runs of only one version is reported (a warning of class
# speeduptest_warning_unpaired, and a row of `problems`) and left out.
# `pairs = FALSE` leaves out the list of the pairs (NULL), `data = FALSE`
# the data frame of the runs kept (NULL).

timings_pairs <- function(t, initial = NULL, arg = "data", require = FALSE,
                          pairs = TRUE, data = TRUE) {
  check_object(t, arg)
  v <- drop_levels(t$version)
  if (!is.null(initial)) {
    v <- stats::relevel(v, check_member(initial, levels(v), "initial", "the versions "))
  }
  problems <- attr(t, "problems")
  if (is.null(problems)) problems <- empty_problems()
  if (nlevels(v) > 2L) {
    # A benchmark with runs of a third version is skipped alone; the two
    # versions are those met in the most benchmarks.
    bf <- factor(t$benchmark, levels = unique(t$benchmark))
    two <- suite_frame_versions(v, bf, initial)
    odd <- !(v %in% two)
    spoiled <- unique(as.character(bf[odd]))
    if (length(spoiled) < nlevels(bf)) {
      for (nm in spoiled) {
        other <- unique(as.character(v[odd & bf == nm]))
        msg <- sprintf("benchmark \"%s\" skipped: runs of a version other than %s: %s.",
                       nm, paste0('"', two, '"', collapse = " and "),
                       paste0('"', other, '"', collapse = ", "))
        warn(msg, class = "skipped", benchmark = nm)
        problems <- add_problem(problems, nm, "data", "error", msg)
      }
      keep_rows <- !(as.character(bf) %in% spoiled)
      ro <- attr(t, "run_order")
      t <- t[keep_rows, , drop = FALSE]
      v <- droplevels(v[keep_rows])
      attr(t, "run_order") <- ro
    }
  }
  if (nlevels(v) != 2L) {
    abort(sprintf("`%s` holds %d version(s) (%s); the analysis compares two: keep two, e.g. %s[%s$version %%in%% c(\"a\", \"b\"), ].",
                  arg, nlevels(v), paste0('"', levels(v), '"', collapse = ", "), arg, arg))
  }
  b <- t$benchmark
  bench <- unique(b)
  bi <- as.integer(factor(b, levels = bench))
  vi <- as.integer(v)
  o <- order(bi, vi, t$run)
  nx <- tabulate(bi[vi == 1L], length(bench))
  ny <- tabulate(bi[vi == 2L], length(bench))
  lone <- which(nx == 0L | ny == 0L)
  for (j in lone) {
    has <- if (nx[j] > 0L) levels(v)[1L] else levels(v)[2L]
    lacks <- setdiff(levels(v), has)
    msg <- sprintf("benchmark \"%s\" skipped: it has runs of \"%s\" only, none of \"%s\".",
                   bench[j], has, lacks)
    warn(msg, class = "unpaired", benchmark = bench[j])
    problems <- add_problem(problems, bench[j], "data", "error", msg)
  }
  keep <- setdiff(seq_along(bench), lone)
  if (require && !length(keep)) {
    abort(sprintf("`%s`: no benchmark has runs of both \"%s\" and \"%s\".", arg,
                  levels(v)[1L], levels(v)[2L]), class = c("unpaired", "data"))
  }
  # the pairs themselves only for those who read them (`pairs = FALSE`:
  # NULL, as speedup_suite() reads `data`)
  if (pairs) {
    split_v <- split(t$time[o], list(factor(b[o], levels = bench), v[o]), drop = FALSE)
    xs <- split_v[paste(bench, levels(v)[1L], sep = ".")]
    ys <- split_v[paste(bench, levels(v)[2L], sep = ".")]
    pairs <- lapply(keep, function(j) list(x = unname(xs[[j]]), y = unname(ys[[j]])))
    names(pairs) <- bench[keep]
  } else pairs <- NULL
  if (!data) {
    return(list(pairs = pairs, data = NULL, problems = problems, versions = levels(v)))
  }
  rows <- o[b[o] %in% bench[keep]]
  data <- data.frame(benchmark = factor(b[rows], levels = bench[keep]),
                     version = v[rows], time = t$time[rows], run = t$run[rows])
  if (inherits(t$timestamp, "POSIXct")) data$timestamp <- t$timestamp[rows]
  attr(data, "run_order") <- attr(t, "run_order")
  list(pairs = pairs, data = data, problems = problems, versions = levels(v))
}

# droplevels() of a factor, which returns a plain factor whose levels are
# all used, unique and not NA as it is, without remaking it from its text.
drop_levels <- function(v) {
  lv <- attr(v, "levels")
  if (is.integer(v) && is.character(lv) && !anyNA(lv) && !anyDuplicated(lv) &&
      identical(attributes(v), list(levels = lv, class = "factor")) &&
      all(tabulate(v, length(lv)) > 0L)) {
    return(v)
  }
  droplevels(v)
}
