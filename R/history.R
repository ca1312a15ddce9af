# A history of results across commits (SPEC section 12): the store.
# history_open() opens a database through DBI (an SQLite file by default,
# any DBI connection, PostgreSQL tested), creates or migrates its schema
# (R/history-schema.R) and returns a speedup_history.  Every statement with a
# value in it is parameterised (history_query(), history_exec()): names read
# from files never become SQL.
#
# The rest of the history is in files named history-*.R, one concern each:
#   history-schema.R    the tables and their migrations
#   history-add.R       history_add(): runs, processes, per-process summaries
#   import-history.R    read_history(): asv, Otava/Hunter CSV, long CSV
#   history-merge.R     history_merge()
#   history-series.R    reading a series, annotations, triage
#   history-changes.R   history_changes(): detection per series, adjustment
#   history-confirm.R   confirm_change(), bisect_change()
#   history-print.R     print(), format(), as.data.frame()
#   history-plot.R      plot() and autoplot() of a series
#   cli-history.R       `speeduptest history ...`

#' A history of benchmark results across commits
#'
#' `history_open()` opens a history: a database of run times with their
#' machine, branch, commit (its position in first-parent order), process,
#' round and iteration, the changes found along each series and their
#' triage. A path opens (and creates, if needed) an SQLite file through DBI
#' and RSQLite; a DBI connection (PostgreSQL through RPostgres, or any other
#' driver whose SQL is standard) is used as it is. The schema is created
#' when the database is empty, migrated when it is older than this package,
#' and refused when it is newer.
#'
#' A series is one benchmark on one machine on one branch; series are never
#' pooled across machines, and an annotation (a change of the machine, see
#' [history_annotate()]) splits a series at a commit.
#'
#' @param x A path to an SQLite file (created if it does not exist), or a
#'   DBI connection.
#' @param h A history, from `history_open()`.
#' @return `history_open()`: an object of class `speedup_history` holding
#'   the connection; `history_close()` closes a connection the history
#'   opened itself (a connection given by the caller stays open) and returns
#'   `h` invisibly.
#' @seealso [history_add()], [history_changes()], [read_history()]
#' @examples
#' if (requireNamespace("RSQLite", quietly = TRUE)) {
#'   h <- history_open(tempfile(fileext = ".sqlite"))
#'   t <- as_timings(data.frame(benchmark = "sort", version = "a",
#'                              time = c(1.01, 1.02, 0.99), process = 1:3))
#'   history_add(h, t, commit = "4f2a9c1", branch = "main", machine = "ci-1")
#'   h
#'   history_close(h)
#' }
#' @export
history_open <- function(x) {
  if (is.character(x)) {
    path <- check_path(x, "x")
    if (!requireNamespace("DBI", quietly = TRUE) ||
        !requireNamespace("RSQLite", quietly = TRUE)) {
      abort("history_open() of a file needs the packages DBI and RSQLite.",
            class = "unavailable")
    }
    if (dir.exists(path)) {
      abort(sprintf("`x` must be a file for the SQLite history, not the folder '%s'.",
                    safe_text(path)), class = "file")
    }
    con <- tryCatch(DBI::dbConnect(RSQLite::SQLite(), path),
                    error = function(e) {
                      abort(sprintf("`x`: cannot open the SQLite file '%s': %s",
                                    safe_text(path), conditionMessage(e)),
                            class = "file")
                    })
    h <- new_history(con, own = TRUE, path = normalizePath(path, mustWork = FALSE))
    # one writer at a time waits for the other instead of failing
    history_exec(h, "PRAGMA busy_timeout = 10000")
    history_exec(h, "PRAGMA foreign_keys = ON")
  } else if (requireNamespace("DBI", quietly = TRUE) && methods::is(x, "DBIConnection")) {
    if (!DBI::dbIsValid(x)) {
      abort("`x` is a DBI connection that is closed.")
    }
    h <- new_history(x, own = FALSE, path = NA_character_)
  } else {
    abort(sprintf("`x` must be a path to an SQLite file or a DBI connection, not %s.",
                  describe_type(x)))
  }
  tryCatch(history_migrate(h), error = function(e) {
    if (h$own) DBI::dbDisconnect(h$con)
    stop(e)
  })
  h
}

#' @rdname history_open
#' @export
history_close <- function(h) {
  check_history(h)
  if (h$own && DBI::dbIsValid(h$con)) DBI::dbDisconnect(h$con)
  invisible(h)
}

new_history <- function(con, own, path) {
  dialect <- if (inherits(con, "SQLiteConnection")) "sqlite" else
    if (inherits(con, c("PqConnection", "PostgreSQLConnection"))) "postgres" else "other"
  structure(list(con = con, own = own, path = path, dialect = dialect),
            class = "speedup_history")
}

check_history <- function(h, arg = "h", call = NULL) {
  if (!inherits(h, "speedup_history")) {
    abort(sprintf("`%s` must be a history from history_open(), not %s.", arg,
                  describe_type(h)), call = call)
  }
  if (!DBI::dbIsValid(h$con)) {
    abort(sprintf("`%s` is a history whose connection is closed.", arg), call = call)
  }
  invisible(h)
}

# ---- parameterised statements ---------------------------------------------

# The statement `sql`, written with `?` placeholders, in the dialect of the
# connection: PostgreSQL numbers them ($1, $2, ...).  The statements of the
# package hold no `?` other than placeholders.
history_sql <- function(h, sql) {
  if (h$dialect != "postgres" || !grepl("?", sql, fixed = TRUE)) return(sql)
  parts <- strsplit(paste0(sql, " "), "?", fixed = TRUE)[[1L]]
  k <- length(parts) - 1L
  out <- paste0(parts[-length(parts)], "$", seq_len(k), collapse = "")
  trimws(paste0(out, parts[length(parts)]), "right")
}

history_query <- function(h, sql, params = NULL) {
  sql <- history_sql(h, sql)
  if (is.null(params)) return(DBI::dbGetQuery(h$con, sql))
  DBI::dbGetQuery(h$con, sql, params = unname(params))
}

history_exec <- function(h, sql, params = NULL) {
  sql <- history_sql(h, sql)
  if (is.null(params)) return(DBI::dbExecute(h$con, sql))
  DBI::dbExecute(h$con, sql, params = unname(params))
}

# Rows appended to a table of the package, the columns in the table's
# order; the values go through the driver's binding, never into SQL.
history_append <- function(h, table, df) {
  if (!nrow(df)) return(invisible(0L))
  DBI::dbAppendTable(h$con, table, df)
}

# `f()` inside one transaction: everything or nothing.  On PostgreSQL the
# tables that hand out ids are locked for the transaction so that two
# writers cannot take the same ids.
history_transaction <- function(h, f) {
  DBI::dbWithTransaction(h$con, {
    if (h$dialect == "postgres") {
      history_exec(h, "LOCK TABLE commits, runs IN SHARE ROW EXCLUSIVE MODE")
    }
    f()
  })
}

# The next free id of a table's integer key (inside a transaction).
history_next_id <- function(h, table, key) {
  sql <- switch(table,
    machines = "SELECT MAX(machine_id) AS m FROM machines",
    commits = "SELECT MAX(commit_id) AS m FROM commits",
    benchmarks = "SELECT MAX(benchmark_id) AS m FROM benchmarks",
    runs = "SELECT MAX(run_id) AS m FROM runs",
    processes = "SELECT MAX(process_id) AS m FROM processes",
    changes = "SELECT MAX(change_id) AS m FROM changes",
    annotations = "SELECT MAX(annotation_id) AS m FROM annotations",
    confirmations = "SELECT MAX(confirmation_id) AS m FROM confirmations")
  m <- history_query(h, sql)$m
  if (!length(m) || is.na(m)) 1L else as.integer(m) + 1L
}

history_now <- function() format(Sys.time(), "%Y-%m-%dT%H:%M:%OS3Z", tz = "UTC")

# ---- print ------------------------------------------------------------------

#' @export
format.speedup_history <- function(x, ...) {
  where <- if (!is.na(x$path)) sprintf("SQLite file %s", safe_text(x$path)) else
    sprintf("%s connection", class(x$con)[1L])
  if (!DBI::dbIsValid(x$con)) return(c("<speedup_history> (closed)", where))
  n <- history_query(x, paste(
    "SELECT (SELECT COUNT(*) FROM machines) AS machines,",
    "(SELECT COUNT(*) FROM benchmarks) AS benchmarks,",
    "(SELECT COUNT(*) FROM commits) AS commits,",
    "(SELECT COUNT(DISTINCT branch) FROM commits) AS branches,",
    "(SELECT COUNT(*) FROM runs) AS runs,",
    "(SELECT COUNT(*) FROM processes) AS processes,",
    "(SELECT COUNT(*) FROM changes WHERE active = 1) AS changes"))
  n[] <- lapply(n, as.numeric)
  c(sprintf("<speedup_history> %s", where),
    sprintf("%s benchmark(s) on %s machine(s); %s commit(s) on %s branch(es)",
            n$benchmarks, n$machines, n$commits, n$branches),
    sprintf("%s run(s), %s process(es); %s change(s) reported",
            n$runs, n$processes, n$changes))
}

#' @export
print.speedup_history <- function(x, ...) {
  cat(format(x, ...), sep = "\n")
  invisible(x)
}
