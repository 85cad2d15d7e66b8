#!/usr/bin/env bash
# End-to-end runs of `permc decide` for docs/performance.md's end-to-end table.
#
#   bash benches/cli.sh [DIR]
#
# Builds permc in the dist profile (fat LTO, as shipped), writes the generated rule files and request
# streams (the same generator as benches/decide.rs) to DIR (default
# target/bench-cli), then times with /usr/bin/time: of REPEAT=3 runs, the
# one with the least CPU time (user + system; on a shared machine CPU time
# is steadier than wall time), its wall time, and the peak resident KB:
#   - compiled vs reference, 5k requests at 10k rules, outputs compared;
#   - 100k requests at 10 / 1k / 10k / 100k rules, compile included;
#   - the same from the artifact (--policy), and `permc compile` itself;
#   - loading the artifact: one request with --policy.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR=${1:-target/bench-cli}
mkdir -p "$DIR"
cargo build --profile dist --quiet
PERMC_BENCH_WRITE="$DIR" cargo bench --quiet --bench decide >/dev/null
PERMC=target/dist/permc
A="$DIR/autonomy.json"
ONE='{"action":{"type":"terminal","command":"pnpm test"},"context":{"role":"developer","projectScopeRoot":"/p"}}'

REPEAT=${REPEAT:-3}
run() { # label, command… → "label  wall s  cpu s  peak KB", the run with the least CPU of $REPEAT
  local label=$1; shift
  local best="" wall="" kb=0 e u sy k cpu
  for _ in $(seq "$REPEAT"); do
    /usr/bin/time -f "%e %U %S %M" -o "$DIR/time.txt" "$@" >"$DIR/out.jsonl"
    read -r e u sy k <"$DIR/time.txt"
    cpu=$(awk "BEGIN{print $u + $sy}")
    if [ -z "$best" ] || awk "BEGIN{exit !($cpu < $best)}"; then best=$cpu; wall=$e; fi
    if [ "$k" -gt "$kb" ]; then kb=$k; fi
  done
  printf '%-46s %6s s wall %6s s cpu %8s KB\n' "$label" "$wall" "$best" "$kb"
}

echo "# $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load: $(cut -d' ' -f1-3 /proc/loadavg)"

P="$DIR/permissions-10000.json"
run "reference, 10k rules, 5k requests" $PERMC decide --engine reference --permissions "$P" --autonomy "$A" --requests "$DIR/requests-5k.jsonl"
cp "$DIR/out.jsonl" "$DIR/reference.jsonl"
run "compiled, 10k rules, 5k requests" $PERMC decide --engine compiled --permissions "$P" --autonomy "$A" --requests "$DIR/requests-5k.jsonl"
if cmp -s "$DIR/out.jsonl" "$DIR/reference.jsonl"; then echo "  identical decisions (byte for byte)"; else echo "  DECISIONS DIFFER"; exit 1; fi

for n in 10 1000 10000 100000; do
  P="$DIR/permissions-$n.json"
  run "compiled, $n rules, 100k requests" $PERMC decide --permissions "$P" --autonomy "$A" --requests "$DIR/requests-100k.jsonl"
  run "  permc compile, $n rules" $PERMC compile --permissions "$P" --autonomy "$A" -o "$DIR/policy-$n.permc"
  run "  --policy artifact, $n rules, 100k requests" $PERMC decide --policy "$DIR/policy-$n.permc" --requests "$DIR/requests-100k.jsonl"
  run "  --policy artifact, $n rules, 1 request" $PERMC decide --policy "$DIR/policy-$n.permc" --request "$ONE"
done
