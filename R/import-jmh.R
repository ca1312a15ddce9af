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
      return(list(label = sprintf("result %d", i), why = "its entry is not a JSON object"))
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
    list(benchmark = bname, label = sprintf("benchmark \"%s\"", safe_text(bname)), why = why,
         raw = raw, per_op = per_op, scale = scale)
  })
  # the forks of every result at once when they are all plain arrays of
  # numbers (no null, string, true, false, 0 or 1 among them, which
  # json_num() reads one by one): one pass of C for all the scores
  ok <- which(vapply(parts, function(p) is.null(p$why), NA))
  raws <- lapply(parts[ok], `[[`, "raw")
  forks <- unlist(raws, recursive = FALSE, use.names = FALSE)
  flat <- if (length(forks) && all(vapply(raws, function(r) is.null(attributes(r)), NA))) {
    .Call(ffi_json_flat_numbers, forks)
  }
  fast <- !is.null(flat)
  if (fast) {
    vals <- flat$values
    lens <- lengths(forks)
    nf <- lengths(raws)
    fk <- sequence(nf)
    owner <- rep.int(seq_along(ok), nf)
    # the first fork of each result with a score <= 0
    first <- rep(NA_integer_, length(ok))
    hit <- which(flat$nonpos)
    hit <- hit[!duplicated(owner[hit])]
    first[owner[hit]] <- fk[hit]
    for (q in which(!is.na(first))) {
      parts[[ok[q]]]$why <- sprintf("fork %d has a score <= 0", first[q])
    }
  } else {
    for (q in seq_along(ok)) {
      raw <- raws[[q]]
      # each fork's scores read once; json_problem() says what is wrong
      # only with a fork that is not an array of finite numbers
      v <- lapply(raw, json_num)
      for (k in seq_along(raw)) {
        plain <- (is.list(raw[[k]]) || is.atomic(raw[[k]])) && is.null(names(raw[[k]])) &&
          length(v[[k]]) > 0L && all(is.finite(v[[k]]))
        bad <- if (!plain) json_problem(raw[[k]], "rawData")
        if (!is.null(bad)) {
          parts[[ok[q]]]$why <- sprintf("fork %d: %s", k, sub("^its ", "", bad))
          break
        }
        if (any(v[[k]] <= 0)) {
          parts[[ok[q]]]$why <- sprintf("fork %d has a score <= 0", k)
          break
        }
      }
      parts[[ok[q]]]$v <- v
    }
  }
  for (p in parts) {
    if (!is.null(p$why)) problems <- import_skip(problems, path, p$label, p$why)
  }
  good <- vapply(parts, function(p) is.null(p$why), NA)
  if (!any(good)) timings_all_skipped(path, problems, "benchmark")
  if (fast) {
    # the scores of the results kept, with their fork and iteration, built
    # per fork and expanded once
    keep_f <- good[ok][owner]
    lk <- lens[keep_f]
    v <- if (all(keep_f)) vals else vals[rep.int(keep_f, lens)]
    per_op <- vapply(parts[ok], `[[`, NA, "per_op")[owner][keep_f]
    scale <- vapply(parts[ok], `[[`, 0, "scale")[owner][keep_f]
    time <- if (all(per_op) && all(scale == scale[1L])) v * scale[1L] else {
      s <- rep.int(scale, lk)
      ifelse(rep.int(per_op, lk), v * s, s / v)
    }
    process <- rep.int(fk[keep_f], lk)
    iteration <- sequence(lk)
    # the scores kept of each result: its forks' counts summed
    ends <- cumsum(ifelse(keep_f, as.double(lens), 0))[cumsum(nf)]
    per_result <- diff(c(0, ends))
    bench <- rep.int(vapply(parts[ok], `[[`, "", "benchmark"), per_result)
    counts <- per_result[good[ok]]
  } else {
    # plain vectors per benchmark, one data frame at the end (a data frame
    # per fork costs more than its values)
    rows <- lapply(parts[good], function(p) {
      n <- lengths(p$v)
      v <- unlist(p$v, use.names = FALSE)
      list(benchmark = p$benchmark, time = if (p$per_op) v * p$scale else p$scale / v,
           process = rep.int(seq_along(n), n), iteration = sequence(n))
    })
    n <- vapply(rows, function(p) length(p$time), 0L)
    counts <- n
    bench <- rep.int(vapply(rows, `[[`, "", "benchmark"), n)
    cat_field <- function(f) unlist(lapply(rows, `[[`, f), use.names = FALSE)
    time <- cat_field("time")
    process <- cat_field("process")
    iteration <- cat_field("iteration")
  }
  # each result's runs are together: numbered by their counts unless a
  # benchmark name repeats (then across the results of that name)
  names_kept <- vapply(parts[good], `[[`, "", "benchmark")
  run <- if (anyDuplicated(names_kept)) run_within(bench) else sequence(counts)
  version <- if (multi) NA_character_ else file_stem(path)
  out <- timings_part(bench, version, time, run, "sample",
                      process = process, iteration = iteration)
  if (nrow(problems)) attr(out, "problems") <- problems
  out
}
