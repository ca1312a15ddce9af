#!/bin/sh
# The same gate with Google Benchmark: BASE_BENCH and CHANGE_BENCH are the
# benchmark programs of the two builds. A program run measures its
# benchmarks in one process; speeduptest measure --harness gbench runs each
# program in 15 processes, in interleaved rounds, and keeps every
# repetition with its process and round, so that the variation between
# processes is seen and the verdicts are paired by round.
set -eu
Rscript -e 'speeduptest::install_cli("~/.local/bin")'
export PATH="$HOME/.local/bin:$PATH"
# 15 processes of each build (after 1 warm-up round), 5 repetitions of every
# benchmark in each, the CPU time (less sensitive to other jobs on a shared
# runner); Google Benchmark 1.8 and later write --benchmark_min_time=0.01s
speeduptest measure --harness gbench --runs 15 --metric cpu_time \
  --export times.csv \
  -n base "$BASE_BENCH --benchmark_repetitions=5 --benchmark_min_time=0.01" \
  -n change "$CHANGE_BENCH --benchmark_repetitions=5 --benchmark_min_time=0.01"
speeduptest compare times.csv --output json > speedup-report.json || true
speeduptest compare times.csv --output markdown > speedup-report.md || true
speeduptest compare times.csv
