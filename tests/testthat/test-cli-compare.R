compare <- function(...) {
  out <- character()
  err <- character()
  status <- NULL
  err_con <- textConnection("err", "w", local = TRUE)
  sink(err_con, type = "message")
  out <- tryCatch(utils::capture.output(status <- speeduptest:::cli_compare(c(...))),
                  finally = { sink(type = "message"); close(err_con) })
  list(status = status, out = out, err = err)
}

test_that("compare exits 3 on a slowdown measured in blocks and 0 on a speedup (hyperfine)", {
  # hyperfine measures each command in one block: the runs test sees it, the
  # verdict is not guaranteed and the job is inconclusive (SPEC 10b)
  r <- compare(timings_fixture("hyperfine-slowdown.json"))
  expect_identical(r$status, 3L)
  expect_identical(r$out[2],
                   "speedup: Hodges-Lehmann estimate on log times [90% interval; ends one-sided 95%]")
  expect_match(r$out[3], "hyperfine-slowdown\\s+speedup 0\\.\\d+ \\[0\\.\\d+, 0\\.\\d+\\]\\s+significant slowdown")
  expect_match(compare_summary(r$out),
               "1 benchmark: 0 significant speedup, 1 significant slowdown", fixed = TRUE)
  expect_match(r$out[3], "(not guaranteed)", fixed = TRUE)
  expect_identical(r$out[length(r$out)], "INCONCLUSIVE (--fail-on slowdown): exit 3")
  expect_identical(compare(timings_fixture("hyperfine-slowdown.json"), "--fail-on",
                           "unguaranteed-slowdown")$status, 1L)
  r <- compare(timings_fixture("hyperfine-speedup.json"))
  expect_identical(r$status, 0L)
  expect_match(r$out[3], "significant speedup beyond 1 % (not guaranteed)", fixed = TRUE)
  # one file per version: "small" is slower on the branch, "large" unchanged
  # (two hyperfine files: two blocks, one after the other)
  r <- compare(timings_fixture(c("hyperfine-main.json", "hyperfine-branch.json")))
  expect_identical(r$status, 3L)
  expect_match(grep("^small", r$out, value = TRUE),
               "significant slowdown beyond 1 % (not guaranteed)", fixed = TRUE)
  expect_identical(compare(timings_fixture(c("hyperfine-main.json", "hyperfine-branch.json")),
                           "--fail-on", "never")$status, 0L)
})

test_that("one process per version: exit 3 on a slowdown, 0 on a speedup (Google Benchmark)", {
  g <- timings_fixture(c("gbench-base.json", "gbench-slower.json", "gbench-faster.json"))
  r <- compare(g[1], g[2])
  expect_identical(r$status, 3L)
  expect_length(grep("significant slowdown beyond 1 % (not guaranteed)", r$out,
                     fixed = TRUE), 3L)
  expect_identical(compare(g[1], g[2], "--fail-on", "unguaranteed-slowdown")$status, 1L)
  r <- compare(g[1], g[3])
  expect_identical(r$status, 0L)
  expect_length(grep("significant slowdown beyond 1 %", r$out), 0L)
  expect_gte(length(grep("significant speedup beyond 1 %", r$out)), 2L)
  # --fail-on change: an unguaranteed speedup is inconclusive too
  expect_identical(compare(g[1], g[3], "--fail-on=change")$status, 3L)
  # the CPU time and the mean protocol
  expect_identical(compare(g[1], g[2], "--metric", "cpu_time", "--test", "mean")$status, 3L)
})

test_that("each line is the protocol's verdict on the same numbers as vectors", {
  g <- timings_fixture(c("gbench-base.json", "gbench-faster.json"))
  t <- read_timings(g)
  r <- compare(g[1], g[2], "--alpha", "0.01", "--tolerance", "0", "--p-adjust", "none")
  for (b in unique(t$benchmark)) {
    x <- t$time[t$benchmark == b & t$version == "gbench-base"]
    y <- t$time[t$benchmark == b & t$version == "gbench-faster"]
    v <- median_test(x, y, alpha = 0.01)
    w <- median_test(y, x, alpha = 0.01)
    expected <- if (isTRUE(v$significant)) "significant speedup" else
      if (isTRUE(w$significant)) "significant slowdown" else "no significant difference"
    # the line's words are the verdict's own, and so are its figures: the
    # same text as R's print
    expect_identical(expected, v$decision)
    line <- grep(paste0("^", b, " "), r$out, value = TRUE)
    expect_match(line, paste0(expected, "( \\(.*\\))?$"))
    shown <- sub("^  speedup: ([^(]*) \\(.*$", "\\1",
                 grep("^  speedup: ", format(v), value = TRUE))
    expect_match(line, paste0("speedup ", shown, "  "), fixed = TRUE)
  }
})

test_that("criterion.rs and pyperf through compare", {
  expect_identical(compare(timings_fixture("criterion"))$status, 0L)
  p <- timings_fixture(c("pyperf-base.json", "pyperf-new.json"))
  expect_identical(compare(p[2], p[1])$status, 1L)
  expect_identical(compare(p[1], p[2])$status, 0L)
})

test_that("mismatched benchmarks are reported as skipped", {
  a <- timings_tempfile(c("benchmark,time", paste0("alpha,", 1:5 + 10), paste0("beta,", 1:5)), ".csv")
  b <- timings_tempfile(c("benchmark,time", paste0("alpha,", 1:5), paste0("gamma,", 1:5)), ".csv")
  r <- compare(a, b)
  expect_identical(r$status, 0L)
  expect_match(grep("^beta", r$out, value = TRUE), "skipped: it has runs of .* only")
  expect_match(grep("^gamma", r$out, value = TRUE), "skipped")
  expect_match(compare_summary(r$out), "2 skipped", fixed = TRUE)
  expect_identical(r$out[length(r$out)], "pass (--fail-on slowdown): exit 0")
})

test_that("bad input exits 2 with a message on stderr", {
  h <- timings_fixture("hyperfine-slowdown.json")
  bad <- timings_tempfile("{not json")
  for (args in list(character(), c(h, h, h), c(h, "--alpha", "2"), c(h, "--test", "mode"),
                    c(h, "--fail-on", "always"), c(h, "--bogus"), c(h, "--alpha"),
                    bad, c(h, "--metric", "cpu_time"),
                    timings_fixture("gbench-aggregates.json"),
                    timings_fixture("gbench-base.json"),
                    c(timings_fixture("gbench-base.json"), timings_fixture("hyperfine-main.json")))) {
    r <- compare(args)
    expect_identical(r$status, 2L, label = paste(basename(args), collapse = " "))
    expect_match(paste(r$err, collapse = "\n"), "speeduptest compare: ")
    expect_length(r$out, 0L)
  }
  r <- compare(bad)
  expect_match(r$err[1], basename(bad), fixed = TRUE)
  r <- compare(timings_fixture("gbench-base.json"))
  expect_match(r$err[1], "1 version", fixed = TRUE)
})

test_that("--help prints the usage and returns 0", {
  r <- compare("--help")
  expect_identical(r$status, 0L)
  expect_match(r$out[1], "Usage: speeduptest compare")
})

test_that("through Rscript, the exit status is the one cli_compare() returns", {
  skip_on_cran()
  rscript <- file.path(R.home("bin"), "Rscript")
  run <- function(...) {
    suppressWarnings(system2(rscript, c("-e", shQuote(
      "quit(status = speeduptest:::cli_compare(commandArgs(TRUE)))"), ...),
      stdout = FALSE, stderr = FALSE,
      env = paste0("R_LIBS=", paste(.libPaths(), collapse = .Platform$path.sep))))
  }
  expect_identical(run(shQuote(timings_fixture("hyperfine-slowdown.json"))), 3L)
  expect_identical(run(shQuote(timings_fixture("hyperfine-slowdown.json")), "--fail-on",
                       "unguaranteed-slowdown"), 1L)
  expect_identical(run(shQuote(timings_fixture("hyperfine-speedup.json"))), 0L)
  g <- timings_fixture(c("gbench-base.json", "gbench-slower.json", "gbench-faster.json"))
  expect_identical(run(shQuote(g[1]), shQuote(g[2])), 3L)
  expect_identical(run(shQuote(g[1]), shQuote(g[3])), 0L)
  expect_identical(run(shQuote(g[1]), "--alpha", "7"), 2L)
})

test_that("hyperfine run live: compare exits 3 on a slowdown (blocks), 0 on a speedup", {
  skip_on_cran()
  hf <- Sys.which("hyperfine")
  cc <- Sys.which("cc")
  skip_if(!nzchar(hf) || !nzchar(cc), "hyperfine or a C compiler is missing")
  exe <- tempfile()
  skip_if(system2(cc, c("-O2", "-o", exe, shQuote(timings_fixture("busy.c"))),
                  stdout = FALSE, stderr = FALSE) != 0, "cannot build busy.c")
  run_pair <- function(old, new) {
    out <- tempfile(fileext = ".json")
    status <- system2(hf, c("-N", "--warmup", "2", "--runs", "31", "--export-json", out,
                            "-n", "old", shQuote(paste(exe, old)),
                            "-n", "new", shQuote(paste(exe, new))),
                      stdout = FALSE, stderr = FALSE)
    skip_if(status != 0 || !file.exists(out), "hyperfine failed")
    out
  }
  # three times the work: a slowdown no load on the machine can hide
  expect_identical(compare(run_pair("2000000", "6000000"))$status, 3L)
  expect_identical(compare(run_pair("6000000", "2000000"))$status, 0L)
})
