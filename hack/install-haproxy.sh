#!/usr/bin/env bash
# Ensures HAProxy is on this machine (Debian's haproxy package), for the rolling-restart
# test that puts two replicas behind it. Idempotent; prints the binary's path.
set -euo pipefail
find_haproxy() {
  for c in "${HAPROXY_BIN:-}" "$(command -v haproxy 2>/dev/null || true)" /usr/sbin/haproxy; do
    if [ -n "$c" ] && [ -x "$c" ]; then echo "$c"; return 0; fi
  done
  return 1
}
if bin=$(find_haproxy); then echo "$bin"; exit 0; fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
$SUDO apt-get install -y -qq --no-install-recommends haproxy >&2
# The package may start a system HAProxy; the tests run their own, so stop it.
if command -v systemctl >/dev/null 2>&1; then $SUDO systemctl disable --now haproxy >/dev/null 2>&1 || true; fi
find_haproxy
