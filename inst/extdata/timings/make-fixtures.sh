#!/bin/sh
# Regenerates the tool-made timing fixtures of this folder.  Needs a C and
# C++ compiler, hyperfine (Debian package hyperfine) and Google Benchmark
# (Debian package libbenchmark-dev).  Run it from this folder:
#   sh make-fixtures.sh
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# hyperfine: the same program doing 4, 6 and 3 million loop steps
cc -O2 -o "$tmp/busy" busy.c
hyperfine -N --warmup 3 --runs 40 --export-json hyperfine-slowdown.json \
  -n old "$tmp/busy 4000000" -n new "$tmp/busy 6000000"
hyperfine -N --warmup 3 --runs 40 --export-json hyperfine-speedup.json \
  -n old "$tmp/busy 4000000" -n new "$tmp/busy 3000000"
# one file per version, the same benchmark names (as a CI job on two
# branches produces them): the new version is slower on "small"
hyperfine -N --warmup 3 --runs 35 --export-json hyperfine-main.json \
  -n small "$tmp/busy 2000000" -n large "$tmp/busy 5000000"
hyperfine -N --warmup 3 --runs 35 --export-json hyperfine-branch.json \
  -n small "$tmp/busy 3000000" -n large "$tmp/busy 5000000"
# three commands in one file (compare's --baseline): two do the same work,
# the third twice as much
hyperfine -N --warmup 3 --runs 31 --export-json hyperfine-three.json \
  -n base "$tmp/busy 3000000" -n same "$tmp/busy 3000000" \
  -n double "$tmp/busy 6000000"

# Google Benchmark: WORK = 100 (base), 140 (slower), 70 (faster)
for v in base:100 slower:140 faster:70; do
  name=${v%%:*}; work=${v#*:}
  g++ -O2 -DWORK="$work" -o "$tmp/gbench-$name" loop_bench.cc -lbenchmark -lpthread
  "$tmp/gbench-$name" --benchmark_repetitions=35 --benchmark_min_time=0.05 \
    --benchmark_out_format=json --benchmark_out="gbench-$name.json" > /dev/null
done
# a file with only the aggregates (mean, median, stddev, cv): not usable
"$tmp/gbench-base" --benchmark_repetitions=5 --benchmark_min_time=0.05 \
  --benchmark_report_aggregates_only=true \
  --benchmark_out_format=json --benchmark_out=gbench-aggregates.json > /dev/null
