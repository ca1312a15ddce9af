# criterion.rs keeps each benchmark's samples under target/criterion/<group>/
# <function>/<baseline>/sample.json, where <baseline> is "new" for the last
# run, "base" for the run before it (or any name given with
# --save-baseline), next to benchmark.json (its ids).  sample.json is
# {"sampling_mode": "Linear" | "Flat", "iters": [...], "times": [...]}:
# sample i measured iters[i] iterations taking times[i] nanoseconds in all.

# The sample.json files under a folder.
criterion_samples <- function(dir) {
  f <- list.files(dir, pattern = "^sample\\.json$", recursive = TRUE,
                  full.names = TRUE)
  f[basename(dirname(f)) != "change"]
}

import_criterion <- function(path, metric = NULL, multi = FALSE, name = NULL,
                             src = NULL) {
  timings_metric(metric, "times", path, "criterion.rs")
  if (!dir.exists(path)) {
    d <- criterion_sample(path, src$json)
    bench <- name %||% criterion_name(dirname(path), dirname(dirname(path)))
    return(timings_part(bench, basename(dirname(path)), d$time, seq_along(d$time),
                        "sample", iterations = d$iterations,
                        process = rep(1L, length(d$time)), named = !is.null(name)))
  }
  files <- criterion_samples(path)
  if (!length(files)) {
    abort(sprintf("'%s' holds no criterion.rs sample.json files.", path),
          class = c("format", "file"))
  }
  root <- normalizePath(path)
  bench_dir <- normalizePath(dirname(dirname(files)))
  version <- basename(dirname(files))
  # the small files (two per benchmark and baseline) read in one pass and
  # parsed from memory; any other goes through the per-file reader
  sample_dir <- dirname(files)
  names_json <- json_small_files(file.path(sample_dir, "benchmark.json"))
  samples_json <- json_small_files(files, simplify = TRUE)
  bench <- vapply(seq_along(files), function(i) {
    rel <- if (bench_dir[i] == root) basename(root) else
      substring(bench_dir[i], nchar(root) + 2L)
    criterion_name(sample_dir[i], rel, names_json[[i]])
  }, character(1))
  # a sample file that cannot be read skips that benchmark's baseline only
  problems <- empty_problems()
  parts <- lapply(seq_along(files), function(i) {
    d <- tryCatch(criterion_sample(files[i], samples_json[[i]]), speeduptest_error = function(e) {
      problems <<- import_skip(problems, path, sprintf("benchmark \"%s\" (%s)", bench[i],
                                                       version[i]), conditionMessage(e))
      NULL
    })
    if (is.null(d)) return(NULL)
    d$file <- i
    d
  })
  parts <- parts[!vapply(parts, is.null, NA)]
  if (!length(parts)) {
    timings_all_skipped(path, problems, "sample")
  }
  # base (the earlier run) first, then new, then other saved baselines: the
  # files in that order (stable), their rows kept together
  lev <- unique(c(intersect(c("base", "new"), version), sort(unique(version))))
  file <- vapply(parts, `[[`, 0L, "file")
  parts <- parts[order(match(version[file], lev))]
  file <- vapply(parts, `[[`, 0L, "file")
  n <- vapply(parts, function(p) length(p$time), 0L)
  cat_field <- function(f) unlist(lapply(parts, `[[`, f), use.names = FALSE)
  v <- version[file]
  if (multi && length(unique(v)) > 1L) {
    abort(sprintf("'%s' holds several criterion.rs baselines (%s); with several paths give one baseline folder or sample.json per version.",
                  path, paste(unique(v), collapse = ", ")))
  }
  # the baselines as a factor of their codes, in the order of the rows
  present <- unique(v)
  d <- list(time = cat_field("time"), iterations = cat_field("iterations"),
            benchmark = rep.int(bench[file], n),
            version = if (multi) NA_character_ else
              structure(rep.int(match(v, present), n), levels = present, class = "factor"),
            run = sequence(n), process = rep.int(file, n))
  out <- timings_part(d$benchmark, d$version, d$time, d$run, "sample",
                      iterations = d$iterations, process = d$process, named = FALSE)
  if (nrow(problems)) attr(out, "problems") <- problems
  out
}

criterion_sample <- function(file, json = NULL) {
  j <- json %||% timings_json_small(file, simplify = TRUE)
  if (is.list(j) && (json_maybe_boolean(j$times) || json_maybe_boolean(j$iters))) {
    j <- timings_json_small(file, simplify = FALSE)
  }
  if (!is.list(j) || is.null(j$iters) || is.null(j$times)) {
    abort(sprintf("'%s' is not a criterion.rs sample.json: it needs \"iters\" and \"times\".",
                  safe_text(file)), class = c("format", "file"))
  }
  bad <- json_problem(j$times) %||% json_problem(j$iters, "iters")
  if (!is.null(bad)) {
    abort(sprintf("'%s': %s.", safe_text(file), sub("^its ", "", bad)),
          class = c("format", "file"))
  }
  iters <- json_num(j$iters)
  times <- json_num(j$times)
  if (length(iters) != length(times)) {
    abort(sprintf("'%s': \"iters\" has %d values but \"times\" has %d.", file,
                  length(iters), length(times)), class = c("format", "file"))
  }
  if (!length(times)) timings_empty(file, "the criterion.rs sample is empty")
  if (any(is.na(iters) | iters <= 0)) {
    abort(sprintf("'%s': \"iters\" must hold positive counts.", file),
          class = c("format", "file"))
  }
  list(time = times / iters * 1e-9, iterations = iters)
}

# The benchmark's id from benchmark.json when there is one, else `fallback`.
criterion_name <- function(sample_dir, fallback, json = NULL) {
  f <- file.path(sample_dir, "benchmark.json")
  if (!is.null(json) || file.exists(f)) {
    j <- json %||% tryCatch(timings_json_small(f), error = function(e) NULL)
    id <- if (is.list(j)) j$full_id %||% j$title
    if (is.character(id) && length(id) == 1L && nzchar(id)) return(id)
  }
  basename(fallback)
}
