#!/usr/bin/env bash
# Shared by the README's two commands and .ci/run: brings Node and pnpm when the machine lacks
# Node 22.12+ or pnpm, then installs the workspace from its lockfile. Source it
# (`. scripts/bootstrap.sh`) so that PATH carries over.
#
# Nothing is installed by version range or outside a lockfile: the toolchain comes from
# scripts/toolchain/package-lock.json (exact versions, each tarball checked against its
# integrity by `npm ci`, no install scripts run), the workspace from pnpm-lock.yaml with
# --frozen-lockfile. A lockfile that does not match its package.json is an error to fix.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
LOCK="$ROOT/scripts/toolchain/package-lock.json"

node_ok() {
  command -v node >/dev/null 2>&1 &&
    node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)'
}

if ! node_ok || ! command -v pnpm >/dev/null 2>&1; then
  # .tools holds a copy of the lockfile it was installed from: another one means install again.
  if ! cmp -s "$LOCK" "$TOOLS/package-lock.json" || [ ! -x "$TOOLS/node_modules/.bin/node" ] || [ ! -x "$TOOLS/node_modules/.bin/pnpm" ]; then
    echo "bootstrap: installing Node and pnpm into .tools/ (npm ci from scripts/toolchain/package-lock.json)"
    mkdir -p "$TOOLS"
    cp "$ROOT/scripts/toolchain/package.json" "$LOCK" "$TOOLS/"
    npm ci --prefix "$TOOLS" --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null
    [ -x "$TOOLS/node_modules/.bin/node" ] ||
      { echo "bootstrap: no pinned Node for $(uname -s)-$(uname -m) in scripts/toolchain; install Node 22.12+ and pnpm yourself" >&2; exit 1; }
  fi
  export PATH="$TOOLS/node_modules/.bin:$PATH"
fi
node_ok || { echo "bootstrap: Node 22.12+ is required, found $(node --version 2>/dev/null)" >&2; exit 1; }

cd "$ROOT"
if [ "${CI:-}" = "true" ]; then
  pnpm install --frozen-lockfile --reporter=append-only
elif ! pnpm install --frozen-lockfile --reporter=silent; then
  # Quiet when it works; when it does not, say why (still frozen: nothing outside the lockfile).
  pnpm install --frozen-lockfile --reporter=append-only
fi
