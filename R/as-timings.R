# as_timings(): R objects holding run times turned into speedup_timings
# (SPEC section 7).

#' Run times from R objects
#'
#' Turns the run times held by R objects into a `speedup_timings` data frame
#' (one row per run), the form [read_timings()] returns and every analysis
#' accepts.
#'
#' @param x The run times:
#'   * a `bench::mark()` result: each expression is a version, its
#'     per-iteration times (the `time` column) the runs; a `bench::press()`
#'     result makes one benchmark per combination of its parameters (all
#'     runs share one process, the R session);
#'   * a `microbenchmark` object: each expression is a version (in the order
#'     of its levels), times converted from nanoseconds; microbenchmark runs
#'     the expressions in one (by default random) order, which is kept as
#'     the global run order;
#'   * a long data frame, with the columns named by `benchmark` (optional:
#'     one benchmark), `version`, `time`, and optionally `run`, `process`
#'     (the operating-system process of each run: the same label within a
#'     benchmark means the same process, also across versions) and `round`
#'     (the interleaved round, whole numbers); see [replication];
#'   * a list `list(x, y)` of two numeric vectors (one benchmark, versions
#'     `x` and `y` or the list's names), or a named list of such pairs (one
#'     benchmark per element);
#'   * a `speedup_timings` object (returned as it is).
#' @param benchmark For a data frame, the name of its benchmark column; for
#'   `bench::mark()` and `microbenchmark` results, the benchmark's name
#'   (default `"benchmark"`).
#' @param version,time,run For a data frame, the names of its version, time
#'   and run columns. `time` is in seconds.
#' @param process,round For a data frame, the names of its optional process
#'   and round columns (kept in the timings as `process` and `round`).
#' @param versions For lists of pairs, the names of the two versions
#'   (default: the names of the pair, else `"x"` and `"y"`).
#' @param ... Passed to methods.
#' @return A `speedup_timings` data frame; see [read_timings()].
#' @seealso [read_timings()]
#' @examples
#' t <- as_timings(list(old = c(1.2, 1.3, 1.25, 1.31), new = c(1.0, 1.1, 1.05, 0.98)))
#' t
#'
#' suite <- list(a = list(x = rlnorm(35, 1), y = rlnorm(35, 0.9)),
#'               b = list(x = rlnorm(35, 2), y = rlnorm(35, 2)))
#' summary(as_timings(suite, versions = c("before", "after")))
#' @export
as_timings <- function(x, ...) UseMethod("as_timings")

#' @rdname as_timings
#' @export
as_timings.speedup_timings <- function(x, ...) x

#' @rdname as_timings
#' @export
as_timings.default <- function(x, ...) {
  abort(sprintf("`x` must be a bench::mark() result, a microbenchmark object, a long data frame or a list of list(x, y) pairs, not %s.",
                describe_type(x)))
}

#' @rdname as_timings
#' @export
as_timings.data.frame <- function(x, benchmark = "benchmark", version = "version",
                                  time = "time", run = "run", process = "process",
                                  round = "round", ...) {
  for (a in list(list(version, "version"), list(time, "time"))) {
    if (!is.character(a[[1L]]) || length(a[[1L]]) != 1L || !(a[[1L]] %in% names(x))) {
      abort(sprintf("`x` must have a column %s (see the `%s` argument); its columns are %s.",
                    describe_value(a[[1L]]), a[[2L]],
                    paste0('"', names(x), '"', collapse = ", ")))
    }
  }
  for (a in list(list(benchmark, "benchmark"), list(run, "run"))) {
    check_column_name(a[[1L]], a[[2L]], data_arg = "x", null_ok = TRUE)
    # a column under the standard name that is not the one chosen is not
    # carried along (it would clash with the timings' own column)
    if (!identical(a[[1L]], a[[2L]]) && !(a[[2L]] %in% c(version, time))) {
      x[[a[[2L]]]] <- NULL
    }
  }
  tm <- x[[time]]
  if (!is.numeric(tm)) {
    abort(sprintf("column `%s` of `x` must be numeric (seconds), not %s.", time,
                  describe_type(tm)))
  }
  has_b <- is.character(benchmark) && length(benchmark) == 1L && benchmark %in% names(x)
  has_r <- is.character(run) && length(run) == 1L && run %in% names(x)
  b <- if (has_b) as.character(x[[benchmark]]) else "benchmark"
  v <- x[[version]]
  if (!is.factor(v)) v <- factor(as.character(v), levels = unique(as.character(v)))
  r <- if (has_r) x[[run]] else NULL
  if (!is.null(r) && (!is.numeric(r) || anyNA(r))) {
    abort(sprintf("column `%s` of `x` must hold the runs' positions (whole numbers).", run))
  }
  used <- c(if (has_b) benchmark, version, time, if (has_r) run)
  extra <- as.list(x[setdiff(names(x), used)])
  # the structure columns under their standard names
  for (s in list(list(process, "process"), list(round, "round"))) {
    if (is.character(s[[1L]]) && length(s[[1L]]) == 1L && s[[1L]] %in% names(x) &&
        !(s[[1L]] %in% used)) {
      extra[[s[[1L]]]] <- NULL
      extra[[s[[2L]]]] <- x[[s[[1L]]]]
    }
  }
  do.call(new_speedup_timings, c(
    list(benchmark = b, version = v, time = as.double(tm), run = r),
    extra, list(source = "data frame", run_order = "sample")))
}

#' @rdname as_timings
#' @export
as_timings.list <- function(x, versions = NULL, ...) {
  is_pair <- function(p) is.list(p) && length(p) == 2L &&
    is.numeric(p[[1L]]) && is.numeric(p[[2L]])
  if (length(x) == 2L && is.numeric(x[[1L]]) && is.numeric(x[[2L]])) {
    x <- list(benchmark = x)
  }
  good <- vapply(x, is_pair, logical(1))
  if (!length(x) || !any(good)) {
    abort("`x` must be a list of two numeric vectors list(x, y), or a named list of such pairs (one per benchmark).")
  }
  nms <- names(x)
  if (is.null(nms)) nms <- rep("", length(x))
  nms[is.na(nms) | !nzchar(nms)] <- paste0("benchmark ", which(is.na(nms) | !nzchar(nms)))
  if (anyDuplicated(nms)) {
    abort(sprintf("`x`: benchmark names must be unique; %s is repeated.",
                  paste0('"', unique(nms[duplicated(nms)]), '"', collapse = ", ")))
  }
  # an element that is not a pair of numeric vectors: its benchmark is
  # skipped alone, the reason kept in the attribute `problems`
  problems <- empty_problems()
  for (j in which(!good)) {
    msg <- sprintf("benchmark \"%s\" skipped: it must be a list of two numeric vectors list(x, y), not %s.",
                   nms[j], describe_type(x[[j]]))
    warn(msg, class = "skipped", benchmark = nms[j])
    problems <- add_problem(problems, nms[j], "data", "error", msg)
  }
  x <- x[good]
  nms <- nms[good]
  if (is.null(versions)) {
    versions <- names(x[[1L]])
    if (is.null(versions) || any(!nzchar(versions)) || versions[1L] == versions[2L]) {
      versions <- c("x", "y")
    }
  }
  versions <- check_two_names(versions, "versions")
  b <- v <- character()
  tm <- double()
  r <- integer()
  for (j in seq_along(x)) {
    p <- x[[j]]
    n1 <- length(p[[1L]])
    n2 <- length(p[[2L]])
    b <- c(b, rep(nms[j], n1 + n2))
    v <- c(v, rep(versions, c(n1, n2)))
    tm <- c(tm, as.double(p[[1L]]), as.double(p[[2L]]))
    r <- c(r, seq_len(n1), seq_len(n2))
  }
  out <- new_speedup_timings(b, factor(v, levels = versions), tm, r,
                             source = "list", run_order = "sample")
  if (nrow(problems)) attr(out, "problems") <- problems
  out
}

#' @rdname as_timings
#' @export
as_timings.bench_mark <- function(x, benchmark = "benchmark", ...) {
  expr <- x[["expression"]]
  lab <- attr(expr, "description")
  if (length(lab) != length(expr) || anyNA(lab) || any(!nzchar(lab))) {
    lab <- vapply(seq_along(expr), function(i) {
      if (length(lab) == length(expr) && !is.na(lab[i]) && nzchar(lab[i])) return(lab[i])
      paste(deparse(expr[[i]]), collapse = " ")
    }, character(1))
  }
  times <- x[["time"]]
  if (is.null(times)) abort("`x` has no `time` column: is it a bench::mark() result?")
  std <- c("expression", "min", "median", "itr/sec", "mem_alloc", "gc/sec",
           "n_itr", "n_gc", "total_time", "result", "memory", "time", "gc")
  params <- setdiff(names(x), std)
  bench_name <- if (length(params)) {
    do.call(paste, c(lapply(params, function(p) paste0(p, "=", format(x[[p]]))),
                     sep = ", "))
  } else rep(benchmark, nrow(x))
  n <- lengths(times)
  tm <- as.double(unlist(lapply(times, as.double), use.names = FALSE))
  ver <- rep(lab, n)
  new_speedup_timings(rep(bench_name, n), factor(ver, levels = unique(lab)), tm,
                      unlist(lapply(n, seq_len)), process = rep(1L, length(tm)),
                      source = "bench::mark", run_order = "sample")
}

#' @rdname as_timings
#' @export
as_timings.microbenchmark <- function(x, benchmark = "benchmark", ...) {
  expr <- x[["expr"]]
  if (!is.factor(expr)) expr <- factor(expr, levels = unique(expr))
  tm <- as.double(x[["time"]]) * 1e-9
  new_speedup_timings(benchmark, droplevels(expr), tm, seq_along(tm),
                      process = rep(1L, length(tm)),
                      source = "microbenchmark", run_order = "global")
}
