# The history store: schema and migrations, history_add() and its
# summaries, transactions, names as data, merging.

test_that("history_open() creates the schema, at the package's version, once", {
  h <- local_history()
  v <- DBI::dbGetQuery(h$con, "SELECT version FROM history_migrations ORDER BY version")
  expect_equal(v$version, seq_along(speeduptest:::history_migrations_list))
  expect_true(all(c("machines", "commits", "benchmarks", "runs", "processes",
                    "iterations", "summaries", "changes", "annotations",
                    "confirmations") %in% DBI::dbListTables(h$con)))
  # opening again applies nothing twice
  h2 <- history_open(h$con)
  v2 <- DBI::dbGetQuery(h2$con, "SELECT COUNT(*) AS n FROM history_migrations")
  expect_equal(v2$n, length(speeduptest:::history_migrations_list))
})

test_that("an older store is migrated, a newer one refused", {
  skip_if_no_sqlite()
  path <- tempfile(fileext = ".sqlite")
  on.exit(unlink(path))
  con <- DBI::dbConnect(RSQLite::SQLite(), path)
  h <- speeduptest:::new_history(con, own = TRUE, path = path)
  speeduptest:::history_migrate(h, to = 1L)
  expect_equal(speeduptest:::history_version(h), 1L)
  expect_false(DBI::dbExistsTable(con, "changes"))
  t <- history_sim(commits = 2, benchmarks = 1)
  # version 1 holds runs already; opening migrates and keeps them
  DBI::dbDisconnect(con)
  h <- history_open(path)
  expect_equal(speeduptest:::history_version(h), 2L)
  history_add(h, t, machine = "m")
  expect_true(DBI::dbExistsTable(h$con, "changes"))
  DBI::dbExecute(h$con, "INSERT INTO history_migrations VALUES (99, 'future', 'x')")
  history_close(h)
  expect_error(history_open(path), class = "speeduptest_error_data",
               regexp = "newer")
})

test_that("a database with other tables of those names is not taken for a history", {
  skip_if_no_sqlite()
  con <- DBI::dbConnect(RSQLite::SQLite(), ":memory:")
  on.exit(DBI::dbDisconnect(con))
  DBI::dbWriteTable(con, "runs", data.frame(a = 1))
  expect_error(history_open(con), class = "speeduptest_error_data")
})

test_that("history_add() keeps the per-process medians, positions and iterations", {
  h <- local_history()
  t <- history_sim(commits = 4, benchmarks = 2, processes = 3, iterations = 4)
  added <- history_add(h, t, machine = "m1", branch = "main")
  expect_equal(added$position, 1:4)
  expect_equal(added$processes, rep(6L, 4))
  s <- DBI::dbGetQuery(h$con, paste(
    "SELECT b.name AS benchmark, c.sha, p.label, s.value, s.iterations FROM summaries s",
    "JOIN processes p ON p.process_id = s.process_id",
    "JOIN benchmarks b ON b.benchmark_id = s.benchmark_id",
    "JOIN commits c ON c.commit_id = s.commit_id"))
  ref <- stats::aggregate(list(value = t$time),
                          list(benchmark = t$benchmark, sha = t$commit,
                               label = as.character(t$process)),
                          function(x) exp(stats::median(log(x))))
  m <- merge(s, ref, by = c("benchmark", "sha", "label"))
  expect_equal(nrow(m), nrow(ref))
  expect_equal(m$value.x, m$value.y)
  expect_equal(unique(m$iterations), 4L)
  expect_equal(DBI::dbGetQuery(h$con, "SELECT COUNT(*) AS n FROM iterations")$n, nrow(t))
  # odd iteration counts: the plain median
  h2 <- local_history()
  t3 <- history_sim(commits = 2, benchmarks = 1, processes = 2, iterations = 5)
  history_add(h2, t3, machine = "m")
  v <- DBI::dbGetQuery(h2$con, "SELECT value FROM summaries ORDER BY process_id")$value
  key <- paste(t3$commit, t3$process)
  expect_equal(v, as.vector(tapply(t3$time, key, stats::median)[unique(key)]))
})

test_that("warm-up iterations are kept but left out of the summary", {
  h <- local_history()
  t <- as_timings(data.frame(benchmark = "b", version = "a", commit = "a",
                             time = c(5, 1, 1.2, 1.1), process = 1))
  history_add(h, t, machine = "m", warmup = 1)
  s <- DBI::dbGetQuery(h$con, "SELECT value, iterations FROM summaries")
  expect_equal(s$value, 1.1)
  expect_equal(s$iterations, 3L)
  expect_equal(DBI::dbGetQuery(h$con, "SELECT COUNT(*) AS n FROM iterations")$n, 4L)
})

test_that("runs without a process label are each a process", {
  h <- local_history()
  t <- as_timings(data.frame(benchmark = "b", version = "v", time = c(1, 2, 3)))
  history_add(h, t, commit = "abc", machine = "m")
  expect_equal(DBI::dbGetQuery(h$con, "SELECT COUNT(*) AS n FROM summaries")$n, 3L)
})

test_that("a known commit keeps its position, and a clash is refused whole", {
  h <- local_history()
  history_add(h, history_sim(commits = 3, benchmarks = 1), machine = "m1")
  # the same commits measured on another machine: same positions
  a <- history_add(h, history_sim(commits = 3, benchmarks = 1, seed = 2), machine = "m2")
  expect_equal(a$position, 1:3)
  expect_equal(DBI::dbGetQuery(h$con, "SELECT COUNT(*) AS n FROM commits")$n, 3L)
  before <- DBI::dbGetQuery(h$con, "SELECT COUNT(*) AS n FROM runs")$n
  # a new commit and one placed where another is: nothing is added
  t <- history_sim(commits = 2, benchmarks = 1, prefix = "x")
  expect_error(history_add(h, t, machine = "m1", position = c(10, 2)),
               class = "speeduptest_error_data", regexp = "already holds")
  expect_equal(DBI::dbGetQuery(h$con, "SELECT COUNT(*) AS n FROM runs")$n, before)
  expect_equal(DBI::dbGetQuery(h$con, "SELECT COUNT(*) AS n FROM commits")$n, 3L)
  expect_error(history_add(h, history_sim(commits = 1, benchmarks = 1), machine = "m1",
                           position = 7), regexp = "is at position 1")
  # a new commit goes after the branch's last
  b <- history_add(h, history_sim(commits = 1, benchmarks = 1, prefix = "y"), machine = "m1")
  expect_equal(b$position, 4)
  # another branch numbers its own commits
  d <- history_add(h, history_sim(commits = 2, benchmarks = 1, prefix = "z"),
                   machine = "m1", branch = "feature")
  expect_equal(d$position, 1:2)
})

test_that("a bad benchmark is skipped with its reason and the others are added", {
  h <- local_history()
  t <- history_sim(commits = 1, benchmarks = 3)
  t$time[t$benchmark == "bench2"][2] <- -1
  expect_warning(a <- history_add(h, t, machine = "m"),
                 class = "speeduptest_warning_skipped", regexp = "bench2")
  expect_equal(a$benchmarks, 2L)
  n <- DBI::dbGetQuery(h$con, "SELECT name FROM benchmarks ORDER BY name")$name
  expect_equal(n, c("bench1", "bench3"))
})

test_that("the arguments are checked", {
  h <- local_history()
  t <- history_sim(commits = 2, benchmarks = 1)
  expect_error(history_add(h, t, commit = "one"), class = "speeduptest_error_input",
               regexp = "one commit per version")
  expect_error(history_add(h, as_timings(data.frame(benchmark = "b", version = "v",
                                                    time = 1))),
               regexp = "give the commit")
  expect_error(history_add("h", t), class = "speeduptest_error_input")
  expect_error(history_add(h, t, warmup = -1), class = "speeduptest_error_input")
  expect_error(history_open(c("a", "b")), class = "speeduptest_error_input")
  expect_error(history_open(tempdir()), class = "speeduptest_error_file")
  expect_error(history_triage(h, 99, "confirmed"), regexp = "no change 99")
  expect_error(history_triage(h, 1, "maybe"), class = "speeduptest_error_input")
})

test_that("names from files are data, never SQL", {
  h <- local_history()
  evil <- c("x'); DROP TABLE runs; --", "a\" OR 1=1 --", "? $1 ;")
  t <- as_timings(data.frame(benchmark = evil, version = "v", time = c(1, 2, 3),
                             process = 1))
  history_add(h, t, commit = "c'; DELETE FROM commits; --", machine = "m'); --",
              branch = "b' OR '1'='1")
  expect_setequal(DBI::dbGetQuery(h$con, "SELECT name FROM benchmarks")$name, evil)
  expect_true(DBI::dbExistsTable(h$con, "runs"))
  expect_equal(DBI::dbGetQuery(h$con, "SELECT sha FROM commits")$sha,
               "c'; DELETE FROM commits; --")
  v <- speeduptest:::history_values(h, benchmark = evil[1], machine = "m'); --",
                                    branch = "b' OR '1'='1")
  expect_equal(nrow(v), 1L)
  expect_equal(v$value, 1)
})

test_that("the PostgreSQL placeholders are numbered", {
  h <- list(dialect = "postgres")
  expect_equal(speeduptest:::history_sql(h, "SELECT ? , ?"), "SELECT $1 , $2")
  expect_equal(speeduptest:::history_sql(h, "SELECT 1"), "SELECT 1")
  expect_equal(speeduptest:::history_sql(list(dialect = "sqlite"), "a = ?"), "a = ?")
})

test_that("a killed history_add() leaves no partial commit", {
  skip_if_no_sqlite()
  skip_on_os("windows")
  path <- tempfile(fileext = ".sqlite")
  on.exit(unlink(c(path, paste0(path, "-journal"))), add = TRUE)
  h <- history_open(path)
  history_add(h, history_sim(commits = 2, benchmarks = 2), machine = "m")
  before <- lapply(c("commits", "runs", "processes", "iterations", "summaries"),
                   function(tb) DBI::dbReadTable(h$con, tb))
  history_close(h)
  marker <- tempfile()
  lib <- paste(.libPaths(), collapse = .Platform$path.sep)
  # the child stops inside the transaction, after the commits, runs,
  # processes and iterations are written and before the summaries
  script <- tempfile(fileext = ".R")
  writeLines(c(
    "suppressMessages(library(speeduptest))",
    sprintf("path <- %s; marker <- %s", deparse(path), deparse(marker)),
    "ns <- asNamespace('speeduptest')",
    "f <- get('history_insert_summaries', ns)",
    "body(f) <- bquote({ writeLines(as.character(Sys.getpid()), .(marker)); Sys.sleep(60); .(body(f)) })",
    "assignInNamespace('history_insert_summaries', f, ns)",
    "h <- history_open(path)",
    "d <- data.frame(benchmark = rep(c('bench1', 'bench9'), each = 3), version = 'k',",
    "                time = 1:6, process = 1:6)",
    "history_add(h, as_timings(d), commit = 'killed', machine = 'm')"), script)
  system2(file.path(R.home("bin"), "Rscript"), shQuote(script), wait = FALSE,
          env = paste0("R_LIBS=", lib), stdout = FALSE, stderr = FALSE)
  # a loaded machine may take long to start R
  for (i in 1:1800) {
    if (file.exists(marker) && length(readLines(marker, warn = FALSE))) break
    Sys.sleep(0.1)
  }
  expect_true(file.exists(marker))
  pid <- as.integer(readLines(marker))
  expect_true(tools::pskill(pid, tools::SIGKILL))
  # until it is gone (signal 0 only asks whether the process exists)
  for (i in 1:200) {
    if (!isTRUE(suppressWarnings(tools::pskill(pid, 0L)))) break
    Sys.sleep(0.05)
  }
  h <- history_open(path)
  on.exit(history_close(h), add = TRUE)
  after <- lapply(c("commits", "runs", "processes", "iterations", "summaries"),
                  function(tb) DBI::dbReadTable(h$con, tb))
  expect_identical(after, before)
  expect_false("killed" %in% after[[1]]$sha)
  expect_false("bench9" %in% DBI::dbReadTable(h$con, "benchmarks")$name)
  # the store goes on working
  history_add(h, history_sim(commits = 1, benchmarks = 1, prefix = "n"), machine = "m")
  expect_equal(nrow(DBI::dbReadTable(h$con, "commits")), 3L)
})

test_that("history_merge() copies the runs of other machines, once", {
  a <- local_history()
  b <- local_history()
  history_add(a, history_sim(commits = 5, benchmarks = 2, seed = 1), machine = "m1")
  history_add(b, history_sim(commits = 6, benchmarks = 2, seed = 2), machine = "m2")
  history_annotate(b, "m2", commit = "c004", note = "new disk")
  history_merge(a, b)
  s <- DBI::dbGetQuery(a$con, paste(
    "SELECT m.name AS machine, c.sha, c.position, s.value FROM summaries s",
    "JOIN machines m ON m.machine_id = s.machine_id",
    "JOIN commits c ON c.commit_id = s.commit_id ORDER BY s.process_id"))
  sb <- DBI::dbGetQuery(b$con, paste(
    "SELECT c.sha, c.position, s.value FROM summaries s",
    "JOIN commits c ON c.commit_id = s.commit_id ORDER BY s.process_id"))
  expect_equal(s[s$machine == "m2", c("sha", "position", "value")], sb,
               ignore_attr = TRUE)
  expect_equal(DBI::dbGetQuery(a$con, "SELECT COUNT(*) AS n FROM commits")$n, 6L)
  expect_equal(DBI::dbGetQuery(a$con, "SELECT COUNT(*) AS n FROM annotations")$n, 1L)
  # merging again copies nothing
  history_merge(a, b)
  expect_equal(DBI::dbGetQuery(a$con, "SELECT COUNT(*) AS n FROM runs")$n, 11L)
  # a clash of positions is refused and copies nothing
  c3 <- local_history()
  history_add(c3, history_sim(commits = 1, benchmarks = 1, prefix = "q"), machine = "m3")
  expect_error(history_merge(a, c3), regexp = "position 1")
  expect_equal(DBI::dbGetQuery(a$con, "SELECT COUNT(*) AS n FROM machines")$n, 2L)
})

test_that("the fingerprint of a machine that changed splits its series", {
  h <- local_history()
  t <- history_sim(commits = 2, benchmarks = 1)
  attr(t, "machine") <- list(cpu_model = "A", cores = 2L, kernel = "Linux 6")
  history_add(h, t, machine = NULL)
  t2 <- history_sim(commits = 2, benchmarks = 1, prefix = "d")
  attr(t2, "machine") <- list(cpu_model = "B", cores = 2L, kernel = "Linux 6")
  history_add(h, t2)
  a <- DBI::dbReadTable(h$con, "annotations")
  expect_equal(nrow(a), 1L)
  expect_equal(a$position, 3)
})
