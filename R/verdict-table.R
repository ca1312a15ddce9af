# The verdicts of many benchmarks as one table: a comparison of thousands
# of benchmarks (`speeduptest compare`, report_site()) needs every
# verdict's numbers, caveats and advice, not thousands of verdict objects.
# verdict_table() makes them for all the benchmarks at once: one call of
# the core (ffi_verdict_table, src/verdict-table.c: the protocol and the
# tolerance of every benchmark, exactly as ffi_run_protocol and
# ffi_tolerance_tests make them for one), the numbers of new_verdict(),
# apply_tolerance() and add_replication() as vectors, and the stories of
# verdict_story() written for all the benchmarks with the descriptor's
# sentences (caveat_sentences).  A benchmark the table does not cover
# (processes as the unit, the paired design, a global run order, runs
# that are not plain positive doubles, a sequential stop, warm-ups
# detected, a status of the core, an implausible speedup that warns) is
# made by the per-verdict path, `analyse(j)`, in benchmark order, and read
# back into the same columns: the table is the same whichever path made a
# row.  verdict_table_verdict() makes the verdict object of one benchmark
# when a user asks for it.

# test: a protocol's name; parts: a list of what timings_pair() gives per
# benchmark (list(x, y, labels, data_name, baseline, positions, process,
# round)); alpha, min_speedup: the level and the tolerance of every
# verdict; slow: TRUE for the benchmarks the caller wants made one by one;
# analyse: function(j) giving the verdict (or the error) of benchmark j by
# the per-verdict path.  Returns a list: `k`, `fast` (made by the table),
# `verdicts` (the verdicts made one by one, NULL elsewhere), `parts`,
# `analyse`, and the columns (see verdict_table_columns()).
verdict_table <- function(test, parts, alpha, min_speedup = 1, replication = "auto",
                          design = "auto", rigorous = TRUE, slow = NULL,
                          analyse = NULL) {
  k <- length(parts)
  if (is.null(analyse)) {
    analyse <- function(j) tryCatch(
      run_structured(test, parts[[j]], alpha, rigorous, FALSE, NULL, replication, design,
                     min_speedup = min_speedup),
      error = function(e) e)
  }
  proto <- protocol_info(test)
  # a level or a tolerance the checks would warn about or refuse: one by one
  plain_args <- is.double(alpha) && length(alpha) == 1L && !is.na(alpha) &&
    alpha > 0 && alpha < 0.5 && is.double(min_speedup) && length(min_speedup) == 1L &&
    is.finite(min_speedup) && min_speedup >= 1 && isTRUE(rigorous)
  fast <- rep(plain_args && identical(replication, "auto") &&
                design %in% c("auto", "unpaired"), k)
  if (!is.null(slow)) fast <- fast & !slow
  is_part <- vapply(parts, function(p) is.list(p) && !inherits(p, "condition"), TRUE,
                    USE.NAMES = FALSE)
  fast <- fast & is_part
  # the structure the table covers: runs of one process per version, or
  # no processes; no rounds, no global order, no warm-ups
  kind <- rep("unknown", k)
  for (j in which(fast)) {
    p <- parts[[j]]
    x <- p$x
    y <- p$y
    if (!is.null(p$positions) || !is.null(p$round) || !is.null(p$warmup) ||
        !is.double(x) || !is.double(y) || !is.null(attributes(x)) ||
        !is.null(attributes(y)) || !length(x) || !length(y)) {
      fast[j] <- FALSE
      next
    }
    pr <- p$process
    if (!is.null(pr)) {
      px <- pr$x
      py <- pr$y
      if (anyNA(px) || anyNA(py) || length(px) != length(x) || length(py) != length(y) ||
          !(is.numeric(px) || is.character(px)) || !identical(typeof(px), typeof(py))) {
        fast[j] <- FALSE
        next
      }
      ux <- px[1L]
      uy <- py[1L]
      if (any(px != ux) || any(py != uy) || ux == uy ||
          (is.double(px) && (ux != trunc(ux) || uy != trunc(uy)))) {
        fast[j] <- FALSE
        next
      }
      kind[j] <- "single"
    }
  }
  f <- which(fast)
  if (length(f)) {
    xs <- lapply(parts[f], `[[`, "x")
    ys <- lapply(parts[f], `[[`, "y")
    n <- lengths(xs)
    m <- lengths(ys)
    vals <- unlist(c(rbind(xs, ys)), use.names = FALSE)
    ok_vals <- .Call(ffi_all_positive_finite, vals)
    if (!ok_vals) {
      # a sample that check_sample() would change or refuse: one by one
      good <- vapply(seq_along(f), function(i) {
        .Call(ffi_all_positive_finite, xs[[i]]) && .Call(ffi_all_positive_finite, ys[[i]])
      }, TRUE)
      fast[f[!good]] <- FALSE
      f <- which(fast)
      xs <- xs[good]
      ys <- ys[good]
      n <- n[good]
      m <- m[good]
      vals <- unlist(c(rbind(xs, ys)), use.names = FALSE)
    }
  }
  cols <- NULL
  if (length(f)) {
    start <- cumsum(c(0, rbind(n, m)))[seq_len(2L * length(f))]
    x_start <- start[c(TRUE, FALSE)]
    y_start <- start[c(FALSE, TRUE)]
    core <- .Call(ffi_verdict_table, vals, x_start, as.double(n), y_start, as.double(m),
                  protocol_code(test), rep(as.double(alpha), length(f)), isTRUE(rigorous),
                  if (isTRUE(proto$trend_in_core)) run_order_min_runs else 0L,
                  as.double(min_speedup))
    # the core's status, and a speedup that warns (check_plausible_speedup()):
    # one by one, where the warning is given in its place
    sp <- na_if_nan(core$speedup)
    loud <- core$status != 0L | (!is.na(sp) & is.finite(sp) & sp > 0 &
                                   (sp > implausible_factor | sp < 1 / implausible_factor))
    keep <- !loud
    fast[f[loud]] <- FALSE
    f <- f[keep]
    core <- lapply(core, function(c) if (is.matrix(c)) c[keep, , drop = FALSE] else c[keep])
    cols <- verdict_table_columns(test, core, parts[f], xs[keep], ys[keep], alpha,
                                  min_speedup, kind[f], replication,
                                  vals, x_start[keep], y_start[keep])
  }
  verdicts <- vector("list", k)
  for (j in which(!fast)) verdicts[[j]] <- analyse(j)
  list(k = k, test = test, alpha = alpha, min_speedup = min_speedup, fast = fast,
       rows = f, cols = cols, verdicts = verdicts, parts = parts, analyse = analyse)
}

# The verdict object of benchmark j of a table: the one made one by one,
# or made now by the per-verdict path (the same verdict the table holds
# the numbers and words of).
verdict_table_verdict <- function(tab, j) {
  if (!tab$fast[j]) return(tab$verdicts[[j]])
  tab$analyse(j)
}

# Every verdict of a table as objects (made one by one where the table
# made them at once): for the callers that need the objects.
verdict_table_verdicts <- function(tab) {
  lapply(seq_len(tab$k), function(j) verdict_table_verdict(tab, j))
}

# The columns of the verdicts of the benchmarks the table makes itself:
# what new_verdict(), apply_tolerance(), interval_open_ends(),
# add_replication() and verdict_story() give, as vectors.
verdict_table_columns <- function(test, core, parts, xs, ys, alpha, s0, kind,
                                  replication, vals, x_start, y_start) {
  k <- length(parts)
  proto <- protocol_info(test)
  n <- unname(lengths(xs))
  m <- unname(lengths(ys))
  labels <- unname(lapply(parts, `[[`, "labels"))
  lab1 <- vapply(labels, `[`, "", 1L)
  lab2 <- vapply(labels, `[`, "", 2L)
  dec <- st_code_name("decision", core$decision)
  outcome <- c(insufficient = "insufficient data", not_significant = "not significant",
               significant = "significant")[dec]
  branch <- st_code_name("branch", core$branch)
  p_slow <- na_if_nan(core$p_value_slowdown)
  outcome <- unname(outcome)
  direction <- unname(direction_from(outcome, p_slow, alpha))
  significant <- ifelse(outcome == "significant", TRUE,
                        ifelse(outcome == "not significant", FALSE, NA))
  p_value <- na_if_nan(core$p_value)
  # the run-order flag: the core's trend tests (the median's) or made here
  mk_len <- c(n, m)
  if (isTRUE(proto$trend_in_core)) {
    tp <- core$trend_p
    flag_core <- (n >= run_order_min_runs & !is.na(tp[, 1L]) & tp[, 1L] <= run_order_level) |
      (m >= run_order_min_runs & !is.na(tp[, 2L]) & tp[, 2L] <= run_order_level)
  }
  # the run_order element (run_order_check() without positions): the
  # Mann-Kendall test of each sample in its recorded order
  mk <- .Call(ffi_mann_kendall, vals, as.double(c(x_start, y_start)), as.double(mk_len))
  mk_ok <- mk_len >= run_order_min_runs & mk$status == 0L
  mk_p <- ifelse(mk_ok, mk$p_value, NA_real_)
  mk_tau <- ifelse(mk_ok, mk$tau, NA_real_)
  trend_x <- !is.na(mk_p[seq_len(k)]) & mk_p[seq_len(k)] <= run_order_level
  trend_y <- !is.na(mk_p[k + seq_len(k)]) & mk_p[k + seq_len(k)] <= run_order_level
  ro_trend <- trend_x | trend_y
  run_order_flag <- if (isTRUE(proto$trend_in_core)) flag_core else ro_trend
  guaranteed <- core$guaranteed != 0L & !run_order_flag
  # rule 2: one process per version, never guaranteed (add_replication())
  single <- kind == "single" & replication == "auto"
  guaranteed[single] <- FALSE
  # the interval (new_verdict(), unattainable_interval())
  lo <- na_if_nan(core$ci_low)
  hi <- na_if_nan(core$ci_high)
  est <- na_if_nan(core$speedup_estimate)
  level <- core$speedup_ci_level
  attainable <- rep(NA_real_, k)
  if (alpha < 0.5) {
    un <- !is.na(level) & abs(level - (1 - 2 * alpha)) > 1e-9
    lo[un] <- NA_real_
    hi[un] <- NA_real_
    attainable[un] <- level[un]
  }
  # the tolerance (apply_tolerance())
  p_eq <- rep(NA_real_, k)
  p_tol <- matrix(NA_real_, k, 4L)
  has_tol <- rep(FALSE, k)
  if (s0 != 1) {
    pt <- core$tolerance_p
    pt[is.nan(pt)] <- NA_real_
    pt[core$tolerance_status != 0L, ] <- NA_real_
    has_tol <- !is.na(significant) & !is.na(pt[, 1L])
    if (any(has_tol)) {
      h <- which(has_tol)
      p_tol[h, ] <- pt[h, , drop = FALSE]
      p_value[h] <- pt[h, 1L]
      p_slow[h] <- pt[h, 2L]
      p_eq[h] <- pmax(pt[h, 3L], pt[h, 4L])
      d <- rep("none", length(h))
      eqv <- s0 > 1 & !is.na(pt[h, 3L]) & !is.na(pt[h, 4L]) & pt[h, 3L] <= alpha & pt[h, 4L] <= alpha
      d[eqv] <- "equivalent"
      d[!is.na(pt[h, 2L]) & pt[h, 2L] <= alpha] <- "slowdown"
      d[pt[h, 1L] <= alpha] <- "speedup"
      direction[h] <- d
      significant[h] <- d == "speedup"
    }
  }
  # the ends on the decision's boundary (interval_open_ends())
  open_low <- open_high <- empty <- rep(FALSE, k)
  w <- which(!is.na(lo) & !is.na(hi) & !is.na(direction))
  if (length(w)) {
    l <- lo[w]
    u <- hi[w]
    d <- direction[w]
    ol <- d == "speedup" & l <= s0
    oh <- !ol & d == "slowdown" & u >= 1 / s0
    l[ol] <- s0
    u[oh] <- 1 / s0
    nn <- d == "none"
    l[nn & l > s0] <- s0
    u[nn & u < 1 / s0] <- 1 / s0
    emp <- (ol & u <= l) | (oh & l >= u)
    l[emp] <- NA_real_
    u[emp] <- NA_real_
    lo[w] <- l
    hi[w] <- u
    open_low[w] <- ol & !emp
    open_high[w] <- oh & !emp
    empty[w] <- emp
  }
  cols <- list(
    n = n, m = m, labels = labels, label_x = lab1, label_y = lab2,
    significant = significant, direction = direction,
    decision = decision_words(direction), branch = branch, p_value = p_value,
    p_value_slowdown = p_slow, p_value_equivalence = p_eq, p_value_tolerance = p_tol,
    has_tolerance = has_tol, guaranteed = guaranteed,
    speedup = na_if_nan(core$speedup), ci_low = lo, ci_high = hi, estimate = est,
    attainable = attainable, open_low = open_low, open_high = open_high, empty = empty,
    speedup_min = na_if_nan(core$speedup_min), speedup_mean = na_if_nan(core$speedup_mean),
    speedup_median = na_if_nan(core$speedup_median),
    prob_greater = na_if_nan(core$prob_greater),
    flags = core$caveats, step_kind = core$step_kind, step_p = core$step_p,
    trend_p_x = mk_p[seq_len(k)], trend_p_y = mk_p[k + seq_len(k)],
    trend_tau_x = mk_tau[seq_len(k)], trend_tau_y = mk_tau[k + seq_len(k)],
    run_order_trend = ro_trend, kind = kind, single = single, alpha = alpha, s0 = s0,
    test = test)
  # the parts of the stories that cost a sort or a call of the core
  cols$median_ratio <- matrix(NA_real_, k, 3L)
  if ("median_ratio" %in% (proto$lazy_extra %||% character())) {
    mr <- median_ratio_bp_all(xs, ys, rep(alpha, k))
    cols$median_ratio <- matrix(unlist(mr, use.names = FALSE), k, 3L, byrow = TRUE)
  }
  cols$min_alpha <- verdict_table_min_alpha(test, xs, ys, s0, cols$direction)
  story <- verdict_table_story(cols, proto)
  cols$caveats <- story$caveats
  cols$advice <- story$advice
  cols
}

# The smallest attainable alpha (verdict_min_alpha()) of the verdicts that
# declare nothing (direction "none"), whose stories and `detectable` read
# it: a k x 2 matrix (speedup, slowdown), NA elsewhere.
verdict_table_min_alpha <- function(test, xs, ys, s0, direction) {
  k <- length(xs)
  out <- matrix(NA_real_, k, 2L, dimnames = list(NULL, c("speedup", "slowdown")))
  want <- which(direction %in% "none" & lengths(xs) >= 3L & lengths(ys) >= 3L)
  if (!length(want)) return(out)
  fn <- protocol_info(test)$calls$attainable
  if (is.null(fn)) {
    out[want, ] <- 0
    return(out)
  }
  got <- if (attainable_by_rank(test)) {
    min_alpha_rank_all(xs[want], ys[want], rep(s0, length(want)), test)
  } else vector("list", length(want))
  f <- get(fn, envir = asNamespace("speeduptest"), mode = "function")
  for (i in seq_along(want)) {
    p <- got[[i]]
    if (is.null(p)) {
      p <- tryCatch(f(xs[[want[i]]], ys[[want[i]]], s0, "unpaired"),
                    error = function(e) c(speedup = NA_real_, slowdown = NA_real_))
      p[is.nan(p)] <- NA_real_
    }
    out[want[i], ] <- p
  }
  out
}

# verdict_story() of the table's verdicts (unpaired, the runs as the
# unit, one process per version or none): the caveats and the advice of
# each, in the same order and the same words.
verdict_table_story <- function(cols, proto) {
  S <- caveat_sentences
  k <- length(cols$n)
  cav <- adv <- rep(list(character()), k)
  add <- function(lst, rows, text) {
    if (length(rows)) lst[rows] <- Map(c, lst[rows], text)
    lst
  }
  bit <- function(name) has_bit(cols$flags, name)
  lab1 <- cols$label_x
  lab2 <- cols$label_y
  n <- cols$n
  m <- cols$m
  alpha <- cols$alpha
  step_p <- function(kind) {
    code <- st_code("step", kind)
    p <- rep(NA_real_, k)
    for (s in seq_len(ncol(cols$step_kind))) {
      hit <- !is.na(cols$step_kind[, s]) & cols$step_kind[, s] == code & is.na(p)
      p[hit] <- cols$step_p[hit, s]
    }
    p
  }
  few <- which(bit("too_few_values"))
  if (length(few)) {
    for (i in 1:2) {
      size <- if (i == 1L) n[few] else m[few]
      lab <- if (i == 1L) lab1[few] else lab2[few]
      r <- few[size < 3L]
      cav <- add(cav, r, vapply(which(size < 3L), function(q) {
        S$too_few_values(lab[q], size[q], "run")
      }, ""))
    }
  }
  con <- which(bit("constant"))
  if (length(con)) {
    both <- identical(proto$constant, "both") & cols$branch[con] == "constant_samples"
    cav <- add(cav, con, ifelse(both, S$constant_both(), S$constant()))
    adv <- add(adv, con, S$timer())
  }
  for (i in 1:2) {
    s <- c("x", "y")[i]
    r <- which(bit(paste0(s, "_not_normal")))
    if (!length(r)) next
    unc <- bit(paste0(s, "_uncheckable"))[r]
    lab <- if (i == 1L) lab1[r] else lab2[r]
    size <- if (i == 1L) n[r] else m[r]
    p <- step_p(paste0("shapiro_", s))[r]
    cav <- add(cav, r, vapply(seq_along(r), function(q) {
      if (unc[q]) S$uncheckable(lab[q], size[q]) else S$not_normal(lab[q], p[q], alpha)
    }, ""))
  }
  r <- which(bit("no_location_model"))
  if (length(r)) {
    p <- step_p("ks_test")[r]
    cav <- add(cav, r, vapply(seq_along(r), function(q) {
      S$no_location_model(lab1[r[q]], lab2[r[q]], p[q], alpha)
    }, ""))
  }
  # the shapes (shapes_differ()): the median protocol's ratio of the medians
  mr <- cols$median_ratio
  if ("median_ratio" %in% (proto$lazy_extra %||% character())) {
    lo <- cols$ci_low
    hi <- cols$ci_high
    est <- cols$estimate
    z <- rep(NA_real_, k)
    okz <- !is.na(mr[, 1L]) & !is.na(mr[, 2L]) & !is.na(mr[, 3L]) & !is.na(lo) &
      !is.na(hi) & !is.na(est) & is.finite(lo) & is.finite(hi) & lo > 0 & alpha < 0.5
    if (any(okz)) {
      q <- stats::qnorm(1 - alpha)
      var_hl <- ((log(hi[okz]) - log(lo[okz])) / (2 * q))^2
      var_mr <- ((log(mr[okz, 3L]) - log(mr[okz, 2L])) / (2 * q))^2
      v_d <- pmax(var_mr - var_hl, 0.1 * var_mr)
      zz <- (log(est[okz]) - log(mr[okz, 1L])) / sqrt(v_d)
      zz[!(v_d > 0)] <- NA_real_
      z[okz] <- zz
    }
    differ <- bit("no_location_model") |
      (!is.na(z) & abs(z) > stats::qnorm(1 - alpha / 2))
    r <- which(!is.na(cols$significant) & differ)
    if (length(r)) {
      cav <- add(cav, r, vapply(r, function(q) {
        S$shapes_differ(lab1[q], lab2[q],
                        fmt_estimate_ci(mr[q, 1L], c(low = mr[q, 2L], high = mr[q, 3L])),
                        interval_level(alpha))
      }, ""))
    }
  }
  # the run-order checks (run_order_caveats())
  for (i in 1:2) {
    p <- if (i == 1L) cols$trend_p_x else cols$trend_p_y
    tau <- if (i == 1L) cols$trend_tau_x else cols$trend_tau_y
    lab <- if (i == 1L) lab1 else lab2
    r <- which(!is.na(p) & p <= run_order_level)
    cav <- add(cav, r, vapply(r, function(q) S$trend(lab[q], tau[q] > 0, p[q]), ""))
  }
  fx <- bit("x_few_runs")
  fy <- bit("y_few_runs")
  r <- which(fx | fy)
  if (length(r)) {
    adv <- add(adv, r, vapply(r, function(q) {
      S$more_runs(c(lab1[q], lab2[q])[c(fx[q], fy[q])], "run")
    }, ""))
  }
  adv <- add(adv, which(cols$run_order_trend), S$interleave())
  # a change that cannot be declared at alpha with these sizes, first
  ma <- cols$min_alpha
  r <- which(cols$direction %in% "none" & !is.na(ma[, 1L]) & !is.na(ma[, 2L]) &
               (ma[, 1L] > alpha | ma[, 2L] > alpha))
  if (length(r)) {
    test <- cols$test
    final <- final_test_name(structure(list(test = test, alpha = alpha,
                                            labels = c("x", "y"), branch = ""),
                                       lazy = list(design = "unpaired")))
    blocked <- vapply(r, function(q) {
      p <- ma[q, ]
      b <- p > alpha
      what <- if (all(b)) "no speedup or slowdown" else sprintf("no %s", names(p)[b])
      S$min_alpha(what, alpha, sprintf("%d and %d runs", n[q], m[q]), final, min(p[b]))
    }, "")
    cav[r] <- Map(c, blocked, cav[r])
    adv <- add(adv, r, vapply(r, function(q) S$min_alpha_advice(min(ma[q, ]), "runs"), ""))
  }
  tail_rows <- which(!is.na(cols$significant) & !cols$guaranteed)
  # what the replicates add (replication_story()): one process per version
  r <- which(cols$single)
  if (length(r)) {
    one <- vapply(r, function(q) S$one_process(c(lab1[q], lab2[q])), "")
    cav[r] <- Map(function(a, b) unique(c(a, b)), cav[r], one)
    adv <- add(adv, r, S$several_processes())
  }
  if (length(tail_rows)) {
    cav <- add(cav, tail_rows, S$not_guaranteed(1 - alpha))
  }
  list(caveats = cav, advice = adv)
}

# The smallest attainable alpha of the table's rows i (positions among
# its own rows, tab$rows), made now for those whose stories did not need
# it (a verdict that declared a change the adjustment took back): a
# matrix of c(speedup, slowdown) per row.
verdict_table_min_alpha_more <- function(tab, i) {
  c2 <- tab$cols
  ma <- c2$min_alpha[i, , drop = FALSE]
  todo <- which(is.na(ma[, 1L]) & c2$n[i] >= 3L & c2$m[i] >= 3L)
  if (length(todo)) {
    p <- tab$parts[tab$rows[i[todo]]]
    more <- verdict_table_min_alpha(tab$test, lapply(p, `[[`, "x"), lapply(p, `[[`, "y"),
                                    tab$min_speedup, rep("none", length(todo)))
    ma[todo, ] <- more
  }
  ma
}

# verdict_detectable(v, power, alpha) of the table's rows i (positions
# among its own rows): the median protocol's for all at once
# (detectable_median_at()), the others' from their verdict objects.
verdict_table_detectable <- function(tab, i, alpha, power = 0.8) {
  c2 <- tab$cols
  fn <- protocol_info(tab$test)$calls$detectable %||% ""
  n <- c2$n[i]
  m <- c2$m[i]
  if (fn != "detectable_median") {
    return(vapply(tab$rows[i], function(j) {
      verdict_detectable(verdict_table_verdict(tab, j), power = power, alpha = alpha)
    }, 0))
  }
  ma <- verdict_table_min_alpha_more(tab, i)
  blocked <- !is.na(ma[, 1L]) & ma[, 1L] > alpha
  conf <- interval_level(c2$alpha)
  parts <- tab$parts[tab$rows[i]]
  sd_fun <- function(k) vapply(k, function(j) log_pooled_sd(parts[[j]]$x, parts[[j]]$y), 0)
  d <- rep(NA_real_, length(i))
  go <- n >= 2 & m >= 2 & !blocked
  if (any(go)) {
    g <- which(go)
    d[g] <- detectable_median_at(c2$ci_low[i][g], c2$ci_high[i][g], rep(conf, length(g)),
                                 n[g], m[g], function(k) sd_fun(g[k]), alpha, power,
                                 rep(c2$s0, length(g)))
  }
  d[n >= 2 & m >= 2 & blocked] <- Inf
  d
}

# Everything a page of a site prints of each verdict of a table, for all
# the benchmarks at once: the decision and its direction ("none" for
# insufficient data), the speedup (the interval's own estimate, as
# or_na(attr(v$speedup_ci, "estimate"), v$speedup) of a verdict) with its interval, whether a speedup is declared, the
# caveats and the advice (lists of sentences), the samples, and the lines
# of each verdict's format() escaped as format_verdicts() escapes them
# (`lines = FALSE` leaves them out).  An element of `error` holds the
# message of a benchmark that could not be analysed (NA otherwise); its
# other fields are NA or empty.
verdict_table_pages <- function(tab, lines = TRUE, digits = 3L) {
  k <- tab$k
  out <- list(decision = rep(NA_character_, k), direction = rep(NA_character_, k),
              significant = rep(NA, k), speedup = rep(NA_real_, k),
              conf_low = rep(NA_real_, k), conf_high = rep(NA_real_, k),
              caveats = vector("list", k), advice = vector("list", k),
              x = vector("list", k), y = vector("list", k), labels = vector("list", k),
              lines = if (lines) vector("list", k), error = rep(NA_character_, k))
  slow <- which(!tab$fast)
  for (j in slow) {
    v <- tab$verdicts[[j]]
    if (inherits(v, "error")) {
      out$error[j] <- conditionMessage(v)
      next
    }
    out$decision[j] <- v$decision
    out$direction[j] <- if (is.na(v$direction)) "none" else v$direction
    out$significant[j] <- v$significant
    out$speedup[j] <- or_na(attr(v$speedup_ci, "estimate"), v$speedup)
    ci <- as.double(v$speedup_ci)
    out$conf_low[j] <- ci[1L]
    out$conf_high[j] <- ci[2L]
    out$caveats[j] <- list(v$caveats)
    out$advice[j] <- list(v$advice)
    out$x[j] <- list(as.double(v$x))
    out$y[j] <- list(as.double(v$y))
    out$labels[j] <- list(as.character(v$labels))
  }
  f <- tab$rows
  if (length(f)) {
    c2 <- tab$cols
    out$decision[f] <- c2$decision
    out$direction[f] <- ifelse(is.na(c2$direction), "none", c2$direction)
    out$significant[f] <- c2$significant
    out$speedup[f] <- c2$estimate
    out$conf_low[f] <- c2$ci_low
    out$conf_high[f] <- c2$ci_high
    out$caveats[f] <- c2$caveats
    out$advice[f] <- c2$advice
    out$x[f] <- lapply(tab$parts[f], `[[`, "x")
    out$y[f] <- lapply(tab$parts[f], `[[`, "y")
    out$labels[f] <- c2$labels
  }
  if (lines) {
    ok <- which(is.na(out$error))
    # the detectable speedups the lines print, made at once
    det <- rep(NA_real_, k)
    if (length(f)) {
      none <- which(tab$cols$direction %in% "none")
      if (length(none)) det[f[none]] <- verdict_table_detectable(tab, none, tab$alpha)
    }
    vs <- lapply(ok, function(j) verdict_table_primed(tab, j, det[j]))
    out$lines[ok] <- format_verdicts(vs, digits = digits)
  }
  out
}

# The verdict object of benchmark j of a table with the parts the table
# made (its caveats and advice, the ratio of the medians, the smallest
# attainable alpha) kept in it as if it had made them when read.
verdict_table_primed <- function(tab, j, detectable = NA_real_) {
  v <- verdict_table_verdict(tab, j)
  if (!tab$fast[j]) return(v)
  i <- match(j, tab$rows)
  c2 <- tab$cols
  if (!is.na(detectable)) verdict_keep(v, "detectable", detectable)
  verdict_keep(v, "story", list(caveats = c2$caveats[[i]], advice = c2$advice[[i]]))
  if ("median_ratio" %in% names(v) && !anyNA(c2$median_ratio[i, ])) {
    verdict_keep(v, "median_ratio", stats::setNames(c2$median_ratio[i, ],
                                                    c("estimate", "low", "high")))
  }
  if (!anyNA(c2$min_alpha[i, ])) verdict_keep(v, "min_alpha", c2$min_alpha[i, ])
  v
}
