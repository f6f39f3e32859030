// The node shape of the generated schema module (pkg/generated/openapi-schema.json).
// It is OpenAPI's structural subset: `$ref` holds a bare definition name, and no node
// carries prose (the meta/v1 types get their published descriptions added, see
// meta-descriptions.ts).

/** A JSON object as the documents hold it (schemas, paths, whole specs). */
export type JSONObject = { [key: string]: unknown };

export interface GVKRef {
  group: string;
  version: string;
  kind: string;
}

export interface SchemaNode {
  $ref?: string;
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  format?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  additionalProperties?: SchemaNode | boolean;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  oneOf?: SchemaNode[];
  description?: string;
  'x-kubernetes-group-version-kind'?: GVKRef[];
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: 'atomic' | 'granular';
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-unions'?: unknown[];
  [marker: `x-kubernetes-${string}`]: unknown;
}

export interface SchemaModule {
  definitions: Record<string, SchemaNode>;
}
