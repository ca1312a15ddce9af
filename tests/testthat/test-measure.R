# measure(): commands and R code timed in interleaved order, classed
# failures, interrupts, the sequential rule.  Commands are short (tens of
# milliseconds) and runs few, to keep the suite fast.

skip_on_os("windows")

quiet_short <- function(expr) {
  withCallingHandlers(expr, speeduptest_warning_short_runs = function(w) {
    invokeRestart("muffleWarning")
  })
}

# TRUE when the protocol declares that `faster` is faster than `slower`
# (a speedup of `faster` over `slower`), and not the reverse.
declares_speedup <- function(slower, faster) {
  v <- median_test(slower, faster, rigorous = FALSE)
  w <- median_test(faster, slower, rigorous = FALSE)
  ok <- isTRUE(v$significant) && !isTRUE(w$significant)
  if (!is.null(v$direction)) ok <- ok && identical(v$direction, "speedup")
  if (!is.null(w$direction)) ok <- ok && identical(w$direction, "slowdown")
  ok
}

test_that("sleep 0.02 against sleep 0.01: speedup one way, slowdown the other", {
  t <- quiet_short(measure(slow = "sleep 0.02", fast = "sleep 0.01", .runs = 15))
  expect_s3_class(t, "speedup_timings")
  expect_identical(attr(t, "run_order"), "global")
  expect_identical(levels(t$version), c("slow", "fast"))
  slow <- t$time[t$version == "slow"]
  fast <- t$time[t$version == "fast"]
  expect_length(slow, 15L)
  expect_true(all(slow >= 0.02) && all(fast >= 0.01))
  # initial slow, transformed fast
  expect_true(declares_speedup(slow, fast),
              info = paste("slow:", paste(round(1000 * slow), collapse = " "),
                           "fast:", paste(round(1000 * fast), collapse = " ")))
  # and the mirrored comparison is a slowdown, not a speedup
  v <- median_test(fast, slow, rigorous = FALSE)
  expect_false(isTRUE(v$significant))
  if (!is.null(v$direction)) expect_identical(v$direction, "slowdown")
  expect_true(all(t$exit_status == 0L))
  expect_s3_class(t$timestamp, "POSIXct")
  expect_true(all(diff(as.double(t$timestamp)) >= 0))
})

test_that("the recorded order is the one asked for", {
  f <- function() NULL
  for (ord in c("interleaved", "random", "blocks")) {
    set.seed(11)
    t <- quiet_short(measure(a = function() NULL, b = function() 1, c = function() 2,
                             .runs = 6, .order = ord))
    expect_identical(attr(t, "order"), ord)
    expect_identical(t$run, seq_len(18L))
    expect_equal(as.vector(table(t$version)), c(6L, 6L, 6L))
    v <- as.integer(t$version)[order(t$run)]
    rounds <- split(v, rep(1:6, each = 3))
    each_once <- vapply(rounds, function(r) setequal(r, 1:3), TRUE)
    if (ord == "interleaved") {
      expect_true(all(each_once))
      # a fresh random order in each round, not the same one repeated
      expect_gt(length(unique(vapply(rounds, paste, "", collapse = ""))), 1L)
    } else if (ord == "blocks") {
      expect_identical(v, rep(1:3, each = 6))
    } else {
      expect_false(all(each_once))   # seed 11: a permutation that is not round by round
      expect_false(identical(v, rep(1:3, each = 6)))
    }
  }
})

test_that("CPU time and peak memory are sane", {
  skip_if(is.na(measure_launcher()), "the launcher st-launch is not installed")
  burn <- "awk 'BEGIN{for(i=0;i<3e6;i++)s+=i}'"
  t <- quiet_short(measure(burn = burn, idle = "sleep 0.01", nothing = "true",
                           .runs = 3, .warmup = 0))
  expect_identical(attr(t, "timer")$launcher, measure_launcher())
  b <- t[t$version == "burn", ]
  i <- t[t$version == "idle", ]
  # a single-threaded loop: CPU time close to the wall time, never above it
  expect_true(all(b$user > 0.01))
  expect_true(all(b$user + b$sys <= b$time * 1.05 + 0.005))
  # sleeping uses almost no CPU
  expect_true(all(i$user + i$sys < 0.02))
  expect_true(all(i$time >= 0.01))
  # the peak of small commands is their own: a few MB, far below R's own
  # peak (which the kernel would have reported without the launcher)
  floor <- attr(t, "timer")$rss_floor
  expect_gt(floor, 3e7)
  expect_true(all(!is.na(t$max_rss)))
  expect_true(all(t$max_rss > 1e5 & t$max_rss < 2e7),
              info = paste(format(t$max_rss), collapse = " "))
  expect_true(all(t$max_rss < floor / 2))

  # a buffer of 2e8 bytes filled by read(): the peak is about that
  alloc <- "dd if=/dev/zero of=/dev/null bs=200000000 count=1"
  a <- quiet_short(measure(alloc = alloc, .runs = 2, .warmup = 0))
  expect_true(all(abs(a$max_rss / 2e8 - 1) < 0.15),
              info = paste(format(a$max_rss), collapse = " "))
})

test_that("without the launcher, peaks below R's own are unknown", {
  r <- .Call(ffi_run_command, NULL, "true", NULL, Inf, NULL)
  expect_identical(r$status, 0L)
  expect_false(r$launched)
  # the kernel's figure is at least R's own peak
  expect_gte(r$max_rss, 0.99 * r$rss_floor)
  r <- .Call(ffi_run_command, NULL, "exit 3", NULL, Inf, file.path(tempdir(), "no-launcher"))
  expect_false(r$launched)
  expect_identical(r$exit_status, 3L)
  v <- list(kind = "command", what = "true", launch = "shell", path = NULL, args = "true")
  ctx <- list(output = NULL, timeout = Inf, timer = list(launcher = NA_character_))
  expect_true(is.na(measure_run_version(v, ctx)$max_rss))
  # a program run directly, without the launcher
  r <- .Call(ffi_run_command, Sys.which("sh"), c("sh", "-c", "exit 4"), NULL, Inf, NULL)
  expect_identical(c(r$status, r$exit_status), c(0L, 4L))
  # a launcher that does not report: the run could not be started
  if (file.exists("/bin/true")) {
    r <- .Call(ffi_run_command, NULL, "true", NULL, Inf, "/bin/true")
    expect_identical(r$status, 3L)
    expect_match(r$error, "did not report", fixed = TRUE)
  }
})

test_that("the launcher reports the shell's status and signal", {
  launcher <- measure_launcher()
  skip_if(is.na(launcher), "the launcher st-launch is not installed")
  run <- function(cmd, timeout = Inf) .Call(ffi_run_command, NULL, cmd, NULL, timeout, launcher)
  r <- run("exit 3")
  expect_true(r$launched)
  expect_identical(c(r$status, r$exit_status, r$signal), c(0L, 3L, 0L))
  r <- run("kill -9 $$")
  expect_identical(c(r$status, r$exit_status, r$signal), c(0L, 137L, 9L))
  r <- run("no_such_command_speeduptest_xyz")
  expect_identical(r$exit_status, 127L)
  # a timeout: the group gets SIGTERM, the launcher survives it and reports
  r <- run("sleep 5", timeout = 0.2)
  expect_identical(r$status, 1L)
  expect_true(r$launched)
  expect_identical(r$signal, 15L)
  expect_lt(r$wall, 0.6)
  # a program run directly: its status, and a program that cannot be run
  r <- .Call(ffi_run_command, Sys.which("sh"), c("sh", "-c", "exit 5"), NULL, Inf, launcher)
  expect_true(r$launched)
  expect_identical(c(r$status, r$exit_status), c(0L, 5L))
  r <- .Call(ffi_run_command, file.path(tempdir(), "no-such-program"), "x", NULL, Inf,
             launcher)
  expect_identical(r$status, 3L)
  expect_match(r$error, "No such file", fixed = TRUE)
})

test_that("a failing command stops with a classed error naming command, run and status", {
  f <- tempfile()
  on.exit(unlink(f))
  cmd <- sprintf("echo x >> %s; test $(wc -l < %s) -le 4", f, f)
  err <- tryCatch(measure(ok = "true", bad = cmd, .runs = 10, .order = "blocks",
                          .warmup = 1),
                  error = function(e) e)
  expect_s3_class(err, "speeduptest_error_command")
  expect_s3_class(err, "speeduptest_error")
  expect_false(inherits(err, "speeduptest_error_command_not_found"))
  expect_identical(err$exit_status, 1L)
  expect_identical(err$version, "bad")
  expect_identical(err$command, cmd)
  # warm-up 1 + 3 runs succeed, run 4 of `bad` (run 14 overall) fails
  expect_identical(err$run, 14L)
  expect_match(conditionMessage(err), "bad", fixed = TRUE)
  expect_match(conditionMessage(err), "run 14", fixed = TRUE)
  expect_match(conditionMessage(err), "status 1", fixed = TRUE)
  expect_s3_class(err$timings, "speedup_timings")
  expect_identical(as.vector(table(err$timings$version)), c(10L, 3L))
})

test_that("a missing command and a timeout give their own classed errors", {
  err <- tryCatch(measure(x = "no_such_command_speeduptest_xyz", .warmup = 0, .runs = 2),
                  error = function(e) e)
  expect_s3_class(err, "speeduptest_error_command_not_found")
  expect_s3_class(err, "speeduptest_error_command")
  expect_identical(err$exit_status, 127L)
  expect_identical(err$run, 1L)

  pidfile <- tempfile()
  on.exit(unlink(pidfile))
  # the shell starts a background sleep: the whole process group must go
  cmd <- sprintf("sleep 30 & echo $! > %s; wait", pidfile)
  t0 <- Sys.time()
  err <- tryCatch(measure(x = cmd, .warmup = 0, .runs = 2, .timeout = 0.3),
                  error = function(e) e)
  elapsed <- as.double(difftime(Sys.time(), t0, units = "secs"))
  expect_s3_class(err, "speeduptest_error_timeout")
  expect_match(conditionMessage(err), "timeout", fixed = TRUE)
  expect_lt(elapsed, 5)
  pid <- as.integer(readLines(pidfile))
  Sys.sleep(0.1)
  expect_false(file.exists(file.path("/proc", pid)) &&
                 !any(grepl("^State:\\s+Z", readLines(file.path("/proc", pid, "status")))))

  err <- tryCatch(measure(x = while (TRUE) NULL, .warmup = 0, .runs = 2, .timeout = 0.2),
                  error = function(e) e)
  expect_s3_class(err, "speeduptest_error_timeout")
})

test_that("R expressions and functions are timed; their errors are classed", {
  t <- measure(expr = Sys.sleep(0.03), fun = function() Sys.sleep(0.01), .runs = 3)
  e <- t$time[t$version == "expr"]
  f <- t$time[t$version == "fun"]
  expect_true(all(e >= 0.03 & e < 1))
  expect_true(all(f >= 0.01 & f < 1))
  expect_true(all(is.na(t$max_rss)) && all(is.na(t$exit_status)))
  expect_match(attr(t, "versions")[["expr"]], "Sys.sleep(0.03)", fixed = TRUE)

  # a variable holding a function, and the list form with a quoted expression
  g <- function() Sys.sleep(0.01)
  t <- quiet_short(measure(list(g = g, q = quote(Sys.sleep(0.02)), cmd = "sleep 0.01"),
                           .runs = 2))
  expect_identical(levels(t$version), c("g", "q", "cmd"))
  expect_true(all(t$time[t$version == "q"] >= 0.02))
  expect_match(attr(t, "versions")[["cmd"]], "^command")

  # a single unnamed expression is timed, not run beforehand to look at it
  calls <- 0L
  counter <- function() {
    calls <<- calls + 1L
    Sys.sleep(0.01)
  }
  t <- measure(counter(), .runs = 2, .warmup = 1)
  expect_identical(calls, 3L)
  expect_identical(levels(t$version), "counter()")
  cmds <- c(a = "sleep 0.01", b = "sleep 0.01")
  expect_identical(levels(quiet_short(measure(cmds, .runs = 1))$version), c("a", "b"))

  err <- tryCatch(measure(x = stop("boom"), .runs = 2), error = function(e) e)
  expect_s3_class(err, "speeduptest_error_expression")
  expect_match(conditionMessage(err), "boom", fixed = TRUE)
})

test_that("setup and cleanup run around every run, untimed", {
  n_setup <- 0L
  seen <- character()
  f <- tempfile()
  on.exit(unlink(f))
  t <- quiet_short(measure(a = "true", b = "true", .runs = 3, .warmup = 1,
                           .setup = function(version) {
                             n_setup <<- n_setup + 1L
                             seen <<- c(seen, version)
                           },
                           .cleanup = sprintf("echo done >> %s", f)))
  expect_identical(n_setup, 8L)
  expect_identical(sort(unique(seen)), c("a", "b"))
  expect_length(readLines(f), 8L)
  # the setup is not timed
  t <- quiet_short(measure(a = "sleep 0.01", .runs = 3, .setup = function() Sys.sleep(0.1)))
  expect_lt(median(t$time), 0.09)

  err <- tryCatch(measure(a = "true", .runs = 2, .setup = "exit 4"), error = function(e) e)
  expect_s3_class(err, "speeduptest_error_command")
  expect_match(conditionMessage(err), "setup", fixed = TRUE)
})

test_that("output is discarded, or appended to a file", {
  f <- tempfile()
  on.exit(unlink(f))
  t <- quiet_short(measure(a = "echo hello; echo err >&2", .runs = 3, .output = f))
  expect_identical(readLines(f), rep(c("hello", "err"), 4L))
  expect_error(measure(a = "true", .output = tempdir()), class = "speeduptest_error_file")
})

test_that("the timer and the machine are recorded and printed", {
  t <- quiet_short(measure(a = "true", b = function() NULL, .runs = 2))
  tm <- attr(t, "timer")
  expect_gt(tm$resolution, 0)
  expect_lt(tm$resolution, 0.01)
  expect_gt(tm$overhead_command, 0)
  expect_gt(tm$overhead_r, 0)
  expect_lt(tm$overhead_r, tm$overhead_command)
  m <- attr(t, "machine")
  expect_true(is.character(m$cpu_model) && is.character(m$kernel))
  expect_true(is.integer(m$cores))
  if (file.exists("/proc/loadavg")) {
    expect_length(m$load_before, 3L)
    expect_length(m$load_after, 3L)
  }
  lines <- format_machine(t)
  expect_true(any(grepl("^Machine:", lines)))
  expect_true(any(grepl("^Timer:", lines)))
  expect_output(print(t), "Load average", fixed = TRUE)
  if (!is.na(tm$launcher)) expect_false(any(grepl("^Peak memory:", lines)))
  attr(t, "timer")$launcher <- NA_character_
  expect_true(any(grepl("^Peak memory: launcher not installed", format_machine(t))))
})

test_that("the progress bar does not get in the way", {
  withr_opts <- options(cli.progress_show_after = 0)
  on.exit(options(withr_opts))
  t <- quiet_short(measure(a = "sleep 0.01", b = "sleep 0.01", .runs = 3, .progress = TRUE))
  expect_identical(nrow(t), 6L)
  t <- quiet_short(measure(a = "sleep 0.01", b = "sleep 0.01", .progress = TRUE,
                           .until = "decided", .max_runs = 10))
  expect_identical(nrow(t), 20L)
  expect_error(measure(a = "true", .progress = NA), class = "speeduptest_error_input")
})

test_that("runs too short to time give a classed warning with the advice", {
  # the rule, on made-up timings: under 100 resolutions or 1.5 start-ups
  ctx <- list(timer = list(resolution = 1e-6, tick = 2e-6, overhead_command = 1e-3,
                           overhead_r = 1e-5),
              versions = list(list(name = "cmd", kind = "command"),
                              list(name = "fun", kind = "function")))
  tim <- function(cmd, fun) {
    speeduptest:::new_speedup_timings("b", rep(c("cmd", "fun"), each = 3),
                                      c(cmd, fun), run_order = "global")
  }
  expect_no_warning(check_short_runs(tim(rep(0.002, 3), rep(0.001, 3)), ctx))
  expect_warning(check_short_runs(tim(rep(0.0014, 3), rep(0.001, 3)), ctx),
                 class = "speeduptest_warning_short_runs")   # near the start-up
  w <- tryCatch(check_short_runs(tim(rep(0.002, 3), rep(1.9e-4, 3)), ctx),
                warning = function(w) w)                       # near the resolution
  expect_s3_class(w, "speeduptest_warning_short_runs")
  expect_match(conditionMessage(w), "`fun`", fixed = TRUE)
  expect_no_match(conditionMessage(w), "`cmd`", fixed = TRUE)
  expect_match(conditionMessage(w), "inside each run", fixed = TRUE)
  # and for real: a run of a few microseconds on a clock of a microsecond
  t <- suppressWarnings(measure(f = function() NULL, .runs = 3))
  expect_warning(check_short_runs(t, list(timer = list(resolution = 1e-6, tick = NA,
                                                        overhead_r = NA_real_),
                                          versions = list(list(name = "f", kind = "function")))),
                 class = "speeduptest_warning_short_runs")
  expect_no_warning(measure(s = Sys.sleep(0.01), .runs = 2))
})

test_that("bad arguments are classed input errors", {
  expect_error(measure(), class = "speeduptest_error_input")
  expect_error(measure(a = "true", .runs = 0), class = "speeduptest_error_input")
  expect_error(measure(a = "true", .runs = 2.5), class = "speeduptest_error_input")
  expect_error(measure(a = "true", .order = "sorted"), class = "speeduptest_error_input")
  expect_error(measure(a = "true", .timeout = -1), class = "speeduptest_error_input")
  expect_error(measure(a = "true", a = "false"), class = "speeduptest_error_input")
  expect_error(measure(a = "true", b = "true", c = "true", .until = "decided"),
               class = "speeduptest_error_input")
  expect_error(measure(a = "true", b = "true", .until = "decided", .order = "blocks"),
               class = "speeduptest_error_input")
  expect_error(measure(a = 3), class = "speeduptest_error_input")
  expect_error(measure(a = "true", .setup = 3), class = "speeduptest_error_input")
})

# ---- interrupts ---------------------------------------------------------------

test_that("an interrupt returns the runs so far with a warning (simulated)", {
  count <- 0L
  fake <- function(v, ctx) {
    count <<- count + 1L
    if (count == 5L) signalCondition(structure(class = c("interrupt", "condition"),
                                               list(message = "", call = NULL)))
    list(time = 0.5, user = 0.4, sys = 0, max_rss = 1e6, exit_status = 0L,
         start = as.double(Sys.time()), status = "ok")
  }
  ctx <- list(versions = list(list(name = "a", kind = "command", what = "a", label = "a"),
                              list(name = "b", kind = "command", what = "b", label = "b")),
              setup = NULL, cleanup = NULL, timeout = Inf, output = NULL,
              env = globalenv(), name = "sim", machine = list(), timer = list(),
              order = "interleaved", warmup = 1L, until = "fixed")
  plan <- measure_plan(2L, 10L, 1L, "interleaved", "fixed", 100L)
  expect_warning(t <- measure_loop(ctx, plan, runner = fake),
                 class = "speeduptest_warning_interrupted")
  # 2 warm-ups, then runs 1 to 2 recorded; the 5th call was interrupted
  expect_identical(nrow(t), 2L)
  expect_true(isTRUE(attr(t, "interrupted")))

  # the C core's answer "interrupted" (the process group was killed)
  count <- 0L
  fake2 <- function(v, ctx) {
    count <<- count + 1L
    list(time = 0.5, user = 0.4, sys = 0, max_rss = 1e6, exit_status = 0L,
         start = as.double(Sys.time()), status = if (count == 8L) "interrupted" else "ok")
  }
  expect_warning(t <- measure_loop(ctx, plan, runner = fake2),
                 class = "speeduptest_warning_interrupted")
  expect_identical(nrow(t), 5L)
})

test_that("SIGINT to an R process measuring a command returns the runs so far", {
  skip_on_cran()
  skip_if_not(nzchar(Sys.which("Rscript")))
  dir <- tempfile()
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  pidfile <- file.path(dir, "pid")
  rds <- file.path(dir, "out.rds")
  started <- file.path(dir, "started")
  script <- file.path(dir, "run.R")
  writeLines(c(
    'library(speeduptest)',
    sprintf('writeLines(as.character(Sys.getpid()), "%s")', pidfile),
    'w <- NULL',
    't <- withCallingHandlers(speeduptest::measure(a = "sleep 0.05", .runs = 1000, .warmup = 0,',
    sprintf('  .setup = function() if (!file.exists("%s")) file.create("%s")),', started, started),
    '  warning = function(cnd) { w <<- class(cnd); invokeRestart("muffleWarning") })',
    sprintf('saveRDS(list(t = t, w = w), "%s")', rds)), script)
  lib <- paste(.libPaths(), collapse = .Platform$path.sep)
  system2(file.path(R.home("bin"), "Rscript"), shQuote(script), wait = FALSE,
          env = paste0("R_LIBS=", shQuote(lib)), stdout = FALSE, stderr = FALSE)
  for (i in 1:300) if (file.exists(started)) break else Sys.sleep(0.1)
  expect_true(file.exists(started))
  Sys.sleep(0.5)
  tools::pskill(as.integer(readLines(pidfile)), tools::SIGINT)
  for (i in 1:300) if (file.exists(rds)) break else Sys.sleep(0.1)
  Sys.sleep(0.2)
  expect_true(file.exists(rds))
  res <- readRDS(rds)
  expect_true("speeduptest_warning_interrupted" %in% res$w)
  expect_s3_class(res$t, "speedup_timings")
  expect_gt(nrow(res$t), 0L)
  expect_lt(nrow(res$t), 1000L)
  expect_true(all(res$t$time >= 0.05))
})

# ---- the sequential rule ------------------------------------------------------

test_that("the sequential looks and levels spend alpha exactly", {
  expect_identical(sequential_looks(100L), c(10L, 15L, 22L, 33L, 50L, 75L, 100L))
  expect_identical(sequential_looks(8L), 8L)
  expect_identical(sequential_looks(11L), c(10L, 11L))
  rule <- sequential_rule(sequential_looks(100L), 100L, 0.05, "median")
  expect_equal(sum(rule$levels), 0.05)
  expect_true(all(rule$levels > 0))
  # O'Brien-Fleming-type spending: A(t) = 2 (1 - Phi(z_{1 - alpha/2} / sqrt(t)))
  expect_equal(rule$spent[5], 2 * (1 - pnorm(qnorm(0.975) / sqrt(0.5))))
  expect_equal(obf_spending(1, 0.01), 0.01)
})

test_that("sequential mode stops when the difference is clear", {
  t <- quiet_short(measure(slow = "sleep 0.04", fast = "sleep 0.01",
                           .until = "decided", .max_runs = 40))
  sq <- attr(t, "sequential")
  rule <- sequential_rule(sequential_looks(40L), 40L, 0.05, "median")
  expect_identical(sq$decision, "speedup")
  j <- nrow(sq$looks)
  # it stopped at the look that decided (on a quiet machine the first one)
  expect_identical(sq$looks$decision, c(rep("none", j - 1L), "speedup"))
  expect_identical(as.vector(table(t$version)), rep(rule$looks[j], 2L))
  expect_equal(sq$level, rule$levels[j])
  expect_lte(sq$looks$p_speedup[j], sq$level)
  expect_true(declares_speedup(t$time[t$version == "slow"], t$time[t$version == "fast"]))

  t <- quiet_short(measure(fast = "sleep 0.01", slow = "sleep 0.04",
                           .until = "decided", .max_runs = 40, .test = "mean"))
  expect_identical(attr(t, "sequential")$decision, "slowdown")
  expect_output(print(t), "Sequential (mean test", fixed = TRUE)
})

test_that("sequential mode runs to max_runs when nothing differs (simulated)", {
  set.seed(5)
  fake <- function(v, ctx) {
    list(time = rlnorm(1, log(0.1), 0.05), user = 0, sys = 0, max_rss = NA_real_,
         exit_status = 0L, start = 0, status = "ok")
  }
  ctx <- list(versions = list(list(name = "a", kind = "command", what = "a", label = "a"),
                              list(name = "b", kind = "command", what = "b", label = "b")),
              setup = NULL, cleanup = NULL, timeout = Inf, output = NULL,
              env = globalenv(), name = "sim", machine = list(), timer = list(),
              order = "interleaved", warmup = 0L, until = "decided")
  plan <- measure_plan(2L, 31L, 0L, "interleaved", "decided", 50L)
  rule <- sequential_rule(plan$looks, 50L, 0.05, "median")
  t <- measure_loop(ctx, plan, rule, runner = fake)
  sq <- attr(t, "sequential")
  expect_identical(sq$decision, "none")
  expect_identical(sq$looks$runs, c(10L, 15L, 22L, 33L, 50L))
  expect_identical(nrow(t), 100L)
  expect_identical(sq$looks$rigorous, c(FALSE, FALSE, FALSE, TRUE, TRUE))
})

# ---- commands: direct or by the shell ------------------------------------------

test_that("a command line is split into words only when it needs no shell", {
  split <- function(cmd) .Call(ffi_split_command, cmd)
  expect_identical(split("sleep 0.01"), c("sleep", "0.01"))
  expect_identical(split("  ./prog\t--n=3   x  "), c("./prog", "--n=3", "x"))
  expect_identical(split("prog 'a b' \"c d\" '' x'y'z"), c("prog", "a b", "c d", "", "xyz"))
  expect_identical(split("prog 'it''s $HOME'"), c("prog", "its $HOME"))
  for (cmd in c("a | b", "a > f", "a < f", "a; b", "a && b", "a &", "echo $HOME",
                "echo `date`", "ls *.c", "ls ?", "ls [ab]", "echo {a,b}", "ls ~",
                "a \\ b", "X=1 prog", "prog # comment", "cd /tmp", ": x", "exit 3",
                "if true", "! prog", "prog \"$x\"", "prog 'open", "prog \"open",
                "a\nb", "", "   ", "(a)", "export A=1", ". file")) {
    expect_null(split(cmd), label = cmd)
  }
  # `=` after the first word and `#` inside a word are plain characters
  expect_identical(split("prog a=b c#d"), c("prog", "a=b", "c#d"))
})

test_that("the words of a split command are those the shell passes", {
  # random command lines over letters, blanks, quotes and shell characters;
  # every one the splitter accepts must give the words `sh` gives the
  # printf program (by its path: the word `printf` is the shell's builtin)
  printf <- unname(Sys.which("printf"))
  skip_if_not(nzchar(printf))
  set.seed(23)
  alphabet <- c(letters[1:3], " ", " ", " ", "'", "\"", "=", "-", ".", "$", "|", "#", "*")
  accepted <- 0L
  for (i in seq_len(300L)) {
    cmd <- paste0(printf, " %s: ", paste(sample(alphabet, sample(1:10, 1L), TRUE),
                                       collapse = ""))
    words <- .Call(ffi_split_command, cmd)
    if (is.null(words)) next
    accepted <- accepted + 1L
    got <- paste(system2("sh", c("-c", shQuote(cmd)), stdout = TRUE), collapse = "\n")
    args <- words[-(1:2)]
    expect_identical(if (length(args)) paste0(args, ":", collapse = "") else ":", got,
                     label = cmd)
  }
  expect_gt(accepted, 50L)
})

test_that("simple commands run directly, the others by the shell, as asked", {
  t <- quiet_short(measure(d = "true", s = "true | true", .runs = 2, .warmup = 0))
  expect_identical(attr(t, "launch"), c(d = "direct", s = "shell"))
  t <- quiet_short(measure(d = "true", f = function() 1, .runs = 2, .warmup = 0,
                           .shell = "always"))
  expect_identical(attr(t, "launch"), c(d = "shell", f = "R"))
  expect_error(measure(s = "true | true", .shell = "never"),
               class = "speeduptest_error_input")
  expect_error(measure(d = "true", .shell = "sometimes"), class = "speeduptest_error_input")
  # a program that is not there goes to the shell, which says so
  err <- tryCatch(measure(x = "no_such_program_speeduptest_q 1", .runs = 1, .warmup = 0),
                  error = function(e) e)
  expect_s3_class(err, "speeduptest_error_command_not_found")
  expect_error(measure(x = "no_such_program_speeduptest_q", .shell = "never"),
               class = "speeduptest_error_command_not_found")
})

test_that("the shell's start-up is measured, subtracted, kept and printed", {
  # `exec`: the shell replaces itself by sleep, so what it adds is its start.
  # With the shell's share taken off, the two read alike; a loaded machine
  # can push one measurement's ratio out of the bounds below, so up to three
  # are taken and the first within them is kept (a share not subtracted, or
  # subtracted twice, puts every one of them out)
  alike <- function(t) {
    med <- tapply(t$time, t$version, median)
    r <- med[["shell"]] / med[["direct"]]
    r > 0.75 && r < 1.33
  }
  for (attempt in 1:3) {
    t <- quiet_short(measure(direct = "sleep 0.02", shell = "exec sleep 0.02", .runs = 15))
    if (alike(t)) break
  }
  sh <- attr(t, "timer")$shell
  expect_type(sh$wall, "double")
  expect_gte(sh$wall, 0)
  expect_equal(sh$wall, max(sh$shell_wall - sh$direct_wall, 0))
  # 30 runs before, one more before each of the 15 measured runs by the shell
  expect_identical(sh$runs, 45L)
  corr <- split(t$correction, t$version)
  expect_true(all(corr$direct == 0))
  expect_true(all(corr$shell == sh$wall | t$time[t$version == "shell"] <= 1e-6))
  # with the shell's share taken off, the two read alike (generous bounds:
  # the machine may be loaded)
  med <- tapply(t$time, t$version, median)
  expect_gt(med[["shell"]] / med[["direct"]], 0.75)
  expect_lt(med[["shell"]] / med[["direct"]], 1.33)
  out <- capture.output(print(t))
  expect_true(any(grepl("Shell start-up subtracted from each run of `shell`", out,
                        fixed = TRUE)))
  expect_true(any(grepl("`direct` run directly; `shell` run by /bin/sh -c", out,
                        fixed = TRUE)))
  expect_true(all(nchar(out) <= 80L))
  # no shell version, no calibration
  t <- quiet_short(measure(d = "true", .runs = 2, .warmup = 0))
  expect_null(attr(t, "timer")$shell)
  expect_true(all(t$correction == 0))
})

test_that("a command's time is its own: near hyperfine -N's for `true` and 10 ms", {
  skip_on_cran()
  skip_if_not(nzchar(Sys.which("hyperfine")), "hyperfine is not installed")
  hf <- function(cmd) {
    f <- tempfile(fileext = ".json")
    on.exit(unlink(f))
    system2("hyperfine", c("-N", "--runs", "10", "--warmup", "2", "--style", "none",
                           "--export-json", f, shQuote(cmd)), stdout = FALSE, stderr = FALSE)
    read_timings(f, format = "hyperfine")$time
  }
  ours <- function(cmd) quiet_short(measure(x = cmd, .runs = 10, .warmup = 2))$time
  # the two tools in turn, 7 times 10 runs each: a busy period of the machine
  # falls on both; the ratio of the medians of all runs
  ratio <- function(cmd) {
    a <- b <- list()
    for (i in 1:7) {
      if (i %% 2L) {
        a[[i]] <- ours(cmd)
        b[[i]] <- hf(cmd)
      } else {
        b[[i]] <- hf(cmd)
        a[[i]] <- ours(cmd)
      }
    }
    median(unlist(a)) / median(unlist(b))
  }
  r_true <- ratio("true")
  r_sleep <- ratio("sleep 0.01")
  # the acceptance figures (1.3 and 2 %) are measured by bench/measure.R;
  # here bounds that hold at a load of 15 on 2 cores, where a sleeping
  # command's time is mostly the scheduler's wake-up (the previous design
  # read 2.4 times hyperfine's `true`)
  expect_lt(r_true, 2)
  expect_gt(r_sleep, 0.5)
  expect_lt(r_sleep, 1.5)
})

# ---- structure columns -------------------------------------------------------------

test_that("rounds and processes are recorded", {
  t <- quiet_short(measure(a = "true", b = "true", c = function() NULL, .runs = 4))
  expect_identical(t$round, rep(1:4, each = 3L))
  for (r in 1:4) expect_setequal(as.character(t$version[t$round == r]), c("a", "b", "c"))
  cmd <- t$version != "c"
  expect_identical(t$process[cmd], t$run[cmd])
  expect_true(all(t$process[!cmd] == 0L))
  t <- quiet_short(measure(a = "true", b = "true", .runs = 3, .order = "random"))
  expect_true(all(is.na(t$round)))
  t <- quiet_short(measure(a = "true", b = "true", .runs = 3, .order = "blocks"))
  expect_true(all(is.na(t$round)))
})

# ---- nothing left behind, no bad input unchecked ------------------------------------

test_that("what a command leaves in the background does not outlive its run", {
  skip_if_not(dir.exists("/proc/self"), "no /proc")
  f <- tempfile()
  on.exit(unlink(f))
  bg <- sprintf("sleep 7.25 & echo $! >> %s", f)
  elapsed <- system.time(quiet_short(measure(bg, .runs = 2, .warmup = 0)))[["elapsed"]]
  expect_lt(elapsed, 6)
  pids <- readLines(f)
  expect_length(pids, 2L)
  gone <- function(pid) {
    st <- suppressWarnings(tryCatch(readLines(sprintf("/proc/%s/stat", pid)),
                                    error = function(e) character()))
    !length(st) || grepl("^[0-9]+ \\([^)]*\\) Z", st[1L])
  }
  deadline <- Sys.time() + 5
  while (!all(vapply(pids, gone, TRUE)) && Sys.time() < deadline) Sys.sleep(0.05)
  expect_true(all(vapply(pids, gone, TRUE)), info = paste(pids, collapse = " "))
})

test_that("the timeout holds for R code that R cannot interrupt", {
  el <- system.time(err <- tryCatch(
    measure(s = Sys.sleep(1.5), .runs = 1, .warmup = 0, .timeout = 0.3),
    error = function(e) e))[["elapsed"]]
  expect_s3_class(err, "speeduptest_error_timeout")
  expect_match(conditionMessage(err), "not recorded", fixed = TRUE)
  expect_identical(nrow(err$timings), 0L)
  expect_lt(el, 10)
  # a run within the timeout is recorded
  t <- quiet_short(measure(s = Sys.sleep(0.01), .runs = 2, .warmup = 0, .timeout = 5))
  expect_identical(nrow(t), 2L)
})

test_that("a command that cannot be started gives a classed error", {
  big <- strrep("a", 3e6)
  err <- tryCatch(measure(big, .runs = 1, .warmup = 0), error = function(e) e)
  expect_s3_class(err, "speeduptest_error_spawn")
  expect_s3_class(err, "speeduptest_error_command")
  expect_match(conditionMessage(err), "could not be started", fixed = TRUE)
  big <- paste("true", strrep("a ", 1.5e6))
  err <- tryCatch(measure(big, .runs = 1, .warmup = 0), error = function(e) e)
  expect_s3_class(err, "speeduptest_error_spawn")
})

test_that("options are checked before anything runs", {
  expect_error(measure(a = no_such_variable_speeduptest, .env = 3),
               class = "speeduptest_error_input", regexp = ".env", fixed = TRUE)
  for (arg in list(list(.runs = 1e300), list(.runs = 1e7), list(.warmup = 1e300),
                   list(.max_runs = Inf), list(.runs = NA))) {
    expect_error(do.call(measure, c(list(a = "true"), arg)),
                 class = "speeduptest_error_input", label = names(arg))
  }
})

# ---- options and versions ---------------------------------------------------------

test_that("versions may be named like measure()'s options", {
  x <- c(3, 1, 2)
  t <- quiet_short(measure(sort = sort(x), order = x[order(x)], runs = sum(x),
                           .runs = 2, .warmup = 0))
  expect_identical(levels(t$version), c("sort", "order", "runs"))
  expect_identical(nrow(t), 6L)
})

test_that("the former option names still work, with a warning", {
  expect_warning(t <- quiet_short(measure(a = "true", runs = 2, warmup = 0L)),
                 class = "speeduptest_warning_deprecated")
  expect_identical(nrow(t), 2L)
  n <- 3L
  expect_warning(t <- quiet_short(measure(a = "true", b = "true", runs = n,
                                          order = "blocks", warmup = 0)),
                 class = "speeduptest_warning_deprecated")
  expect_identical(attr(t, "order"), "blocks")
  expect_identical(nrow(t), 6L)
  # the list form: every former option name is an option
  f <- tempfile()
  on.exit(unlink(f))
  cmds <- c(a = "echo one", b = "echo two")
  expect_warning(t <- quiet_short(measure(cmds, runs = 1, warmup = 0, output = f,
                                          name = "old")),
                 class = "speeduptest_warning_deprecated")
  expect_identical(unique(t$benchmark), "old")
  expect_setequal(readLines(f), c("one", "two"))
  expect_error(measure(a = "true", runs = 2, .runs = 3), class = "speeduptest_error_input")
  # errors name the argument as written
  err <- tryCatch(suppressWarnings(measure(a = "true", runs = 1e300)), error = function(e) e)
  expect_s3_class(err, "speeduptest_error_input")
  expect_match(conditionMessage(err), "^`runs` must be")
  err <- tryCatch(measure(a = "true", .runs = 1e300), error = function(e) e)
  expect_match(conditionMessage(err), "^`.runs` must be")
})

# ---- what a person sees ------------------------------------------------------------

test_that("the progress line fits in 80 columns", {
  widths <- c(
    nchar(measure_progress_line(0L, 62L, 0)),
    nchar(measure_progress_line(999999L, 1000000L, 86399,
                                "| look 12: undecided (p 0.00012/0.00034)")),
    nchar(measure_progress_line(5L, 10L, 3, strrep("x", 200))))
  expect_true(all(widths <= 79L), info = paste(widths, collapse = " "))
  line <- measure_progress_line(31L, 62L, 10, "| look 1: undecided (p 0.5/0.5)")
  expect_match(line, "31/62 runs", fixed = TRUE)
  expect_match(line, "ETA 10s", fixed = TRUE)
  expect_match(line, "look 1: undecided", fixed = TRUE)
  old <- options(width = 50)
  on.exit(options(old))
  expect_lte(nchar(measure_progress_line(999999L, 1000000L, 86399, strrep("x", 99))), 49L)
})

test_that("printing a measurement shows the speedup and a verdict", {
  t <- quiet_short(measure(slow = function() Sys.sleep(0.02),
                           fast = function() Sys.sleep(0.005), .runs = 12))
  out <- capture.output(print(t))
  expect_true(all(nchar(out) <= 80L), info = out[nchar(out) > 80L])
  med <- tapply(t$time, t$version, median)
  expect_true(any(grepl(sprintf("Speedup over `slow` (ratio of the medians): `fast` %s",
                                fmt_num(med[["slow"]] / med[["fast"]], 3L)),
                        out, fixed = TRUE)))
  v <- median_test(t)
  verdict <- grep("^Verdict", out)
  expect_length(verdict, 1L)
  expect_match(paste(trimws(out[verdict:length(out)]), collapse = " "),
               verdict_headline(v), fixed = TRUE)
  # sequential mode: the decision of the looks
  t <- quiet_short(measure(slow = function() Sys.sleep(0.02),
                           fast = function() Sys.sleep(0.005), .until = "decided",
                           .max_runs = 40))
  out <- capture.output(print(t))
  expect_true(any(grepl("Verdict (sequential median test, overall risk 0.05): significant speedup of `fast`",
                        paste(trimws(out), collapse = " "), fixed = TRUE)))
})
