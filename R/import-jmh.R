# JMH's JSON (java -jar benchmarks.jar -rf json -rff FILE): an array of
# results [{"jmhVersion", "benchmark", "mode", "threads", "forks",
# "warmupIterations", "measurementIterations", "params"?, "primaryMetric":
# {"score", "scoreUnit", "rawData": [[fork 1's iteration scores], [fork 2's],
# ...]}, "secondaryMetrics"}, ...].  Each fork is a JVM process and its
# iterations ran in order in it; JMH does not write the warm-up iterations.
# A score is per operation in the average-time ("avgt") and single-shot
# ("ss") modes (scoreUnit "ns/op", "us/op", ...) and operations per unit of
# time in the throughput mode ("thrpt", "ops/ms", ...): its inverse is the
# time per operation.  The sample mode keeps a histogram of all invocations
# ("rawDataHistogram") rather than one score per iteration: it is skipped.

jmh_units <- c(ns = 1e-9, us = 1e-6, "\u00b5s" = 1e-6, ms = 1e-3, s = 1,
               min = 60, hr = 3600)

# "ns/op" as c("ns/op", "ns", "op"), each unit split once per session
jmh_unit_cache <- new.env(parent = emptyenv())
jmh_unit_parts <- function(unit) {
  if (is.na(unit) || !nzchar(unit)) return(character())
  m <- jmh_unit_cache[[unit]]
  if (is.null(m)) {
    m <- regmatches(unit, regexec("^(.+)/(.+)$", unit))[[1L]]
    assign(unit, m, envir = jmh_unit_cache)
  }
  m
}

import_jmh <- function(path, metric = NULL, multi = FALSE, name = NULL,
                       src = NULL) {
  timings_metric(metric, "primaryMetric", path, "JMH")
  j <- src$json %||% timings_json(path, src$sniff)
  if (!is.list(j) || !is.null(names(j))) {
    abort(sprintf("'%s' is not a JMH file: it is not an array of results.",
                  safe_text(path)), class = c("format", "file"))
  }
  if (!length(j)) timings_empty(path, "the JMH file lists no benchmark")
  problems <- empty_problems()
  parts <- lapply(seq_along(j), function(i) {
    r <- j[[i]]
    if (!is.list(r) || is.null(names(r))) {
      problems <<- import_skip(problems, path, sprintf("result %d", i),
                               "its entry is not a JSON object")
      return(NULL)
    }
    bname <- r$benchmark
    if (!(is.character(bname) && length(bname) == 1L)) bname <- paste0("benchmark ", i)
    params <- r$params
    if (is.list(params) && length(params) && !is.null(names(params))) {
      vals <- vapply(params, function(v) if (length(v) == 1L) as.character(v) else "?", "")
      bname <- sprintf("%s:%s", bname, paste(names(params), vals, sep = "=", collapse = ","))
    }
    pm <- r$primaryMetric
    mode <- if (is.character(r$mode) && length(r$mode) == 1L) r$mode else NA_character_
    unit <- if (is.list(pm) && is.character(pm$scoreUnit) && length(pm$scoreUnit) == 1L)
      pm$scoreUnit else NA_character_
    why <- NULL
    if (!is.list(pm)) why <- "it has no \"primaryMetric\" object"
    if (is.null(why) && identical(mode, "sample")) {
      why <- "the sample mode keeps a histogram of invocations, not one score per iteration; run it in the avgt or ss mode"
    }
    per_op <- NA
    scale <- NA_real_
    if (is.null(why)) {
      m <- jmh_unit_parts(unit)
      if (length(m) == 3L && m[3L] == "op" && m[2L] %in% names(jmh_units)) {
        per_op <- TRUE
        scale <- jmh_units[[m[2L]]]
      } else if (length(m) == 3L && m[2L] == "ops" && m[3L] %in% names(jmh_units)) {
        per_op <- FALSE
        scale <- jmh_units[[m[3L]]]
      } else {
        why <- sprintf("its score unit %s is not a time per operation or operations per time",
                       if (is.na(unit)) "(missing)" else sprintf("\"%s\"", safe_text(unit)))
      }
    }
    raw <- if (is.null(why)) pm$rawData
    if (is.null(why) && (!is.list(raw) || !length(raw) || !is.null(names(raw)))) {
      why <- "its \"primaryMetric\" has no \"rawData\" array of forks"
    }
    if (is.null(why)) {
      # each fork's scores read once; json_problem() says what is wrong
      # only with a fork that is not an array of finite numbers
      v <- lapply(raw, json_num)
      for (k in seq_along(raw)) {
        plain <- (is.list(raw[[k]]) || is.atomic(raw[[k]])) && is.null(names(raw[[k]])) &&
          length(v[[k]]) > 0L && all(is.finite(v[[k]]))
        bad <- if (!plain) json_problem(raw[[k]], "rawData")
        if (!is.null(bad)) {
          why <- sprintf("fork %d: %s", k, sub("^its ", "", bad))
          break
        }
        if (any(v[[k]] <= 0)) {
          why <- sprintf("fork %d has a score <= 0", k)
          break
        }
      }
    }
    if (!is.null(why)) {
      problems <<- import_skip(problems, path, sprintf("benchmark \"%s\"", safe_text(bname)), why)
      return(NULL)
    }
    # plain vectors per benchmark, one data frame at the end (a data frame
    # per fork costs more than its values)
    n <- lengths(v)
    v <- unlist(v, use.names = FALSE)
    list(benchmark = bname, time = if (per_op) v * scale else scale / v,
         process = rep.int(seq_along(n), n), iteration = sequence(n))
  })
  parts <- parts[!vapply(parts, is.null, NA)]
  if (!length(parts)) timings_all_skipped(path, problems, "benchmark")
  n <- vapply(parts, function(p) length(p$time), 0L)
  bench <- rep.int(vapply(parts, `[[`, "", "benchmark"), n)
  cat_field <- function(f) unlist(lapply(parts, `[[`, f), use.names = FALSE)
  run <- run_within(bench)
  version <- if (multi) NA_character_ else file_stem(path)
  out <- timings_part(bench, version, cat_field("time"), run, "sample",
                      process = cat_field("process"), iteration = cat_field("iteration"))
  if (nrow(problems)) attr(out, "problems") <- problems
  out
}
