// The operations of a custom resource version, shaped as upstream's CRD OpenAPI builder
// shapes them rather than as its installer does for built-in kinds: JSON and YAML only,
// no watch paths, options from GetOptions/ListOptions/PatchOptions, every operation
// (scale too) tagged with the custom kind, and DELETE answering a Status.
import type { ResourceDef } from '../../registry/rest/resource.js';
import type { DefinitionSource } from './definition-source.js';
import {
  ACCEPTED, capitalize, CREATED, DELETE_PARAMS, LIST_PARAMS, OK, PATCH, PathCollector, q, resourcePaths, responses, STATUS,
  WRITE_PARAMS, type Method, type OperationSpec, type ParamSpec, type ResponseSpec,
} from './paths.js';

const MEDIA = ['application/json', 'application/yaml'];
const PATCH_MEDIA = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'];
const SCALE = { group: 'autoscaling', version: 'v1', kind: 'Scale' };

const GET_PARAMS: ParamSpec[] = [q('resourceVersion')];
const PATCH_PARAMS: ParamSpec[] = [...WRITE_PARAMS, q('force', 'boolean')];
const body = (ref: string): ParamSpec => ({ name: 'body', in: 'body', required: true, ref });

export function addCustomResource(c: PathCollector, def: ResourceDef, defs: DefinitionSource): void {
  const { group, version, kind, plural } = def;
  const kindRef = defs.nameForGVK(group, version, kind);
  const listRef = defs.nameForGVK(group, version, def.listKind ?? `${kind}List`);
  if (!kindRef || !listRef) return;
  const { gvk, docKey, prefix, gv, tag, ns, collection, item, collShared, itemShared } = resourcePaths(def);
  const op = (method: Method, operationId: string, action: string, params: ParamSpec[], resp: ResponseSpec[]): OperationSpec => ({
    method, operationId, tag, action, gvk, params, responses: resp,
    consumes: method === 'patch' ? PATCH_MEDIA : MEDIA, produces: MEDIA,
  });

  if (def.namespaced) {
    c.add(`${prefix}/${plural}`, docKey, [q('pretty')], op('get', `list${gv}${kind}ForAllNamespaces`, 'list', LIST_PARAMS, responses([OK], listRef)));
  }
  c.add(collection, docKey, collShared, op('get', `list${gv}${ns}${kind}`, 'list', LIST_PARAMS, responses([OK], listRef)));
  c.add(collection, docKey, collShared, op('post', `create${gv}${ns}${kind}`, 'post', [body(kindRef), ...WRITE_PARAMS],
    responses([OK, CREATED, ACCEPTED], kindRef)));
  c.add(collection, docKey, collShared, op('delete', `delete${gv}Collection${ns}${kind}`, 'deletecollection', LIST_PARAMS,
    responses([OK], STATUS)));
  c.add(item, docKey, itemShared, op('get', `read${gv}${ns}${kind}`, 'get', GET_PARAMS, responses([OK], kindRef)));
  c.add(item, docKey, itemShared, op('put', `replace${gv}${ns}${kind}`, 'put', [body(kindRef), ...WRITE_PARAMS], responses([OK, CREATED], kindRef)));
  c.add(item, docKey, itemShared, op('delete', `delete${gv}${ns}${kind}`, 'delete', DELETE_PARAMS, responses([OK, ACCEPTED], STATUS)));
  c.add(item, docKey, itemShared, op('patch', `patch${gv}${ns}${kind}`, 'patch', [body(PATCH), ...PATCH_PARAMS], responses([OK], kindRef)));

  for (const sub of def.subresources ?? []) {
    const ref = sub.name === 'status' ? kindRef
      : sub.name === 'scale' ? defs.nameForGVK(SCALE.group, SCALE.version, SCALE.kind) : undefined;
    if (!ref) continue;
    const path = `${item}/${sub.name}`;
    const name = `${gv}${ns}${kind}${capitalize(sub.name)}`;
    c.add(path, docKey, itemShared, op('get', `read${name}`, 'get', GET_PARAMS, responses([OK], ref)));
    c.add(path, docKey, itemShared, op('put', `replace${name}`, 'put', [body(ref), ...WRITE_PARAMS], responses([OK, CREATED], ref)));
    c.add(path, docKey, itemShared, op('patch', `patch${name}`, 'patch', [body(PATCH), ...PATCH_PARAMS], responses([OK], ref)));
  }
}
