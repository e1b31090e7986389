#!/usr/bin/env bash
# The README's first command: installs what is missing, builds, and starts the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bootstrap.sh
echo "demo: building the packages…"
# Quiet unless it fails: the demo's own lines are what a newcomer should read.
if ! build_log="$(pnpm build 2>&1)"; then
  echo "$build_log" >&2
  exit 1
fi
exec pnpm --silent demo "$@"
