#!/usr/bin/env bash
# The NIF's Mix compiler step as a user meets it (issue 43 pt 6), with a
# stand-in for cargo that records its calls and writes a library:
#   - a line says the NIF is being built, and cargo's progress shows;
#   - a second `mix compile` with nothing changed reuses the NIF: no cargo;
#   - a NIF older than its sources, or of another profile, is rebuilt;
#   - without cargo on PATH: one line saying what to install, no stack trace.
#   bash bindings/elixir/test/compile_task.sh   # bindings/test.sh runs it
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/bin"
cat >"$TMP/bin/cargo" <<'CARGO'
#!/usr/bin/env bash
echo call >>"$PERMC_FAKE_CALLS"
echo "   Compiling permc_nif v0.1.0 (stand-in)" >&2
out="$CARGO_TARGET_DIR/debug"
case " $* " in *" --release "*) out="$CARGO_TARGET_DIR/release" ;; esac
mkdir -p "$out" && echo nif >"$out/libpermc_nif.so"
CARGO
chmod +x "$TMP/bin/cargo"
export MIX_BUILD_PATH="$TMP/build" CARGO_TARGET_DIR="$TMP/target" PERMC_FAKE_CALLS="$TMP/calls"
export PERMC_NIF_PROFILE=dev
ELIXIR_BIN="$(dirname "$(command -v mix)")"
compile() { (cd "$HERE" && PATH="$1" mix compile 2>&1); }
calls() { [ -f "$TMP/calls" ] && wc -l <"$TMP/calls" || echo 0; }
fail() { echo "compile_task.sh: $1" >&2; echo "$2" >&2; exit 1; }

out=$(compile "$TMP/bin:$ELIXIR_BIN:/usr/bin:/bin")
[[ $out == *"==> permc: building the NIF with cargo (dev profile"* ]] || fail "no line before cargo" "$out"
[[ $out == *"Compiling permc_nif v0.1.0 (stand-in)"* ]] || fail "cargo's progress is not shown" "$out"
NIF="$TMP/build/lib/permc/priv/libpermc_nif.so"
[ -f "$NIF" ] || fail "no NIF in priv" "$out"
[ "$(calls)" -eq 1 ] || fail "cargo ran $(calls) times" "$out"

out=$(compile "$TMP/bin:$ELIXIR_BIN:/usr/bin:/bin")
[ "$(calls)" -eq 1 ] || fail "an unchanged NIF was rebuilt" "$out"
[[ $out != *"building the NIF"* ]] || fail "an unchanged NIF was announced" "$out"

touch -d '2000-01-01' "$NIF"
compile "$TMP/bin:$ELIXIR_BIN:/usr/bin:/bin" >/dev/null
[ "$(calls)" -eq 2 ] || fail "a NIF older than its sources was reused" ""
PERMC_NIF_PROFILE=release compile "$TMP/bin:$ELIXIR_BIN:/usr/bin:/bin" >/dev/null
[ "$(calls)" -eq 3 ] || fail "a NIF of another profile was reused" ""

rm -f "$NIF"
if out=$(compile "$ELIXIR_BIN:/usr/bin:/bin"); then fail "built without cargo" "$out"; fi
[[ $out == *"cargo was not found on PATH"*"https://rustup.rs"* ]] || fail "no plain message without cargo" "$out"
[[ $out != *":enoent"* && $out != *"ErlangError"* ]] || fail "a raw error without cargo" "$out"
echo "compile_task.sh: ok"
