#!/usr/bin/env bash
# Benchmarks of the in-process bindings (issue 10), not timed tests:
#
#   bash bindings/bench.sh [DIR]        # from the repository root
#   bash bindings/bench.sh --calls      # only the newer calls (below)
#
# Builds permc, the NIF and the addon in release, writes benches/decide.rs'
# generated rules (10 and 100,000; the same as docs/performance.md's in-process
# figures) and the 100k-rule artifact to DIR (default
# bindings/target/bench), then prints, for 10 and 100k rules:
#   - in-process Rust (benches/decide.rs' PERMC_BENCH_PROFILE loop, 5 s);
#   - decisions/s through the NIF from one Elixir process and from one
#     process per scheduler (bindings/elixir/bench/decide.exs);
#   - decisions/s through the addon from Node (bindings/node/bench/decide.mjs);
#   - loading the rule files (best of 3) and the 100k-rule artifact (each
#     of 8 loads) from both runtimes.
# The requests are benches/decide.rs' 8 typical commands in a running
# container. `permc serve`'s figure comes from benches/serve.sh.
# Then the crossing (issue 44): each binding's calls against the in-process
# work on the same requests, timed in the same process by the binding
# itself, interleaved, each line with its ratio and both times:
# Elixir's decide/2, decide_json/2, decide_many/2 and decide_brief/2
# (bindings/elixir/bench/crossing.exs), Node's decide, decideMany and
# decideBrief (bindings/node/bench/crossing.mjs), then where a request of
# decideMany goes, its parts timed apart (bindings/node/bench/split.mjs).
# Then the newer calls (alone with --calls, which builds only the
# bindings): Elixir's decide_json/2 against decide/2
# (bindings/elixir/bench/decide_json.exs), Node's loadAsync against load
# (bindings/node/bench/async.mjs, 20,000 and 100,000 rules) and a policy
# shared with a worker_thread as its artifact's bytes
# (bindings/node/bench/worker.mjs). docs/performance.md has the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CALLS_ONLY=
if [ "${1:-}" = --calls ]; then CALLS_ONLY=1; shift; fi
DIR=${1:-$ROOT/bindings/target/bench}
mkdir -p "$DIR"
R="$ROOT/bindings/target/release"
crossing() {
  # Busy-waiting off: an idle scheduler spinning would add to the VM's CPU
  # time, which the ratios are read on.
  PERMC_NIF="$R/libpermc_nif" elixir --erl "+sbwt none +sbwtdcpu none +sbwtdio none" \
    -r bindings/elixir/lib/permc.ex bindings/elixir/bench/crossing.exs "$DIR"
  PERMC_NODE_ADDON="$R/permc.node" node bindings/node/bench/crossing.mjs "$DIR"
  for n in 10 100000; do PERMC_NODE_ADDON="$R/permc.node" node bindings/node/bench/split.mjs "$DIR" "$n"; done
}
calls() {
  echo "# newer calls: $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg)"
  PERMC_NIF="$R/libpermc_nif" elixir -r bindings/elixir/lib/permc.ex -r bindings/elixir/lib/permc/watcher.ex bindings/elixir/bench/decide_json.exs
  for n in 20000 100000; do PERMC_NODE_ADDON="$R/permc.node" node bindings/node/bench/async.mjs "$n"; done
  PERMC_NODE_ADDON="$R/permc.node" node bindings/node/bench/worker.mjs 20000 100000
}
if [ -n "$CALLS_ONLY" ]; then
  CARGO_TARGET_DIR="$ROOT/bindings/target" cargo build --release --quiet --manifest-path bindings/Cargo.toml -p permc_nif -p permc_node
  cp "$R/libpermc_node.so" "$R/permc.node"
  # The crossing needs the generated rules of a full run in DIR.
  if [ -f "$DIR/permissions-100000.json" ]; then crossing; fi
  calls
  exit 0
fi
cargo build --profile dist --quiet --bin permc
T=${CARGO_TARGET_DIR:-$ROOT/target}
PERMC_BENCH_WRITE="$DIR" cargo bench --quiet --bench decide >/dev/null 2>&1
"$T/dist/permc" compile --permissions "$DIR/permissions-100000.json" --autonomy "$DIR/autonomy.json" -o "$DIR/policy-100000.permc"
CARGO_TARGET_DIR="$ROOT/bindings/target" cargo build --release --quiet --manifest-path bindings/Cargo.toml -p permc_nif -p permc_node
cp "$R/libpermc_node.so" "$R/permc.node"

echo "# $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in 10 100000; do
  echo -n "in-process Rust, $n rules: "
  PERMC_BENCH_PROFILE=$n cargo bench --quiet --bench decide 2>&1 | grep 'decisions/s' || true
done
PERMC_NIF="$R/libpermc_nif" elixir -r bindings/elixir/lib/permc.ex bindings/elixir/bench/decide.exs "$DIR"
PERMC_NODE_ADDON="$R/permc.node" node bindings/node/bench/decide.mjs "$DIR"
crossing
calls
