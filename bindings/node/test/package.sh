#!/usr/bin/env bash
# The npm package as a user gets it: `npm pack`, then `npm install
# ./permc-*.tgz` into a fresh folder, a decision from CommonJS and from
# ESM, and a TypeScript consumer checked with `tsc --strict`.
#   bash bindings/node/test/package.sh   # after `npm run build` (bindings/test.sh does both)
# Needs PERMC (the CLI, for the expected answer); npm installs
# TypeScript once into $CARGO_TARGET_DIR/typescript.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/bindings/target}"
PERMC="${PERMC:-$ROOT/target/debug/permc}"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

ls "$HERE"/permc.*.node >/dev/null  # npm run build first
(cd "$HERE" && npm pack --silent --pack-destination "$TMP" >/dev/null)
TGZ=$(ls "$TMP"/permc-*.tgz)
APP="$TMP/app"
mkdir -p "$APP"
echo '{"name": "app", "private": true, "type": "module"}' >"$APP/package.json"
(cd "$APP" && npm install --silent --no-audit --no-fund "$TGZ")
test -f "$APP/node_modules/permc/index.d.ts"
ls "$APP"/node_modules/permc/permc.*.node >/dev/null

EX="$ROOT/examples"
SCOPE=/home/ana/projetos/loja-1a2b3c4d
REQ='{"action":{"type":"terminal","command":"pnpm test","agent":"dev-web"},"context":{"role":"developer","executionMode":"container","containerRunning":true,"projectScopeRoot":"'$SCOPE'"}}'
WANT=$("$PERMC" decide --permissions "$EX/permissions.json" --autonomy "$EX/autonomy.json" --request "$REQ")

# CommonJS and ESM, from the installed package (no PERMC_NODE_ADDON).
GOT_CJS=$(cd "$APP" && env -u PERMC_NODE_ADDON node -e '
  const p = require("permc").load({ permissions: process.argv[1], autonomy: process.argv[2] });
  console.log(JSON.stringify(p.decide(JSON.parse(process.argv[3]))));
' "$EX/permissions.json" "$EX/autonomy.json" "$REQ")
[ "$GOT_CJS" = "$WANT" ] || { echo "package.sh: CommonJS answered $GOT_CJS, permc decide $WANT" >&2; exit 1; }

# TypeScript: tsc --strict over the consumer, then run what it emits.
TS="$TARGET/typescript"
[ -x "$TS/node_modules/.bin/tsc" ] || npm install --silent --no-audit --no-fund --prefix "$TS" typescript@5 >/dev/null
cp "$HERE/test/consumer/consumer.mts" "$APP/"
(cd "$APP" && "$TS/node_modules/.bin/tsc" --strict --noEmitOnError --target es2022 \
  --module nodenext --moduleResolution nodenext consumer.mts)
GOT_TS=$(cd "$APP" && env -u PERMC_NODE_ADDON node consumer.mjs "$EX/permissions.json" "$EX/autonomy.json" "$SCOPE")
node -e '
  const got = JSON.parse(process.argv[1]), want = JSON.parse(process.argv[2]);
  const ok = JSON.stringify(got.decision) === JSON.stringify(want) && got.code === "missing_field" && got.isPolicy === true;
  if (!ok) { console.error("package.sh: the TypeScript consumer answered", process.argv[1], "want", process.argv[2]); process.exit(1); }
' "$GOT_TS" "$WANT"
echo "package.sh: $(basename "$TGZ") installs; CommonJS, ESM and tsc --strict decide as permc decide"
