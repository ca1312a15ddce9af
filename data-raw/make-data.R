# Turns data-raw/runs.csv and data-raw/machine.csv (written by collect.R)
# into the data sets data/cpu_runs.rda, data/compiler_runs.rda and
# data/omp_runs.rda. Run from the package root: Rscript data-raw/make-data.R

root <- normalizePath(".")
runs <- utils::read.csv(file.path(root, "data-raw", "runs.csv"), stringsAsFactors = FALSE)
machine <- utils::read.csv(file.path(root, "data-raw", "machine.csv"), stringsAsFactors = FALSE)
info <- as.list(stats::setNames(machine$value, machine$key))

runs <- runs[runs$run > 0, ]   # drop the warm-up runs

shape <- function(d, versions, labels = versions, note) {
  d <- d[d$version %in% versions, ]
  d <- d[order(d$benchmark, match(d$version, versions), d$run), ]
  out <- data.frame(benchmark = factor(d$benchmark),
                    version = factor(labels[match(d$version, versions)], levels = labels),
                    run = as.integer(d$run), time = d$time)
  rownames(out) <- NULL
  attr(out, "harness") <- c(info, list(note = note))
  out
}

cpu_runs <- shape(runs[runs$experiment == "cpu", ], c("O0", "O1", "O3"),
                  note = "sequential kernels compiled with gcc -O0, -O1 and -O3")
compiler_runs <- shape(runs[runs$experiment == "cpu", ], c("O3", "clang"), c("gcc", "clang"),
                       note = paste("sequential kernels compiled at -O3 with gcc and with clang;",
                                    "the gcc runs are the O3 runs of cpu_runs"))
omp_runs <- shape(runs[runs$experiment == "omp", ], c("seq", "omp1", "omp2", "omp4"),
                  note = paste("OpenMP kernels: gcc -O3 without OpenMP (seq) and with -fopenmp",
                               "run with 1, 2 and 4 threads (omp1, omp2, omp4)"))

dir.create(file.path(root, "data"), showWarnings = FALSE)
save(cpu_runs, file = file.path(root, "data", "cpu_runs.rda"), compress = "xz")
save(compiler_runs, file = file.path(root, "data", "compiler_runs.rda"), compress = "xz")
save(omp_runs, file = file.path(root, "data", "omp_runs.rda"), compress = "xz")
cat("wrote data/cpu_runs.rda, data/compiler_runs.rda, data/omp_runs.rda\n")
