#!/usr/bin/env bash
# The system packages the tests need beyond Python: Debian's Chromium (the browser tests drive it through
# Playwright), a colour-emoji font (the hostile-text screenshots), nginx (tests/deploy/, make scaletest) and
# redis-server (the live class). Installed with apt where it is there and we are root; otherwise we stop at once
# with the one command to run. Called by `make test` and by .ci/run. Nothing is done when all are present.
set -euo pipefail

missing=()
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || missing+=(chromium)  # CHROMIUM: as in support/chromium.py
[ -e /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] || dpkg -s fonts-noto-color-emoji >/dev/null 2>&1 \
  || missing+=(fonts-noto-color-emoji)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || missing+=(redis-server)

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
  echo "system_deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
  exit 0
fi

if command -v apt-get >/dev/null 2>&1; then
  cmd="sudo apt-get install -y --no-install-recommends ${missing[*]}"
else
  cmd="install ${missing[*]} with your system's package manager (Debian names), Chromium at /usr/bin/chromium"
fi
echo "system_deps: the tests need ${missing[*]}, which are missing. Run:" >&2
echo "  $cmd" >&2
exit 1
