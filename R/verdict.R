# The speedup_verdict object returned by mean_test() and median_test(), and
# the methods that tell its story: print/format (a few lines), summary (every
# step of the flowchart), as.data.frame (one row) and plot.

na_if_nan <- function(v) {
  v[is.nan(v)] <- NA_real_
  v
}

#' Verdicts of the Speedup-Test protocols
#'
#' [mean_test()] and [median_test()] return a `speedup_verdict`; these
#' methods show it.  Every surface (print, summary, as.data.frame, tidy and
#' glance, knit_print, plot and autoplot, the command line) names the
#' decision in the same words: "significant speedup", "significant
#' slowdown", "no significant difference", "equivalent" or "insufficient
#' data" (the `decision` field and columns; `direction` holds "speedup",
#' "slowdown", "none", "equivalent" or `NA`; `significant` is `TRUE` for a
#' significant speedup only).  The p-value shown beside a decision is the
#' one it rests on: the mirrored test's for a slowdown.
#'
#' `print()` tells the story in a few lines of at most 80
#' columns: the decision, the confidence and whether it is guaranteed, the
#' speedup as the estimate of its interval beside the interval (two-sided at
#' `1 - 2 alpha`, each end a one-sided `1 - alpha` bound matching the
#' one-sided decisions; the printed interval is rounded outwards, so the
#' printed estimate always lies inside it), the observed ratio of the means
#' or medians on its own line when it differs,
#' P\[X > Y\] for the median, the initial code, the path through the
#' flowchart, the caveats and the advice.  `summary()` adds every sub-test
#' with its statistic, p-value and conclusion, and the route through the
#' flowchart in words; `as.data.frame()` gives one row (numbers unrounded,
#' `NA` where a value does not exist; `knitr::kable()` rounds it to
#' `getOption("digits")` decimals, so that a p-value below 5e-8 would show as
#' 0: in R Markdown, print the verdict or its `tidy()` table, which show
#' p-values by [format.pval()]); [plot()][plot.speedup_verdict] draws
#' the runs in their order and the interval; [tidy()][tidy.speedup_verdict]
#' and [glance()][tidy.speedup_verdict] give broom's tables.
#'
#' A verdict holds its numbers; the parts made of objects and sentences
#' (`steps`, `caveats`, `advice`, `detectable` and `run_order`, and in the
#' paired design `rounds` with the per-round log ratios) are made
#' when they are first read (`v$caveats`, `v[["steps"]]`, or by any
#' method) and kept, so that a verdict computed in a loop or a simulation
#' costs about what its numbers cost, and reading a part again costs
#' nothing.  `unclass(v)` shows them as `NULL`; a verdict changed since
#' (`v$n <- 2L`) makes its parts again when they are next read.
#'
#' @param x,object A `speedup_verdict`.
#' @param digits Significant digits for speedups and p-values.
#' @param row.names,optional Ignored (for compatibility with the generic).
#' @param ... Ignored.
#' @return `$` and `[[` the part of the verdict; `format()` a character vector of lines; `print()` its argument,
#'   invisibly; `summary()` an object of class `summary.speedup_verdict`;
#'   `as.data.frame()` a one-row data frame with the columns `test`,
#'   `decision`, `significant`, `branch`, `p_value`, `alpha`, `confidence`,
#'   `confidence_guaranteed`, `speedup` (the observed ratio),
#'   `speedup_estimate` (the interval's own estimate), `speedup_low`,
#'   `speedup_high`, `interval_level`,
#'   `speedup_min`, `speedup_mean`, `speedup_median`, `prob_greater`, `n`,
#'   `m`, `rigorous` and `caveats` (the sentences joined by "; ").
#' @name speedup_verdict
#' @examples
#' set.seed(4)
#' v <- median_test(rlnorm(40, log(10), 0.1), rlnorm(40, log(9), 0.1))
#' print(v)
#' summary(v)
#' as.data.frame(v)
NULL

# The verdict of a protocol from the C core's result `res` (the list of
# ffi_run_protocol).  The numbers are set
# here; the parts made of words and objects (`steps`, `caveats`, `advice`,
# `detectable`, and `run_order` when none is given) are left NULL and made
# when read (`$.speedup_verdict`), from the core's raw results kept in the
# attribute "lazy", so that a verdict in a loop or a simulation costs what
# its numbers cost.  Without `run_order`, `run_order_flag` says whether
# the run-order checks flag the runs (trend_flag()).  `flags` are the
# caveat bits the verdict reports in `caveat_flags` (the paired design
# keeps only those it shares with the unpaired flowcharts); `design`
# ("unpaired" or "paired") picks the protocol's descriptor.
new_verdict <- function(res, test, x, y, alpha, rigorous, labels, data_name,
                        call, baseline = NULL, run_order = NULL,
                        flags = res$caveats, design = "unpaired",
                        run_order_flag = NULL) {
  outcome <- decision_outcome(res$decision)
  speedup_ci <- na_if_nan(res$speedup_ci)
  # the interval's own estimate: the ratio of the means (Fieller) or the
  # exponential of the Hodges-Lehmann shift of the log times
  ci_estimate <- na_if_nan(if (is.null(res$speedup_estimate)) NA_real_
                           else res$speedup_estimate)
  branch <- st_code_name("branch", res$branch)
  proto <- protocol_info(test, design)
  speedup_ci <- structure(speedup_ci, conf.level = interval_level(alpha),
                          method = proto$interval$method,
                          estimate = ci_estimate,
                          estimator = proto$interval$estimator)
  # an exact rank interval whose level 1 - 2 alpha these sizes cannot reach
  # is no interval at that level (R/attainable.R)
  speedup_ci <- unattainable_interval(speedup_ci, res$speedup_ci_level, alpha)
  p_slow <- na_if_nan(res$p_value_slowdown)
  direction <- direction_from(outcome, p_slow, alpha)
  if (is.null(baseline)) baseline <- sprintf("`%s` (first argument)", labels[1L])
  if (is.null(run_order) && is.null(run_order_flag)) {
    run_order <- run_order_check(x, y, labels)
  }
  if (is.null(run_order_flag)) run_order_flag <- isTRUE(run_order$trend)
  out <- list(
    test = test,
    significant = switch(outcome, "significant" = TRUE,
                         "not significant" = FALSE, NA),
    direction = direction,
    decision = decision_words(direction),
    branch = branch,
    p_value = na_if_nan(res$p_value),
    p_value_slowdown = p_slow,
    alpha = alpha,
    confidence = 1 - alpha,
    confidence_guaranteed = isTRUE(res$guaranteed) && !run_order_flag,
    speedup = na_if_nan(res$speedup),
    speedup_ci = speedup_ci,
    speedups = na_if_nan(c(min = res$speedup_min, mean = res$speedup_mean,
                           median = res$speedup_median)),
    steps = NULL,
    caveat_flags = flags,
    caveats = NULL,
    advice = NULL,
    n = length(x),
    m = length(y),
    rigorous = rigorous,
    labels = labels,
    baseline = baseline,
    run_order = run_order,   # NULL: made when read, from the samples
    data_name = data_name,
    call = call,
    x = x,
    y = y,
    min_alpha = NULL         # made when read (verdict_min_alpha())
  )
  # the parts only some protocols report, made when read
  for (f in proto$lazy_extra) out[f] <- list(NULL)
  # the elements only some protocols report (their descriptor's `extra`)
  for (f in protocol_info(test)$extra) {
    out[[f]] <- switch(f,
      shift_ci = structure(na_if_nan(res$shift_ci), conf.level = 1 - alpha),
      prob_ci = structure(na_if_nan(res$prob_ci), conf.level = interval_level(alpha)),
      na_if_nan(res[[f]]))
  }
  structure(out, class = c(paste0("speedup_verdict_", test), "speedup_verdict"),
            lazy = list(steps = res$steps, kinds = res$step_kinds,
                        flags = res$caveats, design = design,
                        cache = new.env(parent = emptyenv())))
}

# The parts of a verdict made when read, and how.
verdict_lazy_fields <- c("steps", "caveats", "advice", "detectable", "run_order",
                         "min_alpha", "median_ratio", "rounds")

verdict_lazy <- function(v, name) {
  switch(name,
    steps = verdict_steps(v),
    caveats = verdict_kept(v, "story", verdict_story)$caveats,
    advice = verdict_kept(v, "story", verdict_story)$advice,
    detectable = if (identical(.subset2(v, "direction"), "none"))
      verdict_detectable(v) else NA_real_,
    min_alpha = verdict_min_alpha(v),
    median_ratio = median_ratio_bp(.subset2(v, "x"), .subset2(v, "y"),
                                   .subset2(v, "alpha")),
    run_order = if (identical(attr(v, "lazy", exact = TRUE)$design, "paired"))
      paired_run_order(paired_rounds(v)$d, .subset2(v, "labels"))
    else run_order_check(.subset2(v, "x"), .subset2(v, "y"), .subset2(v, "labels")),
    rounds = paired_rounds(v),
    NULL)
}

# A part made when read, made once: kept in the environment `cache` of the
# attribute "lazy" under `key` (a part, or "story" for the caveats and
# advice made together), with the state of the verdict it was made from
# (its fields and its attribute "lazy" but the cache).  A verdict changed
# in any way since (`v$n <- 2`, a new attribute "lazy", ...) finds another
# state: its parts are made again and the cache holds those.  The state
# shares its vectors with the verdict, so comparing it costs little.
verdict_kept <- function(v, key, make) {
  cache <- verdict_cache(v)
  if (is.null(cache)) return(make(v))
  if (!exists(key, envir = cache, inherits = FALSE)) {
    assign(key, make(v), envir = cache)
  }
  get(key, envir = cache, inherits = FALSE)
}

# The cache of a verdict's parts made when read, emptied when it holds
# the parts of another state of the verdict (NULL for a verdict without
# one).
verdict_cache <- function(v) {
  lz <- attr(v, "lazy", exact = TRUE)
  cache <- lz$cache
  if (!is.environment(cache)) return(NULL)
  state <- list(fields = unclass(v), lazy = lz[names(lz) != "cache"])
  attr(state$fields, "lazy") <- NULL
  if (!identical(cache$.state, state)) {
    held <- ls(cache, all.names = TRUE)
    if (length(held)) rm(list = held, envir = cache)
    assign(".state", state, envir = cache)
  }
  cache
}

# Keeps `value` as the part `key` of verdict v, as verdict_kept() would
# have made it (R/verdict-batch.R makes the parts of many verdicts at
# once); a part already made is kept as it is.
verdict_keep <- function(v, key, value) {
  cache <- verdict_cache(v)
  if (!is.null(cache) && !exists(key, envir = cache, inherits = FALSE)) {
    assign(key, value, envir = cache)
  }
  invisible(v)
}

verdict_part <- function(v, name) {
  verdict_kept(v, name, function(v) verdict_lazy(v, name))
}

#' @rdname speedup_verdict
#' @param name,i The name of a part of the verdict.
#' @export
`$.speedup_verdict` <- function(x, name) {
  out <- .subset2(x, name, exact = FALSE)
  if (is.null(out) && name %in% verdict_lazy_fields &&
      name %in% names(x) && !is.null(attr(x, "lazy", exact = TRUE))) {
    verdict_part(x, name)
  } else out
}

#' @rdname speedup_verdict
#' @export
`[[.speedup_verdict` <- function(x, i, ...) {
  out <- .subset2(x, i, ...)
  if (is.null(out) && is.character(i) && length(i) == 1L &&
      i %in% verdict_lazy_fields && i %in% names(x) &&
      !is.null(attr(x, "lazy", exact = TRUE))) {
    verdict_part(x, i)
  } else out
}

# The verdict with every part made (the object a user sees part by part):
# what the identical-answer scripts of bench/ compare.
complete_verdict <- function(v) {
  if (is.null(attr(v, "lazy", exact = TRUE))) return(v)
  todo <- Filter(function(f) is.null(.subset2(v, f)),
                 intersect(verdict_lazy_fields, names(v)))
  made <- lapply(todo, function(f) verdict_part(v, f))
  for (i in seq_along(todo)) v[todo[i]] <- list(made[[i]])
  attr(v, "lazy") <- NULL
  v
}

# The sub-tests the flowchart ran, as htest objects named by their role
# (shapiro_x, ..., t_test or wilcoxon), in the order they ran.
verdict_steps <- function(v) {
  lz <- attr(v, "lazy", exact = TRUE)
  kinds <- st_code_name("step", lz$kinds)
  ctx <- list(alpha = .subset2(v, "alpha"), labels = .subset2(v, "labels"),
              welch = .subset2(v, "branch") %in% c("welch_normal", "welch_not_normal"))
  out <- Map(function(r, k) protocol_steps[[k]]$htest(r, ctx), lz$steps, kinds)
  names(out) <- vapply(protocol_steps[kinds], `[[`, "", "role", USE.NAMES = FALSE)
  out
}

# The p-value of the step of kind `kind` in the core's raw results (NA
# when the flowchart did not run it).
raw_step_p <- function(lz, kind) {
  i <- match(st_code("step", kind), lz$kinds)
  if (is.na(i)) NA_real_ else lz$steps[[i]]$p_value
}

# print(), format(), summary() and as.data.frame(): R/verdict-print.R;
# plot(): R/verdict-plot.R.
