#!/usr/bin/env bash
# The in-process bindings (issue 10), tested in their runtimes:
#   bash bindings/test.sh          # from the repository root, after cargo test
#
# Builds the NIF and the addon with cargo (bindings/target, dev profile),
# writes every request of examples/ and tests/corpus/ with `permc
# decide`'s answer (permc-corpus-export), then runs ExUnit (mix test,
# bindings/elixir), a `mix release` of an app depending on permc
# (test/release.sh), `node --test` (bindings/node) and the npm package
# installed from its tarball (test/package.sh). Needs elixir (with
# mix), Erlang's headers and node (with npm): installed with apt-get
# when missing and possible.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# The runtimes: installed here when missing, with apt-get where it can
# (as .ci/run does); otherwise one line says what to run.
missing() {
  for tool in elixir mix node npm; do command -v "$tool" >/dev/null || return 0; done
  [ ! -d /usr/lib/erlang/usr/include ] && [ -z "$(ls -d /usr/lib/erlang/erts-*/include 2>/dev/null)" ]
}
if missing; then
  SUDO=$([ "$(id -u)" = 0 ] || { command -v sudo >/dev/null && echo sudo; } || echo none)
  if command -v apt-get >/dev/null && [ "$SUDO" != none ]; then
    echo "bindings/test.sh: installing Elixir, Erlang's headers and Node (apt-get)" >&2
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq elixir erlang-dev nodejs npm
  fi
  if missing; then
    echo "bindings/test.sh: needs Elixir (with mix), Erlang's headers and Node (with npm): sudo apt-get install -y elixir erlang-dev nodejs npm" >&2
    exit 1
  fi
fi
# The CLI the answers are compared with: the root workspace's.
cargo build --quiet --bin permc
PERMC="${CARGO_TARGET_DIR:-$ROOT/target}/debug/permc"
export PERMC
# The bindings: their own workspace and target directory.
export CARGO_TARGET_DIR="$ROOT/bindings/target"
cargo build --quiet --manifest-path bindings/Cargo.toml --workspace
B="$CARGO_TARGET_DIR/debug"
export PERMC_CORPUS="$CARGO_TARGET_DIR/corpus"
"$B/permc-corpus-export" "$ROOT" "$PERMC" "$PERMC_CORPUS"
# The addon under napi-rs's name (permc.linux-x64-gnu.node…), as
# `npm run build` leaves it.
node bindings/node/scripts/build.mjs --debug --no-cargo

echo "bindings/test.sh: ExUnit (the NIF)"
# mix compiles the NIF itself (the compiler step in mix.exs: cargo, dev
# profile, this target directory) into the application's priv directory.
(cd bindings/elixir && MIX_ENV=test mix test)
echo "bindings/test.sh: the NIF's compiler step (progress, reuse, no cargo)"
bash bindings/elixir/test/compile_task.sh
echo "bindings/test.sh: a mix release of an app that depends on permc"
bash bindings/elixir/test/release.sh
if [ -f bindings/node/package.json ]; then
  echo "bindings/test.sh: node --test (the addon)"
  (cd bindings/node && node --test --expose-gc test/)
  echo "bindings/test.sh: the npm package (npm pack, npm install, tsc --strict)"
  bash bindings/node/test/package.sh
fi
