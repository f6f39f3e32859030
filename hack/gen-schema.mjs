#!/usr/bin/env node
// Generates pkg/generated/openapi-schema.json: the structure of every built-in type,
// taken from upstream's published OpenAPI documents (v2 for structure and merge
// markers, v3 for defaults and the oneOf shapes of int-or-string and quantity).
// Prose is dropped on purpose: only machine-readable structure is kept.
//
//   node hack/gen-schema.mjs            (reads ../shared/upstream-openapi)
//   UPSTREAM_OPENAPI_DIR=/path node hack/gen-schema.mjs
//   OPENAPI_SCHEMA_OUT=/tmp/x.json node hack/gen-schema.mjs   (write elsewhere, e.g. to diff)
import { readFileSync, readdirSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const srcDir = process.env.UPSTREAM_OPENAPI_DIR ?? resolve(repo, '../shared/upstream-openapi');
const outFile = process.env.OPENAPI_SCHEMA_OUT ?? join(repo, 'pkg/generated/openapi-schema.json');

const V2_REF = '#/definitions/';
const V3_REF = '#/components/schemas/';

/** Keys copied verbatim from a schema node besides the structural ones handled below. */
const SCALAR_KEYS = ['type', 'format', 'required', 'enum'];

function readJSON(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** Loads every v3 component schema, keyed by definition name. */
function loadV3Schemas(dir) {
  const out = {};
  if (!existsSync(dir)) return out;
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('.json')) continue;
    const doc = readJSON(join(dir, f));
    Object.assign(out, doc.components?.schemas ?? {});
  }
  return out;
}

function stripRef(ref, prefix) {
  if (!ref.startsWith(prefix)) throw new Error(`unexpected $ref ${ref}`);
  return ref.slice(prefix.length);
}

/** Only plain objects are v3 counterparts (additionalProperties may be a boolean). */
function v3Node(node) {
  return node && typeof node === 'object' ? node : undefined;
}

/**
 * Builds the compact node from the v2 node, taking `default` (and `oneOf` at the
 * top level) from the matching v3 node. A v3 `$ref` with siblings is wrapped as
 * `allOf: [{$ref}]`; the wrapper itself carries the default, so it is the counterpart.
 */
function compact(v2, v3, top = false) {
  const out = {};
  if (v2.$ref) out.$ref = stripRef(v2.$ref, V2_REF);
  for (const k of SCALAR_KEYS) if (v2[k] !== undefined) out[k] = v2[k];
  if (v3 && Object.prototype.hasOwnProperty.call(v3, 'default')) out.default = v3.default;
  if (top && v3?.oneOf) out.oneOf = v3.oneOf.map((o) => ({ ...o }));
  if (v2.properties) {
    out.properties = {};
    const v3props = v3?.properties ?? {};
    for (const name of Object.keys(v2.properties).sort()) {
      out.properties[name] = compact(v2.properties[name], v3props[name]);
    }
  }
  if (v2.items) out.items = compact(v2.items, v3Node(v3?.items));
  if (v2.additionalProperties !== undefined) {
    out.additionalProperties = typeof v2.additionalProperties === 'boolean'
      ? v2.additionalProperties
      : compact(v2.additionalProperties, v3Node(v3?.additionalProperties));
  }
  for (const k of Object.keys(v2).sort()) {
    if (k.startsWith('x-kubernetes-')) out[k] = v2[k];
  }
  return out;
}

function main() {
  const swagger = readJSON(join(srcDir, 'swagger.json'));
  const v3 = loadV3Schemas(join(srcDir, 'v3'));
  const definitions = {};
  for (const name of Object.keys(swagger.definitions).sort()) {
    definitions[name] = compact(swagger.definitions[name], v3[name], true);
  }
  const text = JSON.stringify({ definitions });
  if (text.includes('"description"') && /"description":"[^"]*[ ]/.test(text)) {
    // A property literally named "description" is fine; prose is not.
    throw new Error('prose leaked into the generated schema');
  }
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(outFile, text + '\n');
  process.stdout.write(`wrote ${outFile}: ${Object.keys(definitions).length} definitions, ${text.length} bytes\n`);
}

main();
