# The tables of a history and their migrations.  The schema has a version:
# history_migrations holds one row per migration applied.  A migration is
# a list of statements run in one transaction with the row that records
# it, so a store is always at one version.  A new version of the schema is a
# new element appended to history_migrations_list (never an edit of an
# earlier one).  The types are those SQLite and PostgreSQL share: INTEGER,
# DOUBLE PRECISION, TEXT; ids are handed out by the package (max + 1, inside
# the insert's transaction), so no dialect's auto-increment is needed.
# Times are ISO 8601 text in UTC.

history_migrations_list <- list(
  list(
    description = "runs: machines, commits, benchmarks, runs, processes, iterations, per-process summaries",
    sql = c(
      "CREATE TABLE machines (
         machine_id INTEGER PRIMARY KEY,
         name TEXT NOT NULL UNIQUE,
         fingerprint TEXT,
         info TEXT)",
      "CREATE TABLE commits (
         commit_id INTEGER PRIMARY KEY,
         sha TEXT NOT NULL,
         branch TEXT NOT NULL,
         position INTEGER NOT NULL,
         time TEXT,
         UNIQUE (branch, sha),
         UNIQUE (branch, position))",
      "CREATE TABLE benchmarks (
         benchmark_id INTEGER PRIMARY KEY,
         name TEXT NOT NULL UNIQUE)",
      "CREATE TABLE runs (
         run_id INTEGER PRIMARY KEY,
         commit_id INTEGER NOT NULL REFERENCES commits (commit_id),
         machine_id INTEGER NOT NULL REFERENCES machines (machine_id),
         source TEXT,
         added_at TEXT NOT NULL)",
      "CREATE TABLE processes (
         process_id INTEGER PRIMARY KEY,
         run_id INTEGER NOT NULL REFERENCES runs (run_id),
         benchmark_id INTEGER NOT NULL REFERENCES benchmarks (benchmark_id),
         label TEXT)",
      "CREATE TABLE iterations (
         process_id INTEGER NOT NULL REFERENCES processes (process_id),
         iteration INTEGER NOT NULL,
         round INTEGER,
         time DOUBLE PRECISION NOT NULL)",
      "CREATE INDEX iterations_process ON iterations (process_id)",
      # the per-process summary kept at insert: the unit along a series
      "CREATE TABLE summaries (
         process_id INTEGER PRIMARY KEY REFERENCES processes (process_id),
         run_id INTEGER NOT NULL,
         benchmark_id INTEGER NOT NULL,
         machine_id INTEGER NOT NULL,
         commit_id INTEGER NOT NULL,
         iterations INTEGER NOT NULL,
         value DOUBLE PRECISION NOT NULL)",
      "CREATE INDEX summaries_series ON summaries (benchmark_id, machine_id, commit_id)"
    )
  ),
  list(
    description = "analysis: series state, changes with triage, confirmations, annotations",
    sql = c(
      "CREATE TABLE series (
         benchmark_id INTEGER NOT NULL,
         machine_id INTEGER NOT NULL,
         branch TEXT NOT NULL,
         dirty INTEGER NOT NULL,
         segments INTEGER,
         analysed_at TEXT,
         PRIMARY KEY (benchmark_id, machine_id, branch))",
      "CREATE TABLE changes (
         change_id INTEGER PRIMARY KEY,
         benchmark_id INTEGER NOT NULL,
         machine_id INTEGER NOT NULL,
         branch TEXT NOT NULL,
         segment INTEGER NOT NULL,
         last_good INTEGER NOT NULL,
         first_bad INTEGER NOT NULL,
         range_from INTEGER NOT NULL,
         range_to INTEGER NOT NULL,
         n_before INTEGER,
         n_after INTEGER,
         ratio DOUBLE PRECISION,
         conf_low DOUBLE PRECISION,
         conf_high DOUBLE PRECISION,
         p_value DOUBLE PRECISION,
         p_adjusted DOUBLE PRECISION,
         decision TEXT,
         method TEXT,
         state TEXT NOT NULL,
         active INTEGER NOT NULL,
         first_seen TEXT NOT NULL,
         last_seen TEXT NOT NULL,
         note TEXT)",
      "CREATE INDEX changes_series ON changes (benchmark_id, machine_id, branch)",
      "CREATE TABLE confirmations (
         confirmation_id INTEGER PRIMARY KEY,
         change_id INTEGER NOT NULL REFERENCES changes (change_id),
         kind TEXT NOT NULL,
         outcome TEXT NOT NULL,
         ratio DOUBLE PRECISION,
         conf_low DOUBLE PRECISION,
         conf_high DOUBLE PRECISION,
         runs INTEGER,
         detail TEXT,
         at TEXT NOT NULL)",
      "CREATE TABLE annotations (
         annotation_id INTEGER PRIMARY KEY,
         machine_id INTEGER NOT NULL REFERENCES machines (machine_id),
         branch TEXT,
         position INTEGER NOT NULL,
         note TEXT,
         at TEXT NOT NULL)",
      "CREATE TABLE settings (
         key TEXT PRIMARY KEY,
         value TEXT)"
    )
  )
)

# The version of the schema this package writes.
history_schema_version <- function() length(history_migrations_list)

# The version of the schema of the store (0 when it is empty).
history_version <- function(h) {
  if (!DBI::dbExistsTable(h$con, "history_migrations")) return(0L)
  v <- history_query(h, "SELECT MAX(version) AS v FROM history_migrations")$v
  if (!length(v) || is.na(v)) 0L else as.integer(v)
}

# Creates the schema of an empty store, applies the migrations a store
# lacks (each in its own transaction), up to version `to`.  A store written
# by a newer package is refused: this one would not know its tables.
history_migrate <- function(h, to = history_schema_version()) {
  have <- history_version(h)
  if (have > history_schema_version()) {
    abort(sprintf(paste0("The history's schema is version %d, newer than the version %d ",
                         "this speeduptest knows: update the package."),
                  have, history_schema_version()), class = "data")
  }
  if (have == 0L && !DBI::dbExistsTable(h$con, "history_migrations")) {
    others <- intersect(DBI::dbListTables(h$con),
                        c("machines", "commits", "benchmarks", "runs", "changes"))
    if (length(others)) {
      abort(sprintf(paste0("`x`: the database has tables named like a history's (%s) ",
                           "but no history_migrations table: it is not a history."),
                    paste(others, collapse = ", ")), class = "data")
    }
    history_exec(h, paste(
      "CREATE TABLE history_migrations (version INTEGER PRIMARY KEY,",
      "description TEXT NOT NULL, applied_at TEXT NOT NULL)"))
  }
  for (v in seq_len(to)[seq_len(to) > have]) {
    m <- history_migrations_list[[v]]
    DBI::dbWithTransaction(h$con, {
      for (s in m$sql) history_exec(h, s)
      history_exec(h, "INSERT INTO history_migrations (version, description, applied_at) VALUES (?, ?, ?)",
                   list(v, m$description, history_now()))
    })
  }
  invisible(h)
}
