# history_merge(): the runs of other histories (one per machine, say, each
# kept by its own CI job) copied into one, in one transaction.

#' Merge histories
#'
#' Copies the runs (with their processes, iterations and per-process
#' summaries), machines, commits, benchmarks and annotations of other
#' histories into `h`, in one transaction. Machines, commits and benchmarks
#' are matched by name (a commit by its branch and id); a commit new to `h`
#' keeps its position, and a position that `h` gives to another commit of
#' the branch is an error (nothing is copied). A run already in `h` (same
#' machine, commit and time of insertion) is not copied twice. The series
#' that receive runs are analysed again by the next [history_changes()];
#' changes and their triage are not copied.
#'
#' @param h The history to merge into, from [history_open()].
#' @param ... Histories (from [history_open()]) or paths to SQLite
#'   histories to copy from.
#' @return A data frame, invisibly: per source, the runs and processes
#'   copied.
#' @export
history_merge <- function(h, ...) {
  check_history(h)
  from <- list(...)
  if (!length(from)) abort("`...`: give the histories to merge into `h`.")
  out <- vector("list", length(from))
  for (i in seq_along(from)) {
    src <- from[[i]]
    opened <- FALSE
    if (is.character(src)) {
      if (!file.exists(src)) {
        abort(sprintf("`...`: the history '%s' does not exist.", safe_text(src)),
              class = "file")
      }
      src <- history_open(src)
      opened <- TRUE
    }
    check_history(src, arg = sprintf("..%d", i))
    res <- tryCatch(history_transaction(h, function() history_copy(h, src)),
                    finally = if (opened) history_close(src))
    out[[i]] <- res
  }
  invisible(do.call(rbind, out))
}

history_copy <- function(h, src) {
  tab <- function(sql) history_query(src, sql)
  sm <- tab("SELECT machine_id, name, fingerprint, info FROM machines")
  sc <- tab("SELECT commit_id, sha, branch, position, time FROM commits")
  sb <- tab("SELECT benchmark_id, name FROM benchmarks")
  sr <- tab("SELECT run_id, commit_id, machine_id, source, added_at FROM runs")
  # machines
  hm <- history_query(h, "SELECT machine_id, name FROM machines")
  new <- sm[!sm$name %in% hm$name, , drop = FALSE]
  if (nrow(new)) {
    new$machine_id <- history_next_id(h, "machines", "machine_id") + seq_len(nrow(new)) - 1L
    history_append(h, "machines", new[c("machine_id", "name", "fingerprint", "info")])
    hm <- history_query(h, "SELECT machine_id, name FROM machines")
  }
  mmap <- hm$machine_id[match(sm$name, hm$name)]
  names(mmap) <- sm$machine_id
  # commits
  hc <- history_query(h, "SELECT commit_id, sha, branch, position FROM commits")
  cmap <- integer(nrow(sc))
  next_id <- history_next_id(h, "commits", "commit_id")
  for (i in seq_len(nrow(sc))) {
    same <- which(hc$branch == sc$branch[i] & hc$sha == sc$sha[i])
    if (length(same)) {
      if (as.double(hc$position[same]) != as.double(sc$position[i])) {
        abort(sprintf(paste0("history_merge(): commit %s is at position %s on branch \"%s\" ",
                             "in one history and %s in the other."),
                      safe_text(sc$sha[i]), format(hc$position[same]), safe_text(sc$branch[i]),
                      format(sc$position[i])), class = "data")
      }
      cmap[i] <- hc$commit_id[same]
      next
    }
    taken <- which(hc$branch == sc$branch[i] &
                     as.double(hc$position) == as.double(sc$position[i]))
    if (length(taken)) {
      abort(sprintf(paste0("history_merge(): position %s on branch \"%s\" holds commit %s ",
                           "in one history and %s in the other."),
                    format(sc$position[i]), safe_text(sc$branch[i]), safe_text(hc$sha[taken]),
                    safe_text(sc$sha[i])), class = "data")
    }
    row <- data.frame(commit_id = next_id, sha = sc$sha[i], branch = sc$branch[i],
                      position = sc$position[i], time = sc$time[i], stringsAsFactors = FALSE)
    history_append(h, "commits", row)
    hc <- rbind(hc, row[c("commit_id", "sha", "branch", "position")])
    cmap[i] <- next_id
    next_id <- next_id + 1L
  }
  names(cmap) <- sc$commit_id
  # benchmarks
  hb <- history_query(h, "SELECT benchmark_id, name FROM benchmarks")
  newb <- sb$name[!sb$name %in% hb$name]
  if (length(newb)) {
    id0 <- history_next_id(h, "benchmarks", "benchmark_id")
    history_append(h, "benchmarks", data.frame(
      benchmark_id = id0 + seq_along(newb) - 1L, name = newb, stringsAsFactors = FALSE))
    hb <- history_query(h, "SELECT benchmark_id, name FROM benchmarks")
  }
  bmap <- hb$benchmark_id[match(sb$name, hb$name)]
  names(bmap) <- sb$benchmark_id
  # runs not already in h
  hr <- history_query(h, "SELECT commit_id, machine_id, added_at FROM runs")
  rk <- paste(cmap[as.character(sr$commit_id)], mmap[as.character(sr$machine_id)], sr$added_at)
  sr <- sr[!rk %in% paste(hr$commit_id, hr$machine_id, hr$added_at), , drop = FALSE]
  nproc <- 0L
  if (nrow(sr)) {
    rid <- history_next_id(h, "runs", "run_id") + seq_len(nrow(sr)) - 1L
    rmap <- stats::setNames(rid, sr$run_id)
    history_append(h, "runs", data.frame(
      run_id = rid, commit_id = unname(cmap[as.character(sr$commit_id)]),
      machine_id = unname(mmap[as.character(sr$machine_id)]), source = sr$source,
      added_at = sr$added_at, stringsAsFactors = FALSE))
    ids <- paste(as.integer(sr$run_id), collapse = ",")
    # the run ids are integers read from the source's own table
    sp <- history_query(src, paste0(
      "SELECT process_id, run_id, benchmark_id, label FROM processes WHERE run_id IN (", ids, ")"))
    pid <- history_next_id(h, "processes", "process_id") + seq_len(nrow(sp)) - 1L
    pmap <- stats::setNames(pid, sp$process_id)
    history_append(h, "processes", data.frame(
      process_id = pid, run_id = unname(rmap[as.character(sp$run_id)]),
      benchmark_id = unname(bmap[as.character(sp$benchmark_id)]), label = sp$label,
      stringsAsFactors = FALSE))
    si <- history_query(src, paste0(
      "SELECT i.process_id, i.iteration, i.round, i.time FROM iterations i ",
      "JOIN processes p ON p.process_id = i.process_id WHERE p.run_id IN (", ids, ")"))
    si$process_id <- unname(pmap[as.character(si$process_id)])
    history_append(h, "iterations", si)
    ss <- history_query(src, paste0(
      "SELECT process_id, run_id, benchmark_id, machine_id, commit_id, iterations, value ",
      "FROM summaries WHERE run_id IN (", ids, ")"))
    ss$process_id <- unname(pmap[as.character(ss$process_id)])
    ss$run_id <- unname(rmap[as.character(ss$run_id)])
    ss$benchmark_id <- unname(bmap[as.character(ss$benchmark_id)])
    ss$machine_id <- unname(mmap[as.character(ss$machine_id)])
    ss$commit_id <- unname(cmap[as.character(ss$commit_id)])
    history_append(h, "summaries", ss)
    nproc <- nrow(sp)
    s <- history_query(h, paste0(
      "SELECT DISTINCT s.benchmark_id, s.machine_id, c.branch FROM summaries s ",
      "JOIN commits c ON c.commit_id = s.commit_id WHERE s.run_id IN (",
      paste(as.integer(rid), collapse = ","), ")"))
    history_mark_dirty(h, s)
  }
  # annotations
  sa <- tab("SELECT machine_id, branch, position, note, at FROM annotations")
  ha <- history_query(h, "SELECT machine_id, branch, position FROM annotations")
  for (i in seq_len(nrow(sa))) {
    mid <- unname(mmap[as.character(sa$machine_id[i])])
    dup <- ha$machine_id == mid & as.double(ha$position) == as.double(sa$position[i]) &
      ((is.na(ha$branch) & is.na(sa$branch[i])) | (!is.na(ha$branch) & ha$branch %in% sa$branch[i]))
    if (!any(dup)) {
      history_annotation_insert(h, mid, sa$branch[i], sa$position[i], sa$note[i])
    }
  }
  data.frame(runs = nrow(sr), processes = nproc)
}
