# The four output files of the original SpeedupTest tool (SPEC section 5,
# "Compatibility with the original SpeedupTest tool").

#' Write the four SpeedupTest report files
#'
#' Writes the outputs of the original SpeedupTest tool for a suite, in its
#' formats, so that scripts written for that tool keep working:
#'
#' * `<prefix>.out`: the table of the benchmarks written by
#'   `utils::write.csv(row.names = FALSE)` (every header cell and every name
#'   quoted, logicals `TRUE`/`FALSE`, numbers unquoted), with the columns
#'   `Name, SpeedupMin, SpeedupMean, IsMeanSignificant, MeanConfLevel,
#'   SpeedupMedian, IsMedianSignificant, MedianConfLevel, CoefMin, CoefMean,
#'   CoefMedian`. Speedups are `round(1000 * s) / 1000`; a level is 1 - alpha
#'   of the test applied (a searched level is on the 0.01 grid; `NA`, as the
#'   original tool wrote, when the search found no level because the
#'   protocol asks for more runs even at alpha = 0.5); "insufficient
#'   data" is written as not significant (`FALSE`, the reason is in the
#'   `.warning` file). `Coef*` is the weight used for that centre, not
#'   normalised: the `Coef` value (custom weights), 1 (equal weights) or the
#'   initial code's own minimum, mean or median time (`"fraction"`).
#' * `<prefix>.report`: `Analysis report of CONFIG`, then
#'   `Default confidence level = L` when `conf_level` is given, the lines
#'   `Overall gain (ExecutionTime=min) = g` and
#'   `Overall speedup (ExecutionTime=min) = s` for the minimum, mean and
#'   median, then for the mean and for the median the observed proportion
#'   `a/b = A/B = v`, the confidence level of its interval, the interval
#'   `[lo; hi]`, the validity warning when a (1 - a/b) <= 5 and the minimal
#'   number of benchmarks for the precision r when it is positive; figures
#'   rounded to 3 decimals. The package adds lines after these (the number of
#'   benchmarks analysed and skipped, the weights used, ...).
#' * `<prefix>.warning`: a line naming the configuration, then the notes
#'   about the whole configuration (ignored columns, weights that fell back
#'   to equal weights) as tab-indented lines, then for each benchmark with
#'   something to say a line `NAME :` followed by one tab-indented line per
#'   message (a sample file or a line that could not be read, why a speedup
#'   was not declared or why its level may be inaccurate), and last
#'   `N warning(s).`
#' * `<prefix>.error`: fatal errors only, so it is written empty here
#'   ([speeduptest_cli()] writes the message there when the run stops).
#'
#' Every file is rewritten, so that a stale file from an earlier run never
#' remains.
#'
#' @param suite A [speedup_suite()] result.
#' @param prefix Path prefix of the four files.
#' @param config The configuration's name, as given on the command line,
#'   for the first line of the `.report` and `.warning` files (default: the
#'   prefix).
#' @param conf_level The default confidence level given on the command line
#'   (`--conf-level`), reported when not `NULL`.
#' @return The four paths, invisibly.
#' @examples
#' cfg <- system.file("extdata", "config.csv", package = "speeduptest")
#' suite <- speedup_suite(read_speedup_config(cfg))
#' paths <- write_speedup_report(suite, file.path(tempdir(), "example"))
#' readLines(paths[["report"]])
#' read.csv(paths[["out"]])
#' @export
write_speedup_report <- function(suite, prefix, config = prefix, conf_level = NULL) {
  check_suite(suite, "suite")
  missing_p <- setdiff(original_tool_protocols, suite_protocols(suite))
  if (length(missing_p)) {
    abort(sprintf("`suite` has no %s protocol: the original tool's files hold the mean's and the median's columns; run speedup_suite() with both in `protocols`.",
                  and_list(missing_p)), class = "unsupported")
  }
  prefix <- check_path(prefix, "prefix")
  config <- check_string(config, "config")
  if (!is.null(conf_level) && !(length(conf_level) == 1L && is.na(conf_level))) {
    conf_level <- check_conf_level(conf_level)
  }
  paths <- c(out = "out", report = "report", warning = "warning", error = "error")
  paths[] <- paste0(prefix, ".", paths)
  out <- suite_out_table(suite)
  ok <- tryCatch({
    utils::write.csv(out, paths[["out"]], row.names = FALSE)
    TRUE
  }, error = function(e) FALSE, warning = function(w) FALSE)
  if (!ok) abort(sprintf("cannot write the file '%s'.", paths[["out"]]), class = "file")
  write_lines(suite_report_file_lines(suite, config, conf_level), paths[["report"]])
  write_lines(suite_warning_file_lines(suite, config), paths[["warning"]])
  write_lines(character(), paths[["error"]])
  invisible(paths)
}

write_lines <- function(lines, path) {
  ok <- tryCatch({
    con <- file(path, open = "w", encoding = "UTF-8")
    on.exit(close(con))
    writeLines(esc_text(lines, keep_tabs = TRUE), con)
    TRUE
  }, error = function(e) FALSE, warning = function(w) FALSE)
  if (!ok) abort(sprintf("cannot write the file '%s'.", path), class = "file")
}

# The protocols whose columns and sentences the original tool's files hold
# (its format names them): cut from a suite's long table.
original_tool_protocols <- c("mean", "median")

# The table of the .out file, as the original tool built it.
suite_out_table <- function(suite) {
  bm <- suite$benchmarks
  r3 <- function(s) round(1000 * s) / 1000
  sig <- function(s) !is.na(s) & s
  coef <- suite_weights_used(suite)
  # a searched level with "insufficient data" at every level up to
  # alpha = 0.5 (the protocol asks for more runs): the original tool found
  # no level and wrote NA
  level <- function(p) {
    lev <- bm[[paste0(p, "_conf_level")]]
    lev[bm$searched & is.na(bm[[paste0(p, "_significant")]])] <- NA
    lev
  }
  data.frame(
    Name = bm$benchmark,
    SpeedupMin = r3(bm$speedup_min), SpeedupMean = r3(bm$speedup_mean),
    IsMeanSignificant = sig(bm$mean_significant),
    MeanConfLevel = level("mean"),
    SpeedupMedian = r3(bm$speedup_median),
    IsMedianSignificant = sig(bm$median_significant),
    MedianConfLevel = level("median"),
    CoefMin = coef[, 1L], CoefMean = coef[, 2L], CoefMedian = coef[, 3L],
    stringsAsFactors = FALSE)
}

# The weight used for each benchmark and centre (min, mean, median), not
# normalised: the custom weight, 1, or the initial code's own time.
suite_weights_used <- function(suite) {
  bm <- suite$benchmarks
  nb <- nrow(bm)
  w <- switch(suite$weights,
    custom = {
      given <- suite$weights_given
      if (is.null(given)) {
        cbind(bm$weight_min, bm$weight_mean, bm$weight_median)
      } else {
        v <- unname(given[bm$benchmark])
        cbind(v, v, v)
      }
    },
    fraction = cbind(bm$min_x, bm$mean_x, bm$median_x),
    matrix(1, nb, 3L))
  matrix(as.double(w), nb, 3L, dimnames = list(NULL, c("min", "mean", "median")))
}

# The .out file as text (what utils::write.csv() writes).
suite_out_lines <- function(suite) {
  con <- textConnection("out_lines", "w", local = TRUE)
  on.exit(close(con))
  utils::write.csv(suite_out_table(suite), con, row.names = FALSE)
  textConnectionValue(con)
}

# (each distinct level rounded and written once: a suite repeats a few
# levels over all its benchmarks)
format_level <- function(x) {
  u <- unique(x)
  round_text(u, 4L)[match(x, u)]
}

# The .report file.
suite_report_file_lines <- function(suite, config, conf_level = NULL) {
  ov <- suite$overall
  sig <- isTRUE(suite$significant_only)
  scope <- if (sig) " over the significant benchmarks only" else ""
  lines <- sprintf("Analysis report of %s", config)
  if (!is.null(conf_level)) {
    lines <- c(lines, sprintf("Default confidence level = %s",
                              if (is.na(conf_level)) "NA (the highest level is searched)"
                              else format(conf_level)))
  }
  for (i in seq_len(nrow(ov))) {
    g <- if (sig) ov$gain_significant[i] else ov$gain[i]
    s <- if (sig) ov$speedup_significant[i] else ov$speedup[i]
    lines <- c(lines,
      sprintf("Overall gain (ExecutionTime=%s)%s = %s", ov$centre[i], scope, fmt3(g)),
      sprintf("Overall speedup (ExecutionTime=%s)%s = %s", ov$centre[i], scope, fmt3(s)))
  }
  pr <- suite$proportion
  pr <- pr[pr$protocol %in% original_tool_protocols, , drop = FALSE]
  for (i in seq_len(nrow(pr))) {
    what <- sprintf("(speedup of the %s)", pr$protocol[i])
    lines <- c(lines,
      sprintf("The observed proportion of accelerated benchmarks %s", what),
      sprintf("a/b = %d/%d = %s", as.integer(pr$a[i]), as.integer(pr$b[i]),
              fmt3(pr$estimate[i])),
      sprintf("The confidence level for computing proportion confidence interval is %s.",
              format(pr$conf_level[i])),
      sprintf("Proportion confidence interval %s = [%s; %s]", what,
              fmt3(pr$conf_low[i]), fmt3(pr$conf_high[i])))
    if (!isTRUE(pr$valid[i])) {
      lines <- c(lines,
        "Warning: this confidence interval of the proportion may not be accurate because",
        "the validity condition {a(1-a/b) > 5} is not satisfied.")
    }
    nmin <- pr$min_benchmarks[i]
    if (!is.na(nmin) && nmin > 0) {
      lines <- c(lines,
        sprintf("The minimal needed number of randomly selected benchmarks is %s",
                format(nmin)),
        sprintf("(in order to have a precision r=%s).", format(pr$precision[i])))
    }
  }
  # the package's own lines come after the original tool's
  nskip <- sum(suite$problems$severity == "error")
  lines <- c(lines,
    sprintf("Benchmarks analysed: %d (skipped: %d)", nrow(suite$benchmarks), nskip),
    sprintf("Weights: %s%s", suite$weights,
            if (!identical(suite$weights, suite$weights_requested))
              sprintf(" (asked for %s)", suite$weights_requested) else ""))
  extra <- get0("suite_multiplicity_lines", envir = topenv(environment()),
                mode = "function", inherits = FALSE)
  if (!is.null(extra)) lines <- c(lines, extra(suite))
  lines
}

# The .warning file: general notes first, then one block per benchmark.
suite_warning_file_lines <- function(suite, config) {
  msgs <- suite_warning_messages(suite)
  general <- msgs$message[is.na(msgs$benchmark)]
  per <- msgs[!is.na(msgs$benchmark), , drop = FALSE]
  lines <- c(sprintf("Warnings of the analysis of %s", config),
             if (length(general)) paste0("\t", general))
  for (nm in unique(per$benchmark)) {
    lines <- c(lines, sprintf("%s :", nm),
               paste0("\t", per$message[per$benchmark == nm]))
  }
  c(lines, sprintf("%d warning(s).", nrow(msgs)))
}

# Every message of a suite: one row per message, benchmark NA for the notes
# about the whole input. Benchmarks come in the order they were met.
suite_warning_messages <- function(suite) {
  pr <- suite$problems
  nt <- suite$notes
  # the original tool's two protocols only
  if (!is.null(nt$protocol)) {
    nt <- nt[nt$protocol %in% original_tool_protocols, , drop = FALSE]
  }
  msgs <- data.frame(benchmark = c(pr$benchmark, nt$benchmark),
                     message = c(pr$message, nt$message),
                     stringsAsFactors = FALSE)
  if (!nrow(msgs)) return(msgs)
  key <- match(msgs$benchmark, unique(msgs$benchmark[!is.na(msgs$benchmark)]))
  key[is.na(msgs$benchmark)] <- 0L
  msgs <- msgs[order(key, seq_len(nrow(msgs))), , drop = FALSE]
  rownames(msgs) <- NULL
  msgs
}
