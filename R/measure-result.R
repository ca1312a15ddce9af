# The result of measure(): the runs made, as speedup_timings with the
# machine, timer, versions and sequential looks as attributes; and the
# warning about runs too short to time.

measure_timings <- function(st, ctx, seq_rule) {
  n <- st$n
  k <- seq_len(n)
  nms <- vapply(ctx$versions, `[[`, "", "name")
  version <- factor(nms[st$version[k]], levels = nms)
  machine <- ctx$machine
  machine$load_after <- measure_loadavg()
  machine$finished <- Sys.time()
  cor <- measure_corrected(st, ctx)
  timer <- ctx$timer
  if (!is.null(timer$shell)) timer$shell <- cor$shell
  attrs <- list(machine = machine, timer = timer, order = ctx$order,
                warmup = ctx$warmup,
                versions = stats::setNames(
                  vapply(ctx$versions, function(v) paste0(v$kind, ": ", v$label), ""), nms))
  if (identical(seq_rule$kind, "steady")) {
    attrs$steady <- steady_attr(st, seq_rule)
  } else if (!is.null(seq_rule)) {
    looks <- do.call(rbind, st$looks)
    last <- if (length(st$looks)) nrow(looks) else 0L
    attrs$sequential <- list(
      test = seq_rule$test, alpha = seq_rule$alpha, max_runs = seq_rule$max_runs,
      planned_looks = seq_rule$looks, looks = looks,
      decision = if (last) looks$decision[last] else NA_character_,
      level = if (last) looks$level[last] else NA_real_,
      spending = "Lan-DeMets O'Brien-Fleming type, union bound per direction")
  }
  attrs$launch <- stats::setNames(vapply(ctx$versions, function(v) v$launch %||% "R", ""),
                                  nms)
  # interleaved: complete rounds of one run of each version, in plan order
  round <- if (identical(ctx$order, "interleaved")) {
    as.integer((k - 1L) %/% length(nms) + 1L)
  } else {
    rep(NA_integer_, n)
  }
  # each run of a command is a process of its own; R code runs in the session
  process <- ifelse(attrs$launch[st$version[k]] == "R", 0L, k)
  new_speedup_timings(
    benchmark = rep(ctx$name, n), version = version, time = cor$time,
    run = k, round = round, process = as.integer(process), user = cor$user,
    sys = cor$sys, max_rss = st$max_rss[k], exit_status = st$exit_status[k],
    correction = cor$correction,
    timestamp = as.POSIXct(st$start[k], origin = "1970-01-01"),
    source = "measure", run_order = "global", attrs = attrs)
}

check_short_runs <- function(out, ctx) {
  if (!nrow(out)) return(invisible())
  timer <- ctx$timer
  if (is.null(timer$resolution)) return(invisible())
  res <- max(timer$resolution, timer$tick, na.rm = TRUE)
  kinds <- vapply(ctx$versions, `[[`, "", "kind")
  names(kinds) <- vapply(ctx$versions, `[[`, "", "name")
  med <- tapply(out$time, out$version, stats::median)
  batch <- timer$batch
  short <- character()
  for (nm in names(med)) {
    if (is.na(med[[nm]])) next
    over <- if (kinds[[nm]] == "command") timer$overhead_command else timer$overhead_r
    # R code is timed in batches: the clock reads a whole batch
    b <- if (!is.null(batch) && nm %in% names(batch) && !is.na(batch[[nm]])) batch[[nm]] else 1
    if (b * med[[nm]] < 100 * res || (!is.na(over) && b * med[[nm]] < 1.5 * over)) {
      short <- c(short, sprintf("`%s` (median %s s; start-up %s s)", nm,
                                format(signif(med[[nm]], 3)), format(signif(over, 3))))
    }
  }
  if (length(short)) {
    warn(paste0("Runs too short to time reliably: ", paste(short, collapse = ", "),
                ". Repeat the work inside each run (a loop in the command or the function) ",
                "so that a run lasts far longer than the timer's resolution and the start-up."),
         class = "short_runs")
  }
  invisible()
}
