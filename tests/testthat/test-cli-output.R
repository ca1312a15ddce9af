# A report the command line cannot write is an error with the exit status 2
# and a message, never the status of a decision (R/cli-output.R,
# src/output.c).

run_script <- function(args, redirect) {
  script <- system.file("bin", "speeduptest", package = "speeduptest")
  lib <- dirname(system.file(package = "speeduptest"))
  path <- paste(R.home("bin"), Sys.getenv("PATH"), sep = .Platform$path.sep)
  cmd <- sprintf("R_LIBS=%s PATH=%s %s %s %s", shQuote(lib), shQuote(path), shQuote(script),
                 paste(shQuote(args), collapse = " "), redirect)
  err <- tempfile()
  on.exit(unlink(err))
  status <- suppressWarnings(system2("sh", c("-c", shQuote(paste(cmd, "2>", shQuote(err)))),
                                     stdout = FALSE))
  list(status = status, err = readLines(err, warn = FALSE))
}

test_that("compare exits 2 with a message when its report cannot be written", {
  skip_on_cran()
  skip_on_os("windows")
  skip_if_not(file.exists("/dev/full"))
  f <- timings_fixture("hyperfine-slowdown.json")
  # the decision itself is a slowdown measured in blocks: 3 (inconclusive)
  # when the report is written
  expect_identical(run_script(c("compare", f), "> /dev/null")$status, 3L)
  for (redirect in c("> /dev/full", ">&-")) {
    for (o in c("text", "markdown", "json")) {
      r <- run_script(c("compare", f, "--output", o), redirect)
      expect_identical(r$status, 2L, info = paste(redirect, o))
      expect_true(any(grepl("cannot write to the standard output", r$err, fixed = TRUE)),
                  info = paste(redirect, o))
    }
  }
  r <- run_script(c("compare", "--help"), "> /dev/full")
  expect_identical(r$status, 2L)
  expect_match(r$err[1L], "No space left on device", fixed = TRUE)
})

test_that("the configuration command exits 2 when its report cannot be printed", {
  skip_on_cran()
  skip_on_os("windows")
  skip_if_not(file.exists("/dev/full"))
  cfg <- system.file("extdata", "config.csv", package = "speeduptest")
  out <- file.path(tempfile("cfg"), "run")
  dir.create(dirname(out))
  expect_identical(run_script(c(cfg, "--weight", "equal", "-o", out), "> /dev/null")$status, 0L)
  r <- run_script(c(cfg, "--weight", "equal", "-o", out), "> /dev/full")
  expect_identical(r$status, 2L)
  expect_true(any(grepl("speeduptest: cannot write to the standard output", r$err, fixed = TRUE)))
})

test_that("cli_write() goes through cat() under a sink", {
  expect_output(speeduptest:::cli_write(c("a", "b")), "a\nb")
})
