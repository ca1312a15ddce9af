# The race of an interrupt with the end of a command, made certain, and the
# other checks of measure()'s launcher, outside the battery's harness:
#
#     Rscript tests/battery/launcher-race.R [rounds = 200]
#
# 1. The stop byte that Ctrl-C makes measure() send to its launcher lands in
#    the request stream just after its run has ended (sent by hand after each
#    run, `rounds` times): the next run must run to its end, unstopped, within
#    its time limit.  (Before the launcher dropped late stop bytes, the byte
#    was read as the first byte of the next request's length, and the next
#    run blocked.)
# 2. Ctrl-C (SIGINT) sent to an R process measuring short commands, at 6
#    moments: measure() returns the runs so far with its warning, and the
#    next call measures.
# 3. R killed while measuring: nothing of it is left running.
# 4. An output FIFO that nobody reads is refused at once.
# 5. Commands see no descriptor of R's.
# Each check runs under a time limit; prints one line per check and exits
# with status 1 when any fails.
args <- commandArgs(trailingOnly = TRUE)
rounds <- if (length(args)) as.integer(args[1L]) else 200L
here <- local({
  a <- grep("^--file=", commandArgs(FALSE), value = TRUE)
  if (length(a)) dirname(normalizePath(sub("^--file=", "", a[1L]))) else "tests/battery"
})
source(file.path(here, "battery-lib.R"))
suppressPackageStartupMessages(library(speeduptest))
fifo <- tempfile("fifo-")
system2("mkfifo", fifo)
checks <- c(list(
  stop_byte = function() launcher_check_stop_byte(rounds)),
  stats::setNames(lapply(c(0.05, 0.15, 0.3, 0.45, 0.7, 1.1), function(d) {
    force(d)
    function() launcher_check_sigint(d)
  }), sprintf("sigint_%.2f", c(0.05, 0.15, 0.3, 0.45, 0.7, 1.1))),
  list(killed = launcher_check_killed, fifo = function() launcher_check_fifo(fifo),
       fds = launcher_check_fds))
failed <- 0L
for (nm in names(checks)) {
  t0 <- Sys.time()
  setTimeLimit(elapsed = 120, transient = TRUE)
  res <- tryCatch(checks[[nm]](), error = function(e) e)
  setTimeLimit(elapsed = Inf)
  el <- as.double(difftime(Sys.time(), t0, units = "secs"))
  ok <- isTRUE(res) || identical(res, NA)
  if (!ok) failed <- failed + 1L
  cat(sprintf("%-12s %-4s %5.1f s %s\n", nm, if (ok) "ok" else "FAIL", el,
              if (ok) "" else conditionMessage(res)))
}
unlink(fifo)
cat(sprintf("%d of %d checks failed\n", failed, length(checks)))
quit(status = if (failed) 1L else 0L)
