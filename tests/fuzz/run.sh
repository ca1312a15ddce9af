#!/bin/sh
# Build one libFuzzer target of the C core and run it for SECONDS.
#   tests/fuzz/run.sh TARGET SECONDS [extra libFuzzer flags]
# TARGET: wilcoxon signrank exact kth tests proportion protocol hpt util
#   sorted select runorder suite all split changes warmup units planrank
#   rounds gborder tsuite jscan suitecols
#   exactlarge (the last with -timeout=60), and the bulk files' paste
#   fileread json site vtable
# Prints one summary line: target, seconds, executions, coverage, result.
# Needs clang with libFuzzer (Debian: clang, libclang-rt-14-dev) and R's
# headers and shared library (r-base-dev); see README.md.
set -u
target=${1:?usage: run.sh TARGET SECONDS}
seconds=${2:?usage: run.sh TARGET SECONDS}
shift 2
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../../src
rinc=$(R RHOME)/include
[ -f "$rinc/Rmath.h" ] || rinc=/usr/share/R/include
rlib=$(R RHOME)/lib
out=${FUZZ_OUT:-/tmp/speeduptest-fuzz}
mkdir -p "$out/corpus-$target" "$out/crashes-$target"
bin=$out/fuzz-$target
# select.c is included by the harness itself (its array selection is a
# static helper the harness checks directly).
# fileread.c likewise (its file reading is a static helper).
core=$(ls "$src"/*.c | grep -v -e '/init\.c$' -e '/select\.c$' -e '/fileread\.c$')
# Distributions from the standalone Rmath library (Debian r-mathlib:
# /usr/lib/libRmath.a), whose warnings go to stderr; libR only provides the
# R API the .Call wrappers at the end of each file refer to (never called).
rmath=${RMATH_LIB:-/usr/lib/libRmath.a}
clang -g -O1 -fno-omit-frame-pointer \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -DMATHLIB_STANDALONE -DFUZZ_TARGET="$target" -I"$src" -I"$rinc" \
  "$here/fuzz_core.c" $core -o "$bin" "$rmath" \
  -L"$rlib" -lR -Wl,-rpath,"$rlib" -lm || { echo "$target: build failed"; exit 2; }
# The targets on an embedded R: R keeps memory across inputs (its heap,
# strings cache), which libFuzzer's per-input leak check would scan after
# every input, so it is off for them.
case $target in
  paste|fileread|json|site|vtable) set -- -detect_leaks=0 "$@" ;;
esac
log=$out/fuzz-$target.log
R_HOME=$(R RHOME) "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
  -max_len=4096 -artifact_prefix="$out/crashes-$target/" "$@" \
  "$out/corpus-$target" > "$log" 2>&1
status=$?
execs=$(grep -o "Done [0-9]* runs" "$log" | grep -o "[0-9]*")
cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
if [ $status -eq 0 ]; then res=ok; else res="FAILED (see $log and $out/crashes-$target/)"; fi
echo "$target: ${seconds}s, ${execs:-?} runs, coverage ${cov:-?}, $res"
exit $status
