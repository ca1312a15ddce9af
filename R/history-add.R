# history_add(): runs into a history, in one transaction, with the
# per-process summary (the unit along a series, SPEC section 12) computed
# at insert.

#' Add run times to a history
#'
#' Adds the runs of one or more commits, on one machine and one branch, to a
#' history, in one transaction: if anything fails (or the process is killed)
#' the history is left as it was. The per-process summaries (the median run
#' time over the process's steady iterations, the unit along a series) are
#' computed and stored at insert.
#'
#' `timings` are run times as the package reads them ([read_timings()],
#' [as_timings()], [measure()], [read_history()]), a path read with
#' [read_timings()], or a long data frame. The commit, branch, machine,
#' position and commit time come from the arguments or, when an argument is
#' `NULL`, from the columns `commit`, `branch`, `machine`, `position` and
#' `commit_time` of `timings` (as [read_history()] returns them). With one
#' string `commit`, the timings must hold one version; with one commit per
#' version, the versions are the commits in order.
#'
#' Runs that share a `process` label within a benchmark are the iterations
#' of that process; a run without a label (`NA`, or no `process` column) is
#' a process of its own. The `warmup` first iterations of each process that
#' has more are left out of its summary (they are kept in the store).
#'
#' A commit keeps its position in first-parent order on its branch: a new
#' commit without `position` is placed after the last one of the branch; a
#' commit already in the history keeps its position (a different one is an
#' error). A machine is known by its name; when measure() recorded the
#' machine and its fingerprint (CPU model, cores, kernel) differs from the
#' one stored under that name, an annotation splits the machine's series at
#' this commit (see [history_annotate()]).
#'
#' A benchmark whose times are not all positive and finite is skipped, with
#' a warning of class `speeduptest_warning_skipped` that gives the reason;
#' the others are added.
#'
#' @param h A history, from [history_open()].
#' @param timings Run times (see Details).
#' @param commit The commit id(s) (e.g. the git hash), or `NULL` for the
#'   `commit` column.
#' @param branch The branch (default: the `branch` column, else `"main"`).
#' @param machine The machine's name (default: the `machine` column, else
#'   the host name).
#' @param position The commit's position in first-parent order on the
#'   branch (whole numbers, one per commit), or `NULL` (see Details).
#' @param time The commit's date-time (`POSIXct` or ISO 8601 text), or
#'   `NULL` for the `commit_time` column.
#' @param warmup The iterations left out at the start of each process.
#' @return A data frame, invisibly: one row per commit added, with its
#'   `commit`, `branch`, `position`, `machine` and the numbers of
#'   `benchmarks` and `processes`.
#' @seealso [history_open()], [read_history()], [history_changes()]
#' @export
history_add <- function(h, timings, commit = NULL, branch = NULL, machine = NULL,
                        position = NULL, time = NULL, warmup = 0L) {
  check_history(h)
  warmup <- as.integer(check_whole(warmup, "warmup", min = 0, max = 1e9))
  t <- history_input(timings)
  rows <- history_rows(t, commit, branch, machine, position, time)
  d <- history_summarise(rows, warmup)
  if (!nrow(d$processes)) {
    abort("`timings` hold no benchmark with positive, finite times to add.",
          class = "data")
  }
  out <- history_transaction(h, function() history_insert(h, d, t))
  invisible(out)
}

# The timings of history_add(): a speedup_timings, a path, or a long data
# frame (whose commit column may stand for the version).
history_input <- function(x) {
  if (is_speedup_timings(x)) return(x)
  if (is.character(x)) return(read_timings(x))
  if (is.data.frame(x)) {
    if (is.null(x[["version"]]) && !is.null(x[["commit"]])) x$version <- x$commit
    if (is.null(x[["benchmark"]])) {
      abort("`timings`: a data frame needs a column \"benchmark\".")
    }
    return(as_timings(x))
  }
  as_timings(x)
}

# One string, or NULL.
history_one <- function(x, arg) {
  if (is.null(x)) return(NULL)
  check_string(x, arg, empty_ok = FALSE)
}

# The commit, branch, machine, position and commit time of every row.
history_rows <- function(t, commit, branch, machine, position, time) {
  n <- nrow(t)
  col <- function(nm) {
    v <- t[[nm]]
    if (is.null(v)) NULL else v
  }
  versions <- levels(t$version)
  if (!is.null(commit)) {
    commit <- check_strings(as.character(commit), "commit")
    if (any(!nzchar(commit))) abort("`commit` must not hold empty strings.")
    if (length(commit) == 1L) {
      if (length(versions) > 1L) {
        abort(sprintf(paste0("`commit` is one commit but `timings` hold %d versions (%s): ",
                             "give one commit per version."),
                      length(versions), quote_list(versions)))
      }
      sha <- rep(commit, n)
    } else if (length(commit) == length(versions)) {
      sha <- commit[as.integer(t$version)]
    } else {
      abort(sprintf("`commit` must be one commit, or one per version (%d), not %d.",
                    length(versions), length(commit)))
    }
  } else if (!is.null(col("commit"))) {
    sha <- as.character(col("commit"))
  } else {
    abort("`commit`: give the commit of the runs (or a `commit` column in `timings`).")
  }
  if (anyNA(sha) || any(!nzchar(sha))) abort("`commit`: some runs have no commit.")
  branch <- history_one(branch, "branch") %||%
    (if (!is.null(col("branch"))) as.character(col("branch")) else "main")
  machine_info <- NULL
  if (is.null(machine) && is.null(col("machine"))) {
    machine_info <- attr(t, "machine")
    machine <- Sys.info()[["nodename"]]
  }
  machine <- history_one(machine, "machine") %||% as.character(col("machine"))
  branch <- rep_len(branch, n)
  machine <- rep_len(machine, n)
  if (anyNA(branch) || any(!nzchar(branch))) abort("`branch`: some runs have no branch.")
  if (anyNA(machine) || any(!nzchar(machine))) abort("`machine`: some runs have no machine.")
  key <- paste(branch, sha, sep = "\r")
  ukey <- unique(key)
  if (!is.null(position)) {
    position <- check_wholes(position, "position", min = -1e15, max = 1e15)
    if (length(position) == 1L && length(ukey) == 1L) {
      pos <- rep(position, n)
    } else if (length(position) == length(ukey)) {
      pos <- position[match(key, ukey)]
    } else {
      abort(sprintf("`position` must give one position per commit (%d), not %d.",
                    length(ukey), length(position)))
    }
  } else if (!is.null(col("position"))) {
    pos <- col("position")
    if (!is.numeric(pos) || any(!is.na(pos) & pos != round(pos))) {
      abort("The `position` column must hold whole numbers.")
    }
  } else {
    pos <- rep(NA_real_, n)
  }
  ctime <- time %||% col("commit_time")
  ctime <- if (is.null(ctime)) rep(NA_character_, n) else history_time_text(ctime, n)
  list(t = t, sha = sha, branch = branch, machine = machine,
       machine_info = machine_info, position = as.double(pos), commit_time = ctime)
}

# Date-times as ISO 8601 text in UTC.
history_time_text <- function(x, n) {
  if (inherits(x, "POSIXt")) {
    out <- format(as.POSIXct(x), "%Y-%m-%dT%H:%M:%SZ", tz = "UTC")
  } else if (is.character(x) || is.factor(x)) {
    out <- as.character(x)
  } else {
    abort(sprintf("`time` must be date-times (POSIXct) or text, not %s.", describe_type(x)))
  }
  rep_len(out, n)
}

# The processes of the rows and their summaries: one process per (commit,
# branch, machine, benchmark, process label), a run without a label its own
# process; the iterations in run order; the summary the median of the
# iterations after the warm-up (the exp of the median log time, so that an
# even count takes the geometric mean of the two middle times).
history_summarise <- function(r, warmup) {
  t <- r$t
  n <- nrow(t)
  lab <- t[["process"]]
  lab <- if (is.null(lab)) rep(NA_character_, n) else as.character(lab)
  alone <- is.na(lab)
  lab[alone] <- paste0("run ", t$run[alone])
  bench <- t$benchmark
  time <- t$time
  # a benchmark (of a commit and machine) with a bad time is skipped
  series_key <- paste(r$sha, r$branch, r$machine, bench, sep = "\r")
  bad <- !is.finite(time) | time <= 0
  if (any(bad)) {
    drop <- unique(series_key[bad])
    for (k in drop) {
      i <- which(series_key == k & bad)[1L]
      warn(sprintf("benchmark \"%s\" of commit %s skipped: a time is %s, not a positive number of seconds.",
                   safe_text(bench[i]), safe_text(r$sha[i]), format(time[i])),
           class = "skipped")
    }
  }
  keep <- !(series_key %in% series_key[bad])
  # the process of each run as an integer code; the runs sorted by process
  # (in order of first appearance) and run
  pkey <- paste(series_key, lab, sep = "\r")
  pcode <- match(pkey, unique(pkey))
  o <- order(pcode, t$run, method = "radix")
  o <- o[keep[o]]
  pk <- pcode[o]
  g <- cumsum(c(TRUE, pk[-1L] != pk[-length(pk)]))
  if (!length(o)) g <- integer()
  ng <- if (length(g)) max(g) else 0L
  first <- match(seq_len(ng), g)
  iteration <- seq_along(g) - first[g] + 1L
  size <- tabulate(g, ng)
  # steady iterations: after the warm-up, when a process has more
  skip <- ifelse(size > warmup, warmup, 0L)
  steady <- iteration > skip[g]
  lt <- log(time[o])
  gs <- g[steady]
  ls <- lt[steady]
  so <- order(gs, ls, method = "radix")
  gs <- gs[so]
  ls <- ls[so]
  m <- tabulate(gs, ng)
  start <- c(0L, cumsum(m)[-ng])
  lo <- ls[start + (m + 1L) %/% 2L]
  hi <- ls[start + m %/% 2L + 1L]
  value <- exp((lo + hi) / 2)
  i1 <- o[first]
  processes <- data.frame(
    group = seq_len(ng), sha = r$sha[i1], branch = r$branch[i1], machine = r$machine[i1],
    benchmark = bench[i1], label = lab[i1], position = r$position[i1],
    commit_time = r$commit_time[i1], iterations = m, value = value,
    stringsAsFactors = FALSE)
  rnd <- t[["round"]]
  iterations <- data.frame(
    group = g, iteration = as.integer(iteration),
    round = if (is.null(rnd)) NA_integer_ else as.integer(rnd[o]),
    time = time[o])
  list(processes = processes, iterations = iterations, machine_info = r$machine_info)
}

# A fingerprint of a machine measure() described: what makes its times
# comparable (CPU model, cores, kernel), hashed.
history_fingerprint <- function(info) {
  if (is.null(info)) return(NA_character_)
  txt <- paste(info$cpu_model %||% NA, info$cores %||% NA, info$kernel %||% NA, sep = "|")
  f <- tempfile()
  on.exit(unlink(f))
  writeLines(txt, f, useBytes = TRUE)
  unname(tools::md5sum(f))
}

# The inserts of history_add(), inside its transaction.
history_insert <- function(h, d, t) {
  p <- d$processes
  now <- history_now()
  # machines
  known <- history_query(h, "SELECT machine_id, name, fingerprint FROM machines")
  fp <- history_fingerprint(d$machine_info)
  mnames <- unique(p$machine)
  new <- setdiff(mnames, known$name)
  if (length(new)) {
    id0 <- history_next_id(h, "machines", "machine_id")
    info <- if (is.null(d$machine_info)) NA_character_ else
      as.character(jsonlite::toJSON(d$machine_info[c("cpu_model", "cores", "kernel")],
                                    auto_unbox = TRUE))
    history_append(h, "machines", data.frame(
      machine_id = id0 + seq_along(new) - 1L, name = new, fingerprint = fp, info = info,
      stringsAsFactors = FALSE))
    known <- history_query(h, "SELECT machine_id, name, fingerprint FROM machines")
  }
  p$machine_id <- known$machine_id[match(p$machine, known$name)]
  # commits: a known commit keeps its position; a new one goes where it is
  # told or after the branch's last
  pc <- paste(p$branch, p$sha, sep = "\r")
  first_of <- !duplicated(pc)
  ck <- data.frame(branch = p$branch[first_of], sha = p$sha[first_of],
                   position = p$position[first_of], time = p$commit_time[first_of],
                   stringsAsFactors = FALSE)
  ck$commit_id <- NA_integer_
  fresh <- rep(FALSE, nrow(ck))
  next_id <- history_next_id(h, "commits", "commit_id")
  for (b in unique(ck$branch)) {
    have <- history_query(h, "SELECT commit_id, sha, position FROM commits WHERE branch = ?",
                          list(b))
    rows <- which(ck$branch == b)
    last <- if (nrow(have)) max(have$position) else 0
    for (i in rows) {
      j <- match(ck$sha[i], have$sha)
      if (!is.na(j)) {
        if (!is.na(ck$position[i]) && ck$position[i] != have$position[j]) {
          abort(sprintf("`position`: commit %s is at position %s on branch \"%s\", not %s.",
                        safe_text(ck$sha[i]), format(have$position[j]), safe_text(b),
                        format(ck$position[i])), class = "data")
        }
        ck$commit_id[i] <- have$commit_id[j]
        ck$position[i] <- have$position[j]
        next
      }
      if (is.na(ck$position[i])) {
        last <- last + 1
        ck$position[i] <- last
      } else {
        taken <- match(ck$position[i], have$position)
        if (!is.na(taken)) {
          abort(sprintf("`position`: position %s on branch \"%s\" already holds commit %s, not %s.",
                        format(ck$position[i]), safe_text(b), safe_text(have$sha[taken]),
                        safe_text(ck$sha[i])), class = "data")
        }
        last <- max(last, ck$position[i])
      }
      ck$commit_id[i] <- next_id
      have <- rbind(have, data.frame(commit_id = next_id, sha = ck$sha[i],
                                     position = ck$position[i]))
      next_id <- next_id + 1L
      fresh[i] <- TRUE
    }
  }
  history_append(h, "commits", data.frame(
    commit_id = ck$commit_id[fresh], sha = ck$sha[fresh], branch = ck$branch[fresh],
    position = ck$position[fresh], time = ck$time[fresh], stringsAsFactors = FALSE))
  p$commit_id <- ck$commit_id[match(paste(p$branch, p$sha), paste(ck$branch, ck$sha))]
  p$position <- ck$position[match(paste(p$branch, p$sha), paste(ck$branch, ck$sha))]
  # a machine whose fingerprint changed: its series split at this commit
  if (!is.na(fp)) {
    for (m in intersect(mnames, known$name)) {
      old <- known$fingerprint[known$name == m]
      if (!is.na(old) && old != fp) {
        mid <- known$machine_id[known$name == m]
        at <- p[p$machine == m, c("branch", "position")]
        at <- at[!duplicated(at$branch), , drop = FALSE]
        for (k in seq_len(nrow(at))) {
          history_annotation_insert(h, mid, at$branch[k], min(p$position[p$machine == m &
                                      p$branch == at$branch[k]]), "the machine's fingerprint changed")
        }
        history_exec(h, "UPDATE machines SET fingerprint = ? WHERE machine_id = ?", list(fp, mid))
      }
    }
  }
  # benchmarks
  bk <- history_query(h, "SELECT benchmark_id, name FROM benchmarks")
  newb <- setdiff(unique(p$benchmark), bk$name)
  if (length(newb)) {
    id0 <- history_next_id(h, "benchmarks", "benchmark_id")
    nb <- data.frame(benchmark_id = id0 + seq_along(newb) - 1L, name = newb,
                     stringsAsFactors = FALSE)
    history_append(h, "benchmarks", nb)
    bk <- rbind(bk, nb)
  }
  p$benchmark_id <- bk$benchmark_id[match(p$benchmark, bk$name)]
  # one run per commit and machine
  rkey <- paste(p$commit_id, p$machine_id)
  rfirst <- !duplicated(rkey)
  rk <- data.frame(commit_id = p$commit_id[rfirst], machine_id = p$machine_id[rfirst])
  rk$run_id <- history_next_id(h, "runs", "run_id") + seq_len(nrow(rk)) - 1L
  history_append(h, "runs", data.frame(
    run_id = rk$run_id, commit_id = rk$commit_id, machine_id = rk$machine_id,
    source = as.character(attr(t, "source") %||% NA_character_), added_at = now,
    stringsAsFactors = FALSE))
  p$run_id <- rk$run_id[match(rkey, rkey[rfirst])]
  p$process_id <- history_next_id(h, "processes", "process_id") + p$group - 1L
  history_append(h, "processes", data.frame(
    process_id = p$process_id, run_id = p$run_id, benchmark_id = p$benchmark_id,
    label = p$label, stringsAsFactors = FALSE))
  it <- d$iterations
  history_append(h, "iterations", data.frame(
    process_id = p$process_id[it$group], iteration = it$iteration, round = it$round,
    time = it$time))
  history_insert_summaries(h, p)
  # the series these runs touch are analysed again by history_changes()
  skey <- paste(p$benchmark_id, p$machine_id, p$branch)
  s <- p[!duplicated(skey), c("benchmark_id", "machine_id", "branch")]
  history_mark_dirty(h, s)
  # per commit and machine: the benchmarks and processes added
  n_proc <- tabulate(match(rkey, rkey[rfirst]), nrow(rk))
  bkey <- paste(rkey, p$benchmark_id)
  n_bench <- tabulate(match(rkey[!duplicated(bkey)], rkey[rfirst]), nrow(rk))
  out <- data.frame(commit = p$sha[rfirst], branch = p$branch[rfirst],
                    position = p$position[rfirst], machine = p$machine[rfirst],
                    benchmarks = n_bench, processes = n_proc, stringsAsFactors = FALSE)
  out <- out[order(out$branch, out$position, out$machine), , drop = FALSE]
  rownames(out) <- NULL
  out
}

history_insert_summaries <- function(h, p) {
  history_append(h, "summaries", data.frame(
    process_id = p$process_id, run_id = p$run_id, benchmark_id = p$benchmark_id,
    machine_id = p$machine_id, commit_id = p$commit_id,
    iterations = as.integer(p$iterations), value = p$value))
}

# Series to analyse again: inserted, or their flag set.
history_mark_dirty <- function(h, s) {
  if (!nrow(s)) return(invisible())
  have <- history_query(h, "SELECT benchmark_id, machine_id, branch FROM series")
  k <- paste(s$benchmark_id, s$machine_id, s$branch)
  old <- k %in% paste(have$benchmark_id, have$machine_id, have$branch)
  if (any(old)) {
    history_exec(h, "UPDATE series SET dirty = 1 WHERE benchmark_id = ? AND machine_id = ? AND branch = ?",
                 list(s$benchmark_id[old], s$machine_id[old], s$branch[old]))
  }
  if (any(!old)) {
    history_append(h, "series", data.frame(
      benchmark_id = s$benchmark_id[!old], machine_id = s$machine_id[!old],
      branch = s$branch[!old], dirty = 1L, segments = NA_integer_, analysed_at = NA_character_,
      stringsAsFactors = FALSE))
  }
  invisible()
}
