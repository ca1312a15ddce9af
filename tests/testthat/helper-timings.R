# Paths of the timing fixtures installed with the package
# (inst/extdata/timings; see its README.md).
timings_fixture <- function(...) {
  dir <- system.file("extdata", "timings", package = "speeduptest")
  if (!nzchar(dir)) testthat::skip("timing fixtures not installed")
  file.path(dir, ...)
}

# A file in a fresh temporary folder holding `text`.
timings_tempfile <- function(text, ext = ".json") {
  f <- tempfile(fileext = ext)
  writeLines(text, f)
  f
}
