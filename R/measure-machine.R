# The machine and the timer measure() records: the CPU, cores, kernel and
# load averages; the clock's resolution and the overhead of a run.

measure_loadavg <- function() {
  l <- tryCatch(readLines("/proc/loadavg", warn = FALSE), error = function(e) character(),
                warning = function(w) character())
  if (!length(l)) return(c(`1` = NA_real_, `5` = NA_real_, `15` = NA_real_))
  stats::setNames(suppressWarnings(as.numeric(strsplit(l[1L], " ")[[1L]][1:3])),
                  c("1", "5", "15"))
}

measure_machine <- function() {
  cpu <- tryCatch(readLines("/proc/cpuinfo", warn = FALSE), error = function(e) character(),
                  warning = function(w) character())
  model <- grep("^model name", cpu, value = TRUE)
  model <- if (length(model)) sub("^model name\\s*:\\s*", "", model[1L]) else NA_character_
  cores <- length(grep("^processor", cpu))
  if (!cores) cores <- NA_integer_
  si <- Sys.info()
  list(cpu_model = model, cores = as.integer(cores),
       kernel = paste(si[["sysname"]], si[["release"]]),
       os_version = si[["version"]], r_version = R.version.string,
       load_before = measure_loadavg(), load_after = NULL, started = Sys.time(),
       finished = NULL)
}

measure_timer <- function(versions, output, launcher = measure_launcher(), server = NULL) {
  clock <- .Call(ffi_clock_info, 20000L)
  kinds <- vapply(versions, `[[`, "", "kind")
  launch <- vapply(versions, function(v) v$launch %||% "R", "")
  over_cmd <- NA_real_
  floor <- NA_real_
  shell <- NULL
  if (any(kinds == "command")) {
    cal <- measure_calibrate(launcher, shell = any(launch == "shell"), server = server)
    over_cmd <- cal$floor
    floor <- cal$rss_floor
    shell <- cal$shell
  }
  over_r <- NA_real_
  if (any(kinds != "command")) {
    # the harness's own time around one evaluation (two clock readings)
    over_r <- stats::median(vapply(1:51, function(i) .Call(ffi_eval_overhead, 1L), 1))
  }
  list(clock = "CLOCK_MONOTONIC", resolution = clock$resolution, tick = clock$tick,
       overhead_command = over_cmd, overhead_r = over_r, rss_floor = floor,
       launcher = if (any(kinds == "command")) launcher else NA_character_,
       server = !is.null(server), shell = shell)
}
