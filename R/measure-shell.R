# The shell's share of a run: the calibration before the runs (which also
# gives the spawn floor), the calibration pair before each run of a version
# run by the shell, and the times with the share subtracted.

# The spawn floor (median wall time of a direct run of `true`) and, when
# some version runs through the shell, the shell's share of a run: the
# medians of `sh -c ''` and of a direct `true`, run alternately (30 each
# after 3 warm-ups), and their differences, never below 0.
measure_calibrate <- function(launcher, shell, server = NULL) {
  true_path <- measure_find_program("true")
  direct <- if (nzchar(true_path)) {
    list(path = true_path, args = "true")
  } else {
    list(path = NULL, args = "")     # no `true` program: the shell's own
  }
  sh <- list(path = NULL, args = "")
  ctx <- list(output = NULL, timeout = Inf, timer = list(launcher = launcher),
              server = server)
  n <- if (shell) 33L else 5L
  warm <- if (shell) 3L else 1L
  one <- function(v) {
    r <- measure_spawn(v, ctx)
    if (identical(r$status, 2L)) reraise_interrupt()
    r
  }
  d <- vector("list", n)
  s <- vector("list", n)
  batched <- measure_calibrate_batch(server, direct, sh, n, shell)
  if (!is.null(batched)) {
    d <- batched$direct
    s <- batched$shell
  } else {
    for (i in seq_len(n)) {
      d[[i]] <- one(direct)
      if (shell) s[[i]] <- one(sh)
    }
  }
  med <- function(runs, what) {
    x <- vapply(runs[-seq_len(warm)], function(r) {
      if (identical(r$status, 0L) && identical(r$exit_status, 0L)) r[[what]] else NA_real_
    }, 1)
    if (all(is.na(x))) NA_real_ else stats::median(x, na.rm = TRUE)
  }
  out <- list(floor = med(d, "wall"),
              rss_floor = suppressWarnings(max(vapply(d, `[[`, 1, "rss_floor"),
                                               na.rm = TRUE)),
              shell = NULL)
  if (!is.finite(out$rss_floor)) out$rss_floor <- NA_real_
  if (shell) {
    keep <- function(runs) {
      runs <- runs[-seq_len(warm)]
      ok <- vapply(runs, function(r) identical(r$status, 0L) && identical(r$exit_status, 0L),
                   TRUE)
      m <- matrix(vapply(runs[ok], function(r) c(r$wall, r$user, r$sys), numeric(3)),
                  ncol = 3L, byrow = TRUE)
      m
    }
    samples <- list(shell = keep(s), direct = if (nzchar(true_path)) keep(d) else
      matrix(numeric(), 0L, 3L))
    out$shell <- c(
      measure_shell_share(samples$shell, samples$direct),
      list(command = "/bin/sh -c ''",
           direct = if (nzchar(true_path)) true_path else NA_character_,
           samples = samples,
           spawn = list(shell = sh, direct = if (nzchar(true_path)) direct else NULL)))
  }
  out
}

# The calibration runs made by the launcher in one batch (a direct `true`,
# then `sh -c ''` when `shell`, n times): list(direct, shell) of runs as
# ffi_launcher_run gives them, or NULL when the batch did not complete.
measure_calibrate_batch <- function(server, direct, sh, n, shell) {
  if (is.null(server)) return(NULL)
  paths <- c(if (is.null(direct$path)) NA_character_ else direct$path, NA_character_)
  steps <- if (shell) rep(1:2, n) else rep(1L, n)
  res <- .Call(ffi_launcher_batch, server, paths, list(direct$args, sh$args), steps,
               NULL, Inf)
  if (identical(res$status, 2L)) reraise_interrupt()
  if (!identical(res$status, 0L) || res$done != length(steps)) return(NULL)
  m <- res$runs
  as_run <- function(k) list(status = 0L, wall = m[k, 1L], user = m[k, 2L],
                             sys = m[k, 3L], max_rss = m[k, 4L],
                             exit_status = as.integer(m[k, 5L]), rss_floor = m[k, 10L])
  list(direct = lapply(which(steps == 1L), as_run),
       shell = if (shell) lapply(which(steps == 2L), as_run) else vector("list", n))
}

# The shell's share of a run from the calibration runs (matrices of wall,
# user and sys, one row per run): the differences of the medians of `sh -c
# ''` and of a direct `true`, never below 0.
measure_shell_share <- function(shell, direct) {
  col_median <- function(m, j) if (nrow(m)) stats::median(m[, j]) else 0
  share <- vapply(1:3, function(j) max(col_median(shell, j) - col_median(direct, j), 0), 1)
  list(wall = share[1L], user = share[2L], sys = share[3L],
       shell_wall = col_median(shell, 1L),
       direct_wall = if (nrow(direct)) col_median(direct, 1L) else NA_real_,
       runs = nrow(shell))
}

# An interrupt the C core consumed before any run was made: signalled again
# as R would (handlers for "interrupt" see it), then back to the top level.
reraise_interrupt <- function() {
  signalCondition(structure(class = c("interrupt", "condition"),
                            list(message = "", call = NULL)))
  invokeRestart("abort")
}

# One calibration run, of `sh -c ''` (what = "shell") or of a direct `true`
# ("direct"), recorded in st; FALSE when interrupted.  (Runs made by the
# launcher's batches are recorded by measure_loop().)
measure_calibration_one <- function(st, ctx, what) {
  v <- ctx$timer$shell$spawn[[what]]
  if (is.null(v)) return(TRUE)
  r <- measure_spawn(v, ctx)
  if (identical(r$status, 2L)) return(FALSE)
  if (identical(r$status, 0L) && identical(r$exit_status, 0L)) {
    row <- c(r$wall, r$user, r$sys)
    if (what == "shell") st$cal_shell <- rbind(st$cal_shell, row) else
      st$cal_direct <- rbind(st$cal_direct, row)
  }
  TRUE
}

# The shell's share of a run from all the calibration runs so far (the
# difference of the medians, not below 0), and the times of the runs so far
# with it subtracted from the runs of the versions run by the shell:
# list(time, user, sys, correction, shell).
measure_corrected <- function(st, ctx) {
  k <- seq_len(st$n)
  time <- st$time[k]
  user <- st$user[k]
  sys <- st$sys[k]
  # R code: the harness's share, subtracted when the runs were recorded
  correction <- if (length(st$harness) >= st$n) st$harness[k] else numeric(length(k))
  sh <- ctx$timer$shell
  if (!is.null(sh)) sh$samples <- sh$spawn <- NULL
  if (is.null(sh) || !nrow(st$cal_shell)) {
    return(list(time = time, user = user, sys = sys, correction = correction, shell = sh))
  }
  now <- measure_shell_share(st$cal_shell, st$cal_direct)
  sh[names(now)] <- now
  share <- c(now$wall, now$user, now$sys)
  launch <- vapply(ctx$versions, function(v) v$launch %||% "R", "")
  by_shell <- launch[st$version[k]] == "shell"
  floor <- max(ctx$timer$resolution, 1e-9, na.rm = TRUE)
  correction[by_shell] <- pmax(pmin(share[1L], time[by_shell] - floor), 0)
  time[by_shell] <- time[by_shell] - correction[by_shell]
  user[by_shell] <- pmax(user[by_shell] - share[2L], 0)
  sys[by_shell] <- pmax(sys[by_shell] - share[3L], 0)
  list(time = time, user = user, sys = sys, correction = correction, shell = sh)
}
