#!/usr/bin/env bash
# A Mix project as a user has it: a tiny app that depends on
# {:permc, path: …}, built into a `mix release` somewhere else (the NIF
# built by permc's Mix compiler step, found through :code.priv_dir), and
# a request decided from the release as permc decide decides it.
#   bash bindings/elixir/test/release.sh   # bindings/test.sh runs it
# PERMC_NIF_PROFILE=dev (the default here) reuses the NIF bindings/test.sh
# built instead of a release build.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PERMC="${PERMC:-$ROOT/target/debug/permc}"
export PERMC_NIF_PROFILE="${PERMC_NIF_PROFILE:-dev}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/bindings/target}"
unset PERMC_NIF
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

APP="$TMP/tiny"
mkdir -p "$APP/lib"
cat >"$APP/mix.exs" <<MIX
defmodule Tiny.MixProject do
  use Mix.Project
  def project, do: [app: :tiny, version: "0.1.0", elixir: "~> 1.14", deps: [{:permc, path: "$HERE"}]]
  def application, do: [extra_applications: []]
end
MIX
cat >"$APP/lib/tiny.ex" <<'EX'
defmodule Tiny do
  @request %{
    action: %{type: "terminal", command: "pnpm test", agent: "dev-web"},
    context: %{role: "developer", executionMode: "container", containerRunning: true, projectScopeRoot: "/home/ana/p"}
  }

  def decide(permissions, autonomy) do
    {:ok, policy} = Permc.load(permissions, autonomy)
    request = @request
    case Permc.decide(policy, request) do
      {:ok, %{policy: p, reason: r}} -> IO.puts("#{p} #{r}")
      other -> IO.puts("error #{inspect(other)}")
    end
  end
end
EX
EX="$ROOT/examples"
REQ='{"action":{"type":"terminal","command":"pnpm test","agent":"dev-web"},"context":{"role":"developer","executionMode":"container","containerRunning":true,"projectScopeRoot":"/home/ana/p"}}'
WANT=$("$PERMC" decide --permissions "$EX/permissions.json" --autonomy "$EX/autonomy.json" --request "$REQ" \
  | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["policy"], d["reason"])')
(cd "$APP" && MIX_ENV=prod mix release --quiet --overwrite >/dev/null)
GOT=$("$APP/_build/prod/rel/tiny/bin/tiny" eval "Tiny.decide(\"$EX/permissions.json\", \"$EX/autonomy.json\")")
[ "$GOT" = "$WANT" ] || { echo "release.sh: the release answered '$GOT', permc decide '$WANT'" >&2; exit 1; }
echo "release.sh: a mix release of an app depending on {:permc, path: …} decides as permc decide ($GOT)"
