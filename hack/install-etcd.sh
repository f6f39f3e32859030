#!/usr/bin/env bash
# Ensures an etcd binary is on this machine (Debian's etcd-server package).
# Idempotent: does nothing when etcd is already installed. Prints the binary's path.
set -euo pipefail
find_etcd() {
  for c in "${ETCD_BIN:-}" "$(command -v etcd 2>/dev/null || true)" /usr/bin/etcd /usr/local/bin/etcd; do
    if [ -n "$c" ] && [ -x "$c" ]; then echo "$c"; return 0; fi
  done
  return 1
}
if bin=$(find_etcd); then echo "$bin"; exit 0; fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
$SUDO apt-get install -y -qq --no-install-recommends etcd-server >&2
# The package starts a system etcd on 2379; we run our own on free ports, so stop it.
if command -v systemctl >/dev/null 2>&1; then $SUDO systemctl disable --now etcd >/dev/null 2>&1 || true; fi
find_etcd
