#!/usr/bin/env bash
# Ensures HAProxy is on this machine (Debian's haproxy package), for the rolling-restart
# test that puts two replicas behind it. Idempotent; prints the binary's path.
set -euo pipefail
source "$(dirname "$0")/lib/debian-binary.sh"
ensure_debian_binary haproxy haproxy "${HAPROXY_BIN:-}" "$(command -v haproxy 2>/dev/null || true)" /usr/sbin/haproxy
