# The sequential rule of measure(.until = "decided"): when the looks
# happen, the level of each (Lan-DeMets spending of O'Brien-Fleming type)
# and the look itself, the protocol run in both directions.

# The looks of the sequential mode: after 10 rounds, then each time the
# number of rounds has grown by half, and at max_runs.
sequential_looks <- function(max_runs) {
  looks <- integer()
  n <- min(10L, max_runs)
  repeat {
    looks <- c(looks, n)
    if (n >= max_runs) break
    n <- min(max_runs, max(n + 1L, as.integer(round(1.5 * n))))
  }
  looks
}

# Lan-DeMets spending function of O'Brien-Fleming type.
obf_spending <- function(t, alpha) {
  ifelse(t <= 0, 0, 2 * stats::pnorm(stats::qnorm(1 - alpha / 2) / sqrt(t),
                                     lower.tail = FALSE))
}

sequential_rule <- function(looks, max_runs, alpha, test) {
  spent <- obf_spending(looks / max_runs, alpha)
  levels <- diff(c(0, spent))
  list(looks = looks, levels = levels, spent = spent, alpha = alpha, test = test,
       max_runs = max_runs)
}

# One look: the protocol in both directions at the look's level.
sequential_look <- function(x, y, level, test) {
  rigorous <- min(length(x), length(y)) > 30L
  protocol <- protocol_fun(test)
  if (!(level > 0)) {
    return(list(decision = "none", p_speedup = NA_real_, p_slowdown = NA_real_,
                rigorous = rigorous))
  }
  v <- protocol(x, y, alpha = level, rigorous = rigorous)
  slow_v <- protocol(y, x, alpha = level, rigorous = rigorous)
  speedup <- isTRUE(v$significant)
  slowdown <- if (!is.null(v$direction)) {
    identical(v$direction, "slowdown")
  } else {
    isTRUE(slow_v$significant)
  }
  list(decision = if (speedup) "speedup" else if (slowdown) "slowdown" else "none",
       p_speedup = as.double(v$p_value), p_slowdown = as.double(slow_v$p_value),
       rigorous = rigorous)
}

sequential_step <- function(st, rule, j, ctx = NULL) {
  idx <- st$version[seq_len(st$n)]
  tm <- if (is.null(ctx)) st$time[seq_len(st$n)] else measure_corrected(st, ctx)$time
  x <- tm[idx == 1L]
  y <- tm[idx == 2L]
  look <- sequential_look(x, y, rule$levels[j], rule$test)
  st$looks[[j]] <- data.frame(look = j, runs = min(length(x), length(y)),
                              level = rule$levels[j], spent = rule$spent[j],
                              p_speedup = look$p_speedup, p_slowdown = look$p_slowdown,
                              rigorous = look$rigorous, decision = look$decision,
                              stringsAsFactors = FALSE)
  st$decision <- look$decision
  # the look and its decision (the p-values are in attr(, "sequential"))
  st$status_text <- sprintf("| look %d of %d: %s", j, length(rule$looks),
                            if (look$decision == "none") "undecided" else look$decision)
  look$decision != "none"
}

# ---- analysing the runs of a sequential stop again (SPEC section 10) ---------

# The sequential design of timings from measure(.until = "decided"): from
# the attribute "sequential", or, after the runs were written as a long CSV
# (`speeduptest measure --export`) and read back, from the columns
# `sequential_test`, `sequential_alpha` and `sequential_max_runs` of the
# benchmark's rows.  NULL for timings of a fixed design.
sequential_design <- function(t, benchmark = NULL) {
  s <- attr(t, "sequential", exact = TRUE)
  if (is.list(s) && !is.null(s$test) && !is.null(s$max_runs) && !is.null(s$alpha)) {
    return(list(test = s$test, alpha = s$alpha, max_runs = as.integer(s$max_runs),
                looks = as.integer(s$planned_looks %||% sequential_looks(s$max_runs))))
  }
  cols <- c("sequential_test", "sequential_alpha", "sequential_max_runs")
  if (!all(cols %in% names(t))) return(NULL)
  rows <- if (is.null(benchmark)) rep(TRUE, nrow(t)) else
    as.character(t$benchmark) == benchmark
  val <- function(cl) {
    v <- unique(.subset2(t, cl)[rows])
    v <- v[!is.na(v)]
    if (length(v) == 1L) v else NULL
  }
  test <- val(cols[1L])
  alpha <- suppressWarnings(as.double(val(cols[2L])))
  max_runs <- suppressWarnings(as.double(val(cols[3L])))
  if (is.null(test) || !length(alpha) || !length(max_runs) ||
      !as.character(test) %in% protocol_choices() ||
      !is.finite(alpha) || alpha <= 0 || alpha >= 1 ||
      !is.finite(max_runs) || max_runs < 2 || max_runs > 1e6 ||
      max_runs != round(max_runs)) {
    return(NULL)
  }
  list(test = as.character(test), alpha = alpha, max_runs = as.integer(max_runs),
       looks = sequential_looks(as.integer(max_runs)))
}

# The verdict of one benchmark of a sequential stop analysed again: the
# looks of the design repeated on the runs in the order they ran, at the
# levels of the design's spending (with the overall `alpha` given, else the
# design's), each look the protocol `test` on the first n_j runs of each
# version, unpaired and rigorous beyond 30 runs as the looks were; the
# verdict is that of the look that decided (or of the last look), at that
# look's level (with the tolerance `min_speedup`, each look's tests are
# those of the tolerance; the design stops on a speedup or a slowdown).
# Repeating the looks with another protocol than the one
# that stopped the runs keeps the bound: the chance of a false claim at any
# of the looks made is at most the sum of their levels, whatever decided
# when to stop.  The sequential p-value min_j (p_j alpha / alpha_j), at
# most alpha exactly when a look decided, is a p-value by the same union
# bound; `compare` adjusts it for multiplicity.  NULL when the runs do not
# reach the first look.
sequential_verdict <- function(test, parts, design, alpha, call, min_speedup = 1) {
  alpha <- check_alpha(alpha %||% design$alpha)
  kx <- !is.na(parts$x)
  ky <- !is.na(parts$y)
  x <- parts$x[kx]
  y <- parts$y[ky]
  pos <- parts$positions
  if (!is.null(pos)) pos <- list(x = pos$x[kx], y = pos$y[ky])
  looks <- design$looks
  levels <- diff(c(0, obf_spending(looks / design$max_runs, alpha)))
  n <- min(length(x), length(y))
  done <- which(looks <= n)
  if (!length(done)) return(NULL)
  p_sp <- p_sl <- p_eq <- rep(NA_real_, length(looks))
  v <- NULL
  last <- max(done)
  for (j in done) {
    k <- seq_len(looks[j])
    v <- run_protocol(test, x[k], y[k], levels[j], looks[j] > 30L, FALSE,
                      parts$labels, parts$data_name, call, parts$baseline,
                      positions = if (!is.null(pos)) list(x = pos$x[k], y = pos$y[k]),
                      min_speedup = min_speedup)
    p_sp[j] <- v$p_value
    p_sl[j] <- v$p_value_slowdown
    p_eq[j] <- v$p_value_equivalence %||% NA_real_
    if (isTRUE(v$direction %in% c("speedup", "slowdown"))) {
      last <- j
      break
    }
  }
  seq_p <- function(p) {
    q <- p[seq_len(last)] * alpha / levels[seq_len(last)]
    q <- q[!is.na(q)]
    if (length(q)) min(1, q) else NA_real_
  }
  unused <- n - looks[last]
  v$sequential <- list(test = design$test, alpha = alpha, max_runs = design$max_runs,
                       look = last, looks = length(looks), runs = looks[last],
                       level = levels[last], decision = v$direction,
                       p_value = seq_p(p_sp), p_value_slowdown = seq_p(p_sl),
                       p_value_equivalence = seq_p(p_eq),
                       unused = unused)
  v$notes <- c(v$notes, sequential_note(v$sequential, test, v$direction))
  v
}

sequential_note <- function(s, test, direction) {
  what <- if (isTRUE(direction %in% c("speedup", "slowdown")))
    sprintf("a %s declared at look %d of %d", direction, s$look, s$looks) else
    sprintf("no look decided (%d of %d looks made)", s$look, s$looks)
  c(sprintf("sequential design (measure(.until = \"decided\")): %s, after %d runs of each, at that look's level %s (the p-values above are the look's); each claim's overall risk is at most %s (Lan-DeMets spending of O'Brien-Fleming type, union bound): sequential p = %s",
            what, s$runs, fmt_p(s$level), format(s$alpha),
            fmt_p(if (identical(direction, "slowdown")) s$p_value_slowdown else s$p_value)),
    if (!identical(test, s$test))
      sprintf("the runs were stopped by the %s protocol; its looks are repeated here with the %s protocol, which keeps the same bound",
              s$test, test),
    if (s$unused > 0L)
      sprintf("%d later run%s of each version are not used (the design stops at its looks)",
              s$unused, if (s$unused == 1L) "" else "s"))
}

# The note of a fixed-design analysis of a sequential stop (forced by
# `design`, `replication` or `warmup`).
sequential_fixed_note <- function() {
  "these runs were stopped by a sequential design (measure(.until = \"decided\")); this fixed-design analysis (asked for by `design`, `replication` or `warmup`) does not keep its risk: analyse them with the defaults for the sequential verdict"
}
