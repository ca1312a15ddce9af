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
  body <- lineno[-1L]
  ncol <- length(cols)
  where_line <- sprintf("line %d of '%s'", body, basename(shown))
  valid <- validUTF8(lines[body])
  # the fields of every line at once: the lines without quotes split
  # together, as config_fields() splits one; a line with quotes by itself
  plain <- valid & !grepl("\"", lines[body], fixed = TRUE, useBytes = TRUE)
  fields <- vector("list", length(body))
  fields[plain] <- strsplit(paste0(lines[body][plain], ","), ",", fixed = TRUE)
  if (any(plain)) {
    len <- lengths(fields[plain])
    fields[plain] <- unname(split(trimws(unlist(fields[plain], use.names = FALSE),
                                         whitespace = "[ \t]"),
                                  rep.int(seq_along(len), len)))
  }
  for (k in which(valid & !plain)) {
    fields[k] <- list(config_fields(lines[body][k]))
  }
  nf <- lengths(fields)
  malformed <- valid & (vapply(fields, is.null, NA) | nf > ncol)
  ok <- valid & !malformed
  # the five columns of the well-formed lines (read.csv(fill = TRUE): a
  # short line padded with missing fields; NA a missing field)
  starts <- cumsum(c(0L, nf[ok]))[seq_len(sum(ok))]
  flat <- unlist(fields[ok], use.names = FALSE)
  column <- function(col) {
    out <- rep("", length(body))
    p <- pos[[col]]
    has <- nf[ok] >= p
    v <- flat[starts[has] + p]
    v[v == "NA"] <- ""
    out[ok][has] <- v
    out
  }
  name <- column("name")
  s1 <- column("sample1")
  s2 <- column("sample2")
  lev_txt <- column("conflevel")
  coef_txt <- column("coef")
  named <- ok & nzchar(name)
  # what skips a named line before its sample files are read
  level <- rep(NA_real_, length(body))
  has_level <- named & nzchar(lev_txt)
  level[has_level] <- suppressWarnings(as.numeric(lev_txt[has_level]))
  no_sample <- named & (!nzchar(s1) | !nzchar(s2))
  bad_level <- named & !no_sample & has_level & (is.na(level) | level <= 0 | level >= 1)
  weight <- rep(NA_real_, length(body))
  has_coef <- named & nzchar(coef_txt)
  weight[has_coef] <- suppressWarnings(as.numeric(coef_txt[has_coef]))
  bad_weight <- named & !no_sample & !bad_level & has_coef & is.na(weight)
  # the sample files of the lines that may be kept, each read once
  cand <- named & !no_sample & !bad_level
  paths1 <- paths2 <- rep(NA_character_, length(body))
  paths1[cand] <- resolve_sample_paths(s1[cand], base)
  paths2[cand] <- resolve_sample_paths(s2[cand], base)
  uniq <- unique(c(paths1[cand], paths2[cand]))
  samples <- read_sample_files(uniq)
  x <- samples[match(paths1, uniq)]
  y <- samples[match(paths2, uniq)]
  bad_file <- cand & (vapply(x, is.character, NA) | vapply(y, is.character, NA))
  # a line is eventful when it notes a problem or its name is repeated:
  # those are walked in order (a repeated name is skipped only after a
  # kept line of that name), the others are kept
  repeated <- named & (name %in% name[named][duplicated(name[named])])
  eventful <- !valid | malformed | !named | repeated | no_sample | bad_level |
    bad_weight | bad_file
  keep <- cand & !bad_file & !eventful
  kept <- character()
  for (k in which(eventful)) {
    i <- body[k]
    line <- lines[i]
    if (!valid[k]) {
      f <- config_fields(safe_text(line))
      nm <- if (length(f) >= pos[["name"]] && nzchar(f[[pos[["name"]]]]))
        f[[pos[["name"]]]] else sprintf("line %d", i)
      note(nm, "config", "error", sprintf(
        "%s holds bytes that are not valid UTF-8 (written here as <xx>; save the configuration as UTF-8): \"%s\"; benchmark skipped.",
        where_line[k], safe_text(line)))
      next
    }
    if (malformed[k]) {
      f <- fields[[k]]
      note(sprintf("line %d", i), "config", "error", sprintf(
        "%s is malformed (expected at most %d comma-separated fields, found %s): \"%s\"; line skipped.",
        where_line[k], ncol, if (is.null(f)) "none" else length(f), line))
      next
    }
    nm <- name[k]
    if (!named[k]) {
      note(sprintf("line %d", i), "config", "error", sprintf(
        "%s has no benchmark name: \"%s\"; line skipped.", where_line[k], line))
      next
    }
    if (nm %in% kept) {
      note(nm, "config", "error", sprintf(
        "%s repeats the benchmark name \"%s\"; line skipped.", where_line[k], nm))
      next
    }
    if (no_sample[k]) {
      note(nm, "config", "error", sprintf(
        "%s: benchmark \"%s\" needs two sample files (Sample1, Sample2); benchmark skipped.",
        where_line[k], nm))
      next
    }
    if (bad_level[k]) {
      note(nm, "config", "error", sprintf(
        "%s: the ConfLevel of benchmark \"%s\" must be empty, NA or a number strictly between 0 and 1, not \"%s\"; benchmark skipped.",
        where_line[k], nm, lev_txt[k]))
      next
    }
    if (bad_weight[k]) {
      note(nm, "weights", "warning", sprintf(
        "%s: the Coef of benchmark \"%s\" is not a number (\"%s\"); its weight is missing.",
        where_line[k], nm, coef_txt[k]))
    }
    if (bad_file[k]) {
      bad <- c(if (is.character(x[[k]])) sprintf("Sample1 '%s' %s", s1[k], x[[k]]),
               if (is.character(y[[k]])) sprintf("Sample2 '%s' %s", s2[k], y[[k]]))
      note(nm, "file", "error", sprintf("benchmark \"%s\" skipped: %s.", nm,
                                          paste(bad, collapse = "; ")))
      next
    }
    keep[k] <- TRUE
    kept <- c(kept, nm)
  }
  config <- list()
  if (any(keep)) {
    k <- which(keep)
    config <- .mapply(function(x, y, conf_level, weight, sample1, sample2) {
      list(x = x, y = y, conf_level = conf_level, weight = weight,
           sample1 = sample1, sample2 = sample2)
    }, list(x[k], y[k], level[k], weight[k], paths1[k], paths2[k]), NULL)
    names(config) <- name[k]
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

# The bytes of many regular files (at most `sizes` bytes of each, the sizes
# path_kind() gave) in one pass of C: a list of raw vectors, NULL where a
# file cannot be read.
read_files_raw <- function(paths, sizes) {
  .Call(ffi_read_files, enc2native(as.character(paths)), as.double(sizes))
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

# The sample paths of a configuration, as resolve_sample_path() takes each.
resolve_sample_paths <- function(path, base) {
  out <- path
  abs <- grepl("^(/|~|[A-Za-z]:[/\\\\]|\\\\\\\\)", path)
  out[abs] <- path.expand(path[abs])
  rel <- path[!abs]
  local <- file.path(base, rel)
  # the working directory's only when the configuration's folder has none
  other <- which(!file.exists(local))
  other <- other[file.exists(rel[other])]
  local[other] <- rel[other]
  out[!abs] <- local
  out
}

# read_sample_file() of many files: a list, one element per path (its run
# times, or a string saying what is wrong).  The usual file -- ASCII text
# without NUL, one number a line -- is read with the others: their bytes
# are joined into one text (a newline ending each file), split into lines
# and converted by one as.numeric(); any other file, and a file whose lines
# are not all positive finite numbers, goes to read_sample_file(), which
# gives the same run times or says what is wrong.
read_sample_files <- function(paths) {
  out <- vector("list", length(paths))
  if (!length(paths)) return(out)
  done <- rep(FALSE, length(paths))
  k <- path_kind(paths)
  idx <- which(k$kind == "file" & k$size > 0 & k$size <= max_file_size())
  raws <- read_files_raw(paths[idx], k$size[idx])
  if (length(idx)) {
    # a file that changed size since its stat, or that starts with a byte
    # which may begin a byte-order mark or a multi-byte character, is read
    # alone
    first <- vapply(raws, function(r) if (length(r)) as.integer(r[1L]) else 0L, 0L)
    good <- !vapply(raws, is.null, NA) & lengths(raws) == k$size[idx] & first > 0L &
      first < 128L
    raws <- raws[good]
    idx <- idx[good]
  } else {
    idx <- integer()
  }
  if (length(idx)) {
    # a newline ending every file, so that each line belongs to one file
    last <- vapply(raws, function(r) r[length(r)], as.raw(0L))
    open <- which(last != as.raw(10L))
    raws[open] <- lapply(raws[open], function(r) c(r, as.raw(10L)))
    all <- unlist(raws, use.names = FALSE)
    bounds <- c(0L, cumsum(lengths(raws)))
    rm(raws)
    # a file holding a NUL byte is read alone (a binary file)
    nul <- grepRaw(as.raw(0L), all, fixed = TRUE, all = TRUE)
    has_nul <- tabulate(findInterval(nul - 1L, bounds), length(idx)) > 0L
    all[nul] <- as.raw(32L)
    nl <- grepRaw(as.raw(10L), all, fixed = TRUE, all = TRUE)
    file_of <- findInterval(nl - 1L, bounds)
    rm(nl)
    txt <- rawToChar(all)
    Encoding(txt) <- "unknown"
    rm(all)
    lines <- strsplit(txt, "\n", fixed = TRUE, useBytes = TRUE)[[1L]]
    rm(txt)
    # (as.numeric() stops at bytes that are not UTF-8: those lines are
    # left out of it, and their files read alone)
    valid <- validUTF8(lines)
    v <- rep(NA_real_, length(lines))
    v[valid] <- suppressWarnings(as.numeric(lines[valid]))
    line_bad <- !(is.finite(v) & v > 0)
    rm(lines)
    # a file with a line that is not a positive finite number is read alone
    ok <- !(tabulate(file_of[line_bad], length(idx)) > 0L | has_nul)
    # the files' lines are consecutive: file_of is sorted, a factor as it is
    pieces <- split(v, structure(file_of, levels = as.character(seq_along(idx)),
                                 class = "factor"))
    out[idx[ok]] <- unname(pieces[ok])
    done[idx[ok]] <- TRUE
  }
  for (i in which(!done)) out[i] <- list(read_sample_file(paths[i]))
  out
}
