# A Google Benchmark JSON file of `nb` benchmarks with `reps` repetitions
# each (log-normal noise of 2 %, every third benchmark `f` times faster),
# written to `path`; sourced by the bench scripts that read or compare
# large Google Benchmark files (bench/bulk.R, bench/timings.R,
# bench/suite-equal.R) from the package root.
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
