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

# asv folders of several machines and environments, read by brute force: a
# row per sample (or result) of each benchmark of each file, the machine
# with its environment when a machine has several, the commits by date,
# the rows ordered by position, machine, benchmark and sample, the run
# counted within benchmark and commit.
asv_write <- function(root, machine, dirname, files) {
  dir <- file.path(root, dirname)
  dir.create(dir, recursive = TRUE)
  writeLines(sprintf('{"machine": "%s", "version": 1}', machine), file.path(dir, "machine.json"))
  for (f in names(files)) writeLines(files[[f]], file.path(dir, f))
}
asv_result <- function(hash, env, date, benches) {
  res <- vapply(names(benches), function(b) {
    s <- benches[[b]]
    if (length(s) == 1L) sprintf('"%s": [[%s], null, "v"]', b, format(s, digits = 17)) else
      sprintf('"%s": [[%s], null, "v", 1, 1.0, [[%s]]]', b, format(stats::median(s), digits = 17),
              paste(format(s, digits = 17), collapse = ", "))
  }, "")
  paste0('{"commit_hash": "', hash, '", ', if (!is.null(env)) sprintf('"env_name": "%s", ', env),
         if (!is.null(date)) sprintf('"date": %.0f, ', date),
         '"result_columns": ["result", "params", "version", "started_at", "duration", "samples"], ',
         '"results": {', paste(res, collapse = ", "), '}, "version": 2}')
}
asv_brute <- function(root) {
  rows <- list()
  for (dir in list.dirs(root, recursive = FALSE)) {
    m <- jsonlite::fromJSON(file.path(dir, "machine.json"))$machine
    fs <- setdiff(list.files(dir, pattern = "[.]json$", full.names = TRUE),
                  file.path(dir, "machine.json"))
    part <- list()
    for (f in fs) {
      j <- jsonlite::fromJSON(f, simplifyVector = FALSE)
      for (b in names(j$results)) {
        r <- j$results[[b]]
        v <- if (length(r) >= 6L && length(r[[6L]])) unlist(r[[6L]][[1L]]) else unlist(r[[1L]])
        part[[length(part) + 1L]] <- data.frame(
          benchmark = b, commit = j$commit_hash, env = if (is.null(j$env_name)) "" else j$env_name,
          date = if (is.null(j$date)) NA_real_ else as.double(j$date), time = v, iteration = seq_along(v))
      }
    }
    part <- do.call(rbind, part)
    part$machine <- if (length(unique(part$env)) > 1L) paste0(m, "/", part$env) else m
    rows[[length(rows) + 1L]] <- part
  }
  d <- do.call(rbind, rows)
  pairs <- unique(d[c("commit", "date")])
  pairs$position <- rank(pairs$date, ties.method = "first")
  d$position <- as.double(pairs$position[match(d$commit, pairs$commit)])
  d <- d[order(d$position, d$machine, d$benchmark, d$iteration), ]
  d$run <- stats::ave(seq_len(nrow(d)), d$benchmark, d$commit, FUN = seq_along)
  d$commit_time <- format(as.POSIXct(d$date / 1000, origin = "1970-01-01", tz = "UTC"),
                          "%Y-%m-%dT%H:%M:%SZ", tz = "UTC")
  d
}

test_that("asv folders of several machines, environments and repeated commits read as by brute force", {
  root <- tempfile("asv-many")
  on.exit(unlink(root, recursive = TRUE))
  set.seed(35)
  b <- function() list(Zeta = rlnorm(3), alpha = rlnorm(1), Beta = rlnorm(4), beta_2 = rlnorm(2))
  # a machine with two environments, one with one
  asv_write(root, "box-a", "a", list(
    "c1-py311.json" = asv_result("c1", "py3.11", 1.7e12, b()),
    "c2-py311.json" = asv_result("c2", "py3.11", 1.7e12 + 5e6, b()),
    "c2-py312.json" = asv_result("c2", "py3.12", 1.7e12 + 5e6, b())))
  asv_write(root, "box-b", "b", list(
    "c0.json" = asv_result("c0", NULL, 1.6e12, b()),
    "c1.json" = asv_result("c1", NULL, 1.7e12, b()),
    "c3.json" = asv_result("c3", NULL, 1.8e12, b())))
  # the same commit and environment twice on one machine: its benchmarks
  # tie in the order and their runs count across both files
  asv_write(root, "box-c", "c", list(
    "c3-x.json" = asv_result("c3", "e", 1.8e12, b()),
    "c3-y.json" = asv_result("c3", "e", 1.8e12, b())))
  for (case in list(c("a", "b"), c("a", "b", "c"), "b")) {
    sub <- tempfile("asv-case")
    dir.create(sub)
    file.copy(file.path(root, case), sub, recursive = TRUE)
    t <- read_history(sub)
    e <- asv_brute(sub)
    unlink(sub, recursive = TRUE)
    expect_identical(t$benchmark, e$benchmark)
    expect_identical(t$version, factor(e$commit, levels = unique(e$commit)))
    expect_identical(t$commit, e$commit)
    expect_identical(t$time, e$time)
    expect_identical(t$run, e$run)
    expect_identical(t$machine, e$machine)
    expect_identical(t$position, e$position)
    expect_identical(t$commit_time, e$commit_time)
    expect_identical(t$process, rep(1L, nrow(e)))
  }
  # a file without an environment or a date
  sub <- tempfile("asv-bare")
  on.exit(unlink(sub, recursive = TRUE), add = TRUE)
  asv_write(sub, "box-d", "d", list("c9.json" = asv_result("c9", NULL, NULL, b())))
  t <- read_history(sub)
  expect_identical(unique(t$commit_time), NA_character_)
  expect_identical(t$run, asv_brute(sub)$run)
})
