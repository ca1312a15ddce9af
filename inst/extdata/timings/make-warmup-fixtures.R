# Writes the JMH and BenchmarkDotNet fixtures (README.md says what they
# hold): JMH and BenchmarkDotNet are not installable here, so the files are
# written from run times drawn with a fixed seed, following the formats the
# tools document (JMH's -rf json result array; BenchmarkDotNet's full JSON
# export with its Measurements).  Run in this folder:
#   Rscript make-warmup-fixtures.R
set.seed(2032)

# ---- JMH --------------------------------------------------------------------------
# A slow start (JIT compilation still going on in the first measured
# iterations) then a steady level, per fork.
jmh_fork <- function(level, iters, slow = 0, factor = 1.3, sd = 0.01) {
  v <- level * exp(stats::rnorm(iters, 0, sd))
  if (slow) v[seq_len(slow)] <- v[seq_len(slow)] * factor
  v
}
jmh_result <- function(benchmark, mode, unit, forks, params = NULL, thrpt = FALSE) {
  raw <- lapply(forks, function(f) if (thrpt) 1 / f else f)
  all <- unlist(raw)
  out <- list(
    jmhVersion = "1.37",
    benchmark = benchmark,
    mode = mode,
    threads = 1L,
    forks = length(forks),
    jvm = "/usr/lib/jvm/java-17-openjdk-amd64/bin/java",
    jvmArgs = list(),
    jdkVersion = "17.0.9",
    vmName = "OpenJDK 64-Bit Server VM",
    vmVersion = "17.0.9+9-Debian-1deb12u1",
    warmupIterations = 5L,
    warmupTime = "1 s",
    warmupBatchSize = 1L,
    measurementIterations = length(forks[[1]]),
    measurementTime = "1 s",
    measurementBatchSize = 1L)
  if (!is.null(params)) out$params <- params
  q <- stats::quantile(all, c(0, 0.5, 0.9, 0.95, 0.99, 0.999, 0.9999, 1), names = FALSE)
  out$primaryMetric <- list(
    score = mean(all),
    scoreError = stats::qt(0.9995, length(all) - 1) * stats::sd(all) / sqrt(length(all)),
    scoreConfidence = mean(all) + c(-1, 1) * stats::qt(0.9995, length(all) - 1) *
      stats::sd(all) / sqrt(length(all)),
    scorePercentiles = stats::setNames(as.list(q),
      c("0.0", "50.0", "90.0", "95.0", "99.0", "99.9", "99.99", "100.0")),
    scoreUnit = unit,
    rawData = raw)
  out$secondaryMetrics <- structure(list(), names = character())
  out
}
jmh <- list(
  # average time: 3 forks x 40 iterations, the first 8 of fork 2 slow
  jmh_result("org.example.bench.ListBench.arrayList", "avgt", "ns/op",
             list(jmh_fork(152, 40), jmh_fork(152, 40, slow = 8), jmh_fork(152, 40, slow = 2)),
             params = list(size = "1000")),
  jmh_result("org.example.bench.ListBench.arrayList", "avgt", "ns/op",
             list(jmh_fork(1480, 40, slow = 5), jmh_fork(1480, 40), jmh_fork(1480, 40)),
             params = list(size = "10000")),
  # throughput (ops/ms): the score is operations per millisecond
  jmh_result("org.example.bench.MapBench.hashMapGet", "thrpt", "ops/ms",
             list(jmh_fork(1 / 21500, 40, slow = 6), jmh_fork(1 / 21500, 40, slow = 6),
                  jmh_fork(1 / 21500, 40)), thrpt = TRUE))
writeLines(jsonlite::toJSON(jmh, auto_unbox = TRUE, pretty = TRUE, digits = NA),
           "jmh-result.json")

# ---- BenchmarkDotNet ----------------------------------------------------------------
# One benchmark method per entry, 2 launches; in each launch the engine's
# stages as BenchmarkDotNet runs them: OverheadJitting, WorkloadJitting,
# WorkloadPilot (operation counts doubling), OverheadWarmup, OverheadActual,
# WorkloadWarmup, WorkloadActual, and the derived WorkloadResult.
bdn_launch <- function(launch, ns_per_op, ops = 4096, warm = 8, actual = 30,
                       slow = 0, factor = 1.25) {
  m <- list()
  add <- function(mode, stage, index, operations, ns) {
    m[[length(m) + 1L]] <<- list(IterationMode = mode, IterationStage = stage,
                                 LaunchIndex = launch, IterationIndex = index,
                                 Operations = operations, Nanoseconds = round(ns, 2))
  }
  add("Overhead", "Jitting", 1L, 1L, 210000 * exp(stats::rnorm(1, 0, 0.1)))
  add("Workload", "Jitting", 1L, 1L, 2400000 * exp(stats::rnorm(1, 0, 0.1)))
  add("Overhead", "Jitting", 2L, 16L, 1800 * exp(stats::rnorm(1, 0, 0.1)))
  add("Workload", "Jitting", 2L, 16L, 16 * ns_per_op * 3 * exp(stats::rnorm(1, 0, 0.1)))
  p <- 16
  k <- 1L
  while (p <= ops) {
    add("Workload", "Pilot", k, as.integer(p), p * ns_per_op * 1.4 * exp(stats::rnorm(1, 0, 0.05)))
    p <- p * 2
    k <- k + 1L
  }
  oh <- 1.3
  for (i in seq_len(6)) add("Overhead", "Warmup", i, as.integer(ops), ops * oh * exp(stats::rnorm(1, 0, 0.05)))
  oa <- ops * oh * exp(stats::rnorm(15, 0, 0.03))
  for (i in seq_len(15)) add("Overhead", "Actual", i, as.integer(ops), oa[i])
  w <- ops * ns_per_op * exp(stats::rnorm(warm, 0, 0.01)) * seq(1.4, 1.05, length.out = warm)
  for (i in seq_len(warm)) add("Workload", "Warmup", i, as.integer(ops), w[i])
  a <- ops * ns_per_op * exp(stats::rnorm(actual, 0, 0.01))
  if (slow) a[seq_len(slow)] <- a[seq_len(slow)] * factor
  for (i in seq_len(actual)) add("Workload", "Actual", i, as.integer(ops), a[i])
  for (i in seq_len(actual)) add("Workload", "Result", i, as.integer(ops), a[i] - stats::median(oa))
  m
}
bdn_benchmark <- function(type, method, params, ns_per_op, slow = c(0, 0)) {
  ms <- c(bdn_launch(1L, ns_per_op, slow = slow[1]), bdn_launch(2L, ns_per_op, slow = slow[2]))
  res <- vapply(Filter(function(e) e$IterationStage == "Result", ms),
                function(e) e$Nanoseconds / e$Operations, 0)
  full <- sprintf("BenchmarkDotNet.Samples.%s.%s%s", type, method,
                  if (nzchar(params)) sprintf("(%s)", params) else "")
  list(
    DisplayInfo = sprintf("%s.%s: DefaultJob%s", type, method,
                          if (nzchar(params)) sprintf(" [%s]", params) else ""),
    Namespace = "BenchmarkDotNet.Samples",
    Type = type, Method = method, MethodTitle = method, Parameters = params,
    FullName = full,
    HardwareIntrinsics = "AVX2,AES,BMI1,BMI2,FMA,LZCNT,PCLMUL,POPCNT VectorSize=256",
    Statistics = list(
      OriginalValues = as.list(res), N = length(res), Min = min(res),
      LowerFence = NA, Q1 = unname(stats::quantile(res, 0.25)),
      Median = stats::median(res), Mean = mean(res),
      Q3 = unname(stats::quantile(res, 0.75)), Max = max(res),
      StandardError = stats::sd(res) / sqrt(length(res)),
      Variance = stats::var(res), StandardDeviation = stats::sd(res)),
    Memory = list(Gen0Collections = 0L, Gen1Collections = 0L, Gen2Collections = 0L,
                  TotalOperations = 4096L * 60L, BytesAllocatedPerOperation = 0L),
    Measurements = ms,
    Metrics = list())
}
bdn <- list(
  Title = "BenchmarkDotNet.Samples.IntroWarmup-20261127-091500",
  HostEnvironmentInfo = list(
    BenchmarkDotNetCaption = "BenchmarkDotNet",
    BenchmarkDotNetVersion = "0.13.12",
    OsVersion = "Debian GNU/Linux 12 (bookworm)",
    ProcessorName = "Intel Xeon Processor (Icelake)",
    PhysicalProcessorCount = 1L, PhysicalCoreCount = 2L, LogicalCoreCount = 2L,
    RuntimeVersion = ".NET 8.0.0 (8.0.23.53103)", Architecture = "X64",
    HasAttachedDebugger = FALSE, HasRyuJit = TRUE, Configuration = "RELEASE",
    DotNetCliVersion = "8.0.100",
    ChronometerFrequency = list(Hertz = 1000000000L),
    HardwareTimerKind = "Unknown"),
  Benchmarks = list(
    bdn_benchmark("IntroWarmup", "Parse", "", 85.2, slow = c(0, 7)),
    bdn_benchmark("IntroWarmup", "Format", "N=100", 412.0)))
writeLines(jsonlite::toJSON(bdn, auto_unbox = TRUE, pretty = TRUE, digits = NA, na = "null"),
           "bdn-full.json")
