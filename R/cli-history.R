# `speeduptest history add|changes|confirm|bisect`: the history on the
# command line.  cli_history() parses the arguments after "history", runs
# the subcommand, writes its output (text, Markdown or JSON) and returns the
# exit status; speeduptest_cli() and the installed script dispatch to it.

#' The history on the command line
#'
#' ```
#' speeduptest history add STORE FILE... --commit C [--branch B] [--machine M]
#'                     [--position P] [--format F] [--warmup W]
#' speeduptest history changes STORE [--benchmark B] [--machine M] [--branch B]
#'                     [--method scan|pelt|edivisive] [--alpha A] [--tolerance P]
#'                     [--p-adjust holm|BH|none] [--refresh]
#'                     [--fail-on regression|change|never]
#' speeduptest history confirm STORE CHANGE --run TEMPLATE [--alpha A]
#'                     [--tolerance P] [--max-runs N]
#' speeduptest history bisect STORE CHANGE --run TEMPLATE [--commits C1,C2,...]
#'                     [--alpha A] [--tolerance P] [--max-runs N]
#' ```
#' Every subcommand takes `--output text|markdown|json`. `STORE` is an
#' SQLite file (created by `add` if needed) or a PostgreSQL connection URI
#' (`postgresql://user@host:5432/db`, through RPostgres).
#'
#' * `add` reads each `FILE` (timings as [read_timings()] reads them, or a
#'   history as [read_history()] reads it: an asv results folder, an
#'   Otava CSV, a long CSV with a `commit` column; `--format` picks one of
#'   these formats by name) and adds it with [history_add()].
#' * `changes` runs [history_changes()] and prints the changes reported.
#'   `--tolerance P` sets `min_speedup = 1 + P/100` (default 1). With
#'   `--fail-on regression` the exit status is 1 when a certified regression
#'   (a change with a p-value, its verdict a regression beyond the
#'   tolerance) is at the head of its series and is new or confirmed (not
#'   acknowledged, a false alarm or expected); `--fail-on change` also for
#'   an improvement.
#' * `confirm` and `bisect` run [confirm_change()] and [bisect_change()]
#'   with the command template `--run` (`{commit}` and `{benchmark}` are
#'   filled in).
#'
#' Exit status: 0, 1 (the `--fail-on` condition is met) or 2 (bad input;
#' the message goes to the standard error).
#'
#' @param args The arguments after `history`.
#' @return The exit status, invisibly.
#' @keywords internal
cli_history <- function(args = character()) {
  opts <- tryCatch(history_parse_args(args), speeduptest_error = function(e) e)
  if (inherits(opts, "error")) return(history_cli_fail(conditionMessage(opts)))
  if (isTRUE(opts$help)) {
    cat(history_cli_usage, sep = "\n")
    return(invisible(0L))
  }
  res <- tryCatch({
    h <- history_cli_open(opts$store, create = opts$command == "add")
    on.exit(history_close(h), add = TRUE)
    switch(opts$command,
      add = history_cli_add(h, opts),
      changes = history_cli_changes(h, opts),
      confirm = history_cli_confirm(h, opts),
      bisect = history_cli_bisect(h, opts))
  }, speeduptest_error = function(e) e)
  if (inherits(res, "error")) return(history_cli_fail(conditionMessage(res)))
  cat(res$lines, sep = "\n")
  invisible(as.integer(res$status))
}

history_cli_usage <- c(
  "Usage: speeduptest history add STORE FILE... --commit C [--branch B] [--machine M]",
  "                           [--position P] [--format F] [--warmup W]",
  "       speeduptest history changes STORE [--benchmark B] [--machine M] [--branch B]",
  "                           [--method scan|pelt|edivisive] [--alpha A] [--tolerance P]",
  "                           [--p-adjust holm|BH|none] [--refresh]",
  "                           [--fail-on regression|change|never]",
  "       speeduptest history confirm STORE CHANGE --run TEMPLATE [--max-runs N]",
  "       speeduptest history bisect STORE CHANGE --run TEMPLATE [--commits C1,C2,...]",
  "Every subcommand: [--output text|markdown|json]. STORE: an SQLite file or a",
  "postgresql:// URI. TEMPLATE: a command where {commit} and {benchmark} go."
)

history_cli_fail <- function(message) {
  cat("speeduptest history: ", message, "\n", sep = "", file = stderr())
  cat(history_cli_usage[1L], "\n", sep = "", file = stderr())
  invisible(2L)
}

# The options of each subcommand: name -> TRUE (takes a value) or FALSE (a
# flag).
history_cli_options <- list(
  add = c(commit = TRUE, branch = TRUE, machine = TRUE, position = TRUE, format = TRUE,
          warmup = TRUE),
  changes = c(benchmark = TRUE, machine = TRUE, branch = TRUE, method = TRUE, alpha = TRUE,
              tolerance = TRUE, "p-adjust" = TRUE, refresh = FALSE, "fail-on" = TRUE),
  confirm = c(run = TRUE, alpha = TRUE, tolerance = TRUE, "max-runs" = TRUE),
  bisect = c(run = TRUE, alpha = TRUE, tolerance = TRUE, "max-runs" = TRUE, commits = TRUE)
)

history_parse_args <- function(args) {
  args <- check_strings(args, "args")
  if (!length(args) || args[[1L]] %in% c("-h", "--help")) return(list(help = TRUE))
  command <- check_choice(args[[1L]], names(history_cli_options), "the subcommand")
  spec <- c(history_cli_options[[command]], output = TRUE, help = FALSE)
  args <- args[-1L]
  eq <- grepl("^--[a-z-]+=", args)
  if (any(eq)) {
    args <- unlist(lapply(args, function(a) {
      if (grepl("^--[a-z-]+=", a)) c(sub("=.*$", "", a), sub("^[^=]*=", "", a)) else a
    }))
  }
  opt <- list(command = command, output = "text", .words = character())
  i <- 1L
  while (i <= length(args)) {
    a <- args[[i]]
    if (a %in% c("-h", "--help")) return(list(help = TRUE))
    if (startsWith(a, "--")) {
      nm <- substring(a, 3L)
      if (!nm %in% names(spec)) abort(sprintf("unknown option \"%s\" for %s.", a, command))
      if (spec[[nm]]) {
        if (i + 1L > length(args)) abort(sprintf("option %s needs a value.", a))
        opt[[nm]] <- args[[i + 1L]]
        i <- i + 2L
      } else {
        opt[[nm]] <- TRUE
        i <- i + 1L
      }
    } else {
      opt$.words <- c(opt$.words, a)
      i <- i + 1L
    }
  }
  opt$output <- check_choice(opt$output, c("text", "markdown", "json"), "--output")
  if (!length(opt$.words)) abort("give the history's STORE (an SQLite file or a URI).")
  opt$store <- opt$.words[[1L]]
  rest <- opt$.words[-1L]
  num <- function(nm, lower, upper) {
    v <- opt[[nm]]
    if (is.null(v)) return(NULL)
    x <- suppressWarnings(as.numeric(v))
    if (is.na(x) || x < lower || x > upper) {
      abort(sprintf("--%s must be a number from %s to %s, not \"%s\".", nm, format(lower),
                    format(upper), v))
    }
    x
  }
  opt$alpha <- num("alpha", 1e-12, 0.5)
  opt$tolerance <- num("tolerance", 0, 1000)
  opt$`max-runs` <- num("max-runs", 10, 1e6)
  opt$position <- num("position", -1e15, 1e15)
  opt$warmup <- num("warmup", 0, 1e9)
  if (command == "add") {
    if (!length(rest)) abort("add: give the FILE(s) to add.")
    opt$files <- rest
  } else if (command %in% c("confirm", "bisect")) {
    if (length(rest) != 1L) abort(sprintf("%s: give one CHANGE (its id).", command))
    id <- suppressWarnings(as.numeric(rest))
    if (is.na(id) || id < 1 || id != round(id)) {
      abort(sprintf("%s: CHANGE must be a change id, not \"%s\".", command, rest))
    }
    opt$change <- id
    if (is.null(opt$run)) abort(sprintf("%s: give --run, the command template.", command))
  } else if (length(rest)) {
    abort(sprintf("changes: unexpected argument \"%s\".", rest[[1L]]))
  }
  if (!is.null(opt$method)) {
    opt$method <- check_choice(opt$method, c("scan", "pelt", "edivisive"), "--method")
  }
  if (!is.null(opt$`p-adjust`)) {
    opt$`p-adjust` <- check_choice(opt$`p-adjust`, c("holm", "BH", "none"), "--p-adjust")
  }
  opt$`fail-on` <- check_choice(opt$`fail-on` %||% "never",
                                c("regression", "change", "never"), "--fail-on")
  if (!is.null(opt$commits)) opt$commits <- strsplit(opt$commits, ",", fixed = TRUE)[[1L]]
  opt
}

# The store: a postgresql:// URI through RPostgres, else an SQLite file
# (which must exist, except for `add`).
history_cli_open <- function(store, create) {
  if (grepl("^postgres(ql)?://", store)) {
    if (!requireNamespace("RPostgres", quietly = TRUE)) {
      abort("a postgresql:// store needs the package RPostgres.", class = "unavailable")
    }
    con <- tryCatch(DBI::dbConnect(RPostgres::Postgres(), dbname = store),
                    error = function(e) abort(sprintf("cannot connect to the store: %s",
                                                      conditionMessage(e)), class = "file"))
    h <- history_open(con)
    h$own <- TRUE
    return(h)
  }
  if (!create && !file.exists(store)) {
    abort(sprintf("the history '%s' does not exist.", safe_text(store)), class = "file")
  }
  history_open(store)
}

history_cli_tolerance <- function(opts) 1 + (opts$tolerance %||% 1) / 100

history_cli_add <- function(h, opts) {
  added <- list()
  for (f in opts$files) {
    fmt <- opts$format %||% "auto"
    t <- if (fmt %in% c("asv", "otava") || dir.exists(f) ||
             (fmt %in% c("auto", "csv") && history_cli_has_commit(f))) {
      read_history(f, format = if (fmt == "auto") "auto" else fmt)
    } else {
      read_timings(f, format = fmt)
    }
    added[[length(added) + 1L]] <- history_add(
      h, t, commit = opts$commit, branch = opts$branch, machine = opts$machine,
      position = opts$position, warmup = opts$warmup %||% 0)
  }
  a <- do.call(rbind, added)
  lines <- switch(opts$output,
    json = as.character(jsonlite::toJSON(list(added = a), dataframe = "rows",
                                         auto_unbox = TRUE, digits = NA, pretty = TRUE)),
    markdown = c("| commit | branch | position | machine | benchmarks | processes |",
                 "|---|---|---:|---|---:|---:|",
                 sprintf("| %s | %s | %s | %s | %d | %d |", history_md(a$commit),
                         history_md(a$branch), format(a$position, trim = TRUE), history_md(a$machine),
                         a$benchmarks, a$processes)),
    sprintf("added commit %s (branch %s, position %s) on %s: %d benchmark(s), %d process(es)",
            history_short(a$commit), history_cut(a$branch, 16L), format(a$position, trim = TRUE),
            history_cut(a$machine, 16L), a$benchmarks, a$processes))
  list(lines = lines, status = 0L)
}

# TRUE for a CSV whose header has a commit column (a history, not timings).
history_cli_has_commit <- function(f) {
  if (!file.exists(f) || dir.exists(f) || !grepl("[.]csv$", f, ignore.case = TRUE)) {
    return(FALSE)
  }
  head <- tolower(trimws(strsplit(readLines(f, n = 1L, warn = FALSE), ",")[[1L]]))
  "commit" %in% gsub('^"|"$', "", head)
}

# Changes that fail a job with --fail-on: certified (a p-value), at the
# head of their series, new or confirmed, and a regression (or, for
# "change", an improvement too) beyond the tolerance.
history_failing <- function(ch, fail_on) {
  if (fail_on == "never" || !nrow(ch)) return(rep(FALSE, nrow(ch)))
  kinds <- if (fail_on == "regression") "^regression" else "^(regression|improvement)"
  !is.na(ch$p_value) & ch$at_head & ch$state %in% c("new", "confirmed") &
    grepl(kinds, ch$decision)
}

history_cli_changes <- function(h, opts) {
  ch <- history_changes(h, benchmark = opts$benchmark, machine = opts$machine,
                        branch = opts$branch, method = opts$method %||% "scan",
                        alpha = opts$alpha %||% 0.05,
                        min_speedup = history_cli_tolerance(opts),
                        p_adjust = opts$`p-adjust` %||% "holm", refresh = isTRUE(opts$refresh))
  failing <- history_failing(ch, opts$`fail-on`)
  status <- if (any(failing)) 1L else 0L
  lines <- switch(opts$output,
    text = c(format(ch), "",
             if (opts$`fail-on` == "never") "exit 0 (--fail-on never)" else
               sprintf("exit %d: %d change(s) at the head of a branch fail the job (--fail-on %s)",
                       status, sum(failing), opts$`fail-on`)),
    markdown = history_changes_markdown(ch, status),
    json = history_changes_json(ch, status, failing))
  list(lines = lines, status = status)
}

# Markdown for a pull-request comment; names escaped so they stay text.
history_md <- function(s) {
  s <- safe_text(as.character(s))
  s <- gsub("&", "&amp;", s, fixed = TRUE)
  s <- gsub("<", "&lt;", s, fixed = TRUE)
  s <- gsub(">", "&gt;", s, fixed = TRUE)
  s <- gsub("([\\\\`*_\\[\\]|#!~()])", "\\\\\\1", s, perl = TRUE)
  gsub("[\r\n]+", " ", s)
}

history_changes_markdown <- function(ch, status) {
  head <- sprintf("**%d change(s)** in %d series (alpha %s, %s across series); exit %d",
                  nrow(ch), as.integer(attr(ch, "series") %||% 0L),
                  format(attr(ch, "alpha")), attr(ch, "p_adjust") %||% "holm", status)
  if (!nrow(ch)) return(head)
  c(head, "",
    "| # | benchmark | machine | branch | last good | first bad | time | verdict | state |",
    "|---:|---|---|---|---|---|---|---|---|",
    sprintf("| %d | %s | %s | %s | %s | %s | %s | %s | %s |", ch$change_id,
            history_md(ch$benchmark), history_md(ch$machine), history_md(ch$branch),
            history_md(history_short(ch$last_good)), history_md(history_short(ch$first_bad)),
            history_ratio_text(ch$ratio, ch$conf_low, ch$conf_high),
            history_md(ch$decision), history_md(ch$state)))
}

history_changes_json <- function(ch, status, failing) {
  d <- as.data.frame(ch)
  d$fails_job <- failing
  as.character(jsonlite::toJSON(list(
    alpha = attr(ch, "alpha"), p_adjust = attr(ch, "p_adjust"),
    series = attr(ch, "series"), analysed = attr(ch, "analysed"),
    skipped = I(attr(ch, "skipped")), exit_status = status, changes = d),
    dataframe = "rows", auto_unbox = TRUE, digits = NA, na = "null", pretty = TRUE))
}

history_cli_confirm <- function(h, opts) {
  r <- confirm_change(h, opts$change, opts$run, alpha = opts$alpha %||% 0.05,
                      min_speedup = history_cli_tolerance(opts),
                      max_runs = opts$`max-runs` %||% 100, progress = FALSE)
  d <- as.data.frame(r)
  lines <- switch(opts$output,
    text = format(r),
    markdown = c("| # | benchmark | last good | first bad | outcome | time | runs |",
                 "|---:|---|---|---|---|---|---:|",
                 sprintf("| %d | %s | %s | %s | %s | %s | %d |", d$change_id,
                         history_md(d$benchmark), history_md(history_short(d$last_good)),
                         history_md(history_short(d$first_bad)), d$outcome,
                         history_ratio_text(d$ratio, d$conf_low, d$conf_high), d$runs)),
    json = as.character(jsonlite::toJSON(as.list(d), auto_unbox = TRUE, digits = NA,
                                         pretty = TRUE)))
  list(lines = lines, status = 0L)
}

history_cli_bisect <- function(h, opts) {
  b <- bisect_change(h, opts$change, opts$run, commits = opts$commits,
                     alpha = opts$alpha %||% 0.05, min_speedup = history_cli_tolerance(opts),
                     max_runs = opts$`max-runs` %||% 100, progress = FALSE)
  lines <- switch(opts$output,
    text = format(b),
    markdown = c(sprintf("Change %d: last good **%s**, first bad **%s** (%s)", b$change_id,
                         history_md(history_short(b$last_good)),
                         history_md(history_short(b$first_bad)),
                         if (b$narrowed) "found" else "stopped undecided"), "",
                 "| step | commit | against | outcome | time |", "|---:|---|---|---|---|",
                 sprintf("| %d | %s | %s | %s | %s |", seq_len(nrow(b$steps)),
                         history_md(history_short(b$steps$commit)),
                         history_md(history_short(b$steps$against)), b$steps$outcome,
                         history_ratio_text(b$steps$ratio, b$steps$conf_low,
                                            b$steps$conf_high))),
    json = as.character(jsonlite::toJSON(b[c("change_id", "last_good", "first_bad",
                                             "narrowed", "alpha", "level", "max_steps",
                                             "steps")],
                                         auto_unbox = TRUE, digits = NA, dataframe = "rows",
                                         pretty = TRUE)))
  list(lines = lines, status = 0L)
}
