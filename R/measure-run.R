# Running one version of measure() once: a command through
# measure_spawn(), R code in the session with the same clock; and the
# `.setup` and `.cleanup` hooks around a run.

# Returns list(time, user, sys, max_rss, exit_status, start, status,
# correction) with status "ok", "failed", "not_found", "timeout",
# "interrupted", "spawn" or "error" (R code; the condition in `condition`).
measure_run_version <- function(v, ctx) {
  if (v$kind == "command") {
    r <- measure_spawn(v, ctx)
    status <- switch(as.character(r$status),
      "0" = if (identical(r$exit_status, 0L)) "ok" else
        if (identical(r$exit_status, 127L)) "not_found" else "failed",
      "1" = "timeout", "2" = "interrupted", "spawn")
    # Without the launcher's report, a peak not above R's own is R's, not
    # the command's (the kernel carries it across exec).
    max_rss <- if (isTRUE(r$launched) || is.na(r$rss_floor) ||
                   isTRUE(r$max_rss > r$rss_floor)) {
      r$max_rss
    } else {
      NA_real_
    }
    time <- r$wall
    user <- r$user
    sys <- r$sys
    return(list(time = time, user = user, sys = sys, max_rss = max_rss,
                exit_status = r$exit_status, start = r$start_time, status = status,
                message = r$error))
  }
  measure_run_r(v, ctx)
}

measure_run_r <- function(v, ctx, arg = NULL) {
  fun <- v$what
  expr <- v$what
  env <- ctx$env
  limited <- is.finite(ctx$timeout)
  cnd <- NULL
  start <- as.double(Sys.time())
  p0 <- proc.time()
  t0 <- .Call(ffi_monotonic_now)
  ok <- tryCatch({
    if (limited) setTimeLimit(elapsed = ctx$timeout, transient = TRUE)
    if (v$kind == "function") {
      if (is.null(arg)) fun() else fun(arg)
    } else {
      eval(expr, env)
    }
    TRUE
  }, error = function(e) {
    cnd <<- e
    FALSE
  }, finally = if (limited) setTimeLimit(elapsed = Inf))
  t1 <- .Call(ffi_monotonic_now)
  p1 <- proc.time()
  status <- "ok"
  # setTimeLimit() acts only where R checks for interrupts: code that does
  # not check (a sleep, compiled code) runs on, so the run's length decides.
  if (limited && t1 - t0 > ctx$timeout) {
    status <- "timeout"
  } else if (!ok) {
    status <- if (limited && grepl("time limit", conditionMessage(cnd), fixed = TRUE) &&
                  t1 - t0 >= 0.9 * ctx$timeout) "timeout" else "error"
  }
  list(time = t1 - t0, user = unname(p1[["user.self"]] - p0[["user.self"]]),
       sys = unname(p1[["sys.self"]] - p0[["sys.self"]]), max_rss = NA_real_,
       exit_status = NA_integer_, start = start, status = status, condition = cnd)
}

measure_run_hook <- function(hook, version_name, ctx) {
  if (is.null(hook)) return(list(status = "ok"))
  if (hook$kind == "command") return(measure_run_version(hook, ctx))
  measure_run_r(hook, ctx, arg = if (isTRUE(hook$takes_version)) version_name else NULL)
}

# ---- R code in batches --------------------------------------------------------

# What ffi_eval_runs() evaluates for a version of R code: the call `f()` of
# a function, or the expression itself.
measure_r_call <- function(v) {
  if (v$kind == "function") as.call(list(v$what)) else v$what
}

# The number of evaluations per run of each version of R code (st$batch)
# and the harness's time per evaluation (st$harness_per), the way
# bench::mark sizes its work to the clock: a run is a batch of evaluations
# that lasts at least 1000 times the clock's step (its resolution, or the
# smallest step seen between two readings, whichever is larger; 20 ns on
# the machine of bench/README.md, so 20 us), and the two readings around it
# weigh at most 0.1 % of it.  Sized after the warm-up: code whose warm-up
# run lasted 100 times that is run once per run with no more evaluations;
# other code is timed in batches of growing size (the shortest of 3 batches
# of each size, so that a collection or the byte compiler does not stop the
# growth early; at most 10 times larger each time and 1e6 in all) until
# one lasts that long.  With `.setup` or `.cleanup` every run is one
# evaluation (the hooks surround each), and `.batch` fixes the size.  The
# harness's share of a batch (the loop and the clock readings) is the
# median of 5 batches of the same size that evaluate R's NULL constant; it
# is subtracted from each run.  Returns NULL, or the condition of an error
# raised by the code.
measure_batches <- function(st, ctx) {
  calls <- ctx$r_calls
  nc <- length(calls)
  st$batch <- rep(1L, nc)
  st$harness_per <- rep(0, nc)
  if (!nc) return(NULL)
  res <- max(ctx$timer$resolution, ctx$timer$tick, 1e-9, na.rm = TRUE)
  target <- 1000 * res
  owner <- match(seq_len(nc), ctx$r_id)
  for (j in seq_len(nc)) {
    b <- 1L
    if (!is.null(ctx$batch)) {
      b <- ctx$batch
    } else if (is.null(ctx$setup) && is.null(ctx$cleanup)) {
      warm <- if (length(st$warm_time) >= owner[j]) st$warm_time[owner[j]] else NA_real_
      if (is.na(warm) || warm < 100 * target) {
        t <- NA_real_
        repeat {
          t <- tryCatch(min(vapply(1:3, function(i) measure_eval_time(calls, ctx, j, b), 1)),
                        error = function(e) e)
          if (inherits(t, "error")) return(list(condition = t, version = owner[j]))
          if (t >= target || b >= 1e6) break
          grow <- min(10, max(2, ceiling(1.2 * target / max(t, 1e-10))))
          b <- as.integer(min(1e6, b * grow))
        }
      }
    }
    st$batch[j] <- b
    st$harness_per[j] <- stats::median(vapply(1:5, function(i) {
      .Call(ffi_eval_overhead, b)
    }, 1)) / b
  }
  NULL
}

# The wall time of one batch of `b` evaluations of calls[[j]].
measure_eval_time <- function(calls, ctx, j, b) {
  out <- matrix(NA_real_, 1L, 4L)
  count <- c(0L, 0L)[1L]
  batch <- rep(1L, length(calls))
  batch[j] <- b
  limited <- is.finite(ctx$timeout %||% Inf)
  limit <- if (limited) call("setTimeLimit", elapsed = ctx$timeout, transient = TRUE)
  reset <- if (limited) call("setTimeLimit", elapsed = Inf)
  on.exit(if (limited) setTimeLimit(elapsed = Inf))
  .Call(ffi_eval_runs, calls, ctx$env, j, batch, limit, reset, out, count)
  if (limited && out[1L, 1L] > ctx$timeout) {
    stop(structure(class = c("speeduptest_batch_timeout", "error", "condition"),
                   list(message = "reached elapsed time limit", call = NULL)))
  }
  out[1L, 1L]
}

# The batch size of each version (NA for commands), for attr(, "timer").
measure_batch_sizes <- function(st, ctx) {
  nms <- vapply(ctx$versions, `[[`, "", "name")
  out <- stats::setNames(rep(NA_integer_, length(nms)), nms)
  if (is.null(st$batch) || is.null(ctx$r_id)) return(out)
  has <- !is.na(ctx$r_id)
  out[has] <- as.integer(st$batch[ctx$r_id[has]])
  out
}
