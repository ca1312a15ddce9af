# Two plain-text sources: a long CSV of run times (benchmark, version, time
# [, run]) and the configuration of the original SpeedupTest tool (read by
# read_speedup_config() in suite-io.R).

import_timings_csv <- function(path, metric = NULL, multi = FALSE, name = NULL,
                               src = NULL) {
  check_timings_file(path)
  sniff <- src$sniff %||% timings_sniff(path)
  if (sniff$encoding == "binary") timings_binary(path)
  input <- if (sniff$encoding == "UTF-8") list(file = path) else
    list(text = timings_decode(path, sniff))
  unreadable <- function(msg) {
    abort(sprintf("'%s' is not a readable CSV: %s", safe_text(path), safe_text(msg)),
          class = c("format", "file"))
  }
  # separated by semicolons (sniffed by detect_timings_format()): the
  # numbers may have decimal commas, read below
  sep <- sniff$sep %||% {
    h <- strsplit(sub("^[[:space:]]+", "", sniff$head %||% "", useBytes = TRUE),
                  "\r?\n", useBytes = TRUE)[[1L]][1L]
    if (!is.na(h) && grepl(";", h, useBytes = TRUE) && !grepl(",", h, useBytes = TRUE)) ";" else ","
  }
  d <- tryCatch(
    withCallingHandlers(
      do.call(utils::read.csv, c(input, list(
        sep = sep, stringsAsFactors = FALSE, check.names = FALSE, strip.white = TRUE,
        comment.char = "#", encoding = "UTF-8"))),
      warning = function(w) {
        # a NUL byte past the first bytes: binary content, not text
        if (grepl("nul", conditionMessage(w))) unreadable(conditionMessage(w))
      }),
    error = function(e) {
      if (inherits(e, "speeduptest_error")) stop(e)
      unreadable(conditionMessage(e))
    })
  # a UTF-8 byte-order mark left in the first column's name
  names(d)[1L] <- sub("^\xef\xbb\xbf", "", names(d)[1L], useBytes = TRUE)
  d[] <- lapply(d, bytes_safe)
  names(d) <- safe_text(names(d))
  if (!nrow(d)) timings_empty(path, "the CSV has a header but no rows")
  low <- tolower(names(d))
  col <- function(nm) {
    k <- match(tolower(nm), low)
    if (is.na(k)) NULL else names(d)[k]
  }
  tcol <- col(metric %||% "time")
  if (is.null(tcol)) {
    if (!is.null(metric)) {
      abort(sprintf("`metric`: the CSV '%s' has no column \"%s\"; its columns are %s.",
                    path, metric, paste0('"', names(d), '"', collapse = ", ")))
    }
    abort(sprintf("'%s' needs a column \"time\" (run times in seconds); its columns are %s.",
                  path, paste0('"', names(d), '"', collapse = ", ")),
          class = c("format", "file"))
  }
  if (sep == ";") {
    # decimal commas ("0,0123") in the numeric columns
    d[] <- lapply(d, function(v) {
      if (!is.character(v)) return(v)
      num <- suppressWarnings(as.numeric(sub(",", ".", v, fixed = TRUE)))
      if (any(!is.na(v) & nzchar(trimws(v))) &&
          all(is.na(v) | !nzchar(trimws(v)) | !is.na(num))) num else v
    })
  }
  time <- d[[tcol]]
  problems <- empty_problems()
  bcol <- col("benchmark")
  if (!is.numeric(time) || any(is.infinite(time))) {
    # text (or a number too large for a double) in the time column: its
    # benchmarks are left out, with the value that could not be read
    num <- if (is.numeric(time)) time else
      suppressWarnings(as.numeric(as.character(time)))
    bad <- (is.na(num) & !is.na(time) & nzchar(trimws(as.character(time)))) | is.infinite(num)
    bench_of <- if (is.null(bcol)) rep(name %||% file_stem(path), nrow(d)) else
      as.character(d[[bcol]])
    for (b in unique(bench_of[bad])) {
      first <- which(bad & bench_of %in% b)[1L]
      problems <- import_skip(problems, path, sprintf("benchmark \"%s\"", safe_text(b)),
        sprintf("line %d: column \"%s\" holds \"%s\", not a finite number of seconds",
                first + 1L, tcol, safe_text(as.character(time[first]))))
    }
    keep <- !(bench_of %in% bench_of[bad])
    if (!any(keep)) {
      abort(sprintf("'%s': column \"%s\" must hold numbers (seconds), not text such as \"%s\".",
                    safe_text(path), tcol, safe_text(as.character(time[bad][1L]))),
            class = c("format", "file"))
    }
    d <- d[keep, , drop = FALSE]
    time <- num[keep]
    d[[tcol]] <- time
  }
  vcol <- col("version")
  rcol <- col("run")
  bench <- if (is.null(bcol)) name %||% file_stem(path) else as.character(d[[bcol]])
  if (is.null(vcol)) {
    if (!multi) {
      abort(sprintf("'%s' needs a column \"version\" (or give one file per version).",
                    path), class = c("format", "file"))
    }
    version <- NA_character_
  } else {
    version <- as.character(d[[vcol]])
    if (multi && length(unique(version)) > 1L) {
      abort(sprintf("'%s' holds several versions (%s); with several files each must hold one version.",
                    path, paste(utils::head(unique(version), 5L), collapse = ", ")))
    }
    if (multi) version <- NA_character_
  }
  run <- if (is.null(rcol)) NULL else d[[rcol]]
  if (is.null(run) || !is.numeric(run) || anyNA(run)) {
    run <- run_within(bench, rep_len(version, length(bench)))
  }
  # the other columns are kept, but not one named like a column of the
  # result (a "time" column when `metric` reads another one)
  extra <- d[setdiff(names(d), c(tcol, bcol, vcol, rcol, "time", "benchmark", "version",
                                 "run"))]
  out <- do.call(timings_part, c(list(bench, version, time, run, "sample"),
                                 as.list(extra),
                                 list(named = is.null(bcol) && !is.null(name))))
  if (nrow(problems)) attr(out, "problems") <- problems
  out
}

# The SpeedupTest configuration: versions Sample1 (initial) and Sample2.
import_speedup_config <- function(path, metric = NULL, multi = FALSE, name = NULL,
                                  src = NULL) {
  if (!is.null(metric)) {
    abort(sprintf("`metric` must be NULL for the SpeedupTest configuration '%s', not \"%s\".",
                  path, metric))
  }
  if (multi) {
    abort(sprintf("'%s' is a SpeedupTest configuration, which holds both versions: read it alone.",
                  path))
  }
  cfg <- read_speedup_config(path)
  x <- lapply(cfg, `[[`, "x")
  y <- lapply(cfg, `[[`, "y")
  nx <- lengths(x)
  ny <- lengths(y)
  b <- names(cfg) %||% character()
  d <- list(benchmark = rep.int(rep(b, each = 2L), as.vector(rbind(nx, ny))),
            version = rep.int(rep(c("Sample1", "Sample2"), length(b)), as.vector(rbind(nx, ny))),
            time = as.double(unlist(lapply(seq_along(b), function(i) c(x[[i]], y[[i]])),
                                    use.names = FALSE)),
            run = sequence(as.vector(rbind(nx, ny))))
  out <- timings_part(d$benchmark, d$version, d$time, d$run, "sample")
  attr(out, "problems") <- attr(cfg, "problems")
  out
}

# A text column with strings that are not valid UTF-8 (a Latin-1 name, say):
# each byte that is not part of a valid UTF-8 character is written as <e9>,
# as R's format() shows such bytes and as read_speedup_config() names such
# benchmarks, so the string is valid UTF-8 text that prints, aligns, sorts
# and matches everywhere, and different bytes stay different names.  Other
# columns are returned as they are.
bytes_safe <- function(x) {
  if (!is.character(x)) return(x)
  bad <- !is.na(x) & !validUTF8(x)
  if (any(bad)) {
    x[bad] <- safe_text(x[bad])
    Encoding(x[bad]) <- "UTF-8"
  }
  x
}
