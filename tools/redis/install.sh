#!/usr/bin/env bash
# Installs Debian's redis-server (and redis-cli) for the shared-database tests, when missing, as root or with
# sudo. The tests start their own servers on free loopback ports (test/engine/redis-server.ts); nothing here
# starts or enables a service. Prints one line; the apt log's tail on failure.
set -euo pipefail
if command -v redis-server >/dev/null 2>&1 && command -v redis-cli >/dev/null 2>&1; then
  echo "redis install: present ($(redis-server --version | cut -d' ' -f3))"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
LOG="$(mktemp -t shrinkscope-redis-install.XXXXXX.log)"
START=$SECONDS
if ! { $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends redis-server redis-tools; } >"$LOG" 2>&1; then
  echo "redis install: FAILED after $((SECONDS - START))s (apt-get install redis-server redis-tools); last lines of $LOG:" >&2
  tail -n 40 "$LOG" >&2 || true
  exit 1
fi
# Debian's package may start a service where an init system runs one; the tests use their own servers.
echo "redis install: ok in $((SECONDS - START))s ($(redis-server --version | cut -d' ' -f3))"
