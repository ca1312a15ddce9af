# Writes the pyperf and criterion.rs fixtures of this folder.  Neither tool
# is installed on the machine that made the other fixtures, so these files
# are written by hand (with this script) following the formats the tools
# document: pyperf's JSON (a suite: "version", "metadata", "benchmarks", each
# with "metadata" and "runs", each run with "metadata", "warmups" as
# [loops, value] pairs and "values" per loop iteration, in seconds; a run
# without values is a calibration run) and criterion.rs's folder layout
# (<benchmark>/<baseline>/sample.json with "sampling_mode", "iters" and
# "times" in nanoseconds for all the iterations of a sample, next to
# benchmark.json).  The run times are drawn with a fixed seed.
# Run from this folder: Rscript make-hand-fixtures.R
set.seed(20261123)
json <- function(x) jsonlite::toJSON(x, auto_unbox = TRUE, digits = NA, pretty = TRUE, null = "null")

pyperf_file <- function(file, centres) {
  benchmarks <- lapply(names(centres), function(nm) {
    loops <- 1024L
    calib <- list(metadata = list(calibrate_loops = loops),
                  warmups = lapply(c(1, 2, 4, 8) * 128, function(l) list(l, centres[[nm]] * 1.1)))
    runs <- lapply(1:12, function(k) list(
      metadata = list(date = sprintf("2026-11-23T14:%02d:00", k), duration = 0.5),
      warmups = list(list(loops, centres[[nm]] * 1.3)),
      values = as.list(centres[[nm]] * rlnorm(3, 0, 0.02))))
    list(metadata = list(name = nm, loops = loops, unit = "second"),
         runs = c(list(calib), runs))
  })
  writeLines(json(list(version = "1.0",
                       metadata = list(python_version = "3.11.2", cpu_count = 2),
                       benchmarks = benchmarks)), file)
}
pyperf_file("pyperf-base.json", list(json_dumps = 2.0e-5, regex_compile = 1.5e-4))
pyperf_file("pyperf-new.json", list(json_dumps = 1.6e-5, regex_compile = 1.5e-4))

criterion_sample <- function(dir, per_iter_ns, n = 30L, d = 40L) {
  dir.create(dir, recursive = TRUE, showWarnings = FALSE)
  iters <- d * seq_len(n)
  times <- iters * per_iter_ns * rlnorm(n, 0, 0.02)
  writeLines(json(list(sampling_mode = "Linear", iters = iters, times = times)),
             file.path(dir, "sample.json"))
}
criterion_bench <- function(path, group, fun, base_ns, new_ns) {
  full <- if (is.null(fun)) group else paste(group, fun, sep = "/")
  for (b in c("base", "new")) {
    criterion_sample(file.path("criterion", path, b), if (b == "base") base_ns else new_ns)
    writeLines(json(list(group_id = group, function_id = fun, value_str = NULL,
                         throughput = NULL, full_id = full, directory_name = path,
                         title = full)),
               file.path("criterion", path, b, "benchmark.json"))
  }
}
criterion_bench("fibonacci", "fibonacci", NULL, 2.5e4, 1.9e4)
criterion_bench("sort/1000", "sort", "1000", 8.0e3, 8.0e3)
