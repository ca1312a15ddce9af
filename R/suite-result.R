# The speedup_suite object: the C core's per-benchmark columns turned into
# the `benchmarks` data frame (decisions adjusted for multiplicity and
# judged against the tolerance), the overall gains and the proportions of
# accelerated benchmarks.

# The caveats of each benchmark from its caveat bits, in the suite's short
# phrases (`suite_phrases`, R/protocol-descriptor.R), in the order of the
# bits.
suite_caveat_text <- function(bits) {
  bit <- st_codes("caveat")
  text <- suite_phrases[names(bit)]
  # built once per distinct code (a suite has a handful), then indexed
  codes <- as.integer(bits)
  distinct <- unique(codes)
  sentence <- vapply(distinct, function(b) {
    paste(text[bitwAnd(b, bit) != 0L], collapse = "; ")
  }, character(1))
  sentence[match(codes, distinct)]
}

# The caveats column of a protocol: the phrases of its caveat codes
# (suite_caveat_text()), then in turn for the rows `ro` the run-order
# phrase ro_text[ro], for the rows `short` the unattainable level's
# phrase short_txt, and where `single` (one process per version) its
# phrase; joined by "; ".  Made once per distinct code and flag `single`,
# and row by row for the rows ro and short only.
suite_caveats <- function(codes, single, ro, ro_text, short, short_txt) {
  then <- function(text, more) {
    ifelse(nzchar(text), paste(text, more, sep = "; "), more)
  }
  single_txt <- suite_run_order_phrases[["single_process"]]
  key <- as.integer(codes) * 2L + single
  uk <- unique(key)
  text <- suite_caveat_text(uk %/% 2L)
  one <- uk %% 2L == 1L
  text[one] <- then(text[one], single_txt)
  cav <- text[match(key, uk)]
  rows <- unique(c(ro, short))
  if (length(rows)) {
    t <- suite_caveat_text(codes[rows])
    r <- rows %in% ro
    t[r] <- then(t[r], ro_text[rows[r]])
    at <- match(rows, short)
    s <- !is.na(at)
    t[s] <- then(t[s], short_txt[at[s]])
    one <- single[rows]
    t[one] <- then(t[one], single_txt)
    cav[rows] <- t
  }
  cav
}

# The benchmarks whose exact rank interval has a level ci_level below the
# 1 - 2 alpha asked for (R/attainable.R): which(!is.na(ci_level) &
# !is.na(alpha) & alpha < 0.5 & ci_level < 1 - 2 * alpha - 1e-9) in one
# pass of C (src/suite-columns.c).
suite_short_rows <- function(ci_level, alpha) {
  .Call(ffi_suite_short, as.double(ci_level), as.double(alpha))
}

new_speedup_suite <- function(res, suite, levels, problems, mode, requested,
                              prop_conf_level, prop_method, precision,
                              significant_only, rigorous, call,
                              run_order = NULL, p_adjust = "none",
                              min_speedup = 1, protocols = suite_default_protocols,
                              single = NULL) {
  b <- res$benchmarks
  nb <- length(suite$names)
  np <- length(protocols)
  # (the core's weights are that matrix already: not copied again)
  w <- b$weights
  if (!is.matrix(w) || !identical(dim(w), c(nb, 3L))) w <- matrix(w, nrow = nb, ncol = 3L)
  st <- b$status
  # a benchmark the core could not analyse (should not happen once the
  # data checks passed): kept visible as a problem, never dropped silently
  failed <- st != 0
  why <- status_words[st_code_name("status", st[failed])]
  why[is.na(why)] <- "unknown failure"
  for (k in seq_along(why)) {
    j <- which(failed)[k]
    problems <- skip_benchmark(problems, suite$names[j], sprintf(
      "benchmark \"%s\" skipped: the analysis failed (%s).", suite$names[j],
      why[[k]]), where = "analysis")
  }
  searched <- b$searched == 1
  # a searched level is on the 0.01 grid; a given one is reported as given
  # (without a searched level: the given levels themselves, the value
  # ifelse() gives for them when they are a plain double vector of one
  # level per benchmark; an empty suite's is ifelse()'s logical(0))
  lev_used <- if (nb && !any(searched) && is.double(levels) &&
                  is.null(attributes(levels)) && length(levels) == nb) {
    function(alpha, searched) levels
  } else {
    function(alpha, searched) ifelse(searched, round(1 - alpha, 2), levels)
  }
  if (is.null(run_order)) run_order <- suite_run_order(suite)
  ro_text <- suite_run_order_text(run_order)
  ro <- which(nzchar(ro_text))
  not_flagged <- !run_order$run_order_flag
  one <- if (is.null(single)) integer() else which(single)
  single_flag <- logical(nb)
  single_flag[one] <- TRUE
  ok <- !failed
  # the core's columns made NA where NaN (na_if_nan())
  nan_na <- names(b$protocols) %in% c("highest", "p_value", "p_value_slowdown",
                                      "ci_estimate", "ci_level")
  # the protocol's columns (the i-th protocol asked for)
  proto <- function(i) {
    p <- protocols[i]
    core <- .Call(ffi_suite_split, b$protocols, np, i, nan_na)
    dec <- core$decision
    alpha <- core$alpha
    pv <- core$p_value
    ps <- core$p_value_slowdown
    if (any(failed)) {
      pv[failed] <- NA
      ps[failed] <- NA
    }
    peq <- rep(NA_real_, length(pv))
    if (min_speedup != 1) {
      # the final tests against the tolerance (src/tolerance.c)
      tol <- suite_tolerance(suite, p, alpha, min_speedup)
      reached <- dec >= 0 & ok
      pv[reached] <- tol[reached, 1L]
      ps[reached] <- tol[reached, 2L]
      peq[reached] <- pmax(tol[reached, 3L], tol[reached, 4L])
    }
    # adjusted over the benchmarks that reached the final test (without
    # an adjustment, p.adjust() gives the p-values back: no names, the
    # missing kept; all missing without a tolerance)
    adjust <- function(v) {
      if (p_adjust == "none") v else stats::p.adjust(v, method = p_adjust)
    }
    pa <- adjust(pv)
    psa <- adjust(ps)
    peqa <- if (min_speedup != 1) adjust(peq) else peq
    # the decisions made again on the adjusted p-values, whether each is
    # significant, and its direction as its row of decision_table (1
    # speedup, 2 slowdown, 3 none, 4 equivalent, 5 insufficient data), in
    # one pass of C (src/suite-columns.c)
    made <- .Call(ffi_suite_decide, dec, alpha, pa, psa,
                  if (min_speedup != 1) peqa)
    d <- made$direction
    directions[[i]] <<- d
    direction <- decision_table$direction[d]
    none <- which(d == 3L)
    # the caveats: made once per distinct caveat code and single process
    # flag, then in turn the run-order phrase, the unattainable level and
    # the single process for the rows that have the first two
    short <- suite_short_rows(core$ci_level, alpha)
    cav <- suite_caveats(core$caveats, single_flag, ro, ro_text, short,
                         if (length(short)) {
                           suite_unattainable_text(alpha[short], suite$x_len[short],
                                                   suite$y_len[short],
                                                   core$ci_level[short])
                         })
    # an exact rank interval whose level 1 - 2 alpha these sizes cannot
    # reach is no interval at that level (R/attainable.R); the caveat says so
    ci_low <- core$ci_low
    ci_high <- core$ci_high
    if (length(short)) {
      ci_low[short] <- NA_real_
      ci_high[short] <- NA_real_
    }
    # timings of one process per version (rule 2): the runs as given,
    # never guaranteed (suite_timings_actions())
    guaranteed <- core$guaranteed == 1 & not_flagged
    guaranteed[one] <- FALSE
    detectable <- suite_detectable(suite, p, b, none, alpha, min_speedup,
                                   ci = list(core$ci_low, core$ci_high))
    # nothing is detectable where the sizes cannot reach alpha
    detectable[short[d[short] == 3L]] <- Inf
    list(
      decision = decision_table$words[d],
      significant = made$significant,
      direction = direction,
      conf_level = lev_used(alpha, searched),
      highest = core$highest,
      p_value = pv,
      p_adjusted = pa,
      p_value_slowdown = ps,
      p_adjusted_slowdown = psa,
      p_value_equivalence = peq,
      guaranteed = guaranteed,
      ci_estimate = core$ci_estimate,
      ci_low = ci_low,
      ci_high = ci_high,
      ci_level = interval_level(alpha),
      detectable = detectable,
      caveats = cav)
  }
  # The columns are gathered in one list and made a data frame once
  # (new_frame(): the columns, types and automatic row names data.frame()
  # would give them, without its checks and conversions).
  front <- list(benchmark = suite$names, n = suite$x_len, m = suite$y_len,
                min_x = b$min_x, mean_x = b$mean_x, median_x = b$median_x,
                min_y = b$min_y, mean_y = b$mean_y, median_y = b$median_y,
                speedup_min = b$speedup_min, speedup_mean = b$speedup_mean,
                speedup_median = b$speedup_median, searched = searched)
  # (na_if_nan() of the two in one pass of C)
  prob_ends <- .Call(ffi_suite_split, list(as.double(b$prob_greater_low),
                                           as.double(b$prob_greater_high)),
                     1L, 1L, c(TRUE, TRUE))
  back <- c(list(prob_greater = b$prob_greater,
                 prob_greater_low = prob_ends[[1L]],
                 prob_greater_high = prob_ends[[2L]]),
            unclass(run_order),
            list(weight_min = w[, 1L], weight_mean = w[, 2L],
                 weight_median = w[, 3L]))
  attr(back, "row.names") <- NULL
  # the long table (one row per benchmark and protocol), then the wide
  # view cut from it
  directions <- vector("list", np)
  by_protocol <- lapply(seq_len(np), proto)
  proto_cols <- by_protocol
  results <- suite_long(suite$names, by_protocol, protocols)
  if (any(failed)) {
    by_protocol <- NULL
    front <- lapply(front, `[`, !failed)
    back <- lapply(back, `[`, !failed)
    results <- new_frame(lapply(results, `[`, rep(!failed, each = np)))
  }
  benchmarks <- suite_wide(front, results, back, protocols, by_protocol)

  s <- res$summary
  used <- c("custom", "equal", "fraction")[s$weights + 1L]
  overall <- small_frame(
    centre = c("min", "mean", "median"),
    gain = s$gain, speedup = s$speedup, n = rep(s$n_used, 3L),
    gain_significant = s$gain_sig, speedup_significant = s$speedup_sig,
    n_significant = s$n_sig)
  # the counts of each protocol from its columns (those of the failed
  # benchmarks, which the tables leave out, have no direction and no
  # p-value)
  per_protocol <- function(f, type = integer(1)) {
    vapply(proto_cols, f, type, USE.NAMES = FALSE)
  }
  proportion <- small_frame(
    protocol = protocols, a = s$a, b = rep(s$b, np),
    estimate = s$estimate, conf_low = s$conf_low, conf_high = s$conf_high,
    conf_level = prop_conf_level, method = prop_method,
    valid = s$valid == 1L, min_benchmarks = s$min_benchmarks,
    precision = precision,
    slowdowns = vapply(directions, function(d) sum(d == 2L), 0L),
    equivalent = vapply(directions, function(d) sum(d == 4L), 0L))
  if (p_adjust != "none" || min_speedup != 1) {
    re <- suite_resummarise(benchmarks, overall, proportion)
    overall <- re$overall
    proportion <- re$proportion
  }
  tested <- per_protocol(function(cols) sum(!is.na(cols$p_value)))
  alpha_sum <- per_protocol(function(cols) {
    sum(1 - cols$conf_level[!is.na(cols$p_value)])
  }, double(1))
  multiplicity <- small_frame(protocol = protocols, tested = tested,
                              expected_false = alpha_sum)
  weights_given <- suite$weight
  if (any(failed) || !is.null(attributes(weights_given))) {
    weights_given <- weights_given[!failed]
  }

  structure(list(
    benchmarks = benchmarks, results = results, protocols = protocols,
    overall = overall, proportion = proportion,
    p_adjust = p_adjust, multiplicity = multiplicity,
    min_speedup = min_speedup,
    problems = problems,
    notes = suite_notes(benchmarks, p_adjust != "none", protocols,
                        if (!any(failed)) stats::setNames(directions, protocols),
                        if (!any(failed)) results),
    weights = used, weights_requested = requested,
    weights_given = stats::setNames(weights_given, suite$names[!failed]),
    significant_only = significant_only, rigorous = rigorous,
    versions = suite$versions, call = call),
    class = "speedup_suite")
}

# The summary of the suite again, after the decisions were adjusted for
# multiplicity: the proportion of accelerated benchmarks and the gains over
# the significant ones (same formulas as st_suite_summarise in suite.c).
# With `proportions = FALSE` the proportions are kept as given (the
# decisions did not change: what st_suite_summarise gave them, which is
# what this function gives them again, bit for bit).
suite_resummarise <- function(bm, overall, proportion, proportions = TRUE) {
  sig <- lapply(stats::setNames(nm = proportion$protocol), function(p) {
    is_word(bm[[paste0(p, "_significant")]], TRUE)
  })
  # each centre's benchmarks: those its protocol declares (the minimum:
  # the mean's and the median's protocols both), as st_suite_summarise
  centre_sig <- lapply(c(mean = "mean", median = "median"), function(c) {
    p <- suite_centre_protocol(proportion$protocol, c)
    if (is.na(p)) NULL else sig[[p]]
  })
  for (i in seq_len(nrow(overall))) {
    c <- overall$centre[i]
    parts <- if (c == "min") centre_sig else centre_sig[c]
    parts <- parts[!vapply(parts, is.null, NA)]
    inc <- if (length(parts)) Reduce(`&`, parts) else rep(FALSE, nrow(bm))
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
  for (i in seq_len(if (proportions) nrow(proportion) else 0L)) {
    a <- sum(sig[[proportion$protocol[i]]])
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

# data.frame(..., stringsAsFactors = FALSE) of a few plain vectors
# (recycled to the longest, as data.frame() recycles them), without its
# checks and conversions; data.frame() itself for anything else.
small_frame <- function(...) {
  cols <- list(...)
  n <- max(lengths(cols))
  plain <- vapply(cols, function(v) {
    is.atomic(v) && is.null(attributes(v)) && length(v) > 0L && n %% length(v) == 0L
  }, NA)
  if (!all(plain)) return(data.frame(..., stringsAsFactors = FALSE))
  new_frame(lapply(cols, rep_len, n))
}

# x %in% word for a single word (TRUE where x is the word, FALSE where it
# is another or missing), by comparison for a plain vector of the word's
# type (no hashing of the column).
is_word <- function(x, word) {
  if (is.null(attributes(x)) && identical(typeof(x), typeof(word))) {
    !is.na(x) & x == word
  } else {
    x %in% word
  }
}

# A data frame of the columns `cols` (a named list of vectors of one
# length) with automatic row names: what data.frame() gives for them,
# without its checks and conversions.
new_frame <- function(cols) {
  n <- if (length(cols)) length(cols[[1L]]) else 0L
  structure(cols, row.names = .set_row_names(n), class = "data.frame")
}

# ---- the long table and the wide view ----------------------------------------

# The protocols a suite runs unless told otherwise: the paper's two, whose
# columns the original tool's files hold.
suite_default_protocols <- c("mean", "median")

# The long table of a suite: one row per benchmark and protocol (the
# benchmarks in order, each with its protocols in the order asked), from
# the protocols' columns (cols[[i]]: a named list of columns, one value
# per benchmark, of protocol protocols[i]).
suite_long <- function(benchmark, cols, protocols) {
  k <- length(protocols)
  nb <- length(benchmark)
  # the protocols' columns one after the other, read benchmark after
  # benchmark: row (j - 1) k + i is benchmark j under protocol i
  idx <- NULL
  stack <- function(name) {
    parts <- lapply(cols, `[[`, name)
    # the protocols' columns of one plain type (no attributes, one value
    # per benchmark) interleaved in one pass of C (src/suite-columns.c):
    # the values and type of unlist() and the reordering below
    v <- if (k) interleave_columns(parts)
    if (!is.null(v)) return(v)
    if (is.null(idx)) idx <<- as.vector(t(matrix(seq_len(nb * k), nrow = nb)))
    v <- unlist(parts, use.names = FALSE)
    if (is.null(v)) v <- logical()
    v[idx]
  }
  names_ <- if (k) names(cols[[1L]]) else suite_long_columns
  out <- c(list(benchmark = rep(benchmark, each = k),
                protocol = rep(protocols, times = nb)),
           stats::setNames(lapply(names_, stack), names_))
  new_frame(out)
}

# The vectors `parts` (one per protocol, one value per benchmark) as one
# long column, benchmark after benchmark, in one pass of C
# (src/suite-columns.c); NULL unless they are plain vectors of one type
# without attributes (the caller then reorders unlist()).
interleave_columns <- function(parts) {
  plain <- vapply(parts, function(v) is.null(attributes(v)), NA)
  if (!length(parts) || !all(plain)) return(NULL)
  .Call(ffi_suite_interleave, parts)
}

# The columns of each protocol in a suite's long table (after `benchmark`
# and `protocol`).
suite_long_columns <- c("decision", "significant", "direction", "conf_level",
                        "highest", "p_value", "p_adjusted", "p_value_slowdown",
                        "p_adjusted_slowdown", "p_value_equivalence",
                        "guaranteed", "ci_estimate", "ci_low", "ci_high",
                        "ci_level", "detectable", "caveats")

# The wide view (one row per benchmark): the benchmark's own columns
# `front`, each protocol's rows of the long table as `<protocol>_<column>`
# columns, then `back`.
suite_wide <- function(front, results, back, protocols, by_protocol = NULL) {
  k <- length(protocols)
  cols <- names(results)[-(1:2)]
  wide <- unlist(lapply(seq_len(k), function(i) {
    rows <- NULL
    stats::setNames(lapply(cols, function(cc) {
      # the protocol's own column (by_protocol[[i]], the columns the long
      # table was stacked from) when it is what the rows of the long table
      # give back: same type, no attributes
      v <- by_protocol[[i]][[cc]]
      if (!is.null(v) && is.null(attributes(v)) &&
          identical(typeof(v), typeof(results[[cc]]))) {
        return(v)
      }
      if (is.null(rows)) {
        rows <<- seq.int(i, by = k, length.out = nrow(results) %/% max(k, 1L))
      }
      results[[cc]][rows]
    }), paste0(protocols[i], "_", cols))
  }), recursive = FALSE)
  out <- c(front, wide, back)
  attr(out, "row.names") <- NULL
  new_frame(out)
}

# The long table again from a wide view (after the wide view's protocol
# columns were changed in place).
suite_long_from_wide <- function(bm, protocols) {
  cols <- lapply(protocols, function(p) {
    stats::setNames(lapply(suite_long_columns, function(cc) bm[[paste0(p, "_", cc)]]),
                    suite_long_columns)
  })
  suite_long(bm$benchmark, cols, protocols)
}

# The protocol of a suite whose decisions choose the benchmarks of a
# centre's significant-only gain: of `protocols` with that centre, the
# first in the core's protocol table (NA when none), as
# st_suite_summarise chooses it.
suite_centre_protocol <- function(protocols, centre) {
  protocols <- protocols[order(protocol_code(protocols))]
  cen <- vapply(protocols, function(p) protocol_info(p)$centre, "")
  protocols[match(centre, cen)]
}
