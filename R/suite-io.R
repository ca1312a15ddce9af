# Compatibility with the original SpeedupTest command-line tool: its CSV
# configuration, its four output files and its command line (SPEC section 5).

#' Read a SpeedupTest configuration
#'
#' Reads the CSV configuration of the original SpeedupTest tool: a header
#' `Name,Sample1,Sample2,ConfLevel,Coef` and one line per benchmark, where
#' `Sample1` and `Sample2` are text files holding one run time per line of the
#' initial and of the transformed code, `ConfLevel` is the benchmark's
#' confidence level (empty: search the highest) and `Coef` its custom weight
#' (may be empty). The columns `ConfLevel` and `Coef` may be left out.
#'
#' Relative sample paths are taken relative to the directory of the
#' configuration. Blank lines and lines starting with `#` are ignored in both
#' the configuration and the sample files.
#'
#' A bad line or a bad sample file never stops the reading: a malformed line
#' (wrong number of fields, empty name, a level that is not a number in
#' (0, 1), a repeated name) or a sample file that cannot be read, is empty,
#' holds text or times that are not positive, skips its benchmark with a
#' warning of class `speeduptest_warning_config` or `speeduptest_warning_file`;
#' a `Coef` that is not a number is kept as a missing weight with a warning.
#' Every problem is kept in the `problems` attribute of the result, and
#' [speedup_suite()] carries it into its own `problems`.
#'
#' @param file Path of the configuration.
#' @return A named list of class `speedup_config` with one element per
#'   readable benchmark: `list(x, y, conf_level, weight, sample1, sample2)`,
#'   with attributes `problems` (a data frame: benchmark, where, severity,
#'   message) and `file`. Pass it to [speedup_suite()].
#' @seealso [write_speedup_report()], [speeduptest_cli()]
#' @examples
#' cfg <- system.file("extdata", "config.csv", package = "speeduptest")
#' config <- read_speedup_config(cfg)
#' names(config)
#' speedup_suite(config)
#' @export
read_speedup_config <- function(file) {
  if (!is.character(file) || length(file) != 1L || is.na(file)) {
    abort(sprintf("`file` must be a single path, not %s.", describe_value(file)))
  }
  lines <- tryCatch(
    suppressWarnings(readLines(file, warn = FALSE, encoding = "UTF-8")),
    error = function(e) NULL)
  if (is.null(lines) || dir.exists(file)) {
    abort(sprintf("cannot read the configuration file '%s'.", file), class = "file")
  }
  lines <- sub("\r$", "", lines)
  if (length(lines)) lines[1L] <- sub("^\ufeff", "", lines[1L])
  keep <- nzchar(trimws(lines)) & !grepl("^\\s*#", lines)
  lineno <- which(keep)
  if (!length(lineno)) {
    abort(sprintf("the configuration file '%s' is empty: it needs the header Name,Sample1,Sample2,ConfLevel,Coef.",
                  file), class = "file")
  }
  header <- config_fields(lines[lineno[1L]])
  cols <- tolower(header)
  known <- c("name", "sample1", "sample2", "conflevel", "coef")
  if (is.null(header) || !all(c("name", "sample1", "sample2") %in% cols) ||
      !all(cols %in% known) || anyDuplicated(cols)) {
    abort(sprintf("line %d of '%s' must be the header Name,Sample1,Sample2,ConfLevel,Coef (ConfLevel and Coef optional), not \"%s\".",
                  lineno[1L], file, lines[lineno[1L]]), class = "file")
  }
  base <- dirname(file)
  problems <- empty_problems()
  config <- list()
  note <- function(name, where, severity, msg) {
    warn(msg, class = where, benchmark = name)
    problems <<- add_problem(problems, name, where, severity, msg)
  }
  for (i in lineno[-1L]) {
    where_line <- sprintf("line %d of '%s'", i, basename(file))
    f <- config_fields(lines[i])
    if (is.null(f) || length(f) > length(cols) ||
        length(f) < max(match(c("name", "sample1", "sample2"), cols))) {
      note(NA_character_, "config", "error", sprintf(
        "%s is malformed (expected %d comma-separated fields, found %s): \"%s\"; line skipped.",
        where_line, length(cols), if (is.null(f)) "none" else length(f), lines[i]))
      next
    }
    f <- c(f, rep("", length(cols) - length(f)))
    names(f) <- cols
    name <- f[["name"]]
    if (!nzchar(name)) {
      note(NA_character_, "config", "error", sprintf(
        "%s has an empty benchmark name: \"%s\"; line skipped.", where_line, lines[i]))
      next
    }
    if (name %in% names(config)) {
      note(name, "config", "error", sprintf(
        "%s repeats the benchmark name \"%s\"; line skipped.", where_line, name))
      next
    }
    if (!nzchar(f[["sample1"]]) || !nzchar(f[["sample2"]])) {
      note(name, "config", "error", sprintf(
        "%s: benchmark \"%s\" needs two sample files (Sample1, Sample2); line skipped.",
        where_line, name))
      next
    }
    level <- NA_real_
    if ("conflevel" %in% cols && nzchar(f[["conflevel"]])) {
      level <- suppressWarnings(as.numeric(f[["conflevel"]]))
      if (is.na(level) || level <= 0 || level >= 1) {
        note(name, "config", "error", sprintf(
          "%s: the ConfLevel of benchmark \"%s\" must be empty or a number strictly between 0 and 1, not \"%s\"; line skipped.",
          where_line, name, f[["conflevel"]]))
        next
      }
    }
    weight <- NA_real_
    if ("coef" %in% cols && nzchar(f[["coef"]])) {
      weight <- suppressWarnings(as.numeric(f[["coef"]]))
      if (is.na(weight)) {
        note(name, "weights", "warning", sprintf(
          "%s: the Coef of benchmark \"%s\" is not a number (\"%s\"); its weight is missing.",
          where_line, name, f[["coef"]]))
      }
    }
    paths <- c(f[["sample1"]], f[["sample2"]])
    rel <- !grepl("^(/|~|[A-Za-z]:[/\\\\])", paths)
    paths[rel] <- file.path(base, paths[rel])
    x <- read_sample_file(paths[1L])
    y <- read_sample_file(paths[2L])
    bad <- c(if (is.character(x)) sprintf("Sample1 '%s' %s", f[["sample1"]], x),
             if (is.character(y)) sprintf("Sample2 '%s' %s", f[["sample2"]], y))
    if (length(bad)) {
      note(name, "file", "error", sprintf("benchmark \"%s\" skipped: %s.", name,
                                          paste(bad, collapse = "; ")))
      next
    }
    config[[name]] <- list(x = x, y = y, conf_level = level, weight = weight,
                           sample1 = paths[1L], sample2 = paths[2L])
  }
  structure(config, class = c("speedup_config", "list"), problems = problems,
            file = file)
}

# Splits one CSV line (double quotes allowed); NULL when it cannot.
config_fields <- function(line) {
  out <- tryCatch(
    scan(text = line, what = "", sep = ",", quote = "\"", strip.white = TRUE,
         quiet = TRUE, na.strings = character(), blank.lines.skip = FALSE),
    error = function(e) NULL, warning = function(w) NULL)
  out
}

# The run times of one sample file, or a character string saying what is
# wrong with it.
read_sample_file <- function(path) {
  if (!file.exists(path) || dir.exists(path)) return("does not exist")
  lines <- tryCatch(suppressWarnings(readLines(path, warn = FALSE)),
                    error = function(e) NULL)
  if (is.null(lines)) return("cannot be read")
  lines <- trimws(sub("\r$", "", lines))
  lines <- lines[nzchar(lines) & !startsWith(lines, "#")]
  if (!length(lines)) return("is empty (no run time)")
  v <- suppressWarnings(as.numeric(lines))
  bad <- which(is.na(v))
  if (length(bad)) {
    shown <- utils::head(bad, 3L)
    return(sprintf("holds %d line(s) that are not numbers (e.g. \"%s\")",
                   length(bad), paste(lines[shown], collapse = "\", \"")))
  }
  if (any(!is.finite(v) | v <= 0)) {
    return(sprintf("holds %d run time(s) that are not positive finite numbers",
                   sum(!is.finite(v) | v <= 0)))
  }
  v
}

#' Write the four SpeedupTest report files
#'
#' Writes the outputs of the original SpeedupTest tool for a suite:
#'
#' * `<prefix>.out`: a CSV file with one line per analysed benchmark and the
#'   columns `Name, SpeedupMin, SpeedupMean, IsMeanSignificant, MeanConfLevel,
#'   SpeedupMedian, IsMedianSignificant, MedianConfLevel, CoefMin, CoefMean,
#'   CoefMedian`; figures are rounded to 3 decimals, the Coef columns are the
#'   normalised weights (summing to 1) under each centre, and "insufficient
#'   data" is written as not significant (`FALSE`; the reason is in the
#'   `.warning` file);
#' * `<prefix>.report`: the overall gains and speedups of the minimum, mean
#'   and median execution times, then for the mean and for the median the
#'   observed proportion `a/b = p/n = value`, the confidence level used, the
#'   interval `[lo; hi]`, the validity warning when a (1 - a/b) <= 5 and the
#'   minimal number of benchmarks for the precision r (the text of
#'   `format(suite)`);
#' * `<prefix>.warning`: one line per benchmark and protocol whose speedup was
#'   not declared or whose level is not guaranteed, with the reason, and one
#'   line per warning about the input (few runs, illegal weights, ...);
#' * `<prefix>.error`: one line per benchmark or configuration line that could
#'   not be analysed and why.
#'
#' Files with nothing to say are written empty, so that a stale file from an
#' earlier run never remains.
#'
#' @param suite A [speedup_suite()] result.
#' @param prefix Path prefix of the four files.
#' @return The four paths, invisibly.
#' @examples
#' cfg <- system.file("extdata", "config.csv", package = "speeduptest")
#' suite <- speedup_suite(read_speedup_config(cfg))
#' paths <- write_speedup_report(suite, file.path(tempdir(), "example"))
#' readLines(paths[["report"]])
#' @export
write_speedup_report <- function(suite, prefix) {
  if (!inherits(suite, "speedup_suite")) {
    abort(sprintf("`suite` must be a speedup_suite result, not %s.", describe_type(suite)))
  }
  if (!is.character(prefix) || length(prefix) != 1L || is.na(prefix) || !nzchar(prefix)) {
    abort(sprintf("`prefix` must be a single path, not %s.", describe_value(prefix)))
  }
  paths <- c(out = "out", report = "report", warning = "warning", error = "error")
  paths[] <- paste0(prefix, ".", paths)
  write_lines(suite_out_lines(suite), paths[["out"]])
  write_lines(format(suite), paths[["report"]])
  write_lines(suite_warning_lines(suite), paths[["warning"]])
  write_lines(suite_error_lines(suite), paths[["error"]])
  invisible(paths)
}

write_lines <- function(lines, path) {
  ok <- tryCatch({
    con <- file(path, open = "w", encoding = "UTF-8")
    on.exit(close(con))
    writeLines(lines, con)
    TRUE
  }, error = function(e) FALSE, warning = function(w) FALSE)
  if (!ok) abort(sprintf("cannot write the file '%s'.", path), class = "file")
}

csv_field <- function(x) {
  need <- grepl("[\",\n]", x)
  x[need] <- paste0("\"", gsub("\"", "\"\"", x[need]), "\"")
  x
}

suite_out_lines <- function(suite) {
  bm <- suite$benchmarks
  sig <- function(s) ifelse(is.na(s), "FALSE", ifelse(s, "TRUE", "FALSE"))
  body <- paste(
    csv_field(bm$benchmark), fmt3(bm$speedup_min), fmt3(bm$speedup_mean),
    sig(bm$mean_significant), format_level(bm$mean_conf_level),
    fmt3(bm$speedup_median), sig(bm$median_significant),
    format_level(bm$median_conf_level), fmt3(bm$weight_min),
    fmt3(bm$weight_mean), fmt3(bm$weight_median), sep = ",")
  c("Name,SpeedupMin,SpeedupMean,IsMeanSignificant,MeanConfLevel,SpeedupMedian,IsMedianSignificant,MedianConfLevel,CoefMin,CoefMean,CoefMedian",
    if (nrow(bm)) body)
}

format_level <- function(x) {
  out <- as.character(round(x, 4))
  out[is.na(x)] <- "NA"
  out
}

suite_warning_lines <- function(suite) {
  pr <- suite$problems
  w <- pr$message[pr$severity == "warning"]
  nt <- suite$notes
  c(w, if (nrow(nt)) sprintf("benchmark \"%s\": %s", nt$benchmark, nt$message))
}

suite_error_lines <- function(suite) {
  pr <- suite$problems
  pr$message[pr$severity == "error"]
}

#' The SpeedupTest command line
#'
#' A drop-in replacement for the original SpeedupTest command-line tool:
#' reads a configuration (see [read_speedup_config()]), analyses the suite
#' with [speedup_suite()] and writes the four files of
#' [write_speedup_report()]; the report is also printed. Run it with
#' `Rscript -e 'speeduptest::speeduptest_cli()' config.csv --weight equal`,
#' or with the script installed with the package,
#' `system.file("bin", "speeduptest", package = "speeduptest")`.
#'
#' Options:
#' * `--conf-level L`: one confidence level for every benchmark (overrides
#'   the `ConfLevel` column; `NA` searches the highest level everywhere); also
#'   the level of the proportion interval (0.95 otherwise);
#' * `--weight custom|equal|fraction`: the weights (default: `custom` when the
#'   configuration has `Coef` values, `equal` otherwise);
#' * `--precision r`: the precision of the minimal number of benchmarks
#'   (default 0.05);
#' * `-o prefix`: write `prefix.out`, `prefix.report`, `prefix.warning` and
#'   `prefix.error` (default: the configuration's path without its extension);
#' * `--significant-only`: overall gains over the significant benchmarks only;
#' * `-q`, `--quiet`: do not print the report;
#' * `-h`, `--help`: print this usage.
#'
#' Problems with single benchmarks go to the `.warning` and `.error` files
#' and never stop the run; an unreadable configuration or a bad option is an
#' error (after writing the message to `<prefix>.error` when the prefix is
#' known).
#'
#' @param args The command-line arguments.
#' @return The [speedup_suite()] result, invisibly (`NULL` for `--help`).
#' @examples
#' cfg <- system.file("extdata", "config.csv", package = "speeduptest")
#' out <- file.path(tempdir(), "example")
#' speeduptest_cli(c(cfg, "--weight", "equal", "-o", out))
#' list.files(tempdir(), pattern = "^example[.]")
#' @export
speeduptest_cli <- function(args = commandArgs(trailingOnly = TRUE)) {
  opt <- cli_parse(args)
  if (isTRUE(opt$help)) {
    cat(cli_usage, sep = "\n")
    return(invisible(NULL))
  }
  prefix <- opt$prefix
  if (is.null(prefix)) prefix <- sub("\\.[^./\\\\]*$", "", opt$config)
  muffle <- function(w) {
    if (inherits(w, "speeduptest_warning")) invokeRestart("muffleWarning")
  }
  suite <- tryCatch(
    withCallingHandlers({
      config <- read_speedup_config(opt$config)
      speedup_suite(config, conf_level = opt$conf_level, weights = opt$weight,
                    prop_conf_level = if (is.null(opt$conf_level) || is.na(opt$conf_level))
                      0.95 else opt$conf_level,
                    precision = opt$precision,
                    significant_only = opt$significant_only)
    }, warning = muffle),
    error = function(e) {
      try(write_lines(conditionMessage(e), paste0(prefix, ".error")), silent = TRUE)
      stop(e)
    })
  paths <- write_speedup_report(suite, prefix)
  if (!opt$quiet) {
    cat(format(suite), sep = "\n")
    nw <- length(suite_warning_lines(suite))
    ne <- length(suite_error_lines(suite))
    cat(sprintf("\n%d benchmark(s) analysed; %d warning(s), %d error(s).\n",
                nrow(suite$benchmarks), nw, ne))
    cat(sprintf("Wrote %s\n", paste(paths, collapse = ", ")))
  }
  invisible(suite)
}

cli_usage <- c(
  "usage: speeduptest CONFIG.csv [--conf-level L] [--weight custom|equal|fraction]",
  "                   [--precision r] [-o PREFIX] [--significant-only] [-q]",
  "",
  "CONFIG.csv has the header Name,Sample1,Sample2,ConfLevel,Coef and one line per",
  "benchmark (Sample1/Sample2: files with one run time per line; empty ConfLevel:",
  "search the highest level; Coef: custom weight). Writes PREFIX.out, PREFIX.report,",
  "PREFIX.warning and PREFIX.error (PREFIX defaults to CONFIG without extension)."
)

cli_parse <- function(args) {
  if (!is.character(args)) {
    abort(sprintf("`args` must be a character vector, not %s.", describe_type(args)))
  }
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
  bad <- function(msg) abort(paste0(msg, "\n", paste(cli_usage[1:2], collapse = "\n")))
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
      lv <- if (toupper(v) == "NA") NA_real_ else suppressWarnings(as.numeric(v))
      if (toupper(v) != "NA" && (is.na(lv) || lv <= 0 || lv >= 1)) {
        bad(sprintf("--conf-level must be a number strictly between 0 and 1 (or NA), not \"%s\".", v))
      }
      opt$conf_level <- lv
      i <- i + 2L
    } else if (a == "--weight") {
      v <- value(i, a)
      if (!(v %in% c("custom", "equal", "fraction"))) {
        bad(sprintf("--weight must be custom, equal or fraction, not \"%s\".", v))
      }
      opt$weight <- v
      i <- i + 2L
    } else if (a == "--precision") {
      v <- value(i, a)
      r <- suppressWarnings(as.numeric(v))
      if (is.na(r) || r <= 0 || r >= 1) {
        bad(sprintf("--precision must be a number strictly between 0 and 1, not \"%s\".", v))
      }
      opt$precision <- r
      i <- i + 2L
    } else if (a %in% c("-o", "--output")) {
      opt$prefix <- value(i, a)
      i <- i + 2L
    } else if (a == "--significant-only") {
      opt$significant_only <- TRUE
      i <- i + 1L
    } else if (a %in% c("-q", "--quiet")) {
      opt$quiet <- TRUE
      i <- i + 1L
    } else if (startsWith(a, "-") && nchar(a) > 1L) {
      bad(sprintf("unknown option \"%s\".", a))
    } else {
      if (!is.null(opt$config)) bad(sprintf("only one configuration file, not \"%s\" and \"%s\".", opt$config, a))
      opt$config <- a
      i <- i + 1L
    }
  }
  if (!opt$help && is.null(opt$config)) bad("no configuration file given.")
  opt
}
