#!/usr/bin/env bash
# Installs the Debian packages the tests need, those missing only, as root or with sudo, in one apt-get run:
#   - redis-server and redis-cli (redis-tools), for the shared-database tests, which start their own servers on
#     free loopback ports (test/engine/databases/redis-server.ts); nothing here starts or enables a service;
#   - chromium, for the panel's render tests and benchmarks (playwright-core drives /usr/bin/chromium; no browser
#     is ever downloaded) and the VS Code end-to-end tests.
# `npm test` runs it before the unit tests. Prints one line; the apt log's tail on failure.
set -euo pipefail
missing=()
{ command -v redis-server && command -v redis-cli; } >/dev/null 2>&1 || missing+=(redis-server redis-tools)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ "${#missing[@]}" -eq 0 ]; then
  echo "debian packages: present (redis $(redis-server --version | cut -d' ' -f3), $(chromium --version 2>/dev/null | head -n1))"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
LOG="$(mktemp -t shrinkscope-apt-install.XXXXXX.log)"
START=$SECONDS
if ! { $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"; } >"$LOG" 2>&1; then
  echo "debian packages: FAILED after $((SECONDS - START))s (apt-get install ${missing[*]}); last lines of $LOG:" >&2
  tail -n 40 "$LOG" >&2 || true
  exit 1
fi
# Debian's redis package may start a service where an init system runs one; the tests use their own servers.
echo "debian packages: installed ${missing[*]} in $((SECONDS - START))s (redis $(redis-server --version | cut -d' ' -f3), $(chromium --version 2>/dev/null | head -n1))"
