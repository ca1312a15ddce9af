# confirm_change() and bisect_change(): commands measured with measure(),
# outcomes recorded in the history.

loop_cmd <- function(n) sprintf("sh -c 'i=0; while [ $i -lt %d ]; do i=$((i+1)); done'", n)

# A history whose bench1 steps at commit c012 (of 20), and its change.
history_with_change <- function(env = parent.frame()) {
  h <- local_history(env)
  history_add(h, history_sim(commits = 20, benchmarks = 1, step_at = 12, step = 1.2),
              machine = "m1")
  ch <- history_changes(h, method = toy_series_changes)
  list(h = h, change = ch)
}

test_that("confirm_change() measures the two commits and records the outcome", {
  skip_on_os("windows")
  skip_on_cran()
  x <- history_with_change()
  h <- x$h
  expect_equal(x$change$first_bad, "c012")
  seen <- character()
  run <- function(commit) {
    seen <<- c(seen, commit)
    if (commit >= "c012") loop_cmd(4000) else loop_cmd(400)
  }
  r <- suppressWarnings(confirm_change(h, x$change, run, max_runs = 30, progress = FALSE))
  expect_s3_class(r, "speedup_history_confirmation")
  expect_equal(seen, c("c011", "c012"))
  expect_equal(r$outcome, "different")
  expect_equal(r$decision, "slowdown")
  expect_gt(r$ratio, 1)
  expect_lte(r$conf_low, r$ratio)
  c1 <- DBI::dbReadTable(h$con, "confirmations")
  expect_equal(c1$outcome, "different")
  expect_equal(c1$kind, "confirm")
  expect_equal(DBI::dbGetQuery(h$con, "SELECT state FROM changes")$state, "confirmed")
  # the same command for both: never "different" in the change's favour here
  r2 <- suppressWarnings(confirm_change(h, x$change$change_id, "true {commit}",
                                        max_runs = 20, progress = FALSE))
  expect_equal(r2$commands[["last_good"]], "true c011")
  expect_true(r2$outcome %in% c("same", "undecided", "different"))
  expect_equal(nrow(DBI::dbReadTable(h$con, "confirmations")), 2L)
  expect_output(print(r), "different")
})

test_that("templates quote what is not a plain word", {
  cmd <- speeduptest:::history_run_commands("run {commit} {benchmark}",
                                            c("abc", "x; rm -rf /"), "my bench")
  expect_equal(unname(cmd), c("run abc 'my bench'", "run 'x; rm -rf /' 'my bench'"))
  expect_error(speeduptest:::history_run_commands("run", "a", "b"), regexp = "\\{commit\\}")
  expect_error(speeduptest:::history_run_commands(function(cm) 1, "a", "b"),
               regexp = "not a command")
  two <- speeduptest:::history_run_commands(function(cm, b) paste(cm, b), c("a", "b"), "z")
  expect_equal(unname(two), c("a z", "b z"))
})

test_that("bisect_change() finds the first bad commit with its total risk split", {
  skip_on_os("windows")
  skip_on_cran()
  x <- history_with_change()
  h <- x$h
  # the history holds only c011 and c012 of this range; the user gives the
  # commits git knows in between (the regression came in at g4)
  commits <- c("c011", "g1", "g2", "g3", "g4", "g5", "c012")
  bad <- c("g4", "g5", "c012")
  run <- function(commit) if (commit %in% bad) loop_cmd(4000) else loop_cmd(400)
  b <- suppressWarnings(bisect_change(h, x$change, run, commits = commits, max_runs = 30,
                                      min_speedup = 1.5,
                                      progress = FALSE))
  expect_s3_class(b, "speedup_history_bisection")
  expect_equal(b$max_steps, 3L)
  expect_equal(b$level, 0.05 / 3)
  expect_true(b$narrowed)
  expect_equal(b$last_good, "g3")
  expect_equal(b$first_bad, "g4")
  expect_true(all(b$steps$level == 0.05 / 3))
  cf <- DBI::dbReadTable(h$con, "confirmations")
  expect_equal(cf$kind, "bisect")
  expect_equal(jsonlite::fromJSON(cf$detail)$first_bad, "g4")
  expect_output(print(b), "g4")
  expect_error(bisect_change(h, x$change, run, commits = c("a", "b")),
               regexp = "must run from")
})
