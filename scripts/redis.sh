#!/usr/bin/env bash
# The Redis store tests start Debian's redis-server on a free port of 127.0.0.1. Installs it
# when missing (needs root or sudo), as scripts/chromium.sh does for the browser tests.
set -euo pipefail
if [ -n "${REDIS_SERVER_PATH:-}" ] && [ -x "$REDIS_SERVER_PATH" ]; then exit 0; fi
if command -v redis-server >/dev/null 2>&1; then exit 0; fi
echo "redis-server: installing Debian's redis-server package"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends redis-server >/dev/null
command -v redis-server
