# read_timings() and read_history() on a large file of every importer,
# against the natural baseline read of the same file, in time and in peak
# memory (goal: at most 1.3 times in both).
#
#   format             file(s) written here                        baseline
#   google-benchmark   --benchmark_out, benchmarks x 30 reps        jsonlite::fromJSON()
#   hyperfine          --export-json, 2 commands, 100,000 runs (any  jsonlite::fromJSON()
#                      scale)
#   pyperf             -o FILE, 20 worker runs of 3 values + 1 warm-up
#                                                                    jsonlite::fromJSON()
#   jmh                -rf json, 5 forks x 50 iterations            jsonlite::fromJSON()
#   benchmarkdotnet    full JSON export, 1 launch, 5 stages         jsonlite::fromJSON()
#   criterion          target/criterion: benchmarks x base/new      jsonlite::fromJSON() of
#                                                                    every .json in the folder
#   csv                long CSV benchmark,version,time,run          utils::read.csv()
#   speeduptest        SpeedupTest configuration + its sample files utils::read.csv() of the
#                                                                    configuration and scan()
#                                                                    of every sample file
#   asv (history)      results/<machine>/<commit>.json              jsonlite::fromJSON() of
#                                                                    every .json in the folder
#   otava (history)    CSV time,commit,metrics...                   utils::read.csv()
#   history csv        long CSV commit,benchmark,time...            utils::read.csv()
#
# Each read runs in a child Rscript that has loaded speeduptest and jsonlite
# and read the same file once before (so that neither side pays for loading
# code or for a cold disk in the timed read; a read under 0.3 s of
# CPU is then timed several times and averaged), the two sides in turn, the
# order alternating; the script prints the medians of the child's CPU time of
# the read (user + system) and of its peak resident memory (VmHWM, the whole
# process), the ratios of the medians, and per repeat the ratios of the k-th
# children (median and range), with the load average.
#
# usage (from the package root, with speeduptest installed):
#   Rscript bench/read-importers.R [repeats = 7] [formats = all] [scale = 1]
#                                  [folder = tempdir()]
# formats: comma-separated names from the table; scale multiplies the
# sizes (1: files of 20 to 46 MB, and the 100,000-run hyperfine file).
args <- commandArgs(trailingOnly = TRUE)
repeats <- if (length(args) >= 1L) as.integer(args[1L]) else 7L
formats <- if (length(args) >= 2L && args[2L] != "all") strsplit(args[2L], ",")[[1L]] else
  c("google-benchmark", "hyperfine", "pyperf", "jmh", "benchmarkdotnet", "criterion",
    "csv", "speeduptest", "asv", "otava", "history-csv")
scale <- if (length(args) >= 3L) as.numeric(args[3L]) else 1
dir <- if (length(args) >= 4L) args[4L] else tempdir()
dir.create(dir, showWarnings = FALSE, recursive = TRUE)
lib <- Sys.getenv("R_LIBS")
num <- function(x) sprintf("%.16g", x)
load1 <- function() as.numeric(strsplit(readLines("/proc/loadavg"), " ")[[1L]][1L])

# ---- the writers -------------------------------------------------------------

source(file.path("bench", "gbench-file.R"))

write_hyperfine <- function(file, runs) {
  set.seed(2)
  n <- runs %/% 2
  one <- function(cmd, t) {
    paste0('    {\n      "command": "', cmd, '",\n',
           sprintf('      "mean": %.16g,\n      "stddev": %.16g,\n      "median": %.16g,\n',
                   mean(t), stats::sd(t), stats::median(t)),
           sprintf('      "user": %.16g,\n      "system": %.16g,\n      "min": %.16g,\n      "max": %.16g,\n',
                   mean(t) * 0.8, mean(t) * 0.1, min(t), max(t)),
           '      "times": [\n', paste0('        ', num(t), collapse = ",\n"),
           '\n      ],\n      "exit_codes": [\n',
           paste0('        ', rep("0", length(t)), collapse = ",\n"), '\n      ]\n    }')
  }
  writeLines(c('{', '  "results": [', paste0(one("./old", rlnorm(n, log(0.01), 0.05)), ","),
               one("./new", rlnorm(n, log(0.009), 0.05)), '  ]', '}'), file)
}

write_pyperf <- function(file, nb, procs = 20L, values = 3L) {
  set.seed(3)
  con <- file(file, "w")
  on.exit(close(con))
  writeLines(c('{', '  "version": "1.0",', '  "metadata": {',
               '    "python_version": "3.11.2",', '    "cpu_count": 2,',
               '    "loops": 1024,', '    "unit": "second"', '  },', '  "benchmarks": ['), con)
  for (b in seq_len(nb)) {
    runs <- vapply(seq_len(procs), function(k) {
      v <- rlnorm(values, log(2e-5), 0.05)
      paste0('        {\n          "metadata": {\n            "date": "2026-11-23T14:01:00",\n',
             '            "duration": 0.5\n          },\n',
             '          "warmups": [\n            [\n              1024,\n              ',
             num(v[1L] * 1.3), '\n            ]\n          ],\n          "values": [\n',
             paste0('            ', num(v), collapse = ",\n"), '\n          ]\n        }')
    }, "")
    calib <- paste0('        {\n          "metadata": {\n            "calibrate_loops": 1024\n',
                    '          },\n          "warmups": [\n            [\n              512,\n',
                    '              2.2e-05\n            ]\n          ]\n        }')
    writeLines(paste0('    {\n      "metadata": {\n        "name": "bench_', b, '"\n      },\n',
                      '      "runs": [\n', paste(c(calib, runs), collapse = ",\n"),
                      '\n      ]\n    }', if (b < nb) "," else ""), con)
  }
  writeLines(c('  ]', '}'), con)
}

write_jmh <- function(file, nb, forks = 5L, iters = 50L) {
  set.seed(4)
  con <- file(file, "w")
  on.exit(close(con))
  writeLines("[", con)
  for (b in seq_len(nb)) {
    raw <- vapply(seq_len(forks), function(k) {
      paste0("[", paste(num(rlnorm(iters, log(150), 0.03)), collapse = ", "), "]")
    }, "")
    writeLines(paste0(
      '  {\n    "jmhVersion": "1.37",\n    "benchmark": "org.example.Bench.m', b, '",\n',
      '    "mode": "avgt",\n    "threads": 1,\n    "forks": ', forks, ',\n',
      '    "jvm": "/usr/bin/java",\n    "jvmArgs": [],\n    "jdkVersion": "17.0.9",\n',
      '    "warmupIterations": 5,\n    "warmupTime": "1 s",\n',
      '    "measurementIterations": ', iters, ',\n    "measurementTime": "1 s",\n',
      '    "params": {\n      "size": "', 10L * (b %% 7L + 1L), '"\n    },\n',
      '    "primaryMetric": {\n      "score": 150.0,\n      "scoreError": 1.0,\n',
      '      "scoreConfidence": [149.0, 151.0],\n      "scoreUnit": "ns/op",\n',
      '      "rawData": [\n        ', paste(raw, collapse = ",\n        "), '\n      ]\n    },\n',
      '    "secondaryMetrics": {}\n  }', if (b < nb) "," else ""), con)
  }
  writeLines("]", con)
}

write_bdn <- function(file, nb, warm = 8L, actual = 15L) {
  set.seed(5)
  con <- file(file, "w")
  on.exit(close(con))
  writeLines(c('{', '  "Title": "Bench-20261127-091500",', '  "HostEnvironmentInfo": {',
               '    "BenchmarkDotNetVersion": "0.13.12",', '    "LogicalCoreCount": 2',
               '  },', '  "Benchmarks": ['), con)
  meas <- function(mode, stage, i, ops, ns) {
    sprintf(paste0('        {\n          "IterationMode": "%s",\n          "IterationStage": "%s",\n',
                   '          "LaunchIndex": 1,\n          "IterationIndex": %d,\n',
                   '          "Operations": %d,\n          "Nanoseconds": %s\n        }'),
            mode, stage, i, ops, num(ns))
  }
  for (b in seq_len(nb)) {
    ops <- 16384L
    m <- c(meas("Overhead", "Jitting", 1L, 1L, 2e5), meas("Workload", "Jitting", 1L, 1L, 2e6),
           meas("Workload", "Pilot", seq_len(4L), ops, rlnorm(4L, log(1.4e6), 0.05)),
           meas("Overhead", "Warmup", seq_len(warm), ops, rlnorm(warm, log(2e4), 0.05)),
           meas("Overhead", "Actual", seq_len(actual), ops, rlnorm(actual, log(2e4), 0.05)),
           meas("Workload", "Warmup", seq_len(warm), ops, rlnorm(warm, log(1.5e6), 0.05)),
           meas("Workload", "Actual", seq_len(actual), ops, rlnorm(actual, log(1.4e6), 0.05)),
           meas("Workload", "Result", seq_len(actual), ops, rlnorm(actual, log(1.38e6), 0.05)))
    writeLines(paste0(
      '    {\n      "DisplayInfo": "Bench.M', b, ': DefaultJob",\n',
      '      "Namespace": "Samples",\n      "Type": "Bench",\n      "Method": "M', b, '",\n',
      '      "MethodTitle": "M', b, '",\n      "Parameters": "",\n',
      '      "FullName": "Samples.Bench.M', b, '",\n',
      '      "Statistics": {\n        "N": ', actual, ',\n        "Mean": 85.0\n      },\n',
      '      "Measurements": [\n', paste(m, collapse = ",\n"), '\n      ]\n    }',
      if (b < nb) "," else ""), con)
  }
  writeLines(c('  ]', '}'), con)
}

write_criterion <- function(root, nb, samples = 100L) {
  set.seed(6)
  for (b in seq_len(nb)) {
    for (v in c("base", "new")) {
      d <- file.path(root, sprintf("group_%d", b %% 20L), sprintf("fn_%05d", b), v)
      dir.create(d, recursive = TRUE, showWarnings = FALSE)
      iters <- 40 * seq_len(samples)
      times <- iters * rlnorm(samples, log(25000), 0.03)
      writeLines(c('{', '  "sampling_mode": "Linear",',
                   paste0('  "iters": [', paste(num(iters), collapse = ", "), '],'),
                   paste0('  "times": [', paste(num(times), collapse = ", "), ']'), '}'),
                 file.path(d, "sample.json"))
      id <- sprintf("group_%d/fn_%05d", b %% 20L, b)
      writeLines(c('{', sprintf('  "group_id": "group_%d",', b %% 20L),
                   sprintf('  "function_id": "fn_%05d",', b), '  "value_str": null,',
                   '  "throughput": null,', sprintf('  "full_id": "%s",', id),
                   sprintf('  "directory_name": "%s",', id), sprintf('  "title": "%s"', id), '}'),
                 file.path(d, "benchmark.json"))
    }
  }
}

write_csv_long <- function(file, nb, runs = 50L) {
  set.seed(7)
  n <- nb * 2L * runs
  d <- data.frame(benchmark = rep(sprintf("bench_%05d", seq_len(nb)), each = 2L * runs),
                  version = rep(rep(c("base", "head"), each = runs), nb),
                  time = rlnorm(n, log(0.01), 0.05),
                  run = rep(seq_len(runs), 2L * nb))
  utils::write.csv(d, file, row.names = FALSE)
}

write_config <- function(dir, nb, runs = 30L) {
  set.seed(8)
  dir.create(file.path(dir, "samples"), showWarnings = FALSE, recursive = TRUE)
  rows <- vapply(seq_len(nb), function(b) {
    f <- sprintf("samples/b%05d-%s.txt", b, c("O1", "O3"))
    writeLines(num(rlnorm(runs, log(10), 0.05)), file.path(dir, f[1L]))
    writeLines(num(rlnorm(runs, log(9.5), 0.05)), file.path(dir, f[2L]))
    sprintf("bench_%05d,%s,%s,0.95,1", b, f[1L], f[2L])
  }, "")
  writeLines(c("Name,Sample1,Sample2,ConfLevel,Coef", rows), file.path(dir, "config.csv"))
}

write_asv <- function(root, commits, nb, samples = 10L) {
  set.seed(9)
  m <- file.path(root, "machine1")
  dir.create(m, recursive = TRUE, showWarnings = FALSE)
  writeLines('{"arch": "x86_64", "cpu": "AMD EPYC", "machine": "machine1", "num_cpu": "2", "os": "Linux", "ram": "8GB", "version": 1}',
             file.path(m, "machine.json"))
  names <- sprintf("bench.TimeSuite.time_%04d", seq_len(nb))
  for (k in seq_len(commits)) {
    sha <- sprintf("%040x", k)
    sha <- substr(paste0(sprintf("%08x", k), strrep("a", 40)), 1, 40)
    res <- vapply(seq_len(nb), function(b) {
      s <- rlnorm(samples, log(1e-3), 0.05)
      sprintf('    "%s": [[%s], null, null, null, null, [[%s]]]', names[b], num(stats::median(s)),
              paste(num(s), collapse = ", "))
    }, "")
    writeLines(c('{', sprintf('  "commit_hash": "%s",', sha), '  "env_name": "virtualenv-py3.11",',
                 sprintf('  "date": %.0f,', 1.7e12 + k * 3.6e6),
                 '  "params": {"machine": "machine1", "python": "3.11"},',
                 '  "python": "3.11",', '  "requirements": {},',
                 '  "result_columns": ["result", "params", "version", "started_at", "duration", "samples"],',
                 '  "results": {', paste(res, collapse = ",\n"), '  },', '  "version": 2', '}'),
               file.path(m, sprintf("%s-virtualenv-py3.11.json", substr(sha, 1, 8))))
  }
}

write_otava <- function(file, n, metrics = 20L) {
  set.seed(10)
  d <- data.frame(time = format(as.POSIXct(1.7e9 + 3600 * seq_len(n), origin = "1970-01-01",
                                           tz = "UTC"), "%Y-%m-%d %H:%M:%S"),
                  commit = sprintf("%040x", seq_len(n)))
  for (k in seq_len(metrics)) d[[sprintf("metric_%02d", k)]] <- rlnorm(n, log(100), 0.05)
  utils::write.csv(d, file, row.names = FALSE)
}

write_history_csv <- function(file, commits, nb, runs = 10L) {
  set.seed(11)
  n <- commits * nb * runs
  d <- data.frame(commit = rep(sprintf("c%06d", seq_len(commits)), each = nb * runs),
                  benchmark = rep(rep(sprintf("bench_%04d", seq_len(nb)), each = runs), commits),
                  time = rlnorm(n, log(0.01), 0.05))
  utils::write.csv(d, file, row.names = FALSE)
}

# ---- the cases -------------------------------------------------------------------
sz <- function(n) max(1L, as.integer(round(n * scale)))
du <- function(path) {
  f <- if (dir.exists(path)) list.files(path, recursive = TRUE, full.names = TRUE) else path
  sum(file.size(f)) / 1e6
}
json_all <- "lapply(list.files(f, pattern = '[.]json$', recursive = TRUE, full.names = TRUE), jsonlite::fromJSON)"
cases <- list(
  "google-benchmark" = list(path = "gbench.json", write = function(p) write_gbench(p, sz(3800)),
                            ours = "read_timings(f)", base = "jsonlite::fromJSON(f)"),
  hyperfine = list(path = "hyperfine.json", write = function(p) write_hyperfine(p, 1e5),
                   ours = "read_timings(f)", base = "jsonlite::fromJSON(f)"),
  pyperf = list(path = "pyperf.json", write = function(p) write_pyperf(p, sz(1500)),
                ours = "read_timings(f)", base = "jsonlite::fromJSON(f)"),
  jmh = list(path = "jmh.json", write = function(p) write_jmh(p, sz(5000)),
             ours = "read_timings(f)", base = "jsonlite::fromJSON(f)"),
  benchmarkdotnet = list(path = "bdn.json", write = function(p) write_bdn(p, sz(800)),
                         ours = "read_timings(f)", base = "jsonlite::fromJSON(f)"),
  criterion = list(path = "criterion", write = function(p) write_criterion(p, sz(1000)),
                   ours = "read_timings(f)", base = json_all),
  csv = list(path = "long.csv", write = function(p) write_csv_long(p, sz(10000)),
             ours = "read_timings(f)", base = "utils::read.csv(f)"),
  speeduptest = list(path = "config", write = function(p) write_config(p, sz(1000)),
                     ours = "read_timings(file.path(f, 'config.csv'))",
                     base = paste0("{c <- utils::read.csv(file.path(f, 'config.csv')); ",
                                   "lapply(file.path(f, c(c$Sample1, c$Sample2)), scan, quiet = TRUE)}")),
  asv = list(path = "asv", write = function(p) write_asv(p, sz(200), 300L),
             ours = "read_history(f)", base = json_all),
  otava = list(path = "otava.csv", write = function(p) write_otava(p, sz(100000)),
               ours = "read_history(f)", base = "utils::read.csv(f)"),
  "history-csv" = list(path = "history.csv", write = function(p) write_history_csv(p, sz(1000), 100L),
                       ours = "read_history(f)", base = "utils::read.csv(f)"))
cases <- cases[formats]
if (anyNA(names(cases))) stop("unknown format; the formats are the table's")

# One read in a child process: its CPU seconds and its peak resident memory.
# The CPU clock of proc.time() ticks in 10 ms steps here, so a read that
# takes less than 0.3 s is repeated (up to 20 times, garbage
# collected between the reads and outside the timing) and its mean taken.
child <- function(code, file) {
  script <- tempfile(fileext = ".R")
  writeLines(c(
    "suppressPackageStartupMessages({library(speeduptest); library(jsonlite)})",
    sprintf("f <- '%s'", file),
    "cpu <- function() { p <- proc.time(); p[['user.self']] + p[['sys.self']] }",
    "t0 <- cpu()",
    sprintf("x <- suppressWarnings(%s)", code),
    "k <- max(1L, min(20L, ceiling(0.3 / max(cpu() - t0, 0.005))))",
    "rm(x); invisible(gc())",
    "total <- 0",
    "for (i in seq_len(k)) {",
    "  t0 <- cpu()",
    sprintf("  x <- suppressWarnings(%s)", code),
    "  total <- total + cpu() - t0",
    "  if (i < k) { rm(x); invisible(gc()) }",
    "}",
    "hwm <- grep('^VmHWM', readLines('/proc/self/status'), value = TRUE)",
    "cat(total / k, as.numeric(gsub('[^0-9]', '', hwm)) / 1024, k, '\\n')"),
    script)
  out <- system2(file.path(R.home("bin"), "Rscript"), script, stdout = TRUE,
                 env = if (nzchar(lib)) paste0("R_LIBS=", lib))
  unlink(script)
  as.numeric(strsplit(trimws(out[length(out)]), " +")[[1L]])[1:2]
}

cat(sprintf("read_timings() / read_history() against the baseline read, %d children per side; start load %s\n\n",
            repeats, paste(readLines("/proc/loadavg"), collapse = "")))
cat(sprintf("%-17s %7s %-22s %-22s %-26s %-26s %s\n", "format", "MB", "ours: s, MB",
            "baseline: s, MB", "time ratio (per repeat)", "memory ratio (per repeat)", "load"))
for (nm in names(cases)) {
  cs <- cases[[nm]]
  p <- file.path(dir, cs$path)
  if (!file.exists(p)) cs$write(p)
  o <- b <- matrix(NA_real_, repeats, 2L)
  load <- numeric(repeats)
  for (k in seq_len(repeats)) {
    load[k] <- load1()
    if (k %% 2L) {
      o[k, ] <- child(cs$ours, p)
      b[k, ] <- child(cs$base, p)
    } else {
      b[k, ] <- child(cs$base, p)
      o[k, ] <- child(cs$ours, p)
    }
  }
  mo <- apply(o, 2, stats::median)
  mb <- apply(b, 2, stats::median)
  rt <- o[, 1L] / b[, 1L]
  rm <- o[, 2L] / b[, 2L]
  cat(sprintf("%-17s %7.1f %6.2f s %7.0f MB    %6.2f s %7.0f MB    %.2f (%.2f, %.2f-%.2f)   %.2f (%.2f, %.2f-%.2f)   %.1f (%.1f-%.1f)\n",
              nm, du(p), mo[1L], mo[2L], mb[1L], mb[2L], mo[1L] / mb[1L], stats::median(rt),
              min(rt), max(rt), mo[2L] / mb[2L], stats::median(rm), min(rm), max(rm),
              stats::median(load), min(load), max(load)))
}
cat(sprintf("\nend load %s\n", paste(readLines("/proc/loadavg"), collapse = "")))
