// The operations the server serves, derived from the Scheme the way upstream's route
// installer names and shapes them (operationId, action, parameters, responses). Both
// the v2 and the v3 documents are rendered from this one model.
import type { ResourceDef, Scheme, SubresourceDef, Verb } from '../../runtime/scheme.js';
import { definitionNameForGVK } from '../schema.js';
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

const OBJECT_MEDIA = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
const LIST_MEDIA = [...OBJECT_MEDIA, 'application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch'];
const PATCH_MEDIA = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];
const ANY_MEDIA = ['*/*'];

const STATUS = 'io.k8s.apimachinery.pkg.apis.meta.v1.Status';
const DELETE_OPTIONS = 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions';
const PATCH = 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch';
const WATCH_EVENT = 'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent';

/**
 * Resources whose DELETE answers the deleted object rather than a Status (upstream's
 * storage choice), for definitions that do not say so with `returnDeletedObject`.
 */
const DELETE_RETURNS_OBJECT = new Set([
  '/persistentvolumeclaims', '/pods', '/podtemplates', '/resourcequotas', '/serviceaccounts', '/services',
  '/persistentvolumes', 'resource.k8s.io/podschedulingcontexts', 'resource.k8s.io/resourceclaims',
  'resource.k8s.io/resourceclaimtemplates', 'resource.k8s.io/resourceclasses', 'storage.k8s.io/csidrivers',
  'storage.k8s.io/csinodes', 'storage.k8s.io/storageclasses', 'storage.k8s.io/volumeattachments',
]);

/** Subresource kinds that live in another group than their parent, when the definition does not say. */
const FOREIGN_SUBRESOURCE_KINDS: Record<string, GVKRef> = {
  Scale: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
  TokenRequest: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' },
  Eviction: { group: 'policy', version: 'v1', kind: 'Eviction' },
  Binding: { group: '', version: 'v1', kind: 'Binding' },
};

/** Streaming subresources have no body schema; upstream documents them as connect actions. */
const CONNECT_SUBRESOURCES = new Set(['exec', 'attach', 'portforward', 'proxy']);

const q = (name: string, type: ParamSpec['type'] = 'string'): ParamSpec => ({ name, in: 'query', type });
const pathParam = (name: string): ParamSpec => ({ name, in: 'path', type: 'string', required: true });

const LIST_PARAMS: ParamSpec[] = [
  q('allowWatchBookmarks', 'boolean'), q('continue'), q('fieldSelector'), q('labelSelector'), q('limit', 'integer'),
  q('resourceVersion'), q('resourceVersionMatch'), q('sendInitialEvents', 'boolean'), q('timeoutSeconds', 'integer'),
  q('watch', 'boolean'),
];
const WRITE_PARAMS: ParamSpec[] = [q('dryRun'), q('fieldManager'), q('fieldValidation')];
const DELETE_PARAMS: ParamSpec[] = [
  { name: 'body', in: 'body', ref: DELETE_OPTIONS }, q('dryRun'), q('gracePeriodSeconds', 'integer'),
  q('orphanDependents', 'boolean'), q('propagationPolicy'),
];
const DELETECOLLECTION_PARAMS: ParamSpec[] = [
  ...DELETE_PARAMS, q('continue'), q('fieldSelector'), q('labelSelector'), q('limit', 'integer'),
  q('resourceVersion'), q('resourceVersionMatch'), q('sendInitialEvents', 'boolean'), q('timeoutSeconds', 'integer'),
];
const LOG_PARAMS: ParamSpec[] = [
  q('container'), q('follow', 'boolean'), q('insecureSkipTLSVerifyBackend', 'boolean'), q('limitBytes', 'integer'),
  q('previous', 'boolean'), q('sinceSeconds', 'integer'), q('tailLines', 'integer'), q('timestamps', 'boolean'),
];

const capitalize = (s: string) => (s ? s[0].toUpperCase() + s.slice(1) : s);

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

function prefixOf(group: string, version: string): string {
  return `/${docKeyOf(group, version)}`;
}

function byName(a: ParamSpec, b: ParamSpec): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

class PathCollector {
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

function responses(codes: [string, string][], ref?: string, plain?: boolean): ResponseSpec[] {
  return [...codes.map(([code, description]) => ({ code, description, ref, plain })), { code: '401', description: 'Unauthorized' }];
}

const OK: [string, string] = ['200', 'OK'];
const CREATED: [string, string] = ['201', 'Created'];
const ACCEPTED: [string, string] = ['202', 'Accepted'];

function subresourceGVK(def: ResourceDef, sub: SubresourceDef): GVKRef | undefined {
  if (sub.group !== undefined || sub.version !== undefined) {
    const declared = { group: sub.group ?? def.group, version: sub.version ?? def.version, kind: sub.kind };
    return definitionNameForGVK(declared.group, declared.version, declared.kind) ? declared : undefined;
  }
  if (definitionNameForGVK(def.group, def.version, sub.kind)) return { group: def.group, version: def.version, kind: sub.kind };
  const foreign = FOREIGN_SUBRESOURCE_KINDS[sub.kind];
  return foreign && definitionNameForGVK(foreign.group, foreign.version, foreign.kind) ? foreign : undefined;
}

function addResource(c: PathCollector, def: ResourceDef): void {
  const { group, version, kind, plural } = def;
  const kindRef = definitionNameForGVK(group, version, kind);
  if (!kindRef) return;
  const listRef = definitionNameForGVK(group, version, `${kind}List`);
  const gvk: GVKRef = { group, version, kind };
  const docKey = docKeyOf(group, version);
  const prefix = prefixOf(group, version);
  const gv = `${groupCamel(group)}${capitalize(version)}`;
  const tag = tagOf(group, version);
  const ns = def.namespaced ? 'Namespaced' : '';
  const nsPath = def.namespaced ? '/namespaces/{namespace}' : '';
  const nsParams = def.namespaced ? [pathParam('namespace')] : [];
  const collection = `${prefix}${nsPath}/${plural}`;
  const item = `${collection}/{name}`;
  const pretty = q('pretty');
  const has = (v: Verb) => def.verbs.includes(v);
  const op = (method: Method, operationId: string, action: string, params: ParamSpec[], resp: ResponseSpec[],
    extra: Partial<OperationSpec> = {}): OperationSpec => ({
    method, operationId, tag, action, gvk, params, responses: resp,
    consumes: ANY_MEDIA, produces: OBJECT_MEDIA, ...extra,
  });
  const itemShared = [pretty, ...nsParams, pathParam('name')];
  const collShared = [pretty, ...nsParams];

  if (has('list') && listRef) {
    const listOp = (id: string) => op('get', id, 'list', LIST_PARAMS, responses([OK], listRef), { produces: LIST_MEDIA });
    c.add(collection, docKey, collShared, listOp(`list${gv}${ns}${kind}`));
    if (def.namespaced) c.add(`${prefix}/${plural}`, docKey, [pretty], listOp(`list${gv}${kind}ForAllNamespaces`));
  }
  if (has('create')) {
    c.add(collection, docKey, collShared, op('post', `create${gv}${ns}${kind}`, 'post',
      [{ name: 'body', in: 'body', required: true, ref: kindRef }, ...WRITE_PARAMS], responses([OK, CREATED, ACCEPTED], kindRef)));
  }
  if (has('deletecollection')) {
    c.add(collection, docKey, collShared, op('delete', `delete${gv}Collection${ns}${kind}`, 'deletecollection',
      DELETECOLLECTION_PARAMS, responses([OK], STATUS)));
  }
  if (has('get')) c.add(item, docKey, itemShared, op('get', `read${gv}${ns}${kind}`, 'get', [], responses([OK], kindRef)));
  if (has('update')) {
    c.add(item, docKey, itemShared, op('put', `replace${gv}${ns}${kind}`, 'put',
      [{ name: 'body', in: 'body', required: true, ref: kindRef }, ...WRITE_PARAMS], responses([OK, CREATED], kindRef)));
  }
  if (has('patch')) {
    c.add(item, docKey, itemShared, op('patch', `patch${gv}${ns}${kind}`, 'patch',
      [{ name: 'body', in: 'body', required: true, ref: PATCH }, ...WRITE_PARAMS, q('force', 'boolean')],
      responses([OK, CREATED], kindRef), { consumes: PATCH_MEDIA }));
  }
  if (has('delete')) {
    const returnsObject = def.returnDeletedObject ?? DELETE_RETURNS_OBJECT.has(`${group}/${plural}`);
    const deleted = returnsObject ? kindRef : STATUS;
    c.add(item, docKey, itemShared, op('delete', `delete${gv}${ns}${kind}`, 'delete', DELETE_PARAMS, responses([OK, ACCEPTED], deleted)));
  }
  if (has('watch')) {
    const watchOp = (id: string, action: string) => op('get', id, action, LIST_PARAMS, responses([OK], WATCH_EVENT), { produces: LIST_MEDIA });
    const wprefix = `${prefix}/watch${nsPath}/${plural}`;
    c.add(wprefix, docKey, collShared, watchOp(`watch${gv}${ns}${kind}List`, 'watchlist'));
    c.add(`${wprefix}/{name}`, docKey, itemShared, watchOp(`watch${gv}${ns}${kind}`, 'watch'));
    if (def.namespaced) c.add(`${prefix}/watch/${plural}`, docKey, [pretty], watchOp(`watch${gv}${kind}ListForAllNamespaces`, 'watchlist'));
  }
  for (const sub of def.subresources ?? []) addSubresource(c, def, sub, { docKey, gv, tag, ns, item, itemShared, kindRef });
}

interface ParentInfo {
  docKey: string; gv: string; tag: string; ns: string; item: string; itemShared: ParamSpec[]; kindRef: string;
}

function addSubresource(c: PathCollector, def: ResourceDef, sub: SubresourceDef, p: ParentInfo): void {
  if (CONNECT_SUBRESOURCES.has(sub.name)) return;
  const path = `${p.item}/${sub.name}`;
  const base = `${p.gv}${p.ns}${def.kind}${capitalize(sub.name)}`;
  const parentGVK: GVKRef = { group: def.group, version: def.version, kind: def.kind };
  if (sub.name === 'log') {
    if (sub.verbs.includes('get')) {
      c.add(path, p.docKey, p.itemShared, {
        method: 'get', operationId: `read${base}`, tag: p.tag, action: 'get', gvk: parentGVK, params: LOG_PARAMS,
        consumes: ANY_MEDIA, produces: ['text/plain', ...OBJECT_MEDIA], responses: responses([OK], undefined, true),
      });
    }
    return;
  }
  const gvk = subresourceGVK(def, sub);
  if (!gvk) return;
  const ref = definitionNameForGVK(gvk.group, gvk.version, gvk.kind) as string;
  const op = (method: Method, id: string, action: string, params: ParamSpec[], resp: ResponseSpec[], consumes = ANY_MEDIA): OperationSpec => ({
    method, operationId: id, tag: p.tag, action, gvk, params, consumes, produces: OBJECT_MEDIA, responses: resp,
  });
  const body = { name: 'body', in: 'body' as const, required: true, ref };
  if (sub.verbs.includes('get')) c.add(path, p.docKey, p.itemShared, op('get', `read${base}`, 'get', [], responses([OK], ref)));
  if (sub.verbs.includes('create')) {
    c.add(path, p.docKey, p.itemShared, op('post', `create${base}`, 'post', [body, ...WRITE_PARAMS], responses([OK, CREATED, ACCEPTED], ref)));
  }
  if (sub.verbs.includes('update')) {
    c.add(path, p.docKey, p.itemShared, op('put', `replace${base}`, 'put', [body, ...WRITE_PARAMS], responses([OK, CREATED], ref)));
  }
  if (sub.verbs.includes('patch')) {
    c.add(path, p.docKey, p.itemShared, op('patch', `patch${base}`, 'patch',
      [{ ...body, ref: PATCH }, ...WRITE_PARAMS, q('force', 'boolean')], responses([OK, CREATED], ref), PATCH_MEDIA));
  }
}

const DISCOVERY_MEDIA = OBJECT_MEDIA;

function discoveryOp(operationId: string, tag: string, ref: string, media = DISCOVERY_MEDIA): OperationSpec {
  return { method: 'get', operationId, tag, params: [], consumes: media, produces: media, responses: responses([OK], ref) };
}

function addDiscovery(c: PathCollector, scheme: Scheme): void {
  const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
  // Only group-versions with at least one documented kind get documents; clients read a
  // present document as the complete list of that group-version's operations.
  const documented = (group: string, version: string) =>
    scheme.resourcesOf(group, version).some((d) => definitionNameForGVK(group, version, d.kind) !== undefined);
  const versions = (group: string) => scheme.versionsOf(group).filter((v) => documented(group, v));
  const groups = scheme.groups().filter((g) => versions(g).length > 0);
  if (groups.includes('')) {
    c.add('/api/', 'api', [], discoveryOp('getCoreAPIVersions', 'core', `${meta}APIVersions`));
  }
  if (groups.some((g) => g !== '')) c.add('/apis/', 'apis', [], discoveryOp('getAPIVersions', 'apis', `${meta}APIGroupList`));
  for (const group of groups) {
    if (group) c.add(`/apis/${group}/`, `apis/${group}`, [], discoveryOp(`get${groupCamel(group)}APIGroup`, tagOf(group), `${meta}APIGroup`));
    for (const version of versions(group)) {
      c.add(`${prefixOf(group, version)}/`, docKeyOf(group, version), [],
        discoveryOp(`get${groupCamel(group)}${capitalize(version)}APIResources`, tagOf(group, version), `${meta}APIResourceList`));
    }
  }
  c.add('/version/', 'version', [], discoveryOp('getCodeVersion', 'version', 'io.k8s.apimachinery.pkg.version.Info', ['application/json']));
}

/** Every path the server documents for this scheme, sorted by path. */
export function buildPaths(scheme: Scheme): PathSpec[] {
  const c = new PathCollector();
  addDiscovery(c, scheme);
  for (const def of scheme.resources()) addResource(c, def);
  return c.result();
}

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
