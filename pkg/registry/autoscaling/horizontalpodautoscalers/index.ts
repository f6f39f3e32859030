// autoscaling/v2 and autoscaling/v1 horizontalpodautoscalers (+status): one set of
// objects, stored as autoscaling/v2 (upstream v1.28's storage version) and converted for v1.
import type { ResourceDef } from '../../rest/resource.js';
import type { KubeObject } from '../../../runtime/object.js';
import { hpaToV1, hpaToV2 } from './conversion.js';
import { HPAStrategy } from './strategy.js';
import { hpaTable } from './table.js';

const asV2 = (obj: KubeObject): KubeObject => (obj.apiVersion === 'autoscaling/v1' ? hpaToV2(obj) : obj);

const common = {
  group: 'autoscaling',
  kind: 'HorizontalPodAutoscaler',
  plural: 'horizontalpodautoscalers',
  singular: 'horizontalpodautoscaler',
  shortNames: ['hpa'],
  categories: ['all'],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  subresources: [{ name: 'status', kind: 'HorizontalPodAutoscaler', verbs: ['get', 'patch', 'update'] }],
  table: hpaTable(asV2),
} satisfies Partial<ResourceDef>;

export const horizontalpodautoscalersV2: ResourceDef = {
  ...common,
  version: 'v2',
  subresources: [...common.subresources],
  shortNames: [...common.shortNames],
  categories: [...common.categories],
  verbs: [...common.verbs] as ResourceDef['verbs'],
  strategy: new HPAStrategy('v2', asV2),
};

export const horizontalpodautoscalersV1: ResourceDef = {
  ...common,
  version: 'v1',
  subresources: [...common.subresources],
  shortNames: [...common.shortNames],
  categories: [...common.categories],
  verbs: [...common.verbs] as ResourceDef['verbs'],
  strategy: new HPAStrategy('v1', asV2),
  conversion: { toStorage: hpaToV2, fromStorage: hpaToV1 },
};
