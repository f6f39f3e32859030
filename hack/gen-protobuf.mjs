#!/usr/bin/env node
// Generates pkg/generated/protobuf-schema.json, the descriptors our protobuf codec walks,
// from upstream's wire interface in ../shared/upstream-protobuf: proto-fields.json gives
// each message's field numbers and types, go-fields.json what the .proto files omit (the
// JSON name, omitempty, inline embedding, and whether upstream's encoder always writes a
// field or only when set). Run: node hack/gen-protobuf.mjs [path/to/upstream-protobuf]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = process.argv[2] ?? join(repo, '..', 'shared', 'upstream-protobuf');
const proto = JSON.parse(readFileSync(join(src, 'proto-fields.json'), 'utf8')).packages;
const goFields = JSON.parse(readFileSync(join(src, 'go-fields.json'), 'utf8'));

const scalars = new Set(['string', 'bytes', 'bool', 'int32', 'int64', 'uint32', 'uint64', 'double', 'float']);

/** Go import path -> proto package: k8s.io/apiextensions-apiserver/... -> k8s.io.apiextensions_apiserver... */
const protoPackageOf = (goPkg) => goPkg.replaceAll('/', '.').replaceAll('-', '_');

const goByMessage = new Map();
for (const [goPkg, structs] of Object.entries(goFields)) {
  for (const [name, fields] of Object.entries(structs)) goByMessage.set(`${protoPackageOf(goPkg)}.${name}`, fields);
}

const allMessages = new Set();
for (const [pkg, { messages }] of Object.entries(proto)) for (const m of Object.keys(messages)) allMessages.add(`${pkg}.${m}`);

function resolve(pkg, type) {
  if (allMessages.has(`${pkg}.${type}`)) return `${pkg}.${type}`;
  if (allMessages.has(type)) return type;
  throw new Error(`unresolved message type ${type} in ${pkg}`);
}

const out = {};
let missingGo = 0;
for (const [pkg, { messages }] of Object.entries(proto)) {
  for (const [name, fields] of Object.entries(messages)) {
    const full = `${pkg}.${name}`;
    const goList = goByMessage.get(full);
    if (!goList) missingGo++;
    const byNumber = new Map((goList ?? []).filter((f) => f.protobuf).map((f) => [f.protobuf.number, f]));
    // Listed in Go struct order, the order upstream's JSON encoder writes; the codec
    // sorts by number for the wire.
    const goOrder = new Map((goList ?? []).filter((f) => f.protobuf).map((f, i) => [f.protobuf.number, i]));
    const order = (f) => goOrder.get(f.number) ?? 1000 + f.number;
    out[full] = [...fields].sort((a, b) => order(a) - order(b)).map((f) => {
      const go = byNumber.get(f.number);
      const d = { n: f.number, j: go ? go.json : f.name };
      if (f.type === 'map') {
        d.r = 2;
        d.k = f.key;
        if (scalars.has(f.value)) d.t = f.value; else { d.t = 'msg'; d.m = resolve(pkg, f.value); }
      } else {
        if (scalars.has(f.type)) d.t = f.type; else { d.t = 'msg'; d.m = resolve(pkg, f.type); }
        if (f.label === 'repeated') d.r = 1;
      }
      // A Go value (not pointer, slice, map or []byte) is written even when zero.
      if (!d.r && (!go || go.kind === 'value')) d.a = 1;
      if (go?.omitempty) d.o = 1;
      if (go?.inline) d.i = 1;
      if (go && go.kind === 'bytes' && d.t !== 'bytes') d.b = 1;
      return d;
    });
  }
}

const target = join(repo, 'pkg', 'generated', 'protobuf-schema.json');
writeFileSync(target, `${JSON.stringify(out)}\n`);
console.log(`wrote ${Object.keys(out).length} messages to ${target} (${missingGo} without Go field facts)`);
