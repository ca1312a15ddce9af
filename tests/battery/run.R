# The battery of malformed and extreme inputs over every exported function
# and the installed script: see README.md.
#
#   Rscript tests/battery/run.R [--cores N] [--case ID] [--filter REGEX]
#
# The package is the one R finds (R_LIBS=/tmp/lib Rscript ... to choose).
# Exits with status 1 when any case fails.

battery_dir <- local({
  a <- grep("^--file=", commandArgs(FALSE), value = TRUE)
  if (length(a)) dirname(normalizePath(sub("^--file=", "", a[1L]))) else "tests/battery"
})
source(file.path(battery_dir, "battery-lib.R"))
args <- commandArgs(trailingOnly = TRUE)
opt <- function(name, default = NULL) {
  i <- match(name, args)
  if (is.na(i)) default else args[i + 1L]
}

failures <- c("untyped", "misnamed", "warning", "crash", "hang", "lost", "memory",
              "injection", "accepted", "battery-error")

# ---------------------------------------------------------------------------
# A child: runs a batch of cases, writing a line before and after each one.

if (!is.na(match("--child", args))) {
  batch <- readRDS(opt("--child"))
  prog <- opt("--progress")
  fix <- opt("--fixtures")
  con <- file(prog, open = "a")
  cat(sprintf("P\t%d\n", Sys.getpid()), file = con); flush(con)
  suppressPackageStartupMessages(library(speeduptest))
  env <- battery_fixture_env(fix)
  # the command line writes PREFIX.error next to a bad configuration path:
  # keep what the cases write out of the working directory
  scratch <- file.path(fix, "cwd")
  dir.create(scratch, showWarnings = FALSE)
  setwd(scratch)
  for (case in batch) {
    cat(sprintf("B\t%s\t%.3f\n", case$id, as.numeric(Sys.time())), file = con); flush(con)
    set.seed(battery_seed)
    o <- battery_eval(case, env)
    cat(sprintf("E\t%s\t%s\t%s\t%s\t%s\t%s\n", case$id, o$outcome, o$class, o$peak_mb,
                o$secs, o$msg), file = con); flush(con)
  }
  cat("DONE\n", file = con); flush(con)
  close(con)
  quit(save = "no", status = 0)
}

# ---------------------------------------------------------------------------
# The parent.

cores <- as.integer(opt("--cores", "2"))
fix <- file.path(tempdir(), "battery-fixtures")
suppressPackageStartupMessages(library(speeduptest))
battery_fixture_files(fix)
# the folder the script cases write their outputs into (-o OUT/...)
dir.create(file.path(fix, "out"), showWarnings = FALSE)
cases <- battery_cases()
ids <- vapply(cases, `[[`, "", "id")
stopifnot(!anyDuplicated(ids))
filter <- opt("--filter")
if (!is.null(filter)) cases <- cases[grepl(filter, ids)]
one <- opt("--case")
if (!is.null(one)) cases <- cases[ids == one]
is_script <- vapply(cases, function(k) k$fun == "cli-script", TRUE)
script_path <- system.file("bin", "speeduptest", package = "speeduptest")
lib_path <- dirname(system.file(package = "speeduptest"))

script_cmd <- function(case) {
  a <- case$code
  subs <- c(HF_OLD = file.path(fix, "hf-old.json"), HF_NEW = file.path(fix, "hf-new.json"),
            HF = file.path(fix, "hf-good.json"), CFG = file.path(fix, "cfg-good.csv"),
            FIFO = file.path(fix, "fifo"), FIX = fix, OUT = file.path(fix, "out"))
  for (k in names(subs)) a <- gsub(k, subs[[k]], a, fixed = TRUE, useBytes = TRUE)
  strsplit(a, " ", fixed = TRUE, useBytes = TRUE)[[1]]
}

run_script_case <- function(case) {
  so <- tempfile(); se <- tempfile()
  scratch <- file.path(fix, "cwd")
  dir.create(scratch, showWarnings = FALSE)
  owd <- setwd(scratch)
  on.exit(setwd(owd))
  t0 <- Sys.time()
  st <- suppressWarnings(system2("timeout", c("-s", "KILL", case$limit, "Rscript", script_path,
                                              shQuote(script_cmd(case))),
                                 stdout = so, stderr = se))
  secs <- as.numeric(Sys.time() - t0, units = "secs")
  out <- readLines(so, warn = FALSE); err <- readLines(se, warn = FALSE)
  o <- list(id = case$id, fun = case$fun, outcome = "ok", class = "", peak_mb = NA,
            secs = round(secs, 2), msg = clean_msg(tail(c(err), 3)))
  if (st %in% c(124L, 137L)) o$outcome <- "hang"
  else if (st > 2L || any(grepl("caught segfault|caught illegal|caught bus", err))) o$outcome <- "crash"
  else if (st == 2L && any(grepl("^Error in |^Error:|Execution halted", err))) o$outcome <- "untyped"
  else if (st == 2L) o$outcome <- if (length(case$good)) "lost" else "classed"
  else if (identical(case$expect, "refused")) o$outcome <- "accepted"
  else if (length(case$good)) {
    txt <- paste(c(out, err), collapse = "\n")
    outs <- list.files(file.path(fix, "out"), full.names = TRUE)
    txt <- paste(c(txt, unlist(lapply(outs, readLines, warn = FALSE))), collapse = "\n")
    miss <- case$good[!vapply(case$good, grepl, TRUE, x = txt, fixed = TRUE)]
    if (length(miss)) {
      o$outcome <- "lost"; o$msg <- paste("missing:", paste(miss, collapse = ", "))
    }
  }
  o
}

# Batches: safe cases in large batches, risky ones in small ones.  A batch
# whose child dies or hangs is resumed after the case that was running.
make_batches <- function(cs) {
  risky <- vapply(cs, `[[`, TRUE, "risky")
  split_n <- function(x, n) if (length(x)) split(x, ceiling(seq_along(x) / n)) else list()
  c(split_n(cs[!risky], 200L), split_n(cs[risky], 3L))
}

results <- list()
record <- function(o) results[[length(results) + 1L]] <<- o
case_by_id <- setNames(cases, vapply(cases, `[[`, "", "id"))

launch <- function(batch) {
  f <- tempfile(fileext = ".rds"); saveRDS(batch, f)
  prog <- tempfile(fileext = ".txt"); file.create(prog)
  se <- tempfile(fileext = ".err")
  # the address space is capped so that a runaway allocation fails instead
  # of taking the machine down
  system2("timeout", c("-s", "KILL", "900", "prlimit", "--as=6000000000", "Rscript",
                       shQuote(file.path(battery_dir, "run.R")), "--child", f,
                       "--progress", prog, "--fixtures", shQuote(fix)),
          stdout = FALSE, stderr = se, wait = FALSE)
  list(batch = batch, prog = prog, err = se, started = Sys.time(), pid = NA)
}

read_prog <- function(p) {
  l <- tryCatch(readLines(p$prog, warn = FALSE), error = function(e) character())
  strsplit(l, "\t", fixed = TRUE)
}

pid_alive <- function(pid) !is.na(pid) && file.exists(sprintf("/proc/%d/status", pid)) &&
  !any(grepl("^State:\\s+Z", readLines(sprintf("/proc/%d/status", pid), warn = FALSE)))

t_start <- Sys.time()
queue <- make_batches(cases[!is_script])
running <- list()
while (length(queue) || length(running)) {
  while (length(running) < cores && length(queue)) {
    running[[length(running) + 1L]] <- launch(queue[[1L]])
    queue <- queue[-1L]
  }
  Sys.sleep(0.2)
  keep <- list()
  for (p in running) {
    lines <- read_prog(p)
    pl <- Filter(function(x) x[1L] == "P", lines)
    if (length(pl)) p$pid <- as.integer(pl[[1L]][2L])
    done_ids <- vapply(Filter(function(x) x[1L] == "E", lines), `[`, "", 2L)
    finished <- any(vapply(lines, function(x) x[1L] == "DONE", TRUE))
    begun <- Filter(function(x) x[1L] == "B", lines)
    cur <- if (length(begun)) begun[[length(begun)]] else NULL
    cur_open <- !is.null(cur) && !(cur[2L] %in% done_ids)
    dead <- FALSE
    if (cur_open) {
      case <- case_by_id[[cur[2L]]]
      if (as.numeric(Sys.time()) - as.numeric(cur[3L]) > case$limit + 3) {
        tools::pskill(p$pid, tools::SIGKILL)
        Sys.sleep(0.2)
        record(list(id = case$id, fun = case$fun, outcome = "hang", class = "", peak_mb = NA,
                    secs = case$limit + 3, msg = "killed after the time limit"))
        dead <- TRUE
      } else if (!is.na(p$pid) && !pid_alive(p$pid)) {
        err <- readLines(p$err, warn = FALSE)
        record(list(id = case$id, fun = case$fun, outcome = "crash", class = "", peak_mb = NA,
                    secs = NA, msg = clean_msg(head(grep("caught|Error|Killed|signal", err, value = TRUE), 3))))
        dead <- TRUE
      }
    } else if (!finished && !is.na(p$pid) && !pid_alive(p$pid)) {
      finished <- TRUE
      if (!length(begun) && !length(done_ids)) {
        # the child failed before its first case
        err <- readLines(p$err, warn = FALSE)
        stop("a battery child failed to start: ", paste(err, collapse = "\n"))
      }
    }
    if (finished || dead) {
      for (x in Filter(function(x) x[1L] == "E", lines)) {
        record(list(id = x[2L], fun = case_by_id[[x[2L]]]$fun, outcome = x[3L], class = x[4L],
                    peak_mb = as.numeric(x[5L]), secs = as.numeric(x[6L]),
                    msg = if (length(x) >= 7L) x[7L] else ""))
      }
      seen <- c(done_ids, if (dead) cur[2L])
      rest <- Filter(function(k) !(k$id %in% seen), p$batch)
      if (length(rest)) queue <- c(list(rest), queue)
    } else {
      keep[[length(keep) + 1L]] <- p
    }
  }
  running <- keep
}
script_res <- parallel::mclapply(cases[is_script], function(k) tryCatch(run_script_case(k),
  error = function(e) list(id = k$id, fun = k$fun, outcome = "battery-error", class = "",
                           peak_mb = NA, secs = NA, msg = conditionMessage(e))),
  mc.cores = cores, mc.preschedule = FALSE)
for (o in script_res) record(o)
elapsed <- as.numeric(Sys.time() - t_start, units = "secs")

tab <- do.call(rbind, lapply(results, function(o) data.frame(
  id = o$id, fun = o$fun, outcome = o$outcome, class = o$class,
  msg = o$msg, stringsAsFactors = FALSE)))
tab$outcome <- factor(tab$outcome, levels = c("ok", "classed", "r_call", failures))
cat(sprintf("speeduptest battery: %d cases, %s, %.0f s on %d cores, package %s from %s\n\n",
            nrow(tab), format(Sys.time(), "%Y-%m-%d %H:%M"), elapsed, cores,
            utils::packageVersion("speeduptest"), lib_path))
counts <- as.data.frame.matrix(table(tab$fun, tab$outcome))
counts <- rbind(counts, TOTAL = colSums(counts))
options(width = 160)
print(counts)
bad <- tab[tab$outcome %in% failures, ]
cat(sprintf("\n%d failing case(s)\n", nrow(bad)))
if (nrow(bad)) {
  bad <- bad[order(bad$outcome, bad$id), ]
  for (i in seq_len(nrow(bad))) {
    k <- case_by_id[[bad$id[i]]]
    cat(sprintf("\n[%s] %s\n  code: %s\n  got: %s%s\n", bad$outcome[i], bad$id[i],
                if (k$fun == "cli-script") paste("speeduptest", k$code) else k$code,
                if (nzchar(bad$class[i])) paste0("<", bad$class[i], "> ") else "", bad$msg[i]))
  }
  cat("\nRerun one case: Rscript tests/battery/run.R --case 'ID'\n")
}
out_file <- opt("--out")
if (!is.null(out_file)) utils::write.csv(tab, out_file, row.names = FALSE)
quit(save = "no", status = if (nrow(bad)) 1L else 0L)
