#!/usr/bin/env bash
# Ensures libfaketime is on this machine (Debian's faketime package), for the chaos
# suite's clock-skew fault. Idempotent; prints the path of the preload library. The chaos
# runner sets LD_PRELOAD itself rather than going through the `faketime` wrapper, which
# forks, so that the replica's pid stays the server's own (kill -9 and SIGSTOP reach it).
# The MT flavour, as Node runs threads.
set -euo pipefail
source "$(dirname "$0")/lib/debian-binary.sh"
ensure_debian_binary faketime faketime "$(command -v faketime 2>/dev/null || true)" /usr/bin/faketime >/dev/null
for lib in "${FAKETIME_LIB:-}" "/usr/lib/$(uname -m)-linux-gnu/faketime/libfaketimeMT.so.1" /usr/lib/faketime/libfaketimeMT.so.1; do
  if [ -n "$lib" ] && [ -r "$lib" ]; then echo "$lib"; exit 0; fi
done
echo "libfaketimeMT.so.1 not found after installing faketime" >&2
exit 1
