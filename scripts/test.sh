#!/usr/bin/env bash
# The README's test command: installs what is missing, builds and type-checks every package,
# checks the packages and the API reference, then runs every test and validates the mock's
# answers in them against the OpenAPI document.
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
# Every distinct answer the mock gives in the tests is recorded and, after the last project,
# validated against the OpenAPI document (mock-server/test/openapi-recorder.ts).
contract=$(mktemp -d)
trap 'rm -rf "$contract"' EXIT
SIKARAMP_CONTRACT_DIR=$contract pnpm test
