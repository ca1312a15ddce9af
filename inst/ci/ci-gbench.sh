#!/bin/sh
# The same gate with Google Benchmark: BASE_BENCH and CHANGE_BENCH are the
# benchmark programs of the two builds. A program run measures its
# benchmarks in one process; speeduptest measure --harness gbench runs each
# program in 60 processes, in interleaved rounds, and keeps every
# repetition with its process and round, so that the variation between
# processes is seen and the verdicts are paired by round.
set -eu
Rscript -e 'speeduptest::install_cli("~/.local/bin")'
export PATH="$HOME/.local/bin:$PATH"
# 60 processes of each build (after 1 warm-up round), 5 repetitions of every
# benchmark in each, the CPU time (less sensitive to other jobs on a shared
# runner). A process's median differs from the next one's by 4-7 % on a
# loaded shared runner; 60 rounds detect a 3 % slowdown (2 % beyond the
# tolerance) in at least 9 jobs out of 10 (all 11 jobs of bench/gate.R on 2
# cores at load 30; 15 rounds: 6 in 10).
# Google Benchmark 1.8 and later write --benchmark_min_time=0.005s
speeduptest measure --harness gbench --runs "${SPEEDUP_RUNS:-60}" \
  --metric cpu_time --export times.csv \
  -n base "$BASE_BENCH --benchmark_repetitions=5 --benchmark_min_time=0.005" \
  -n change "$CHANGE_BENCH --benchmark_repetitions=5 --benchmark_min_time=0.005"
speeduptest compare times.csv --output json > speedup-report.json || true
speeduptest compare times.csv --output markdown > speedup-report.md || true
speeduptest compare times.csv
