#!/bin/sh
# A CI job that fails when a change makes a program slower. speeduptest
# measure times the base and the change interleaved (rounds of one run of
# each, in a fresh random order, each run its own process), so that a change
# of load on a shared runner hits both alike; speeduptest compare decides.
# BASE_CMD and CHANGE_CMD are the commands that run the two builds, e.g.
# "../base/prog input.txt" and "./prog input.txt".
set -eu
# the speeduptest command on the PATH (once per runner)
Rscript -e 'speeduptest::install_cli("~/.local/bin")'
export PATH="$HOME/.local/bin:$PATH"
# 501 interleaved rounds after 3 warm-up rounds, the runs with their rounds
# and processes in times.csv. On a loaded shared runner the CPU time of a
# run varies by 5-15 % from round to round; 501 rounds detect a 3 % slowdown
# (2 % beyond the tolerance) in at least 9 jobs out of 10 up to a spread of
# about 15 % (301 rounds: 86 % of bench/gate.R's resampled jobs on 2 cores at
# load 30; 31 rounds: none of 10). On a quiet machine fewer suffice, on a
# busier one more: the comment's "could have detected" and plan_runs() say
# how many.
speeduptest measure --warmup 3 --runs "${SPEEDUP_RUNS:-501}" \
  --export times.csv -n base "$BASE_CMD" -n change "$CHANGE_CMD"
# the pull-request comment (it never fails the job) ...
speeduptest compare times.csv --metric cpu --output markdown \
  > speedup-report.md || true
# ... and the gate: exit 1 on a slowdown beyond 1 %, with a 5 % risk that a
# job with no real change fails (Holm's adjustment over the benchmarks);
# exit 3 when a slowdown is seen but the data cannot guarantee it. The CPU
# time (user + system) of each run is far less sensitive to other jobs on a
# shared runner than the wall time; leave out --metric cpu to gate on the
# wall time
speeduptest compare times.csv --metric cpu --tolerance 1 --p-adjust holm \
  --alpha 0.05
