# Reading the configuration and the sample files of the original SpeedupTest
# tool (SPEC section 5, "Compatibility with the original SpeedupTest tool").

#' Read a SpeedupTest configuration
#'
#' Reads the CSV configuration of the original SpeedupTest tool the way R's
#' `read.csv()` reads it: a header naming the columns `Name`, `Sample1`,
#' `Sample2`, `ConfLevel` and `Coef` (in any order, quoted or not) and one
#' line per benchmark, where `Sample1` and `Sample2` are the files of run
#' times of the initial and of the transformed code, `ConfLevel` the
#' benchmark's confidence level and `Coef` its custom weight.
#'
#' * Fields may be quoted (`"gcc"`) or not; an empty field or `NA` is
#'   missing. A missing `ConfLevel` means "search the highest confidence
#'   level" for that benchmark; a missing `Coef` is a missing custom weight
#'   (with custom weights, [speedup_suite()] then falls back to equal weights
#'   with a note). Whole-number weights are honoured.
#' * Columns other than the five are ignored, with a note; a missing required
#'   column is an error of class `speeduptest_error_file`.
#' * Relative sample paths are resolved against the configuration's folder,
#'   then against the working directory.
#' * A sample file is read as the first column of a headerless CSV file:
#'   empty fields and `NA` are dropped, blank lines and lines starting with
#'   `#` are ignored.
#' * The configuration and the sample files are checked before they are
#'   opened: each must be a regular file no larger than
#'   `getOption("speeduptest.max_file_size", 2^32)` bytes, so a named pipe
#'   (FIFO) or a device is refused at once instead of blocking the read (an
#'   error for the configuration, a skipped benchmark for a sample file).
#'   Files in UTF-16 or UTF-32 (with a byte-order mark, or UTF-16 of ASCII
#'   text without one) are decoded.
#'
#' A bad line or a bad sample file never stops the reading: a line that
#' cannot be split into fields, has no name, repeats a name, lacks a sample
#' file or has a `ConfLevel` that is not a number in (0, 1), and a sample
#' file that does not exist, is not a regular file, cannot be read, is
#' binary, holds bytes that are not valid UTF-8, holds text or holds no
#' usable run time, skips its
#' benchmark only, with a warning of class `speeduptest_warning_config` or
#' `speeduptest_warning_file`. Bytes that are not valid UTF-8 in the
#' configuration (a Latin-1 benchmark name, say) skip their line only; the
#' benchmark is then named with the bad bytes written as `<e9>`. Every
#' problem is kept in the `problems` attribute of the result, and
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
  file <- check_path(file, "file")
  shown <- safe_text(file)
  raw <- read_text_bytes(file)
  if (is.character(raw)) {
    abort(sprintf("cannot read the configuration file '%s': it %s.", shown, raw),
          class = "file")
  }
  if (length(grepRaw(as.raw(0L), raw, fixed = TRUE))) {
    abort(sprintf("cannot read the configuration file '%s': it is a binary file, not a CSV file.",
                  shown), class = "file")
  }
  lines <- split_lines(raw)
  if (length(lines)) lines[1L] <- sub("^\xef\xbb\xbf", "", lines[1L], useBytes = TRUE)
  keep <- grepl("[^[:space:]]", lines, useBytes = TRUE) &
    !grepl("^[[:space:]]*#", lines, useBytes = TRUE)
  lineno <- which(keep)
  if (!length(lineno)) {
    abort(sprintf("the configuration file '%s' is empty: it needs the header Name,Sample1,Sample2,ConfLevel,Coef.",
                  shown), class = "file")
  }
  first <- lines[lineno[1L]]
  header <- if (validUTF8(first)) config_fields(first) else NULL
  if (is.null(header)) {
    abort(sprintf("line %d of '%s' must be the header Name,Sample1,Sample2,ConfLevel,Coef, not \"%s\".",
                  lineno[1L], shown, safe_text(first)), class = "file")
  }
  required <- c("Name", "Sample1", "Sample2", "ConfLevel", "Coef")
  cols <- tolower(header)
  absent <- required[!(tolower(required) %in% cols)]
  if (length(absent)) {
    abort(sprintf("the configuration file '%s' lacks the column(s) %s: its header (line %d) must name Name,Sample1,Sample2,ConfLevel,Coef, not \"%s\".",
                  shown, paste(absent, collapse = ", "), lineno[1L], first),
          class = "file")
  }
  dup <- unique(cols[duplicated(cols) & cols %in% tolower(required)])
  if (length(dup)) {
    abort(sprintf("the configuration file '%s' names the column(s) %s twice.",
                  shown, paste(required[tolower(required) %in% dup], collapse = ", ")),
          class = "file")
  }
  problems <- empty_problems()
  config <- list()
  note <- function(name, where, severity, msg) {
    warn(msg, class = where, benchmark = name)
    problems <<- add_problem(problems, name, where, severity, msg)
  }
  extra <- header[!(cols %in% tolower(required))]
  if (length(extra)) {
    note(NA_character_, "config", "warning", sprintf(
      "column(s) %s of '%s' ignored (the columns used are Name, Sample1, Sample2, ConfLevel, Coef).",
      paste0("\"", extra, "\"", collapse = ", "), basename(shown)))
  }
  pos <- match(tolower(required), cols)
  names(pos) <- tolower(required)
  base <- dirname(file)
  for (i in lineno[-1L]) {
    where_line <- sprintf("line %d of '%s'", i, basename(shown))
    line <- lines[i]
    if (!validUTF8(line)) {
      f <- config_fields(safe_text(line))
      name <- if (length(f) >= pos[["name"]] && nzchar(f[[pos[["name"]]]]))
        f[[pos[["name"]]]] else sprintf("line %d", i)
      note(name, "config", "error", sprintf(
        "%s holds bytes that are not valid UTF-8 (written here as <xx>; save the configuration as UTF-8): \"%s\"; benchmark skipped.",
        where_line, safe_text(line)))
      next
    }
    f <- config_fields(line)
    if (is.null(f) || length(f) > length(cols)) {
      note(sprintf("line %d", i), "config", "error", sprintf(
        "%s is malformed (expected at most %d comma-separated fields, found %s): \"%s\"; line skipped.",
        where_line, length(cols), if (is.null(f)) "none" else length(f), line))
      next
    }
    # read.csv(fill = TRUE): a short line is padded with missing fields
    f <- c(f, rep("", length(cols) - length(f)))
    f[f == "NA"] <- ""
    field <- function(col) f[[pos[[col]]]]
    name <- field("name")
    if (!nzchar(name)) {
      note(sprintf("line %d", i), "config", "error", sprintf(
        "%s has no benchmark name: \"%s\"; line skipped.", where_line, line))
      next
    }
    if (name %in% names(config)) {
      note(name, "config", "error", sprintf(
        "%s repeats the benchmark name \"%s\"; line skipped.", where_line, name))
      next
    }
    if (!nzchar(field("sample1")) || !nzchar(field("sample2"))) {
      note(name, "config", "error", sprintf(
        "%s: benchmark \"%s\" needs two sample files (Sample1, Sample2); benchmark skipped.",
        where_line, name))
      next
    }
    level <- NA_real_
    if (nzchar(field("conflevel"))) {
      level <- suppressWarnings(as.numeric(field("conflevel")))
      if (is.na(level) || level <= 0 || level >= 1) {
        note(name, "config", "error", sprintf(
          "%s: the ConfLevel of benchmark \"%s\" must be empty, NA or a number strictly between 0 and 1, not \"%s\"; benchmark skipped.",
          where_line, name, field("conflevel")))
        next
      }
    }
    weight <- NA_real_
    if (nzchar(field("coef"))) {
      weight <- suppressWarnings(as.numeric(field("coef")))
      if (is.na(weight)) {
        note(name, "weights", "warning", sprintf(
          "%s: the Coef of benchmark \"%s\" is not a number (\"%s\"); its weight is missing.",
          where_line, name, field("coef")))
      }
    }
    given <- c(field("sample1"), field("sample2"))
    paths <- vapply(given, resolve_sample_path, "", base = base, USE.NAMES = FALSE)
    x <- read_sample_file(paths[1L])
    y <- read_sample_file(paths[2L])
    bad <- c(if (is.character(x)) sprintf("Sample1 '%s' %s", given[1L], x),
             if (is.character(y)) sprintf("Sample2 '%s' %s", given[2L], y))
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

# Splits one CSV line as read.csv() does (double quotes, surrounding blanks
# stripped); NULL when it cannot.
config_fields <- function(line) {
  # without quotes, the fields between the commas, blanks stripped as
  # scan(strip.white = TRUE) strips them (a last empty field kept)
  if (!grepl("\"", line, fixed = TRUE)) {
    return(trimws(strsplit(paste0(line, ","), ",", fixed = TRUE)[[1L]], whitespace = "[ \t]"))
  }
  tryCatch(
    scan(text = line, what = "", sep = ",", quote = "\"", strip.white = TRUE,
         quiet = TRUE, na.strings = character(), blank.lines.skip = FALSE),
    error = function(e) NULL, warning = function(w) NULL)
}

# Text that is safe to print and match: bytes that are not valid UTF-8 are
# written as <xx>.
safe_text <- function(x) {
  bad <- !is.na(x) & !validUTF8(x)
  x[bad] <- iconv(x[bad], "UTF-8", "UTF-8", sub = "byte")
  x
}

# The bytes of a file, or a string saying why they cannot be read.  What
# the path is (a FIFO would block the read, a device never end) and its
# size are checked before it is opened; the read stops at that size.
read_file_bytes <- function(path) {
  why <- file_problem(path)
  if (!is.null(why)) return(why)
  size <- path_kind(path)$size
  out <- tryCatch(suppressWarnings(readBin(path, "raw", n = max(size, 1))),
                  error = function(e) NULL)
  if (is.null(out)) return("cannot be read (permission denied?)")
  out
}

# Lines of a byte vector (LF or CRLF endings); strings without encoding mark.
split_lines <- function(raw) {
  if (!length(raw)) return(character())
  txt <- rawToChar(raw)
  Encoding(txt) <- "unknown"
  lines <- strsplit(txt, "\n", fixed = TRUE, useBytes = TRUE)[[1L]]
  sub("\r$", "", lines, useBytes = TRUE)
}

# A relative sample path is taken in the configuration's folder, then in the
# working directory; the first that exists wins.
resolve_sample_path <- function(path, base) {
  if (grepl("^(/|~|[A-Za-z]:[/\\\\]|\\\\\\\\)", path)) return(path.expand(path))
  local <- file.path(base, path)
  if (file.exists(local) || !file.exists(path)) local else path
}

# The run times of one sample file (the first column of a headerless CSV
# file), or a string saying what is wrong with it.
read_sample_file <- function(path) {
  raw <- read_text_bytes(path)
  if (is.character(raw)) return(raw)
  if (length(grepRaw(as.raw(0L), raw, fixed = TRUE))) {
    return("is a binary file, not a text file of run times")
  }
  lines <- split_lines(raw)
  # the usual file, one number a line (blanks around it allowed, which
  # as.numeric() takes as the steps below do): read at once
  if (all(validUTF8(lines))) {
    v <- suppressWarnings(as.numeric(lines))
    if (length(v) && !anyNA(v) && all(is.finite(v) & v > 0)) return(v)
  }
  if (length(lines)) lines[1L] <- sub("^\xef\xbb\xbf", "", lines[1L], useBytes = TRUE)
  if (!all(validUTF8(lines))) {
    return("holds bytes that are not valid UTF-8 (not a text file of run times)")
  }
  lines <- trimws(lines)
  lines <- lines[nzchar(lines) & !startsWith(lines, "#")]
  first <- trimws(sub(",.*$", "", lines))
  first <- sub("^\"(.*)\"$", "\\1", first)
  first <- first[nzchar(first) & first != "NA"]
  if (!length(first)) return("holds no run time")
  v <- suppressWarnings(as.numeric(first))
  bad <- which(is.na(v))
  if (length(bad)) {
    shown <- utils::head(bad, 3L)
    return(sprintf("holds %d value(s) that are not numbers (e.g. \"%s\")",
                   length(bad), paste(first[shown], collapse = "\", \"")))
  }
  if (any(!is.finite(v) | v <= 0)) {
    return(sprintf("holds %d run time(s) that are not positive finite numbers",
                   sum(!is.finite(v) | v <= 0)))
  }
  v
}
