# `speeduptest compare`: the decisions of a CI job (every other version
# against the baseline, a tolerance, an adjustment for multiplicity, the
# job's risk) and its three outputs: text, Markdown and JSON.

# Every benchmark of every version other than `baseline`, against it: the
# protocol's verdict at the tolerance s0, then the decisions adjusted over
# all the comparisons of the job.  t: timings with any number of versions.
# Returns list(rows, versions, baseline, skipped).
compare_run <- function(t, opts) {
  ver <- t$version
  vers <- if (is.factor(ver)) levels(drop_levels(ver)) else unique(as.character(ver))
  if (length(vers) < 2L) {
    abort(sprintf("the files hold 1 version (\"%s\"); compare needs two or more.",
                  vers[1L]), class = "data")
  }
  baseline <- opts$baseline
  how <- "--baseline"
  if (is.null(baseline)) {
    baseline <- vers[1L]
    how <- if (length(vers) > 2L) "the first version; choose another with --baseline" else "the first version"
  } else {
    baseline <- check_member(baseline, vers, "--baseline", "the versions ")
  }
  others <- setdiff(vers, baseline)
  rows <- list()
  skipped <- data.frame(benchmark = character(), version = character(),
                        message = character(), stringsAsFactors = FALSE)
  for (o in others) {
    two <- c(baseline, o)
    keep <- if (is.factor(ver)) (levels(ver) %in% two)[as.integer(ver)] else
      as.character(ver) %in% two
    keep[is.na(keep)] <- FALSE
    sub <- as.data.frame(unclass(t), stringsAsFactors = FALSE)
    # the runs of the two versions, the baseline first (the table as it is
    # when it holds these two alone, in this order)
    if (!all(keep)) sub <- sub[keep, , drop = FALSE]
    v <- sub$version
    if (!(is.integer(v) && identical(attributes(v), list(levels = two, class = "factor")) &&
          !anyNA(v))) {
      sub$version <- factor(as.character(v), levels = two)
    }
    attr(sub, "run_order") <- attr(t, "run_order")
    # the benchmarks skipped as the timings were built (a bad structure value)
    pr <- attr(t, "problems")
    if (!is.null(pr)) attr(sub, "problems") <- pr[pr$where == "data", , drop = FALSE]
    tp <- suppressWarnings(timings_pairs(sub, arg = "the files", data = FALSE))
    sk <- tp$problems
    sk <- sk[sk$severity == "error", , drop = FALSE]
    if (nrow(sk)) {
      skipped <- rbind(skipped, data.frame(benchmark = sk$benchmark, version = o,
                                           message = sk$message,
                                           stringsAsFactors = FALSE))
    }
    # the timings split once for all the benchmarks of this version, and
    # their verdicts made at once (R/verdict-table.R)
    sp <- timings_split(t, c(baseline, o), names(tp$pairs))
    times <- compare_times_all(tp$pairs)
    parts <- lapply(seq_along(sp$benchmarks), function(j) split_part(sp, j))
    seq_any <- !is.null(attr(t, "sequential", exact = TRUE)) ||
      all(c("sequential_test", "sequential_alpha", "sequential_max_runs") %in% names(t))
    if (seq_any) {
      for (j in seq_along(parts)) {
        parts[[j]]$sequential <- sequential_design(t, sp$benchmarks[j])
      }
    }
    slow <- vapply(parts, function(p) !is.null(p$sequential), TRUE)
    tab <- verdict_table(opts$test, parts, opts$alpha, opts$s0,
                         replication = opts$replication %||% "auto",
                         design = opts$design %||% "auto", rigorous = TRUE, slow = slow,
                         analyse = function(j) compare_analysis(tp$pairs[[j]]$x,
                                                                tp$pairs[[j]]$y, opts,
                                                                parts[[j]]))
    # the parts of the verdicts made one by one the rows read, made for all
    # at once
    verdicts_prime(tab$verdicts)
    rows[[length(rows) + 1L]] <- compare_table_rows(tab, sp$benchmarks, o, tp$pairs,
                                                    times, opts)
  }
  rows <- compare_adjust(compare_bind(rows), opts)
  list(rows = rows, versions = vers, baseline = baseline, baseline_how = how,
       others = others, skipped = skipped)
}

# One benchmark's verdict: the protocol's p-values at s0 (the speedup, the
# slowdown and the equivalence tests), the speedup and its interval; NA
# p-values when the final test was not reached.  list(row, verdict).
compare_verdict <- function(benchmark, version, x, y, opts, parts = NULL,
                            times = compare_times(x, y),
                            v = compare_analysis(x, y, opts, parts)) {
  compare_row(benchmark, version, x, y, opts, times, v)
}

# The protocol's verdict of one benchmark (the error when it fails).
compare_analysis <- function(x, y, opts, parts = NULL) {
  tryCatch(if (is.null(parts)) {
    test_fun <- protocol_fun(opts$test, "default")
    test_fun(x, y, alpha = opts$alpha, min_speedup = opts$s0)
  } else {
    # the benchmark's runs with their processes and rounds (SPEC section
    # 9), as the protocol's function of the timings analyses them
    call <- compare_call
    call[[1L]] <- as.name(protocol_info(opts$test)$fun)
    # runs of a sequential stop keep their design (SPEC section 10)
    seq_v <- if (!is.null(parts$sequential) &&
                 (opts$replication %||% "auto") == "auto" &&
                 (opts$design %||% "auto") == "auto") {
      sequential_verdict(opts$test, parts, parts$sequential, opts$alpha, call,
                         min_speedup = opts$s0)
    }
    seq_v %||% run_structured(opts$test, parts, opts$alpha, TRUE, FALSE, call,
                              opts$replication %||% "auto", opts$design %||% "auto",
                              min_speedup = opts$s0)
  }, error = function(e) e)
}

# The rows of one version's benchmarks from its verdict table (columns
# as compare_frame() makes them), with the words and facts the outputs
# read of each verdict, made at once for the benchmarks the table made
# and read off the verdict objects of the others:
#   attr "story": list(caveats, advice: lists of sentences; single: one
#     process per version (rule 2); blocked: measured in blocks; open:
#     the open ends of the interval (NULL or c(low, high)))
#   attr "table": the table (its `fast` rows have no verdict object until
#     one is asked for: compare_verdicts()), attr "index": the row's
#     benchmark in it.
compare_table_rows <- function(tab, benchmarks, version, pairs, times, opts) {
  k <- tab$k
  items <- vector("list", k)
  story <- list(caveats = vector("list", k), advice = vector("list", k),
                single = logical(k), blocked = logical(k), open = vector("list", k))
  for (j in which(!tab$fast)) {
    p <- pairs[[j]]
    it <- compare_row(benchmarks[j], version, p$x, p$y, opts,
                      lapply(times, `[[`, j), tab$verdicts[[j]])
    items[[j]] <- it
    v <- it$verdict
    if (!is.null(v)) {
      story$caveats[j] <- list(v$caveats)
      story$advice[j] <- list(v$advice)
      info <- v$replication
      paired <- identical(v$design$design, "paired")
      story$single[j] <- !is.null(info) && info$unit == "run" && info$kind == "single" &&
        info$requested == "auto" && !paired
      il <- v$run_order$interleaving
      story$blocked[j] <- !is.null(il) && identical(il$interleaved, FALSE) && !paired
      story$open[j] <- list(attr(v$speedup_ci, "open"))
    }
  }
  cols <- c("benchmark", "version", "n", "m", "speedup", "estimate", "ci_low", "ci_high",
            "ci_open_low", "ci_open_high", "p_speedup", "p_slowdown", "p_equivalence",
            "note", "guaranteed", "caveats", "advice", "old_median", "old_spread",
            "new_median", "new_spread")
  out <- lapply(cols, function(cl) {
    if (cl %in% c("benchmark", "version", "note", "caveats", "advice")) {
      rep(NA_character_, k)
    } else if (cl %in% c("guaranteed", "ci_open_low", "ci_open_high")) {
      rep(NA, k)
    } else rep(NA_real_, k)
  })
  names(out) <- cols
  slow <- which(!tab$fast)
  for (cl in cols) {
    if (length(slow)) {
      v <- lapply(items[slow], function(it) it$row[[cl]])
      out[[cl]][slow] <- if (cl %in% c("benchmark", "version", "note", "caveats", "advice")) {
        as.character(unlist(v))
      } else if (cl %in% c("guaranteed", "ci_open_low", "ci_open_high")) {
        as.logical(unlist(v))
      } else as.double(unlist(v))
    }
  }
  f <- tab$rows
  if (length(f)) {
    c2 <- tab$cols
    reached <- !is.na(c2$significant)
    out$benchmark[f] <- benchmarks[f]
    out$version[f] <- version
    out$n[f] <- as.double(c2$n)
    out$m[f] <- as.double(c2$m)
    out$speedup[f] <- c2$speedup
    out$estimate[f] <- c2$estimate
    out$ci_low[f] <- c2$ci_low
    out$ci_high[f] <- c2$ci_high
    out$ci_open_low[f] <- c2$open_low
    out$ci_open_high[f] <- c2$open_high
    out$p_speedup[f] <- ifelse(reached, c2$p_value, NA_real_)
    out$p_slowdown[f] <- ifelse(reached, c2$p_value_slowdown, NA_real_)
    out$p_equivalence[f] <- if (opts$s0 == 1) NA_real_ else
      ifelse(reached, c2$p_value_equivalence, NA_real_)
    adv <- vapply(c2$advice, paste, "", collapse = "; ")
    out$note[f] <- ifelse(reached, "", adv)
    out$guaranteed[f] <- ifelse(reached, c2$guaranteed, NA)
    out$caveats[f] <- compare_caveats_all(c2$caveats)
    out$advice[f] <- adv
    for (cl in c("old_median", "old_spread", "new_median", "new_spread")) {
      out[[cl]][f] <- times[[cl]][f]
    }
    story$caveats[f] <- c2$caveats
    story$advice[f] <- c2$advice
    story$single[f] <- c2$single
    open <- c2$open_low | c2$open_high
    story$open[f[open]] <- Map(c, c2$open_low[open], c2$open_high[open])
  }
  df <- new_frame(out)
  attr(df, "verdicts") <- lapply(items, function(it) it$verdict)
  attr(df, "errors") <- lapply(items, function(it) it$error)
  attr(df, "story") <- story
  attr(df, "tables") <- list(tab)
  attr(df, "index") <- cbind(1L, seq_len(k))
  df
}

# The rows of every version, one after the other, with their attributes.
compare_bind <- function(parts) {
  if (!length(parts)) return(compare_frame(list()))
  if (length(parts) == 1L) return(parts[[1L]])
  cols <- names(parts[[1L]])
  out <- lapply(cols, function(cl) unlist(lapply(parts, `[[`, cl), use.names = FALSE))
  names(out) <- cols
  df <- new_frame(out)
  cat_attr <- function(a) do.call(c, lapply(parts, attr, a))
  attr(df, "verdicts") <- cat_attr("verdicts")
  attr(df, "errors") <- cat_attr("errors")
  st <- lapply(parts, attr, "story")
  attr(df, "story") <- lapply(stats::setNames(names(st[[1L]]), names(st[[1L]])),
                              function(nm) do.call(c, lapply(st, `[[`, nm)))
  attr(df, "tables") <- do.call(c, lapply(parts, attr, "tables"))
  attr(df, "index") <- do.call(rbind, lapply(seq_along(parts), function(i) {
    ix <- attr(parts[[i]], "index")
    ix[, 1L] <- i
    ix
  }))
  df
}

# The verdict objects of the rows (NULL for a benchmark not analysed),
# those the tables made at once made now by the per-verdict path.
compare_verdicts <- function(rows) {
  vs <- attr(rows, "verdicts")
  tabs <- attr(rows, "tables")
  ix <- attr(rows, "index")
  if (is.null(tabs)) return(vs)
  for (i in seq_along(vs)) {
    tab <- tabs[[ix[i, 1L]]]
    if (tab$fast[ix[i, 2L]]) vs[i] <- list(verdict_table_verdict(tab, ix[i, 2L]))
  }
  vs
}

# The row of one benchmark's verdict v (or error).
compare_row <- function(benchmark, version, x, y, opts, times, v) {
  if (inherits(v, "error")) {
    return(list(row = c(list(benchmark = benchmark, version = version,
                             n = length(x), m = length(y), speedup = NA_real_,
                             estimate = NA_real_,
                             ci_low = NA_real_, ci_high = NA_real_,
                             ci_open_low = FALSE, ci_open_high = FALSE,
                             p_speedup = NA_real_, p_slowdown = NA_real_,
                             p_equivalence = NA_real_, note = conditionMessage(v),
                             guaranteed = NA, caveats = "", advice = ""),
                        times),
                verdict = NULL, error = v))
  }
  reached <- !is.na(v$significant)
  pe <- v$sequential$p_value_equivalence %||% v$p_value_equivalence
  if (opts$s0 == 1) pe <- NA_real_
  list(row = c(list(benchmark = benchmark, version = version, n = v$n, m = v$m,
                  speedup = v$speedup,
                  estimate = or_na(attr(v$speedup_ci, "estimate"), NA_real_),
                  ci_low = as.double(v$speedup_ci[1L]),
                  ci_high = as.double(v$speedup_ci[2L]),
                  ci_open_low = isTRUE(attr(v$speedup_ci, "open")[1L]),
                  ci_open_high = isTRUE(attr(v$speedup_ci, "open")[2L]),
                  # a sequential stop: the sequential p-values, at most
                  # alpha exactly when a look decided
                  p_speedup = if (reached) v$sequential$p_value %||% v$p_value else NA_real_,
                  p_slowdown = if (reached) v$sequential$p_value_slowdown %||%
                    v$p_value_slowdown else NA_real_,
                  p_equivalence = if (reached) pe else NA_real_,
                  note = paste(c(if (!reached) paste(v$advice, collapse = "; "),
                                 replicates_note(v)), collapse = "; "),
                  guaranteed = if (reached) isTRUE(v$confidence_guaranteed) else NA,
                  caveats = compare_caveats(v),
                  advice = paste(v$advice, collapse = "; ")),
                times),
       verdict = v)
}

# The caveats of a verdict that say why its confidence is not guaranteed
# (the generic "may not be the correct confidence level" left out: the
# line says "not guaranteed"), joined by "; ".
compare_caveats <- function(v) {
  cav <- v$caveats
  cav <- cav[!grepl("may not be the correct confidence level$", cav)]
  paste(cav, collapse = "; ")
}

# compare_caveats() of many lists of caveats: the generic sentence found
# in all of them by one grepl().
compare_caveats_all <- function(caveats) {
  len <- lengths(caveats)
  all <- unlist(caveats, use.names = FALSE)
  if (is.null(all)) return(rep("", length(caveats)))
  keep <- !grepl("may not be the correct confidence level$", all)
  g <- rep.int(seq_along(caveats), len)
  vapply(split(all[keep], factor(g[keep], levels = seq_along(caveats))), paste, "",
         collapse = "; ", USE.NAMES = FALSE)
}

# The old and new times of a line: the median and the spread (the median
# absolute deviation, scaled as mad() to estimate a standard deviation) of
# the runs of each version, in seconds.
compare_times <- function(x, y) {
  x <- x[is.finite(x)]
  y <- y[is.finite(y)]
  med <- function(v) if (length(v)) stats::median(v) else NA_real_
  spr <- function(v) if (length(v) > 1L) stats::mad(v) else NA_real_
  list(old_median = med(x), old_spread = spr(x), new_median = med(y),
       new_spread = spr(y))
}

# compare_times() of every pair of a list (list(x, y) each) at once: the
# four columns, from one sort of all the runs by benchmark (the values
# stats::median() and stats::mad() give, median by median).
compare_times_all <- function(pairs) {
  k <- length(pairs)
  side <- function(s) {
    v <- lapply(pairs, `[[`, s)
    g <- rep.int(seq_len(k), lengths(v))
    v <- as.double(unlist(v, use.names = FALSE))
    ok <- is.finite(v)
    v <- v[ok]
    g <- g[ok]
    med <- group_median(v, g, k)
    spr <- 1.4826 * group_median(abs(v - med[g]), g, k)
    spr[tabulate(g, k) < 2L] <- NA_real_
    list(median = med, spread = spr)
  }
  x <- side("x")
  y <- side("y")
  list(old_median = x$median, old_spread = x$spread, new_median = y$median,
       new_spread = y$spread)
}

# The median of the values v of each group g (1..k; NA for a group
# without values), as stats::median() of each: the middle value, or the
# mean() of the two middle ones.
group_median <- function(v, g, k) {
  o <- order(g, v)
  v <- v[o]
  g <- g[o]
  n <- tabulate(g, k)
  start <- cumsum(c(0L, n))[seq_len(k)]
  out <- rep(NA_real_, k)
  odd <- n %% 2L == 1L
  out[odd] <- v[start[odd] + (n[odd] + 1L) %/% 2L]
  ev <- which(n > 0L & !odd)
  if (length(ev)) {
    a <- v[start[ev] + n[ev] %/% 2L]
    b <- v[start[ev] + n[ev] %/% 2L + 1L]
    # R's mean() of the two middle values, for all the groups in one call
    # (src/group-median.c), mean() itself where one is not finite
    fin <- is.finite(a) & is.finite(b)
    m2 <- numeric(length(ev))
    m2[fin] <- .Call(ffi_mean_pairs, a[fin], b[fin])
    m2[!fin] <- vapply(which(!fin), function(i) mean(c(a[i], b[i])), 0)
    out[ev] <- m2
  }
  out
}

# The call a verdict of compare_verdict() records.
compare_call <- quote(test(x = t, benchmark = benchmark, versions = versions,
                           alpha = opts$alpha,
                           replication = opts$replication %||% "auto",
                           design = opts$design %||% "auto",
                           min_speedup = opts$s0))

# The rows of compare_verdict() results as a data frame (the verdicts in
# the attribute "verdicts").
compare_frame <- function(items) {
  cols <- c("benchmark", "version", "n", "m", "speedup", "estimate", "ci_low", "ci_high",
            "ci_open_low", "ci_open_high", "p_speedup", "p_slowdown", "p_equivalence", "note", "guaranteed",
            "caveats", "advice", "old_median", "old_spread", "new_median",
            "new_spread")
  out <- lapply(cols, function(cl) {
    v <- lapply(items, function(it) it$row[[cl]])
    if (cl %in% c("benchmark", "version", "note", "caveats", "advice")) {
      as.character(unlist(v))
    } else if (cl %in% c("guaranteed", "ci_open_low", "ci_open_high")) {
      as.logical(unlist(v))
    } else as.double(unlist(v))
  })
  names(out) <- cols
  df <- new_frame(out)
  attr(df, "verdicts") <- lapply(items, `[[`, "verdict")
  attr(df, "errors") <- lapply(items, `[[`, "error")
  df
}

# Why the job cannot stand (NULL when it can): an analysis the options ask
# for that cannot be applied (`--design paired` without rounds: an error
# of class speeduptest_error_argument for a benchmark), or no benchmark
# analysed at all (every one failed, e.g. all times negative).  A job that
# tested nothing must not pass.
compare_broken <- function(run) {
  errs <- attr(run$rows, "errors")
  failed <- !vapply(errs, is.null, NA)
  if (!any(failed)) return(NULL)
  what <- function(i) sprintf("benchmark \"%s\" (%s): %s", run$rows$benchmark[i],
                              run$rows$version[i], conditionMessage(errs[[i]]))
  arg <- which(vapply(errs, inherits, NA, "speeduptest_error_argument"))
  if (length(arg)) {
    return(sprintf("the analysis asked for cannot be applied to %d benchmark%s, e.g. %s",
                   length(arg), if (length(arg) == 1L) "" else "s", what(arg[1L])))
  }
  if (all(failed)) {
    return(sprintf("no benchmark could be analysed (%d failed), e.g. %s",
                   length(failed), what(1L)))
  }
  NULL
}

# The decisions over all the comparisons of the job: the speedup, the
# slowdown and the equivalence p-values adjusted separately (as
# speedup_suite()), each decision at alpha; `detectable` of the lines that
# decide nothing at the level the adjustment asks of the first test
# (alpha / k for Holm, alpha for BH and none).
compare_adjust <- function(rows, opts) {
  a <- opts$alpha
  adj <- function(p) stats::p.adjust(p, method = opts$p_adjust)
  rows$p_speedup_adj <- adj(rows$p_speedup)
  rows$p_slowdown_adj <- adj(rows$p_slowdown)
  rows$p_equivalence_adj <- adj(rows$p_equivalence)
  dir <- rep(NA_character_, nrow(rows))
  reached <- !is.na(rows$p_speedup)
  dir[reached] <- "none"
  dir[reached & !is.na(rows$p_equivalence_adj) & rows$p_equivalence_adj <= a] <- "equivalent"
  dir[reached & rows$p_slowdown_adj <= a] <- "slowdown"
  dir[reached & rows$p_speedup_adj <= a] <- "speedup"
  rows$direction <- dir
  k <- sum(reached)
  a_first <- if (opts$p_adjust == "holm" && k > 0) a / k else a
  verdicts <- attr(rows, "verdicts")
  want <- dir %in% "none"
  rows$detectable <- verdicts_detectable(verdicts, want, a_first)
  # the smallest attainable alpha of the lines that decide nothing because
  # their sizes cannot (R/attainable.R)
  ma_of <- function(p) {
    if (length(p) != 2L || anyNA(p) || !any(p > a_first)) NA_real_ else min(p)
  }
  rows$min_alpha <- vapply(seq_len(nrow(rows)), function(i) {
    v <- verdicts[[i]]
    if (!identical(dir[i], "none") || is.null(v)) return(NA_real_)
    ma_of(v$min_alpha)
  }, 0)
  # the rows the verdict tables made (R/verdict-table.R)
  tabs <- attr(rows, "tables")
  ix <- attr(rows, "index")
  for (ti in seq_along(tabs)) {
    tab <- tabs[[ti]]
    at <- which(ix[, 1L] == ti)
    f <- tab$rows
    if (!length(f)) next
    r <- at[f]
    w <- want[r]
    if (!any(w)) next
    ma <- verdict_table_min_alpha_more(tab, which(w))
    rows$detectable[r[w]] <- verdict_table_detectable(tab, which(w), a_first)
    rows$min_alpha[r[w]] <- apply(ma, 1L, ma_of)
  }
  rows
}

# A line's interval with its open ends (R/attainable.R).
compare_row_ci <- function(r) {
  open <- c(isTRUE(r$ci_open_low), isTRUE(r$ci_open_high))
  structure(c(r$ci_low, r$ci_high), open = if (any(open)) open)
}

# "no speedup (the smallest attainable alpha is 0.05)" for a line whose
# sizes cannot reach the level asked.
compare_no_change <- function(r, words) {
  if (is.null(r$min_alpha) || is.na(r$min_alpha)) return(words)
  sprintf("%s (the smallest attainable alpha is %s)", words, fmt_p(r$min_alpha))
}

# compare_no_change() of many rows.
compare_no_change_all <- function(rows, words) {
  out <- rep(words, nrow(rows))
  ma <- rows$min_alpha
  if (is.null(ma)) return(out)
  has <- !is.na(ma)
  out[has] <- sprintf("%s (the smallest attainable alpha is %s)", words,
                      vapply(ma[has], fmt_p, "", USE.NAMES = FALSE))
  out
}

# The conditions --fail-on fails a job on: the directions, and whether the
# unguaranteed verdicts count.
compare_fail_directions <- function(fail_on) {
  switch(fail_on, slowdown = , "unguaranteed-slowdown" = "slowdown",
         change = c("slowdown", "speedup"), never = character())
}

# The exit status of a job (SPEC section 10b): 1 when a guaranteed verdict
# meets --fail-on; 3 ("inconclusive") when only verdicts that are not
# guaranteed meet it, unless --fail-on unguaranteed-slowdown, which fails on
# them too; 0 otherwise.
compare_status <- function(rows, fail_on) {
  hit <- rows$direction %in% compare_fail_directions(fail_on)
  g <- rows$guaranteed %in% TRUE
  if (any(hit & g)) return(1L)
  if (any(hit & !g)) return(if (fail_on == "unguaranteed-slowdown") 1L else 3L)
  0L
}

compare_fails <- function(rows, fail_on) compare_status(rows, fail_on) == 1L

compare_result_word <- function(status) {
  switch(as.character(status), "1" = "FAIL", "3" = "INCONCLUSIVE", "pass")
}

# The job's risk on an unchanged suite: the probability that it fails when
# nothing changed, bounded by the adjustment (Holm: alpha; BH: alpha, as
# all null hypotheses are true; none: 1 - (1 - alpha)^k).  Holm's bound
# needs only the p-values of the true hypotheses to be valid, so it holds
# for a job that fails on the guaranteed verdicts alone; there is no bound
# when the job may fail on a verdict that is not guaranteed, and none is
# stated when no verdict is guaranteed.  risk is NA without a bound.
compare_risk <- function(res, opts) {
  rows <- res$rows
  reached <- !is.na(rows$p_speedup)
  k <- sum(reached)
  ng <- sum(reached & !(rows$guaranteed %in% TRUE))
  a <- opts$alpha
  families <- if (opts$fail_on == "change") 2 else 1
  risk <- switch(opts$p_adjust,
                 none = 1 - (1 - a)^(k * families),
                 min(1, families * a))
  bounded <- TRUE
  if (opts$fail_on == "never") {
    risk <- 0
  } else if (ng > 0L && (ng == k || opts$fail_on == "unguaranteed-slowdown")) {
    risk <- NA_real_
    bounded <- FALSE
  }
  list(risk = risk, tested = k, not_guaranteed = ng, bounded = bounded)
}

compare_risk_line <- function(res, opts) {
  r <- compare_risk(res, opts)
  if (opts$fail_on == "never") {
    return("risk: --fail-on never: the job never fails on a decision")
  }
  ng <- r$not_guaranteed
  verdicts <- function(k) sprintf("%d verdict%s", k, if (k == 1L) "" else "s")
  if (!r$bounded) {
    if (opts$fail_on == "unguaranteed-slowdown") {
      return(sprintf("risk: not bounded: %s of %d %s not guaranteed and --fail-on unguaranteed-slowdown fails the job on them, so no probability that a job with no real change fails can be stated",
                     verdicts(ng), r$tested, if (ng == 1L) "is" else "are"))
    }
    return(sprintf("risk: none stated: no verdict is guaranteed (%s of %d), so the job states no probability of failing when nothing changed; a slowdown among them ends the job with exit 3 (inconclusive), never 1",
                   verdicts(ng), r$tested))
  }
  what <- if (opts$fail_on == "change") "a change" else "a slowdown"
  tol <- if (opts$s0 > 1) sprintf(" beyond %s", fmt_change(opts$s0)) else ""
  how <- switch(opts$p_adjust,
    holm = sprintf("Holm's adjustment over %d comparison%s", r$tested,
                   if (r$tested == 1L) "" else "s"),
    BH = sprintf("Benjamini-Hochberg over %d comparison%s", r$tested,
                 if (r$tested == 1L) "" else "s"),
    none = sprintf("no adjustment: each of %d comparison%s at alpha = %s",
                   r$tested, if (r$tested == 1L) "" else "s", format(opts$alpha)))
  line <- sprintf("risk: tolerance %s, p-values adjusted: %s; a job with no real change%s fails on %s with probability at most %s (%s)",
                  fmt_change(opts$s0), opts$p_adjust, tol,
                  if (ng) paste("a guaranteed", sub("^a ", "", what)) else what,
                  fmt_num(r$risk, 2L), how)
  if (ng) {
    line <- sprintf("%s; the %s not guaranteed state no risk and never fail the job (exit 3 on %s among them)",
                    line, verdicts(ng), what)
  }
  line
}

# The verdict of a line in words, with the tolerance it was decided at.
compare_words <- function(direction, s0) {
  words <- decision_words(direction)
  if (is.na(direction) || s0 == 1) return(words)
  tol <- fmt_change(s0)
  switch(direction,
         speedup = , slowdown = sprintf("%s beyond %s", words, tol),
         equivalent = sprintf("%s within %s", words, tol),
         sprintf("%s at %s", words, tol))
}

compare_counts <- function(rows) {
  d <- rows$direction
  c(faster = sum(d %in% "speedup"), slower = sum(d %in% "slowdown"),
    equivalent = sum(d %in% "equivalent"), none = sum(d %in% "none"),
    insufficient = sum(is.na(d)),
    not_guaranteed = sum(!is.na(d) & !(rows$guaranteed %in% TRUE)))
}

compare_num <- function(v) {
  if (is.na(v)) "NA" else if (is.infinite(v)) "Inf" else formatC(v, digits = 3L, format = "f")
}

# "1.09x faster", "1.41x slower" for a speedup (initial time / new time).
fmt_factor_change <- function(s) {
  out <- rep("NA", length(s))
  ok <- !is.na(s) & s > 0
  inf <- ok & is.infinite(s)
  out[inf] <- "Inf x faster"
  fin <- which(ok & !inf)
  if (length(fin)) {
    v <- s[fin]
    txt <- fmt_num(ifelse(v >= 1, v, 1 / v))
    out[fin] <- ifelse(txt == "1.00", "1.00x",
                       paste0(txt, "x ", ifelse(v >= 1, "faster", "slower")))
  }
  names(out) <- names(s)
  out
}

# The sign "plus or minus" where the session writes UTF-8, else "+/-".
compare_pm <- function() if (isTRUE(l10n_info()[["UTF-8"]])) "\u00b1" else "+/-"

# A time with its spread: "5.15 ms ± 0.12 ms".
fmt_time_spread <- function(med, spread) {
  if (is.na(med)) return("")
  if (is.na(spread)) return(trimws(fmt_time(med)))
  sprintf("%s %s %s", trimws(fmt_time(med)), compare_pm(), trimws(fmt_time(spread)))
}

# ---- the notes every output carries -----------------------------------------

# The caveats of the verdicts that are not guaranteed, grouped by sentence:
# a data frame of the sentence and the benchmarks (with their versions when
# there are several) it applies to.
compare_caveat_groups <- function(res) {
  rows <- res$rows
  caveats <- attr(rows, "story")$caveats
  multi <- length(res$others) > 1L
  take <- which(!vapply(attr(rows, "errors"), inherits, TRUE, what = "error") &
                  !is.na(rows$direction) & !(rows$guaranteed %in% TRUE))
  # each verdict's caveats without the generic sentence (one grepl() for
  # all), or the generic reason when none is left
  cav <- caveats[take]
  all <- as.character(unlist(cav, use.names = FALSE))
  g <- rep.int(seq_along(cav), lengths(cav))
  keep <- !grepl("may not be the correct confidence level$", all)
  none <- which(tabulate(g[keep], length(cav)) == 0L)
  gid <- c(g[keep], none)
  o <- order(gid, method = "radix")
  lab <- if (multi) sprintf("%s (%s)", rows$benchmark[take], rows$version[take]) else
    rows$benchmark[take]
  who <- lab[gid[o]]
  what <- c(all[keep], rep("the protocol's conditions for its confidence level are not met",
                           length(none)))[o]
  if (!length(what)) {
    return(data.frame(caveat = character(), benchmarks = character(),
                      stringsAsFactors = FALSE))
  }
  u <- unique(what)
  by <- split(who, factor(what, levels = u))
  data.frame(caveat = u, benchmarks = vapply(by, function(b) {
    if (length(b) > 3L) sprintf("%s and %d more", paste(b[1:3], collapse = ", "),
                                length(b) - 3L) else paste(b, collapse = ", ")
  }, "", USE.NAMES = FALSE), stringsAsFactors = FALSE, row.names = NULL)
}

# Runs measured in blocks (the runs test of the run-order checks).
compare_blocks_note <- function(res) {
  blocked <- attr(res$rows, "story")$blocked
  if (!any(blocked)) return(character())
  sprintf("%d benchmark%s measured in blocks, not interleaved (runs test): a drift of the machine during the job looks like a change, so no such verdict is guaranteed; measure the versions interleaved (speeduptest measure).",
          sum(blocked), if (sum(blocked) == 1L) " was" else "s were")
}

# Why a job is inconclusive, and the cure.
compare_inconclusive_note <- function(res, opts, status) {
  if (status != 3L) return(character())
  rows <- res$rows
  hit <- rows$direction %in% compare_fail_directions(opts$fail_on) &
    !(rows$guaranteed %in% TRUE)
  what <- if (opts$fail_on == "change") "change" else "slowdown"
  sprintf("inconclusive: %d significant %s%s %s not guaranteed, so the job does not fail (exit 3). Measure the versions interleaved (speeduptest measure -n base CMD1 -n head CMD2 --export times.csv), or each version in several processes (speeduptest compare --base b1.json b2.json ... --head h1.json h2.json ...); --fail-on unguaranteed-slowdown fails the job on them.",
          sum(hit), what, if (sum(hit) == 1L) "" else "s",
          if (sum(hit) == 1L) "is" else "are")
}

# Every note of a job, as sentences (the text wraps them, the Markdown
# lists them, the JSON holds them): the reading problems, the structure of
# the data (one process per version, blocks), the caveats of the verdicts
# that are not guaranteed, and why a job is inconclusive.
compare_notes <- function(res, opts, status, problems = character()) {
  single <- compare_single_count(sum(attr(res$rows, "story")$single))
  single <- sub("^note: ", "", single)
  cav <- compare_caveat_groups(res)
  c(problems, single, compare_blocks_note(res),
    if (nrow(cav)) sprintf("caveat (%s): %s", cav$benchmarks, cav$caveat),
    compare_inconclusive_note(res, opts, status))
}

compare_exit_line <- function(opts, status) {
  sprintf("%s (--fail-on %s): exit %d", compare_result_word(status), opts$fail_on,
          status)
}

# The names in a compare_run() result (benchmarks, versions, the baseline,
# the notes and the messages of the skipped benchmarks, which quote names)
# passed through `esc`, one of the escapers of R/escape.R, for the output
# they are written to.
compare_escaped <- function(res, esc) {
  res$rows$benchmark <- esc(res$rows$benchmark)
  res$rows$version <- esc(res$rows$version)
  res$rows$note <- esc(res$rows$note)
  res$baseline <- esc(res$baseline)
  res$others <- esc(res$others)
  res$versions <- esc(res$versions)
  for (cl in c("benchmark", "version", "message")) {
    res$skipped[[cl]] <- esc(res$skipped[[cl]])
  }
  res
}

# ---- text -------------------------------------------------------------------

compare_text <- function(res, opts, status, notes) {
  # the lines of each version, matched before the names are escaped (two
  # names may read the same once escaped)
  row_of <- match(res$rows$version, res$others)
  skip_of <- match(res$skipped$version, res$others)
  res <- compare_escaped(res, esc_text)
  rows <- res$rows
  out <- character()
  multi <- length(res$others) > 1L
  for (k in seq_along(res$others)) {
    o <- res$others[k]
    r <- rows[row_of %in% k, , drop = FALSE]
    out <- c(out, sprintf("%s (initial) -> %s: Speedup-Test for the %s, alpha = %s",
                          res$baseline, o, protocol_info(opts$test)$label,
                          format(opts$alpha)))
    # within 80 columns: "speedup: Hodges-Lehmann estimate on log times [90%
    # interval; ends one-sided 95%]"
    out <- c(out, sprintf("speedup: %s [%s; ends one-sided %s]", interval_estimator(opts$test),
                          interval_words(opts$test, interval_level(opts$alpha)),
                          fmt_pct(1 - opts$alpha)))
    if (!identical(opts$p_adjust, "none") && nrow(rows) > 1L) {
      out <- c(out, wrap_lines(paste0("  ", caveat_sentences$unadjusted_intervals(opts$p_adjust))))
    }
    width <- min(40L, max(nchar(c(r$benchmark, "benchmark"))))
    out <- c(out, compare_text_lines(r, width, opts))
    sk <- res$skipped
    if (nrow(sk)) {
      sk <- sk[skip_of %in% k, , drop = FALSE]
      for (i in seq_len(nrow(sk))) {
        out <- c(out, sprintf("%-*s  skipped: %s", width,
                              trunc_text(if (is.na(sk$benchmark[i])) "-" else sk$benchmark[i], width),
                              sub("^benchmark \"[^\"]*\" skipped: ", "", sk$message[i])))
      }
    }
  }
  if (multi || res$baseline_how != "the first version") {
    out <- c(out, sprintf("baseline: %s (%s); %d other version%s compared with it",
                          res$baseline, res$baseline_how, length(res$others),
                          if (length(res$others) == 1L) "" else "s"))
  }
  for (nt in esc_text(notes)) out <- c(out, strwrap(paste("note:", nt), width = 79, exdent = 6))
  out <- c(out, strwrap(compare_risk_line(res, opts), width = 79, exdent = 2))
  n <- compare_counts(rows)
  nsk <- nrow(res$skipped)
  out <- c(out, strwrap(exdent = 2, width = 79, sprintf("%d benchmark%s: %d %s, %d %s, %s%d %s%s%s%s",
                        nrow(rows), if (nrow(rows) == 1L) "" else "s",
                        n[["faster"]], decision_words("speedup"),
                        n[["slower"]], decision_words("slowdown"),
                        if (opts$s0 > 1) sprintf("%d %s, ", n[["equivalent"]],
                                                 decision_words("equivalent")) else "",
                        n[["none"]], decision_words("none"),
                        if (n[["insufficient"]]) sprintf(", %d %s", n[["insufficient"]],
                                                         decision_words(NA)) else "",
                        if (nsk) sprintf(", %d skipped", nsk) else "",
                        if (n[["not_guaranteed"]]) sprintf("; %d not guaranteed",
                                                           n[["not_guaranteed"]]) else "")))
  c(out, compare_exit_line(opts, status))
}

# The lines of the rows r, all at once: the figures as R prints them
# (fmt_estimate_ci(): the interval rounded outwards, its estimate inside
# it, an end the decision rejects open), the decision, and the notes in
# brackets.
compare_text_lines <- function(r, width, opts) {
  lo <- r$ci_low
  hi <- r$ci_high
  est <- ifelse(is.na(lo) | is.na(hi) | is.na(r$estimate), r$speedup, r$estimate)
  line <- sprintf("%-*s  speedup %s  %s", width, trunc_text(r$benchmark, width),
                  fmt_estimate_ci_all(est, lo, hi, open_low = r$ci_open_low,
                                      open_high = r$ci_open_high),
                  compare_words_all(r$direction, opts$s0))
  note <- r$note
  ng <- r$guaranteed %in% FALSE
  note[ng] <- ifelse(nzchar(note[ng]), paste("not guaranteed", note[ng], sep = "; "),
                     "not guaranteed")
  det <- r$direction %in% "none" & !is.na(r$detectable)
  if (any(det)) {
    dd <- r$detectable[det]
    what <- paste("could detect", ifelse(is.finite(dd), paste("a speedup of",
                  fmt_change_all(dd)),
                  compare_no_change_all(r[det, , drop = FALSE], "no speedup")))
    note[det] <- ifelse(nzchar(note[det]), paste(note[det], what, sep = "; "), what)
  }
  has <- nzchar(note)
  line[has] <- paste0(line[has], " (", note[has], ")")
  line
}

# fmt_estimate_ci() of many estimates with their intervals [lo, hi].
fmt_estimate_ci_all <- function(est, lo, hi, digits = 3L, open_low = NULL,
                                open_high = NULL) {
  out <- fmt_num(est, digits)
  ok <- !is.na(lo) & !is.na(hi)
  if (any(ok)) {
    out[ok] <- paste(out[ok], sub("Inf]", "Inf)",
                                  fmt_ci_all(lo[ok], hi[ok], digits,
                                             open_low = open_low[ok],
                                             open_high = open_high[ok]),
                                  fixed = TRUE))
  }
  out
}

# fmt_ci() of many intervals [lo, hi]: each end rounded outwards.
fmt_ci_all <- function(lo, hi, digits = 3L, open_low = NULL, open_high = NULL) {
  end <- function(v, dir) {
    out <- character(length(v))
    plain <- is.na(v) | !is.finite(v) | v == 0
    if (any(plain)) out[plain] <- fmt_num(v[plain], digits)
    w <- v[!plain]
    if (length(w)) {
      p <- 10^(floor(log10(abs(w))) - digits + 1L)
      out[!plain] <- fmt_num(dir(w / p) * p, digits)
    }
    out
  }
  # an end on the boundary the decision rejected is open (R/attainable.R)
  k <- length(lo)
  if (!k) return(character())
  left <- rep_len("[", k)
  right <- rep_len("]", k)
  if (length(open_low)) left[open_low %in% TRUE] <- "("
  if (length(open_high)) right[open_high %in% TRUE] <- ")"
  paste0(left, end(lo, floor), ", ", end(hi, ceiling), right)
}

# fmt_change() of many factors, one formatC() for all.
fmt_change_all <- function(s, digits = 2L) {
  out <- rep("NA", length(s))
  out[is.infinite(s)] <- "any"
  fin <- which(!is.na(s) & !is.infinite(s))
  if (length(fin)) {
    out[fin] <- paste0(trimws(formatC(100 * (s[fin] - 1), digits = digits, format = "fg")),
                       " %")
  }
  out
}

# compare_words() of many directions.
compare_words_all <- function(direction, s0) {
  words <- decision_words(direction)
  if (s0 == 1) return(words)
  tol <- fmt_change(s0)
  known <- !is.na(direction)
  beyond <- known & direction %in% c("speedup", "slowdown")
  within <- known & direction %in% "equivalent"
  at <- known & !beyond & !within
  words[beyond] <- paste(words[beyond], "beyond", tol)
  words[within] <- paste(words[within], "within", tol)
  words[at] <- paste(words[at], "at", tol)
  words
}

# fmt_time_spread() of many times.
fmt_time_spread_all <- function(med, spread) {
  out <- character(length(med))
  ok <- !is.na(med)
  if (!any(ok)) return(out)
  m <- trimws(fmt_time(med[ok]))
  sp <- spread[ok]
  both <- !is.na(sp)
  m[both] <- paste(m[both], compare_pm(), trimws(fmt_time(sp[both])))
  out[ok] <- m
  out
}

# ---- Markdown ----------------------------------------------------------------

# The pull-request comment: the result, then per benchmark the old and new
# times (median and spread), the change as a factor, its interval, the
# decision (whether guaranteed, and what the data could have detected
# when it decides nothing), then every note of the job.
compare_markdown <- function(res, opts, status, notes = character()) {
  # the names from the data (and the notes, which quote them) as text
  res <- compare_escaped(res, esc_md)
  notes <- esc_md(notes)
  rows <- res$rows
  n <- compare_counts(rows)
  multi <- length(res$others) > 1L
  head <- sprintf("### speeduptest compare: %s", compare_result_word(status))
  sub_head <- sprintf("Speedup-Test for the %s, alpha = %s, tolerance %s, p-values adjusted: %s; baseline: %s.",
                      protocol_info(opts$test)$label, format(opts$alpha), fmt_change(opts$s0),
                      opts$p_adjust, res$baseline)
  old_h <- if (multi) "old" else sprintf("%s (old)", res$baseline)
  new_h <- if (multi) "new" else sprintf("%s (new)", res$others[1L])
  tab <- c(sprintf("| benchmark |%s %s | %s | difference | %s interval of the speedup | decision |",
                   if (multi) " version |" else "", old_h, new_h,
                   fmt_pct(interval_level(opts$alpha))),
           sprintf("|:---|%s---:|---:|---:|:---:|:---|", if (multi) ":---|" else ""))
  est <- ifelse(is.na(rows$ci_low) | is.na(rows$estimate), rows$speedup, rows$estimate)
  dec <- compare_words_all(rows$direction, opts$s0)
  strong <- rows$direction %in% "slowdown" & rows$guaranteed %in% TRUE
  dec[strong] <- paste0("**", dec[strong], "**")
  ng <- rows$guaranteed %in% FALSE
  dec[ng] <- paste0(dec[ng], " (not guaranteed)")
  det <- rows$direction %in% "none" & !is.na(rows$detectable)
  if (any(det)) {
    dd <- rows$detectable[det]
    dec[det] <- paste0(dec[det], ifelse(is.finite(dd),
      paste(": could have detected", fmt_factor_change(dd)),
      paste0(": ", compare_no_change_all(rows[det, , drop = FALSE],
                                         "could not have detected any change"))))
  }
  nd <- is.na(rows$direction) & nzchar(rows$note)
  dec[nd] <- paste0(dec[nd], ": ", rows$note[nd])
  ci <- character(nrow(rows))
  has_ci <- !is.na(rows$ci_low)
  ci[has_ci] <- sub("Inf]", "Inf)", fmt_ci_all(rows$ci_low[has_ci], rows$ci_high[has_ci],
                                                open_low = rows$ci_open_low[has_ci],
                                                open_high = rows$ci_open_high[has_ci]),
                    fixed = TRUE)
  tab <- c(tab, sprintf("| %s |%s %s | %s | %s | %s | %s |",
                        rows$benchmark, if (multi) paste0(" ", rows$version, " |") else "",
                        fmt_time_spread_all(rows$old_median, rows$old_spread),
                        fmt_time_spread_all(rows$new_median, rows$new_spread),
                        fmt_factor_change(est), ci, dec))
  sk <- res$skipped
  foot <- sprintf("%d benchmark%s: %d %s, %d %s, %d %s, %d %s, %d %s, %d skipped; %d not guaranteed.",
                  nrow(rows), if (nrow(rows) == 1L) "" else "s",
                  n[["faster"]], decision_words("speedup"),
                  n[["slower"]], decision_words("slowdown"),
                  n[["equivalent"]], decision_words("equivalent"),
                  n[["none"]], decision_words("none"),
                  n[["insufficient"]], decision_words(NA), nrow(sk),
                  n[["not_guaranteed"]])
  risk <- compare_risk_line(res, opts)
  c(head, "", sub_head, "", tab, "",
    paste0(sprintf("Old and new: the median time of the runs %s their spread (the scaled median absolute deviation). Difference: the speedup (old time / new time) as a factor.",
                   compare_pm()),
           if (!identical(opts$p_adjust, "none") && nrow(rows) > 1L)
             paste0(" Interval: ", caveat_sentences$unadjusted_intervals(opts$p_adjust), ".")),
    "", foot, "",
    paste0(toupper(substr(risk, 1, 1)), substring(risk, 2), "."),
    if (nrow(sk) || length(notes)) c("", "Notes:", "",
      if (nrow(sk)) paste0("- skipped: ", sk$message),
      if (length(notes)) paste0("- ", notes)),
    "", paste0("Result: ", compare_exit_line(opts, status), "."))
}

# ---- JSON ----------------------------------------------------------------------

compare_json <- function(res, opts, status, notes) {
  rows <- res$rows
  risk <- compare_risk(res, opts)
  n <- compare_counts(rows)
  out <- list(
    tool = "speeduptest compare",
    test = opts$test, alpha = opts$alpha, tolerance_percent = 100 * (opts$s0 - 1),
    min_speedup = opts$s0, p_adjust = opts$p_adjust, fail_on = opts$fail_on,
    interval_level = interval_level(opts$alpha), time_unit = "s",
    baseline = res$baseline, versions = res$versions,
    comparisons = list(),
    skipped = lapply(seq_len(nrow(res$skipped)), function(i) {
      list(benchmark = res$skipped$benchmark[i], version = res$skipped$version[i],
           message = res$skipped$message[i])
    }),
    summary = list(benchmarks = nrow(rows), faster = n[["faster"]],
                   slower = n[["slower"]], equivalent = n[["equivalent"]],
                   no_significant_change = n[["none"]],
                   insufficient_data = n[["insufficient"]],
                   not_guaranteed = n[["not_guaranteed"]],
                   skipped = nrow(res$skipped), tested = risk$tested,
                   risk = if (is.na(risk$risk)) NULL else risk$risk,
                   risk_bounded = risk$bounded,
                   risk_text = compare_risk_line(res, opts),
                   result = compare_result_word(status),
                   exit_status = status,
                   exit_text = compare_exit_line(opts, status)),
    notes = as.list(notes))
  doc <- as.character(jsonlite::toJSON(esc_utf8_tree(out), auto_unbox = TRUE, digits = NA,
                                       pretty = TRUE, null = "null"))
  if (nrow(rows)) {
    # the comparisons, written column by column in the layout jsonlite
    # gives the list of objects (one toJSON() per benchmark field costs a
    # method dispatch per value), put in place of the empty array
    lines <- strsplit(doc, "\n", fixed = TRUE)[[1L]]
    at <- match('  "comparisons": [],', lines)
    lines <- c(lines[seq_len(at - 1L)], '  "comparisons": [',
               compare_json_comparisons(res, opts), "  ],", lines[-seq_len(at)])
    doc <- paste(lines, collapse = "\n")
  }
  esc_json_text(doc)
}

# The comparisons of compare_json() as the lines jsonlite::toJSON(pretty =
# TRUE, auto_unbox = TRUE, digits = NA, null = "null") writes for the list
# of one object per row (at the depth of the document's "comparisons").
compare_json_comparisons <- function(res, opts) {
  rows <- res$rows
  k <- nrow(rows)
  str <- function(x) json_strings(x)
  num <- function(x) json_numbers(x)
  lgl <- function(x) ifelse(is.na(x), "null", ifelse(x, "true", "false"))
  det <- rows$detectable
  det_txt <- rep("null", k)
  fin <- !is.na(det) & is.finite(det)
  det_txt[fin] <- num(det[fin])
  det_txt[!is.na(det) & !is.finite(det)] <- str("Inf")
  interval <- rep("null", k)
  has <- !is.na(rows$ci_low)
  interval[has] <- sprintf("[%s, %s]", num(rows$ci_low[has]), num(rows$ci_high[has]))
  story <- attr(rows, "story")
  array <- function(part) {
    x <- lapply(story[[part]], as.character)
    len <- lengths(x)
    out <- rep("[]", k)
    if (any(len > 0L)) {
      txt <- split(paste0("        ", str(unlist(x, use.names = FALSE))),
                   factor(rep.int(seq_len(k), len), levels = seq_len(k)))
      has <- which(len > 0L)
      out[has] <- paste0("[\n", vapply(txt[has], paste, "", collapse = ",\n"),
                         "\n      ]")
    }
    out
  }
  # the ends of an interval the decision rejects (R/attainable.R)
  open_txt <- rep("null", k)
  op <- vapply(story$open, function(o) {
    if (is.null(o)) NA_character_ else sprintf("[%s, %s]", lgl(o[1L]), lgl(o[2L]))
  }, "", USE.NAMES = FALSE)
  open_txt[!is.na(op)] <- op[!is.na(op)]
  note <- rep("null", k)
  nz <- nzchar(rows$note)
  note[nz] <- str(rows$note[nz])
  # each object's text made by one paste0() of its fields' values between
  # the fixed text around them (a field's name and indent, the commas)
  f <- function(name) sprintf(',\n      "%s": ', name)
  obj <- function(name) sprintf(',\n      "%s": {\n        "median": ', name)
  spread <- ',\n        "spread": '
  obj_end <- "\n      }"
  paste0(
    '    {\n      "benchmark": ', str(rows$benchmark),
    f("version"), str(rows$version),
    f("baseline"), str(res$baseline),
    f("n"), num(rows$n), f("m"), num(rows$m),
    f("speedup"), num(rows$speedup), f("estimate"), num(rows$estimate),
    f("change"), str(fmt_factor_change(ifelse(is.na(rows$estimate), rows$speedup,
                                              rows$estimate))),
    f("interval"), interval,
    f("decision"), str(ifelse(is.na(rows$direction), "insufficient data", rows$direction)),
    f("words"), str(compare_words_all(rows$direction, opts$s0)),
    f("guaranteed"), lgl(rows$guaranteed),
    f("caveats"), array("caveats"),
    f("advice"), array("advice"),
    obj("old"), num(rows$old_median), spread, num(rows$old_spread), obj_end,
    obj("new"), num(rows$new_median), spread, num(rows$new_spread), obj_end,
    f("p_speedup"), num(rows$p_speedup), f("p_slowdown"), num(rows$p_slowdown),
    f("p_equivalence"), num(rows$p_equivalence),
    f("p_speedup_adjusted"), num(rows$p_speedup_adj),
    f("p_slowdown_adjusted"), num(rows$p_slowdown_adj),
    f("p_equivalence_adjusted"), num(rows$p_equivalence_adj),
    f("detectable"), det_txt,
    f("min_alpha"), if (is.null(rows$min_alpha)) "null" else num(rows$min_alpha),
    f("interval_open"), open_txt,
    f("note"), note,
    "\n    }", c(rep(",", k - 1L), ""))
}

# Strings as jsonlite writes them (made UTF-8 first, as json_text() does):
# quoted, with the quote, the backslash and the C0 controls escaped
# (\b \f \n \r \t, the others as \u00XX).
json_strings <- function(x) {
  x <- esc_utf8(x)
  x <- gsub("\\", "\\\\", x, fixed = TRUE)
  x <- gsub("\"", "\\\"", x, fixed = TRUE)
  ctl <- grepl("[\001-\037]", x, perl = TRUE)
  if (any(ctl)) {
    short <- c("\b" = "\\b", "\f" = "\\f", "\n" = "\\n", "\r" = "\\r", "\t" = "\\t")
    x[ctl] <- vapply(x[ctl], function(s) {
      ch <- strsplit(s, "", fixed = TRUE)[[1L]]
      cp <- vapply(ch, function(c) utf8ToInt(c)[1L], 0L, USE.NAMES = FALSE)
      low <- cp < 32L
      ch[low] <- ifelse(ch[low] %in% names(short), short[ch[low]],
                        sprintf("\\u%04x", cp[low]))
      paste(ch, collapse = "")
    }, "", USE.NAMES = FALSE)
  }
  paste0("\"", x, "\"")
}

# Numbers as jsonlite writes them with digits = NA: C's "%.15g" (what
# jsonlite's num_to_char() formats with), the infinities as the strings
# "Inf" and "-Inf"; NA and NaN as null.
json_numbers <- function(x) {
  x <- as.double(x)
  out <- rep("null", length(x))
  ok <- !is.na(x)
  if (any(ok)) {
    out[ok] <- sprintf("%.15g", x[ok])
    inf <- ok & is.infinite(x)
    out[inf] <- ifelse(x[inf] > 0, "\"Inf\"", "\"-Inf\"")
  }
  out
}
