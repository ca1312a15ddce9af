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
  st$status_text <- sprintf("| look %d: %s (p %s/%s)", j,
                            if (look$decision == "none") "undecided" else look$decision,
                            format(signif(look$p_speedup, 2)),
                            format(signif(look$p_slowdown, 2)))
  look$decision != "none"
}
