// The definitions of one served custom resource version, as upstream's CRD OpenAPI
// builder publishes them: the kind (`com.example.v1.Gadget`) from the version's schema,
// with apiVersion, kind and metadata of a Kubernetes object and its group-version-kind,
// and the list kind (`com.example.v1.GadgetList`), each in a Swagger 2.0 and an OpenAPI
// 3.0 rendering.
import type { ResourceDef } from '../../registry/rest/resource.js';
import type { GVKRef, JSONObject } from '../types.js';
import { structural, toSwagger2, unfold } from './structural.js';

export interface RenderedDefinition {
  name: string;
  gvk: GVKRef;
  v2: JSONObject;
  v3: JSONObject;
  v2Refs: string[];
  v3Refs: string[];
}

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';
const CONVENTIONS = 'https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md';

// TypeMeta's field documentation, which upstream copies onto every custom kind.
const API_VERSION_DOC = 'APIVersion defines the versioned schema of this representation of an object. Servers should '
  + `convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: ${CONVENTIONS}#resources`;
const KIND_DOC = 'Kind is a string value representing the REST resource this object represents. Servers may infer '
  + `this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: ${CONVENTIONS}#types-kinds`;
// The shorter wording upstream gives objects embedded in a custom resource.
const EMBEDDED_API_VERSION_DOC = `apiVersion defines the versioned schema of this representation of an object. More info: ${CONVENTIONS}#resources`;
const EMBEDDED_KIND_DOC = `kind is a string value representing the type of this object. In CamelCase. More info: ${CONVENTIONS}#types-kinds`;
const OBJECT_METADATA_DOC = `Standard object's metadata. More info: ${CONVENTIONS}#metadata`;
const LIST_METADATA_DOC = `Standard list metadata. More info: ${CONVENTIONS}#types-kinds`;

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Upstream's REST-friendly name: the group reversed, then version and kind ("com.example.v1.Gadget"). */
export function customResourceDefinitionName(group: string, version: string, kind: string): string {
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

function refTo(name: string, v3: boolean): string {
  return v3 ? `#/components/schemas/${name}` : `#/definitions/${name}`;
}

/**
 * A reference with its own description. OpenAPI 3.0 ignores the siblings of a `$ref`, so
 * v3 wraps it in `allOf`, as upstream publishes it; kubectl's v3 explain then prints this
 * description (the field's) rather than the referenced type's.
 */
function describedRef(name: string, description: string, v3: boolean): JSONObject {
  return v3 ? { allOf: [{ $ref: refTo(name, true) }], description } : { $ref: refTo(name, false), description };
}

function setProperty(node: JSONObject, name: string, schema: JSONObject): void {
  node.properties = { ...(isObject(node.properties) ? node.properties : {}), [name]: schema };
}

function addTypeMeta(node: JSONObject): void {
  setProperty(node, 'apiVersion', { description: API_VERSION_DOC, type: 'string' });
  setProperty(node, 'kind', { description: KIND_DOC, type: 'string' });
}

/**
 * Objects embedded in the resource (x-kubernetes-embedded-resource) get apiVersion, kind
 * and metadata too, both required; not in v2 where they also keep unknown fields, since
 * kubectl would then reject every field it does not know.
 */
function addEmbedded(node: JSONObject, v3: boolean): void {
  if (isObject(node.properties)) for (const child of Object.values(node.properties)) if (isObject(child)) addEmbedded(child, v3);
  if (isObject(node.items)) addEmbedded(node.items, v3);
  if (isObject(node.additionalProperties)) addEmbedded(node.additionalProperties, v3);
  if (!v3 && node['x-kubernetes-preserve-unknown-fields'] === true) return;
  if (node['x-kubernetes-embedded-resource'] !== true) return;
  setProperty(node, 'apiVersion', { description: EMBEDDED_API_VERSION_DOC, type: 'string' });
  setProperty(node, 'kind', { description: EMBEDDED_KIND_DOC, type: 'string' });
  setProperty(node, 'metadata', describedRef(OBJECT_META, OBJECT_METADATA_DOC, v3));
  const required = Array.isArray(node.required) ? [...node.required as string[]] : [];
  for (const name of ['kind', 'apiVersion']) if (!required.includes(name)) required.push(name);
  node.required = required;
}

/** The kind's definition from its version's schema (none, or structural JSON). */
export function kindSchema(schema: JSONObject | undefined, gvk: GVKRef, v3: boolean): JSONObject {
  let out: JSONObject;
  // Without a schema, or in v2 for a schema that keeps unknown fields at its root, upstream
  // publishes a bare object: listing any property would make kubectl refuse all others.
  if (!schema || (!v3 && schema['x-kubernetes-preserve-unknown-fields'] === true)) {
    out = { type: 'object' };
  } else {
    out = unfold(structural(schema));
    if (!v3) out = toSwagger2(out);
    setProperty(out, 'metadata', describedRef(OBJECT_META, OBJECT_METADATA_DOC, v3));
    addTypeMeta(out);
    addEmbedded(out, v3);
  }
  out['x-kubernetes-group-version-kind'] = [{ group: gvk.group, kind: gvk.kind, version: gvk.version }];
  return out;
}

/** The list kind's definition: items of the kind, ListMeta metadata. */
export function listSchema(kindName: string, plural: string, listGVK: GVKRef, kind: string, v3: boolean): JSONObject {
  const out: JSONObject = {
    description: `${listGVK.kind} is a list of ${kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      items: { description: `List of ${plural}. More info: ${CONVENTIONS}`, type: 'array', items: { $ref: refTo(kindName, v3) } },
      metadata: describedRef(LIST_META, LIST_METADATA_DOC, v3),
    },
    'x-kubernetes-group-version-kind': [{ group: listGVK.group, kind: listGVK.kind, version: listGVK.version }],
  };
  addTypeMeta(out);
  return out;
}

/** Definition names a rendered schema refers to. */
function refsOf(node: unknown, out = new Set<string>()): string[] {
  if (Array.isArray(node)) for (const item of node) refsOf(item, out);
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.add(value.slice(value.lastIndexOf('/') + 1));
      else if (key !== 'default' && key !== 'enum') refsOf(value, out);
    }
  }
  return [...out];
}

function rendered(name: string, gvk: GVKRef, build: (v3: boolean) => JSONObject): RenderedDefinition {
  const v2 = build(false);
  const v3 = build(true);
  return { name, gvk, v2, v3, v2Refs: refsOf(v2), v3Refs: refsOf(v3) };
}

/** The kind and list definitions of a custom resource version served from a CRD. */
export function customResourceDefinitions(def: ResourceDef): RenderedDefinition[] {
  const { group, version, kind, plural } = def;
  const listKind = def.listKind ?? `${kind}List`;
  const kindName = customResourceDefinitionName(group, version, kind);
  const schema = def.customResource?.openAPISchema;
  const gvk = { group, version, kind };
  const listGVK = { group, version, kind: listKind };
  return [
    rendered(kindName, gvk, (v3) => kindSchema(schema, gvk, v3)),
    rendered(customResourceDefinitionName(group, version, listKind), listGVK, (v3) => listSchema(kindName, plural, listGVK, kind, v3)),
  ];
}
