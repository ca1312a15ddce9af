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
  text1 <- function(v) if (is.character(v) && length(v) == 1L && !is.na(v)) v else NA_character_
  parts <- lapply(seq_along(b), function(i) {
    r <- b[[i]]
    if (!is.list(r) || is.null(names(r))) {
      problems <<- import_skip(problems, path, sprintf("benchmark %d", i),
                               "its entry is not a JSON object")
      return(NULL)
    }
    bname <- text1(r$FullName)
    if (is.na(bname)) {
      tm <- c(text1(r$Type), text1(r$Method))
      bname <- if (anyNA(tm)) paste0("benchmark ", i) else paste(tm, collapse = ".")
      p <- text1(r$Parameters)
      if (!is.na(p) && nzchar(p)) bname <- sprintf("%s(%s)", bname, p)
    }
    m <- r$Measurements
    why <- NULL
    if (!is.list(m) || !length(m)) {
      why <- "it has no \"Measurements\" (the brief export leaves them out: export the full JSON)"
    }
    rows <- NULL
    if (is.null(why)) {
      # each field of every measurement by primitives (no function call
      # per measurement): NA where it is not one string or one number
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
      if (!any(keep)) {
        why <- "it has no workload measurement of the Warmup or Actual stage"
      } else {
        bad <- keep & (is.na(launch) | is.na(index) | !is.finite(ops) | ops <= 0 |
                         !is.finite(ns) | ns <= 0)
        if (any(bad)) {
          why <- sprintf("%d of its workload measurements lack a launch, an index, or a positive number of operations and of nanoseconds",
                         sum(bad))
        }
      }
      if (is.null(why)) {
        warm <- stage[keep] == "Warmup"
        la <- launch[keep]
        # warm-ups ran before the actual iterations
        o <- order(la, ifelse(warm, 0, 1e9) + index[keep])
        la <- la[o]
        rows <- list(benchmark = bname, time = (ns[keep] / ops[keep] * 1e-9)[o],
                     launch = la, warmup = warm[o], iteration = run_within(la))
      }
    }
    if (!is.null(why)) {
      problems <<- import_skip(problems, path, sprintf("benchmark \"%s\"", safe_text(bname)), why)
      return(NULL)
    }
    rows
  })
  parts <- parts[!vapply(parts, is.null, NA)]
  if (!length(parts)) timings_all_skipped(path, problems, "benchmark")
  field <- function(f) unlist(lapply(parts, `[[`, f), use.names = FALSE)
  time <- field("time")
  bench <- rep.int(vapply(parts, `[[`, "", "benchmark"), lengths(lapply(parts, `[[`, "time")))
  d <- list(benchmark = bench, time = time, launch = field("launch"),
            iteration = field("iteration"), warmup = field("warmup"))
  run <- run_within(d$benchmark)
  version <- if (multi) NA_character_ else file_stem(path)
  out <- timings_part(d$benchmark, version, d$time, run, "sample",
                      process = as.integer(d$launch), iteration = d$iteration,
                      warmup = d$warmup)
  if (nrow(problems)) attr(out, "problems") <- problems
  out
}
