# read_history(): the histories people already keep, as timings with a
# commit (and branch, machine, position, commit time) per run, ready for
# history_add().  Three sources: asv's results folder, an Otava (formerly
# Hunter) CSV, and a long CSV with a commit column.

#' Read a history of results kept by another tool
#'
#' Reads the results of many commits into run times with the columns
#' `commit`, `position`, and where the source has them `branch`, `machine`
#' and `commit_time`, ready for [history_add()] (which takes those columns
#' when its own arguments are `NULL`).
#'
#' * `"asv"`: an airspeed velocity results folder (`results/`, holding a
#'   folder per machine with its `machine.json` and one
#'   `<commit>-<environment>.json` per commit and environment, format
#'   version 2), or one machine's folder. Every benchmark of a file is one
#'   process: its raw samples when asv recorded them (`--record-samples`),
#'   else its result (the median). A parameterised benchmark is one
#'   benchmark per combination of parameters, named `name(p1, p2)` as asv
#'   names them. The machine is the `machine` of `machine.json` (followed
#'   by `/` and the environment when a machine has several). asv does not
#'   store the order of the commits: they are ordered by `order` (commit
#'   ids in first-parent order, e.g. from `git rev-list --first-parent
#'   --reverse HEAD`, matched by prefix) when given, else by their date.
#' * `"otava"`: an Otava (Hunter) CSV file: a `time` column, a `commit`
#'   column, an optional `branch` column and one column per metric (each a
#'   benchmark; `metrics` picks some). Every row is one process of its
#'   commit; the commits are ordered by time, per branch. The values are
#'   taken as costs (larger is slower): list throughput-like metrics in
#'   `higher_is_better` and their inverses are used.
#' * `"csv"`: a long CSV with the columns `benchmark`, `commit`, `time`
#'   (seconds) and optionally `process`, `run`, `round`, `branch`,
#'   `machine`, `position` and `commit_time`. Without `position`, the commits
#'   are in the order of their first row, per branch.
#'
#' `"auto"` reads a folder as asv, a CSV whose header has `benchmark` and
#' `time` columns as `"csv"`, and other CSVs as `"otava"`.
#'
#' @param path A folder (asv) or a CSV file.
#' @param format `"auto"`, `"asv"`, `"otava"` or `"csv"`.
#' @param order For asv: the commit ids in first-parent order.
#' @param metrics For Otava: the metric columns to read (default: every
#'   numeric column other than time, commit and branch).
#' @param higher_is_better For Otava: the metrics where larger is better.
#' @return Timings (class `speedup_timings`) with the columns above; the
#'   version of a run is its commit.
#' @seealso [history_add()]
#' @export
read_history <- function(path, format = c("auto", "asv", "otava", "csv"), order = NULL,
                         metrics = NULL, higher_is_better = character()) {
  path <- check_path(path, "path")
  format <- check_choice(format, c("auto", "asv", "otava", "csv"), "format")
  if (!file.exists(path)) {
    abort(sprintf("`path`: '%s' does not exist.", safe_text(path)), class = "file")
  }
  if (format == "auto") {
    format <- if (dir.exists(path)) "asv" else {
      head <- tolower(trimws(strsplit(readLines(path, n = 1L, warn = FALSE), ",")[[1L]]))
      head <- gsub('^"|"$', "", head)
      if (all(c("benchmark", "time") %in% head)) "csv" else "otava"
    }
  }
  if (!is.null(order)) order <- check_strings(order, "order")
  if (!is.null(metrics)) metrics <- check_strings(metrics, "metrics")
  higher_is_better <- check_strings(higher_is_better, "higher_is_better")
  switch(format,
    asv = read_history_asv(path, order),
    otava = read_history_otava(path, metrics, higher_is_better),
    csv = read_history_csv(path))
}

# ---- asv ---------------------------------------------------------------------

read_history_asv <- function(path, order) {
  if (!dir.exists(path)) {
    abort(sprintf("`path`: an asv results folder is a folder, not the file '%s'.",
                  safe_text(path)), class = "file")
  }
  dirs <- if (file.exists(file.path(path, "machine.json"))) path else {
    d <- list.dirs(path, recursive = FALSE)
    d[file.exists(file.path(d, "machine.json"))]
  }
  if (!length(dirs)) {
    abort(sprintf("`path`: '%s' holds no asv machine folder (a folder with machine.json).",
                  safe_text(path)), class = c("format", "file"))
  }
  # per machine folder, its machine and its result files, each as its
  # entries (the name and the values of a benchmark and parameter
  # combination), commit, environment and date
  parts <- list()
  slow <- FALSE
  for (dir in dirs) {
    mj <- timings_json(file.path(dir, "machine.json"))
    mname <- mj$machine
    if (!is.character(mname) || length(mname) != 1L || !nzchar(mname)) {
      mname <- basename(dir)
    }
    machine <- bytes_safe(mname)
    files <- setdiff(list.files(dir, pattern = "[.]json$", full.names = TRUE),
                     file.path(dir, c("machine.json", "benchmarks.json")))
    got <- lapply(files, function(f) {
      r <- read_asv_file(f)
      # a file whose commit, environment or date is not one value is read
      # as a data frame (built here, where its errors arise)
      if (!is.null(r) && !asv_regular(r)) {
        slow <<- TRUE
        r$frame <- asv_frame(r, machine)
      }
      r
    })
    got <- got[!vapply(got, is.null, TRUE)]
    if (length(got)) parts[[length(parts) + 1L]] <- list(machine = machine, files = got)
  }
  if (!length(parts)) {
    abort(sprintf("`path`: the asv folder '%s' holds no results.", safe_text(path)),
          class = c("format", "file"))
  }
  if (slow) return(read_history_asv_frames(path, order, parts))
  # the files of every folder, and the machine of each: the folder's, with
  # the environment when the folder has several
  files <- unlist(lapply(parts, `[[`, "files"), recursive = FALSE, use.names = FALSE)
  fmach <- unlist(lapply(parts, function(p) {
    env <- vapply(p$files, `[[`, "", "env")
    if (length(unique(env)) > 1L) paste0(p$machine, "/", env) else
      rep.int(p$machine, length(env))
  }), use.names = FALSE)
  fcommit <- vapply(files, `[[`, "", "commit")
  fdate <- vapply(files, `[[`, 0, "date")
  shas <- asv_positions(fcommit, fdate, order)
  fpos <- as.double(shas$position[match(fcommit, shas$commit)])
  # each distinct date formatted once
  dates <- unique(fdate)
  fstamp <- format(as.POSIXct(dates / 1000, origin = "1970-01-01", tz = "UTC"),
                   "%Y-%m-%dT%H:%M:%SZ", tz = "UTC")[match(fdate, dates)]
  # the entries of every file, in file order
  fe <- rep.int(seq_along(files), vapply(files, function(r) length(r$n), 1L))
  ename <- unlist(lapply(files, `[[`, "names"), use.names = FALSE)
  en <- unlist(lapply(files, `[[`, "n"), use.names = FALSE)
  # the rows' order, order(position, machine, benchmark, iteration), taken
  # on the entries: the texts as their ranks in the collation order()
  # compares them by (text that compares equal, equal rank), so the
  # entries' order is their rows' order when no two entries tie (else the
  # rows are ordered as data frames)
  ubench <- unique(ename)
  bcode <- match(ename, ubench)
  brank <- rank(ubench, ties.method = "min")[bcode]
  umach <- unique(fmach)
  mrank <- rank(umach, ties.method = "min")[match(fmach, umach)][fe]
  epos <- fpos[fe]
  o <- order(epos, mrank, brank, method = "radix")
  k <- length(o)
  if (k > 1L && any(epos[o][-1L] == epos[o][-k] & mrank[o][-1L] == mrank[o][-k] &
                    brank[o][-1L] == brank[o][-k])) {
    return(read_history_asv_frames(path, order, parts))
  }
  fe <- fe[o]
  n <- en[o]
  time <- unlist(unlist(lapply(files, `[[`, "vals"), recursive = FALSE,
                        use.names = FALSE)[o], use.names = FALSE)
  # factor(commit, levels = unique(commit)) of the rows, from the codes of
  # the entries' commits
  ecommit <- fcommit[fe]
  lev <- unique(ecommit)
  ccode <- match(ecommit, lev)
  # each row's run within its benchmark and commit is its iteration when
  # no benchmark has two entries of one commit (machines, environments);
  # else the constructor counts them
  run <- if (anyDuplicated(bcode[o] * (length(lev) + 1) + ccode)) NULL else sequence(n)
  new_speedup_timings(rep.int(ename[o], n),
                      structure(rep.int(ccode, n), levels = lev, class = "factor"),
                      time, run = run, process = rep.int(1L, length(time)),
                      commit = rep.int(ecommit, n), machine = rep.int(fmach[fe], n),
                      position = rep.int(fpos[fe], n), commit_time = rep.int(fstamp[fe], n),
                      source = "asv", attrs = list(files = path))
}

# TRUE when an asv result file's commit is one text, its environment one
# text or none and its date one number or none (their values then read
# without a warning or an error).
asv_regular <- function(r) {
  one <- function(x, test) test(x) && length(x) == 1L && is.null(attributes(x))
  one(r$j_commit, is.character) && !is.na(r$j_commit) &&
    (is.null(r$j_env) || one(r$j_env, is.character)) &&
    (is.null(r$j_date) || one(r$j_date, function(x) is.double(x) || is.integer(x)))
}

# The commits in the order of their first row (the files' commits and
# dates) and each one's position: by `order` (matched by prefix), else by
# date.
asv_positions <- function(commit, date, order) {
  shas <- unique(data.frame(commit = commit, date = date, stringsAsFactors = FALSE))
  if (!is.null(order)) {
    pos <- vapply(shas$commit, function(s) {
      k <- which(startsWith(order, s) | startsWith(s, order))
      if (length(k)) k[1L] else NA_integer_
    }, 1L)
    if (anyNA(pos)) {
      abort(sprintf("`order` does not hold the commit(s) %s of the asv results.",
                    quote_list(shas$commit[is.na(pos)])))
    }
  } else {
    pos <- rank(shas$date, ties.method = "first")
  }
  list(commit = shas$commit, position = pos)
}

# The rows of every file as data frames joined, for files whose commit,
# environment or date is not one value, or whose benchmarks tie in the
# order.
read_history_asv_frames <- function(path, order, parts) {
  pieces <- list()
  # each result file is one commit at one date: the pairs, one per file
  # read, in the order of the rows
  pair_commit <- character()
  pair_date <- double()
  for (p in parts) {
    rows <- lapply(p$files, function(r) r$frame %||% asv_frame(r, p$machine))
    pair_commit <- c(pair_commit, vapply(rows, function(r) r$commit[1L], ""))
    pair_date <- c(pair_date, vapply(rows, function(r) r$date[1L], 0))
    r <- join_columns(rows)
    envs <- unique(r$env)
    if (length(envs) > 1L) r$machine <- paste0(r$machine, "/", r$env)
    pieces[[length(pieces) + 1L]] <- r
  }
  d <- join_columns(pieces)
  shas <- asv_positions(pair_commit, pair_date, order)
  d$position <- as.double(shas$position[match(d$commit, shas$commit)])
  # each distinct date formatted once
  dates <- unique(d$date)
  d$commit_time <- format(as.POSIXct(dates / 1000, origin = "1970-01-01", tz = "UTC"),
                          "%Y-%m-%dT%H:%M:%SZ", tz = "UTC")[match(d$date, dates)]
  o <- order(d$position, d$machine, d$benchmark, d$iteration)
  d <- lapply(d, `[`, o)
  new_speedup_timings(d$benchmark, d$commit, d$time, run = NULL,
                      process = d$process, commit = d$commit, machine = d$machine,
                      position = d$position, commit_time = d$commit_time,
                      source = "asv", attrs = list(files = path))
}

# The rows of data frames (or lists of columns) with the same columns, one
# after the other, as a list of columns: what do.call(rbind, parts) holds
# (columns of one type across the parts), one unlist() per column.
join_columns <- function(parts) {
  cols <- names(parts[[1L]])
  out <- lapply(cols, function(nm) unlist(lapply(parts, `[[`, nm), use.names = FALSE))
  names(out) <- cols
  out
}

# One asv result file: the name and the values of each benchmark and
# parameter combination with a value, its commit, environment and date
# (NULL when it holds none).
read_asv_file <- function(file) {
  j <- timings_json(file)
  if (!is.list(j) || is.null(j$results) || is.null(j$commit_hash)) {
    warn(sprintf("'%s' skipped: not an asv result file (no commit_hash or results).",
                 safe_text(file)), class = "skipped")
    return(NULL)
  }
  if (!identical(as.integer(j$version %||% 2L), 2L)) {
    warn(sprintf("'%s' skipped: asv result format version %s, not 2.", safe_text(file),
                 format(j$version)), class = "skipped")
    return(NULL)
  }
  cols <- unlist(j$result_columns %||% list("result", "params", "version", "started_at",
                                            "duration", "stats_ci_99_a", "stats_ci_99_b",
                                            "stats_q_25", "stats_q_75", "stats_number",
                                            "stats_repeat", "samples", "profile"))
  names_out <- list()
  vals_out <- list()
  for (name in names(j$results)) {
    row <- j$results[[name]]
    get <- function(key) {
      k <- match(key, cols)
      if (is.na(k) || k > length(row)) NULL else row[[k]]
    }
    result <- get("result")
    if (is.null(result)) next
    params <- get("params")
    combos <- if (length(params)) {
      g <- expand.grid(lapply(rev(params), function(p) vapply(p, as.character, "")),
                       stringsAsFactors = FALSE)
      apply(g[, rev(seq_along(g)), drop = FALSE], 1L, paste, collapse = ", ")
    } else NULL
    samples <- get("samples")
    for (k in seq_along(result)) {
      v <- if (!is.null(samples) && length(samples) >= k && length(samples[[k]])) {
        unlist(samples[[k]])
      } else result[[k]]
      v <- suppressWarnings(as.double(unlist(v)))
      v <- v[!is.na(v)]
      if (!length(v)) next
      names_out[[length(names_out) + 1L]] <- if (is.null(combos)) name else
        sprintf("%s(%s)", name, combos[k])
      vals_out[[length(vals_out) + 1L]] <- v
    }
  }
  if (!length(vals_out)) return(NULL)
  r <- list(names = bytes_safe(unlist(names_out, use.names = FALSE)), vals = vals_out,
            n = lengths(vals_out), j_commit = j$commit_hash, j_env = j$env_name,
            j_date = j$date)
  if (asv_regular(r)) {
    r$commit <- bytes_safe(r$j_commit)
    r$env <- bytes_safe(as.character(r$j_env %||% ""))
    r$date <- as.double(r$j_date %||% NA)
  }
  r
}

# One asv result file's rows as a data frame: a row per sample (or per
# result) of each benchmark and parameter combination.
asv_frame <- function(r, machine) {
  n <- r$n
  total <- sum(n)
  data.frame(
    benchmark = rep.int(r$names, n), commit = rep.int(bytes_safe(r$j_commit), total),
    env = rep.int(bytes_safe(as.character(r$j_env %||% "")), total),
    machine = rep.int(machine, total), date = rep.int(as.double(r$j_date %||% NA), total),
    time = unlist(r$vals, use.names = FALSE),
    process = rep.int(1L, total), iteration = sequence(n), stringsAsFactors = FALSE)
}

# ---- Otava / Hunter --------------------------------------------------------------

read_history_otava <- function(path, metrics, higher_is_better) {
  d <- history_read_csv(path)
  low <- tolower(names(d))
  tcol <- names(d)[match("time", low)]
  ccol <- names(d)[match("commit", low)]
  bcol <- names(d)[match("branch", low)]
  if (is.na(ccol)) {
    abort(sprintf("'%s' needs a column \"commit\" for an Otava history; its columns are %s.",
                  safe_text(path), quote_list(names(d))), class = c("format", "file"))
  }
  other <- setdiff(names(d), c(tcol, ccol, bcol))
  if (is.null(metrics)) {
    metrics <- other[vapply(d[other], is.numeric, TRUE)]
  } else if (!all(metrics %in% other)) {
    abort(sprintf("`metrics`: '%s' has no column %s.", safe_text(path),
                  quote_list(setdiff(metrics, other))))
  }
  if (!length(metrics)) {
    abort(sprintf("'%s' has no numeric metric column.", safe_text(path)),
          class = c("format", "file"))
  }
  if (!all(higher_is_better %in% metrics)) {
    abort(sprintf("`higher_is_better` names %s, not metrics of '%s'.",
                  quote_list(setdiff(higher_is_better, metrics)), safe_text(path)))
  }
  branch <- if (is.na(bcol)) rep("main", nrow(d)) else as.character(d[[bcol]])
  when <- if (is.na(tcol)) rep(NA_real_, nrow(d)) else history_parse_time(d[[tcol]])
  commit <- as.character(d[[ccol]])
  # positions: by time (the row order where it cannot be read), per branch
  key <- ifelse(is.na(when), seq_len(nrow(d)), when)
  pos <- rep(NA_real_, nrow(d))
  for (b in unique(branch)) {
    i <- which(branch == b)
    cm <- commit[i][order(key[i], i)]
    cm <- unique(cm)
    pos[i] <- match(commit[i], cm)
  }
  # the long table built column by column: each metric's values after the
  # other's, the commits' columns repeated (one data frame per metric and
  # rbind() cost many times the values)
  stamp <- if (is.na(tcol)) NA_character_ else
    format(as.POSIXct(when, origin = "1970-01-01", tz = "UTC"), "%Y-%m-%dT%H:%M:%SZ",
           tz = "UTC")
  n <- nrow(d)
  k <- length(metrics)
  time <- unlist(lapply(metrics, function(m) {
    v <- suppressWarnings(as.double(d[[m]]))
    if (m %in% higher_is_better) 1 / v else v
  }), use.names = FALSE)
  rm(d)
  # each long column is made once: no logical vector the length of the
  # table and no subset when every value is kept
  every <- !anyNA(time)
  keep <- if (every) NULL else !is.na(time)
  pick <- function(v) {
    v <- rep.int(if (length(v) == n && is.null(attributes(v))) v else rep_len(v, n), k)
    if (every) v else v[keep]
  }
  ucommit <- unique(commit)
  ccode <- pick(match(commit, ucommit))
  # the run of each value among the values of its metric and commit,
  # counted on integer codes (what the constructor counts on the strings);
  # one row per commit: every value is the first of its metric and commit
  run <- if (!anyDuplicated(commit)) rep.int(1L, length(ccode)) else {
    metric <- rep(match(metrics, metrics) - 1L, each = n)
    if (!every) metric <- metric[keep]
    run_within(metric * (max(ccode) + 1L) + ccode)
  }
  benchmark <- rep(metrics, each = n)
  if (!every) {
    benchmark <- benchmark[keep]
    time <- time[keep]
  }
  commit <- pick(commit)
  # factor(commit, levels = unique(commit)) from the codes, when every
  # value is kept (all commits then appear) and no commit is NA
  version <- if (every && !anyNA(ucommit)) {
    attr(ccode, "levels") <- ucommit
    class(ccode) <- "factor"
    ccode
  } else commit
  rm(ccode)
  new_speedup_timings(benchmark, version, time, run, process = pick(seq_len(n)),
                      commit = commit, branch = pick(branch), position = pick(pos),
                      commit_time = pick(stamp), source = "otava",
                      attrs = list(files = path))
}

# Otava's times ("2024.01.01 3:00:00 +0100") and ISO 8601, as seconds since
# 1970 (NA where unreadable).
history_parse_time <- function(x) {
  x <- trimws(as.character(x))
  fmts <- c("%Y.%m.%d %H:%M:%S %z", "%Y-%m-%d %H:%M:%S %z", "%Y-%m-%dT%H:%M:%S%z",
            "%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d")
  out <- rep(NA_real_, length(x))
  miss <- rep(TRUE, length(x))
  for (f in fmts) {
    if (!any(miss)) break
    # what as.POSIXct(x, format = f, tz = "UTC") does, the conversion
    # skipped when the format reads none of the times
    lt <- strptime(if (all(miss)) x else x[miss], f, tz = "UTC")
    if (all(is.na(lt$year))) next
    attr(lt, "tzone") <- "UTC"
    out[miss] <- as.double(as.POSIXct(lt, tz = "UTC"))
    miss <- is.na(out)
  }
  out
}

# ---- long CSV ----------------------------------------------------------------

read_history_csv <- function(path) {
  d <- history_read_csv(path)
  low <- tolower(names(d))
  col <- function(nm) {
    k <- match(nm, low)
    if (is.na(k)) NULL else d[[k]]
  }
  need <- c("benchmark", "commit", "time")
  if (!all(need %in% low)) {
    abort(sprintf("'%s' needs the columns %s; its columns are %s.", safe_text(path),
                  quote_list(need), quote_list(names(d))), class = c("format", "file"))
  }
  time <- col("time")
  if (!is.numeric(time)) {
    abort(sprintf("'%s': the column \"time\" must hold numbers (seconds).", safe_text(path)),
          class = c("format", "file"))
  }
  commit <- as.character(col("commit"))
  branch <- if (is.null(col("branch"))) rep("main", nrow(d)) else as.character(col("branch"))
  pos <- col("position")
  # the commits coded once: the positions of a single branch, the runs and
  # the version factor come from these codes
  ucommit <- unique(commit)
  ccode <- match(commit, ucommit)
  if (is.null(pos) && length(branch) && !anyNA(branch) && all(branch == branch[1L])) {
    pos <- as.double(ccode)
  } else if (is.null(pos)) {
    pos <- rep(NA_real_, nrow(d))
    for (b in unique(branch)) {
      i <- which(branch == b)
      pos[i] <- match(commit[i], unique(commit[i]))
    }
  }
  extra <- list(commit = commit, branch = branch, position = as.double(pos))
  for (nm in c("process", "round", "machine", "commit_time")) {
    if (!is.null(col(nm))) extra[[nm]] <- col(nm)
  }
  bench <- as.character(col("benchmark"))
  run <- col("run")
  if (is.null(run)) {
    # the run of each row among the rows of its benchmark and commit,
    # counted on integer codes (what the constructor counts on the strings)
    run <- run_within(match(bench, unique(bench)) * (max(ccode) + 1) + ccode)
  }
  # factor(commit, levels = unique(commit)), from the codes (no NA among
  # the commits: factor() would leave NA out of the levels)
  version <- if (anyNA(commit)) commit else
    structure(ccode, levels = ucommit, class = "factor")
  do.call(new_speedup_timings, c(
    list(bench, version, time, run = run), extra,
    list(source = "csv", attrs = list(files = path))))
}

# A CSV read as text-safe data: bytes that are not UTF-8 written as <xx>.
history_read_csv <- function(path) {
  check_timings_file(path)
  d <- tryCatch(utils::read.csv(path, stringsAsFactors = FALSE, check.names = FALSE,
                                strip.white = TRUE, encoding = "UTF-8"),
                error = function(e) {
                  abort(sprintf("'%s' is not a readable CSV: %s", safe_text(path),
                                safe_text(conditionMessage(e))), class = c("format", "file"))
                })
  names(d)[1L] <- sub("^\xef\xbb\xbf", "", names(d)[1L], useBytes = TRUE)
  d[] <- lapply(d, bytes_safe)
  names(d) <- safe_text(names(d))
  if (!nrow(d)) {
    abort(sprintf("'%s' has a header but no rows.", safe_text(path)),
          class = c("format", "file"))
  }
  d
}
