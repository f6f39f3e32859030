#!/usr/bin/env node
// Generates pkg/apis/core/go-types.json: the Go struct layout (field names, Go types,
// JSON names, in declaration order) of k8s.io/api/core/v1 and the meta/v1 structs it
// uses, from ../shared/upstream-protobuf/go-fields.json. The go-cmp style reporter
// (pkg/apis/core/gocmp-*.ts) walks these to print values the way upstream's Go does.
// Run: node hack/gen-go-types.mjs [path/to/upstream-protobuf]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = process.argv[2] ?? join(repo, '..', 'shared', 'upstream-protobuf');
const goFields = JSON.parse(readFileSync(join(src, 'go-fields.json'), 'utf8'));

/** The extractor split embedded fields ("VolumeSourc" + "e", "metav1" + ".TypeMeta"); join them back. */
function field(f) {
  if (f.inline && f.json === '') {
    const type = `${f.go}${f.goType}`;
    return [type.replace(/^.*\./, ''), type, '', 1];
  }
  return [f.go, f.goType, f.json];
}

const pick = (pkg, prefix) => Object.fromEntries(Object.entries(goFields[pkg])
  .map(([name, fields]) => [`${prefix}${name}`, fields.map(field)]));

const out = {
  ...pick('k8s.io/api/core/v1', ''),
  ...Object.fromEntries(Object.entries(pick('k8s.io/apimachinery/pkg/apis/meta/v1', 'metav1.'))
    .filter(([n]) => ['metav1.LabelSelector', 'metav1.LabelSelectorRequirement'].includes(n))),
};
const target = join(repo, 'pkg', 'apis', 'core', 'go-types.json');
writeFileSync(target, `${JSON.stringify(out)}\n`);
console.log(`wrote ${Object.keys(out).length} structs to ${target}`);
