# The command line's output: written so that a failed write is an error.

# Writes `lines` (one a line) to the standard output.  When R's standard
# output is the process's own (Rscript, no sink()), the bytes go to
# descriptor 1 with write(2) (src/output.c), whose errors R's console
# output would ignore: a full device, a closed descriptor, a pipe whose
# reader left.  Otherwise (a console, capture.output()) through cat().  A
# failed write is an error of class speeduptest_error_file, which the
# command line turns into its message and the exit status 2.
cli_write <- function(lines) {
  lines <- as.character(lines)
  if (interactive() || sink.number() > 0L) {
    cat(lines, sep = "\n")
    return(invisible())
  }
  flush(stdout())
  err <- .Call(ffi_write_stdout, enc2native(lines))
  if (!is.na(err)) {
    abort(sprintf("cannot write to the standard output (%s); the output is lost.", err),
          class = "file")
  }
  invisible()
}
