#!/usr/bin/env bash
# Shared by the README's two commands and .ci/run: brings Node 22.12+ and pnpm from the
# npm registry when the machine lacks them, then installs the workspace from the lockfile.
# Source it (`. scripts/bootstrap.sh`) so that PATH carries over.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
NODE_SPEC="node@24"
PNPM_SPEC="pnpm@10.34.9"

node_ok() {
  command -v node >/dev/null 2>&1 &&
    node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)'
}

if ! node_ok || ! command -v pnpm >/dev/null 2>&1; then
  if [ ! -x "$TOOLS/node_modules/.bin/node" ] || [ ! -x "$TOOLS/node_modules/.bin/pnpm" ]; then
    echo "bootstrap: installing $NODE_SPEC and $PNPM_SPEC into .tools/ (from the npm registry)"
    mkdir -p "$TOOLS"
    npm install --prefix "$TOOLS" --no-save --no-audit --no-fund --loglevel=error "$NODE_SPEC" "$PNPM_SPEC" >/dev/null
  fi
  export PATH="$TOOLS/node_modules/.bin:$PATH"
fi
node_ok || { echo "bootstrap: Node 22.12+ is required, found $(node --version 2>/dev/null)" >&2; exit 1; }

cd "$ROOT"
if [ "${CI:-}" = "true" ]; then
  pnpm install --frozen-lockfile --reporter=append-only
else
  pnpm install --frozen-lockfile --reporter=silent || pnpm install --reporter=append-only
fi
