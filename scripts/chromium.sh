#!/usr/bin/env bash
# Browser tests drive Debian's Chromium with playwright-core: test tools' own browser
# downloads cannot reach their hosts here. Installs it when missing (needs root or sudo).
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "$CHROMIUM_PATH" ]; then exit 0; fi
if command -v chromium >/dev/null 2>&1; then exit 0; fi
echo "chromium: installing Debian's chromium package"
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
$SUDO apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
command -v chromium
