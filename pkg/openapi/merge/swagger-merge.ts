// Merging Swagger 2.0 documents the way kube-openapi's aggregator does for the
// kube-aggregator: an extension server's document is first cut down to its APIService's
// paths (and the definitions they reach), then merged into ours. A path we already
// serve stays ours; a definition of the same name and the same content is shared; one of
// the same name but other content is renamed in the incoming document to `<name>_v2`
// (`_v3`, ... while taken) so our definition keeps its name. Top-level `parameters` are
// treated like definitions. Inputs are never mutated.
import { canonicalJSON } from '../builder/canonical-json.js';
import type { JSONObject } from '../types.js';

export type { JSONObject };

const isObject = (v: unknown): v is JSONObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The named sections a `$ref` can point into, with their reference prefixes. */
const sections = [
  { key: 'definitions', prefix: '#/definitions/' },
  { key: 'parameters', prefix: '#/parameters/' },
] as const;

type SectionKey = (typeof sections)[number]['key'];

function section(doc: JSONObject, key: SectionKey): JSONObject {
  return isObject(doc[key]) ? doc[key] as JSONObject : {};
}

/** Calls `visit` with every `$ref` string under `node`; its result replaces the reference. */
function rewriteRefs(node: unknown, visit: (ref: string) => string): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, visit));
  if (!isObject(node)) return node;
  const out: JSONObject = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === '$ref' && typeof v === 'string' ? visit(v) : rewriteRefs(v, visit);
  return out;
}

function forEachRef(node: unknown, visit: (ref: string) => void): void {
  rewriteRefs(node, (ref) => { visit(ref); return ref; });
}

/** Names of each section reachable from the document's paths. */
function reachable(doc: JSONObject): Record<SectionKey, Set<string>> {
  const used: Record<SectionKey, Set<string>> = { definitions: new Set(), parameters: new Set() };
  const stack: unknown[] = [doc.paths];
  while (stack.length > 0) {
    forEachRef(stack.pop(), (ref) => {
      for (const s of sections) {
        if (!ref.startsWith(s.prefix)) continue;
        const name = ref.slice(s.prefix.length);
        if (used[s.key].has(name)) continue;
        used[s.key].add(name);
        stack.push(section(doc, s.key)[name]);
      }
    });
  }
  return used;
}

/**
 * The document with only the paths `keep` accepts and the definitions and parameters
 * those paths still reach (kube-openapi's FilterSpecByPaths).
 */
export function filterPaths(doc: JSONObject, keep: (path: string) => boolean): JSONObject {
  const paths: JSONObject = {};
  for (const [p, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) if (keep(p)) paths[p] = item;
  const out: JSONObject = { ...doc, paths };
  const used = reachable(out);
  for (const s of sections) {
    if (!isObject(doc[s.key])) continue;
    const kept: JSONObject = {};
    for (const [name, v] of Object.entries(doc[s.key] as JSONObject)) if (used[s.key].has(name)) kept[name] = v;
    out[s.key] = kept;
  }
  return out;
}

/** An extension server's document cut to the paths of the group version its APIService serves. */
export function filterToGroupVersion(doc: JSONObject, group: string, version: string): JSONObject {
  const prefix = `/apis/${group}/${version}/`;
  return filterPaths(doc, (p) => p.startsWith(prefix));
}

const same = (a: unknown, b: unknown) => canonicalJSON(a) === canonicalJSON(b);

/** Names in `source` that clash with different content in `dest`, mapped to their new names. */
function renames(dest: JSONObject, source: JSONObject): Map<string, string> {
  const out = new Map<string, string>();
  const used = new Set(Object.keys(dest));
  for (const [name, v] of Object.entries(source)) {
    if (!(name in dest) || same(v, dest[name])) continue;
    let i = 2;
    while (used.has(`${name}_v${i}`) || `${name}_v${i}` in source) i++;
    const renamed = `${name}_v${i}`;
    used.add(renamed);
    out.set(name, renamed);
  }
  return out;
}

/**
 * `dest` with `source` merged in (kube-openapi's
 * MergeSpecsIgnorePathConflictRenamingDefinitionsAndParameters): paths `dest` already
 * has are left out of `source` first, then conflicting names renamed as above.
 */
export function mergeSpecs(dest: JSONObject, source: JSONObject): JSONObject {
  const destPaths = isObject(dest.paths) ? dest.paths : {};
  let src = filterPaths(source, (p) => !(p in destPaths));
  const renamed = new Map<string, string>();
  for (const s of sections) {
    for (const [from, to] of renames(section(dest, s.key), section(src, s.key))) renamed.set(s.prefix + from, s.prefix + to);
  }
  if (renamed.size > 0) {
    src = rewriteRefs(src, (ref) => renamed.get(ref) ?? ref) as JSONObject;
    for (const s of sections) {
      const moved: JSONObject = {};
      for (const [name, v] of Object.entries(section(src, s.key))) {
        const to = renamed.get(s.prefix + name);
        moved[to ? to.slice(s.prefix.length) : name] = v;
      }
      if (isObject(src[s.key])) src[s.key] = moved;
    }
  }
  const out: JSONObject = { ...dest, paths: { ...destPaths, ...(src.paths as JSONObject) } };
  for (const s of sections) {
    const incoming = section(src, s.key);
    if (Object.keys(incoming).length === 0) continue;
    out[s.key] = { ...incoming, ...section(dest, s.key) };
  }
  return out;
}
