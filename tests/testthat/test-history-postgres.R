# The history on PostgreSQL, on a private server the test starts
# (local_postgres() of helper-history.R): the same answers as SQLite.

# The same work on a history: runs of two machines with a step, evil
# names, an annotation, an analysis, a triage, more commits, a second
# analysis; returns what a user reads.
history_scenario <- function(h) {
  t <- history_sim(commits = 20, benchmarks = 3, step_at = 12, step = 1.1, stepped = 2)
  history_add(h, t, machine = "m1")
  t2 <- history_sim(commits = 20, benchmarks = 3, seed = 5, base = c(1, 2, 3))
  history_add(h, t2, machine = "m2'); DROP TABLE runs; --")
  evil <- as_timings(data.frame(benchmark = "b' OR '1'='1", version = "v",
                                time = c(1, 1.1, 1.2), process = 1:3))
  history_add(h, evil, commit = "x'; --", machine = "m1", branch = "feature $1 ?")
  history_annotate(h, "m1", commit = "c005", note = "new kernel")
  a <- history_changes(h, method = toy_series_changes)
  history_triage(h, a$change_id[1], "acknowledged")
  history_add(h, history_sim(commits = 3, benchmarks = 3, first = 21, step_at = 1,
                             step = 1.1, stepped = 2, seed = 9), machine = "m1")
  # a clash is refused whole
  clash <- tryCatch(history_add(h, history_sim(commits = 2, benchmarks = 1, prefix = "z"),
                                machine = "m1", position = c(30, 3)),
                    speeduptest_error_data = function(e) "refused")
  b <- history_changes(h, method = toy_series_changes, p_adjust = "BH")
  v <- speeduptest:::history_values(h)
  list(a = as.data.frame(a), b = as.data.frame(b), analysed = attr(b, "analysed"),
       clash = clash,
       values = v[c("benchmark", "machine", "branch", "position", "sha", "value", "segment")],
       counts = vapply(c("machines", "commits", "benchmarks", "runs", "processes",
                         "iterations", "summaries", "changes", "annotations"),
                       function(tb) as.numeric(DBI::dbGetQuery(
                         h$con, paste("SELECT COUNT(*) AS n FROM", tb))$n), 0))
}

test_that("PostgreSQL and SQLite give identical answers", {
  skip_on_cran()
  # RPostgres asks the system for the time zone unless TZ is set
  withr::local_envvar(TZ = "UTC")
  connect <- local_postgres()
  con <- connect()
  on.exit(DBI::dbDisconnect(con), add = TRUE)
  pg <- history_open(con)
  expect_equal(pg$dialect, "postgres")
  expect_equal(speeduptest:::history_version(pg), length(speeduptest:::history_migrations_list))
  lite <- local_history()
  a <- history_scenario(pg)
  b <- history_scenario(lite)
  drop_times <- function(d) {
    d$first_seen <- NULL
    d
  }
  expect_equal(a$clash, "refused")
  expect_equal(a$counts, b$counts)
  expect_equal(a$values, b$values)
  expect_equal(a$a, b$a)
  expect_equal(a$b, b$b)
  expect_equal(a$analysed, b$analysed)
  expect_gt(nrow(a$a), 0)
  expect_true("acknowledged" %in% a$b$state)
  # reopening the server's store migrates nothing and keeps everything
  pg2 <- history_open(con)
  expect_equal(as.numeric(DBI::dbGetQuery(con, "SELECT COUNT(*) AS n FROM history_migrations")$n),
               length(speeduptest:::history_migrations_list))
  # a store of another machine merges into the server's
  other <- local_history()
  history_add(other, history_sim(commits = 5, benchmarks = 1, seed = 11), machine = "m3")
  history_merge(pg, other)
  expect_true("m3" %in% DBI::dbGetQuery(con, "SELECT name FROM machines")$name)
})
