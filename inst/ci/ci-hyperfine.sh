#!/bin/sh
# A CI job that fails when a change makes a program slower: hyperfine times
# the base and the change, speeduptest decides.  BASE_CMD and CHANGE_CMD are
# the commands that run the two builds, e.g. "../base/prog input.txt".
set -eu
# the speeduptest command on the PATH (once per runner)
Rscript -e 'speeduptest::install_cli("~/.local/bin")'
export PATH="$HOME/.local/bin:$PATH"
# both versions in one hyperfine run, 40 runs of each
hyperfine -N --warmup 3 --runs 40 --export-json times.json \
  -n base "$BASE_CMD" -n change "$CHANGE_CMD"
# a Markdown table for the pull request (it never fails the job) ...
speeduptest compare times.json --output markdown > speedup-report.md || true
# ... and the gate: exit 1 on a slowdown beyond 1 %, with a 5 % risk that a
# job with no real change fails (Holm's adjustment over the benchmarks)
speeduptest compare times.json --tolerance 1 --p-adjust holm --alpha 0.05
