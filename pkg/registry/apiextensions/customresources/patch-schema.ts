// What server-side apply needs to know of a custom resource's schema (upstream builds
// an smd type from the structural schema): lists are atomic unless the schema says
// `x-kubernetes-list-type` set or map (with its keys), maps are granular unless
// `x-kubernetes-map-type: atomic`, and the root's metadata is ObjectMeta.
import type { PatchSchema } from '../../../apis/meta/patch-schema.js';
import type { JSONSchemaProps } from '../../../apis/apiextensions/types.js';
import { isPlainObject } from '../../../runtime/object.js';
import { patchSchemaForDefinition } from '../../../openapi/patch-schema.js';

const objectMeta = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const typeMetaField: PatchSchema = { field: () => undefined, items: () => undefined, type: 'string' };
const scalarTypes = new Set(['string', 'integer', 'number', 'boolean']);

export function customResourcePatchSchema(schema: JSONSchemaProps | undefined): PatchSchema | undefined {
  if (!schema) return undefined;
  const root = node(schema);
  return {
    ...root,
    // Upstream adds type and object metadata to every custom resource's root schema.
    field: (name) => {
      if (name === 'metadata') return patchSchemaForDefinition(objectMeta);
      if (name === 'apiVersion' || name === 'kind') return typeMetaField;
      return root.field(name);
    },
  };
}

function child(v: unknown): PatchSchema | undefined {
  return isPlainObject(v) ? node(v) : undefined;
}

function node(s: JSONSchemaProps): PatchSchema {
  const props = isPlainObject(s.properties) ? s.properties : undefined;
  const additional = s.additionalProperties;
  const type = typeof s.type === 'string' ? s.type : undefined;
  const listType = s['x-kubernetes-list-type'];
  const mapType = s['x-kubernetes-map-type'];
  const keys = s['x-kubernetes-list-map-keys'];
  const out: PatchSchema = {
    field: (name) => (props && Object.prototype.hasOwnProperty.call(props, name) ? child(props[name]) : child(additional)),
    items: () => (type === 'array' ? child(s.items) : child(additional)),
    // Fields beyond the declared ones are kept (and owned) where unknown fields are preserved.
    isStruct: props !== undefined && Object.keys(props).length > 0 && s['x-kubernetes-preserve-unknown-fields'] !== true,
  };
  if (type === 'object' || type === 'array' || (type && scalarTypes.has(type))) out.type = type as PatchSchema['type'];
  if (type === 'array') out.listType = listType === 'set' || listType === 'map' ? listType : 'atomic';
  if (Array.isArray(keys)) out.listMapKeys = keys.filter((k): k is string => typeof k === 'string');
  if (mapType === 'atomic' || mapType === 'granular') out.mapType = mapType;
  return out;
}
