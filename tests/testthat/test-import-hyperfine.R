test_that("every run of a hyperfine export comes through, in seconds and in order", {
  f <- timings_fixture("hyperfine-slowdown.json")
  j <- jsonlite::fromJSON(f, simplifyVector = TRUE)$results
  t <- read_timings(f)
  expect_s3_class(t, "speedup_timings")
  expect_identical(attr(t, "source"), "hyperfine")
  expect_identical(attr(t, "run_order"), "global")
  expect_identical(levels(t$version), j$command)
  expect_identical(unique(t$benchmark), "hyperfine-slowdown")
  expect_equal(nrow(t), sum(lengths(j$times)))
  for (k in seq_along(j$command)) {
    rows <- t[t$version == j$command[k], ]
    expect_identical(rows$time, j$times[[k]])
    expect_identical(rows$exit_status, as.integer(j$exit_codes[[k]]))
  }
  # hyperfine runs all the runs of a command, then the next: a global order
  expect_identical(t$run, seq_len(nrow(t)))
  expect_identical(speeduptest:::timings_sample_run(t),
                   unlist(lapply(lengths(j$times), seq_len)))
  # the medians hyperfine reports are those of the runs read
  expect_equal(vapply(j$command, function(v) median(t$time[t$version == v]), 1),
               setNames(j$median, j$command))
})

test_that("`benchmark` names the benchmark of a single hyperfine file", {
  t <- read_timings(timings_fixture("hyperfine-speedup.json"), benchmark = "busy")
  expect_identical(unique(t$benchmark), "busy")
  expect_identical(levels(t$version), c("old", "new"))
})

test_that("several hyperfine files: one version per file, commands are benchmarks", {
  f <- timings_fixture(c("hyperfine-main.json", "hyperfine-branch.json"))
  t <- read_timings(c(main = f[1], branch = f[2]))
  expect_identical(levels(t$version), c("main", "branch"))
  expect_identical(sort(unique(t$benchmark)), c("large", "small"))
  # each file is one block of runs, the second after the first: the order
  # is global, so the runs test sees the blocks
  expect_identical(attr(t, "run_order"), "global")
  first <- jsonlite::fromJSON(f[1])$results
  for (k in 1:2) {
    j <- jsonlite::fromJSON(f[k])$results
    for (i in seq_along(j$command)) {
      rows <- t[t$version == levels(t$version)[k] & t$benchmark == j$command[i], ]
      expect_identical(rows$time, j$times[[i]])
      before <- if (k == 1L) 0L else length(first$times[[match(j$command[i], first$command)]])
      expect_identical(rows$run, before + seq_along(j$times[[i]]))
    }
  }
  # without names the files name the versions
  t2 <- read_timings(f)
  expect_identical(levels(t2$version), c("hyperfine-main", "hyperfine-branch"))
})

test_that("command_name, when set, names the version; per-run user/system are kept", {
  f <- timings_tempfile('{"results": [
    {"command": "./a", "command_name": "A", "times": [0.1, 0.2, 0.3],
     "user": [0.05, 0.06, 0.07], "system": [0.01, 0.01, 0.02], "exit_codes": [0, 0, 1]},
    {"command": "./b", "times": [0.4, 0.5, 0.6], "user": 0.1, "exit_codes": [0, 0, 0]}]}')
  t <- read_timings(f)
  expect_identical(levels(t$version), c("A", "./b"))
  expect_equal(t$user, c(0.05, 0.06, 0.07, NA, NA, NA))
  expect_equal(t$sys, c(0.01, 0.01, 0.02, NA, NA, NA))
  expect_identical(t$exit_status, c(0L, 0L, 1L, 0L, 0L, 0L))
  expect_identical(t$run, 1:6)
})

test_that("hyperfine run live: its export is read run for run", {
  skip_on_cran()
  hf <- Sys.which("hyperfine")
  skip_if(!nzchar(hf), "hyperfine is not installed")
  out <- tempfile(fileext = ".json")
  status <- system2(hf, c("-N", "--runs", "5", "--warmup", "1", "--export-json", out,
                          "-n", "one", shQuote("sleep 0.01"),
                          "-n", "two", shQuote("sleep 0.02")),
                    stdout = FALSE, stderr = FALSE)
  skip_if(status != 0 || !file.exists(out), "hyperfine failed to run")
  j <- jsonlite::fromJSON(out)$results
  t <- read_timings(out)
  expect_identical(levels(t$version), c("one", "two"))
  expect_equal(nrow(t), 10L)
  expect_identical(t$time, unlist(j$times))
  expect_true(all(t$time[t$version == "two"] > 0.015))
})
