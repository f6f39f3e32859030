// The path model both documents are rendered from (paths, operations, parameters,
// responses) and the naming rules upstream applies to them. Built-in resources and custom
// resources fill it in their own shapes (operations.ts, custom-resource-paths.ts).
import type { GVKRef } from '../types.js';
import type { JSONObject } from './definitions.js';

export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

export interface ParamSpec {
  name: string;
  in: 'query' | 'path' | 'body';
  type?: 'string' | 'integer' | 'boolean';
  required?: boolean;
  /** Body parameters: the definition the body decodes into. */
  ref?: string;
}

export interface ResponseSpec {
  code: string;
  description: string;
  /** Definition name of the response body; `string` for plain text bodies. */
  ref?: string;
  plain?: boolean;
}

export interface OperationSpec {
  method: Method;
  operationId: string;
  tag: string;
  action?: string;
  gvk?: GVKRef;
  params: ParamSpec[];
  consumes: string[];
  produces: string[];
  responses: ResponseSpec[];
}

export interface PathSpec {
  path: string;
  /** The /openapi/v3/<key> document the path belongs to, e.g. "api/v1" or "apis/apps/v1". */
  docKey: string;
  /** Parameters every operation of the path shares (hoisted as upstream does). */
  params: ParamSpec[];
  ops: OperationSpec[];
}
export const STATUS = 'io.k8s.apimachinery.pkg.apis.meta.v1.Status';
export const DELETE_OPTIONS = 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions';
export const PATCH = 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch';

export const q = (name: string, type: ParamSpec['type'] = 'string'): ParamSpec => ({ name, in: 'query', type });
export const pathParam = (name: string): ParamSpec => ({ name, in: 'path', type: 'string', required: true });

// The query parameters of the options kinds (ListOptions, CreateOptions/UpdateOptions,
// DeleteOptions), as upstream's installer derives them from the Go structs.
export const LIST_PARAMS: ParamSpec[] = [
  q('allowWatchBookmarks', 'boolean'), q('continue'), q('fieldSelector'), q('labelSelector'), q('limit', 'integer'),
  q('resourceVersion'), q('resourceVersionMatch'), q('sendInitialEvents', 'boolean'), q('timeoutSeconds', 'integer'),
  q('watch', 'boolean'),
];
export const WRITE_PARAMS: ParamSpec[] = [q('dryRun'), q('fieldManager'), q('fieldValidation')];
export const DELETE_PARAMS: ParamSpec[] = [
  { name: 'body', in: 'body', ref: DELETE_OPTIONS }, q('dryRun'), q('gracePeriodSeconds', 'integer'),
  q('orphanDependents', 'boolean'), q('propagationPolicy'),
];

export const capitalize = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

/** "rbac.authorization.k8s.io" -> "RbacAuthorization"; "" -> "Core". */
export function groupCamel(group: string): string {
  if (!group) return 'Core';
  const trimmed = group.endsWith('.k8s.io') ? group.slice(0, -'.k8s.io'.length) : group;
  return trimmed.split(/[.-]/).map(capitalize).join('');
}

/** Operation tag: "core_v1", "rbacAuthorization_v1"; group-level tags omit the version. */
export function tagOf(group: string, version?: string): string {
  const camel = groupCamel(group);
  const base = camel[0].toLowerCase() + camel.slice(1);
  return version ? `${base}_${version}` : base;
}

export function docKeyOf(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

export function prefixOf(group: string, version: string): string {
  return `/${docKeyOf(group, version)}`;
}

/** Where one resource's operations go and how they are named, for either shape of document. */
export interface ResourcePaths {
  gvk: GVKRef;
  docKey: string;
  /** `/api/v1` or `/apis/<group>/<version>`. */
  prefix: string;
  /** Operation-id stem, e.g. "AppsV1". */
  gv: string;
  tag: string;
  /** "Namespaced" in operation ids of namespaced kinds. */
  ns: string;
  /** `/namespaces/{namespace}` for namespaced kinds. */
  nsPath: string;
  collection: string;
  item: string;
  /** Parameters shared by the collection's operations (pretty, namespace). */
  collShared: ParamSpec[];
  /** The same plus the item's name. */
  itemShared: ParamSpec[];
}

export function resourcePaths(def: { group: string; version: string; kind: string; plural: string; namespaced: boolean }): ResourcePaths {
  const { group, version, kind, plural } = def;
  const prefix = prefixOf(group, version);
  const nsPath = def.namespaced ? '/namespaces/{namespace}' : '';
  const collection = `${prefix}${nsPath}/${plural}`;
  const collShared = [q('pretty'), ...(def.namespaced ? [pathParam('namespace')] : [])];
  return {
    gvk: { group, version, kind }, docKey: docKeyOf(group, version), prefix,
    gv: `${groupCamel(group)}${capitalize(version)}`, tag: tagOf(group, version), ns: def.namespaced ? 'Namespaced' : '',
    nsPath, collection, item: `${collection}/{name}`, collShared, itemShared: [...collShared, pathParam('name')],
  };
}

function byName(a: ParamSpec, b: ParamSpec): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export class PathCollector {
  private paths = new Map<string, { docKey: string; ops: OperationSpec[]; shared: ParamSpec[] }>();

  add(path: string, docKey: string, shared: ParamSpec[], op: OperationSpec): void {
    let entry = this.paths.get(path);
    if (!entry) {
      entry = { docKey, ops: [], shared };
      this.paths.set(path, entry);
    }
    if (entry.ops.some((o) => o.method === op.method)) return;
    entry.ops.push(op);
  }

  /** Applies upstream's hoisting: non-body parameters present on every operation move to the path. */
  result(): PathSpec[] {
    const out: PathSpec[] = [];
    for (const [path, { docKey, ops, shared }] of this.paths) {
      const full = ops.map((o) => [...shared, ...o.params]);
      const key = (p: ParamSpec) => `${p.in}/${p.name}`;
      const common = full[0].filter((p) => p.in !== 'body' && full.every((list) => list.some((x) => key(x) === key(p))));
      const commonKeys = new Set(common.map(key));
      out.push({
        path, docKey,
        params: [...common].sort(byName),
        ops: ops.map((o, i) => ({ ...o, params: full[i].filter((p) => !commonKeys.has(key(p))).sort(byName) })),
      });
    }
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
}

export function responses(codes: [string, string][], ref?: string, plain?: boolean): ResponseSpec[] {
  return [...codes.map(([code, description]) => ({ code, description, ref, plain })), { code: '401', description: 'Unauthorized' }];
}

export const OK: [string, string] = ['200', 'OK'];
export const CREATED: [string, string] = ['201', 'Created'];
export const ACCEPTED: [string, string] = ['202', 'Accepted'];

/** The `paths` object of a document, with the version's own operation and parameter shapes. */
export function renderPaths(paths: PathSpec[], operation: (op: OperationSpec) => JSONObject,
  param: (p: ParamSpec) => JSONObject): JSONObject {
  const out: JSONObject = {};
  for (const p of paths) {
    const item: JSONObject = {};
    for (const op of p.ops) item[op.method] = operation(op);
    if (p.params.length) item.parameters = p.params.map(param);
    out[p.path] = item;
  }
  return out;
}
