// core/v1 configmaps.
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { ConfigMapStrategy } from './strategy.js';
import { configMapTable } from './table.js';

export const configmaps: ResourceDef = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  plural: 'configmaps',
  singular: 'configmap',
  shortNames: ['cm'],
  namespaced: true,
  verbs: [...allVerbs],
  strategy: new ConfigMapStrategy(),
  table: configMapTable,
};
