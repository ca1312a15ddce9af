# read_history(): asv results folders, Otava/Hunter CSV, long CSV.

# An asv results folder written as asv 0.6 writes it (results format
# version 2): a machine folder with machine.json and one file per commit
# and environment.
asv_fixture <- function() {
  root <- tempfile("asv-results")
  dir <- file.path(root, "ci-box")
  dir.create(dir, recursive = TRUE)
  writeLines('{"arch": "x86_64", "cpu": "Intel", "machine": "ci-box", "num_cpu": "4", "os": "Linux", "ram": "16GB", "version": 1}',
             file.path(dir, "machine.json"))
  cols <- '["result", "params", "version", "started_at", "duration", "stats_ci_99_a", "stats_ci_99_b", "stats_q_25", "stats_q_75", "stats_number", "stats_repeat", "samples", "profile"]'
  one <- function(hash, date, sort_samples, p1, p2) {
    sprintf(paste0(
      '{"commit_hash": "%s", "env_name": "virtualenv-py3.11", "date": %s,',
      ' "params": {"machine": "ci-box", "python": "3.11"}, "python": "3.11",',
      ' "requirements": {}, "env_vars": {}, "result_columns": %s,',
      ' "results": {"bench.time_sort": [[%s], [], "abc", 1700000000000, 1.5,',
      ' [0.001], [0.002], [0.001], [0.002], [100], [10], [[%s]]],',
      ' "bench.time_param": [[%s, %s], [["10", "100"]], "def", 1700000000000, 2.0],',
      ' "bench.failed": [null, [], "ghi"]},',
      ' "durations": {"<build>": 10.0}, "version": 2}'),
      hash, format(date), cols, format(stats::median(sort_samples)),
      paste(format(sort_samples), collapse = ", "), format(p1), format(p2))
  }
  writeLines(one("aaaaaaaa11112222", 1700000000000, c(0.0011, 0.0012, 0.0013), 0.5, 5),
             file.path(dir, "aaaaaaaa-virtualenv-py3.11.json"))
  writeLines(one("bbbbbbbb33334444", 1700000100000, c(0.0021, 0.0022, 0.0024, 0.0023), 0.6, 6),
             file.path(dir, "bbbbbbbb-virtualenv-py3.11.json"))
  root
}

test_that("asv results are read: samples, parameters, machines, commit order", {
  root <- asv_fixture()
  on.exit(unlink(root, recursive = TRUE))
  t <- read_history(root)
  expect_s3_class(t, "speedup_timings")
  expect_setequal(unique(t$benchmark),
                  c("bench.time_sort", "bench.time_param(10)", "bench.time_param(100)"))
  expect_equal(unique(t$machine), "ci-box")
  s <- t[t$benchmark == "bench.time_sort" & t$commit == "bbbbbbbb33334444", ]
  expect_equal(s$time, c(0.0021, 0.0022, 0.0024, 0.0023))
  expect_equal(unique(s$position), 2)
  expect_equal(t$time[t$benchmark == "bench.time_param(100)" & t$commit == "aaaaaaaa11112222"], 5)
  # the order given wins over the dates
  t2 <- read_history(root, format = "asv", order = c("bbbbbbbb33334444", "aaaaaaaa1111"))
  expect_equal(unique(t2$position[t2$commit == "aaaaaaaa11112222"]), 2)
  expect_error(read_history(root, order = "cccc"), regexp = "does not hold")
  # into a history: one process per benchmark and commit, its median
  h <- local_history()
  history_add(h, t)
  v <- DBI::dbGetQuery(h$con, paste(
    "SELECT b.name, c.sha, s.value FROM summaries s JOIN benchmarks b",
    "ON b.benchmark_id = s.benchmark_id JOIN commits c ON c.commit_id = s.commit_id",
    "WHERE b.name = 'bench.time_sort' ORDER BY c.position"))
  expect_equal(v$value, c(0.0012, exp(mean(log(c(0.0022, 0.0023))))))
  expect_equal(DBI::dbGetQuery(h$con, "SELECT name FROM machines")$name, "ci-box")
})

test_that("an Otava CSV is read: metrics as benchmarks, commits by time per branch", {
  f <- tempfile(fileext = ".csv")
  on.exit(unlink(f))
  writeLines(c(
    "time,commit,branch,metric1,metric2",
    "2024.01.02 3:00:00 +0100,aaa1,main,138455,10.23",
    "2024.01.01 3:00:00 +0100,aaa0,main,154023,10.43",
    "2024.01.03 3:00:00 +0100,aaa2,feature-x,143112,10.29",
    "2024.01.04 3:00:00 +0100,aaa3,feature-x,149190,10.91",
    "2024.01.05 3:00:00 +0100,aaa4,main,132098,10.34"), f)
  t <- read_history(f)
  expect_setequal(unique(t$benchmark), c("metric1", "metric2"))
  m <- t[t$benchmark == "metric1", ]
  expect_equal(m$position[m$commit == "aaa0"], 1)
  expect_equal(m$position[m$commit == "aaa1"], 2)
  expect_equal(m$position[m$commit == "aaa4"], 3)
  expect_equal(m$position[m$commit == "aaa3"], 2)
  expect_equal(m$commit_time[m$commit == "aaa0"], "2024-01-01T02:00:00Z")
  t2 <- read_history(f, format = "otava", metrics = "metric1", higher_is_better = "metric1")
  expect_equal(t2$time[t2$commit == "aaa0"], 1 / 154023)
  expect_error(read_history(f, metrics = "nope"), regexp = "no column")
  h <- local_history()
  history_add(h, t, machine = "m")
  cm <- DBI::dbGetQuery(h$con, "SELECT branch, sha, position FROM commits ORDER BY branch, position")
  expect_equal(cm$sha, c("aaa2", "aaa3", "aaa0", "aaa1", "aaa4"))
})

test_that("a long CSV with a commit column is read", {
  f <- tempfile(fileext = ".csv")
  on.exit(unlink(f))
  writeLines(c("benchmark,commit,time,process,machine",
               "a,c1,1.0,1,m1", "a,c1,1.1,1,m1", "a,c1,1.2,2,m1",
               "a,c2,2.0,1,m1", "b,c2,3.0,1,m1"), f)
  t <- read_history(f)
  expect_equal(t$position, c(1, 1, 1, 2, 2))
  h <- local_history()
  a <- history_add(h, t)
  expect_equal(a$processes, c(2L, 2L))
  expect_equal(DBI::dbGetQuery(h$con, "SELECT value FROM summaries ORDER BY process_id")$value,
               c(exp(mean(log(c(1, 1.1)))), 1.2, 2, 3))
  bad <- tempfile(fileext = ".csv")
  writeLines(c("benchmark,time", "a,1"), bad)
  expect_error(read_history(bad, format = "csv"), class = "speeduptest_error_file",
               regexp = "commit")
  expect_error(read_history(tempfile()), class = "speeduptest_error_file")
})
