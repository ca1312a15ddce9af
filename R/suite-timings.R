# speedup_suite() on timings (what read_timings() and as_timings() return,
# the path of every real file): the runs packed as the suite's core reads
# them straight from the table's integer codes, grouped by benchmark and
# version in one pass of the core (st_timings_suite, src/suite-timings.c,
# which also counts the process labels of every benchmark), and what the
# processes and rounds change for each benchmark found from the same
# grouping before the suite's table is built.

# The packed suite of timings t (suite_from_frame()'s list for
# timings_pairs()'s table, without building that table) and the grouped
# rows (a timings_split() with recorded = FALSE; for timings without rounds
# whose process labels the core counted, those counts in place of the
# rows, their times, versions and processes).  NULL when the timings
# need the checks benchmark by benchmark (timings_pairs() and
# suite_from_frame() report them): a version other than two, a benchmark
# with runs of one version only, a missing benchmark name, version or run
# number, a time that is missing, infinite or not positive, timestamps, or
# warm-ups marked by the tool.
suite_from_timings <- function(t, initial) {
  check_object(t, "data")
  b <- t$benchmark
  v <- t$version
  tm <- t$time
  run <- t[["run"]]
  n <- length(tm)
  if (!n || !is.factor(v) || !(is.character(b) || is.factor(b)) ||
      !is.numeric(tm) || !is.numeric(run) || length(run) != n ||
      anyNA(run) || inherits(t[["timestamp"]], "POSIXct") ||
      any(t[["warmup"]] %in% TRUE)) {
    return(NULL)
  }
  # the benchmarks in the order of their first run (text: from the rows
  # where a run of one name starts, as files list a benchmark's runs
  # together; the core gives each row the code of its start).  A missing
  # name starts a run of them, so the names at the starts show it.
  starts <- NULL
  if (is.factor(b)) {
    if (anyNA(b)) return(NULL)
  } else {
    starts <- .Call(ffi_run_starts, b)
    hb <- b[starts]
    if (anyNA(hb)) return(NULL)
  }
  tm <- as.double(tm)
  # (two levels and no `initial`: a level without runs would leave every
  # benchmark with runs of one version only, which returns NULL below as
  # well, so the levels are not counted)
  if (!is.null(initial) || nlevels(v) != 2L) {
    v <- drop_unused_levels(v)
    if (!is.null(initial)) {
      v <- stats::relevel(v, check_member(initial, levels(v), "initial", "the versions "))
    }
    if (nlevels(v) != 2L) return(NULL)
  }
  if (is.factor(b)) {
    code <- as.integer(b)
    u <- unique(code)
    bi <- match(code, u)
    bench <- levels(b)[u]
  } else if (!anyDuplicated(hb)) {
    # each benchmark's runs together (every file): the names at the
    # starts are the benchmarks
    bench <- as.vector(hb)
    bi <- seq_along(hb)
  } else {
    bench <- unique(hb)
    bi <- match(hb, bench)
  }
  nb <- length(bench)
  if (!is.integer(run)) run <- as.double(run)
  proc <- t[["process"]]
  rnd <- t[["round"]]
  # one pass of the core: the rows grouped by benchmark and version, the
  # times in that order, and what the process labels of each benchmark
  # are (when they are plain numbers)
  g <- .Call(ffi_timings_suite, bi, starts, v, run, tm, proc, nb, !is.null(rnd))
  # (a missing version is a code the core refuses: looked for only then,
  # as anyNA() of a factor costs a logical vector of its length)
  if (g$status != 0L && anyNA(v)) return(NULL)
  check_status(g, "the timings")
  # (g$both: every benchmark has runs of both versions)
  if (!g$clean || !g$both) return(NULL)
  x_len <- g$x_len
  y_len <- g$y_len
  o <- g$order
  vi <- NULL
  # global order: the number of runs of the version labels within each
  # benchmark, the runs of a benchmark in recorded order
  runs <- NULL
  if (identical(attr(t, "run_order"), "global")) {
    vi <- as.integer(v)
    if (!is.null(starts)) bi <- rep.int(bi, diff(c(starts, n + 1L)))
    og <- order(bi, run, vi)
    lab <- vi[og]
    bb <- bi[og]
    change <- n > 1L & c(FALSE, lab[-1L] != lab[-n] & bb[-1L] == bb[-n])
    runs <- 1 + tabulate(bb[change], nb)
  }
  problems <- attr(t, "problems")
  if (is.null(problems)) problems <- empty_problems()
  values <- g$values
  suite <- list(names = bench, values = values, runs = runs,
                x_start = g$x_start, x_len = x_len,
                y_start = g$y_start, y_len = y_len,
                level = rep(NA_real_, nb), weight = rep(NA_real_, nb),
                has_level = FALSE, has_weight = FALSE,
                problems = empty_problems(), versions = levels(v),
                level_problem = NULL, weight_problem = NULL)
  # the grouped rows for structure_actions(): with the process counts of
  # the core and no rounds it reads the counts alone
  pc <- g$process_counts
  light <- !is.null(pc) && is.null(rnd)
  split <- list(benchmarks = bench, versions = levels(v), rows = o,
                time = if (!light) values,
                side = if (!light) {
                  if (is.null(vi)) vi <- as.integer(v)
                  vi[o]
                },
                process = if (!light && !is.null(proc)) proc[o],
                round = if (!is.null(rnd)) rnd[o],
                start = as.integer(g$x_start), x_len = x_len, y_len = y_len,
                clean = TRUE, process_counts = if (light) pc,
                labelled = g$labelled)
  list(suite = suite, split = split, problems = problems)
}

# What the processes and rounds of timings change for each benchmark of a
# suite_from_timings() (structure_actions()), found before the suite's
# table is built so that the benchmarks of one process per version (rule 2)
# get their caveat and lose their guarantee in that table.  NULL when
# suite_structured() decides it alone: no process or round column, or
# arguments it refuses (it says why).
suite_timings_actions <- function(fast, t, replication, design) {
  if (is.null(fast) || !(is.character(replication) && length(replication) == 1L &&
                         replication %in% replication_choices) ||
      !(is.character(design) && length(design) == 1L && design %in% design_choices)) {
    return(NULL)
  }
  lab <- fast$split$labelled
  has_p <- if (!is.na(lab)) lab else has_labels(t[["process"]])
  has_r <- has_labels(t[["round"]])
  if (!has_p && !has_r) return(NULL)
  if (replication == "process" && !has_p) return(NULL)
  if (design == "paired" && !has_r) return(NULL)
  list(names = fast$split$benchmarks,
       act = structure_actions(fast$split, replication, design),
       has_p = has_p, has_r = has_r)
}

# !all(is.na(x)) for a column x (FALSE for NULL), without the copy of
# is.na() when nothing is missing.
has_labels <- function(x) length(x) > 0L && (!anyNA(x) || !all(is.na(x)))
