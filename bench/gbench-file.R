# Two writers of large Google Benchmark JSON files, sourced by the bench
# scripts from the package root.
#
# gbench_file(): a Google Benchmark JSON file of `nb` benchmarks with `reps`
# repetitions each (log-normal noise of 2 %, every third benchmark `f` times
# faster), written to `path` (bench/bulk.R, bench/timings.R,
# bench/suite-equal.R).
gbench_file <- function(path, nb, reps, f, seed) {
  set.seed(seed)
  rows <- unlist(lapply(seq_len(nb), function(j) {
    base <- 1000 * (1 + j %% 17)
    s <- if (j %% 3 == 0) f else 1
    tm <- base / s * exp(rnorm(reps, 0, 0.02))
    sprintf('{"name": "BM_%d", "run_name": "BM_%d", "run_type": "iteration", "repetitions": %d, "repetition_index": %d, "threads": 1, "iterations": 100, "real_time": %.17g, "cpu_time": %.17g, "time_unit": "ns"}',
            j, j, reps, seq_len(reps) - 1L, tm, tm * 0.99)
  }))
  writeLines(c('{"context": {"date": "2026-11-27T00:00:00+00:00", "num_cpus": 2},',
               '"benchmarks": [', paste(rows, collapse = ",\n"), ']}'), path)
}

# write_gbench(): the file as `--benchmark_repetitions=reps` writes it, with
# its context and one "iteration" row per repetition of each of `nb`
# benchmarks (log-normal times around 20 us, sd 5 %), written row by row so
# that files of tens of megabytes take little memory (bench/read-timings.R,
# bench/read-importers.R).
write_gbench <- function(file, nb, reps = 30L) {
  set.seed(1)
  con <- file(file, "w")
  on.exit(close(con))
  writeLines(c('{', '  "context": {', '    "date": "2026-11-25T10:00:00+00:00",',
               '    "host_name": "vm",', '    "executable": "./bench",',
               '    "num_cpus": 2,', '    "mhz_per_cpu": 2596,',
               '    "cpu_scaling_enabled": false,', '    "caches": [',
               '    ],', '    "load_avg": [0.5,0.4,0.3],',
               '    "library_build_type": "release"', '  },', '  "benchmarks": ['),
             con)
  row <- paste0(
    '    {\n      "name": "%s",\n      "family_index": %d,\n',
    '      "per_family_instance_index": 0,\n      "run_name": "%s",\n',
    '      "run_type": "iteration",\n      "repetitions": %d,\n',
    '      "repetition_index": %d,\n      "threads": 1,\n      "iterations": %d,\n',
    '      "real_time": %.16e,\n      "cpu_time": %.16e,\n      "time_unit": "ns"\n    }')
  for (b in seq_len(nb)) {
    name <- sprintf("BM_kernel_%05d/%d", b, 1024L * (1L + b %% 7L))
    it <- 1000L + b %% 5000L
    real <- rlnorm(reps, log(2e4), 0.05)
    txt <- sprintf(row, name, b - 1L, name, reps, seq_len(reps) - 1L, it, real,
                   real * 0.99)
    sep <- if (b < nb) "," else ""
    writeLines(paste0(paste(txt, collapse = ",\n"), sep), con)
  }
  writeLines(c('  ]', '}'), con)
}
