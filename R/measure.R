# measure(): takes run times itself, the way the Speedup-Test protocols need
# them (interleaved versions, warm-ups, a monotonic clock, CPU time and
# memory from the operating system).  Commands are run and timed by
# src/measure.c and its launcher; R code is timed here with the same clock.
#
# This file holds measure() and the loop that makes the runs.  The rest is
# in the files named measure-*.R, one concern each:
#   measure-versions.R    the versions in `...` and the former options
#   measure-command.R     how a command is started: shell or not, the launcher
#   measure-shell.R       the shell's share of a run, measured and subtracted
#   measure-run.R         running one version (a command, or R code) once
#   measure-plan.R        the order of the runs
#   measure-sequential.R  the sequential rule of `.until = "decided"`
#   measure-result.R      the timings returned
#   measure-machine.R     the machine and the timer
#   measure-progress.R    the progress line
#   measure-print.R       printing the machine, timer, correction and verdict
# The checks of its arguments are in checks.R.

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
#' A command runs directly, without a shell, exactly when it is a plain list
#' of words: words separated by spaces or tabs, each made of characters
#' other than `| & ; < > ( ) $` backquote backslash `* ? [ ] { } ~ !`,
#' newline and carriage return, and quoted at most with `'...'` (anything
#' but `'` inside) or `"..."` (anything but `"`, `$`, backquote and
#' backslash inside); no word starts with `#`, the first word holds no `=`
#' (an assignment) and is not a reserved word or a builtin of the shell
#' (`cd`, `exit`, `:`, `.`, `export`, `if`, ..., and also `echo`, `printf`,
#' `test`, `kill` and `pwd`, which the shell runs itself and which can print
#' otherwise than the programs of those names: dash's `echo` knows no `-e`
#' and reads `\r` as a carriage return; `true` and `false` run directly
#' only without arguments).  Such a command is split into its words as the
#' shell would split it (the quotes removed), its program is looked up in
#' the `PATH` once, and it is run with those words as its arguments: what
#' `sh -c` would run, without the shell, the way `hyperfine -N` runs it.
#' Every other command (pipes, redirections, variables, globbing, escapes,
#' builtins) is run by `/bin/sh -c`, and so is a command whose program is
#' not found (the shell then reports it, exit status 127), so that every
#' command prints what `sh -c` prints.  `.shell = "always"` runs every
#' command by the shell, `.shell = "never"` refuses commands that need it.
#' How each version was run is in `attr(, "launch")`.
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
#' For every run: `time`, in seconds, on the monotonic clock
#' (`CLOCK_MONOTONIC`), and `timestamp`, the start as date-time.  For
#' commands also `user` and `sys`, the CPU seconds of the command and every
#' process it waited for, `max_rss`, the peak resident memory in bytes
#' (from `wait4()`), and `exit_status`.  For R code `user` and `sys` come
#' from `getrusage()` around the run (per evaluation), and `max_rss` and
#' `exit_status` are `NA`.
#'
#' One run of a command lasts from the reading of the clock just before
#' `posix_spawn()` creates its process to the reading just after `wait4()`
#' has reaped it in the launcher (below): the creation of the process, the
#' `exec` of the program, the program itself, its exit and the reaping.
#' This is `hyperfine -N`'s definition (it reads its clock before
#' `Command::spawn()` and after `wait()` returns).  A run stopped by its
#' timeout or an interrupt ends when it is stopped.  A command run by the shell is the same span around
#' `/bin/sh -c CMD`, minus the shell's share measured as said below.  The
#' request to run it, the report and everything R does are outside it, and
#' the runs are made by the launcher in batches: the launcher runs the
#' planned runs of a round (or of the whole plan: every run up to the next
#' R code, hook given as an R function, or progress update) back to back
#' and writes their reports after the last, so R neither allocates nor
#' wakes while commands run.
#'
#' Commands are started through a small program installed with the
#' package, the launcher `st-launch` (its path is `attr(, "timer")$launcher`),
#' started once per call of `measure()` and kept waiting for its batches
#' (like hyperfine's own process, it has long been asleep when a command
#' ends, so the scheduler wakes it at once).  It also makes `max_rss` the
#' command's own peak: on Linux the kernel carries the peak memory of the
#' process that calls `exec` into the new program's peak, so a command
#' started straight from R would report at least R's own peak, while the
#' launcher is small.  If the launcher is not installed (`attr(,
#' "timer")$launcher` is `NA`), the command is started directly, timed
#' around its spawn from R, and `max_rss` is `NA` when the reported peak
#' does not exceed R's own peak at the start (`attr(, "timer")$rss_floor`).
#'
#' A command starts with standard input from `/dev/null`, standard output
#' and error to `/dev/null` or appended to `.output`, and no other open
#' file: the launcher closes every descriptor above 2 that it inherited
#' from R (R's connections), so a command cannot write into them.  The
#' output file is opened without blocking: a FIFO that no process reads
#' gives `speeduptest_error_spawn` at once instead of waiting for a reader.
#'
#' One run of R code is a batch of evaluations timed as `bench::mark`
#' times its iterations: the monotonic clock is read just before the first
#' evaluation of the batch and just after the last, in compiled code, with
#' nothing allocated in between; `time` is the batch's time divided by the
#' number of evaluations, minus the harness's own time per evaluation (the
#' clock readings and the loop, measured on batches of the same size that
#' evaluate R's `NULL` constant), which is kept in the column `correction`.
#' The number of evaluations per run is sized after the warm-up so that a
#' batch lasts at least 1000 times the clock's step (see Timer and short
#' runs): code that lasts that long is evaluated once per run, faster code
#' in batches of up to a million evaluations, and the sizes are in
#' `attr(, "timer")$batch`.  `.batch` sets the size; with `.setup` or
#' `.cleanup`, every run is one evaluation.
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
#' `true` (the spawn floor; 4 runs after one warm-up, or the 30 of the
#' shell's calibration, made by the launcher in one batch) and the
#' harness's time around one evaluation of R code (51 batches of one).  A
#' version whose median time (for R code, the time of its batch) is under
#' 100 times the resolution, or under 1.5 times the overhead of starting a
#' run, gives a warning of class
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
#' The runs keep the design when analysed again: [median_test()],
#' [mean_test()] (and the other protocols) and `speeduptest compare` on
#' these timings, or on the CSV that `speeduptest measure --export` writes
#' (its columns `sequential_test`, `sequential_alpha` and
#' `sequential_max_runs` carry the design), repeat the looks on the runs in
#' the order they ran and give the verdict of the look that decided (or of
#' the last look), at that look's level, with a note naming the design and
#' the sequential p-value \eqn{\min_j p_j \alpha / \alpha_j} (at most
#' \eqn{\alpha} exactly when a look decided; `compare` adjusts it for
#' multiplicity).  With the protocol that stopped the runs, the analysis
#' gives the decision of the looks.  Another protocol, or another `alpha`,
#' repeats the looks with it: the bound still holds, since the chance of a
#' false claim at any look made is at most the sum of their levels.  Forcing
#' a fixed design (`design`, `replication` or `warmup` given) says that its
#' risk is not kept, and the verdict is not guaranteed.
#'
#' @section Until steady:
#' With `.until = "steady"`, `measure()` looks at the runs of each version,
#' in the order they ran, at the same points as the sequential mode (after
#' 10 rounds, then each time the rounds have grown by half, and at
#' `.max_runs`), classifies each version's series with
#' [warmup_classify()], and stops when every version has reached a steady
#' state (class flat, warm-up or slowdown) holding at least `.runs` runs,
#' or at `.max_runs` runs of each version (the cap). The runs before the
#' steady state are kept in the result; `trim_warmup()` or `warmup =
#' "detect"` drop them. The looks are in `attr(, "steady")`.
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
#'   `"decided"`: sequential mode, see the section Sequential mode;
#'   `"steady"`: runs each version until its runs have settled, see the
#'   section Until steady.
#' @param .max_runs In sequential mode, the largest number of runs of each
#'   version (at most 1e6).
#' @param .test The protocol of the sequential mode, by name (see
#'   [speeduptest_protocols]): `"median"` ([median_test()], the default),
#'   `"mean"` ([mean_test()]), ....
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
#' @param .batch `NULL` (default: sized to the clock, see What is measured)
#'   or the number of evaluations of R code in each run (at most 1e6).
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
                    .until = c("fixed", "decided", "steady"), .max_runs = 100L,
                    .test = protocol_choices(), .alpha = 0.05, .output = NULL,
                    .progress = interactive(), .name = "measure",
                    .env = parent.frame(), .shell = c("auto", "always", "never"),
                    .batch = NULL) {
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
  env <- check_environment(opts$env, arg("env"))
  shell <- check_choice(.shell, c("auto", "always", "never"), ".shell")
  batch <- if (is.null(.batch)) NULL else
    as.integer(check_whole(.batch, ".batch", min = 1, max = 1e6))
  versions <- measure_versions(split$versions, env)
  order <- check_choice(opts$order, c("interleaved", "random", "blocks"), arg("order"))
  until <- check_choice(opts$until, c("fixed", "decided", "steady"), arg("until"))
  test <- check_choice(opts$test, protocol_choices(), arg("test"))
  runs <- as.integer(check_whole(opts$runs, arg("runs"), min = 1, max = 1e6))
  warmup <- as.integer(check_whole(opts$warmup, arg("warmup"), min = 0, max = 1e6))
  max_runs <- as.integer(check_whole(opts$max_runs, arg("max_runs"), min = 3, max = 1e6))
  alpha <- check_alpha(opts$alpha, arg = arg("alpha"))
  progress <- check_flag(opts$progress, arg("progress"))
  timeout <- check_timeout(opts$timeout, arg("timeout"))
  name <- check_string(opts$name, arg("name"))
  output <- check_output_file(opts$output, arg("output"))
  setup <- check_hook(opts$setup, arg("setup"))
  cleanup <- check_hook(opts$cleanup, arg("cleanup"))
  if (until == "decided") {
    if (length(versions) != 2L) {
      abort(sprintf("`.until = \"decided\"` compares two versions; %d were given.",
                    length(versions)))
    }
    if (order == "blocks") {
      abort("`.until = \"decided\"` needs interleaved or random runs, not `.order = \"blocks\"`.")
    }
  }
  if (until == "steady" && max_runs < runs) {
    abort(sprintf("`.until = \"steady\"` needs `.max_runs` (%d) of at least `.runs` (%d), the steady runs asked for.",
                  max_runs, runs))
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
              warmup = warmup, until = until, batch = batch)
  ctx <- measure_command_table(ctx)
  plan <- measure_plan(length(versions), runs, warmup, order,
                       if (until == "steady") "decided" else until, max_runs)
  seq_rule <- if (until == "decided") sequential_rule(plan$looks, max_runs, alpha, test) else
    if (until == "steady") steady_rule(plan$looks, runs, max_runs) else NULL
  measure_loop(ctx, plan, seq_rule, runner = measure_run_version,
               progress = if (progress) measure_progress(plan) else NULL)
}

# ---- the loop -------------------------------------------------------------

new_measure_state <- function(total) {
  st <- new.env(parent = emptyenv())
  st$n <- 0L
  st$version <- integer(total)
  st$time <- st$user <- st$sys <- st$max_rss <- st$start <- double(total)
  # seconds of the harness subtracted from a run of R code (per evaluation)
  st$harness <- double(total)
  # the shell's calibration runs (see measure_calibrate()): wall, user and
  # sys of `sh -c ''` and of a direct `true`, one row per run
  st$cal_shell <- st$cal_direct <- matrix(numeric(), 0L, 3L)
  st$exit_status <- integer(total)
  st$looks <- list()
  st$decision <- NA_character_
  st$interrupted <- FALSE
  st$status_text <- ""
  # R code: evaluations per run and the harness's time per evaluation, per
  # version (set after the warm-up, see measure_batches())
  st$batch <- NULL
  st$harness_per <- NULL
  st$warm_time <- NULL
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
  st$harness[n] <- r$harness %||% 0
  st$n <- n
}

# Records the runs of a segment at once (vectors, one element per run).
measure_record_many <- function(st, i, time, user, sys, max_rss, exit_status, start,
                                harness = 0) {
  m <- length(i)
  if (!m) return(invisible())
  k <- st$n + seq_len(m)
  st$version[k] <- i
  st$time[k] <- time
  st$user[k] <- user
  st$sys[k] <- sys
  st$max_rss[k] <- max_rss
  st$exit_status[k] <- exit_status
  st$start[k] <- start
  st$harness[k] <- harness
  st$n <- st$n + m
  invisible()
}

# The steps of one batch of the plan, in order: for each planned run, the
# setup, a calibration pair of the shell (before a measured run of a
# version run by the shell), the run and the cleanup.  `role`: "run",
# "warmup", "setup", "cleanup", "cal_shell", "cal_direct"; `ver` the
# version.
measure_steps <- function(b, ctx) {
  idx <- b$idx
  n <- length(idx)
  if (!n) return(list(role = character(), ver = integer()))
  per <- vector("list", n)
  run_role <- if (b$warmup) "warmup" else "run"
  shell_cal <- !b$warmup && !is.null(ctx$timer$shell)
  launch <- vapply(ctx$versions, function(v) v$launch %||% "R", "")
  has_setup <- !is.null(ctx$setup)
  has_cleanup <- !is.null(ctx$cleanup)
  cal_roles <- c("cal_shell", if (!is.null(ctx$timer$shell$spawn$direct)) "cal_direct")
  if (!has_setup && !has_cleanup && (!shell_cal || !any(launch[idx] == "shell"))) {
    return(list(role = rep.int(run_role, n), ver = idx))
  }
  for (j in seq_len(n)) {
    i <- idx[j]
    r <- c(if (has_setup) "setup",
           if (shell_cal && launch[i] == "shell") sample(cal_roles),
           run_role, if (has_cleanup) "cleanup")
    per[[j]] <- r
  }
  role <- unlist(per, use.names = FALSE)
  ver <- rep.int(idx, lengths(per))
  list(role = role, ver = ver)
}

# How each step is made: "cmd" (by the launcher, in a batch), "R" (R code
# timed in batches by ffi_eval_runs) or "each" (one at a time by `runner`);
# and, for "cmd", the command's number in ctx$commands.
measure_step_exec <- function(steps, ctx, fast) {
  m <- length(steps$role)
  exec <- rep("each", m)
  cmd <- integer(m)
  if (!fast || !m) return(list(exec = exec, cmd = cmd))
  # what each step makes: a version for the runs and warm-ups, one thing per
  # role for the others; its command's number (NA: not a command the
  # launcher runs)
  id_of <- function(what) what$cmd_id %||% NA_integer_
  ver_id <- vapply(ctx$versions, id_of, 1L)
  ver_r <- vapply(ctx$versions, function(v) v$kind != "command", NA)
  role_id <- c(setup = id_of(ctx$setup), cleanup = id_of(ctx$cleanup),
               cal_shell = id_of(ctx$timer$shell$spawn$shell),
               cal_direct = id_of(ctx$timer$shell$spawn$direct))
  role <- steps$role
  is_run <- role == "run" | role == "warmup"
  id <- rep(NA_integer_, m)
  id[is_run] <- ver_id[steps$ver[is_run]]
  id[!is_run] <- role_id[role[!is_run]]
  by_launcher <- !is.null(ctx$server) & !is.na(id)
  exec[by_launcher] <- "cmd"
  cmd[by_launcher] <- id[by_launcher]
  r_code <- which(!by_launcher & is_run)
  exec[r_code[ver_r[steps$ver[r_code]]]] <- "R"
  list(exec = exec, cmd = cmd)
}

# What measure_fail() needs of a command step that did not succeed.
measure_cmd_outcome <- function(status, exit_status, message) {
  list(status = switch(as.character(status),
         "0" = if (identical(exit_status, 127L)) "not_found" else "failed",
         "1" = "timeout", "2" = "interrupted", "spawn"),
       exit_status = exit_status, message = message, time = NA_real_)
}

# Runs the plan; `runner(version, ctx)` runs one version (replaceable in the
# tests: a runner other than measure_run_version() makes every run through
# it, one at a time).  Returns the timings.
measure_loop <- function(ctx, plan, seq_rule = NULL, runner = measure_run_version,
                         progress = NULL) {
  st <- new_measure_state(plan$total)
  fast <- identical(runner, measure_run_version)
  cal <- ctx$timer$shell
  if (!is.null(cal$samples)) {
    st$cal_shell <- cal$samples$shell
    st$cal_direct <- cal$samples$direct
  }
  if (!is.null(progress)) on.exit(progress$done(), add = TRUE)
  done <- 0L
  # seconds a step takes, for the size of the launcher's batches when a
  # progress line is shown (about 4 updates a second)
  per_step <- ctx$timer$overhead_command %||% NA_real_
  per_step <- if (is.na(per_step)) 1e-3 else max(per_step, 1e-4)

  run_each <- function(role, i) {
    v <- ctx$versions[[i]]
    if (role %in% c("setup", "cleanup")) {
      h <- measure_run_hook(ctx[[role]], v$name, ctx)
      if (h$status == "interrupted") return(FALSE)
      if (h$status != "ok") measure_fail(st, ctx, v, h, role)
      return(TRUE)
    }
    if (role %in% c("cal_shell", "cal_direct")) {
      return(measure_calibration_one(st, ctx, sub("^cal_", "", role)))
    }
    r <- runner(v, ctx)
    if (r$status == "interrupted") return(FALSE)
    if (r$status != "ok") measure_fail(st, ctx, v, r, "run", warmup = role == "warmup")
    if (role == "run") {
      measure_record(st, i, r)
    } else if (role == "warmup") {
      st$warm_time[i] <- r$time
    }
    TRUE
  }

  # steps from..to, all made by the launcher in one batch
  run_cmd <- function(steps, ex, from, to) {
    k <- from:to
    res <- .Call(ffi_launcher_batch, ctx$server, ctx$commands$paths, ctx$commands$args,
                 ex$cmd[k], ctx$output, ctx$timeout)
    nd <- res$done
    m <- res$runs
    role <- steps$role[k]
    good_last <- nd > 0L && isTRUE(m[nd, 5L] == 0 && m[nd, 6L] == 0 && m[nd, 7L] == 0 &&
                                     m[nd, 8L] == 0 && !is.na(m[nd, 1L]))
    # the run that ended the batch early, if any, is not a result
    fail_at <- if (nd == length(k) && good_last && res$status %in% c(0L, 2L)) 0L else nd
    keep <- seq_len(nd)
    keep <- keep[keep != fail_at]
    runs <- keep[role[keep] == "run"]
    measure_record_many(st, steps$ver[k][runs], m[runs, 1L], m[runs, 2L], m[runs, 3L],
                        m[runs, 4L], as.integer(m[runs, 5L]), m[runs, 9L])
    w <- keep[role[keep] == "warmup"]
    if (length(w)) st$warm_time[steps$ver[k][w]] <- m[w, 1L]
    for (what in c("shell", "direct")) {
      ck <- keep[role[keep] == paste0("cal_", what)]
      if (length(ck)) {
        rows <- m[ck, 1:3, drop = FALSE]
        if (what == "shell") st$cal_shell <- rbind(st$cal_shell, rows) else
          st$cal_direct <- rbind(st$cal_direct, rows)
      }
    }
    if (res$status == 2L) return(-1L)
    if (fail_at == 0L && res$status == 0L) return(length(k))
    last <- max(nd, 1L)
    i <- steps$ver[k][last]
    v <- ctx$versions[[i]]
    r <- measure_cmd_outcome(res$status, if (nd) as.integer(m[last, 5L]) else NA_integer_,
                             res$error)
    rl <- role[last]
    if (rl %in% c("cal_shell", "cal_direct")) return(last)   # a calibration run: ignored
    measure_fail(st, ctx, v, r, if (rl %in% c("run", "warmup")) "run" else rl,
                 warmup = rl == "warmup")
  }

  # steps from..to, R code timed in batches of evaluations
  run_r <- function(steps, from, to) {
    k <- from:to
    vers <- steps$ver[k]
    batch <- if (is.null(st$batch)) rep(1L, length(ctx$r_calls)) else st$batch
    harness_per <- if (is.null(st$batch)) rep(0, length(ctx$r_calls)) else st$harness_per
    out <- matrix(NA_real_, length(k), 4L)
    count <- 0L
    count <- c(count, 0L)[1L]   # a fresh vector, written in place by the core
    cnd <- NULL
    interrupted <- FALSE
    limit <- if (is.finite(ctx$timeout)) {
      call("setTimeLimit", elapsed = ctx$timeout, transient = TRUE)
    }
    reset <- if (is.finite(ctx$timeout)) call("setTimeLimit", elapsed = Inf)
    tryCatch(.Call(ffi_eval_runs, ctx$r_calls, ctx$env, ctx$r_id[vers], batch,
                   limit, reset, out, count),
             error = function(e) cnd <<- e,
             interrupt = function(e) interrupted <<- TRUE,
             finally = if (!is.null(reset)) setTimeLimit(elapsed = Inf))
    nd <- count
    ok <- seq_len(nd)
    b <- batch[ctx$r_id[vers[ok]]]
    raw <- out[ok, 1L] / b
    over <- harness_per[ctx$r_id[vers[ok]]]
    floor <- max(ctx$timer$resolution, 1e-9, na.rm = TRUE) / b
    time <- pmax(raw - over, floor)
    limited <- is.finite(ctx$timeout)
    too_long <- limited & out[ok, 1L] > ctx$timeout
    if (any(too_long)) {
      # code R could not interrupt: found longer than the timeout afterwards
      first <- which(too_long)[1L]
      nd <- first - 1L
      ok <- seq_len(nd)
      cnd <- NULL
      interrupted <- FALSE
      timed <- list(status = "timeout", time = out[first, 1L], exit_status = NA_integer_)
    } else {
      timed <- NULL
    }
    role <- steps$role[k]
    runs <- ok[role[ok] == "run"]
    measure_record_many(st, vers[runs], time[runs], out[runs, 2L] / b[runs],
                        out[runs, 3L] / b[runs], NA_real_, NA_integer_, out[runs, 4L],
                        harness = raw[runs] - time[runs])
    w <- ok[role[ok] == "warmup"]
    if (length(w)) st$warm_time[vers[w]] <- raw[w]
    if (interrupted) return(-1L)
    if (is.null(cnd) && is.null(timed)) return(length(k))
    last <- nd + 1L
    v <- ctx$versions[[vers[last]]]
    r <- timed %||% list(
      status = if (limited && grepl("time limit", conditionMessage(cnd), fixed = TRUE))
        "timeout" else "error",
      condition = cnd, time = NA_real_, exit_status = NA_integer_)
    if (identical(r$status, "timeout") && is.na(r$time)) r$time <- ctx$timeout
    measure_fail(st, ctx, v, r, "run", warmup = role[last] == "warmup")
  }

  run_in_batch <- function(b) {
    steps <- measure_steps(b, ctx)
    ex <- measure_step_exec(steps, ctx, fast)
    m <- length(steps$role)
    pos <- 1L
    while (pos <= m) {
      kind <- ex$exec[pos]
      end <- pos
      if (kind != "each") {
        # at most 5000 runs a batch (the reports wait in the launcher's
        # memory until the batch ends); with a progress line, about 0.25 s
        limit <- if (is.null(progress)) 5000L else
          max(1L, min(5000L, as.integer(0.25 / per_step)))
        while (end < m && ex$exec[end + 1L] == kind && end - pos + 1L < limit) {
          end <- end + 1L
        }
      }
      t0 <- .Call(ffi_monotonic_now)
      got <- switch(kind,
        cmd = run_cmd(steps, ex, pos, end),
        R = run_r(steps, pos, end),
        each = if (run_each(steps$role[pos], steps$ver[pos])) 1L else -1L)
      if (got < 0L) return(FALSE)
      if (kind != "each") per_step <<- max((.Call(ffi_monotonic_now) - t0) / got, 1e-5)
      roles <- steps$role[pos:(pos + got - 1L)]
      done <<- done + sum(roles %in% c("run", "warmup"))
      if (!is.null(progress)) progress$update(done, st$status_text)
      pos <- pos + got
    }
    if (b$warmup && fast && is.null(st$batch)) measure_size_batches(st, ctx)
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
        if (if (identical(seq_rule$kind, "steady")) steady_step(st, seq_rule, b$look, ctx)
            else sequential_step(st, seq_rule, b$look, ctx)) break
      }
    }
    finished
  }, interrupt = function(cnd) FALSE)
  ctx$timer$batch <- measure_batch_sizes(st, ctx)
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

# Sizes the batches of R code (measure_batches()); an error of the code
# while sizing stops the measurement as an error in a warm-up run would.
measure_size_batches <- function(st, ctx) {
  e <- measure_batches(st, ctx)
  if (!is.null(e)) {
    limited <- is.finite(ctx$timeout)
    timeout <- limited && grepl("time limit", conditionMessage(e$condition), fixed = TRUE)
    measure_fail(st, ctx, ctx$versions[[e$version]],
                 list(status = if (timeout) "timeout" else "error",
                      condition = if (!timeout) e$condition,
                      time = if (timeout) ctx$timeout else NA_real_,
                      exit_status = NA_integer_), "run", warmup = TRUE)
  }
  invisible()
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
