// A Google Benchmark program for the fixtures: the same loop compiled with
// different amounts of work (-DWORK=...) gives the base, a slower and a
// faster version of two benchmarks.
#include <benchmark/benchmark.h>
#include <cstdint>

#ifndef WORK
#define WORK 100
#endif

static void BM_lcg(benchmark::State& state) {
  const int64_t n = state.range(0) * WORK / 100;
  for (auto _ : state) {
    uint64_t s = 12345u;
    for (int64_t i = 0; i < n; i++) s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_lcg)->Arg(20000)->Arg(80000);

static void BM_sum(benchmark::State& state) {
  const int64_t n = 50000 * WORK / 100;
  for (auto _ : state) {
    double acc = 0;
    for (int64_t i = 0; i < n; i++) { acc += static_cast<double>(i) * 0.5; benchmark::DoNotOptimize(acc); }
  }
}
BENCHMARK(BM_sum);

BENCHMARK_MAIN();
