#!/usr/bin/env bash
# The here-document writes of the agent-lines corpus must not ask in automatic
# mode (issue 42, point 7: `cat <<'EOF' > src/file` was the largest cause of
# needless asks). Runs tests/agent_lines/ask_rate.py against target/debug/permc
# (build it first: cargo build --bin permc); exits 1, printing the offending
# lines, when any of them asks. PERMC=path overrides the binary.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
permc="${PERMC:-${CARGO_TARGET_DIR:-$root/target}/debug/permc}"
if [ ! -x "$permc" ]; then
  echo "check.sh: no permc at $permc (cargo build --bin permc first)" >&2
  exit 2
fi
exec python3 "$here/ask_rate.py" --permc "$permc" --fail-heredoc-above 0
