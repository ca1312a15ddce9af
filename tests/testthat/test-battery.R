# A fast subset of the battery of malformed and extreme inputs
# (tests/battery): every case must end in a result or a classed error naming
# the user's argument, keep every good benchmark, and warn only with the
# package's own warnings.  The full battery runs each case in a child process
# with a time and memory limit: Rscript tests/battery/run.R

battery_lib <- function() {
  for (p in c(test_path("..", "battery", "battery-lib.R"),
              file.path("..", "battery", "battery-lib.R"))) {
    if (file.exists(p)) return(p)
  }
  ""
}

test_that("bad input costs only itself (a sample of the battery)", {
  skip_on_cran()
  lib <- battery_lib()
  skip_if(!nzchar(lib), "the battery is not in this copy of the sources")
  skip_if_not(.Platform$OS.type == "unix")
  b <- new.env()
  sys.source(lib, envir = b)
  fix <- tempfile("battery")
  on.exit(unlink(fix, recursive = TRUE), add = TRUE)
  b$battery_fixture_files(fix)
  env <- b$battery_fixture_env(fix)
  cases <- b$battery_cases()
  pending <- b$battery_pending(dirname(lib))
  safe <- Filter(function(k) k$inproc && !k$risky && !(k$id %in% pending), cases)
  ids <- vapply(safe, `[[`, "", "id")
  set.seed(b$battery_seed)
  pick <- c(sample(which(!grepl("^(goodsurvive|method)/", ids)), 250L),
            sample(which(grepl("^goodsurvive/", ids)), 60L),
            sample(which(grepl("^method/", ids)), 40L))
  pass <- c("ok", "classed", "r_call")
  for (k in safe[pick]) {
    o <- b$battery_eval(k, env)
    expect(o$outcome %in% pass,
           sprintf("%s: %s: %s\n  code: %s", k$id, o$outcome, o$msg, k$code))
  }
})

test_that("as_timings() on a data frame refuses a bad column choice by name", {
  df <- data.frame(benchmark = rep(c("a", "b"), each = 10),
                   version = rep(c("x", "y"), 10), time = 1 + (1:20) / 100,
                   run = rep(1:5, 4))
  for (v in list(NA, 1, c("a", "b"), list("benchmark"), sum)) {
    expect_error(as_timings(df, benchmark = v), "`benchmark` must be the name",
                 class = "speeduptest_error_input")
    expect_error(as_timings(df, run = v), "`run` must be the name",
                 class = "speeduptest_error_input")
  }
  # NULL: one benchmark, and the columns under the standard names are dropped
  t1 <- as_timings(df, benchmark = NULL, run = NULL)
  expect_identical(unique(t1$benchmark), "benchmark")
  expect_identical(nrow(t1), 20L)
  df$bench <- df$benchmark
  expect_identical(unique(as_timings(df, benchmark = "bench")$benchmark), c("a", "b"))
  expect_identical(unique(as_timings(df)$benchmark), c("a", "b"))
})
