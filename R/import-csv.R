# Two plain-text sources: a long CSV of run times (benchmark, version, time
# [, run]) and the configuration of the original SpeedupTest tool (read by
# read_speedup_config() in suite-io.R).

import_timings_csv <- function(path, metric = NULL, multi = FALSE, name = NULL) {
  d <- tryCatch(
    utils::read.csv(path, stringsAsFactors = FALSE, check.names = FALSE,
                    strip.white = TRUE, comment.char = "#",
                    encoding = "UTF-8"),
    error = function(e) {
      abort(sprintf("'%s' is not a readable CSV: %s", path, conditionMessage(e)),
            class = c("format", "file"))
    })
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
  time <- d[[tcol]]
  if (!is.numeric(time)) {
    abort(sprintf("'%s': column \"%s\" must hold numbers (seconds), not text such as \"%s\".",
                  path, tcol, as.character(time[!is.na(time)][1L])),
          class = c("format", "file"))
  }
  bcol <- col("benchmark")
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
    run <- stats::ave(seq_len(nrow(d)), paste(bench, version, sep = "\r"),
                      FUN = seq_along)
  }
  extra <- d[setdiff(names(d), c(tcol, bcol, vcol, rcol))]
  do.call(timings_part, c(list(bench, version, time, run, "sample"),
                          as.list(extra),
                          list(named = is.null(bcol) && !is.null(name))))
}

# The SpeedupTest configuration: versions Sample1 (initial) and Sample2.
import_speedup_config <- function(path, metric = NULL, multi = FALSE, name = NULL) {
  if (!is.null(metric)) {
    abort(sprintf("`metric` must be NULL for the SpeedupTest configuration '%s', not \"%s\".",
                  path, metric))
  }
  if (multi) {
    abort(sprintf("'%s' is a SpeedupTest configuration, which holds both versions: read it alone.",
                  path))
  }
  cfg <- read_speedup_config(path)
  rows <- lapply(names(cfg), function(b) {
    x <- cfg[[b]]$x
    y <- cfg[[b]]$y
    data.frame(benchmark = b, version = rep(c("Sample1", "Sample2"), c(length(x), length(y))),
               time = c(x, y), run = c(seq_along(x), seq_along(y)),
               stringsAsFactors = FALSE)
  })
  d <- do.call(rbind, rows)
  if (is.null(d)) {
    d <- data.frame(benchmark = character(), version = character(),
                    time = double(), run = integer())
  }
  out <- timings_part(d$benchmark, d$version, d$time, d$run, "sample")
  attr(out, "problems") <- attr(cfg, "problems")
  out
}
