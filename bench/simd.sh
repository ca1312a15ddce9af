#!/bin/sh
# Builds bench/simd.c twice against the package's C sources, with the
# vector code taken at every size and with it switched off
# (-DST_NO_AVX512), and prints both tables (nanoseconds per call, best of
# REPS repeats; run from the package root; needs R's headers and libR).
#   sh bench/simd.sh [REPS]
set -eu
reps=${1:-7}
rinc=$(R RHOME)/include
[ -f "$rinc/R.h" ] || rinc=/usr/share/R/include
rlib=$(R RHOME)/lib
out=$(mktemp -d)
core=$(ls src/*.c | grep -v -e '/init\.c$')
for mode in vector scalar; do
  if [ $mode = vector ]; then
    flags="-DSIMD_SORT_MIN=2 -DSIMD_KENDALL_MIN=3 -DSIMD_SPLIT_MIN=8"
  else
    flags="-DST_NO_AVX512"
  fi
  gcc -O2 -g $flags -Isrc -I"$rinc" bench/simd.c $core -o "$out/simd-$mode" \
    -L"$rlib" -lR -Wl,-rpath,"$rlib" -lm
  echo "== $mode"
  R_HOME=$(R RHOME) "$out/simd-$mode" "$reps"
done
rm -rf "$out"
