// core/v1 configmaps.
import { allVerbs, type ResourceDef } from '../../../runtime/scheme.js';
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
