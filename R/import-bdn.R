# BenchmarkDotNet's full JSON export (--exporters json, or
# [JsonExporterAttribute.Full]): {"Title", "HostEnvironmentInfo": {...},
# "Benchmarks": [{"DisplayInfo", "Namespace", "Type", "Method",
# "MethodTitle", "Parameters", "FullName", "Statistics": {...},
# "Measurements": [{"IterationMode", "IterationStage", "LaunchIndex",
# "IterationIndex", "Operations", "Nanoseconds"}, ...], ...}, ...]}.
# Each launch is a process; in it the engine runs the overhead and the
# workload through the stages Jitting, Pilot, Warmup and Actual, and
# derives "Result" measurements (Actual less the overhead).  Kept: the
# workload's Warmup (marked warmup = TRUE) and Actual measurements, in the
# order they ran, both as measured (Nanoseconds / Operations per
# operation), so that the warm-up and the measurements are on one footing;
# the brief export has no Measurements.

import_bdn <- function(path, metric = NULL, multi = FALSE, name = NULL,
                       src = NULL) {
  timings_metric(metric, "Measurements", path, "BenchmarkDotNet")
  j <- src$json %||% timings_json(path, src$sniff)
  b <- if (is.list(j) && !is.null(names(j))) j$Benchmarks
  if (!is.list(b)) {
    abort(sprintf("'%s' is not a BenchmarkDotNet file: it has no \"Benchmarks\" array.",
                  safe_text(path)), class = c("format", "file"))
  }
  if (!length(b)) timings_empty(path, "the BenchmarkDotNet file lists no benchmark")
  problems <- empty_problems()
  nb <- length(b)
  text1 <- function(v) if (is.character(v) && length(v) == 1L && !is.na(v)) v else NA_character_
  is_obj <- vapply(b, function(r) is.list(r) && !is.null(names(r)), NA)
  bname <- rep(NA_character_, nb)
  bname[is_obj] <- vapply(which(is_obj), function(i) {
    r <- b[[i]]
    nm <- text1(r$FullName)
    if (is.na(nm)) {
      tm <- c(text1(r$Type), text1(r$Method))
      nm <- if (anyNA(tm)) paste0("benchmark ", i) else paste(tm, collapse = ".")
      p <- text1(r$Parameters)
      if (!is.na(p) && nzchar(p)) nm <- sprintf("%s(%s)", nm, p)
    }
    nm
  }, "")
  why <- rep(NA_character_, nb)
  ms <- vector("list", nb)
  ms[is_obj] <- lapply(b[is_obj], function(r) r$Measurements)
  no_m <- is_obj & !vapply(ms, function(m) is.list(m) && length(m) > 0L, NA)
  why[no_m] <- "it has no \"Measurements\" (the brief export leaves them out: export the full JSON)"
  has <- is_obj & !no_m
  # the measurements of every benchmark at once: each field by primitives
  # (no function call per measurement), NA where it is not one string or
  # one number; `owner` is the benchmark of each measurement
  m <- unlist(ms[has], recursive = FALSE, use.names = FALSE)
  owner <- rep.int(which(has), lengths(ms[has]))
  obj <- vapply(m, is.list, NA)
  get <- function(key) {
    v <- vector("list", length(m))
    v[obj] <- lapply(m[obj], `[[`, key)
    v
  }
  text <- function(v) {
    ok <- lengths(v) == 1L & vapply(v, is.character, NA)
    out <- rep(NA_character_, length(v))
    out[ok] <- unlist(v[ok], use.names = FALSE)
    out
  }
  mode <- text(get("IterationMode"))
  stage <- text(get("IterationStage"))
  launch <- json_num(get("LaunchIndex"))
  index <- json_num(get("IterationIndex"))
  ops <- json_num(get("Operations"))
  ns <- json_num(get("Nanoseconds"))
  keep <- mode %in% "Workload" & stage %in% c("Warmup", "Actual")
  none <- has & tabulate(owner[keep], nb) == 0L
  why[none] <- "it has no workload measurement of the Warmup or Actual stage"
  bad <- keep & (is.na(launch) | is.na(index) | !is.finite(ops) | ops <= 0 |
                   !is.finite(ns) | ns <= 0)
  nbad <- tabulate(owner[bad], nb)
  spoiled <- has & !none & nbad > 0L
  why[spoiled] <- sprintf("%d of its workload measurements lack a launch, an index, or a positive number of operations and of nanoseconds",
                          nbad[spoiled])
  for (i in which(!is_obj | !is.na(why))) {
    if (!is_obj[i]) {
      problems <- import_skip(problems, path, sprintf("benchmark %d", i),
                              "its entry is not a JSON object")
    } else {
      problems <- import_skip(problems, path, sprintf("benchmark \"%s\"", safe_text(bname[i])),
                              why[i])
    }
  }
  good <- is_obj & is.na(why)
  if (!any(good)) timings_all_skipped(path, problems, "benchmark")
  keep <- keep & good[owner]
  warm <- stage[keep] == "Warmup"
  ow <- owner[keep]
  la <- launch[keep]
  # per benchmark, warm-ups ran before the actual iterations
  o <- order(ow, la, ifelse(warm, 0, 1e9) + index[keep])
  ow <- ow[o]
  la <- la[o]
  bench <- bname[ow]
  run <- run_within(bench)
  version <- if (multi) NA_character_ else file_stem(path)
  out <- timings_part(bench, version, (ns[keep] / ops[keep] * 1e-9)[o], run, "sample",
                      process = as.integer(la), iteration = run_within(ow, la),
                      warmup = warm[o])
  if (nrow(problems)) attr(out, "problems") <- problems
  out
}
