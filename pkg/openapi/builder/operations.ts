// The operations the server serves, derived from the Scheme the way upstream's route
// installer names and shapes them (operationId, action, parameters, responses). Both
// the v2 and the v3 documents are rendered from this one model. Custom resources have
// their own shapes, from upstream's CRD builder (custom-resource-paths.ts).
import type { Verb } from '../../runtime/scheme.js';
import type { ResourceDef, SubresourceDef } from '../../registry/rest/resource.js';
import type { ResourceScheme } from '../../registry/rest/resource-scheme.js';
import type { GVKRef } from '../types.js';
import { addCustomResource } from './custom-resource-paths.js';
import { builtinDefinitions, type DefinitionSource } from './definition-source.js';
import {
  ACCEPTED, capitalize, CREATED, DELETE_PARAMS, docKeyOf, groupCamel, LIST_PARAMS, OK, PATCH, PathCollector,
  prefixOf, q, resourcePaths, responses, STATUS, tagOf, WRITE_PARAMS,
  type Method, type OperationSpec, type ParamSpec, type PathSpec, type ResponseSpec,
} from './paths.js';

export { docKeyOf, groupCamel, renderPaths, tagOf } from './paths.js';
export type { Method, OperationSpec, ParamSpec, PathSpec, ResponseSpec } from './paths.js';

const OBJECT_MEDIA = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
const LIST_MEDIA = [...OBJECT_MEDIA, 'application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch'];
const PATCH_MEDIA = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];
const ANY_MEDIA = ['*/*'];

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

const DELETECOLLECTION_PARAMS: ParamSpec[] = [
  ...DELETE_PARAMS, q('continue'), q('fieldSelector'), q('labelSelector'), q('limit', 'integer'),
  q('resourceVersion'), q('resourceVersionMatch'), q('sendInitialEvents', 'boolean'), q('timeoutSeconds', 'integer'),
];
const LOG_PARAMS: ParamSpec[] = [
  q('container'), q('follow', 'boolean'), q('insecureSkipTLSVerifyBackend', 'boolean'), q('limitBytes', 'integer'),
  q('previous', 'boolean'), q('sinceSeconds', 'integer'), q('tailLines', 'integer'), q('timestamps', 'boolean'),
];

function subresourceGVK(defs: DefinitionSource, def: ResourceDef, sub: SubresourceDef): GVKRef | undefined {
  if (sub.group !== undefined || sub.version !== undefined) {
    const declared = { group: sub.group ?? def.group, version: sub.version ?? def.version, kind: sub.kind };
    return defs.nameForGVK(declared.group, declared.version, declared.kind) ? declared : undefined;
  }
  if (defs.nameForGVK(def.group, def.version, sub.kind)) return { group: def.group, version: def.version, kind: sub.kind };
  const foreign = FOREIGN_SUBRESOURCE_KINDS[sub.kind];
  return foreign && defs.nameForGVK(foreign.group, foreign.version, foreign.kind) ? foreign : undefined;
}

function addResource(c: PathCollector, def: ResourceDef, defs: DefinitionSource): void {
  const { group, version, kind, plural } = def;
  const kindRef = defs.nameForGVK(group, version, kind);
  if (!kindRef) return;
  const listRef = defs.nameForGVK(group, version, def.listKind ?? `${kind}List`);
  const { gvk, docKey, prefix, gv, tag, ns, nsPath, collection, item, collShared, itemShared } = resourcePaths(def);
  const pretty = collShared[0]!;
  const has = (v: Verb) => def.verbs.includes(v);
  const op = (method: Method, operationId: string, action: string, params: ParamSpec[], resp: ResponseSpec[],
    extra: Partial<OperationSpec> = {}): OperationSpec => ({
    method, operationId, tag, action, gvk, params, responses: resp,
    consumes: ANY_MEDIA, produces: OBJECT_MEDIA, ...extra,
  });

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
  for (const sub of def.subresources ?? []) addSubresource(c, defs, def, sub, { docKey, gv, tag, ns, item, itemShared, kindRef });
}

interface ParentInfo {
  docKey: string; gv: string; tag: string; ns: string; item: string; itemShared: ParamSpec[]; kindRef: string;
}

function addSubresource(c: PathCollector, defs: DefinitionSource, def: ResourceDef, sub: SubresourceDef, p: ParentInfo): void {
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
  const gvk = subresourceGVK(defs, def, sub);
  if (!gvk) return;
  const ref = defs.nameForGVK(gvk.group, gvk.version, gvk.kind) as string;
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

function addDiscovery(c: PathCollector, scheme: ResourceScheme, defs: DefinitionSource): void {
  const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
  // Only group-versions with at least one documented kind get documents; clients read a
  // present document as the complete list of that group-version's operations. Custom
  // resources' discovery is not documented (upstream serves it outside its route tables).
  const documented = (group: string, version: string) => scheme.resourcesOf(group, version)
    .some((d) => !d.customResource && defs.nameForGVK(group, version, d.kind) !== undefined);
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
export function buildPaths(scheme: ResourceScheme, defs: DefinitionSource = builtinDefinitions): PathSpec[] {
  const c = new PathCollector();
  addDiscovery(c, scheme, defs);
  for (const def of scheme.resources()) {
    if (def.customResource) addCustomResource(c, def, defs);
    else addResource(c, def, defs);
  }
  return c.result();
}
