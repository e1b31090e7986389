#!/usr/bin/env bash
# The README's test command: installs what is missing, builds and type-checks every package,
# checks the packages and the API reference, then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/bootstrap.sh
bash scripts/chromium.sh
bash scripts/redis.sh
pnpm build
# vitest strips types without checking them: tsc checks sources, tests and examples.
pnpm --silent typecheck
pnpm lint:packages
pnpm docs:api
pnpm test
