#' Run times measured by the package's own benchmark harness
#'
#' Real wall-clock run times of small C kernels, measured on one machine by
#' the harness in the package sources (`data-raw/`), to replay section 6 of
#' Touati, Worms and Briais (2013) in kind: SPEC CPU 2006 and SPEC OMP 2001
#' are not free, so the package measured its own kernels in their spirit.
#'
#' * `cpu_runs`: twelve sequential kernels (`bfs`, `crc`, `editdist`, `fft`,
#'   `hash`, `lz`, `mandel`, `matmul`, `nbody`, `sieve`, `sort`, `stencil`:
#'   graph traversal, bitwise CRC-32, dynamic programming, radix-2 FFT, hash
#'   table, LZ77-style match finding, Mandelbrot escape counts, dense matrix
#'   product, n-body forces, prime sieve, quicksort, Jacobi stencil) compiled
#'   with gcc at `-O0`, `-O1` and `-O3` (versions `"O0"`, `"O1"`, `"O3"`),
#'   as the paper's section 6.1 did with SPEC CPU 2006.
#' * `compiler_runs`: the same twelve kernels compiled at `-O3` by gcc and by
#'   clang (versions `"gcc"`, `"clang"`), as section 6.3 compared gcc and icc.
#'   Its `"gcc"` runs are the `"O3"` runs of `cpu_runs` (the same binaries,
#'   measured once).
#' * `omp_runs`: eight OpenMP kernels (`blackscholes`, `histogram`, `mandel`,
#'   `matmul`, `montecarlo`, `nbody`, `spmv`, `stencil`) compiled with gcc
#'   `-O3` without OpenMP (version `"seq"`) and with `-fopenmp`, run with 1,
#'   2 and 4 threads (versions `"omp1"`, `"omp2"`, `"omp4"`), as section 6.2
#'   did with SPEC OMP 2001.
#'
#' @format Data frames in long format, one row per run, with columns
#' \describe{
#'   \item{benchmark}{factor: the kernel.}
#'   \item{version}{factor: the build (and thread count); its first level is
#'     the initial code of the comparisons (`"O0"`, `"gcc"`, `"seq"`).}
#'   \item{run}{integer: the run's number among the 31 runs of that version,
#'     in the order they were executed.}
#'   \item{time}{numeric: the run time in seconds.}
#' }
#' Each data set carries an attribute `"harness"`, a named list describing the
#' collection: start and end date (UTC), the machine (`uname`, CPU model,
#' `nproc`), the compiler and R versions, the load averages at the start and
#' the end, the random seed of the run order, the number of runs, the timer
#' and the compilation commands, and whether every build of a kernel printed
#' the same checksum.
#'
#' @details
#' **How the times were measured.** Every kernel is deterministic, sets up its
#' input first, then times its computational section (about 0.1 to 0.3 s at
#' `-O3` on an idle machine; longer at `-O0`) with
#' `clock_gettime(CLOCK_MONOTONIC)` and prints that time with a checksum of its
#' result, so that the optimiser cannot drop the work and the builds can be
#' checked against each other. `time` is this wall-clock time of the kernel's
#' computational section (process start-up and input generation excluded).
#' The collection script built the list of every (build, run) job, shuffled it
#' with a recorded seed and ran it after one warm-up run of every build (the
#' warm-ups are not included), so the runs of all versions are interleaved in
#' random order and a slow period of the machine affects every version alike.
#' Each version was run 31 times, as in the paper.
#'
#' **Conditions, honestly.** The machine is a small virtual machine with two
#' cores; the load averages recorded in the `"harness"` attribute show how
#' busy it was around the collection. The kernels ran at a raised scheduling
#' priority (niceness recorded in the attribute) so that other jobs disturb
#' them less, but a virtual machine still shares its host's caches and memory
#' bandwidth: the times include real noise, with outliers and skewed
#' distributions, as the paper's SPEC OMP measurements did. A first collection at normal priority, under load
#' averages of 1.6 to 7, gave coefficients of variation of 30% to 130%; its raw
#' runs are kept in `data-raw/runs-normal-priority.csv` of the source tree.
#' Four OpenMP threads on two cores oversubscribe the machine; that is a
#' legitimate configuration to measure, not an error. The comparisons are
#' between builds measured on the same machine at the same time, in random
#' order, which is what the Speedup-Test needs; the absolute times say little
#' about other machines.
#'
#' **Reproducing.** `Rscript data-raw/collect.R` in the package sources
#' recompiles the kernels, reruns the whole collection (about fifteen
#' minutes) and rewrites these data sets; the new measurements differ in
#' their numbers, as real measurements do. The sources are not part of the
#' installed package; see `data-raw/README.md` in the source tree.
#'
#' @source Measured by the package authors with `data-raw/collect.R`; see
#'   `attr(cpu_runs, "harness")` for the date, the machine and the compilers.
#' @references
#' Touati, S.-A.-A., Worms, J. and Briais, S. (2013). The Speedup-Test: a
#' statistical methodology for programme speedup analysis and computation.
#' *Concurrency and Computation: Practice and Experience*, 25(10), 1410-1426.
#' Section 6.
#' @examples
#' str(cpu_runs)
#' attr(cpu_runs, "harness")[c("started", "cpu_model", "nproc", "gcc", "clang")]
#' with(cpu_runs, tapply(time, list(benchmark, version), median))
#' @name case_study_runs
#' @aliases cpu_runs compiler_runs omp_runs
#' @docType data
#' @usage cpu_runs
#' compiler_runs
#' omp_runs
#' @keywords datasets
NULL
