#!/usr/bin/env node
// Generates pkg/generated/meta-descriptions.json: the documentation upstream publishes
// for the apimachinery meta/v1 types (ObjectMeta, ListMeta, OwnerReference,
// ManagedFieldsEntry, ...). Every custom resource's OpenAPI refers to these types and
// clients show it (`kubectl explain <plural>.metadata`, which upstream's conformance
// checks), so this part of the published API is kept, as data taken from upstream's
// documents; the rest of the built-in prose stays out (see gen-schema.mjs).
//
//   node hack/gen-meta-descriptions.mjs   (reads ../shared/upstream-openapi/swagger.json)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const srcDir = process.env.UPSTREAM_OPENAPI_DIR ?? resolve(repo, '../shared/upstream-openapi');
const outFile = process.env.META_DESCRIPTIONS_OUT ?? join(repo, 'pkg/generated/meta-descriptions.json');
const metaPrefix = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

const swagger = JSON.parse(readFileSync(join(srcDir, 'swagger.json'), 'utf8'));
const out = {};
for (const name of Object.keys(swagger.definitions).sort()) {
  if (!name.startsWith(metaPrefix)) continue;
  const def = swagger.definitions[name];
  const properties = {};
  for (const [p, node] of Object.entries(def.properties ?? {})) if (typeof node.description === 'string') properties[p] = node.description;
  const entry = {};
  if (typeof def.description === 'string') entry.description = def.description;
  if (Object.keys(properties).length > 0) entry.properties = properties;
  if (Object.keys(entry).length > 0) out[name] = entry;
}
writeFileSync(outFile, `${JSON.stringify(out, null, 1)}\n`);
console.log(`wrote ${Object.keys(out).length} definitions to ${outFile}`);
