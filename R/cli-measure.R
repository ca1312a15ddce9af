# `speeduptest measure`: measure() on the command line, with hyperfine's
# names for its options, and the harness that runs a Google Benchmark
# program in interleaved rounds of processes.  cli_measure() parses the
# arguments after "measure", measures with measure() and returns the exit
# status; speeduptest_cli() and the installed script dispatch to it.

#' Measure commands on the command line, interleaved (for continuous integration)
#'
#' `speeduptest measure [options] -n NAME CMD -n NAME CMD ...` times shell
#' commands with [measure()]'s engine: interleaved rounds in a fresh random
#' order by default (a slow period of the machine hits every version alike),
#' each run its own process, warm-up runs, a monotonic clock. It writes the
#' runs with their rounds and processes to the long CSV that
#' [read_timings()] and `speeduptest compare` read, so the verdicts are
#' paired by round and guaranteed (SPEC sections 9 and 10b), and prints the
#' versions' times and the verdict of the last version against the first.
#'
#' ```
#' speeduptest measure [-r N] [-w N] [-s CMD] [-p CMD] [-c CMD] [--timeout S]
#'                     [--until fixed|decided|steady] [--max-runs N]
#'                     [--order interleaved|random|blocks] [-N]
#'                     [--export FILE] [--benchmark NAME]
#'                     [--harness gbench [--metric real_time|cpu_time]]
#'                     -n NAME CMD [-n NAME CMD ...]
#' ```
#'
#' Options (hyperfine's names where hyperfine has them):
#' * `-n NAME`, `--command-name NAME`: the name of a version; the i-th name
#'   names the i-th command (unnamed commands are named by themselves). The
#'   first command is the initial code.
#' * `-r N`, `--runs N`: runs (rounds) of each version (default 31; with
#'   `--harness gbench`, 10 processes of each).
#' * `-w N`, `--warmup N`: unrecorded warm-up rounds (default 1).
#' * `-s CMD`, `--setup CMD`: a command run once before the measurement.
#' * `-p CMD`, `--prepare CMD`: a command run before every run, not timed
#'   ([measure()]'s `.setup`).
#' * `-c CMD`, `--cleanup CMD`: a command run once after the measurement.
#' * `--timeout S`: the longest run in seconds.
#' * `--until decided`: the sequential mode of [measure()], which stops as
#'   soon as the median protocol decides (`--max-runs N`, default 100;
#'   `--alpha A`, `--test P`). `--until steady`: [measure()]'s
#'   `.until = "steady"`, which goes on until every version's runs have
#'   reached a steady state ([warmup_classify()]) at least `--runs` long,
#'   at most `--max-runs`.
#' * `--order interleaved|random|blocks`: the order of the runs (default
#'   interleaved rounds).
#' * `-N`, `--shell never|auto|always`: run the commands without a shell
#'   (`-N`, as hyperfine), by the shell only when they need one (default),
#'   or always by the shell.
#' * `--export FILE`: the runs as a long CSV (`benchmark`, `version`,
#'   `time` in seconds, `run`, `round`, `process`, and `user`, `sys`,
#'   `max_rss`, `exit_status` and `cpu` (user + sys) for commands; `compare
#'   --metric cpu` decides on the CPU time); `--benchmark NAME` names the
#'   benchmark (default: what the commands have in common, as
#'   [read_timings()] names a hyperfine benchmark).
#' * `--harness gbench`: each command is a Google Benchmark program; it is
#'   run `--runs` times per version, in interleaved rounds of random order,
#'   each run a process writing its JSON (the options
#'   `--benchmark_out=... --benchmark_out_format=json` are added), and every
#'   repetition of every benchmark is kept with its process and round
#'   (`--metric cpu_time` for the CPU time). The warm-up runs are not kept.
#' * `--output FILE`: append the commands' output to FILE (default: discarded).
#' * `--progress` / `--no-progress`: the progress line (default: on a
#'   terminal, and never in a pipe or a file).
#' * `-q`, `--quiet`: print nothing but errors.
#'
#' @param args The arguments after `measure` (a character vector).
#' @return The exit status, invisibly: 0 after a measurement (the timings are
#'   attached as the attribute `"timings"`), 2 on bad input or a failed
#'   command (the message is written on the standard error).
#' @seealso [measure()], [cli_compare()], [read_timings()]
#' @examples
#' \donttest{
#' out <- tempfile(fileext = ".csv")
#' status <- speeduptest:::cli_measure(c("-r", "5", "--export", out, "-q",
#'   "-n", "short", "sleep 0.01", "-n", "long", "sleep 0.02"))
#' read_timings(out)
#' }
#' @keywords internal
cli_measure <- function(args = character()) {
  opts <- tryCatch(measure_parse_args(args), speeduptest_error = function(e) e)
  if (inherits(opts, "error")) return(measure_cli_fail(conditionMessage(opts)))
  if (isTRUE(opts$help)) {
    cat(measure_cli_usage(), sep = "\n")
    return(invisible(0L))
  }
  t <- tryCatch(withCallingHandlers(measure_cli_run(opts), warning = function(w) {
    if (!opts$quiet) message("note: ", conditionMessage(w))
    invokeRestart("muffleWarning")
  }), error = function(e) e)
  if (inherits(t, "error")) return(measure_cli_fail(conditionMessage(t), usage = FALSE))
  if (!is.null(opts$export)) {
    ok <- tryCatch({
      measure_cli_export(t, opts$export)
      TRUE
    }, error = function(e) e)
    if (!isTRUE(ok)) {
      return(measure_cli_fail(sprintf("cannot write '%s': %s", opts$export,
                                      conditionMessage(ok)), usage = FALSE))
    }
  }
  if (!opts$quiet) cat(measure_cli_summary(t, opts), sep = "\n")
  invisible(structure(0L, timings = t))
}

measure_cli_fail <- function(message, usage = TRUE) {
  cat("speeduptest measure: ", esc_text(message), "\n", sep = "", file = stderr())
  if (usage) {
    cat("Usage: speeduptest measure [options] -n NAME CMD -n NAME CMD ... (speeduptest measure --help)\n",
        file = stderr())
  }
  invisible(2L)
}

measure_cli_usage <- function() {
  c("Usage: speeduptest measure [options] -n NAME CMD [-n NAME CMD ...]",
    "",
    "Times the commands interleaved: rounds of one run of each command in a",
    "fresh random order, each run its own process; the first command is the",
    "initial code. Prints each version's time and the verdict of the last",
    "against the first; --export writes the runs for speeduptest compare.",
    "",
    "Options:",
    "  -n, --command-name NAME  the name of the next command",
    "  -r, --runs N       runs of each version (default 31; gbench: 10 processes)",
    "  -w, --warmup N     warm-up rounds, not recorded (default 1)",
    "  -s, --setup CMD    run once before the measurement",
    "  -p, --prepare CMD  run before every run, not timed",
    "  -c, --cleanup CMD  run once after the measurement",
    "  --timeout S        longest run, in seconds",
    "  --until U          fixed (default), decided: stop when the protocol",
    "                     decides (--max-runs N, default 100; --alpha, --test),",
    "                     or steady: stop when the runs reached a steady state",
    "  --order O          interleaved (default), random or blocks",
    "  -N, --shell S      -N: no shell; auto (default: only when needed), always",
    "  --export FILE      the runs as CSV (with rounds and processes)",
    "  --benchmark NAME   the benchmark's name in the CSV",
    "  --harness gbench   the commands are Google Benchmark programs: run each",
    "                     --runs times, interleaved, keeping every repetition",
    "  --metric M         with gbench: real_time (default) or cpu_time",
    "  --output FILE      append the commands' output to FILE",
    "  --progress, --no-progress  the progress line (default: on a terminal)",
    "  -q, --quiet        print nothing but errors",
    "",
    "Exit status: 0 after a measurement, 2 on bad input or a failed command.")
}

measure_parse_args <- function(args) {
  if (!is.character(args) || anyNA(args)) {
    abort("the arguments must be strings.")
  }
  opts <- list(names = character(), commands = character(), runs = NULL, warmup = 1L,
               setup = NULL, prepare = NULL, cleanup = NULL, timeout = Inf,
               until = "fixed", max_runs = 100L, order = "interleaved", shell = "auto",
               export = NULL, benchmark = NULL, harness = "none", metric = NULL,
               output = NULL, progress = NA, quiet = FALSE, alpha = 0.05,
               test = "median", help = FALSE)
  short <- c("-n" = "--command-name", "-r" = "--runs", "-w" = "--warmup",
             "-s" = "--setup", "-p" = "--prepare", "-c" = "--cleanup",
             "-q" = "--quiet", "-h" = "--help")
  with_value <- c("--command-name", "--runs", "--warmup", "--setup", "--prepare",
                  "--cleanup", "--timeout", "--until", "--max-runs", "--order",
                  "--shell", "--export", "--benchmark", "--harness", "--metric",
                  "--output", "--alpha", "--test")
  number <- function(val, key, min, max = 1e6) {
    v <- suppressWarnings(as.numeric(val))
    if (is.na(v) || v != round(v) || v < min || v > max) {
      abort(sprintf("%s must be a whole number from %s to %s, not \"%s\".", key,
                    format(min), format(max, big.mark = ","), val))
    }
    as.integer(v)
  }
  i <- 1L
  while (i <= length(args)) {
    a <- args[i]
    if (a %in% names(short)) a <- short[[a]]
    if (a == "--help") {
      opts$help <- TRUE
      return(opts)
    }
    if (a == "-N") {
      opts$shell <- "never"
      i <- i + 1L
      next
    }
    if (a %in% c("--quiet", "--progress", "--no-progress")) {
      if (a == "--quiet") opts$quiet <- TRUE else opts$progress <- a == "--progress"
      i <- i + 1L
      next
    }
    if (startsWith(a, "-") && nchar(a) > 1L) {
      key <- sub("=.*$", "", a)
      if (!(key %in% with_value)) abort(sprintf("unknown option \"%s\".", a))
      if (grepl("=", a, fixed = TRUE) && startsWith(a, "--")) {
        val <- sub("^[^=]*=", "", a)
      } else {
        if (i == length(args)) abort(sprintf("option %s needs a value.", key))
        i <- i + 1L
        val <- args[i]
      }
      switch(key,
        "--command-name" = {
          if (!nzchar(val)) abort("-n needs a non-empty name.")
          opts$names <- c(opts$names, val)
        },
        "--runs" = opts$runs <- number(val, key, 1),
        "--warmup" = opts$warmup <- number(val, key, 0),
        "--max-runs" = opts$max_runs <- number(val, key, 3),
        "--setup" = opts$setup <- val,
        "--prepare" = opts$prepare <- val,
        "--cleanup" = opts$cleanup <- val,
        "--timeout" = {
          v <- suppressWarnings(as.numeric(val))
          if (is.na(v) || v <= 0) {
            abort(sprintf("--timeout must be a positive number of seconds, not \"%s\".", val))
          }
          opts$timeout <- v
        },
        "--until" = opts$until <- check_choice(val, c("fixed", "decided", "steady"), key),
        "--order" = opts$order <- check_choice(val, c("interleaved", "random", "blocks"), key),
        "--shell" = opts$shell <- check_choice(val, c("auto", "always", "never"), key),
        "--export" = {
          if (!nzchar(val)) abort("--export needs a file name.")
          opts$export <- val
        },
        "--benchmark" = opts$benchmark <- val,
        "--harness" = opts$harness <- check_choice(val, c("none", "gbench"), key),
        "--metric" = opts$metric <- check_choice(val, c("real_time", "cpu_time"), key),
        "--output" = opts$output <- val,
        "--test" = opts$test <- check_choice(val, protocol_choices(), key),
        "--alpha" = {
          v <- suppressWarnings(as.numeric(val))
          if (is.na(v) || v <= 0 || v >= 0.5) {
            abort(sprintf("--alpha must be a risk strictly between 0 and 0.5 (0.05 for 95%% confidence), not \"%s\".",
                          val))
          }
          opts$alpha <- v
        })
      i <- i + 1L
      next
    }
    if (!nzchar(trimws(a))) abort("a command is empty.")
    opts$commands <- c(opts$commands, a)
    i <- i + 1L
  }
  if (length(opts$commands) < 1L) abort("give at least one command to measure.")
  if (length(opts$names) > length(opts$commands)) {
    abort(sprintf("%d names (-n) for %d command(s): each -n names the command after it.",
                  length(opts$names), length(opts$commands)))
  }
  nm <- opts$commands
  nm[seq_along(opts$names)] <- opts$names
  if (anyDuplicated(nm)) {
    abort(sprintf("the versions must have different names; \"%s\" is repeated.",
                  nm[duplicated(nm)][1L]))
  }
  opts$versions <- stats::setNames(opts$commands, nm)
  if (!is.null(opts$metric) && opts$harness != "gbench") {
    abort("--metric is for --harness gbench.")
  }
  if (opts$harness == "gbench" && opts$until != "fixed") {
    abort(sprintf("--until %s measures commands, not --harness gbench.", opts$until))
  }
  if (is.null(opts$runs)) opts$runs <- if (opts$harness == "gbench") 10L else 31L
  if (is.na(opts$progress)) opts$progress <- !opts$quiet && isatty(stderr())
  opts
}

# The measurement: the setup, measure() (through the harness), the cleanup.
measure_cli_run <- function(opts) {
  if (!is.null(opts$setup)) measure_cli_once(opts$setup, "--setup")
  on.exit(if (!is.null(opts$cleanup)) measure_cli_once(opts$cleanup, "--cleanup"))
  bench <- opts$benchmark %||% hyperfine_benchmark_name(unname(opts$versions), "measure")
  if (opts$harness == "gbench") return(measure_gbench(opts, bench))
  versions <- as.list(opts$versions)
  measure(versions, .runs = opts$runs, .warmup = opts$warmup, .order = opts$order,
          .setup = opts$prepare, .timeout = opts$timeout, .until = opts$until,
          .max_runs = opts$max_runs, .test = opts$test, .alpha = opts$alpha,
          .output = opts$output, .progress = opts$progress, .name = bench,
          .shell = opts$shell)
}

measure_cli_once <- function(cmd, what) {
  status <- suppressWarnings(system2("/bin/sh", c("-c", shQuote(cmd)), stdout = FALSE,
                                     stderr = FALSE))
  if (!identical(as.integer(status), 0L)) {
    abort(sprintf("the %s command `%s` exited with status %s.", what, cmd,
                  format(status)), class = "command")
  }
  invisible()
}

# --harness gbench: each version's program run opts$runs times in measure()'s
# interleaved rounds, each run writing its JSON, renamed after the run by
# measure()'s cleanup hook; every repetition of every benchmark kept with
# the process and the round of the run that made it.
measure_gbench <- function(opts, bench) {
  dir <- tempfile("gbench")
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE), add = TRUE)
  nm <- names(opts$versions)
  out_of <- function(i) file.path(dir, sprintf("v%d.json", i))
  cmds <- vapply(seq_along(nm), function(i) {
    sprintf("%s --benchmark_out=%s --benchmark_out_format=json", opts$versions[[i]],
            shQuote(out_of(i)))
  }, "")
  versions <- as.list(stats::setNames(cmds, nm))
  count <- stats::setNames(integer(length(nm)), nm)
  keep <- function(name) {
    i <- match(name, nm)
    count[[name]] <<- count[[name]] + 1L
    file.rename(out_of(i), file.path(dir, sprintf("v%d-%06d.json", i, count[[name]])))
    invisible()
  }
  t <- measure(versions, .runs = opts$runs, .warmup = opts$warmup, .order = opts$order,
               .setup = opts$prepare, .cleanup = keep, .timeout = opts$timeout,
               .output = opts$output, .progress = opts$progress, .name = bench,
               .shell = opts$shell)
  parts <- list()
  for (i in seq_along(nm)) {
    runs <- which(as.character(t$version) == nm[i])
    for (k in seq_along(runs)) {
      f <- file.path(dir, sprintf("v%d-%06d.json", i, k + opts$warmup))
      if (!file.exists(f)) {
        abort(sprintf("version `%s` wrote no Google Benchmark JSON in run %d.", nm[i], k),
              class = "command")
      }
      g <- import_gbench(f, metric = opts$metric, multi = TRUE)
      r <- runs[k]
      parts[[length(parts) + 1L]] <- data.frame(
        benchmark = g$benchmark, version = nm[i], time = g$time,
        round = t$round[r], process = t$process[r], order = t$run[r],
        repetition = g$run, stringsAsFactors = FALSE)
    }
  }
  d <- do.call(rbind, parts)
  d <- d[order(d$order, d$repetition), , drop = FALSE]
  run <- stats::ave(seq_len(nrow(d)), d$benchmark, d$version, FUN = seq_along)
  new_speedup_timings(
    benchmark = d$benchmark, version = factor(d$version, levels = nm), time = d$time,
    run = as.integer(run), round = as.integer(d$round), process = as.integer(d$process),
    source = "google-benchmark", run_order = "sample",
    attrs = list(machine = attr(t, "machine"), order = attr(t, "order"),
                 warmup = attr(t, "warmup"), versions = attr(t, "versions"),
                 harness = "gbench"))
}

# The long CSV read_timings() reads back, with the rounds and processes.
measure_cli_export <- function(t, file) {
  cols <- intersect(c("benchmark", "version", "time", "run", "round", "process", "user",
                      "sys", "max_rss", "exit_status"), names(t))
  d <- as.data.frame(unclass(t)[cols], stringsAsFactors = FALSE)
  # the versions in their order (read_timings() takes the first it meets as
  # the initial code); `run` keeps the order the runs were made in
  d <- d[order(match(d$benchmark, unique(d$benchmark)), as.integer(d$version), d$run), ,
         drop = FALSE]
  d$version <- as.character(d$version)
  # the CPU time of a run (user + system), for `compare --metric cpu`
  if (!is.null(d$user) && !is.null(d$sys)) d$cpu <- d$user + d$sys
  # the sequential design of `--until decided`, which an analysis of the
  # file keeps (sequential_design())
  s <- attr(t, "sequential")
  if (!is.null(s) && nrow(d)) {
    d$sequential_test <- s$test
    d$sequential_alpha <- s$alpha
    d$sequential_max_runs <- s$max_runs
  }
  utils::write.csv(d, file, row.names = FALSE)
  invisible(file)
}

# What `speeduptest measure` prints: each version's median and spread, the
# structure, and the verdict of the last version against the first.
measure_cli_summary <- function(t, opts) {
  vers <- levels(t$version)
  out <- character()
  for (b in unique(t$benchmark)) {
    out <- c(out, sprintf("%s: %d version%s, %s", esc_text(b), length(vers),
                          if (length(vers) == 1L) "" else "s",
                          if (opts$order == "interleaved") "interleaved rounds" else
                            paste(opts$order, "order")))
    for (v in vers) {
      x <- t$time[t$benchmark == b & t$version == v]
      np <- length(unique(t$process[t$benchmark == b & t$version == v]))
      out <- c(out, sprintf("  %-20s %s  (%d runs, %d process%s)", trunc_text(esc_text(v), 20L),
                            fmt_time_spread(stats::median(x),
                                            if (length(x) > 1L) stats::mad(x) else NA),
                            length(x), np, if (np == 1L) "" else "es"))
    }
    if (length(vers) >= 2L) {
      v <- tryCatch(suppressWarnings(
        protocol_fun(opts$test)(
          t, benchmark = b, versions = vers[c(1L, length(vers))], alpha = opts$alpha)),
        error = function(e) NULL)
      if (!is.null(v)) {
        ch <- fmt_factor_change(or_na(attr(v$speedup_ci, "estimate"), v$speedup))
        out <- c(out, sprintf("  %s: %s", esc_text(vers[length(vers)]),
                              if (ch == "1.00x") sprintf("as fast as %s", esc_text(vers[1L])) else
                                sprintf("%s than %s", ch, esc_text(vers[1L]))),
                 paste0("  ", format(v)[1L]))
      }
    }
  }
  if (!is.null(opts$export)) out <- c(out, sprintf("Wrote %s", opts$export))
  out
}
