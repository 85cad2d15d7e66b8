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
# mix) and node: `apt-get install -y elixir erlang-dev nodejs`.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
for tool in elixir mix node; do
  command -v "$tool" >/dev/null || {
    echo "bindings/test.sh: $tool is missing: apt-get install -y elixir erlang-dev nodejs" >&2
    exit 1
  }
done
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
echo "bindings/test.sh: a mix release of an app that depends on permc"
bash bindings/elixir/test/release.sh
if [ -f bindings/node/package.json ]; then
  echo "bindings/test.sh: node --test (the addon)"
  (cd bindings/node && node --test --expose-gc test/)
  echo "bindings/test.sh: the npm package (npm pack, npm install, tsc --strict)"
  bash bindings/node/test/package.sh
fi
