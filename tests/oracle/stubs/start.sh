#!/bin/bash
# The local stubs of the endpoints the rows declare (SPEC §4.5 item 5),
# started inside the sandbox's own network namespace (bwrap
# --unshare-all: loopback only) before the command, which then finds
#
#   git://127.0.0.1/origin.git        git daemon (the fixture's `origin`)
#   http://127.0.0.1:8080/origin.git  http.py, git's dumb HTTP (`web`)
#
# both serving the read-only bare origin at /srv/origin.git.
#
#   bash /srv/stubs/start.sh COMMAND...
#
# waits (up to 5 s) until both listen, then execs COMMAND: the tracer
# follows COMMAND and its descendants only, so the stubs' own processes
# are never judged, and they die with the sandbox's PID namespace.
git daemon --listen=127.0.0.1 --port=9418 --base-path=/srv --export-all \
  --reuseaddr /srv/origin.git </dev/null >/dev/null 2>&1 &
# The system's python3 (a version manager's shim on PATH starts slower).
py=/usr/bin/python3
[[ -x $py ]] || py=python3
"$py" -S /srv/stubs/http.py </dev/null >/dev/null 2>&1 &
# 9418 and 8080 in /proc/net/tcp's hex, listening (state 0A).
for _ in {1..500}; do
  t=$(</proc/net/tcp)
  [[ $t == *" 0100007F:24CA 00000000:0000 0A"* && $t == *" 0100007F:1F90 00000000:0000 0A"* ]] && break
  sleep 0.01
done
exec "$@"
