# The case-study data sets measured by data-raw/collect.R.

check_runs <- function(d, benchmarks, versions) {
  expect_s3_class(d, "data.frame")
  expect_identical(names(d), c("benchmark", "version", "run", "time"))
  expect_true(is.factor(d$benchmark))
  expect_true(is.factor(d$version))
  expect_identical(levels(d$version), versions)
  expect_setequal(levels(d$benchmark), benchmarks)
  expect_true(is.integer(d$run))
  expect_true(is.double(d$time))
  expect_true(all(is.finite(d$time) & d$time > 0))
  expect_false(anyNA(d))
  # 31 runs of every version of every benchmark, numbered 1..31
  counts <- table(d$benchmark, d$version)
  expect_true(all(counts == 31L))
  runs <- tapply(d$run, list(d$benchmark, d$version), function(r) identical(sort(r), 1:31))
  expect_true(all(runs))
  # kernels sized well above the timer resolution
  expect_gt(min(d$time), 0.01)
  info <- attr(d, "harness")
  expect_type(info, "list")
  for (key in c("started", "finished", "uname", "cpu_model", "nproc", "gcc", "R",
                "load_start", "load_end", "seed", "runs_per_version", "timer")) {
    expect_true(is.character(info[[key]]) && nzchar(info[[key]]), info = key)
  }
  expect_identical(info$runs_per_version, "31")
  expect_identical(info$checksums_consistent, "TRUE")
}

cpu_benchmarks <- c("bfs", "crc", "editdist", "fft", "hash", "lz", "mandel", "matmul",
                    "nbody", "sieve", "sort", "stencil")
omp_benchmarks <- c("blackscholes", "histogram", "mandel", "matmul", "montecarlo", "nbody",
                    "spmv", "stencil")

test_that("cpu_runs is well formed", {
  check_runs(cpu_runs, cpu_benchmarks, c("O0", "O1", "O3"))
  expect_match(attr(cpu_runs, "harness")$gcc, "gcc")
})

test_that("compiler_runs is well formed and shares its gcc runs with cpu_runs", {
  check_runs(compiler_runs, cpu_benchmarks, c("gcc", "clang"))
  expect_match(attr(compiler_runs, "harness")$clang, "clang")
  g <- compiler_runs[compiler_runs$version == "gcc", ]
  o3 <- cpu_runs[cpu_runs$version == "O3", ]
  g <- g[order(g$benchmark, g$run), ]
  o3 <- o3[order(o3$benchmark, o3$run), ]
  expect_identical(g$time, o3$time)
  # the clang runs are distinct measurements
  cl <- compiler_runs$time[compiler_runs$version == "clang"]
  expect_false(isTRUE(all.equal(sort(cl), sort(o3$time))))
})

test_that("omp_runs is well formed", {
  check_runs(omp_runs, omp_benchmarks, c("seq", "omp1", "omp2", "omp4"))
  expect_match(attr(omp_runs, "harness")$compile_omp, "fopenmp")
})

test_that("the three data sets come from one collection", {
  keys <- c("started", "finished", "seed", "uname")
  expect_identical(attr(cpu_runs, "harness")[keys], attr(omp_runs, "harness")[keys])
  expect_identical(attr(cpu_runs, "harness")[keys], attr(compiler_runs, "harness")[keys])
})

test_that("-O0 is slower than -O3 for every kernel (a sanity check on the measurements)", {
  med <- with(cpu_runs, tapply(time, list(benchmark, version), median))
  expect_true(all(med[, "O0"] > med[, "O3"]))
})
