# install_cli(): the `speeduptest` command on the PATH in one step.

#' Put the `speeduptest` command on the PATH
#'
#' Writes a small launcher script named `speeduptest` into the folder `dir`
#' (a folder of your choosing that is, or will be, on the `PATH`, such as
#' `~/.local/bin`), so that `speeduptest CONFIG ...` and
#' `speeduptest compare OLD NEW ...` work from any shell:
#'
#' ```sh
#' Rscript -e 'speeduptest::install_cli("~/.local/bin")'
#' export PATH="$HOME/.local/bin:$PATH"   # if it is not there already
#' speeduptest compare main.json branch.json
#' ```
#'
#' The launcher runs the script installed with the package
#' (`system.file("bin", "speeduptest", package = "speeduptest")`) with this
#' R's `Rscript`, given by its full path, and with the library the package
#' was found in first on `R_LIBS`: it works in a fresh shell, without R on
#' the `PATH` and whatever the current R library settings.  Installing a new
#' version of the package into the same library needs no new launcher;
#' moving R or the library does (run `install_cli()` again).  On Windows
#' the launcher is `speeduptest.cmd`.
#'
#' @param dir The folder to write the launcher into; created if it does not
#'   exist.
#' @param overwrite Replace an existing `speeduptest` in `dir`?
#' @return The path of the launcher, invisibly.  A message says whether
#'   `dir` is on the `PATH` of this R session.
#' @seealso [speeduptest_cli()], `?cli_compare` (the `compare` command).
#' @examples
#' dir <- tempfile("bin")
#' path <- install_cli(dir)
#' readLines(path)
#' @export
install_cli <- function(dir, overwrite = TRUE) {
  dir <- check_path(if (missing(dir)) NULL else dir, "dir",
                    what = "the folder to write the `speeduptest` launcher into, e.g. \"~/.local/bin\"")
  overwrite <- check_flag(overwrite, "overwrite")
  dir <- path.expand(dir)
  if (!dir.exists(dir) && !dir.create(dir, recursive = TRUE, showWarnings = FALSE)) {
    abort(sprintf("cannot create the folder \"%s\".", dir), class = "file")
  }
  dir <- normalizePath(dir, mustWork = TRUE)
  windows <- .Platform$OS.type == "windows"
  path <- file.path(dir, if (windows) "speeduptest.cmd" else "speeduptest")
  if (file.exists(path) && !overwrite) {
    abort(sprintf("\"%s\" exists; use `overwrite = TRUE` to replace it.", path),
          class = "file")
  }
  script <- system.file("bin", "speeduptest", package = "speeduptest")
  if (!nzchar(script)) {
    abort("the package's command-line script is missing (reinstall speeduptest).",
          class = "file")
  }
  lib <- dirname(system.file(package = "speeduptest"))
  rscript <- file.path(R.home("bin"), "Rscript")
  q <- function(s) paste0("'", gsub("'", "'\\''", s, fixed = TRUE), "'")
  lines <- if (windows) c(
    "@echo off",
    "rem The speeduptest command line (written by speeduptest::install_cli()).",
    sprintf("set \"R_LIBS=%s;%%R_LIBS%%\"", lib),
    sprintf("\"%s\" \"%s\" %%*", paste0(rscript, ".exe"), script)) else c(
    "#!/bin/sh",
    "# The speeduptest command line (written by speeduptest::install_cli()).",
    "# Runs the script installed with the R package speeduptest.",
    paste0("R_LIBS=", q(lib), "${R_LIBS:+:$R_LIBS}"),
    "export R_LIBS",
    paste("exec", q(rscript), q(script), "\"$@\""))
  ok <- tryCatch({
    writeLines(lines, path)
    Sys.chmod(path, "0755", use_umask = FALSE)
  }, error = function(e) FALSE, warning = function(w) FALSE)
  if (!isTRUE(ok)) {
    abort(sprintf("cannot write the launcher \"%s\".", path), class = "file")
  }
  on_path <- dir %in% normalizePath(strsplit(Sys.getenv("PATH"), .Platform$path.sep)[[1L]],
                                    mustWork = FALSE)
  message(if (on_path) {
    sprintf("Wrote %s; `speeduptest` now runs from any shell.", path)
  } else {
    sprintf("Wrote %s; add the folder to the PATH: export PATH=\"%s:$PATH\"", path, dir)
  })
  invisible(path)
}
