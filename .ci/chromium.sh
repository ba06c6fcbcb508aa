#!/usr/bin/env bash
# Installs the browser the `browser` tests drive: Debian's chromium, pinned (Playwright's own browser download
# needs the network; its Python package drives this one through `executable_path`). Idempotent: an installed
# chromium at the pinned version is left alone. Needs root (or passwordless sudo) to install.
# The pin is the major version: Debian's security pocket keeps only the newest build of a major (156.0.8078.79 was
# replaced by .108 and could no longer be installed), so an exact pin breaks CI on every security update.
set -euo pipefail

CHROMIUM_MAJOR="156"
CHROMIUM_VERSION="$CHROMIUM_MAJOR.*"
log() { echo "chromium.sh: $*" >&2; }

installed="$(dpkg-query -W -f='${Version}' chromium 2>/dev/null || true)"
if [[ "$installed" == "$CHROMIUM_MAJOR".* ]] && [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  SUDO=()
elif sudo -n true 2>/dev/null; then
  SUDO=(sudo -n)
else
  log "chromium $CHROMIUM_VERSION is needed by the browser tests; install it as root:"
  log "  apt-get install -y --no-install-recommends 'chromium=$CHROMIUM_VERSION'"
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
log "installing chromium=$CHROMIUM_VERSION"
if ! "${SUDO[@]}" apt-get install -y -q --no-install-recommends "chromium=$CHROMIUM_VERSION" >&2; then
  "${SUDO[@]}" apt-get update -q >&2
  "${SUDO[@]}" apt-get install -y -q --no-install-recommends "chromium=$CHROMIUM_VERSION" >&2
fi
/usr/bin/chromium --version >&2
