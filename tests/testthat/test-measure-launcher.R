# The launcher of measure() (src/launcher/st-launch.c) and how commands are
# started: outputs that would block, R killed while measuring, a stop byte
# that arrives after its run, descriptors, the words a command runs with, and
# R code timed in batches.  Anything that could hang runs in a child R
# process under `timeout`, and every test checks that nothing is left.

skip_on_os("windows")

quiet_short <- function(expr) {
  withCallingHandlers(expr, speeduptest_warning_short_runs = function(w) {
    invokeRestart("muffleWarning")
  })
}

# Runs `lines` (R code) in a child Rscript killed after `limit` seconds;
# returns list(status, elapsed, out) with `out` what the child saved in
# `result` (or NULL).
run_child <- function(lines, limit = 20) {
  dir <- tempfile("child-")
  dir.create(dir)
  script <- file.path(dir, "run.R")
  rds <- file.path(dir, "out.rds")
  writeLines(c("library(speeduptest)", lines,
               sprintf('saveRDS(result, "%s")', rds)), script)
  lib <- paste(.libPaths(), collapse = .Platform$path.sep)
  t0 <- Sys.time()
  status <- system2("timeout", c("-s", "KILL", limit, file.path(R.home("bin"), "Rscript"),
                                 shQuote(script)),
                    env = paste0("R_LIBS=", shQuote(lib)), stdout = FALSE, stderr = FALSE)
  list(status = status, elapsed = as.double(difftime(Sys.time(), t0, units = "secs")),
       out = if (file.exists(rds)) readRDS(rds) else NULL)
}

# The processes whose command line contains `marker`.
processes_with <- function(marker) {
  pids <- suppressWarnings(as.integer(basename(Sys.glob("/proc/[0-9]*"))))
  pids <- pids[!is.na(pids)]
  hit <- vapply(pids, function(p) {
    cl <- tryCatch(readBin(sprintf("/proc/%d/cmdline", p), "raw", 4096L),
                   error = function(e) raw(), warning = function(w) raw())
    if (!length(cl)) return(FALSE)
    cl[cl == as.raw(0L)] <- as.raw(32L)
    grepl(marker, rawToChar(cl), fixed = TRUE)
  }, TRUE)
  pids[hit]
}

wait_gone <- function(marker, seconds = 5) {
  deadline <- Sys.time() + seconds
  while (length(processes_with(marker)) && Sys.time() < deadline) Sys.sleep(0.05)
  processes_with(marker)
}

test_that("an output FIFO that nobody reads is refused at once, not waited for", {
  skip_on_cran()
  skip_if_not(nzchar(Sys.which("mkfifo")) && nzchar(Sys.which("timeout")))
  fifo <- tempfile("fifo-")
  on.exit(unlink(fifo))
  expect_identical(system2("mkfifo", fifo), 0L)
  res <- run_child(c(
    sprintf('result <- tryCatch(measure(a = "echo hi", .output = "%s", .timeout = 2,', fifo),
    '                             .runs = 2), error = function(e) e)'), limit = 30)
  expect_identical(res$status, 0L)
  expect_s3_class(res$out, "speeduptest_error_spawn")
  expect_match(conditionMessage(res$out), "FIFO", fixed = TRUE)
  expect_lt(res$elapsed, 25)
  # in this process too, with a command run by the shell
  err <- tryCatch(measure(a = "echo hi > /dev/null; true", .output = fifo, .timeout = 2),
                  error = function(e) e)
  expect_s3_class(err, "speeduptest_error_spawn")
  # a FIFO that is read works as a file
  got <- tempfile()
  on.exit(unlink(got), add = TRUE)
  system2("sh", c("-c", shQuote(sprintf("cat %s > %s", fifo, got))), wait = FALSE)
  Sys.sleep(0.3)
  t <- quiet_short(measure(a = "echo hi", .output = fifo, .runs = 2, .warmup = 0,
                           .timeout = 5))
  expect_identical(nrow(t), 2L)
})

test_that("R killed while measuring leaves no process behind", {
  skip_on_cran()
  skip_if_not(dir.exists("/proc/self") && nzchar(Sys.which("timeout")))
  marker <- "31.4159265"
  dir <- tempfile()
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  pidfile <- file.path(dir, "pid")
  script <- file.path(dir, "run.R")
  writeLines(c('library(speeduptest)',
               sprintf('writeLines(as.character(Sys.getpid()), "%s")', pidfile),
               sprintf('measure(a = "sleep %s", b = "sleep %s; true", .runs = 3)',
                       marker, marker)), script)
  lib <- paste(.libPaths(), collapse = .Platform$path.sep)
  system2("timeout", c("-s", "KILL", "60", file.path(R.home("bin"), "Rscript"),
                       shQuote(script)),
          wait = FALSE, env = paste0("R_LIBS=", shQuote(lib)), stdout = FALSE, stderr = FALSE)
  deadline <- Sys.time() + 30
  while (!length(processes_with(paste("sleep", marker))) && Sys.time() < deadline) {
    Sys.sleep(0.1)
  }
  expect_gt(length(processes_with(paste("sleep", marker))), 0L)
  rpid <- as.integer(readLines(pidfile))
  server <- processes_with("st-launch serve")
  tools::pskill(rpid, tools::SIGKILL)
  expect_length(wait_gone(paste("sleep", marker)), 0L)
  # the launcher of that R process has gone too
  left <- intersect(server, processes_with("st-launch serve"))
  deadline <- Sys.time() + 5
  while (length(left) && Sys.time() < deadline) {
    Sys.sleep(0.05)
    left <- intersect(left, processes_with("st-launch serve"))
  }
  mine <- vapply(left, function(p) {
    st <- tryCatch(readLines(sprintf("/proc/%d/status", p)), error = function(e) "")
    any(grepl(sprintf("^PPid:\\s+%d$", rpid), st))
  }, TRUE)
  expect_false(any(mine))
})

test_that("a stop byte that arrives after its run neither stops nor blocks the next", {
  launcher <- measure_launcher()
  skip_if(is.na(launcher), "the launcher st-launch is not installed")
  s <- .Call(ffi_launcher_start, launcher)
  on.exit(.Call(ffi_launcher_stop, s))
  # the race made certain: the byte an interrupt sends lands between runs
  for (i in 1:50) {
    r <- .Call(ffi_launcher_run, s, NA_character_, "true", NULL, 10)
    expect_identical(r$status, 0L)
    expect_true(.Call(ffi_launcher_stop_byte, s))
    if (i %% 10 == 0) expect_true(.Call(ffi_launcher_stop_byte, s))   # two of them
  }
  el <- system.time(r <- .Call(ffi_launcher_run, s, NA_character_, "sleep 0.2", NULL, 10))
  expect_identical(c(r$status, r$exit_status), c(0L, 0L))
  expect_false(r$interrupted)
  expect_gte(r$wall, 0.2)
  expect_lt(el[["elapsed"]], 5)
  # and a batch after one
  expect_true(.Call(ffi_launcher_stop_byte, s))
  b <- .Call(ffi_launcher_batch, s, c(NA_character_, Sys.which("true")),
             list("exit 0", "true"), c(1L, 2L, 1L, 2L), NULL, 10)
  expect_identical(c(b$status, b$done), c(0L, 4L))
})

test_that("a batch ends at the first failing run and keeps the runs before it", {
  launcher <- measure_launcher()
  skip_if(is.na(launcher), "the launcher st-launch is not installed")
  s <- .Call(ffi_launcher_start, launcher)
  on.exit(.Call(ffi_launcher_stop, s))
  b <- .Call(ffi_launcher_batch, s, c(NA_character_, NA_character_),
             list("exit 0", "exit 3"), c(1L, 1L, 2L, 1L), NULL, 10)
  expect_identical(c(b$status, b$done), c(0L, 3L))
  expect_identical(b$runs[1:3, 5L], c(0, 0, 3))
  expect_true(all(is.na(b$runs[4L, 1L])))
  # through measure(): the runs before the failure are in the condition
  f <- tempfile()
  on.exit(unlink(f), add = TRUE)
  cmd <- sprintf("echo x >> %s; test $(wc -l < %s) -lt 6", f, f)
  err <- tryCatch(measure(a = cmd, .runs = 10, .warmup = 1), error = function(e) e)
  expect_s3_class(err, "speeduptest_error_command")
  expect_identical(err$run, 5L)
  expect_identical(nrow(err$timings), 4L)
  # a timeout in the middle of a batch
  err <- tryCatch(measure(a = "true", b = "sleep 5", .runs = 3, .timeout = 0.5),
                  error = function(e) e)
  expect_s3_class(err, "speeduptest_error_timeout")
})

test_that("commands get no descriptor of R's but 0, 1 and 2", {
  skip_if_not(dir.exists("/proc/self"), "no /proc")
  keep <- tempfile()
  con <- file(keep, "w")
  on.exit({
    close(con)
    unlink(keep)
  })
  fds <- as.integer(basename(Sys.glob("/proc/self/fd/*")))
  out <- tempfile()
  on.exit(unlink(out), add = TRUE)
  # the descriptors of the shell that runs the command, listed by `ls`
  t <- quiet_short(measure(a = "ls /proc/$$/fd", .runs = 1, .warmup = 0, .output = out))
  expect_setequal(as.integer(readLines(out)), 0:2)
  # writing to any descriptor R has open above 2 fails, and nothing arrives
  high <- sort(fds[fds > 2L])
  expect_gt(length(high), 0L)
  for (fd in utils::head(high, 5L)) {
    cmd <- c(a = sprintf("echo leaked >&%d", fd))
    err <- tryCatch(measure(cmd, .runs = 1, .warmup = 0), error = function(e) e)
    expect_s3_class(err, "speeduptest_error_command")
  }
  flush(con)
  expect_identical(file.size(keep), 0)
  # a program run directly, the same
  unlink(out)
  quiet_short(measure(a = "ls /proc/self/fd", .runs = 1, .warmup = 0, .output = out))
  # `ls` itself opens the directory it lists (one descriptor: 3)
  expect_true(all(as.integer(readLines(out)) <= 3L))
})

test_that("every command prints what `sh -c` prints", {
  skip_if_not(file.exists("/bin/sh"))
  cmds <- c("echo -e x", "echo a\\rb", "echo a\rb", "echo -n abc", "echo 'a  b' \"c\"",
            "echo a\\ b", "echo \"a\\tb\"", "printf '%s|' a 'b c'", "printf %s\\\\n x",
            "echo '$HOME'", "echo \"x'y\"", "echo ''", "echo a\\\\b", "echo -E 'a\\nb'",
            "echo \"$((1 + 2))\"", "printf 'a\\x41b'", "true --version", "test -n x",
            "echo", "echo \u00e9t\u00e9", "pwd -L", "echo a # b", "echo a#b")
  f <- tempfile()
  g <- tempfile()
  on.exit(unlink(c(f, g)))
  for (cmd in cmds) {
    unlink(c(f, g))
    quiet_short(measure(a = cmd, .runs = 1, .warmup = 0, .output = f))
    system(paste("sh -c", shQuote(cmd), ">", shQuote(g), "2>&1"))
    expect_identical(readBin(f, "raw", 1e4), readBin(g, "raw", 1e4), label = cmd)
  }
  # plain lists of words run directly, the rest by the shell
  launch <- function(cmd) measure_command_launch(cmd)$launch
  expect_identical(launch("sleep 0.01"), "direct")
  expect_identical(launch("true"), "direct")
  expect_identical(launch("ls -l 'a b'"), "direct")
  for (cmd in c("echo x", "printf x", "test -n x", "kill -0 1", "pwd", "true x",
                "false --help", "echo a\\rb", "a\rb")) {
    expect_identical(launch(cmd), "shell", label = cmd)
  }
})

test_that("R code is timed in batches sized to the clock, the harness subtracted", {
  t <- quiet_short(measure(empty = {}, f = function() NULL, .runs = 7))
  tm <- attr(t, "timer")
  expect_identical(names(tm$batch), c("empty", "f"))
  res <- max(tm$resolution, tm$tick, na.rm = TRUE)
  med <- tapply(t$time, t$version, median)
  # an empty expression: far below a microsecond
  expect_lt(med[["empty"]], 1e-6)
  expect_gt(med[["empty"]], 0)
  # each batch lasts at least 1000 steps of the clock
  expect_true(all(tm$batch * med >= 1000 * res * 0.5))
  expect_true(all(tm$batch > 1L))
  # the harness's share is in `correction`, small and positive
  expect_true(all(t$correction > 0 & t$correction < 1e-6))
  # slow code is evaluated once per run, no more than asked
  calls <- 0L
  slow <- function() {
    calls <<- calls + 1L
    Sys.sleep(0.01)
  }
  t <- measure(s = slow(), .runs = 3, .warmup = 1)
  expect_identical(calls, 4L)
  expect_identical(attr(t, "timer")$batch[["s"]], 1L)
  expect_true(all(t$time >= 0.01))
  # `.batch` fixes the size, and the count follows
  calls <- 0L
  count <- function() calls <<- calls + 1L
  t <- quiet_short(measure(c = count(), .runs = 4, .warmup = 0, .batch = 25))
  expect_identical(calls, 100L)
  expect_identical(attr(t, "timer")$batch[["c"]], 25L)
  expect_error(measure(c = count(), .batch = 0), class = "speeduptest_error_input")
  # an error while sizing the batches is the code's classed error
  n <- 0L
  fails_later <- function() {
    n <<- n + 1L
    if (n > 3L) stop("late")
  }
  err <- tryCatch(measure(x = fails_later(), .runs = 3), error = function(e) e)
  expect_s3_class(err, "speeduptest_error_expression")
})
