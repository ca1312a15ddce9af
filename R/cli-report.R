# `speeduptest report`: the report site (report_site()) of timings files or
# of a history store, from the command line.

#' The report site from the command line
#'
#' ```
#' speeduptest report FILE... --out DIR [--format F] [--metric M]
#'                    [--test P] [--alpha A] [--tolerance P]
#' speeduptest report --history STORE --out DIR
#' ```
#'
#' Writes the folder of static HTML pages of [report_site()]: for timings
#' files (read as [read_timings()] reads them, several files being several
#' versions named after the files), one verdict per benchmark; for a history
#' store (an SQLite file or a `postgresql://` URI, as `speeduptest history`
#' takes), one page per series and per change found by the last
#' `speeduptest history changes`. Prints the path of the index page.
#'
#' Exit status: 0 when the site was written, 2 on bad input or when the site
#' cannot be written.
#'
#' @param args The command-line arguments after `report`.
#' @return The exit status, invisibly.
#' @keywords internal
cli_report <- function(args = character()) {
  opts <- tryCatch(report_parse_args(args), speeduptest_error = function(e) e)
  if (inherits(opts, "error")) return(report_cli_fail(conditionMessage(opts)))
  if (isTRUE(opts$help)) {
    cat(report_cli_usage, sep = "\n")
    return(invisible(0L))
  }
  res <- tryCatch(suppressWarnings({
    if (!is.null(opts$history)) {
      h <- history_cli_open(opts$history, create = FALSE)
      on.exit(history_close(h), add = TRUE)
      report_site(h, opts$out, store = opts$history)
    } else {
      files <- opts$files
      t <- if (length(files) == 1L) {
        read_timings(files, format = opts$format, metric = opts$metric)
      } else {
        read_timings(stats::setNames(files, timings_file_labels(files)),
                     format = opts$format, metric = opts$metric)
      }
      report_site(t, opts$out, test = opts$test, alpha = opts$alpha,
                  min_speedup = opts$s0)
    }
  }), speeduptest_error = function(e) e)
  if (inherits(res, "error")) return(report_cli_fail(conditionMessage(res)))
  wrote <- tryCatch(cli_write(res), speeduptest_error = function(e) e)
  if (inherits(wrote, "error")) return(report_cli_fail(conditionMessage(wrote)))
  invisible(0L)
}

report_cli_usage <- c(
  "Usage: speeduptest report FILE... --out DIR [--format F] [--metric M]",
  "                          [--test P] [--alpha A] [--tolerance P]",
  "       speeduptest report --history STORE --out DIR",
  "",
  "Writes a folder of static HTML pages (an index with filters, a page per",
  "benchmark or series, a page per change) that opens from disk.",
  "Exit status: 0 when written, 2 on bad input or when it cannot be written.")

report_cli_fail <- function(message) {
  cat("speeduptest report: ", esc_text(message), "\n", sep = "", file = stderr())
  invisible(2L)
}

report_parse_args <- function(args) {
  opts <- list(files = character(), out = NULL, history = NULL, format = "auto",
               metric = NULL, test = protocol_choices()[1L], alpha = 0.05, s0 = 1,
               help = FALSE)
  with_value <- c("--out", "-o", "--history", "--format", "--metric", "--test",
                  "--alpha", "--tolerance")
  i <- 1L
  while (i <= length(args)) {
    a <- args[i]
    if (a %in% c("-h", "--help")) {
      opts$help <- TRUE
      return(opts)
    }
    if (startsWith(a, "-")) {
      kv <- cli_option_value(args, i, with_value)
      key <- kv$key
      val <- kv$value
      i <- kv$i
      switch(key,
        "--out" = , "-o" = opts$out <- val,
        "--history" = opts$history <- val,
        "--format" = opts$format <- val,
        "--metric" = opts$metric <- val,
        "--test" = opts$test <- check_choice(val, protocol_choices(), key),
        "--alpha" = {
          alpha <- parse_decimal(val)
          if (is.na(alpha) || alpha <= 0 || alpha >= 0.5) {
            abort(sprintf("--alpha must be a number strictly between 0 and 0.5, not \"%s\".", val))
          }
          opts$alpha <- alpha
        },
        "--tolerance" = opts$s0 <- cli_tolerance(val))
    } else {
      opts$files <- c(opts$files, a)
    }
    i <- i + 1L
  }
  if (is.null(opts$out)) abort("--out DIR is missing: the folder to write the site into.")
  if (is.null(opts$history) && !length(opts$files)) {
    abort("give the timings files, or --history STORE.")
  }
  if (!is.null(opts$history) && length(opts$files)) {
    abort("give either timings files or --history STORE, not both.")
  }
  opts
}
