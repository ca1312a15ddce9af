# measure(): takes run times itself, the way the Speedup-Test protocols need
# them (interleaved versions, warm-ups, a monotonic clock, CPU time and
# memory from the operating system).  Commands are run and timed by
# src/measure.c and its launcher; R code is timed here with the same clock.
# Printing of the machine, timer, correction and verdict: measure-print.R.

#' Measure the run times of commands or R code
#'
#' Runs each version of the code many times, in an interleaved random order
#' by default, and returns the run times as [speedup_timings][median_test]
#' ready for [median_test()] and [mean_test()].  Versions are commands (run
#' directly, or by `/bin/sh -c` when they need the shell, and timed in C) or
#' R code (expressions or functions, timed in R with the same clock).
#'
#' @section Versions and options:
#' Each argument in `...` is one version, named by its argument name (or, when
#' unnamed, by the command or the deparsed expression):
#' * a string is a command (see Commands and the shell), run in a process
#'   group of its own with standard input from `/dev/null`;
#' * a function (a `function(...)` written in place, or the name of one) is
#'   called without arguments;
#' * any other expression is captured unevaluated and evaluated in `.env` at
#'   every run (so `measure(sort = sort(x))` times `sort(x)`).
#'
#' A single unnamed argument that is a variable, or a call to `list()` or
#' `c()`, holding a named list or a named character vector gives all the
#' versions at once (elements: commands, functions or quoted
#' expressions), e.g. `measure(c(old = "./a.out", new = "./b.out"))`.  The
#' first version is the initial code: the verdicts compare it with the
#' second.
#'
#' The options of `measure()` itself all start with a dot (`.runs`,
#' `.order`, ...), so a version can have any name that does not: `measure(sort
#' = sort(x), order = order(x))` measures two versions named `sort` and
#' `order`.  For code written before the options had dots, an argument named
#' like a former option (`runs`, `warmup`, `order`, `setup`, `cleanup`,
#' `timeout`, `until`, `max_runs`, `test`, `alpha`, `output`, `progress`,
#' `name`, `env`) is still taken as that option, with a warning of class
#' `speeduptest_warning_deprecated`, when it cannot be a version: when the
#' versions are given as one list, or when its value is a number, a logical,
#' `NULL` or an environment written as such or held in a variable, or (for
#' `order`, `until` and `test`) one of the option's choices.  Otherwise it is
#' a version.
#'
#' @section Commands and the shell:
#' A command with no shell syntax (words separated by blanks, quoted with
#' `'...'` or `"..."` at most, no `|`, `&`, `;`, `<`, `>`, `$`, `*`, `?`,
#' backquote, backslash, brackets, braces, `~`, `!`, leading `#` or
#' assignment) is split into its words and its program (looked up in the
#' `PATH` once) is run directly, the way `hyperfine -N` runs it: no shell
#' start-up is in its time.  Every other command (pipes, redirections,
#' variables, globbing, reserved words and builtins such as `cd` or `:`) is
#' run by `/bin/sh -c`, and so is a command whose program is not found (the
#' shell then reports it).  `.shell = "always"` runs every command by the
#' shell, `.shell = "never"` refuses commands that need it.  How each
#' version was run is in `attr(, "launch")`.
#'
#' When some version runs through the shell, `measure()` measures the
#' shell's start-up, as hyperfine does: 30 runs of `/bin/sh -c ''`
#' alternating with 30 direct runs of `true` (after 3 of each to warm up)
#' before the measurement, and one more of each before every measured run of
#' such a version, so that the calibration sees the same load of the machine
#' as the runs.  The difference of their medians, the time the shell adds to
#' a command, is subtracted from the wall time of every run of such a version
#' (and the differences of the CPU times from `user` and `sys`); it is kept
#' in the column `correction` (0 for the other runs) and in
#' `attr(, "timer")$shell`, and printed.  hyperfine subtracts the whole time of `sh -c ''`, start of a
#' process included, so its shell figures read lower than its `-N` figures;
#' subtracting only the shell's share keeps a command's time the same
#' whether or not it went through the shell.  A corrected time is never set
#' below the clock's resolution.  What the shell does beyond starting stays
#' in the time, as with hyperfine: the shell runs the last command of the
#' line in its own process (no extra cost) only when nothing follows it and
#' it has no redirection; otherwise it starts a process for it and waits (a
#' pipe, `cmd > file`, `a; b`), which costs about one more start of a
#' process per command.
#'
#' @section Order of the runs:
#' * `"interleaved"` (default): `.runs` rounds; every round runs each
#'   version once, in a fresh random order.  A slow period of the machine
#'   hits every version alike, and the runs of a version are spread over the
#'   whole measurement.
#' * `"random"`: one random permutation of all the runs.
#' * `"blocks"`: all runs of the first version, then all runs of the second,
#'   and so on (how most tools measure; use it only to reproduce them).
#'
#' `.warmup` rounds (default 1) run each version before the measured runs,
#' in the same kind of order; they are not recorded.  The order actually used
#' is the `run` column of the result (the global order: runs are numbered
#' across versions).  The column `round` numbers the interleaved rounds (each
#' holds one run of each version; `NA` for the other orders), and the column
#' `process` names the operating-system process that made the run: each run
#' of a command is a process of its own (`process` is its `run`), while all
#' runs of R code share the R session (`process` 0).
#'
#' @section What is measured:
#' For every run: `time`, the wall time in seconds of the run on the
#' monotonic clock (`CLOCK_MONOTONIC`), and `timestamp`, the start as
#' date-time.  For commands also `user` and `sys`, the CPU seconds of the
#' command and every process it waited for, `max_rss`, the peak resident
#' memory in bytes (from `wait4()`), and `exit_status`.  For R code `user`
#' and `sys` come from [proc.time()], and `max_rss` and `exit_status` are
#' `NA`.
#'
#' Commands are started through a small program installed with the
#' package, the launcher `st-launch` (its path is `attr(, "timer")$launcher`).
#' The launcher starts the command with `posix_spawn()`, waits for it with
#' `wait4()` and reads the monotonic clock just before the one and just after
#' the other, so a command's `time` is the spawn floor and the command
#' itself, as `hyperfine -N` times it, and the launcher's own start is not in
#' it.  It also makes `max_rss` the command's own peak: on Linux the kernel
#' carries the peak memory of the process that calls `exec` into the new
#' program's peak, so a command started straight from R would report at
#' least R's own peak, while the launcher is small.  If the launcher is not
#' installed (`attr(, "timer")$launcher` is `NA`), the command is started
#' directly, timed around its spawn from R, and `max_rss` is `NA` when the
#' reported peak does not exceed R's own peak at the start
#' (`attr(, "timer")$rss_floor`).
#'
#' Every run of a command has a process group of its own; when the command
#' ends, whatever it left running in that group (a background job, `cmd &`)
#' is killed with `SIGKILL`, so nothing of a run outlives it (a process that
#' leaves the group with `setsid` escapes this).
#'
#' @section Failures and timeouts:
#' A run that a command ends with a non-zero exit status stops the
#' measurement with an error of class `speeduptest_error_command` (exit
#' status 127, command not found: `speeduptest_error_command_not_found`); a
#' command that cannot be started at all (its command line too long for the
#' system, say) gives `speeduptest_error_spawn` (also a
#' `speeduptest_error_command`); an error in R code gives
#' `speeduptest_error_expression`.
#'
#' A run longer than `.timeout` seconds gives `speeduptest_error_timeout`
#' and is not recorded.  A command is stopped at the timeout (its process
#' group gets `SIGTERM`, then `SIGKILL`).  R code is stopped with
#' [setTimeLimit()] where R checks for interrupts; code that does not (a long
#' call to compiled code, [Sys.sleep()]) runs to its end, and then its run is
#' found longer than the timeout and refused all the same.  These conditions
#' hold the runs made so far in `cnd$timings`, the version in `cnd$version`,
#' the run in `cnd$run` and, for commands, `cnd$command` and
#' `cnd$exit_status`.
#'
#' Interrupting (Ctrl-C, or the Stop button) stops the current run (a
#' command's process group is killed) and returns the runs completed so far,
#' with a warning of class `speeduptest_warning_interrupted`.
#'
#' @section Timer and short runs:
#' Before measuring, `measure()` records the clock's resolution (what
#' `clock_getres()` reports and the smallest nonzero step seen between two
#' readings) and the overhead of a run: the median time of a direct run of
#' `true` (the spawn floor; 10 runs after one warm-up, or the 30 of the
#' shell's calibration) and of calling an empty R function (51 calls).  A
#' version whose median time is under 100 times the resolution, or under 1.5
#' times the overhead of starting a run, gives a warning of class
#' `speeduptest_warning_short_runs`: most of what is measured is then the
#' clock or the start-up, not the code; repeat the work inside the run (a
#' loop in the command or the function) until a run lasts far longer.
#'
#' @section Sequential mode:
#' With `.until = "decided"` (two versions only), `measure()` looks at the
#' runs as they come and stops as soon as the protocol `.test` declares a
#' speedup or a slowdown of the second version, or at `.max_runs` runs of
#' each version.  Looks happen after 10 rounds, then each time the number of
#' rounds has grown by half (rounded; 10, 15, 22, 33, 50, 75, 100 for
#' `.max_runs = 100`), and always at `.max_runs`.
#'
#' At look \eqn{j}, after \eqn{n_j} runs of each version, the information
#' fraction is \eqn{t_j = n_j / N} (\eqn{N} = `.max_runs`) and the protocol
#' is run at the level
#' \deqn{\alpha_j = A(t_j) - A(t_{j-1}), \quad A(t) = 2\left(1 -
#' \Phi\left(z_{1-\alpha/2} / \sqrt{t}\right)\right), \quad A(0) = 0,}
#' the increments of the Lan-DeMets spending function of O'Brien-Fleming
#' type (Lan and DeMets, 1983), which spends almost nothing at the early looks
#' and reaches \eqn{A(1) = \alpha} at the last one.  Both directions are
#' tested at each look: a speedup when the protocol on `(x, y)` is
#' significant at \eqn{\alpha_j}, a slowdown when it is on the mirrored
#' samples `(y, x)`.  If the two versions do not differ, the probability of
#' ever claiming a speedup is at most the sum over the looks of the
#' probability of a false claim at look \eqn{j}, which is at most
#' \eqn{\alpha_j} because each look's test has level \eqn{\alpha_j}; the sum
#' is \eqn{A(t_K) \le \alpha} (union bound, whatever the correlation between
#' the looks).  The same holds for a slowdown, so each claim keeps the risk
#' `.alpha` of the fixed design.  The bound ignores the positive correlation
#' between looks, so the real risk is lower (see `bench/sequential.R` and
#' `bench/README.md` for a simulation).  Looks with at most 30 runs per
#' version use `rigorous = FALSE` (the small-sample stop of the protocols
#' would otherwise stop every early look); later looks are rigorous.
#'
#' The looks, their levels and p-values, and the decision are in
#' `attr(, "sequential")`; `level` there is the level of the look that
#' decided (or of the last look), the one at which the final verdict's claim
#' holds.
#'
#' @section Printing:
#' Printing the result shows, besides the samples, the machine and the
#' timer, the shell correction when there is one, the speedup of each
#' version over the initial one (ratio of the medians) and the verdict of the
#' median protocol ([median_test()]) of the second version against the
#' initial one (in sequential mode, the decision of the looks).
#'
#' @param ... The versions: named commands (strings), functions or R
#'   expressions; see the section Versions and options.
#' @param .runs Number of measured runs of each version (default 31: the
#'   protocols ask for more than 30; at most 1e6).  Not used with `.until =
#'   "decided"`.
#' @param .warmup Number of unrecorded warm-up runs of each version (at most
#'   1e6).
#' @param .order `"interleaved"`, `"random"` or `"blocks"`; see the section
#'   Order of the runs.
#' @param .setup,.cleanup `NULL`, a command or an R function run before
#'   (after) every run, warm-ups included, not timed.  A function with an
#'   argument is given the version's name.
#' @param .timeout Longest time of a run in seconds (`Inf`: no limit); see
#'   the section Failures and timeouts.
#' @param .until `"fixed"` (default): exactly `.runs` runs of each version;
#'   `"decided"`: sequential mode, see the section Sequential mode.
#' @param .max_runs In sequential mode, the largest number of runs of each
#'   version (at most 1e6).
#' @param .test The protocol of the sequential mode: `"median"`
#'   ([median_test()]) or `"mean"` ([mean_test()]).
#' @param .alpha Risk level of the sequential mode.
#' @param .output `NULL` (default) to discard the output of the commands, or
#'   a file to which their standard output and error are appended.
#' @param .progress Show a progress line (runs done, time elapsed and left
#'   and, in sequential mode, the current verdict; within 80 columns)?  By
#'   default only in interactive sessions.
#' @param .name The benchmark name recorded in the result.
#' @param .env The environment R expressions are evaluated in.
#' @param .shell `"auto"` (default: the shell only for commands that need
#'   it), `"always"` or `"never"`; see the section Commands and the shell.
#' @return A `speedup_timings` data frame (one row per measured run, in the
#'   order of the runs) with columns `benchmark`, `version` (a factor, levels
#'   in the order of `...`), `time` (wall seconds, shell start-up subtracted),
#'   `run` (global order), `round` (interleaved round), `process`, `user`,
#'   `sys`, `max_rss`, `exit_status`, `correction` (seconds subtracted from
#'   `time`) and `timestamp`, and the attributes `source` (`"measure"`),
#'   `run_order` (`"global"`), `machine` (CPU model, cores, kernel, load
#'   averages before and after), `timer`, `order`, `warmup`, `versions`
#'   (what each version ran), `launch` (`"direct"`, `"shell"` or `"R"` per
#'   version) and, in sequential mode, `sequential`.
#' @references
#' Lan, K. K. G. and DeMets, D. L. (1983). Discrete sequential boundaries for
#' clinical trials. *Biometrika*, 70(3), 659-663.
#'
#' Touati, S.-A.-A., Worms, J. and Briais, S. (2013). The Speedup-Test: a
#' statistical methodology for programme speedup analysis and computation.
#' *Concurrency and Computation: Practice and Experience*, 25(10), 1410-1426.
#' @seealso [median_test()], [mean_test()].
#' @examples
#' \donttest{
#' t <- measure(slow = "sleep 0.02", fast = "sleep 0.01", .runs = 5)
#' t
#' x <- t$time[t$version == "slow"]
#' y <- t$time[t$version == "fast"]
#' median_test(x, y, rigorous = FALSE)
#'
#' v <- 1:2e4
#' measure(sort = sort(rev(v)), order = v[order(rev(v))], .runs = 5)
#' }
#' @export
measure <- function(..., .runs = 31L, .warmup = 1L,
                    .order = c("interleaved", "random", "blocks"),
                    .setup = NULL, .cleanup = NULL, .timeout = Inf,
                    .until = c("fixed", "decided"), .max_runs = 100L,
                    .test = c("median", "mean"), .alpha = 0.05, .output = NULL,
                    .progress = interactive(), .name = "measure",
                    .env = parent.frame(), .shell = c("auto", "always", "never")) {
  caller <- parent.frame()
  dots <- as.list(substitute(list(...)))[-1L]
  split <- measure_old_options(dots, caller)
  opts <- list(runs = .runs, warmup = .warmup, order = .order, setup = .setup,
               cleanup = .cleanup, timeout = .timeout, until = .until,
               max_runs = .max_runs, test = .test, alpha = .alpha, output = .output,
               progress = .progress, name = .name, env = .env)
  given <- c(runs = !missing(.runs), warmup = !missing(.warmup),
             order = !missing(.order), setup = !missing(.setup),
             cleanup = !missing(.cleanup), timeout = !missing(.timeout),
             until = !missing(.until), max_runs = !missing(.max_runs),
             test = !missing(.test), alpha = !missing(.alpha),
             output = !missing(.output), progress = !missing(.progress),
             name = !missing(.name), env = !missing(.env))
  for (nm in names(split$options)) {
    if (given[[nm]]) {
      abort(sprintf("Give `.%s` or the former `%s`, not both.", nm, nm))
    }
    opts[nm] <- list(split$options[[nm]])
  }
  if (length(split$options)) {
    old <- names(split$options)
    warn(sprintf(paste0("%s: measure()'s own arguments now start with a dot so that a ",
                        "version can have any other name; write %s."),
                 paste0("`", old, "`", collapse = ", "),
                 paste0("`.", old, "`", collapse = ", ")),
         class = "deprecated")
  }
  # errors name the argument as the user wrote it
  arg <- function(nm) if (nm %in% names(split$options)) nm else paste0(".", nm)
  env <- opts$env
  if (!is.environment(env)) {
    abort(sprintf("`%s` must be an environment, not %s.", arg("env"), describe_type(env)))
  }
  shell <- measure_choice(.shell, c("auto", "always", "never"), ".shell")
  versions <- measure_versions(split$versions, env)
  order <- measure_choice(opts$order, c("interleaved", "random", "blocks"), arg("order"))
  until <- measure_choice(opts$until, c("fixed", "decided"), arg("until"))
  test <- measure_choice(opts$test, c("median", "mean"), arg("test"))
  runs <- measure_whole(opts$runs, arg("runs"), min = 1L)
  warmup <- measure_whole(opts$warmup, arg("warmup"), min = 0L)
  max_runs <- measure_whole(opts$max_runs, arg("max_runs"), min = 3L)
  alpha <- check_alpha(opts$alpha, arg = arg("alpha"))
  progress <- check_flag(opts$progress, arg("progress"))
  timeout <- opts$timeout
  if (!is.numeric(timeout) || length(timeout) != 1L || is.na(timeout) || timeout <= 0) {
    abort(sprintf("`%s` must be a single positive number of seconds (Inf for none), not %s.",
                  arg("timeout"), describe_value(timeout)))
  }
  name <- opts$name
  if (!is.character(name) || length(name) != 1L || is.na(name)) {
    abort(sprintf("`%s` must be a single string, not %s.", arg("name"), describe_value(name)))
  }
  output <- measure_output_file(opts$output, arg("output"))
  setup <- measure_hook(opts$setup, arg("setup"))
  cleanup <- measure_hook(opts$cleanup, arg("cleanup"))
  if (until == "decided") {
    if (length(versions) != 2L) {
      abort(sprintf("`.until = \"decided\"` compares two versions; %d were given.",
                    length(versions)))
    }
    if (order == "blocks") {
      abort("`.until = \"decided\"` needs interleaved or random runs, not `.order = \"blocks\"`.")
    }
  }
  total <- length(versions) * (warmup + if (until == "fixed") runs else max_runs)
  if (total > 1e7) {
    abort(sprintf(paste0("%d version(s) x %s runs each (warm-ups included) is more than ",
                         "the 10 million runs measure() plans for."),
                  length(versions), format(total / length(versions), big.mark = ",")))
  }
  versions <- measure_launch(versions, shell)
  setup <- measure_launch_hook(setup)
  cleanup <- measure_launch_hook(cleanup)

  machine <- measure_machine()
  # the launcher, started once as a server that runs every command
  server <- NULL
  launcher <- NA_character_
  hooks <- list(setup, cleanup)
  if (any(vapply(c(versions, hooks), function(v) identical(v$kind, "command"), TRUE))) {
    launcher <- measure_launcher()
    if (!is.na(launcher)) {
      server <- .Call(ffi_launcher_start, launcher)
      if (!is.null(server)) on.exit(.Call(ffi_launcher_stop, server), add = TRUE)
    }
  }
  timer <- measure_timer(versions, output, launcher, server)
  ctx <- list(versions = versions, setup = setup, cleanup = cleanup, server = server,
              timeout = as.double(timeout), output = output, env = env,
              name = name, machine = machine, timer = timer, order = order,
              warmup = warmup, until = until)
  plan <- measure_plan(length(versions), runs, warmup, order, until, max_runs)
  seq_rule <- if (until == "decided") sequential_rule(plan$looks, max_runs, alpha, test) else NULL
  measure_loop(ctx, plan, seq_rule, runner = measure_run_version,
               progress = if (progress) measure_progress(plan) else NULL)
}

# ---- argument checks ---------------------------------------------------------

# The options measure() had before they took a dot.
measure_old_names <- c("runs", "warmup", "order", "setup", "cleanup", "timeout",
                       "until", "max_runs", "test", "alpha", "output", "progress",
                       "name", "env")

# Splits the arguments in `...` into versions and former options (see the
# section Versions and options): list(versions = <exprs>, options = <values>).
measure_old_options <- function(dots, caller) {
  nms <- names(dots)
  if (is.null(nms)) return(list(versions = dots, options = list()))
  old <- nms %in% measure_old_names
  if (!any(old)) return(list(versions = dots, options = list()))
  unnamed <- !nzchar(nms)
  list_form <- sum(unnamed) == 1L && all(old | unnamed) &&
    measure_is_list_expr(dots[[which(unnamed)]])
  take <- logical(length(dots))
  values <- vector("list", length(dots))
  for (i in which(old)) {
    e <- dots[[i]]
    if (list_form) {
      take[i] <- TRUE
      values[i] <- list(eval(e, caller))
      next
    }
    if (is.symbol(e)) {
      found <- tryCatch(list(eval(e, caller)), error = function(err) NULL)
      if (is.null(found)) next   # not a variable of the caller's: a version
      val <- found[[1L]]
    } else if (is.atomic(e) || is.null(e)) {
      val <- e
    } else {
      next
    }
    choices <- switch(nms[i], order = c("interleaved", "random", "blocks"),
                      until = c("fixed", "decided"), test = c("median", "mean"), NULL)
    option_like <- is.null(val) || is.environment(val) ||
      ((is.numeric(val) || is.logical(val)) && !is.object(val)) ||
      (!is.null(choices) && is.character(val) && length(val) == 1L && val %in% choices)
    if (option_like) {
      take[i] <- TRUE
      values[i] <- list(val)
    }
  }
  options <- values[take]
  names(options) <- nms[take]
  list(versions = dots[!take], options = options)
}

measure_choice <- function(x, choices, arg) {
  if (identical(x, choices)) return(choices[1L])
  if (!is.character(x) || length(x) != 1L || is.na(x) || !(x %in% choices)) {
    abort(sprintf("`%s` must be one of %s, not %s.", arg,
                  paste0('"', choices, '"', collapse = ", "), describe_value(x)))
  }
  x
}

measure_whole <- function(x, arg, min = 0L, max = 1e6) {
  if (!is.numeric(x) || length(x) != 1L || is.na(x) || !is.finite(x) ||
      x != round(x) || x < min || x > max) {
    abort(sprintf("`%s` must be a whole number from %d to %s, not %s.", arg, min,
                  format(max, big.mark = ",", scientific = FALSE), describe_value(x)))
  }
  as.integer(x)
}

measure_output_file <- function(output, arg = ".output") {
  if (is.null(output)) return(NULL)
  if (!is.character(output) || length(output) != 1L || is.na(output) || !nzchar(output)) {
    abort(sprintf("`%s` must be NULL (discard) or a file name, not %s.", arg,
                  describe_value(output)))
  }
  output <- normalizePath(output, mustWork = FALSE)
  if (!dir.exists(dirname(output))) {
    abort(sprintf("`%s`: the directory of \"%s\" does not exist.", arg, output),
          class = "file")
  }
  if (dir.exists(output)) {
    abort(sprintf("`%s` must be a file, not the directory \"%s\".", arg, output),
          class = "file")
  }
  output
}

# One version: list(name, kind = "command" / "function" / "expression", what,
# label).
measure_versions <- function(dots, env) {
  exprs <- dots
  if (!length(exprs)) {
    abort("Give at least one version to measure: a command, a function or an expression.")
  }
  nms <- names(exprs)
  if (is.null(nms)) nms <- rep("", length(exprs))
  if (length(exprs) == 1L && !nzchar(nms[1L]) && measure_is_list_expr(exprs[[1L]])) {
    val <- tryCatch(eval(exprs[[1L]], env), error = function(e) NULL)
    if ((is.list(val) || is.character(val)) && !is.null(names(val)) && length(val)) {
      if (any(!nzchar(names(val)))) {
        abort("Every element of the list of versions must be named.")
      }
      out <- lapply(seq_along(val), function(i) {
        measure_version_value(val[[i]], names(val)[i], env, quoted = TRUE)
      })
      return(measure_version_names(out))
    }
  }
  out <- lapply(seq_along(exprs), function(i) {
    e <- exprs[[i]]
    nm <- nms[i]
    if (is.character(e)) return(measure_version_value(e, nm, env))
    if (is.atomic(e) || is.null(e)) {
      abort(sprintf("Version `%s` must be a command (string), a function or an expression, not %s.",
                    if (nzchar(nm)) nm else deparse1(e), describe_value(e)))
    }
    if (is.symbol(e)) {
      val <- tryCatch(eval(e, env), error = function(err) NULL)
      if (is.function(val) || (is.character(val) && length(val) == 1L)) {
        return(measure_version_value(val, if (nzchar(nm)) nm else as.character(e), env))
      }
    }
    if (is.call(e) && identical(e[[1L]], as.name("function"))) {
      return(measure_version_value(eval(e, env), if (nzchar(nm)) nm else deparse1(e), env))
    }
    list(name = if (nzchar(nm)) nm else deparse1(e), kind = "expression",
         what = e, label = deparse1(e))
  })
  measure_version_names(out)
}

# A single unnamed argument is looked at as a possible list of versions only
# when it is a variable or a call to list() or c(): other expressions are
# code to time and must not be run here.
measure_is_list_expr <- function(e) {
  is.symbol(e) ||
    (is.call(e) && is.symbol(e[[1L]]) &&
       as.character(e[[1L]]) %in% c("list", "c", "setNames", "structure"))
}

measure_version_value <- function(val, nm, env, quoted = FALSE) {
  if (is.character(val)) {
    if (length(val) != 1L || is.na(val) || !nzchar(val)) {
      abort(sprintf("Version `%s`: a command must be a single non-empty string.", nm))
    }
    measure_check_text(val, sprintf("Version `%s`", bytes_safe(nm)))
    return(list(name = if (nzchar(nm)) nm else val, kind = "command", what = val,
                label = val))
  }
  if (is.function(val)) {
    return(list(name = nm, kind = "function", what = val,
                label = paste(deparse(val), collapse = " ")))
  }
  if (quoted && (is.language(val))) {
    return(list(name = nm, kind = "expression", what = val, label = deparse1(val)))
  }
  abort(sprintf("Version `%s` must be a command (string), a function or an expression, not %s.",
                nm, describe_type(val)))
}

# A command must be text the shell and the search of its program can take:
# bytes that are not valid UTF-8 are refused, shown as <ff> escapes.
measure_check_text <- function(cmd, what) {
  if (!validUTF8(cmd)) {
    abort(sprintf("%s: the command is not valid UTF-8 text: \"%s\".", what,
                  bytes_safe(cmd)))
  }
  invisible(cmd)
}

measure_version_names <- function(out) {
  nms <- vapply(out, `[[`, "", "name")
  if (anyDuplicated(nms)) {
    abort(sprintf("Versions must have distinct names; \"%s\" is repeated.",
                  nms[anyDuplicated(nms)]))
  }
  out
}

measure_hook <- function(hook, arg) {
  if (is.null(hook)) return(NULL)
  if (is.character(hook) && length(hook) == 1L && !is.na(hook)) {
    measure_check_text(hook, sprintf("`%s`", arg))
    return(list(name = arg, kind = "command", what = hook, label = hook))
  }
  if (is.function(hook)) {
    return(list(name = arg, kind = "function", what = hook, label = arg,
                takes_version = length(formals(hook)) > 0L))
  }
  abort(sprintf("`%s` must be NULL, a shell command or a function, not %s.", arg,
                describe_type(hook)))
}

# ---- how a command is started ------------------------------------------------

# How a command is run: list(launch = "direct", path, args) with the program
# found in the PATH, or list(launch = "shell", path = NULL, args = cmd).
measure_command_launch <- function(cmd, shell = "auto", name = NULL) {
  as_shell <- list(launch = "shell", path = NULL, args = cmd)
  if (shell == "always") return(as_shell)
  words <- .Call(ffi_split_command, cmd)
  if (is.null(words)) {
    if (shell == "never") {
      abort(sprintf(paste0("Version `%s`: `%s` needs the shell (it has shell syntax or ",
                           "a builtin), and `.shell = \"never\"`."), name, cmd))
    }
    return(as_shell)
  }
  prog <- words[1L]
  path <- measure_find_program(prog)
  if (!nzchar(path)) {
    # not found: the shell reports it (exit status 127)
    if (shell == "never") {
      abort(sprintf("Version `%s`: the program `%s` was not found.", name, prog),
            class = c("command_not_found", "command"))
    }
    return(as_shell)
  }
  list(launch = "direct", path = path, args = words)
}

# The file a program name stands for, as execvp() would find it: a name
# with a slash as it is, else the first executable file of that name in the
# directories of PATH (an empty entry is the working directory); "" when
# there is none.
measure_find_program <- function(prog) {
  if (!nzchar(prog) || nchar(prog, "bytes") > 4096L) return("")
  ok <- function(f) file.exists(f) && !dir.exists(f) && file.access(f, 1L) == 0L
  if (grepl("/", prog, fixed = TRUE)) return(if (ok(prog)) prog else "")
  dirs <- strsplit(Sys.getenv("PATH"), ":", fixed = TRUE)[[1L]]
  for (d in dirs) {
    f <- if (nzchar(d)) file.path(d, prog) else prog
    if (ok(f)) return(f)
  }
  ""
}

measure_launch <- function(versions, shell) {
  lapply(versions, function(v) {
    if (v$kind != "command") return(c(v, list(launch = "R")))
    c(v, measure_command_launch(v$what, shell, v$name))
  })
}

measure_launch_hook <- function(hook) {
  if (is.null(hook) || hook$kind != "command") return(hook)
  c(hook, measure_command_launch(hook$what, "auto", hook$name))
}

# ---- the plan: the order of the runs -----------------------------------------

# Version indices for `rounds` rounds of `k` versions.
rounds_order <- function(k, rounds, order) {
  if (rounds <= 0L) return(integer())
  switch(order,
    interleaved = as.integer(unlist(lapply(seq_len(rounds), function(i) sample.int(k)))),
    random = sample(rep(seq_len(k), rounds)),
    blocks = rep(seq_len(k), each = rounds))
}

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

# A list of batches of version indices (the warm-up batch first, with
# `warmup = TRUE`); in sequential mode one batch per look.
measure_plan <- function(k, runs, warmup, order, until, max_runs) {
  warm_order <- if (order == "blocks") "blocks" else order
  batches <- list(list(idx = rounds_order(k, warmup, warm_order), warmup = TRUE,
                       look = NA_integer_))
  if (until == "fixed") {
    batches[[2L]] <- list(idx = rounds_order(k, runs, order), warmup = FALSE,
                          look = NA_integer_)
    looks <- integer()
  } else {
    looks <- sequential_looks(max_runs)
    prev <- 0L
    for (j in seq_along(looks)) {
      batches[[j + 1L]] <- list(idx = rounds_order(k, looks[j] - prev, order),
                                warmup = FALSE, look = j)
      prev <- looks[j]
    }
  }
  total <- sum(vapply(batches, function(b) length(b$idx), 1L))
  list(batches = batches, looks = looks, total = total, k = k)
}

# ---- the sequential rule ------------------------------------------------------

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
  protocol <- if (test == "median") median_test else mean_test
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

# ---- running one version -----------------------------------------------------

# Runs a command as measure_command_launch() decided: the result of
# ffi_run_command.
measure_spawn <- function(v, ctx) {
  if (!is.null(ctx$server)) {
    return(.Call(ffi_launcher_run, ctx$server, v$path, v$args, ctx$output, ctx$timeout))
  }
  .Call(ffi_run_command, v$path, v$args, ctx$output, ctx$timeout, ctx$timer$launcher)
}

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

# ---- the loop -------------------------------------------------------------

new_measure_state <- function(total) {
  st <- new.env(parent = emptyenv())
  st$n <- 0L
  st$version <- integer(total)
  st$time <- st$user <- st$sys <- st$max_rss <- st$start <- double(total)
  # the shell's calibration runs (see measure_calibrate()): wall, user and
  # sys of `sh -c ''` and of a direct `true`, one row per run
  st$cal_shell <- st$cal_direct <- matrix(numeric(), 0L, 3L)
  st$exit_status <- integer(total)
  st$looks <- list()
  st$decision <- NA_character_
  st$interrupted <- FALSE
  st$status_text <- ""
  st
}

measure_record <- function(st, i, r) {
  n <- st$n + 1L
  st$version[n] <- i
  st$time[n] <- r$time
  st$user[n] <- r$user
  st$sys[n] <- r$sys
  st$max_rss[n] <- r$max_rss
  st$exit_status[n] <- r$exit_status
  st$start[n] <- r$start
  st$n <- n
}

# One calibration pair, `sh -c ''` and a direct `true` in random order,
# recorded in st; FALSE when interrupted.
measure_calibration_pair <- function(st, ctx) {
  for (what in sample(c("shell", "direct"))) {
    v <- ctx$timer$shell$spawn[[what]]
    if (is.null(v)) next
    r <- measure_spawn(v, ctx)
    if (identical(r$status, 2L)) return(FALSE)
    if (identical(r$status, 0L) && identical(r$exit_status, 0L)) {
      row <- c(r$wall, r$user, r$sys)
      if (what == "shell") st$cal_shell <- rbind(st$cal_shell, row) else
        st$cal_direct <- rbind(st$cal_direct, row)
    }
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
  correction <- numeric(length(k))
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

# Runs the plan; `runner(version, ctx)` runs one version (replaceable in the
# tests).  Returns the timings.
measure_loop <- function(ctx, plan, seq_rule = NULL, runner = measure_run_version,
                         progress = NULL) {
  st <- new_measure_state(plan$total)
  versions <- ctx$versions
  cal <- ctx$timer$shell
  if (!is.null(cal$samples)) {
    st$cal_shell <- cal$samples$shell
    st$cal_direct <- cal$samples$direct
  }
  if (!is.null(progress)) on.exit(progress$done(), add = TRUE)
  done <- 0L
  run_in_batch <- function(b) {
    round_no <- 0L
    for (j in seq_along(b$idx)) {
      i <- b$idx[j]
      v <- versions[[i]]
      h <- measure_run_hook(ctx$setup, v$name, ctx)
      if (h$status == "interrupted") return(FALSE)
      if (h$status != "ok") measure_fail(st, ctx, v, h, "setup")
      if (!b$warmup && identical(v$launch, "shell") && !is.null(cal)) {
        if (!measure_calibration_pair(st, ctx)) return(FALSE)
      }
      r <- runner(v, ctx)
      if (r$status == "interrupted") return(FALSE)
      if (r$status != "ok") measure_fail(st, ctx, v, r, "run", warmup = b$warmup)
      if (!b$warmup) measure_record(st, i, r)
      h <- measure_run_hook(ctx$cleanup, v$name, ctx)
      if (h$status == "interrupted") return(FALSE)
      if (h$status != "ok") measure_fail(st, ctx, v, h, "cleanup")
      done <<- done + 1L
      if (!is.null(progress)) progress$update(done, st$status_text)
    }
    TRUE
  }
  completed <- tryCatch({
    finished <- TRUE
    for (b in plan$batches) {
      if (!run_in_batch(b)) {
        finished <- FALSE
        break
      }
      if (!is.null(seq_rule) && !is.na(b$look)) {
        if (sequential_step(st, seq_rule, b$look, ctx)) break
      }
    }
    finished
  }, interrupt = function(cnd) FALSE)
  out <- measure_timings(st, ctx, seq_rule)
  if (!completed) {
    st$interrupted <- TRUE
    attr(out, "interrupted") <- TRUE
    warn(sprintf("Interrupted: returning the %d run(s) completed so far.", nrow(out)),
         class = "interrupted")
  } else {
    check_short_runs(out, ctx)
  }
  out
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

measure_fail <- function(st, ctx, v, r, phase, warmup = FALSE) {
  timings <- measure_timings(st, ctx, NULL)
  run <- st$n + 1L
  where <- if (warmup) "a warm-up run" else sprintf("run %d", run)
  what <- if (phase == "run") sprintf("Version `%s`", v$name) else
    sprintf("The %s of version `%s`", phase, v$name)
  hook <- if (phase == "run") v else ctx[[phase]]
  fields <- list(version = v$name, run = run, phase = phase, timings = timings,
                 command = if (hook$kind == "command") hook$what else NULL,
                 exit_status = r$exit_status)
  msg <- switch(r$status,
    failed = sprintf("%s failed in %s: `%s` exited with status %d.", what, where,
                     hook$what, r$exit_status),
    not_found = sprintf("%s failed in %s: the command of `%s` was not found (exit status 127).",
                        what, where, hook$what),
    timeout = sprintf("%s took longer than `.timeout` (%s s) in %s%s.",
                      what, format(ctx$timeout), where,
                      if (hook$kind == "command") " and was stopped" else
                        sprintf(" (%s s) and was not recorded", format(signif(r$time, 3)))),
    spawn = sprintf("%s could not be started in %s: %s.", what, where, r$message),
    error = sprintf("%s failed in %s: %s", what, where,
                    conditionMessage(r$condition)),
    sprintf("%s failed in %s.", what, where))
  class <- switch(r$status,
    failed = "command", not_found = c("command_not_found", "command"),
    timeout = "timeout", spawn = c("spawn", "command"), error = "expression", "command")
  do.call(abort, c(list(msg, class = class, parent = r$condition), fields))
}

# ---- the result -------------------------------------------------------------

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
  if (!is.null(seq_rule)) {
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
  short <- character()
  for (nm in names(med)) {
    if (is.na(med[[nm]])) next
    over <- if (kinds[[nm]] == "command") timer$overhead_command else timer$overhead_r
    if (med[[nm]] < 100 * res || (!is.na(over) && med[[nm]] < 1.5 * over)) {
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

# ---- machine and timer ------------------------------------------------------

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

# The launcher of the commands (src/launcher/st-launch.c), NA when it is not
# installed (then peaks below R's own are unknown).
measure_launcher <- function() {
  libs <- if (nzchar(.Platform$r_arch)) file.path("libs", .Platform$r_arch) else "libs"
  path <- system.file(libs, "st-launch", package = "speeduptest")
  if (!nzchar(path) || file.access(path, 1L) != 0L) return(NA_character_)
  path
}

measure_timer <- function(versions, output, launcher = measure_launcher(), server = NULL) {
  clock <- .Call(ffi_clock_info, 100000L)
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
    f <- function() NULL
    ctx <- list(timeout = Inf, env = emptyenv())
    v <- list(kind = "function", what = f)
    over_r <- stats::median(vapply(1:51, function(i) measure_run_r(v, ctx)$time, 1))
  }
  list(clock = "CLOCK_MONOTONIC", resolution = clock$resolution, tick = clock$tick,
       overhead_command = over_cmd, overhead_r = over_r, rss_floor = floor,
       launcher = if (any(kinds == "command")) launcher else NA_character_,
       server = !is.null(server), shell = shell)
}

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
  n <- if (shell) 33L else 11L
  warm <- if (shell) 3L else 1L
  one <- function(v) {
    r <- measure_spawn(v, ctx)
    if (identical(r$status, 2L)) reraise_interrupt()
    r
  }
  d <- vector("list", n)
  s <- vector("list", n)
  for (i in seq_len(n)) {
    d[[i]] <- one(direct)
    if (shell) s[[i]] <- one(sh)
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

# ---- progress --------------------------------------------------------------

# The progress line, one line of at most `width` columns (80 at most):
#   [=========>          ] 40/62 runs | 3s, ETA 2s | look 2: undecided (p 0.31/0.52)
# The status (sequential mode) is cut first, then the bar shortened.
measure_progress_line <- function(done, total, elapsed, status = "",
                                  width = min(80L, getOption("width", 80L))) {
  width <- max(as.integer(width) - 1L, 20L)
  fmt_dur <- function(s) {
    if (!is.finite(s)) return("?")
    s <- round(s)
    if (s < 60) return(sprintf("%ds", s))
    if (s < 3600) return(sprintf("%dm%02ds", s %/% 60, s %% 60))
    sprintf("%dh%02dm", s %/% 3600, (s %% 3600) %/% 60)
  }
  eta <- if (done > 0) elapsed / done * (total - done) else NA_real_
  text <- sprintf(" %d/%d runs | %s, ETA %s", done, total, fmt_dur(elapsed), fmt_dur(eta))
  if (nzchar(status)) text <- paste0(text, " ", status)
  bar_w <- min(20L, max(width - nchar(text) - 2L, 5L))
  room <- width - bar_w - 2L
  if (nchar(text) > room) text <- paste0(substr(text, 1L, room - 2L), "..")
  fill <- if (total > 0) as.integer(floor(bar_w * done / total)) else 0L
  bar <- paste0("[", strrep("=", fill), strrep(" ", bar_w - fill), "]")
  paste0(bar, text)
}

measure_progress <- function(plan) {
  closed <- FALSE
  start <- .Call(ffi_monotonic_now)
  id <- cli::cli_progress_bar(
    total = plan$total, format = "{cli::pb_extra$line}",
    extra = list(line = measure_progress_line(0L, plan$total, 0)),
    clear = TRUE, .auto_close = FALSE)
  list(update = function(done, text) {
    line <- measure_progress_line(done, plan$total, .Call(ffi_monotonic_now) - start,
                                  text)
    cli::cli_progress_update(id = id, set = done, extra = list(line = line))
  }, done = function() {
    if (!closed) cli::cli_progress_done(id = id)
    closed <<- TRUE
  })
}
