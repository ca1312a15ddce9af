# install_cli(): it writes its own launcher and nothing else, never through
# a symbolic link.

launcher_text <- function(path) readLines(path, warn = FALSE)

test_that("install_cli() leaves the target of a symbolic link byte-identical", {
  skip_on_os("windows")
  dir <- tempfile("bin")
  dir.create(dir)
  target <- tempfile("precious")
  bytes <- as.raw(c(0:255, 10, 13))
  writeBin(bytes, target)
  Sys.chmod(target, "0600")
  mode0 <- file.info(target)$mode
  file.symlink(target, file.path(dir, "speeduptest"))
  expect_error(install_cli(dir), "symbolic link", class = "speeduptest_error_file")
  expect_identical(readBin(target, "raw", 1000), bytes)
  expect_identical(Sys.readlink(file.path(dir, "speeduptest")), target)
  # force: the link itself is replaced by a launcher, its target unchanged
  expect_message(path <- install_cli(dir, force = TRUE),
                 "Replaced the symbolic link .* its target is unchanged")
  expect_identical(Sys.readlink(path), "")
  expect_identical(readBin(target, "raw", 1000), bytes)
  expect_identical(file.info(target)$mode, mode0)
  expect_match(launcher_text(path)[2L], "written by speeduptest::install_cli", fixed = TRUE)
  # a dangling link is refused alike
  dir2 <- tempfile("bin")
  dir.create(dir2)
  file.symlink(file.path(dir2, "nowhere"), file.path(dir2, "speeduptest"))
  expect_error(install_cli(dir2), "symbolic link", class = "speeduptest_error_file")
  expect_false(file.exists(file.path(dir2, "nowhere")))
})

test_that("install_cli() replaces its own launcher only, unless forced", {
  skip_on_os("windows")
  dir <- tempfile("bin")
  expect_message(path <- install_cli(dir), "^Wrote ")
  first <- launcher_text(path)
  expect_message(install_cli(dir), "^Replaced the launcher ")
  expect_identical(launcher_text(path), first)
  expect_error(install_cli(dir, overwrite = FALSE), "exists", class = "speeduptest_error_file")
  # someone else's file of the same name
  writeLines(c("#!/bin/sh", "echo mine"), path)
  expect_error(install_cli(dir), "not a launcher written by install_cli",
               class = "speeduptest_error_file")
  expect_identical(launcher_text(path), c("#!/bin/sh", "echo mine"))
  expect_message(install_cli(dir, force = TRUE), "^Replaced .*\\(a file\\) with a launcher")
  expect_identical(launcher_text(path), first)
  # a folder is never replaced; no temporary file is left behind
  unlink(path)
  dir.create(path)
  expect_error(install_cli(dir, force = TRUE), "is a folder", class = "speeduptest_error_file")
  expect_true(dir.exists(path))
  expect_identical(list.files(dir, all.files = TRUE, no.. = TRUE), "speeduptest")
  expect_error(install_cli(dir, force = NA), "`force`", class = "speeduptest_error_input")
})
