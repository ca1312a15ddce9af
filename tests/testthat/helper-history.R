# Helpers of the history tests: a temporary SQLite history, simulated
# histories, a private PostgreSQL server, and a stand-in change detection
# with the interface of series_changes() for the tests that run before the
# package has its own.

skip_if_no_sqlite <- function() {
  testthat::skip_if_not_installed("DBI")
  testthat::skip_if_not_installed("RSQLite")
}

# A fresh SQLite history, closed when the calling test ends.
local_history <- function(env = parent.frame()) {
  skip_if_no_sqlite()
  path <- tempfile(fileext = ".sqlite")
  h <- speeduptest::history_open(path)
  withr::defer({
    speeduptest::history_close(h)
    unlink(path)
  }, envir = env)
  h
}

# Run times of `commits` commits of `benchmarks` benchmarks, `processes`
# processes of `iterations` iterations each; level 1 s times `step` from
# commit `step_at` on (of the benchmarks in `stepped`), log-normal spread
# `sd` between processes and `sd_within` within.
history_sim <- function(commits = 30, benchmarks = 2, processes = 3, iterations = 3,
                        step_at = NA, step = 1.1, stepped = 1, sd = 0.01,
                        sd_within = 0.002, seed = 1, prefix = "c", first = 1,
                        base = NULL) {
  set.seed(seed)
  out <- list()
  for (k in seq_len(commits)) {
    ci <- first + k - 1
    for (b in seq_len(benchmarks)) {
      lvl <- if (is.null(base)) 1 else base[b]
      if (!is.na(step_at) && ci >= step_at && b %in% stepped) lvl <- lvl * step
      for (p in seq_len(processes)) {
        pm <- lvl * exp(stats::rnorm(1, 0, sd))
        out[[length(out) + 1L]] <- data.frame(
          benchmark = sprintf("bench%d", b), commit = sprintf("%s%03d", prefix, ci),
          time = pm * exp(stats::rnorm(iterations, 0, sd_within)),
          process = p, stringsAsFactors = FALSE)
      }
    }
  }
  d <- do.call(rbind, out)
  d$version <- d$commit
  speeduptest::as_timings(d)
}

# A stand-in detection with the interface of series_changes() (test use
# only): binary segmentation by rank-sum tests of the log values either
# side of each commit boundary, Bonferroni over the boundaries of a
# segment and over the depth of the recursion.
toy_series_changes <- function(value, position, method = "scan", alpha = 0.05,
                               min_speedup = 1.01, ...) {
  o <- order(position)
  lv <- log(value[o])
  position <- position[o]
  pos <- unique(position)
  out <- list()
  split_at <- function(a, b, depth) {
    if (b - a < 1) return()
    ks <- a:(b - 1)
    p <- vapply(ks, function(k) {
      l <- lv[position >= pos[a] & position <= pos[k]]
      r <- lv[position > pos[k] & position <= pos[b]]
      if (length(l) < 2 || length(r) < 2) return(1)
      suppressWarnings(stats::wilcox.test(l, r, exact = FALSE)$p.value)
    }, 0)
    k <- ks[which.min(p)]
    padj <- min(1, min(p) * length(ks) * 2^depth)
    if (padj > alpha) return()
    l <- lv[position >= pos[a] & position <= pos[k]]
    r <- lv[position > pos[k] & position <= pos[b]]
    w <- suppressWarnings(stats::wilcox.test(r, l, conf.int = TRUE, exact = FALSE,
                                             conf.level = 1 - 2 * alpha))
    ratio <- exp(unname(w$estimate))
    lo <- exp(w$conf.int[1])
    hi <- exp(w$conf.int[2])
    decision <- if (lo > min_speedup) "regression beyond 1 %" else
      if (hi < 1 / min_speedup) "improvement beyond 1 %" else
        if (lo > 1 / min_speedup && hi < min_speedup) "negligible within 1 %" else "undecided"
    out[[length(out) + 1L]] <<- data.frame(
      last_good = pos[k], first_bad = pos[k + 1], range_from = pos[k], range_to = pos[k + 1],
      n_before = length(l), n_after = length(r), ratio = ratio, conf_low = lo,
      conf_high = hi, p_value = padj, decision = decision, method = "toy",
      stringsAsFactors = FALSE)
    split_at(a, k, depth + 1)
    split_at(k + 1, b, depth + 1)
  }
  split_at(1, length(pos), 0)
  if (!length(out)) {
    return(data.frame(last_good = numeric(), first_bad = numeric(), range_from = numeric(),
                      range_to = numeric(), n_before = integer(), n_after = integer(),
                      ratio = numeric(), conf_low = numeric(), conf_high = numeric(),
                      p_value = numeric(), decision = character(), method = character()))
  }
  r <- do.call(rbind, out)
  r[order(r$first_bad), , drop = FALSE]
}

# ---- a private PostgreSQL server ----------------------------------------------

pg_bindir <- function() {
  d <- sort(Sys.glob("/usr/lib/postgresql/*/bin"))
  if (length(d)) return(d[length(d)])
  w <- Sys.which("initdb")
  if (nzchar(w)) dirname(w) else NA_character_
}

# Starts a PostgreSQL cluster of its own under a temporary folder (as the
# user postgres when the tests run as root), listening on a Unix socket in
# that folder only, on a free port number; stopped and removed when `env`
# ends.  Skips when PostgreSQL or RPostgres is not installed.  Returns a
# function that connects to a fresh database of the cluster.
local_postgres <- function(env = parent.frame()) {
  testthat::skip_if_not_installed("DBI")
  if (!requireNamespace("RPostgres", quietly = TRUE)) {
    testthat::skip("RPostgres is not installed: the PostgreSQL store is not tested")
  }
  bin <- pg_bindir()
  if (is.na(bin) || !file.exists(file.path(bin, "initdb"))) {
    testthat::skip("PostgreSQL is not installed (no initdb): the PostgreSQL store is not tested")
  }
  root <- identical(Sys.info()[["effective_user"]], "root")
  # a folder the server's user can enter (R's own temporary folder is
  # private to root)
  dir <- file.path("/tmp", basename(tempfile("speeduptest-pg-")))
  dir.create(dir, mode = "0755")
  run <- function(prog, args) {
    cmd <- file.path(bin, prog)
    out <- if (root) {
      suppressWarnings(system2("runuser", c("-u", "postgres", "--", cmd, args),
                               stdout = TRUE, stderr = TRUE))
    } else {
      suppressWarnings(system2(cmd, args, stdout = TRUE, stderr = TRUE))
    }
    status <- attr(out, "status") %||% 0L
    list(status = status, out = out)
  }
  if (root) system2("chown", c("postgres", shQuote(dir)))
  data <- file.path(dir, "data")
  r <- run("initdb", c("-D", shQuote(data), "-A", "trust", "-U", "postgres", "--no-sync",
                       "-E", "UTF8", "--locale=C"))
  if (r$status != 0) {
    unlink(dir, recursive = TRUE)
    testthat::skip(paste("initdb failed:", paste(utils::tail(r$out, 3), collapse = " ")))
  }
  port <- pg_free_port()
  opts <- sprintf("-c listen_addresses='' -k %s -p %d -c fsync=off", dir, port)
  r <- run("pg_ctl", c("-D", shQuote(data), "-o", shQuote(opts), "-l",
                       shQuote(file.path(dir, "log")), "-w", "start"))
  if (r$status != 0) {
    unlink(dir, recursive = TRUE)
    testthat::skip(paste("the PostgreSQL server did not start:",
                         paste(utils::tail(r$out, 3), collapse = " ")))
  }
  withr::defer({
    run("pg_ctl", c("-D", shQuote(data), "-m", "immediate", "-w", "stop"))
    unlink(dir, recursive = TRUE)
  }, envir = env)
  n <- 0L
  function() {
    admin <- DBI::dbConnect(RPostgres::Postgres(), host = dir, port = port,
                            user = "postgres", dbname = "postgres")
    on.exit(DBI::dbDisconnect(admin))
    n <<- n + 1L
    db <- sprintf("speeduptest_%d", n)
    DBI::dbExecute(admin, sprintf("CREATE DATABASE %s", db))
    DBI::dbConnect(RPostgres::Postgres(), host = dir, port = port, user = "postgres",
                   dbname = db)
  }
}

# A TCP port no one listens on (the server listens on a Unix socket named
# after it; the number keeps it apart from any other server's).
pg_free_port <- function() {
  for (i in 1:50) {
    p <- sample(20000:60000, 1)
    ok <- tryCatch({
      s <- serverSocket(p)
      close(s)
      TRUE
    }, error = function(e) FALSE)
    if (ok) return(p)
  }
  sample(20000:60000, 1)
}

`%||%` <- function(a, b) if (is.null(a)) b else a
