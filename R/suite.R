# The Speedup-Test on a whole suite of benchmarks (SPEC section 5).

#' The Speedup-Test on a suite of benchmarks
#'
#' Runs the Speedup-Test for the mean ([mean_test()]) and for the median
#' ([median_test()]) on every benchmark of a suite in one pass of the C core,
#' then summarises the suite: the overall gain and speedup of the minimum,
#' mean and median execution times, and the proportion of significantly
#' accelerated benchmarks with its confidence interval and the minimal number
#' of benchmarks needed for a given precision.
#'
#' @param data The run times of the suite, as one of
#'   * a long data frame with one row per run and the columns named by
#'     `benchmark`, `version` and `time`, with two versions; the initial code
#'     is `initial`, by default the first level of `version` (the first in
#'     alphabetical order for a character column). Optional
#'     columns `conf_level` (a level per benchmark, `NA` to search the highest)
#'     and `weight` (custom weights) are constant within a benchmark;
#'   * a named list with one element per benchmark, each a list holding the
#'     initial times `x`, the transformed times `y` (or two unnamed numeric
#'     vectors) and optionally `conf_level` and `weight`;
#'   * a configuration read by [read_speedup_config()];
#'   * run times read by [read_timings()] or [as_timings()] (a
#'     `speedup_timings` object) with two versions: the initial code is
#'     `initial`, by default the first version; a benchmark with runs of only
#'     one version is left out, with a warning of class
#'     `speeduptest_warning_unpaired` and a row in `problems`.
#' @param conf_level The confidence level 1 - alpha of the protocols. `NULL`
#'   (the default) takes each benchmark's own level from the data when the data
#'   has levels (a missing one means "find the highest"), and 0.95 otherwise;
#'   a single number applies to every benchmark; `NA` searches the highest
#'   level for every benchmark.
#' @param weights `"custom"` (the data's weights), `"equal"` or `"fraction"`
#'   (each benchmark weighs the initial code's own time under each centre).
#'   `NULL` (the default) means `"custom"` when the data carries weights and
#'   `"equal"` otherwise.
#' @param rigorous Passed to the protocols: `TRUE` refuses to conclude on
#'   small samples that the checks could not validate.
#' @param prop_conf_level Confidence level of the interval for the proportion
#'   of accelerated benchmarks and of the minimal number of benchmarks.
#' @param prop_method Method of that interval, as in [proportion_ci()].
#' @param precision The precision r of the minimal number of benchmarks.
#' @param significant_only Report the overall gains over the significantly
#'   accelerated benchmarks only (both sets are always computed).
#' @param na_rm Drop missing run times instead of skipping the benchmark.
#' @param benchmark,version,time Column names of a data frame `data`.
#' @param initial The version of the initial code in a data frame or
#'   timings `data` (`NULL`: the first level of a factor version column, otherwise the first
#'   version to appear in the data). A list of benchmarks has its initial
#'   code in `x`: `initial` must then be `NULL`.
#' @param min_speedup The tolerance `s0 >= 1` (see [tolerance]): each
#'   benchmark's speedup or slowdown is declared only beyond `s0`, and with
#'   `s0 > 1` a benchmark may be declared `"equivalent"` (direction column);
#'   the columns `mean_p_value_equivalence`, `median_p_value_equivalence`
#'   and, for the benchmarks that declare nothing, `mean_detectable`,
#'   `median_detectable` (the speedup each protocol would have declared with
#'   probability 0.8).  Needs a level for every benchmark.
#' @param p_adjust Adjustment of the per-benchmark final p-values for
#'   multiplicity before each decision, as [stats::p.adjust()]: `"none"` (the
#'   paper's choice), `"holm"` (family-wise error) or `"BH"`
#'   (Benjamini-Hochberg, false discovery rate).  The speedup and the
#'   slowdown p-values are adjusted separately, over the benchmarks that
#'   reached the final test; needs a level for every benchmark.
#' @param replication,design With timings `data`, the unit of replication
#'   and the design, as in [median_test()] (see [replication]): a benchmark
#'   whose runs share processes, or come from one process per version, or
#'   were interleaved in complete rounds, gets the verdicts of
#'   [mean_test()] and [median_test()] on its per-process summaries or its
#'   rounds (its `n` and `m` then count processes or rounds), and the
#'   proportions are computed from these decisions.
#'
#' @details
#' **Levels.** A benchmark whose level is missing gets the highest confidence
#' at which the protocol declares its speedup, reported as the original
#' SpeedupTest tool did: 1 - alpha with alpha rounded up to the 0.01 grid in
#' \[0.01, 0.5\] (the first grid risk at which the speedup is declared). When
#' no level up to alpha = 0.5 declares it, the verdict at 0.5 is reported.
#'
#' **Overall gain.** For each centre c (minimum, mean, median) and weights W,
#' the overall gain is G = sum W (c(x) - c(y)) / sum W c(x) and the overall
#' speedup S = 1 / (1 - G) (Touati et al. 2013, equations 1-2). Custom weights
#' that are missing, negative, infinite or all zero are replaced by equal
#' weights, with a warning. The gains over the significant benchmarks only
#' keep, for the mean and the median, the benchmarks whose protocol declares
#' the speedup, and for the minimum (which has no test) those declared by both
#' protocols.
#'
#' **Proportion.** a of the b analysed benchmarks are significantly
#' accelerated (for the mean and for the median; "insufficient data" counts as
#' not accelerated). The interval for the proportion comes from
#' [proportion_ci()]; it is flagged as possibly inaccurate when
#' a (1 - a / b) <= 5. The minimal number of benchmarks is
#' [min_benchmarks()] of a / b at the precision r.
#'
#' **Large suites.** The benchmarks go through the C core in chunks of
#' `getOption("speeduptest.suite_chunk", 4096)` benchmarks, and the summary is
#' computed from the per-benchmark results at the end, so the core never holds
#' more than one chunk. With a [future][future::plan] plan other than
#' sequential (and the future.apply package installed), the chunks run on the
#' plan's workers when the suite holds at least
#' `getOption("speeduptest.suite_parallel_min")` run times; the results are
#' identical to a sequential run. Shipping a chunk costs about as much as
#' computing it: on a 2-core machine (`bench/suite-future.R`, 31 runs per
#' version, 2 workers) a plan that always ships was slower than no plan at
#' every size from 100 to 300,000 benchmarks (0.1 times the speed at 100,
#' 0.4 to 0.8 at 10,000, 0.7 to 0.8 at 100,000, 0.9 at 300,000, with
#' `multisession` and `multicore` alike), so the break-even lies beyond
#' 300,000 benchmarks (18.6 million run times) and by default (`Inf`) the
#' chunks stay in the session under any plan, which is then never slower
#' than no plan. On a machine with idle cores, set the option to the number
#' of run times from which the script shows a gain.
#'
#' **Bad benchmarks.** A benchmark whose data cannot be analysed (no run of a
#' version, missing, infinite or non-positive times, a malformed element) is
#' skipped with a warning of class `speeduptest_warning_skipped`; so is, in
#' a data frame, a benchmark with a run whose version is missing or is a
#' third version (the suite's two versions are those met in the most
#' benchmarks, `initial` being one of them), and a benchmark whose own
#' level is invalid or varies over its runs (when the levels of the data are
#' used) or whose weight varies over its runs (with custom weights); runs
#' without a benchmark name are dropped with the same warning; a benchmark
#' with fewer than 3 runs of a version is analysed (its decision is
#' "insufficient data") with a warning of class `speeduptest_warning_few_runs`;
#' illegal weights give `speeduptest_warning_weights`. Every such problem is
#' also kept in the `problems` element of the result.
#'
#' **Direction, multiplicity, run order.**  Each benchmark row has, per
#' protocol, `direction` ("speedup", "slowdown", "none", `NA`),
#' `p_value_slowdown` (the mirrored test) and `p_adjusted`; the print counts
#' the significant slowdowns beside the accelerated proportion.  Without
#' adjustment, the print says how many significant speedups chance alone
#' gives (about alpha times the number of benchmarks tested) and that the
#' gain over the significant benchmarks is computed on a selection (see
#' [suite_multiplicity_lines()]).  The runs of each sample are checked for a
#' trend in their order (the order of the vectors, or of the rows or `run`
#' column of a data frame) and, with a global order (`run_order = "global"`
#' timings or a `timestamp` column), for interleaving (see [run_order]): a
#' flag is added to the caveats and sets `guaranteed` to FALSE; columns
#' `trend_p_x`, `trend_p_y`, `interleaving_p`, `run_order_flag`.
#'
#' @return An object of class `speedup_suite`: a list with
#'   * `benchmarks`: one row per analysed benchmark (also
#'     `as.data.frame()`): the sample sizes `n`, `m`, the centres
#'     (`min_x`, ..., `median_y`), the observed speedups (`speedup_min`,
#'     `speedup_mean`, `speedup_median`), `searched` (the level was searched),
#'     and for each protocol (prefix `mean_` or `median_`) the `decision`
#'     in the words of every print ("significant speedup", "significant
#'     slowdown", "no significant difference", "insufficient data"),
#'     `significant` (a significant speedup; `NA` for "insufficient data"),
#'     `direction`, the `conf_level` used, the exact `highest` confidence
#'     found by the search (`NA` when none), the `p_value`, `p_adjusted`,
#'     `p_value_slowdown` and `p_adjusted_slowdown` (the decisions use the
#'     adjusted ones), whether the level is `guaranteed`, the speedup's
#'     interval `ci_low`, `ci_high` (two-sided at `ci_level = 1 - 2 alpha`,
#'     each end a one-sided `1 - alpha` bound) with its own estimate
#'     `ci_estimate`, and the `caveats`; `prob_greater` (the estimate of
#'     P\[X > Y\]); the normalised weights `weight_min`, `weight_mean`,
#'     `weight_median`;
#'   * `overall`: per centre the gain and speedup over all benchmarks and over
#'     the significant ones only;
#'   * `proportion`: per protocol a, b, the proportion, its interval, the
#'     validity flag and the minimal number of benchmarks;
#'   * `problems`: one row per problem found in the input (benchmark, where,
#'     severity `"error"` for a skipped benchmark or `"warning"`, message);
#'   * `notes`: one row per benchmark and protocol whose speedup was not
#'     declared or whose level is not guaranteed, with the reason;
#'   * `weights` (used), `weights_requested`, `weights_given` (the custom
#'     weight of each benchmark as given, NA when absent), `significant_only`,
#'     `rigorous`, `versions`, `call`.
#'
#' @references
#' Touati, S.-A.-A., Worms, J. and Briais, S. (2013). The Speedup-Test: a
#' statistical methodology for programme speedup analysis and computation.
#' *Concurrency and Computation: Practice and Experience*, 25(10), 1410-1426.
#' Sections 2 and 4.
#'
#' Touati, S.-A.-A., Worms, J. and Briais, S. (2010). The Speedup Test.
#' INRIA report inria-00443839, section 3.
#'
#' @seealso [read_speedup_config()], [write_speedup_report()],
#'   [speeduptest_cli()].
#' @examples
#' set.seed(1)
#' suite <- lapply(1:4, function(i) list(x = rlnorm(35, log(2)), y = rlnorm(35, log(1.6))))
#' names(suite) <- paste0("bench", 1:4)
#' res <- speedup_suite(suite)
#' res
#' as.data.frame(res)[, c("benchmark", "speedup_median", "median_decision")]
#' @param ... Not used: an argument spelled the base R way (`na.rm`,
#'   `conf.level`, ...) is an error that gives this package's spelling.
#' @export
speedup_suite <- function(data, conf_level = NULL, weights = NULL,
                          rigorous = TRUE, prop_conf_level = 0.95,
                          prop_method = "prop.test", precision = 0.05,
                          significant_only = FALSE, na_rm = FALSE,
                          benchmark = "benchmark", version = "version",
                          time = "time", initial = NULL,
                          p_adjust = c("none", "holm", "BH"),
                          min_speedup = 1, ..., replication = "auto",
                          design = "auto") {
  check_dots_empty(...)
  call <- match.call()
  p_adjust <- suite_p_adjust(p_adjust)
  min_speedup <- check_min_speedup(min_speedup)
  rigorous <- check_flag(rigorous, "rigorous")
  na_rm <- check_flag(na_rm, "na_rm")
  significant_only <- check_flag(significant_only, "significant_only")
  prop_conf_level <- check_conf_level(prop_conf_level, "prop_conf_level")
  precision <- check_precision(precision)
  method_code <- suite_prop_method(prop_method)
  timings_problems <- NULL
  structured <- NULL
  if (is_speedup_timings(data)) {
    structured <- data
    tp <- timings_pairs(data, initial, require = TRUE)
    data <- tp$data
    timings_problems <- tp$problems
    benchmark <- "benchmark"; version <- "version"; time <- "time"; initial <- NULL
  }

  suite <- if (is.data.frame(data)) {
    suite_from_frame(data, benchmark, version, time, na_rm, initial)
  } else if (is.list(data)) {
    check_list_initial(initial)
    suite_from_list(data, na_rm)
  } else {
    abort(sprintf("`data` must be a data frame or a list of benchmarks, not %s.",
                  describe_type(data)))
  }

  if (!is.null(timings_problems)) suite$problems <- rbind(timings_problems, suite$problems)
  suite <- suite_drop_bad_fields(suite, conf_level, weights)
  levels <- suite_levels(conf_level, suite)
  if (p_adjust != "none" && anyNA(levels)) {
    abort(sprintf("`p_adjust = \"%s\"` needs a confidence level for every benchmark; searching the highest level (`conf_level = NA` or missing levels) cannot be adjusted.",
                  p_adjust))
  }
  if (min_speedup != 1 && anyNA(levels)) {
    abort("`min_speedup` needs a confidence level for every benchmark; searching the highest level (`conf_level = NA` or missing levels) is done without a tolerance.")
  }
  run_order <- suite_run_order(suite)
  requested <- suite_weights_mode(weights, suite)
  problems <- suite$problems
  nb <- length(suite$names)

  # benchmarks with fewer than 3 runs of a version: analysed, but flagged
  few <- suite$x_len < 3 | suite$y_len < 3
  for (j in which(few)) {
    msg <- sprintf(
      "benchmark \"%s\": only %d run(s) of the initial code and %d of the transformed code; fewer than 3 runs give \"insufficient data\".",
      suite$names[j], suite$x_len[j], suite$y_len[j])
    problems <- add_problem(problems, suite$names[j], "data", "warning", msg)
    warn(msg, class = "few_runs", benchmark = suite$names[j])
  }

  custom <- suite$weight
  mode <- requested
  if (requested == "custom") {
    bad <- is.na(custom) | !is.finite(custom) | custom < 0
    why <- NULL
    if (nb > 0 && any(bad)) {
      why <- sprintf("illegal custom weight(s) for %s (missing, negative or infinite)",
                     paste0('"', suite$names[bad], '"', collapse = ", "))
    } else if (nb > 0 && sum(custom) <= 0) {
      why <- "all custom weights are zero"
    }
    if (!is.null(why)) {
      msg <- sprintf("%s: using equal weights instead.", why)
      problems <- add_problem(problems, NA_character_, "weights", "warning", msg)
      warn(msg, class = "weights")
      mode <- "equal"
    }
  }
  if (mode != "custom") custom <- double()

  res <- suite_core(suite, levels, rigorous, mode, custom, prop_conf_level,
                    method_code, precision)

  out <- new_speedup_suite(res, suite, levels, problems, mode, requested,
                           prop_conf_level, prop_method, precision, significant_only,
                           rigorous, call, run_order = run_order, p_adjust = p_adjust,
                           min_speedup = min_speedup)
  if (!is.null(structured)) {
    out <- suite_structured(out, structured, replication, design, rigorous, p_adjust,
                            min_speedup)
  } else if (!identical(replication, "auto") || !identical(design, "auto")) {
    check_choice(replication, replication_choices, "replication")
    check_choice(design, design_choices, "design")
  }
  out
}

suite_p_adjust <- function(p_adjust) {
  choices <- c("none", "holm", "BH")
  if (identical(p_adjust, choices)) return("none")
  if (!is.character(p_adjust) || length(p_adjust) != 1L ||
      !(p_adjust %in% choices)) {
    abort(sprintf("`p_adjust` must be one of %s, not %s.",
                  paste0('"', choices, '"', collapse = ", "),
                  describe_value(p_adjust)))
  }
  p_adjust
}

# ---- the core, in chunks ----------------------------------------------------

# The benchmarks go through the C core in chunks of
# getOption("speeduptest.suite_chunk", 4096) benchmarks, so that a suite of
# millions of benchmarks never needs more than one chunk's results in the
# core at a time; with a future plan other than sequential (future.apply
# installed), the chunks run on the plan's workers.  Each chunk returns the
# per-benchmark columns; the summary is computed from them at the end
# (st_suite_summarise), with the same sums in the same order as in
# one pass, so the result does not depend on the chunking.
suite_core <- function(suite, levels, rigorous, mode, custom, prop_conf_level,
                       method_code, precision) {
  nb <- length(suite$names)
  alpha <- as.double(1 - levels)
  chunks <- if (nb == 0L) list(integer()) else {
    size <- suite_chunk_size(nb, length(suite$values))
    split(seq_len(nb), (seq_len(nb) - 1L) %/% size)
  }
  parallel <- length(chunks) > 1L && suite_parallel(length(suite$values))
  # a chunk sent to a worker carries only its own values (starts made
  # relative to them); run here, it reads the suite's values in place
  args <- lapply(chunks, function(idx) {
    if (!length(idx)) {
      return(list(values = double(), x_start = double(), x_len = double(),
                  y_start = double(), y_len = double(), alpha = double(),
                  rigorous = rigorous))
    }
    from <- if (parallel) suite$x_start[idx[1L]] else 0
    to <- suite$y_start[idx[length(idx)]] + suite$y_len[idx[length(idx)]]
    list(values = if (parallel) suite$values[seq.int(from + 1, length.out = to - from)]
                  else suite$values,
         x_start = as.double(suite$x_start[idx] - from),
         x_len = as.double(suite$x_len[idx]),
         y_start = as.double(suite$y_start[idx] - from),
         y_len = as.double(suite$y_len[idx]), alpha = alpha[idx],
         rigorous = rigorous)
  })
  parts <- if (parallel) {
    future.apply::future_lapply(args, suite_run_chunk)
  } else {
    lapply(args, suite_run_chunk)
  }
  bench <- if (length(parts) == 1L) parts[[1L]] else {
    cols <- names(parts[[1L]])
    stats::setNames(lapply(cols, function(col) {
      unlist(lapply(parts, `[[`, col), use.names = FALSE)
    }), cols)
  }
  summ <- .Call(ffi_suite_summary, bench$status,
                c(bench$min_x, bench$mean_x, bench$median_x),
                c(bench$min_y, bench$mean_y, bench$median_y),
                c(bench$mean_decision, bench$median_decision),
                match(mode, c("custom", "equal", "fraction")) - 1L,
                as.double(custom), prop_conf_level, method_code, precision)
  bench$weights <- summ$weights
  list(benchmarks = bench, summary = summ$summary)
}

# One chunk through the core (a top-level function: a future worker gets
# it with the package namespace, not with the whole suite).
suite_run_chunk <- function(a) {
  .Call(ffi_suite_benchmarks, a$values, a$x_start, a$x_len, a$y_start,
        a$y_len, a$alpha, a$rigorous)
}

suite_chunk_size <- function(nb, nvalues = 0) {
  size <- getOption("speeduptest.suite_chunk", 4096L)
  if (!is.numeric(size) || length(size) != 1L || is.na(size) || size < 1) {
    size <- 4096L
  }
  if (suite_parallel(nvalues)) {
    # at least one chunk per worker
    workers <- future::nbrOfWorkers()
    size <- min(size, max(1L, ceiling(nb / workers)))
  }
  as.integer(size)
}

# TRUE when a future plan other than sequential is set, future.apply is
# installed and the suite holds enough run times to pay for shipping its
# chunks to the workers: getOption("speeduptest.suite_parallel_min"), the
# break-even measured by bench/suite-future.R.
suite_parallel <- function(nvalues) {
  min <- getOption("speeduptest.suite_parallel_min", SUITE_PARALLEL_MIN)
  if (!is.numeric(min) || length(min) != 1L || is.na(min)) min <- SUITE_PARALLEL_MIN
  nvalues >= min &&
    requireNamespace("future.apply", quietly = TRUE) &&
    requireNamespace("future", quietly = TRUE) &&
    !inherits(future::plan(), "sequential")
}
SUITE_PARALLEL_MIN <- Inf

# ---- building the suite ------------------------------------------------------

suite_prop_method <- function(method) {
  choices <- c("prop.test", "wilson", "clopper-pearson", "agresti-coull",
               "normal")
  if (!is.character(method) || length(method) != 1L || !(method %in% choices)) {
    abort(sprintf("`prop_method` must be one of %s, not %s.",
                  paste0('"', choices, '"', collapse = ", "),
                  describe_value(method)))
  }
  match(method, choices) - 1L
}

empty_problems <- function() {
  data.frame(benchmark = character(), where = character(),
             severity = character(), message = character(),
             stringsAsFactors = FALSE)
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
         level_problem = lev_problem[keep]))
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
  b <- if (is.factor(b)) droplevels(b) else factor(b, levels = unique(b[!is.na(b)]))
  v <- if (is.factor(v)) droplevels(v) else factor(v, levels = unique(v[!is.na(v)]))
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
    if (!(is.character(initial) || is.factor(initial)) || length(initial) != 1L ||
        !(as.character(initial) %in% levels(v))) {
      abort(sprintf("`initial` must be one of the versions %s, not %s.",
                    paste0('"', levels(v), '"', collapse = ", "),
                    describe_value(initial)))
    }
    v <- stats::relevel(v, as.character(initial))
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
  rep(check_conf_level(conf_level), nb)
}

suite_weights_mode <- function(weights, suite) {
  choices <- c("custom", "equal", "fraction")
  if (is.null(weights)) {
    return(if (suite$has_weight && any(!is.na(suite$weight))) "custom" else "equal")
  }
  if (!is.character(weights) || length(weights) != 1L || !(weights %in% choices)) {
    abort(sprintf("`weights` must be one of %s, not %s.",
                  paste0('"', choices, '"', collapse = ", "),
                  describe_value(weights)))
  }
  weights
}

# ---- the result ----------------------------------------------------------------

# Caveat bits of st_verdict (speeduptest.h) and their sentences.
suite_caveat_text <- function(bits) {
  text <- c(
    "the initial times (x) are not shown normal",
    "the transformed times (y) are not shown normal",
    "perform more than 30 runs of the initial code (x)",
    "perform more than 30 runs of the transformed code (y)",
    "the location-shift model is rejected (Kolmogorov-Smirnov)",
    "both samples are constant (check the timer resolution)",
    "fewer than 3 runs in a sample",
    "the normality of the initial times (x) cannot be checked",
    "the normality of the transformed times (y) cannot be checked"
  )
  # built once per distinct code (a suite has a handful), then indexed
  codes <- as.integer(bits)
  distinct <- unique(codes)
  sentence <- vapply(distinct, function(b) {
    on <- bitwAnd(b, bitwShiftL(1L, 0:8)) != 0L
    paste(text[on], collapse = "; ")
  }, character(1))
  sentence[match(codes, distinct)]
}

new_speedup_suite <- function(res, suite, levels, problems, mode, requested,
                              prop_conf_level, prop_method, precision,
                              significant_only, rigorous, call,
                              run_order = NULL, p_adjust = "none",
                              min_speedup = 1) {
  b <- res$benchmarks
  nb <- length(suite$names)
  w <- matrix(b$weights, nrow = nb, ncol = 3L)
  st <- b$status
  # a benchmark the core could not analyse (should not happen once the
  # data checks passed): kept visible as a problem, never dropped silently
  failed <- st != 0
  why <- c("not enough values", "too many values", "all values are equal",
           "out of memory", "a value is outside its domain")
  for (j in which(failed)) {
    problems <- skip_benchmark(problems, suite$names[j], sprintf(
      "benchmark \"%s\" skipped: the analysis failed (%s).", suite$names[j],
      if (st[j] %in% 1:5) why[st[j]] else "unknown failure"), where = "analysis")
  }
  searched <- b$searched == 1
  # a searched level is on the 0.01 grid; a given one is reported as given
  lev_used <- function(alpha, searched) ifelse(searched, round(1 - alpha, 2), levels)
  if (is.null(run_order)) run_order <- suite_run_order(suite)
  ro_text <- suite_run_order_text(run_order)
  ok <- !failed
  # the protocol's columns, named with its prefix
  proto <- function(p) {
    dec <- b[[paste0(p, "_decision")]]
    alpha <- b[[paste0(p, "_alpha")]]
    pv <- na_if_nan(b[[paste0(p, "_p_value")]])
    ps <- na_if_nan(b[[paste0(p, "_p_value_slowdown")]])
    pv[!ok] <- NA
    ps[!ok] <- NA
    peq <- rep(NA_real_, length(pv))
    if (min_speedup != 1) {
      # the final tests against the tolerance (src/tolerance.c)
      tol <- suite_tolerance(suite, p, alpha, min_speedup)
      reached <- dec >= 0 & ok
      pv[reached] <- tol[reached, 1L]
      ps[reached] <- tol[reached, 2L]
      peq[reached] <- pmax(tol[reached, 3L], tol[reached, 4L])
    }
    # adjusted over the benchmarks that reached the final test
    pa <- stats::p.adjust(pv, method = p_adjust)
    psa <- stats::p.adjust(ps, method = p_adjust)
    peqa <- stats::p.adjust(peq, method = p_adjust)
    tested <- dec >= 0 & !is.na(pa)
    dec[tested] <- as.integer(pa[tested] <= alpha[tested])
    # (indexing, not nested ifelse(): the same values at a fraction of
    # the cost on long suites)
    direction <- c("none", "slowdown")[(!is.na(psa) & psa <= alpha) + 1L]
    direction[which(direction == "none" & !is.na(peqa) & peqa <= alpha)] <- "equivalent"
    direction[which(dec == 1)] <- "speedup"
    direction[which(dec < 0)] <- NA_character_
    cav <- suite_caveat_text(b[[paste0(p, "_caveats")]])
    ro <- which(nzchar(ro_text))
    if (length(ro)) {
      cav[ro] <- ifelse(nzchar(cav[ro]), paste(cav[ro], ro_text[ro], sep = "; "),
                        ro_text[ro])
    }
    significant <- dec == 1
    significant[dec < 0] <- NA
    cols <- list(
      decision = decision_words(direction),
      significant = significant,
      direction = direction,
      conf_level = lev_used(alpha, searched),
      highest = na_if_nan(b[[paste0(p, "_highest")]]),
      p_value = pv,
      p_adjusted = pa,
      p_value_slowdown = ps,
      p_adjusted_slowdown = psa,
      p_value_equivalence = peq,
      guaranteed = b[[paste0(p, "_guaranteed")]] == 1 & !run_order$run_order_flag,
      ci_estimate = na_if_nan(b[[paste0(p, "_ci_estimate")]]),
      ci_low = b[[paste0(p, "_ci_low")]],
      ci_high = b[[paste0(p, "_ci_high")]],
      ci_level = interval_level(alpha),
      detectable = suite_detectable(suite, p, b, direction, alpha, min_speedup),
      caveats = cav)
    names(cols) <- paste0(p, "_", names(cols))
    cols
  }
  # The columns are gathered in one list and made a data frame once
  # (new_frame(): the columns, types and automatic row names data.frame()
  # would give them, without its checks and conversions).
  cols <- c(
    list(benchmark = suite$names, n = suite$x_len, m = suite$y_len,
         min_x = b$min_x, mean_x = b$mean_x, median_x = b$median_x,
         min_y = b$min_y, mean_y = b$mean_y, median_y = b$median_y,
         speedup_min = b$speedup_min, speedup_mean = b$speedup_mean,
         speedup_median = b$speedup_median, searched = searched),
    proto("mean"), proto("median"),
    list(prob_greater = b$prob_greater),
    unclass(run_order),
    list(weight_min = w[, 1L], weight_mean = w[, 2L],
         weight_median = w[, 3L]))
  attr(cols, "row.names") <- NULL
  if (any(failed)) cols <- lapply(cols, `[`, !failed)
  benchmarks <- new_frame(cols)

  s <- res$summary
  used <- c("custom", "equal", "fraction")[s$weights + 1L]
  overall <- data.frame(
    centre = c("min", "mean", "median"),
    gain = s$gain, speedup = s$speedup, n = rep(s$n_used, 3L),
    gain_significant = s$gain_sig, speedup_significant = s$speedup_sig,
    n_significant = s$n_sig, stringsAsFactors = FALSE)
  proportion <- data.frame(
    protocol = c("mean", "median"), a = s$a, b = rep(s$b, 2L),
    estimate = s$estimate, conf_low = s$conf_low, conf_high = s$conf_high,
    conf_level = prop_conf_level, method = prop_method,
    valid = s$valid == 1L, min_benchmarks = s$min_benchmarks,
    precision = precision, stringsAsFactors = FALSE)

  proportion$slowdowns <- c(sum(benchmarks$mean_direction %in% "slowdown"),
                           sum(benchmarks$median_direction %in% "slowdown"))
  proportion$equivalent <- c(sum(benchmarks$mean_direction %in% "equivalent"),
                            sum(benchmarks$median_direction %in% "equivalent"))
  if (p_adjust != "none" || min_speedup != 1) {
    re <- suite_resummarise(benchmarks, overall, proportion)
    overall <- re$overall
    proportion <- re$proportion
  }
  tested <- c(sum(!is.na(benchmarks$mean_p_value)),
              sum(!is.na(benchmarks$median_p_value)))
  alpha_sum <- c(sum(1 - benchmarks$mean_conf_level[!is.na(benchmarks$mean_p_value)]),
                 sum(1 - benchmarks$median_conf_level[!is.na(benchmarks$median_p_value)]))
  multiplicity <- data.frame(protocol = c("mean", "median"), tested = tested,
                             expected_false = alpha_sum,
                             stringsAsFactors = FALSE)

  structure(list(
    benchmarks = benchmarks, overall = overall, proportion = proportion,
    p_adjust = p_adjust, multiplicity = multiplicity,
    min_speedup = min_speedup,
    problems = problems, notes = suite_notes(benchmarks, p_adjust != "none"),
    weights = used, weights_requested = requested,
    weights_given = stats::setNames(suite$weight[!failed], suite$names[!failed]),
    significant_only = significant_only, rigorous = rigorous,
    versions = suite$versions, call = call),
    class = "speedup_suite")
}

# The summary of the suite again, after the decisions were adjusted for
# multiplicity: the proportion of accelerated benchmarks and the gains over
# the significant ones (same formulas as st_suite_summarise in suite.c).
suite_resummarise <- function(bm, overall, proportion) {
  sm <- bm$mean_significant %in% TRUE
  sd <- bm$median_significant %in% TRUE
  for (i in seq_len(nrow(overall))) {
    c <- overall$centre[i]
    inc <- switch(c, mean = sm, median = sd, sm & sd)
    w <- bm[[paste0("weight_", c)]][inc]
    cx <- bm[[paste0(c, "_x")]][inc]
    cy <- bm[[paste0(c, "_y")]][inc]
    num <- sum(w * (cx - cy))
    den <- sum(w * cx)
    ok <- length(w) > 0L && den > 0
    overall$gain_significant[i] <- if (ok) num / den else NaN
    overall$speedup_significant[i] <- if (ok) den / (den - num) else NaN
    overall$n_significant[i] <- sum(inc)
  }
  for (i in seq_len(nrow(proportion))) {
    a <- sum(if (proportion$protocol[i] == "mean") sm else sd)
    b <- proportion$b[i]
    proportion$a[i] <- a
    if (b > 0) {
      ci <- proportion_ci(a, b, proportion$conf_level[i], proportion$method[i])
      proportion$estimate[i] <- a / b
      proportion$conf_low[i] <- ci$conf.int[1L]
      proportion$conf_high[i] <- ci$conf.int[2L]
      proportion$valid[i] <- a * (1 - a / b) > 5
      proportion$min_benchmarks[i] <- min_benchmarks(a / b, proportion$precision[i],
                                                     proportion$conf_level[i])
    }
  }
  list(overall = overall, proportion = proportion)
}

#' What chance alone gives on a suite
#'
#' Lines about multiplicity for the print and the report of a
#' [speedup_suite()]: without adjustment (`p_adjust = "none"`, the paper's
#' choice) how many significant speedups chance alone gives when nothing
#' changed (about alpha times the number of benchmarks tested, for each
#' protocol), and that the overall gain over the significant benchmarks is
#' computed on a selection; with an adjustment, which one.
#'
#' @param suite A [speedup_suite()] result.
#' @return A character vector of lines (at most 80 characters).
#' @examples
#' set.seed(1)
#' same <- lapply(1:50, function(i) list(x = rlnorm(35), y = rlnorm(35)))
#' names(same) <- paste0("b", 1:50)
#' suite_multiplicity_lines(speedup_suite(same))
#' @export
suite_multiplicity_lines <- function(suite) {
  if (!inherits(suite, "speedup_suite")) {
    abort(sprintf("`suite` must be a speedup_suite, not %s.", describe_type(suite)))
  }
  mu <- suite$multiplicity
  adj <- if (is.null(suite$p_adjust)) "none" else suite$p_adjust
  if (is.null(mu) || !any(mu$tested > 0)) return(character())
  if (adj != "none") {
    what <- c(holm = "Holm (family-wise error)", BH = "Benjamini-Hochberg (false discovery rate)")[[adj]]
    return(strwrap(sprintf(
      "Multiplicity: the p-values of the %s benchmarks tested were adjusted by %s before each decision.",
      format(max(mu$tested)), what), width = 79))
  }
  lev <- unique(round(suite$benchmarks$median_conf_level, 6))
  at <- if (length(lev) == 1L) sprintf("at alpha = %s", format(1 - lev)) else "at their levels"
  exp_txt <- if (isTRUE(all.equal(mu$expected_false[1L], mu$expected_false[2L])))
    fmt_num(mu$expected_false[2L], 2L)
  else sprintf("%s (mean) and %s (median)", fmt_num(mu$expected_false[1L], 2L),
               fmt_num(mu$expected_false[2L], 2L))
  c(strwrap(sprintf(
    "Multiplicity (no adjustment): with %s benchmarks tested %s, chance alone gives about %s significant speedups (and as many slowdowns) even if nothing changed; p_adjust = \"BH\" or \"holm\" controls them.",
    format(max(mu$tested)), at, exp_txt), width = 79),
    strwrap("The overall gain over the significant benchmarks is computed on a selection (the benchmarks that passed a test) and overstates the gain.",
            width = 79))
}

# Why a speedup was not declared, or why its level may be wrong.
suite_notes <- function(bm, adjusted = FALSE) {
  idx <- msgs <- list()
  for (p in c("mean", "median")) {
    dec <- bm[[paste0(p, "_decision")]]
    gua <- bm[[paste0(p, "_guaranteed")]]
    show <- which(!(bm[[paste0(p, "_direction")]] %in% "speedup") | !gua)
    if (!length(show)) next
    # the sentences of the rows shown only (most benchmarks show none)
    dec <- dec[show]
    lev <- bm[[paste0(p, "_conf_level")]][show]
    cav <- bm[[paste0(p, "_caveats")]][show]
    sp <- bm[[paste0("speedup_", p)]][show]
    what <- sprintf("speedup of the %s", p)
    # "<sep><caveats>", or "" without caveats
    tail_cav <- function(i, sep) {
      t <- cav[i]
      nz <- nzchar(t)
      t[nz] <- paste0(sep, t[nz])
      t
    }
    dirn <- bm[[paste0(p, "_direction")]][show]
    insufficient <- is.na(dirn)
    not_sig <- !insufficient & dirn != "speedup"
    msg <- character(length(dec))
    i <- which(insufficient)
    if (length(i)) {
      msg[i] <- sprintf("%s: insufficient data%s", what, tail_cav(i, ": "))
    }
    # the p-value the decision used: adjusted when the suite adjusts
    p_name <- if (adjusted) "adjusted p-value" else "p-value"
    pa <- or_na(bm[[paste0(p, "_p_adjusted")]], bm[[paste0(p, "_p_value")]])
    psa <- or_na(bm[[paste0(p, "_p_adjusted_slowdown")]],
                 bm[[paste0(p, "_p_value_slowdown")]])
    pd <- decision_p(dirn, pa[show], psa[show])
    equiv <- !is.na(dirn) & dirn == "equivalent"
    if (any(equiv)) {
      pe <- bm[[paste0(p, "_p_value_equivalence")]]
      if (!is.null(pe)) pd[equiv] <- pe[show][equiv]
    }
    i <- which(not_sig)
    if (length(i)) {
      msg[i] <- sprintf("%s = %s: %s at confidence %s (%s %s)%s",
                        what, fmt3(sp[i]), decision_words(dirn[i]),
                        format_level(lev[i]), p_name, fmt3(pd[i]),
                        tail_cav(i, "; "))
    }
    i <- which(!insufficient & !not_sig)
    if (length(i)) {
      msg[i] <- sprintf("%s = %s: %s at confidence %s, but 1 - alpha may not be the correct confidence level: %s",
                        what, fmt3(sp[i]), decision_words(dirn[i]),
                        format_level(lev[i]), cav[i])
    }
    idx[[p]] <- show
    msgs[[p]] <- msg
  }
  # benchmark by benchmark, the mean's note before the median's (benchmark
  # names are unique, so a row's index orders it)
  at <- c(integer(), unlist(idx, use.names = FALSE))
  o <- order(at)
  proto <- c(character(), rep(names(idx), lengths(idx)))
  new_frame(list(benchmark = bm$benchmark[at[o]], protocol = proto[o],
                 message = c(character(), unlist(msgs, use.names = FALSE))[o]))
}

# A data frame of the columns `cols` (a named list of vectors of one
# length) with automatic row names: what data.frame() gives for them,
# without its checks and conversions.
new_frame <- function(cols) {
  n <- if (length(cols)) length(cols[[1L]]) else 0L
  structure(cols, row.names = .set_row_names(n), class = "data.frame")
}

# Figures as the original tool printed them: rounded to 3 decimals, no
# trailing zeros.
fmt3 <- function(x) round_text(x, 3L)

# as.character(round(x, digits)), "NA" for a missing value.  Each distinct
# rounded value is converted once (the conversion to 15 significant digits
# costs about a microsecond a value, and a suite's notes repeat a few
# hundred rounded values over thousands of rows); as.character() works
# value by value, so indexing gives the same strings.  (as.character()
# of doubles defers the conversion to the first use of each element, and a
# subset of it stays deferred: c() makes the distinct strings once.)
round_text <- function(x, digits) {
  r <- round(x, digits)
  u <- unique(r)
  out <- c(as.character(u), character())[match(r, u)]
  out[is.na(x)] <- "NA"
  out
}

# format(), print(), summary() and as.data.frame(): R/suite-print.R; plot(): R/suite-plot.R.
