# The unit of replication (SPEC section 9): which replicates an analysis of
# timings uses.  Timings may carry two structure columns: `process` (the
# operating-system process that produced the run) and `round` (the
# interleaved round).  From them, for one benchmark and two versions:
#
#   several processes per version, several runs in some  -> the process is
#     the unit: the protocols run on per-process summaries (rule 1);
#   one process per version, a different one for each     -> the runs, with
#     a caveat: the variation between processes is unseen (rule 2);
#   the versions share a process, or each run is its own process, or the
#     processes are unknown                                 -> the runs;
#   complete rounds (each round has one unit of each version) -> the paired
#     design (paired.R), unless `design = "unpaired"` (rule 4).
#
# The variance components are computed by st_variance_components
# (src/paired.c).

#' Processes and rounds: the unit of replication
#'
#' A verdict is only as good as its replicates.  Runs taken inside one
#' process share its memory layout, warm-up and frequency state: they are
#' not independent replicates of the version (pseudo-replication; Kalibera
#' and Jones 2013).  Runs taken in interleaved rounds share the state of the
#' machine at that moment.  Timings ([read_timings()], [as_timings()],
#' [measure()]) therefore carry two optional columns, and every analysis
#' ([mean_test()], [median_test()], [highest_confidence()],
#' [speedup_suite()], `speeduptest compare`) uses them:
#'
#' * `process`: the operating-system process that produced the run (the
#'   same label within a benchmark and version means the same process).  A
#'   label found in both versions means one process that ran both only when
#'   the data show it: one label for every run (the R session), a round
#'   holding runs of both versions with that label, or runs of both
#'   versions with that label interleaved in the recorded order.  Otherwise
#'   (processes numbered 1..k in each version of a long CSV, one version
#'   measured after the other) each version's labels name its own
#'   processes, and the verdict says so.  hyperfine and [measure()] of commands: each run its own
#'   process; pyperf: the worker process of each run; Google Benchmark: one
#'   process per file; criterion.rs: one per `sample.json`;
#'   `bench::mark()`, `microbenchmark` and [measure()] of R code: one
#'   process, the R session, shared by all versions.  A long CSV or data
#'   frame may have a `process` column.
#' * `round`: the interleaved round; in a complete round each version ran
#'   once.  [measure()] records it (with `order = "interleaved"`); a CSV or
#'   data frame may have a `round` column.
#'
#' The rules (`replication = "auto"`, `design = "auto"`):
#'
#' 1. **Several processes per version, several runs in some process**: the
#'    process is the unit.  The protocol runs on the per-process medians
#'    (median protocol) or means (mean protocol), so `n` and `m` count
#'    processes.  When the processes have different numbers of runs, each
#'    is summarised by its first `r` runs, `r` the fewest runs of any
#'    process (the median of 3 runs of a skewed law is not distributed as
#'    that of 30, and comparing them finds changes that are not there; the
#'    first runs of each process are taken at the same points of its life,
#'    so their summaries have one law, warm-up included); the verdict says
#'    so.  The verdict also reports the runs, the between- and
#'    within-process variance of the log times (one-way random-effects
#'    analysis of variance, see [variance_components()]) and how to spend
#'    the next runs: Kalibera and Jones's optimal runs per process
#'    `r* = sqrt((c_p / c_r) (s2_within / s2_between))`, with `c_r` the mean
#'    run time and `c_p` the cost of starting a process, estimated by the
#'    mean excess of each process's first run over its other runs when that
#'    excess is clearly positive (above twice its standard error), else
#'    `c_r`.
#' 2. **One process per version, a different one for each** (two Google
#'    Benchmark files, a criterion.rs base and new): the variation between
#'    processes cannot be seen.  The runs are analysed as given, but
#'    `confidence_guaranteed` is `FALSE`, with a caveat naming the cause and
#'    the cure (run each version in several processes).
#' 3. **All versions in the same process**, each run its own process, or
#'    processes unknown: the runs are the unit.
#' 4. **Complete rounds** (at least 6 rounds holding each of the two
#'    versions once): the paired design.  The median protocol becomes the
#'    exact one-sided Wilcoxon signed-rank test of the per-round log ratios
#'    `d = log(x) - log(y)` (exact also with ties, zeros dropped as
#'    Wilcoxon does; the normal approximation beyond 1000 rounds); the
#'    speedup is `exp()` of the Hodges-Lehmann estimate of `d` (the median
#'    of the Walsh averages) with the exact interval from the Walsh
#'    averages.  The mean protocol becomes the Shapiro-Wilk test of the
#'    differences `x - y` (not shown normal with 30 rounds or fewer: the
#'    paper's rule), then the one-sided paired t-test; the speedup is the
#'    ratio of the means with the paired Fieller interval.  Slow drift of
#'    the machine cancels within a round, so the samples are not checked
#'    for a trend; the per-round log ratios are (a drift that affects the
#'    versions differently does not cancel).  Incomplete rounds are dropped
#'    with a note; with fewer than 6 complete rounds the runs are compared
#'    unpaired, with a note.  With processes as the unit, a process is
#'    paired by round when all its runs belong to one round.
#' 5. `replication = "run"` treats the runs as independent (the paper's
#'    assumption) and says so in the verdict; `design = "unpaired"` forces
#'    the paper's unpaired flowchart.
#'
#' @references
#' Kalibera, T. and Jones, R. (2013). Rigorous benchmarking in reasonable
#' time. *ISMM 2013*, 63-74.
#'
#' Georges, A., Buytaert, D. and Eeckhout, L. (2007). Statistically rigorous
#' Java performance evaluation. *OOPSLA 2007*, 57-76.
#' @name replication
#' @examples
#' # pyperf-style data: 12 worker processes of 3 values per version
#' set.seed(1)
#' p <- rep(1:12, each = 3)
#' runs <- data.frame(
#'   version = rep(c("old", "new"), each = 36),
#'   time = exp(c(rnorm(12, 0, 0.02)[p], rnorm(12, -0.05, 0.02)[p]) +
#'                rnorm(72, 0, 0.005)),
#'   process = c(p, 12 + p))
#' t <- as_timings(runs)
#' t
#' median_test(t)
#'
#' # interleaved rounds, as measure() records them
#' drift <- cumsum(rnorm(40, 0, 0.01))
#' rounds <- data.frame(version = rep(c("old", "new"), 20),
#'                      time = exp(drift + rep(c(0, -0.01), 20) + rnorm(40, 0, 0.003)),
#'                      round = rep(1:20, each = 2))
#' median_test(as_timings(rounds))
NULL

replication_choices <- c("auto", "process", "run")
design_choices <- c("auto", "unpaired", "paired")

# Checks and normalises the structure columns of a timings object (called
# by new_speedup_timings): `process` holds any labels (kept as they are,
# NA = unknown); `round` whole numbers (NA = outside any round).  A bad
# value costs only its benchmark: the benchmark's rows are dropped, with a
# warning of class speeduptest_warning_skipped and a row of the attribute
# `problems`.  When no benchmark is left, or the column is not a vector,
# the error names the column.
check_structure_columns <- function(df) {
  bad <- rep(FALSE, nrow(df))
  why <- character(nrow(df))
  mark <- function(rows, text) {
    rows <- rows & !bad
    why[rows] <<- text[rows]
    bad <<- bad | rows
  }
  show <- function(v) encodeString(esc_text(as.character(v)), quote = "\"")
  if (!is.null(df[["process"]])) {
    p <- df[["process"]]
    if (is.factor(p)) p <- as.character(p)
    if (!is.atomic(p) || is.complex(p) || is.raw(p)) {
      abort("The `process` column must hold process labels (numbers or text).")
    }
    if (is.logical(p)) {
      mark(!is.na(p), sprintf("its `process` column holds %s, not a process label (a number or text)",
                              show(p)))
      p <- rep(NA_integer_, length(p))
    }
    df$process <- p
  }
  if (!is.null(df[["round"]])) {
    r <- df[["round"]]
    if (is.factor(r)) r <- as.character(r)
    if (!is.atomic(r) || is.complex(r) || is.raw(r)) {
      abort("The `round` column must hold whole numbers (the interleaved round of each run).",
            class = c("format", "data"))
    }
    num <- if (is.numeric(r)) as.double(r) else if (is.character(r))
      suppressWarnings(as.numeric(r)) else rep(NA_real_, length(r))
    given <- !is.na(r)
    whole <- !is.na(num) & is.finite(num) & num == round(num) &
      abs(num) <= .Machine$integer.max
    mark(given & !whole, sprintf("its `round` column holds %s, not a whole number (the interleaved round of each run)",
                                 show(r)))
    num[!whole] <- NA_real_
    df$round <- as.integer(num)
  }
  if (any(bad)) {
    b <- as.character(df$benchmark)
    spoiled <- unique(b[bad])
    keep <- !(b %in% spoiled)
    if (!any(keep)) {
      abort(sprintf("no benchmark is left: %s.", paste(sprintf("benchmark %s: %s",
                    show(spoiled), why[bad][match(spoiled, b[bad])]), collapse = "; ")),
            class = c("format", "data"))
    }
    problems <- attr(df, "problems") %||% empty_problems()
    for (nm in spoiled) {
      msg <- sprintf("benchmark \"%s\" skipped: %s.", nm, why[bad & b == nm][1L])
      warn(msg, class = "skipped", benchmark = nm)
      problems <- add_problem(problems, nm, "data", "error", msg)
    }
    df <- df[keep, , drop = FALSE]
    rownames(df) <- NULL
    attr(df, "problems") <- problems
  }
  df
}

# ---- the structure of one pair -----------------------------------------------

# What the process labels of the runs of x (px) and y (py) say; with
# `per_version`, a label on both sides names two processes, one per version.
process_kind <- function(px, py, per_version = FALSE) {
  if (is.null(px) || is.null(py) || anyNA(px) || anyNA(py) ||
      !length(px) || !length(py)) return("unknown")
  if (!per_version && length(intersect(as.character(px), as.character(py)))) {
    return("shared")
  }
  kx <- length(unique(px))
  ky <- length(unique(py))
  if (kx == length(px) && ky == length(py)) return("one_per_run")
  if (kx == 1L || ky == 1L) return("single")
  "processes"
}

# Whether labels on both sides of a pair really name processes that ran
# both versions.  One label for every run (the R session of bench::mark(),
# microbenchmark or measure() of R code) does.  Several labels that repeat
# across the versions do only when the data show a process running both:
# a round holding runs of both versions with that label, or runs of both
# versions with that label interleaved in the recorded order.  Otherwise
# (a long CSV numbering the processes 1..k in each version, measured one
# version after the other) each version's label names its own process.
# rx, ry: the rounds (or NULL); positions: the global positions (or NULL).
processes_shared <- function(px, py, rx, ry, positions) {
  cx <- as.character(px)
  cy <- as.character(py)
  if (max(length(unique(cx)), length(unique(cy))) < 2L) return(TRUE)
  common <- intersect(cx, cy)
  if (!is.null(rx) && !is.null(ry)) {
    kx <- paste(cx, rx, sep = "\r")[!is.na(rx) & cx %in% common]
    ky <- paste(cy, ry, sep = "\r")[!is.na(ry) & cy %in% common]
    if (length(intersect(kx, ky))) return(TRUE)
  }
  if (!is.null(positions)) {
    ix <- cx %in% common
    iy <- cy %in% common
    lo_x <- tapply(positions$x[ix], cx[ix], min)
    hi_x <- tapply(positions$x[ix], cx[ix], max)
    lo_y <- tapply(positions$y[iy], cy[iy], min)[names(lo_x)]
    hi_y <- tapply(positions$y[iy], cy[iy], max)[names(lo_x)]
    if (any(lo_y < hi_x & lo_x < hi_y)) return(TRUE)
  }
  FALSE
}

# The note of a verdict whose repeated process labels were read per
# version.
labels_note <- function(px, py, labels) {
  common <- intersect(as.character(px), as.character(py))
  sprintf("the process labels repeat in both versions (%s%s), but no round or interleaved run order shows a process that ran both: each version's processes are read as its own (process %s of \"%s\" is not process %s of \"%s\"); if a process really ran both versions, give the `round` of each run",
          paste(encodeString(utils::head(common, 3L), quote = "\""), collapse = ", "),
          if (length(common) > 3L) sprintf(" and %d more", length(common) - 3L) else "",
          encodeString(common[1L], quote = "\""), labels[1L],
          encodeString(common[1L], quote = "\""), labels[2L])
}

# The note of a verdict whose processes have different numbers of runs,
# summarised by their first `take` runs.
take_note <- function(take, runs_range, centre) {
  sprintf("the processes have %d to %d runs: each is summarised by the %s of its first %d run%s, so that every summary has the same law (the %s of 3 runs of a skewed law is not distributed as that of 30)",
          runs_range[1L], runs_range[2L], centre, take, if (take == 1L) "" else "s",
          centre)
}

# Integer codes of labels p, 1, 2, ... in order of first appearance, equal
# where as.character(p) is equal (numbers and text alike), NA where it is
# NA; without turning whole numbers or text into a factor of strings.
label_codes <- function(p) {
  if (is.factor(p)) p <- as.character(p)
  if (is.double(p) && !all(is.na(p) | (p == trunc(p) & abs(p) < 1e15))) {
    p <- as.character(p)
  }
  u <- unique(p)
  # as.character(NaN) is the text "NaN", a label; NA is none
  none <- is.na(u)
  if (is.double(u)) none <- none & !is.nan(u)
  match(p, u[!none])
}

# Codes of labels p that only need to tell labels apart (counts of
# distinct labels): whole numbers in a range about as long as p are their
# offset from the smallest (no hashing); other labels as label_codes().
count_codes <- function(p) {
  # (one pass of the core over the labels, st_offset_codes: NULL when
  # they are not whole numbers in such a range)
  code <- if (is.integer(p) || is.double(p)) .Call(ffi_offset_codes, p)
  if (!is.null(code)) return(code)
  label_codes(p)
}

# Per-process summaries of times t grouped by labels p, processes in the
# order of their first run; with the runs per process, the rounds (NA when
# a process spans several) and each process's first-run excess; centre
# "mean" or "median" of the first `take` runs of each process (0: all)
# (st_process_units, src/replication.c).
process_units <- function(t, p, r, centre, take = 0L) {
  g <- label_codes(p)
  k <- if (length(g)) max(g) else 0L
  res <- .Call(ffi_process_units, as.double(t), g, k,
               if (!is.null(r)) as.integer(r), identical(centre, "median"),
               as.integer(take))
  check_status(res, "process summaries")
  list(value = res$value, runs = res$runs, round = res$round,
       excess = res$excess, group = g)
}

# Between- and within-process variance of log times for one version.
variance_parts <- function(t, p) {
  res <- .Call(ffi_variance_components, log(as.double(t)), label_codes(p))
  check_status(res, "variance components")
  n <- length(t)
  k <- res$groups
  list(within = res$within, between = res$between, df_within = n - k,
       groups = k)
}

#' Variance components of run times grouped by process
#'
#' The one-way random-effects analysis of variance of log run times grouped
#' by the process that produced them: the within-process variance is the
#' mean square within processes, the between-process variance
#' `(MSB - MSW) / n0` truncated at 0, with
#' `n0 = (N - sum(n_i^2) / N) / (k - 1)` for `k` processes of `n_i` runs
#' (`N` in all); the ANOVA estimators, unbiased before truncation.
#'
#' @param time Run times (positive).
#' @param process The process of each run (any labels).
#' @return A list with `within`, `between` (variances of log times),
#'   `ms_within`, `ms_between`, `n0` and `processes`.
#' @references
#' Searle, S. R., Casella, G. and McCulloch, C. E. (1992). *Variance
#' Components*. Wiley, chapter 3.
#'
#' Kalibera, T. and Jones, R. (2013). Rigorous benchmarking in reasonable
#' time. *ISMM 2013*, 63-74.
#' @examples
#' set.seed(1)
#' p <- rep(1:10, each = 5)
#' t <- exp(rnorm(10, 0, 0.02)[p] + rnorm(50, 0, 0.005))
#' variance_components(t, p)
#' @export
variance_components <- function(time, process) {
  time <- check_sample(time, "time", min_n = 2L, positive = TRUE)
  if (length(process) != length(time) || anyNA(process)) {
    abort(sprintf("`process` must label each of the %d runs (no missing value).",
                  length(time)))
  }
  res <- .Call(ffi_variance_components, log(time), label_codes(process))
  check_status(res, "variance_components()")
  list(within = res$within, between = res$between, ms_within = res$ms_within,
       ms_between = res$ms_between, n0 = res$n0, processes = as.integer(res$groups))
}

# Kalibera and Jones's optimal runs per process for a fixed cost:
# r* = sqrt((c_p / c_r) (s2_within / s2_between)).  c_r is the mean run
# time; c_p the mean excess of each process's first run over its others
# when that excess is clearly positive (mean above twice its standard
# error), else c_r.
optimal_runs <- function(s2_within, s2_between, excess, c_r) {
  ex <- excess[!is.na(excess)]
  c_p <- c_r
  from <- "run"
  if (length(ex) >= 2L) {
    m <- mean(ex)
    se <- stats::sd(ex) / sqrt(length(ex))
    if (m > 0 && (se == 0 || m > 2 * se)) {
      c_p <- m
      from <- "first runs"
    }
  }
  r <- if (is.na(s2_within) || is.na(s2_between)) NA_real_ else
    if (s2_between <= 0) Inf else sqrt((c_p / c_r) * (s2_within / s2_between))
  list(runs = r, cost_process = c_p, cost_run = c_r, cost_from = from)
}

# ---- the analysis of one benchmark ---------------------------------------------

# Runs the protocol `test` on one benchmark of timings (parts from
# timings_pair) with the unit of replication and the design the structure
# and the arguments call for.
run_structured <- function(test, parts, alpha, rigorous, na_rm, call,
                           replication, design, min_speedup = 1) {
  min_speedup <- check_min_speedup(min_speedup)
  st <- structured_samples(test, parts, na_rm, replication, design)
  pairing <- st$pairing
  v <- if (pairing$paired) {
    apply_tolerance(run_paired(test, pairing$x, pairing$y, alpha, rigorous,
                               parts$labels, parts$data_name, call,
                               parts$baseline, pairing),
                    min_speedup, paired = pairing)
  } else {
    run_protocol(test, st$x, st$y, alpha, rigorous, FALSE, parts$labels,
                 parts$data_name, call, baseline = parts$baseline,
                 positions = st$positions, min_speedup = min_speedup)
  }
  v$design <- pairing[c("design", "rounds", "dropped", "note")]
  add_replication(v, st$info)
}

# The samples an analysis of one benchmark uses: the runs or the
# per-process summaries (x, y), and the pairing by round.
structured_samples <- function(test, parts, na_rm, replication, design) {
  replication <- check_choice(replication, replication_choices, "replication")
  design <- check_choice(design, design_choices, "design")
  x <- parts$x
  y <- parts$y
  px <- parts$process$x
  py <- parts$process$y
  rx <- parts$round$x
  ry <- parts$round$y
  positions <- parts$positions
  # plain: times the timings' pass found finite and > 0 (timings_pair())
  plain <- isTRUE(parts$plain)
  if (!plain && (anyNA(x) || anyNA(y))) {
    if (!isTRUE(na_rm)) {
      check_sample(x, "x", na_rm = FALSE, min_n = 0L, positive = TRUE)
      check_sample(y, "y", na_rm = FALSE, min_n = 0L, positive = TRUE)
    }
    kx <- !is.na(x)
    ky <- !is.na(y)
    x <- x[kx]
    y <- y[ky]
    if (!is.null(px)) px <- px[kx]
    if (!is.null(py)) py <- py[ky]
    if (!is.null(rx)) rx <- rx[kx]
    if (!is.null(ry)) ry <- ry[ky]
    if (!is.null(positions)) positions <- list(x = positions$x[kx], y = positions$y[ky])
  }
  if (!plain && !plain_run_times(x)) x <- check_sample(x, "x", min_n = 0L, positive = TRUE)
  if (!plain && !plain_run_times(y)) y <- check_sample(y, "y", min_n = 0L, positive = TRUE)
  kind <- process_kind(px, py)
  per_version <- FALSE
  if (kind == "shared" && !processes_shared(px, py, rx, ry, positions)) {
    kind <- process_kind(px, py, per_version = TRUE)
    per_version <- TRUE
  }
  if (replication == "process" && kind %in% c("unknown", "shared")) {
    abort(if (kind == "unknown")
      "`replication = \"process\"` needs the process of every run (a `process` column in the timings)."
    else "`replication = \"process\"`: the versions ran in the same process, so there is no per-version process to summarise; use `replication = \"run\"`.",
    class = c("argument", "input"))
  }
  unit <- if (replication == "run") "run" else
    if (replication == "process" || kind == "processes") "process" else "run"
  centre <- protocol_info(test)$centre
  info <- list(unit = unit, kind = kind, requested = replication,
               runs = c(length(x), length(y)))
  if (per_version) info$note <- labels_note(px, py, parts$labels)
  if (unit == "process") {
    ux <- process_units(x, px, rx, centre)
    uy <- process_units(y, py, ry, centre)
    # unequal runs per process: the summary of the first r runs of each,
    # r the fewest runs of any process, so that under no change every
    # summary has the same law (the same expectation, and the same skew:
    # the mean of 3 skewed runs against the mean of 30 tilts one tail of
    # the t-test)
    take <- min(ux$runs, uy$runs)
    if (take < max(ux$runs, uy$runs)) {
      ux <- process_units(x, px, rx, centre, take)
      uy <- process_units(y, py, ry, centre, take)
      info$take <- take
      info$note <- c(info$note, take_note(take, range(ux$runs, uy$runs), centre))
    }
    vx <- variance_parts(x, px)
    vy <- variance_parts(y, py)
    dfw <- vx$df_within + vy$df_within
    within <- if (dfw > 0) sum(c(vx$within * vx$df_within, vy$within * vy$df_within),
                               na.rm = TRUE) / dfw else NA_real_
    between <- mean(c(vx$between, vy$between), na.rm = TRUE)
    if (is.nan(between)) between <- NA_real_
    info$processes <- c(length(ux$value), length(uy$value))
    info$runs_per_process <- list(range(ux$runs), range(uy$runs))
    info$variance <- list(within = within, between = between,
                          x = vx[c("within", "between")], y = vy[c("within", "between")])
    info$optimal <- optimal_runs(within, between, c(ux$excess, uy$excess),
                                 mean(c(x, y)))
    xs <- ux$value
    ys <- uy$value
    rxs <- ux$round
    rys <- uy$round
    positions <- NULL
  } else {
    if (kind %in% c("single", "processes", "one_per_run")) {
      info$processes <- c(length(unique(px)), length(unique(py)))
    }
    xs <- x
    ys <- y
    rxs <- rx
    rys <- ry
  }
  # at least two rounds holding runs of both versions
  rp <- if (isTRUE(parts$rounds_in_order) && length(rx) == length(ry)) {
    # x[i] and y[i] make round i (vectors paired by position): every round
    # complete, in order
    k <- length(rx)
    list(status = 0L, complete = k, rounds = k, shared = k,
         x_index = seq_len(k), y_index = seq_len(k), identity = TRUE)
  } else if (!is.null(rx) && !is.null(ry) && unit == "run" && design != "unpaired" &&
             is.double(xs) && is.double(ys) && is.null(attributes(xs)) &&
             is.null(attributes(ys))) {
    # the values of the complete rounds, in increasing round, taken with
    # the rounds (what round_pairs() would gather by their indices)
    .Call(ffi_round_pair_values, as.integer(rx), as.integer(ry), xs, ys)
  } else if (!is.null(rx) && !is.null(ry)) {
    .Call(ffi_round_pairs, as.integer(rx), c(0L, length(rx)), as.integer(ry),
          c(0L, length(ry)))
  }
  info$interleaved <- !is.null(rp) && rp$shared >= 2L
  list(x = xs, y = ys, info = info, positions = positions,
       pairing = round_pairs(xs, ys, rxs, rys, design,
                             rp = if (unit == "run") rp))
}

# The protocols on two vectors with `design` or `replication` given: the
# vectors carry no processes; `design = "paired"` pairs x[i] with y[i].
run_vectors <- function(test, x, y, alpha, rigorous, na_rm, labels, call,
                        replication, design,
                        data_name = paste(labels, collapse = " and "),
                        baseline = sprintf("`%s` (first argument)", labels[1L]),
                        min_speedup = 1) {
  if (missing(y)) {
    abort("`y` is missing: give the run times of the transformed code.")
  }
  na_rm <- check_flag(na_rm, "na_rm")
  design <- check_choice(design, design_choices, "design")
  replication <- check_choice(replication, replication_choices, "replication")
  if (design == "paired" && length(x) != length(y)) {
    abort(sprintf("`design = \"paired\"` pairs x[i] with y[i]: `x` and `y` must have the same length, not %d and %d.",
                  length(x), length(y)), class = c("argument", "input"))
  }
  if (design == "paired" && isTRUE(na_rm) && (anyNA(x) || anyNA(y))) {
    keep <- !is.na(x) & !is.na(y)
    x <- x[keep]
    y <- y[keep]
  }
  parts <- list(x = x, y = y, labels = labels, data_name = data_name,
                baseline = baseline,
                round = if (design == "paired") list(x = seq_along(x), y = seq_along(y)),
                rounds_in_order = design == "paired")
  run_structured(test, parts, alpha, rigorous, na_rm, call, replication, design,
                 min_speedup)
}

# The complete rounds of units with rounds rx, ry: the paired samples when
# the design is (or may be) paired.
round_pairs <- function(x, y, rx, ry, design, rp = NULL) {
  none <- function(note = character()) {
    list(paired = FALSE, design = "unpaired", rounds = NA_integer_,
         dropped = NA_integer_, note = note)
  }
  if (design == "unpaired") return(none())
  if (is.null(rx) || is.null(ry)) {
    if (design == "paired") {
      abort("`design = \"paired\"` needs the interleaved round of every run (a `round` column, as measure() records it).",
            class = c("argument", "input"))
    }
    return(none())
  }
  # rp: the same call on the same rounds, made by the caller
  if (is.null(rp)) {
    rp <- .Call(ffi_round_pairs, as.integer(rx), c(0L, length(rx)),
                as.integer(ry), c(0L, length(ry)))
  }
  check_status(rp, "the rounds")
  if (!rp$rounds) {
    if (design == "paired") {
      abort("`design = \"paired\"`: no run belongs to a round.", class = c("argument", "input"))
    }
    return(none())
  }
  k <- rp$complete
  dropped <- rp$rounds - k
  if (k < 6L) {
    return(none(sprintf(
      "only %d complete round%s (each version once): fewer than 6, so the runs are compared unpaired",
      k, if (k == 1L) "" else "s")))
  }
  # the units of the complete rounds, in increasing round
  ix <- rp$x_index
  iy <- rp$y_index
  note <- if (dropped > 0L) {
    sprintf("%d incomplete round%s dropped (a round must hold each version once)",
            dropped, if (dropped == 1L) "" else "s")
  } else character()
  if (isTRUE(rp$identity)) {
    return(list(paired = TRUE, design = "paired", rounds = k, dropped = dropped,
                note = note, x = x, y = y))
  }
  if (!is.null(rp[["x"]])) {
    # the values, gathered with the rounds (ffi_round_pair_values)
    return(list(paired = TRUE, design = "paired", rounds = k, dropped = dropped,
                note = note, x = rp[["x"]], y = rp[["y"]]))
  }
  list(paired = TRUE, design = "paired", rounds = k, dropped = dropped,
       note = note, x = x[ix], y = y[iy])
}

# Adds the replication facts to a verdict: the element `replication`, and
# no guarantee when all runs of a version came from one process (rule 2).
# The caveats and advice they call for are composed with the others when
# read (replication_story(), R/verdict-story.R).
add_replication <- function(v, info) {
  v$replication <- info
  if (info$unit == "run" && info$kind == "single" && info$requested == "auto") {
    v$confidence_guaranteed <- FALSE
  }
  if (info$unit == "process") {
    v$plot_xlab <- "process (in recorded order)"
    v$plot_ylab <- sprintf("per-process %s", protocol_info(v$test)$centre)
  }
  if (length(v$design$note)) v$notes <- c(v$notes, v$design$note)
  if (length(info$note)) v$notes <- c(v$notes, info$note)
  v
}

# highest_confidence() with the structure of timings, or a design or
# replication given for vectors.
structured_confidence <- function(test, parts, rigorous, na_rm, replication,
                                  design, min_speedup = 1) {
  min_speedup <- check_min_speedup(min_speedup)
  if (is.null(parts$labels)) parts$labels <- c("x", "y")
  design <- check_choice(design, design_choices, "design")
  if (is.null(parts$round) && design == "paired") {
    if (length(parts$x) != length(parts$y)) {
      abort(sprintf("`design = \"paired\"` pairs x[i] with y[i]: `x` and `y` must have the same length, not %d and %d.",
                    length(parts$x), length(parts$y)), class = c("argument", "input"))
    }
    parts$round <- list(x = seq_along(parts$x), y = seq_along(parts$y))
  }
  st <- structured_samples(test, parts, na_rm, replication, design)
  if (st$pairing$paired) {
    if (min_speedup != 1) {
      abort("`min_speedup` with the paired design: the highest confidence is searched for the unpaired protocols only; give `design = \"unpaired\"`.",
            class = c("argument", "input"))
    }
    return(paired_highest_confidence(test, st$pairing$x, st$pairing$y, rigorous))
  }
  if (min_speedup != 1) {
    return(highest_confidence_tolerance(as.double(st$x), as.double(st$y), test,
                                        rigorous, min_speedup))
  }
  res <- .Call(ffi_highest_confidence, as.double(st$x), as.double(st$y),
               protocol_code(test), rigorous)
  check_status(res, "highest_confidence()")
  with_slowdown(new_confidence(res$confidence, res$alpha), st$x, st$y, test,
                rigorous)
}

# ---- suites ------------------------------------------------------------------

# What the structure columns change for each benchmark of a
# timings_split(), found for all benchmarks at once from integer codes:
# "none" (the runs as the suite analysed them), "single" (rule 2: one
# process per version, the runs as given, never guaranteed) or "full" (the
# benchmark goes through structured_samples() and run_structured(): the
# process as the unit, the paired design, or an input that
# structured_samples() refuses, which it reports).  The same decisions as
# structured_samples() and round_pairs() on each benchmark (na_rm = TRUE).
structure_actions <- function(sp, replication, design) {
  nb <- length(sp$benchmarks)
  act <- rep("none", nb)
  if (!nb) return(act)
  # (the process counts of the grouping, suite_from_timings(): given for
  # clean timings without rounds, whose rows are then not needed)
  pc <- sp$process_counts
  j <- if (is.null(pc)) rep.int(seq_len(nb), sp$x_len + sp$y_len)
  tm <- sp$time
  side <- sp$side
  if (isTRUE(sp$clean)) {
    # every time finite and positive (suite_from_timings())
    ok <- TRUE
    bad <- logical(nb)
    nx <- sp$x_len
    ny <- sp$y_len
  } else {
    ok <- !is.na(tm)
    bad <- tabulate(j[ok & (!is.finite(tm) | tm <= 0)], nb) > 0L
    j <- j[ok]
    side <- side[ok]
    nx <- tabulate(j[side == 1L], nb)
    ny <- tabulate(j[side == 2L], nb)
  }
  p <- sp$process
  if (is.null(pc) && !is.null(p)) {
    if (!isTRUE(ok)) p <- p[ok]
    if (is.double(p) && !all(is.na(p) | (p == trunc(p) & abs(p) < 1e15))) {
      # labels whose text and value may disagree: one benchmark at a time
      return(rep("full", nb))
    }
    code <- count_codes(p)
    pc <- .Call(ffi_process_counts, j, side, code, nb,
                max(0L, code, na.rm = TRUE))
    check_status(pc, "the processes")
  }
  r <- sp$round
  if (design == "unpaired" || is.null(r)) {
    # no rounds to pair: the rules below in one pass of the core
    # (st_structure_actions), without a vector per rule
    act <- .Call(ffi_structure_actions, nx, ny, pc, bad,
                 match(replication, replication_choices) - 1L)
    return(c("none", "single", "full")[act])
  }
  kind <- rep("unknown", nb)
  if (!is.null(pc)) {
    kx <- pc$kx
    ky <- pc$ky
    shared <- pc$shared
    # (the rules in reverse order of precedence: what nested ifelse()
    # calls gave, at a fraction of their cost)
    kind <- rep("processes", nb)
    kind[kx == 1L | ky == 1L] <- "single"
    kind[kx == nx & ky == ny] <- "one_per_run"
    kind[shared] <- "shared"
    kind[pc$has_na | nx == 0L | ny == 0L] <- "unknown"
  }
  unit <- if (replication == "run") rep("run", nb) else {
    u <- rep("run", nb)
    u[replication == "process" | kind == "processes"] <- "process"
    u
  }
  paired <- logical(nb)
  refused <- bad | (replication == "process" & kind %in% c("unknown", "shared"))
  # the rounds of the runs of each benchmark analysed by runs
  r <- as.integer(r[ok])
  run <- which(unit == "run")
  keep <- unit[j] == "run"
  rx <- r[keep & side == 1L]
  ry <- r[keep & side == 2L]
  rp <- .Call(ffi_round_pairs, rx, c(0L, cumsum(nx[run])), ry,
              c(0L, cumsum(ny[run])))
  check_status(rp, "the rounds")
  paired[run] <- rp$complete >= 6L
  if (design == "paired") refused[run] <- refused[run] | rp$rounds == 0L
  act[unit == "run" & kind == "single" & replication == "auto"] <- "single"
  # labels on both sides of several processes: structured_samples()
  # decides whether they name the same processes (processes_shared())
  act[unit == "process" | paired | refused] <- "full"
  if (!is.null(pc)) {
    act[kind == "shared" & (kx > 1L | ky > 1L) & (kx < nx | ky < ny)] <- "full"
  }
  act
}

# speedup_suite() on timings with structure columns: the benchmarks whose
# processes or rounds change the analysis (rule 1, 2, 4, or a forced run
# unit with processes) get the verdicts of run_structured() in place of the
# unpaired runs' ones, and the suite's proportions are summarised again.
suite_structured <- function(s, t, replication, design, rigorous, p_adjust,
                             min_speedup = 1, pre = NULL) {
  replication <- check_choice(replication, replication_choices, "replication")
  design <- check_choice(design, design_choices, "design")
  has_p <- if (!is.null(pre$has_p)) pre$has_p else has_labels(t[["process"]])
  has_r <- if (!is.null(pre$has_r)) pre$has_r else has_labels(t[["round"]])
  if (replication == "process" && !has_p) {
    abort("`replication = \"process\"` needs the process of every run (a `process` column in the timings).",
          class = c("argument", "input"))
  }
  if (design == "paired" && !has_r) {
    abort("`design = \"paired\"` needs the interleaved round of every run (a `round` column, as measure() records it).",
          class = c("argument", "input"))
  }
  if (!has_p && !has_r) return(s)
  bm <- s$benchmarks
  vers <- s$versions
  protos <- suite_protocols(s)
  if (is.null(pre)) {
    sp <- timings_split(t, vers, as.character(bm$benchmark), recorded = FALSE)
    act <- structure_actions(sp, replication, design)
  } else {
    # found before the table was built (suite_timings_actions()), which
    # holds the caveats of rule 2 already
    bench <- as.character(bm$benchmark)
    act <- if (identical(bench, pre$names)) pre$act else pre$act[match(bench, pre$names)]
  }
  if (any(act == "full")) sp <- timings_split(t, vers, as.character(bm$benchmark))
  # rule 2: the runs as given, never guaranteed
  r2 <- which(act == "single")
  if (is.null(pre)) for (p in protos) {
    bm[[paste0(p, "_guaranteed")]][r2] <- FALSE
    cav <- bm[[paste0(p, "_caveats")]][r2]
    bm[[paste0(p, "_caveats")]][r2] <- ifelse(
      nzchar(cav), paste(cav, suite_run_order_phrases[["single_process"]], sep = "; "),
      suite_run_order_phrases[["single_process"]])
  }
  changed <- length(r2) > 0L
  for (j in which(act == "full")) {
    parts <- split_part(sp, j)
    st <- structured_samples("median", parts, TRUE, replication, design)
    info <- st$info
    if (info$unit == "run" && !st$pairing$paired) {
      if (info$kind == "single" && replication == "auto") {
        changed <- TRUE
        for (p in protos) {
          bm[[paste0(p, "_guaranteed")]][j] <- FALSE
          cav <- bm[[paste0(p, "_caveats")]][j]
          bm[[paste0(p, "_caveats")]][j] <- paste(c(if (nzchar(cav)) cav, suite_run_order_phrases[["single_process"]]),
                                                  collapse = "; ")
        }
      }
      next
    }
    changed <- TRUE
    for (p in protos) {
      lev <- bm[[paste0(p, "_conf_level")]][j]
      alpha <- if (isTRUE(bm$searched[j])) {
        h <- structured_confidence(p, parts, rigorous, TRUE, replication, design)
        a <- if (is.na(h)) 0.5 else 1 - as.double(h)
        min(0.5, max(0.01, ceiling(round(100 * a, 10)) / 100))
      } else 1 - lev
      v <- run_structured(p, parts, alpha, rigorous, TRUE, NULL, replication, design,
                          min_speedup)
      if (isTRUE(bm$searched[j])) {
        bm[[paste0(p, "_conf_level")]][j] <- round(1 - alpha, 2)
        bm[[paste0(p, "_highest")]][j] <- as.double(
          structured_confidence(p, parts, rigorous, TRUE, replication, design))
      }
      bm[[paste0(p, "_decision")]][j] <- v$decision
      bm[[paste0(p, "_significant")]][j] <- v$significant
      bm[[paste0(p, "_direction")]][j] <- v$direction
      bm[[paste0(p, "_p_value")]][j] <- v$p_value
      bm[[paste0(p, "_p_value_slowdown")]][j] <- v$p_value_slowdown
      bm[[paste0(p, "_guaranteed")]][j] <- v$confidence_guaranteed
      bm[[paste0(p, "_ci_low")]][j] <- v$speedup_ci[1L]
      bm[[paste0(p, "_ci_high")]][j] <- v$speedup_ci[2L]
      if (!is.null(bm[[paste0(p, "_ci_estimate")]])) {
        bm[[paste0(p, "_ci_estimate")]][j] <- or_na(attr(v$speedup_ci, "estimate"), NA_real_)
      }
      if (!is.null(bm[[paste0(p, "_p_value_equivalence")]])) {
        bm[[paste0(p, "_p_value_equivalence")]][j] <- or_na(v$p_value_equivalence, NA_real_)
      }
      if (!is.null(bm[[paste0(p, "_detectable")]])) {
        bm[[paste0(p, "_detectable")]][j] <- or_na(v$detectable, NA_real_)
      }
      bm[[paste0(p, "_caveats")]][j] <- paste(c(v$caveats, v$notes), collapse = "; ")
      bm[[paste0("speedup_", protocol_info(p)$centre)]][j] <- v$speedup
      # the benchmark's own columns from the last protocol (the runs, the
      # run order; as the median, the last of the paper's two, sets them)
      if (p == protos[length(protos)]) {
        bm$n[j] <- v$n
        bm$m[j] <- v$m
        if (!is.null(v$prob_greater)) bm$prob_greater[j] <- v$prob_greater
        if (identical(v$design$design, "paired") || info$unit == "process") {
          bm$run_order_flag[j] <- isTRUE(v$run_order$trend)
        }
      }
      # the probability protocol's interval of P[X > Y] goes with its own
      # estimate
      ci <- v$prob_ci
      if (length(ci) == 2L && !anyNA(ci) && !is.null(bm$prob_greater_low)) {
        bm$prob_greater[j] <- v$prob_greater
        bm$prob_greater_low[j] <- ci[1L]
        bm$prob_greater_high[j] <- ci[2L]
      }
    }
  }
  if (!changed) return(s)
  if (!is.null(pre) && !any(act == "full") && p_adjust == "none") {
    # only rule 2, already in the table: its decisions, long table, notes,
    # counts and proportions stand; the overall gains as for any change
    re <- suite_resummarise(bm, s$overall, s$proportion, proportions = FALSE)
    s$overall <- re$overall
    s$proportion <- re$proportion
    s$replication <- list(replication = replication, design = design)
    return(s)
  }
  for (p in protos) {
    pv <- bm[[paste0(p, "_p_value")]]
    pa <- stats::p.adjust(pv, method = p_adjust)
    bm[[paste0(p, "_p_adjusted")]] <- pa
    if (p_adjust != "none") {
      alpha <- 1 - bm[[paste0(p, "_conf_level")]]
      old_dir <- bm[[paste0(p, "_direction")]]
      tested <- !is.na(pa) & !is.na(old_dir)
      sig <- tested & pa <= alpha
      psa <- stats::p.adjust(bm[[paste0(p, "_p_value_slowdown")]], method = p_adjust)
      bm[[paste0(p, "_p_adjusted_slowdown")]] <- psa
      dir <- ifelse(sig, "speedup", ifelse(!is.na(psa) & psa <= alpha, "slowdown",
                                           ifelse(old_dir %in% "equivalent", "equivalent",
                                                  "none")))
      bm[[paste0(p, "_significant")]][tested] <- sig[tested]
      bm[[paste0(p, "_direction")]][tested] <- dir[tested]
      bm[[paste0(p, "_decision")]][tested] <- decision_words(dir[tested])
    }
  }
  s$benchmarks <- bm
  if (!is.null(s$results)) s$results <- suite_long_from_wide(bm, protos)
  s$proportion$slowdowns <- vapply(protos, function(p) {
    sum(bm[[paste0(p, "_direction")]] %in% "slowdown")
  }, 0L, USE.NAMES = FALSE)
  re <- suite_resummarise(bm, s$overall, s$proportion)
  s$overall <- re$overall
  s$proportion <- re$proportion
  s$multiplicity$tested <- vapply(protos, function(p) {
    sum(!is.na(bm[[paste0(p, "_p_value")]]))
  }, 0L, USE.NAMES = FALSE)
  s$notes <- suite_notes(bm, p_adjust != "none", protos)
  s$replication <- list(replication = replication, design = design)
  s
}
