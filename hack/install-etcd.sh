#!/usr/bin/env bash
# Ensures an etcd binary is on this machine (Debian's etcd-server package).
# Idempotent: does nothing when etcd is already installed. Prints the binary's path.
set -euo pipefail
source "$(dirname "$0")/lib/debian-binary.sh"
ensure_debian_binary etcd-server etcd "${ETCD_BIN:-}" "$(command -v etcd 2>/dev/null || true)" /usr/bin/etcd /usr/local/bin/etcd
