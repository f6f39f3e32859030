// The OpenAPI documents of the test extension server (wardle.example.com/v1alpha1
// flunders): a small Swagger 2.0 document for /openapi/v2 and an OpenAPI 3.0 document
// for /openapi/v3/apis/wardle.example.com/v1alpha1, listed in its /openapi/v3 root.
// Their ObjectMeta differs from the apiserver's on purpose (the aggregator must rename
// it), and the v2 document has a path outside the group version (which must not be merged).
import { createHash } from 'node:crypto';

export const flunderDefinition = 'com.example.wardle.v1alpha1.Flunder';
export const flunderSpecDescription = 'A name of another flunder, fischer or the empty string.';
const objectMeta = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const gvk = [{ group: 'wardle.example.com', kind: 'Flunder', version: 'v1alpha1' }];

/** Definitions in the given reference style (`#/definitions/` or `#/components/schemas/`). */
function definitions(refPrefix: string): Record<string, unknown> {
  const ref = (name: string) => ({ $ref: `${refPrefix}${name}` });
  return {
    [flunderDefinition]: {
      description: 'Flunder is an example type of the wardle extension server.',
      type: 'object',
      properties: {
        apiVersion: { description: 'APIVersion of the flunder.', type: 'string' },
        kind: { description: 'Kind of the flunder.', type: 'string' },
        metadata: { ...ref(objectMeta), description: 'Standard object metadata.' },
        spec: { ...ref('com.example.wardle.v1alpha1.FlunderSpec'), description: 'The flunder\'s desired state.' },
      },
      'x-kubernetes-group-version-kind': gvk,
    },
    'com.example.wardle.v1alpha1.FlunderSpec': {
      description: 'FlunderSpec is the specification of a Flunder.',
      type: 'object',
      properties: {
        reference: { description: flunderSpecDescription, type: 'string' },
        referenceType: { description: 'The type of the reference: Flunder or Fischer.', type: 'string' },
      },
    },
    'com.example.wardle.v1alpha1.FlunderList': {
      type: 'object',
      properties: { items: { type: 'array', items: ref(flunderDefinition) }, metadata: { type: 'object' } },
      'x-kubernetes-group-version-kind': [{ ...gvk[0], kind: 'FlunderList' }],
    },
    [objectMeta]: {
      description: 'The extension server\'s ObjectMeta.',
      type: 'object',
      properties: { name: { description: 'Name of the object.', type: 'string' }, namespace: { type: 'string' } },
    },
  };
}

const listPath = '/apis/wardle.example.com/v1alpha1/namespaces/{namespace}/flunders';

export function openAPIV2(): Record<string, unknown> {
  const op = (id: string, def: string, action: string) => ({
    operationId: id, produces: ['application/json'], schemes: ['https'], tags: ['wardleExampleCom_v1alpha1'],
    responses: { 200: { description: 'OK', schema: { $ref: `#/definitions/${def}` } } },
    'x-kubernetes-action': action, 'x-kubernetes-group-version-kind': gvk[0],
  });
  return {
    swagger: '2.0',
    info: { title: 'Wardle', version: 'v0' },
    paths: {
      [listPath]: { get: op('listWardleExampleComV1alpha1NamespacedFlunder', 'com.example.wardle.v1alpha1.FlunderList', 'list') },
      [`${listPath}/{name}`]: { get: op('readWardleExampleComV1alpha1NamespacedFlunder', flunderDefinition, 'get') },
      '/version/': { get: { operationId: 'getWardleVersion', responses: { 200: { description: 'OK', schema: { $ref: '#/definitions/wardle.Info' } } } } },
    },
    definitions: { ...definitions('#/definitions/'), 'wardle.Info': { type: 'object' } },
  };
}

export function openAPIV3Document(): Record<string, unknown> {
  const op = (id: string, def: string, action: string) => ({
    operationId: id, 'x-kubernetes-action': action, 'x-kubernetes-group-version-kind': gvk[0],
    responses: { 200: { description: 'OK', content: { 'application/json': { schema: { $ref: `#/components/schemas/${def}` } } } } },
  });
  return {
    openapi: '3.0.0',
    info: { title: 'Wardle', version: 'v0' },
    paths: {
      [listPath]: { get: op('listWardleExampleComV1alpha1NamespacedFlunder', 'com.example.wardle.v1alpha1.FlunderList', 'list') },
      [`${listPath}/{name}`]: { get: op('readWardleExampleComV1alpha1NamespacedFlunder', flunderDefinition, 'get') },
    },
    components: { schemas: definitions('#/components/schemas/') },
  };
}

export const v3Key = 'apis/wardle.example.com/v1alpha1';

export function etagOf(body: string): string {
  return createHash('sha512').update(body).digest('hex').toUpperCase();
}
