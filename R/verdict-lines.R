# The printed lines of many verdicts at once: what format() of each
# verdict prints (R/verdict-print.R), for every benchmark of a verdict
# table (R/verdict-table.R), made with vectorised sprintf()/paste() over
# the table's columns, one wrap of the lines that need it and one escape.
# The words are the descriptor's (protocol_info(), caveat_sentences,
# protocol_steps), the same functions format() calls; the benchmarks the
# table does not cover (its per-verdict rows, a protocol whose print needs
# more than the table holds) take the lines of their verdict object.
#
# The advice of the plan of each undecided verdict ("about N runs of each
# version would detect ...") comes from one function, site_advice(), for
# all the verdicts of a site at once.

# The advice lines of plan_advice() for a list of verdicts (each already
# the one format() plans from: the verdict, or detectable_from_spread() of
# it when no speedup is detectable at its alpha): a list of character
# vectors.  The one place a site plans runs: the median protocol's normal
# plans of all of them in one call of the core (plan_advice_many()).
site_advice <- function(vs) {
  plan_advice_many(vs)
}

# The verdict format() plans the advice of, for a verdict whose
# `detectable` is d; NULL when format() prints no advice of a plan.
advice_input <- function(v, d) {
  if (is.null(d) || is.na(d)) return(NULL)
  if (is.finite(d)) v else detectable_from_spread(v)
}

# The lines of format() of each verdict of the list `vs` (unescaped,
# wrapped), the advice of their plans made by site_advice() for all at
# once: a list of character vectors.
verdict_lines_of <- function(vs, digits = 3L) {
  d <- lapply(vs, function(v) v$detectable)
  inputs <- Map(advice_input, vs, d)
  want <- which(!vapply(inputs, is.null, TRUE))
  adv <- rep(list(character()), length(vs))
  if (length(want)) adv[want] <- site_advice(inputs[want])
  Map(function(v, plan) verdict_format_lines(v, digits, plan), vs, adv)
}

# tolerance_lines() with the advice of the plan given.
tolerance_lines_planned <- function(v, plan, digits = 3L) {
  out <- character()
  s0 <- v$min_speedup
  if (!is.null(s0) && s0 != 1 && !is.null(v$p_value_tolerance)) {
    p <- v$p_value_tolerance
    out <- c(out, sprintf(
      "  tolerance %s: speedup beyond it p = %s, slowdown beyond it p = %s, within it (two one-sided tests) p = %s",
      fmt_change(s0), fmt_p(p[[1L]]), fmt_p(p[[2L]]),
      fmt_p(max(p[[3L]], p[[4L]]))))
  }
  d <- v$detectable
  if (!is.null(d) && !is.na(d)) {
    out <- c(out, detectable_lines(d, v$alpha, verdict_unit_words(v)))
    if (length(plan)) out <- c(out, paste0("  advice: ", plan))
  }
  out
}

# The "detectable:" line of each detectable speedup d (finite or Inf),
# at the level alpha with the sizes `units` ("20 and 20 runs").
detectable_lines <- function(d, alpha, units) {
  out <- character(length(d))
  fin <- is.finite(d)
  if (any(fin)) {
    out[fin] <- sprintf("  detectable: a speedup of %s or more would have been declared with probability 0.8",
                        fmt_change_all(d[fin]))
  }
  if (any(!fin)) {
    out[!fin] <- paste0("  detectable: ", caveat_sentences$detectable_none(alpha, units[!fin]))
  }
  out
}

# fmt_change() of many factors.
fmt_change_all <- function(s, digits = 2L) {
  out <- paste0(trimws(formatC(100 * (s - 1), digits = digits, format = "fg")), " %")
  out[is.infinite(s)] <- "any"
  out[is.na(s)] <- "NA"
  out
}

# fmt_p() of many p-values.
fmt_p_all <- function(p, digits = 3L) {
  out <- rep("NA", length(p))
  ok <- !is.na(p)
  out[ok] <- fmt_num(p[ok], digits)
  small <- ok & p < 1e-4
  if (any(small)) out[small] <- formatC(p[small], format = "e", digits = digits - 1L)
  out[ok & p == 0] <- "0"
  out
}

# The printed lines of a verdict table's own rows (positions among
# tab$rows), unescaped and wrapped: a list, NULL for a row whose lines
# the table cannot make (its protocol prints what the table does not
# hold).  det: the detectable speedup of each row (NA where format()
# prints none); plan: the advice of each row's plan (a list of character
# vectors, as site_advice() gives them).
verdict_table_lines <- function(tab, det, plan, digits = 3L) {
  c2 <- tab$cols
  k <- length(tab$rows)
  out <- vector("list", k)
  if (!k) return(out)
  test <- tab$test
  proto <- protocol_info(test)
  # P[X > Y] with its interval (prob_text() of prob_ci): not in the table
  if ("prob_ci" %in% proto$extra) return(out)
  alpha <- tab$alpha
  s0 <- tab$min_speedup
  n <- c2$n
  m <- c2$m
  lx <- esc_text(c2$label_x)
  ly <- esc_text(c2$label_y)
  parts <- tab$parts[tab$rows]
  units <- sprintf("%d and %d runs", n, m)
  dir <- c2$direction
  conf <- fmt_pct(1 - alpha)
  # the headline (verdict_headline(), tolerance_headline())
  g <- ifelse(c2$guaranteed, "guaranteed", "not guaranteed")
  tol_head <- !is.na(dir) & (s0 != 1 | dir %in% "equivalent")
  body <- sprintf("%s at %s confidence", decision_words(dir), conf)
  sfx <- dir %in% c("speedup", "slowdown", "equivalent")
  if (any(tol_head)) {
    body[tol_head] <- sprintf("%s at %s confidence",
                              compare_words_all(dir[tol_head], s0), conf)
    sfx[tol_head] <- dir[tol_head] != "none"
  }
  body[sfx] <- sprintf("%s (%s)", body[sfx], g[sfx])
  head <- paste0(sprintf("Speedup-Test (%s): ", test), body)
  # the speedup and its interval (verdict_speedup_lines(), interval_phrase())
  est <- c2$estimate
  lo <- c2$ci_low
  hi <- c2$ci_high
  est_txt <- fmt_num(est, digits)
  sp_txt <- fmt_num(c2$speedup, digits)
  estimator <- proto$interval$estimator
  phrase <- rep(NA_character_, k)
  emp <- !is.na(est) & c2$empty
  phrase[emp] <- sprintf("%s (%s; %s)", est_txt[emp], estimator,
                         caveat_sentences$empty_interval(interval_level(alpha)))
  una <- !is.na(est) & !emp & !is.na(c2$attainable)
  if (any(una)) {
    phrase[una] <- sprintf("%s (%s; %s)", est_txt[una], estimator, vapply(which(una), function(i) {
      caveat_sentences$no_interval_level(interval_level(alpha), units[i],
                                         floor(c2$attainable[i] * 1000 + 1e-9) / 1000)
    }, ""))
  }
  full <- !is.na(est) & !emp & !una & !is.na(lo) & !is.na(hi)
  if (any(full)) {
    note <- rep(interval_note(alpha), k)
    ol <- c2$open_low
    oh <- c2$open_high
    o <- full & (ol | oh)
    if (any(o)) {
      note[o] <- paste0(note[o], ", ", vapply(which(o), function(i) {
        caveat_sentences$open_end(if (ol[i]) lo[i] else hi[i])
      }, ""))
    }
    phrase[full] <- sprintf("%s (%s; %s, %s)",
                            fmt_estimate_ci_all(est[full], lo[full], hi[full], digits,
                                                ol[full], oh[full]),
                            estimator, interval_words(test, interval_level(alpha)),
                            note[full])
  }
  centre <- proto$centre
  observed <- proto$observed %||% sprintf("ratio of the %ss", centre)
  sp1 <- ifelse(is.na(phrase),
                sprintf("  speedup of the %s: %s (%s; no interval)", centre, sp_txt, observed),
                sprintf("  speedup: %s", phrase))
  sp2 <- rep(NA_character_, k)
  has_mr <- "median_ratio" %in% (proto$lazy_extra %||% character())
  mr <- c2$median_ratio
  mr_ok <- if (has_mr) !is.na(phrase) & !is.na(mr[, 1L]) & !is.na(mr[, 2L]) & !is.na(mr[, 3L])
           else rep(FALSE, k)
  if (any(mr_ok)) {
    sp2[mr_ok] <- caveat_sentences$median_ratio(
      fmt_estimate_ci_all(mr[mr_ok, 1L], mr[mr_ok, 2L], mr[mr_ok, 3L], digits),
      interval_level(alpha))
  }
  obs <- !is.na(phrase) & !mr_ok & est_txt != sp_txt
  sp2[obs] <- sprintf("  observed %s: %s", observed, sp_txt[obs])
  # P[X > Y] (the median protocol's estimate, without an interval)
  pg <- rep(NA_character_, k)
  if ("prob_greater" %in% proto$extra) {
    h <- !is.na(c2$prob_greater)
    pg[h] <- sprintf("  P[X > Y] = %s (chance that a run of %s is slower than a run of %s)",
                     fmt_num(c2$prob_greater[h], digits), lx[h], ly[h])
  }
  obs_line <- sprintf("  observed speedups: min %s, mean %s, median %s",
                      fmt_num(c2$speedup_min, digits), fmt_num(c2$speedup_mean, digits),
                      fmt_num(c2$speedup_median, digits))
  runs <- sprintf("  runs: %d of %s, %d of %s", n, lx, m, ly)
  one <- c2$kind == "single"
  runs[one] <- paste(runs[one], "(each version in one process)")
  base <- vapply(parts, function(p) p$baseline %||% NA_character_, "")
  nob <- is.na(base)
  base[nob] <- sprintf("`%s` (first argument)", c2$label_x[nob])
  init <- paste0("  initial code: ", esc_text(base))
  path <- verdict_table_paths(tab, lx, ly)
  path <- ifelse(nzchar(path), paste0("  path: ", path), NA_character_)
  tol <- rep(NA_character_, k)
  if (s0 != 1) {
    h <- c2$has_tolerance
    pt <- c2$p_value_tolerance
    tol[h] <- sprintf(
      "  tolerance %s: speedup beyond it p = %s, slowdown beyond it p = %s, within it (two one-sided tests) p = %s",
      fmt_change(s0), fmt_p_all(pt[h, 1L]), fmt_p_all(pt[h, 2L]),
      fmt_p_all(pmax(pt[h, 3L], pt[h, 4L])))
  }
  dl <- rep(NA_character_, k)
  hd <- !is.na(det)
  if (any(hd)) dl[hd] <- detectable_lines(det[hd], alpha, units[hd])
  # every line with its row and its place, then in order
  fixed <- list(head, sp1, sp2, pg, obs_line, runs, init, path, tol, dl)
  txt <- unlist(fixed, use.names = FALSE)
  row <- rep.int(seq_len(k), length(fixed))
  slot <- rep(seq_along(fixed), each = k)
  # the caveats and advice: format() of a verdict makes them from its
  # escaped labels (verdict_printable()), so those of names that escaping
  # changes are written again from the escaped names
  cav <- c2$caveats
  adv <- c2$advice
  hostile <- lx != c2$label_x | ly != c2$label_y
  if (any(hostile)) {
    c3 <- c2
    c3$label_x <- lx
    c3$label_y <- ly
    st <- verdict_table_story(c3, proto)
    cav[hostile] <- st$caveats[hostile]
    adv[hostile] <- st$advice[hostile]
  }
  more <- list(list(plan, "  advice: "), list(cav, "  caveat: "),
               list(adv, "  advice: "))
  for (s in seq_along(more)) {
    l <- more[[s]][[1L]]
    len <- lengths(l)
    if (!sum(len)) next
    txt <- c(txt, paste0(more[[s]][[2L]], unlist(l, use.names = FALSE)))
    row <- c(row, rep.int(seq_len(k), len))
    slot <- c(slot, rep.int(length(fixed) + s, sum(len)))
  }
  keep <- !is.na(txt)
  txt <- txt[keep]
  row <- row[keep]
  slot <- slot[keep]
  o <- order(row, slot)
  wrapped <- wrap_lines_many(txt[o])
  group_lines(wrapped$lines, row[o][wrapped$from], k)
}

# The route through the flowchart of each row of a table (verdict_path()):
# the checks, then the final test with the mirrored p-value of a
# slowdown, in the words of the step descriptors; "" for none.
verdict_table_paths <- function(tab, lx, ly) {
  c2 <- tab$cols
  k <- length(tab$rows)
  proto <- protocol_info(tab$test)
  alpha <- tab$alpha
  welch <- c2$branch %in% c("welch_normal", "welch_not_normal")
  kinds <- c2$step_kind
  ps <- c2$step_p
  checks <- vector("list", ncol(kinds))
  final <- rep(NA_character_, k)
  for (s in seq_len(ncol(kinds))) {
    ph <- rep(NA_character_, k)
    col <- kinds[, s]
    for (code in unique(col[!is.na(col)])) {
      step <- protocol_steps[[st_code_name("step", code)]]
      r <- which(col == code)
      words <- vapply(r, function(i) {
        step$path(ps[i, s], list(alpha = alpha, labels = c(lx[i], ly[i]), welch = welch[i]))
      }, "")
      if (step$role == proto$final) final[r] <- words else ph[r] <- words
    }
    checks[[s]] <- ph
  }
  path <- rep("", k)
  any_check <- rep(FALSE, k)
  for (ph in checks) {
    h <- !is.na(ph)
    path[h] <- ifelse(any_check[h], paste(path[h], ph[h], sep = ", "), ph[h])
    any_check[h] <- TRUE
  }
  slow <- c2$direction %in% "slowdown"
  fin <- final
  fin[slow] <- paste0(fin[slow], sprintf(" (slowdown: p = %s)", fmt_p_all(c2$p_value_slowdown[slow])))
  hf <- !is.na(final)
  path[hf] <- ifelse(any_check[hf], sprintf("%s -> %s", path[hf], fin[hf]), fin[hf])
  stop_r <- nzchar(path) & c2$branch %in% "need_more_runs"
  path[stop_r] <- paste(path[stop_r], "-> stop (rigorous mode)")
  path
}

# wrap_lines() of many lines: each long line wrapped once (lines repeated
# across verdicts wrapped once), strwrap() of all those of one indentation
# in one call, and wrap_lines() itself where the first width does not fit.
# Returns the lines and, for each, the position of the line it came from.
wrap_lines_many <- function(lines, width = 80L, exdent = 4L) {
  long <- nchar(lines) > width
  res <- as.list(lines)
  if (any(long)) {
    u <- unique(lines[long])
    ind <- nchar(u) - nchar(sub("^ +", "", u))
    prot <- gsub("([[:alnum:])]) ([-+*/<>=]=?) ([[:alnum:](])", "\\1\001\\2\001\\3", u)
    got <- vector("list", length(u))
    for (i0 in unique(ind)) {
      g <- which(ind == i0)
      got[g] <- strwrap(prot[g], width = width + 1L, indent = i0, exdent = i0 + exdent,
                        simplify = FALSE)
    }
    bad <- vapply(got, function(w) any(nchar(w) > width), TRUE)
    got[!bad] <- lapply(got[!bad], function(w) gsub("\001", " ", w, fixed = TRUE))
    got[bad] <- lapply(u[bad], wrap_lines, width = width, exdent = exdent)
    res[long] <- got[match(lines[long], u)]
  }
  list(lines = unlist(res, use.names = FALSE), from = rep.int(seq_along(res), lengths(res)))
}

# The lines of `k` groups (group of each line in `g`, in order) as a list.
group_lines <- function(lines, g, k) {
  unname(split(lines, factor(g, levels = seq_len(k))))
}

# What verdict_table_pages() gives, with the printed lines of every verdict
# made here: the table's own rows from its columns (verdict_table_lines()),
# the others from their verdict objects, the advice of every plan by one
# call of site_advice(), and one escape of all the lines.
verdict_table_pages_lines <- function(tab, digits = 3L) {
  out <- verdict_table_pages(tab, lines = FALSE)
  k <- tab$k
  ok <- which(is.na(out$error))
  lines <- vector("list", k)
  f <- tab$rows
  det <- rep(NA_real_, length(f))
  if (length(f)) {
    none <- which(tab$cols$direction %in% "none")
    if (length(none)) det[none] <- verdict_table_detectable(tab, none, tab$alpha)
  }
  # the verdicts whose plan format() would print: those table rows, and
  # every verdict made one by one
  c2 <- tab$cols
  plan_rows <- if (length(f)) {
    which(!is.na(det) & c2$n >= 2L & c2$m >= 2L & det > tab$min_speedup * 1.01)
  } else integer()
  slow <- setdiff(ok, f)
  table_ok <- length(f) && !("prob_ci" %in% protocol_info(tab$test)$extra)
  if (!table_ok) {
    slow <- ok
    plan_rows <- integer()
  }
  # (a verdict whose names escaping changes makes its own story, from the
  # escaped names, as format() does)
  vs_slow <- lapply(slow, function(j) {
    if (!tab$fast[j]) return(tab$verdicts[[j]])
    i <- match(j, f)
    if (identical(esc_text(tab$cols$labels[[i]]), tab$cols$labels[[i]])) {
      return(verdict_table_primed(tab, j, det[i]))
    }
    v <- verdict_table_verdict(tab, j)
    if (!is.na(det[i])) verdict_keep(v, "detectable", det[i])
    v
  })
  plan_in <- lapply(plan_rows, function(i) {
    advice_input(verdict_table_primed(tab, f[i], det[i]), det[i])
  })
  d_slow <- lapply(vs_slow, function(v) v$detectable)
  in_slow <- Map(advice_input, vs_slow, d_slow)
  want <- which(!vapply(in_slow, is.null, TRUE))
  adv <- site_advice(c(plan_in, in_slow[want]))
  if (table_ok) {
    plan <- rep(list(character()), length(f))
    plan[plan_rows] <- adv[seq_along(plan_rows)]
    lines[f] <- verdict_table_lines(tab, det, plan, digits)
  }
  adv_slow <- rep(list(character()), length(slow))
  adv_slow[want] <- adv[length(plan_rows) + seq_along(want)]
  lines[slow] <- Map(function(v, plan) verdict_format_lines(v, digits, plan), vs_slow, adv_slow)
  lens <- lengths(lines[ok])
  esc <- esc_text(unlist(lines[ok], use.names = FALSE))
  out$lines <- vector("list", k)
  out$lines[ok] <- group_lines(esc, rep.int(seq_along(ok), lens), length(ok))
  out
}
