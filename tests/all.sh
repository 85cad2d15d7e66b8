#!/usr/bin/env bash
# The whole test suite, its set-up included: the README's test command,
# and what .ci/run runs after fmt and clippy.
#
#   bash tests/all.sh           # from anywhere in a clone
#
# Needs the Rust toolchain. What else the suites need is installed here
# when it is missing: Python's jsonschema and pre-commit (pip; the schema
# and hook tests), Elixir with mix, Erlang's headers, Node with npm
# (apt-get; bindings/test.sh and the Node client of `permc serve`),
# bubblewrap and strace (apt-get; the oracle's sandbox, tests/oracle/), and
# the programs the oracle judges rows by: ripgrep, rsync, vim, wget,
# openssh-client, golang-go (apt-get; Debian 12's versions, the ones the
# rows pin) and pytest 8.3.5 (pip). Where
# it cannot install, it says in one line what to run and exits 1, so no
# test is skipped without a word. PERMC_NO_INSTALL=1 installs nothing.
set -euo pipefail
# The snapshots are of plain text: a CI that forces colours
# (FORCE_COLOR, CLICOLOR_FORCE: permc honours them) must not colour them.
unset FORCE_COLOR CLICOLOR_FORCE
# Builtins only until the check below, so that a machine missing every
# tool still gets its one line.
case ${BASH_SOURCE[0]} in */*) cd "${BASH_SOURCE[0]%/*}" ;; esac
cd ..

# The Debian/Ubuntu packages of what is missing, and the Python modules.
missing_packages() {
  local p=()
  command -v git >/dev/null || p+=(git)
  command -v python3 >/dev/null || p+=(python3 python3-pip)
  { command -v elixir >/dev/null && command -v mix >/dev/null; } || p+=(elixir)
  [ -d /usr/lib/erlang/usr/include ] || compgen -G '/usr/lib/erlang/erts-*/include' >/dev/null \
    || compgen -G '/usr/local/lib/erlang/erts-*/include' >/dev/null || p+=(erlang-dev)
  command -v node >/dev/null || p+=(nodejs)
  command -v npm >/dev/null || p+=(npm)
  command -v bwrap >/dev/null || p+=(bubblewrap)
  command -v strace >/dev/null || p+=(strace)
  command -v rg >/dev/null || p+=(ripgrep)
  command -v rsync >/dev/null || p+=(rsync)
  command -v vim.basic >/dev/null || p+=(vim)
  command -v wget >/dev/null || p+=(wget)
  { command -v ssh && command -v scp && command -v ssh-keygen; } >/dev/null || p+=(openssh-client)
  command -v go >/dev/null || p+=(golang-go)
  echo "${p[*]}"
}
missing_modules() {
  local m=()
  if command -v python3 >/dev/null; then
    python3 -c 'import jsonschema' 2>/dev/null || m+=(jsonschema)
    python3 -m pre_commit --version >/dev/null 2>&1 || m+=(pre-commit)
    python3 -c 'import pytest' 2>/dev/null || m+=(pytest==8.3.5)
  else
    m=(jsonschema pre-commit pytest==8.3.5)
  fi
  echo "${m[*]}"
}

if ! command -v cargo >/dev/null; then
  echo "tests/all.sh: needs the Rust toolchain (1.89 or later): install it from https://rustup.rs, then run bash tests/all.sh again" >&2
  exit 1
fi
packages=$(missing_packages)
if [ -n "$packages" ] && [ -z "${PERMC_NO_INSTALL:-}" ] && command -v apt-get >/dev/null; then
  SUDO=
  if [ "$EUID" != 0 ]; then SUDO=$(command -v sudo || echo none); fi
  if [ "$SUDO" != none ]; then
    echo "tests/all.sh: installing $packages (apt-get)" >&2
    # shellcheck disable=SC2086 # a list of package names
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq $packages >/dev/null || true
    packages=$(missing_packages)
  fi
fi
modules=$(missing_modules)
if [ -n "$modules" ] && [ -z "${PERMC_NO_INSTALL:-}" ] && command -v python3 >/dev/null; then
  echo "tests/all.sh: installing $modules (pip)" >&2
  # shellcheck disable=SC2086 # a list of module names
  python3 -m pip install --quiet $modules 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages $modules 2>/dev/null \
    || python3 -m pip install --quiet --user --break-system-packages $modules 2>/dev/null || true
  modules=$(missing_modules)
fi
if [ -n "$packages$modules" ]; then
  todo=()
  [ -n "$packages" ] && todo+=("sudo apt-get install -y $packages")
  [ -n "$modules" ] && todo+=("python3 -m pip install $modules")
  line="${todo[0]}"
  [ ${#todo[@]} = 2 ] && line="$line && ${todo[1]}"
  # shellcheck disable=SC2086 # joined with single spaces
  what=$(echo $packages $modules)
  echo "tests/all.sh: missing $what: run \`$line\` (or your system's equivalent), then bash tests/all.sh again" >&2
  exit 1
fi

# pnpm at the version its rows pin (shell/catalogue/described/pnpm.toml),
# from npm's registry, when it is missing: the oracle verifies the rows
# against it (another version leaves them `not verified here`).
if ! command -v pnpm >/dev/null && [ -z "${PERMC_NO_INSTALL:-}" ]; then
  echo "tests/all.sh: installing pnpm@12.26.0 (npm)" >&2
  npm install -g --silent pnpm@12.26.0 >/dev/null 2>&1 \
    || { [ "$EUID" != 0 ] && command -v sudo >/dev/null && sudo npm install -g --silent pnpm@12.26.0 >/dev/null 2>&1; } || true
  command -v pnpm >/dev/null || echo "tests/all.sh: pnpm@12.26.0 could not be installed (npm install -g pnpm@12.26.0): its rows stay unverified here" >&2
fi

# Everything is there: the tests that would skip without a tool must run.
export PERMC_REQUIRE_SCHEMA=1 PERMC_REQUIRE_PRE_COMMIT=1 PERMC_REQUIRE_ORACLE=1
cargo test --workspace
# Real agents' lines (tests/agent_lines): a here-document that writes a file
# never asks in automatic mode (issue 42 point 7); cargo test built permc.
bash tests/agent_lines/check.sh
bash bindings/test.sh
