#!/usr/bin/env bash
# The README's test command: installs what is missing, builds every package, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bootstrap.sh
bash scripts/chromium.sh
pnpm build
pnpm lint:packages
pnpm docs:api
pnpm test
