#!/usr/bin/env bash
# Runs fuzz targets one after another for SECONDS each (default 1800), new
# finds kept in a work folder beside the committed corpus, and appends each
# run's figures (target, seconds, executions, coverage, corpus, findings) to
# fuzz/RUNS.md. Minimize into fuzz/corpus/<target> afterwards with
# `cargo +nightly fuzz cmin … -- -use_counters=0 -use_value_profile=0`
# (see docs/testing.md, "Fuzzing").
#
#   fuzz/run.sh shell rules          # 30 minutes each, one core
#   SECONDS_EACH=600 fuzz/run.sh differential
#   TIMEOUT=2 fuzz/run.sh shell      # a slow input (a quadratic path) is a finding
#
# A target with a dictionary (`dict/<target>.dict`: its syntax, and the
# shapes that were once slow) is given it.
#
# Built without a sanitizer (-s none): the core crates forbid unsafe code,
# so AddressSanitizer finds nothing a panic would not, at a sixth of the
# executions per second.
set -euo pipefail
cd "$(dirname "$0")"
each=${SECONDS_EACH:-1800}
work=${FUZZ_WORK:-/tmp/permc-fuzz}
cargo +nightly fuzz build -O -s none >/dev/null
for t in "$@"; do
  mkdir -p "$work/$t" "artifacts/$t"
  log="$work/$t.log"
  start=$(date -u +%FT%TZ)
  rc=0
  dict=()
  if [ -f "dict/$t.dict" ]; then dict=("-dict=dict/$t.dict"); fi
  cargo +nightly fuzz run -O -s none "$t" "$work/$t" "corpus/$t" -- \
    -max_total_time="$each" -print_final_stats=1 -timeout="${TIMEOUT:-30}" -rss_limit_mb=4096 "${dict[@]}" >"$log" 2>&1 || rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}' | tail -1)
  done_line=$(grep -E '^#[0-9]+.+DONE' "$log" | tail -1 || true)
  cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$done_line")
  corp=$(sed -n 's/.*corp: \([0-9]*\/[0-9A-Za-z]*\).*/\1/p' <<<"$done_line")
  found=$(ls "artifacts/$t" | wc -l)
  printf '| %s | %s | %s s | %s | %s | %s | %s | exit %s |\n' \
    "$start" "$t" "$each" "${execs:-?}" "${cov:-?}" "${corp:-?}" "$found" "$rc" >>RUNS.md
done
