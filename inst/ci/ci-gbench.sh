#!/bin/sh
# The same gate with Google Benchmark: BASE_BENCH and CHANGE_BENCH are the
# benchmark programs of the two builds.
set -eu
Rscript -e 'speeduptest::install_cli("~/.local/bin")'
export PATH="$HOME/.local/bin:$PATH"
# 35 repetitions of every benchmark of each build (each at least 10 ms)
"$BASE_BENCH" --benchmark_repetitions=35 --benchmark_min_time=0.01 \
  --benchmark_out_format=json --benchmark_out=base.json > /dev/null
"$CHANGE_BENCH" --benchmark_repetitions=35 --benchmark_min_time=0.01 \
  --benchmark_out_format=json --benchmark_out=change.json > /dev/null
# CPU time is less sensitive to other jobs on a shared runner
speeduptest compare base.json change.json --metric cpu_time \
  --output json > speedup-report.json || true
speeduptest compare base.json change.json --metric cpu_time
