#!/usr/bin/env bash
# The README's first command: installs what is missing, builds, and starts the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bootstrap.sh
pnpm build
exec pnpm --silent demo "$@"
