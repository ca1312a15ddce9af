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
#' R's `Rscript`, given by its full path, starting R with the base package
#' only (the command attaches none), and with the library the package
#' was found in first on `R_LIBS`: it works in a fresh shell, without R on
#' the `PATH` and whatever the current R library settings.  Installing a new
#' version of the package into the same library needs no new launcher;
#' moving R or the library does (run `install_cli()` again).  On Windows
#' the launcher is `speeduptest.cmd`.
#'
#' An existing `speeduptest` in `dir` is replaced only when it is a launcher
#' this function wrote (and `overwrite` is `TRUE`); a symbolic link, or a
#' file that is not such a launcher, is left alone with an error, unless
#' `force = TRUE`, which replaces the link or the file itself (never the
#' file a link points to). The launcher is written to a new file in `dir`
#' and renamed over the old name, so nothing is ever written through a
#' link. A message says what was done.
#'
#' @param dir The folder to write the launcher into; created if it does not
#'   exist.
#' @param overwrite Replace a launcher written by an earlier `install_cli()`?
#' @param force Replace whatever has the launcher's name in `dir`: a symbolic
#'   link (the link itself, not its target) or a file that is not a launcher.
#'   A folder is never replaced.
#' @return The path of the launcher, invisibly.  A message says what was
#'   written or replaced, and whether `dir` is on the `PATH` of this R
#'   session.
#' @seealso [speeduptest_cli()], `?cli_compare` (the `compare` command).
#' @examples
#' dir <- tempfile("bin")
#' path <- install_cli(dir)
#' readLines(path)
#' @export
install_cli <- function(dir, overwrite = TRUE, force = FALSE) {
  dir <- check_path(if (missing(dir)) NULL else dir, "dir",
                    what = "the folder to write the `speeduptest` launcher into, e.g. \"~/.local/bin\"")
  overwrite <- check_flag(overwrite, "overwrite")
  force <- check_flag(force, "force")
  dir <- path.expand(dir)
  if (!dir.exists(dir) && !dir.create(dir, recursive = TRUE, showWarnings = FALSE)) {
    abort(sprintf("cannot create the folder \"%s\".", esc_text(dir)), class = "file")
  }
  dir <- normalizePath(dir, mustWork = TRUE)
  windows <- .Platform$OS.type == "windows"
  path <- file.path(dir, if (windows) "speeduptest.cmd" else "speeduptest")
  old <- launcher_existing(path)
  if (old$kind == "directory") {
    abort(sprintf("\"%s\" is a folder; remove it or choose another `dir`.",
                  esc_text(path)), class = "file")
  }
  if (old$kind == "launcher" && !overwrite && !force) {
    abort(sprintf("\"%s\" exists; use `overwrite = TRUE` to replace it.", esc_text(path)),
          class = "file")
  }
  if (old$kind %in% c("link", "other") && !force) {
    abort(sprintf("\"%s\" is %s, not a launcher written by install_cli(); it is left as it is (`force = TRUE` replaces it%s).",
                  esc_text(path), old$what,
                  if (old$kind == "link") " with a launcher, the link's target unchanged" else ""),
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
    paste("rem", launcher_mark),
    sprintf("set \"R_LIBS=%s;%%R_LIBS%%\"", lib),
    sprintf("\"%s\" --default-packages=base \"%s\" %%*", paste0(rscript, ".exe"), script)) else c(
    "#!/bin/sh",
    paste("#", launcher_mark),
    "# Runs the script installed with the R package speeduptest.",
    paste0("R_LIBS=", q(lib), "${R_LIBS:+:$R_LIBS}"),
    "export R_LIBS",
    paste("exec", q(rscript), "--default-packages=base", q(script), "\"$@\""))
  # a new file beside it, renamed over the name: a link at `path` is
  # replaced, never written through
  tmp <- tempfile(".speeduptest-", tmpdir = dir)
  ok <- tryCatch({
    con <- file(tmp, open = "wx")
    writeLines(lines, con)
    close(con)
    Sys.chmod(tmp, "0755", use_umask = FALSE) && file.rename(tmp, path)
  }, error = function(e) FALSE, warning = function(w) FALSE)
  if (!isTRUE(ok)) {
    unlink(tmp)
    abort(sprintf("cannot write the launcher \"%s\".", esc_text(path)), class = "file")
  }
  on_path <- dir %in% normalizePath(strsplit(Sys.getenv("PATH"), .Platform$path.sep)[[1L]],
                                    mustWork = FALSE)
  did <- switch(old$kind,
    none = sprintf("Wrote %s", path),
    launcher = sprintf("Replaced the launcher %s", path),
    link = sprintf("Replaced the symbolic link %s (to %s) with a launcher; its target is unchanged",
                   path, old$target),
    other = sprintf("Replaced %s (%s) with a launcher", path, old$what))
  message(esc_text(if (on_path) {
    sprintf("%s; `speeduptest` now runs from any shell.", did)
  } else {
    sprintf("%s; add the folder to the PATH: export PATH=\"%s:$PATH\"", did, dir)
  }))
  invisible(path)
}

# The line that marks a launcher written by install_cli().
launcher_mark <- "The speeduptest command line (written by speeduptest::install_cli())."

# What has the launcher's name: list(kind, what, target), kind one of
# "none", "launcher" (a regular file holding launcher_mark in its first
# lines), "link" (a symbolic link, whatever it points to), "directory",
# "other" (any other file).  Only the first 4 KB of a regular file are read.
launcher_existing <- function(path) {
  target <- Sys.readlink(path)
  if (!is.na(target) && nzchar(target)) {
    return(list(kind = "link", what = sprintf("a symbolic link to \"%s\"", target),
                target = target))
  }
  info <- suppressWarnings(file.info(path, extra_cols = FALSE))
  if (is.na(info$isdir)) return(list(kind = "none"))
  if (isTRUE(info$isdir)) return(list(kind = "directory"))
  kind <- path_kind(path)$kind
  if (!identical(kind, "file")) {
    return(list(kind = "other", what = if (kind == "denied") "a file it cannot read" else
      sprintf("a %s", kind)))
  }
  head <- tryCatch({
    con <- file(path, "rb")
    on.exit(close(con))
    rawToChar(readBin(con, "raw", 4096L))
  }, error = function(e) "")
  if (grepl(launcher_mark, head, fixed = TRUE, useBytes = TRUE)) {
    list(kind = "launcher")
  } else {
    list(kind = "other", what = "a file")
  }
}
