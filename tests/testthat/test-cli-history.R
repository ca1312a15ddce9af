# `speeduptest history add|changes|confirm|bisect`.

# A long CSV history of `commits` commits of two benchmarks, bench2 slower
# by `step` from commit `step_at` on (from the last commits when at the head).
cli_history_csv <- function(commits = 40, step_at = 30, step = 1.08, seed = 1) {
  t <- history_sim(commits = commits, benchmarks = 2, processes = 5, iterations = 1,
                   step_at = step_at, step = step, stepped = 2, seed = seed)
  f <- tempfile(fileext = ".csv")
  d <- as.data.frame(t)[c("benchmark", "commit", "time", "process")]
  utils::write.csv(d, f, row.names = FALSE)
  f
}

run_cli <- function(args) {
  status <- NULL
  out <- capture.output(status <- speeduptest_cli(args))
  list(status = as.integer(status), out = out)
}

test_that("history add and history changes gate on a regression at the head", {
  skip_if_no_sqlite()
  store <- tempfile(fileext = ".sqlite")
  on.exit(unlink(store))
  f <- cli_history_csv()
  a <- run_cli(c("history", "add", store, f, "--machine", "ci"))
  expect_equal(a$status, 0L)
  expect_length(a$out, 40L)
  expect_match(a$out[1], "added commit c001 \\(branch main, position 1\\) on ci")
  r <- run_cli(c("history", "changes", store, "--fail-on", "regression"))
  expect_equal(r$status, 1L)
  expect_true(any(grepl("bench2", r$out)))
  expect_true(any(grepl("regression beyond 1 %", r$out)))
  expect_true(all(nchar(r$out) <= 80))
  # acknowledged: the job passes
  h <- history_open(store)
  ch <- history_changes(h)
  history_triage(h, ch$change_id, "acknowledged")
  history_close(h)
  r2 <- run_cli(c("history", "changes", store, "--fail-on", "regression"))
  expect_equal(r2$status, 0L)
  # JSON with every figure; Markdown table
  j <- run_cli(c("history", "changes", store, "--output", "json"))
  doc <- jsonlite::fromJSON(paste(j$out, collapse = "\n"))
  expect_equal(doc$changes$benchmark, "bench2")
  expect_equal(doc$changes$state, "acknowledged")
  expect_equal(doc$exit_status, 0L)
  m <- run_cli(c("history", "changes", store, "--output", "markdown"))
  expect_true(any(grepl("^\\| 1 \\| bench2 \\| ci \\| main \\|", m$out)))
})

test_that("an unchanged history passes the gate, and a change no longer at the head too", {
  skip_if_no_sqlite()
  store <- tempfile(fileext = ".sqlite")
  on.exit(unlink(store))
  f <- cli_history_csv(step_at = NA)
  expect_equal(run_cli(c("history", "add", store, f, "--machine", "ci"))$status, 0L)
  r <- run_cli(c("history", "changes", store, "--fail-on", "regression"))
  expect_equal(r$status, 0L)
  expect_match(r$out[1], "^0 change\\(s\\) in 2 series")
})

test_that("names stay text in Markdown", {
  expect_equal(speeduptest:::history_md("a|b <img src=x> *c* [l](u)"),
               "a\\|b &lt;img src=x&gt; \\*c\\* \\[l\\]\\(u\\)")
})

test_that("bad input exits with status 2 and a message", {
  skip_if_no_sqlite()
  expect_equal(suppressMessages(run_cli(c("history", "changes", tempfile())))$status, 2L)
  expect_equal(run_cli(c("history", "nope", "x"))$status, 2L)
  expect_equal(run_cli(c("history", "changes", "x", "--alpha", "2"))$status, 2L)
  expect_equal(run_cli(c("history", "confirm", "x", "1"))$status, 2L)
  expect_equal(run_cli(c("history", "changes", "x", "--bogus"))$status, 2L)
  expect_equal(run_cli(c("history", "--help"))$status, 0L)
})

test_that("history confirm and bisect run the template", {
  skip_if_no_sqlite()
  skip_on_os("windows")
  skip_on_cran()
  store <- tempfile(fileext = ".sqlite")
  on.exit(unlink(store))
  f <- cli_history_csv()
  run_cli(c("history", "add", store, f, "--machine", "ci"))
  run_cli(c("history", "changes", store))
  script <- tempfile(fileext = ".sh")
  # commits from c030 on are slower: a longer loop
  writeLines(c("#!/bin/sh",
               "n=300; case \"$1\" in c0[3-9]*) n=3000;; esac",
               "i=0; while [ $i -lt $n ]; do i=$((i+1)); done"), script)
  Sys.chmod(script, "0755")
  r <- suppressWarnings(run_cli(c("history", "confirm", store, "1", "--run",
                                  paste(script, "{commit}"), "--max-runs", "30",
                                  "--output", "json")))
  expect_equal(r$status, 0L)
  doc <- jsonlite::fromJSON(paste(r$out, collapse = "\n"))
  expect_equal(doc$outcome, "different")
  b <- suppressWarnings(run_cli(c("history", "bisect", store, "1", "--run",
                                  paste(script, "{commit}"), "--max-runs", "30",
                                  "--tolerance", "50")))
  expect_equal(b$status, 0L)
  expect_true(any(grepl("first bad c030", b$out)))
})
