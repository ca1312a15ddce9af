# The parts of many verdicts made at once: a comparison of thousands of
# benchmarks (`speeduptest compare`, report_site()) reads the caveats, the
# advice, the smallest attainable alpha and the detectable speedup of
# every verdict.  Made one verdict at a time, the ratio of the medians
# (R/median-ratio.R) and the smallest attainable alpha (R/attainable.R)
# cost a sort and a call of the core each, for each verdict; here they are
# made for all the verdicts of a list in one sort of all their runs and
# one call of the core, with the same arithmetic value by value, and kept
# in each verdict as if it had made them when read (verdict_keep()).
# Verdicts these vector forms do not cover (the paired design, samples
# that are not plain doubles) make their parts when read, as before.

# Makes the parts median_ratio and min_alpha of the verdicts in `vs` (a
# list; elements that are not verdicts are skipped).  Returns `vs`
# invisibly (the parts live in the verdicts' caches).
verdicts_prime <- function(vs) {
  vs <- unname(vs)
  is_v <- vapply(vs, inherits, TRUE, what = "speedup_verdict")
  if (!any(is_v)) return(invisible(vs))
  idx <- which(is_v)
  plain <- vapply(vs[idx], function(v) {
    lz <- attr(v, "lazy", exact = TRUE)
    x <- .subset2(v, "x")
    y <- .subset2(v, "y")
    is.environment(lz$cache) && !identical(lz$design, "paired") &&
      is.double(x) && is.double(y) && !anyNA(x) && !anyNA(y)
  }, TRUE)
  idx <- idx[plain]
  if (!length(idx)) return(invisible(vs))
  xs <- lapply(vs[idx], .subset2, "x")
  ys <- lapply(vs[idx], .subset2, "y")
  alpha <- vapply(vs[idx], function(v) as.double(.subset2(v, "alpha")), 0, USE.NAMES = FALSE)
  # the ratio of the medians, where the protocol reports it
  has_mr <- vapply(vs[idx], function(v) "median_ratio" %in% names(v) &&
                     is.null(.subset2(v, "median_ratio")), TRUE)
  if (any(has_mr)) {
    mr <- median_ratio_bp_all(xs[has_mr], ys[has_mr], alpha[has_mr])
    j <- which(has_mr)
    for (k in seq_along(j)) verdict_keep(vs[[idx[j[k]]]], "median_ratio", mr[[k]])
  }
  # the smallest attainable alpha of the rank protocols
  tests <- vapply(vs[idx], function(v) as.character(.subset2(v, "test"))[1L], "",
                  USE.NAMES = FALSE)
  by_rank <- vapply(unique(tests), attainable_by_rank, TRUE)
  rank <- by_rank[tests] & vapply(vs[idx], function(v) {
    "min_alpha" %in% names(v) && is.null(.subset2(v, "min_alpha"))
  }, TRUE)
  if (any(rank)) {
    j <- which(rank)
    s0 <- vapply(vs[idx[j]], function(v) {
      s <- .subset2(v, "min_speedup")
      if (is.null(s)) 1 else as.double(s)
    }, 0, USE.NAMES = FALSE)
    tj <- tests[j]
    for (tst in unique(tj)) {
      jj <- j[tj == tst]
      p <- min_alpha_rank_all(xs[jj], ys[jj], s0[tj == tst], tst)
      for (k in seq_along(jj)) {
        if (!is.null(p[[k]])) verdict_keep(vs[[idx[jj[k]]]], "min_alpha", p[[k]])
      }
    }
  }
  invisible(vs)
}

# Whether the descriptor of protocol `test` finds its smallest attainable
# alpha by its rank tests on the extreme arrangements (attainable_rank()),
# which min_alpha_rank_all() makes for many verdicts at once.
attainable_by_rank <- function(test) {
  fn <- tryCatch(protocol_info(test)$calls$attainable, error = function(e) NULL)
  if (is.null(fn)) return(FALSE)
  f <- get0(fn, envir = topenv(environment()), mode = "function")
  !is.null(f) && identical(body(f), body(attainable_rank(test))) &&
    identical(environment(f)$test, test)
}

# The runs of each sample of a list sorted within the sample: the values,
# the sample of each (1..k) and the start of each sample (0-based).
group_sorted <- function(samples) {
  len <- lengths(samples)
  g <- rep.int(seq_along(samples), len)
  v <- unlist(samples, use.names = FALSE)
  o <- order(g, v)
  list(v = v[o], g = g[o], len = len, start = cumsum(c(0L, len))[seq_along(samples)])
}

# median_var_bp() of every sorted sample (sorted values v, start, len).
median_var_bp_all <- function(v, start, len) {
  out <- rep(NA_real_, length(len))
  ok <- len >= 3L
  n <- len[ok]
  c <- pmax(1L, pmin(as.integer(round((n + 1) / 2 - sqrt(n))), n %/% 2L))
  a <- 2 * stats::pbinom(c - 1L, n, 0.5)
  fine <- a > 0 & a < 1
  z <- stats::qnorm(1 - a / 2)
  s <- start[ok]
  val <- ((v[s + n - c + 1L] - v[s + c]) / (2 * z))^2
  val[!fine] <- NA_real_
  out[ok] <- val
  out
}

# median_ratio_bp() of the pairs of samples xs[[i]], ys[[i]] at alpha[i]:
# a list of c(estimate, low, high).
median_ratio_bp_all <- function(xs, ys, alpha) {
  k <- length(xs)
  na <- c(estimate = NA_real_, low = NA_real_, high = NA_real_)
  out <- rep(list(na), k)
  ok <- lengths(xs) >= 10L & lengths(ys) >= 10L & alpha < 0.5
  if (!any(ok)) return(out)
  i <- which(ok)
  lx <- group_sorted(lapply(xs[i], log))
  ly <- group_sorted(lapply(ys[i], log))
  ki <- length(i)
  mx <- group_median(unlist(xs[i], use.names = FALSE),
                     rep.int(seq_len(ki), lengths(xs[i])), ki)
  my <- group_median(unlist(ys[i], use.names = FALSE),
                     rep.int(seq_len(ki), lengths(ys[i])), ki)
  d <- log(mx) - log(my)
  se <- sqrt(median_var_bp_all(lx$v, lx$start, lx$len) +
               median_var_bp_all(ly$v, ly$start, ly$len))
  z <- stats::qnorm(1 - alpha[i])
  est <- exp(d)
  low <- exp(d - z * se)
  high <- exp(d + z * se)
  for (k2 in which(!is.na(se))) {
    out[[i[k2]]] <- c(estimate = est[k2], low = low[k2], high = high[k2])
  }
  out
}

# attainable_rank(test)() of the unpaired pairs of samples xs[[i]],
# ys[[i]] at the tolerances s0[i]: the most extreme arrangements of each
# pair's values built for all pairs from two sorts, their tolerance
# p-values from one call of the core (ffi_tolerance_suite, the test each
# pair's own call makes).  A list of c(speedup, slowdown); NULL where a
# pair is left to verdict_min_alpha() (fewer than 3 runs, a p-value the
# core did not give).
min_alpha_rank_all <- function(xs, ys, s0, test) {
  k <- length(xs)
  out <- vector("list", k)
  n <- lengths(xs)
  m <- lengths(ys)
  ok <- which(n >= 3L & m >= 3L & is.finite(s0) & s0 > 0)
  if (!length(ok)) return(out)
  xs <- xs[ok]
  ys <- ys[ok]
  n <- n[ok]
  m <- m[ok]
  s0 <- s0[ok]
  kk <- length(ok)
  # the speedup: z = sort(c(x, s0 y)); x' = the n largest, y' = the m
  # smallest over s0
  up <- group_sorted(Map(function(x, y, s) c(x, s * y), xs, ys, s0))
  div <- sequence(m, up$start + 1L)
  up$v[div] <- up$v[div] / rep.int(s0, m)
  # the slowdown: z = sort(c(y, s0 x)); x' = the n smallest over s0, y'
  # = the m largest
  down <- group_sorted(Map(function(x, y, s) c(y, s * x), xs, ys, s0))
  div <- sequence(n, down$start + 1L)
  down$v[div] <- down$v[div] / rep.int(s0, n)
  code <- protocol_code(test)
  al <- rep(0.05, kk)
  p_up <- rep(NA_real_, kk)
  p_down <- rep(NA_real_, kk)
  for (s in unique(s0)) {
    w <- which(s0 == s)
    done <- tryCatch({
      pu <- .Call(ffi_tolerance_suite, up$v, as.double(up$start[w] + m[w]), as.double(n[w]),
                  as.double(up$start[w]), as.double(m[w]), code, al[w], s)
      pd <- .Call(ffi_tolerance_suite, down$v, as.double(down$start[w]), as.double(n[w]),
                  as.double(down$start[w] + n[w]), as.double(m[w]), code, al[w], s)
      TRUE
    }, error = function(e) FALSE)
    if (!done) next
    p_up[w] <- pu[, 1L]
    p_down[w] <- pd[, 2L]
  }
  for (k2 in which(!is.na(p_up) & !is.na(p_down))) {
    out[[ok[k2]]] <- c(speedup = p_up[k2], slowdown = p_down[k2])
  }
  out
}

# verdict_detectable(v, alpha = alpha) of the verdicts vs[want] (NA
# elsewhere and for what is not a verdict): the median protocol's for all
# of them at once (detectable_median_at() takes vectors), the others one
# by one.
verdicts_detectable <- function(vs, want, alpha, power = 0.8) {
  vs <- unname(vs)
  out <- rep(NA_real_, length(vs))
  idx <- which(want & vapply(vs, inherits, TRUE, what = "speedup_verdict"))
  if (!length(idx)) return(out)
  fn <- vapply(vs[idx], function(v) {
    protocol_info(.subset2(v, "test"))$calls$detectable %||% ""
  }, "")
  vec <- fn == "detectable_median"
  for (i in idx[!vec]) out[i] <- verdict_detectable(vs[[i]], power = power, alpha = alpha)
  i <- idx[vec]
  if (!length(i)) return(out)
  n <- vapply(vs[i], function(v) v$n, 0)
  m <- vapply(vs[i], function(v) v$m, 0)
  s0 <- vapply(vs[i], function(v) if (is.null(v$min_speedup)) 1 else v$min_speedup, 0)
  blocked <- vapply(vs[i], function(v) isTRUE(v$min_alpha[["speedup"]] > alpha), TRUE)
  ci <- lapply(vs[i], function(v) {
    c <- as.double(v$speedup_ci)
    if (length(c) != 2L) c(NA_real_, NA_real_) else c
  })
  conf <- vapply(vs[i], function(v) {
    conf <- attr(v$speedup_ci, "conf.level")
    if (is.null(conf)) interval_level(v$alpha) else conf
  }, 0)
  lo <- vapply(ci, `[`, 0, 1L)
  hi <- vapply(ci, `[`, 0, 2L)
  vsi <- vs[i]
  sd_fun <- function(k) vapply(k, function(j) log_pooled_sd(vsi[[j]]$x, vsi[[j]]$y), 0)
  d <- rep(NA_real_, length(i))
  go <- n >= 2 & m >= 2 & !blocked
  if (any(go)) {
    g <- which(go)
    d[g] <- detectable_median_at(lo[g], hi[g], conf[g], n[g], m[g],
                                 function(k) sd_fun(g[k]), alpha, power, s0[g])
  }
  d[n >= 2 & m >= 2 & blocked] <- Inf
  out[i] <- d
  out
}
