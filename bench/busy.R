# The CPU-bound program of the measuring benches (bench/busy.c), built
# once per script run; sourced by bench/measure*.R from the package root.

# Compile bench/busy.c into `dir`; the path of the program.
busy_program <- function(dir, opt = "-O1") {
  busy <- file.path(dir, "busy")
  if (system2("gcc", c(opt, "-o", busy, file.path("bench", "busy.c"))) != 0L)
    stop("gcc failed on bench/busy.c")
  busy
}

# The steps of `busy` that take `seconds` of CPU: the median of 3
# calibrations, as a string for a command line.
busy_steps <- function(busy, seconds) {
  n <- vapply(1:3, function(i) as.numeric(system2(busy, c("-c", seconds), stdout = TRUE)), 0)
  format(stats::median(n), scientific = FALSE)
}
