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
#' @param warmup With timings `data`, `"keep"` (default) or `"detect"`:
#'   each process's steady iterations only, the processes that never
#'   settled left out ([trim_warmup()]); what was dropped, and the
#'   benchmarks where no process of a version settled (then "insufficient
#'   data"), are listed in `problems` (where `"warmup"`).
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
#' @param protocols The protocols run on every benchmark, by name: the
#'   paper's two by default (the mean's and the median's, whose columns the
#'   original tool's files hold), or any of the package's protocols (see
#'   [speeduptest_protocols]), each once.
#' @return An object of class `speedup_suite`: a list with
#'   * `results`: the long table, one row per benchmark and protocol (in
#'     the order of `protocols`): `benchmark`, `protocol`, and the protocol's
#'     columns listed below without their prefix;
#'   * `benchmarks`: the wide view cut from it, one row per analysed
#'     benchmark (also `as.data.frame()`): the sample sizes `n`, `m`, the
#'     centres (`min_x`, ..., `median_y`), the observed speedups
#'     (`speedup_min`, `speedup_mean`, `speedup_median`), `searched` (the
#'     level was searched), and for each protocol (prefix `mean_`,
#'     `median_`, `prob_`) the `decision`
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
#'     P\[X > Y\]) and, when the probability protocol ran, its interval
#'     `prob_greater_low`, `prob_greater_high` (at `ci_level`); the normalised weights `weight_min`, `weight_mean`,
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
#'     `rigorous`, `versions`, `call`, and `protocols`.
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
                          design = "auto", protocols = c("mean", "median"),
                          warmup = "keep") {
  check_dots_empty(...)
  call <- match.call()
  protocols <- check_protocols(protocols)
  p_adjust <- check_choice(p_adjust, c("none", "holm", "BH"), "p_adjust")
  min_speedup <- check_min_speedup(min_speedup)
  rigorous <- check_flag(rigorous, "rigorous")
  na_rm <- check_flag(na_rm, "na_rm")
  significant_only <- check_flag(significant_only, "significant_only")
  prop_conf_level <- check_conf_level(prop_conf_level, "prop_conf_level")
  precision <- check_precision(precision)
  prop_method <- check_choice(prop_method, proportion_methods, "prop_method")
  method_code <- match(prop_method, proportion_methods) - 1L
  if (!is.null(weights)) weights <- check_choice(weights, suite_weight_modes, "weights")
  timings_problems <- NULL
  structured <- NULL
  fast <- NULL
  warmup_notes <- character()
  if (is_speedup_timings(data)) {
    wt <- warmup_timings(data, warmup)
    data <- wt$t
    warmup_notes <- wt$messages
    structured <- data
    # the runs grouped by benchmark and version from integer codes; the
    # timings that need the checks one by one go through the table of
    # timings_pairs()
    fast <- suite_from_timings(data, initial)
    if (is.null(fast)) {
      tp <- timings_pairs(data, initial, require = TRUE, pairs = FALSE)
      data <- tp$data
      timings_problems <- tp$problems
    } else {
      timings_problems <- fast$problems
    }
    benchmark <- "benchmark"; version <- "version"; time <- "time"; initial <- NULL
  }

  suite <- if (!is.null(fast)) {
    fast$suite
  } else if (is.data.frame(data)) {
    suite_from_frame(data, benchmark, version, time, na_rm, initial)
  } else if (is.list(data)) {
    check_list_initial(initial)
    suite_from_list(data, na_rm)
  } else {
    abort(sprintf("`data` must be a data frame or a list of benchmarks, not %s.",
                  describe_type(data)))
  }

  if (!is.null(timings_problems)) suite$problems <- rbind(timings_problems, suite$problems)
  for (m in warmup_notes) {
    suite$problems <- add_problem(suite$problems, sub('^benchmark "(.*)": .*$', "\\1", m),
                                  "warmup", "warning", m)
  }
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
                    method_code, precision, protocols)

  # timings with processes or rounds: what they change for each benchmark,
  # from the grouping above (the benchmarks of one process per version get
  # their caveat in the table built next)
  pre <- if (!is.null(fast) && identical(suite$names, fast$split$benchmarks)) {
    suite_timings_actions(fast, structured, replication, design)
  }
  out <- new_speedup_suite(res, suite, levels, problems, mode, requested,
                           prop_conf_level, prop_method, precision, significant_only,
                           rigorous, call, run_order = run_order, p_adjust = p_adjust,
                           min_speedup = min_speedup, protocols = protocols,
                           single = if (!is.null(pre)) pre$act == "single")
  if (!is.null(structured)) {
    out <- suite_structured(out, structured, replication, design, rigorous, p_adjust,
                            min_speedup, pre = pre)
  } else if (!identical(replication, "auto") || !identical(design, "auto")) {
    check_choice(replication, replication_choices, "replication")
    check_choice(design, design_choices, "design")
  }
  out
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
                       method_code, precision, protocols = suite_default_protocols) {
  codes <- protocol_code(protocols)
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
                  rigorous = rigorous, protocols = codes))
    }
    from <- if (parallel) suite$x_start[idx[1L]] else 0
    to <- suite$y_start[idx[length(idx)]] + suite$y_len[idx[length(idx)]]
    list(values = if (parallel) suite$values[seq.int(from + 1, length.out = to - from)]
                  else suite$values,
         x_start = as.double(suite$x_start[idx] - from),
         x_len = as.double(suite$x_len[idx]),
         y_start = as.double(suite$y_start[idx] - from),
         y_len = as.double(suite$y_len[idx]), alpha = alpha[idx],
         rigorous = rigorous, protocols = codes)
  })
  parts <- if (parallel) {
    future.apply::future_lapply(args, suite_run_chunk)
  } else {
    lapply(args, suite_run_chunk)
  }
  bench <- if (length(parts) == 1L) parts[[1L]] else {
    glue <- function(lists) {
      cols <- names(lists[[1L]])
      stats::setNames(lapply(cols, function(col) {
        unlist(lapply(lists, `[[`, col), use.names = FALSE)
      }), cols)
    }
    out <- glue(lapply(parts, function(p) p[names(p) != "protocols"]))
    out$protocols <- glue(lapply(parts, `[[`, "protocols"))
    out
  }
  k <- length(codes)
  # the decisions, protocol after protocol (the long rows are benchmark
  # after benchmark)
  decision <- as.vector(t(matrix(bench$protocols$decision, nrow = k)))
  summ <- .Call(ffi_suite_summary, bench$status,
                c(bench$min_x, bench$mean_x, bench$median_x),
                c(bench$min_y, bench$mean_y, bench$median_y),
                as.double(decision), codes,
                match(mode, c("custom", "equal", "fraction")) - 1L,
                as.double(custom), prop_conf_level, method_code, precision)
  bench$weights <- summ$weights
  list(benchmarks = bench, summary = summ$summary)
}

# One chunk through the core (a top-level function: a future worker gets
# it with the package namespace, not with the whole suite).
suite_run_chunk <- function(a) {
  .Call(ffi_suite_benchmarks, a$values, a$x_start, a$x_len, a$y_start,
        a$y_len, a$alpha, a$rigorous, a$protocols)
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

# format(), print(), summary() and as.data.frame(): R/suite-print.R; plot(): R/suite-plot.R.
