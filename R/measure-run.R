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
