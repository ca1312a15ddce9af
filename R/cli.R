# The command line: a drop-in replacement for the original SpeedupTest tool
# (SPEC section 5), and the dispatch to `speeduptest compare`.

#' The SpeedupTest command line
#'
#' A drop-in replacement for the original SpeedupTest command-line tool:
#' reads a configuration (see [read_speedup_config()]), analyses the suite
#' with [speedup_suite()] and writes the four files of
#' [write_speedup_report()] next to it; the report is also printed. Run it
#' with `Rscript -e 'speeduptest::speeduptest_cli()' config.csv --weight equal`,
#' or with the script installed with the package,
#' `system.file("bin", "speeduptest", package = "speeduptest")`.
#'
#' `speeduptest CONFIG [options]` writes `CONFIG.out`, `CONFIG.report`,
#' `CONFIG.warning` and `CONFIG.error`: the configuration's path as given
#' plus a suffix (`config.csv` gives `config.csv.out`), as the original tool
#' did. Options:
#' * `--conf-level L`: one confidence level for every benchmark (overrides
#'   the `ConfLevel` column; `NA` searches the highest level everywhere); also
#'   the level of the proportion interval (0.95 otherwise);
#' * `--weight custom|equal|fraction`: the weights (default: `custom` when the
#'   configuration has `Coef` values, `equal` otherwise);
#' * `--precision r`: the precision of the minimal number of benchmarks
#'   (default 0.05);
#' * `-o PREFIX`: write `PREFIX.out`, `PREFIX.report`, `PREFIX.warning` and
#'   `PREFIX.error` instead;
#' * `--significant-only`: overall gains over the significant benchmarks only;
#' * `-q`, `--quiet`: do not print the report;
#' * `-h`, `--help`: print the usage.
#' `--name=value` is the same as `--name value`.
#'
#' `speeduptest measure ...` times commands interleaved with [measure()]'s
#' engine and writes the runs for `compare` (see `cli_measure()`).
#'
#' `speeduptest compare ...` compares two sets of timings for continuous
#' integration (see `cli_compare()` when this build of the package has it):
#' by default with a 1 % tolerance (`--tolerance`) and Holm's adjustment
#' over the benchmarks (`--p-adjust`), so that a job with no real change
#' fails with probability at most alpha; `--output markdown|json`,
#' `--baseline NAME` for files with more than two versions.
#'
#' `speeduptest history add|changes|confirm|bisect ...` keeps a history of
#' results across commits and finds, confirms and bisects the changes along
#' it (see `cli_history()`); `history changes --fail-on regression` gates a
#' job on a certified regression at the head of a branch.
#'
#' @section The command on the PATH:
#' One step puts `speeduptest` on the `PATH`: [install_cli()] writes a
#' launcher into a folder of your choosing,
#' `Rscript -e 'speeduptest::install_cli("~/.local/bin")'` (then, if that
#' folder is not on the `PATH` yet, `export PATH="$HOME/.local/bin:$PATH"`).
#' The launcher runs this R's `Rscript` on the installed script, so it works
#' in a fresh shell.
#'
#' Problems with single benchmarks (a sample file that is missing, unreadable,
#' empty, binary, not valid UTF-8 or holding text; a bad line of the
#' configuration) are written to the `.warning` file under the benchmark's
#' `NAME :` block and never stop the run: every good benchmark is analysed and
#' the exit status is 0. An unreadable configuration, a missing required
#' column or a bad option is fatal: the message goes to `PREFIX.error` (when
#' the prefix is known, and the other three files of an earlier run are
#' removed) and the function signals a classed error, which the installed
#' script turns into a message on the standard error and the exit status 2.
#'
#' @section Differences from the original tool:
#' The package replaces the original SpeedupTest tool (an R script), keeps its
#' files and formats, and deliberately differs where the original was wrong
#' or fragile:
#' * **Exact p-values with ties.** The rank tests compute exact p-values even
#'   when the samples hold ties (the original used R's normal approximation as
#'   soon as two times were equal).
#' * **Exact level search.** For a missing `ConfLevel`, the package computes
#'   the smallest alpha at which the speedup is declared and rounds it up to
#'   the 0.01 grid in \[0.01, 0.5\] (the original bisected over alpha).
#' * **Whole-number weights honoured.** Custom weights that are all whole
#'   numbers (`Coef` 1, 2, 3) are used as given (the original fell back to
#'   equal weights, an accident of R's integer columns). Custom weights that
#'   are missing, negative or all zero still fall back to equal weights with
#'   a note.
#' * **Bad input never loses the good benchmarks.** Bytes that are not valid
#'   UTF-8 (in a sample file or in a line of the configuration), binary or
#'   empty sample files, text among the times, a malformed or repeated line
#'   skip that benchmark only, with its reason in `.warning`; a benchmark
#'   name whose bytes are not valid UTF-8 is written with those bytes as
#'   `<xx>`. Times that are not positive skip their benchmark too. Blank lines
#'   and lines starting with `#` are ignored in both kinds of files.
#' * **Messages.** `.warning` starts with the notes about the whole
#'   configuration (ignored columns, weights that fell back) before the
#'   `NAME :` blocks; `.report` has the package's lines (number of benchmarks
#'   analysed and skipped, the weights used, ...) after the original lines;
#'   a speedup with "insufficient data" (too few runs to apply the test) is
#'   `FALSE` in `.out`, with the reason in `.warning`.
#' * **Additions.** `-o PREFIX`, `--significant-only`, `-q`, `compare`,
#'   `--version` (prints "speeduptest" and the package's version), and
#'   column names of the configuration matched regardless of case.
#'
#' @param args The command-line arguments (a character vector without
#'   missing values).
#' @return The exit status, invisibly: 0 for an analysis (whose
#'   [speedup_suite()] result is attached as the attribute `"suite"`), for
#'   `--help` or for `--version`; for `compare`, `measure`, `history` and `report`, the status
#'   `cli_compare()`, `cli_measure()`, `cli_history()` or `cli_report()`
#'   returns.
#'
#'   Called without `args` in a non-interactive R, as in
#'   `Rscript -e 'speeduptest::speeduptest_cli()' compare OLD NEW`, it is the
#'   command line itself: it ends R with that exit status (2 after an error,
#'   whose message goes to the standard error), as the installed script does,
#'   so that a CI job can gate on it.
#' @seealso [read_speedup_config()], [write_speedup_report()]
#' @examples
#' cfg <- system.file("extdata", "config.csv", package = "speeduptest")
#' out <- file.path(tempdir(), "example")
#' status <- speeduptest_cli(c(cfg, "--weight", "equal", "-o", out))
#' as.integer(status)
#' list.files(tempdir(), pattern = "^example[.]")
#' read.csv(paste0(out, ".out"))
#' @export
speeduptest_cli <- function(args = commandArgs(trailingOnly = TRUE)) {
  if (missing(args) && !interactive()) {
    quit(save = "no", status = cli_exit_status(args))
  }
  args <- check_strings(args, "args")
  if (length(args) == 1L && args[[1L]] %in% c("--version", "-V", "version")) {
    cli_write(sprintf("speeduptest %s", format(utils::packageVersion("speeduptest"))))
    return(invisible(0L))
  }
  if (length(args) && identical(args[[1L]], "compare")) {
    return(cli_dispatch_compare(args[-1L]))
  }
  if (length(args) && identical(args[[1L]], "measure")) {
    return(cli_measure(args[-1L]))
  }
  if (length(args) && identical(args[[1L]], "history")) {
    return(cli_history(args[-1L]))
  }
  if (length(args) && identical(args[[1L]], "report")) {
    return(cli_report(args[-1L]))
  }
  opt <- cli_parse(args)
  if (isTRUE(opt$help)) {
    cli_write(cli_usage)
    return(invisible(0L))
  }
  config_file <- opt$config
  prefix <- if (is.null(opt$prefix)) config_file else opt$prefix
  muffle <- function(w) {
    if (inherits(w, "speeduptest_warning")) invokeRestart("muffleWarning")
  }
  suite <- tryCatch(
    withCallingHandlers({
      config <- read_speedup_config(config_file)
      speedup_suite(config, conf_level = opt$conf_level, weights = opt$weight,
                    prop_conf_level = if (is.null(opt$conf_level) || is.na(opt$conf_level))
                      0.95 else opt$conf_level,
                    precision = opt$precision,
                    significant_only = opt$significant_only)
    }, warning = muffle),
    error = function(e) {
      cli_fatal(e, prefix)
    })
  paths <- write_speedup_report(suite, prefix, config = config_file,
                                conf_level = opt$conf_level)
  if (!opt$quiet) {
    nskip <- sum(suite$problems$severity == "error")
    nw <- nrow(suite_warning_messages(suite))
    cli_write(c(esc_text(suite_report_file_lines(suite, config_file, opt$conf_level)), "",
                sprintf("%d benchmark(s) analysed, %d skipped; %d warning(s) in %s.",
                        nrow(suite$benchmarks), nskip, nw, esc_text(paths[["warning"]])),
                sprintf("Wrote %s", esc_text(paste(paths, collapse = ", ")))))
  }
  invisible(structure(0L, suite = suite))
}

# A fatal error: written to PREFIX.error, the outputs of an earlier run
# removed so that no script reads them as this run's, then signalled again.
cli_fatal <- function(e, prefix) {
  old <- paste0(prefix, c(".out", ".report", ".warning"))
  suppressWarnings(unlink(old[file.exists(old) & !dir.exists(old)]))
  try(write_lines(safe_text(conditionMessage(e)), paste0(prefix, ".error")),
      silent = TRUE)
  stop(e)
}

# `speeduptest compare ...`: handled by cli_compare() when this build has it;
# its exit status is returned.
cli_dispatch_compare <- function(args, fn = get0("cli_compare", envir = topenv(environment()),
                                                mode = "function", inherits = FALSE)) {
  if (is.null(fn)) {
    abort("compare is not available in this version of speeduptest.",
          class = "unavailable")
  }
  status <- fn(args)
  if (!is.numeric(status) || length(status) != 1L || is.na(status)) {
    abort(sprintf("compare returned %s, not an exit status.", describe_value(status)),
          class = "internal")
  }
  invisible(as.integer(status))
}

cli_usage <- c(
  "usage: speeduptest CONFIG [--conf-level L] [--weight custom|equal|fraction]",
  "                   [--precision r] [-o PREFIX] [--significant-only] [-q]",
  "       speeduptest compare ...",
  "       speeduptest measure [options] -n NAME CMD -n NAME CMD ...",
  "       speeduptest history add|changes|confirm|bisect ...",
  "       speeduptest report FILE... --out DIR | --history STORE --out DIR",
  "       speeduptest --version",
  "",
  "CONFIG is a CSV file with the header Name,Sample1,Sample2,ConfLevel,Coef and one",
  "line per benchmark (Sample1/Sample2: files with one run time per line; empty or",
  "NA ConfLevel: search the highest level; Coef: custom weight). Writes CONFIG.out,",
  "CONFIG.report, CONFIG.warning and CONFIG.error (PREFIX.* with -o PREFIX)."
)

cli_parse <- function(args) {
  opt <- list(config = NULL, conf_level = NULL, weight = NULL, precision = 0.05,
              prefix = NULL, significant_only = FALSE, quiet = FALSE, help = FALSE)
  # --name=value is the same as --name value
  eq <- grepl("^--[a-z-]+=", args)
  if (any(eq)) {
    split <- lapply(args, function(a) {
      if (grepl("^--[a-z-]+=", a)) c(sub("=.*$", "", a), sub("^[^=]*=", "", a)) else a
    })
    args <- unlist(split)
  }
  bad <- function(msg) {
    abort(paste0(msg, "\n", paste(cli_usage[1:2], collapse = "\n")), class = "input")
  }
  value <- function(i, what) {
    if (i + 1L > length(args)) bad(sprintf("option %s needs a value.", what))
    args[[i + 1L]]
  }
  i <- 1L
  while (i <= length(args)) {
    a <- args[[i]]
    if (a %in% c("-h", "--help")) {
      opt$help <- TRUE
      i <- i + 1L
    } else if (a == "--conf-level") {
      v <- value(i, a)
      lv <- if (toupper(v) == "NA") NA_real_ else parse_decimal(v)
      if (toupper(v) != "NA" && (is.na(lv) || lv <= 0 || lv >= 1)) {
        bad(sprintf("--conf-level must be a number strictly between 0 and 1 (or NA), not \"%s\".", v))
      }
      opt$conf_level <- lv
      i <- i + 2L
    } else if (a == "--weight") {
      v <- value(i, a)
      opt$weight <- tryCatch(check_choice(v, suite_weight_modes, "--weight"),
                             speeduptest_error_input = function(e) bad(conditionMessage(e)))
      i <- i + 2L
    } else if (a == "--precision") {
      v <- value(i, a)
      r <- parse_decimal(v)
      if (is.na(r) || r <= 0 || r >= 1) {
        bad(sprintf("--precision must be a number strictly between 0 and 1, not \"%s\".", v))
      }
      opt$precision <- r
      i <- i + 2L
    } else if (a %in% c("-o", "--output")) {
      v <- value(i, a)
      if (!nzchar(v)) bad(sprintf("option %s needs a non-empty prefix.", a))
      opt$prefix <- v
      i <- i + 2L
    } else if (a == "--significant-only") {
      opt$significant_only <- TRUE
      i <- i + 1L
    } else if (a %in% c("-q", "--quiet")) {
      opt$quiet <- TRUE
      i <- i + 1L
    } else if (startsWith(a, "-") && nchar(a) > 1L) {
      bad(sprintf("unknown option \"%s\".", a))
    } else if (!nzchar(a)) {
      bad("the configuration file name is empty.")
    } else {
      if (!is.null(opt$config)) {
        bad(sprintf("only one configuration file, not \"%s\" and \"%s\".", opt$config, a))
      }
      opt$config <- a
      i <- i + 1L
    }
  }
  if (!opt$help && is.null(opt$config)) bad("no configuration file given.")
  opt
}

# The exit status of the command line run with `args`: the status
# speeduptest_cli() returns, or 2 after an error (its message written on the
# standard error).  The installed script and speeduptest_cli() called from
# Rscript end R with it.
cli_exit_status <- function(args) {
  cli_utf8_locale()
  tryCatch({
    st <- speeduptest_cli(args)
    if (is.numeric(st) && length(st) == 1L && !is.na(st)) as.integer(st) else 0L
  }, error = function(e) {
    message("speeduptest: ", esc_text_lines(conditionMessage(e)))
    2L
  })
}

# The command line reads and writes UTF-8 (names from the data, the
# Markdown of a comment) also when started from a fresh shell without a
# locale (`env -i`, a CI step): the C locale's character type is switched
# to C.UTF-8 where the system has it.
cli_utf8_locale <- function() {
  if (isTRUE(l10n_info()[["UTF-8"]])) return(invisible(TRUE))
  for (loc in c("C.UTF-8", "C.utf8", "en_US.UTF-8")) {
    ok <- suppressWarnings(Sys.setlocale("LC_CTYPE", loc))
    if (nzchar(ok) && isTRUE(l10n_info()[["UTF-8"]])) return(invisible(TRUE))
  }
  invisible(FALSE)
}
