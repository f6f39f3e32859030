// flowcontrol.apiserver.k8s.io v1beta3 (preferred, stored) and v1beta2: flowschemas and
// prioritylevelconfigurations, each with status. v1beta1 is gone since v1.26, v1 comes
// in v1.29, as upstream v1.28 serves them. One stored object, seen through both versions.
import type { ResourceDef } from '../rest/resource.js';
import { flowSchemaToVersion, Group, priorityLevelToV1beta2, priorityLevelToV1beta3 } from './conversion.js';
import { FlowSchemaStrategy, PriorityLevelStrategy } from './strategy.js';
import { flowSchemaTable, priorityLevelTable } from './table.js';

const verbs: ResourceDef['verbs'] = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function flowSchemas(version: string): ResourceDef {
  return {
    group: Group, version, kind: 'FlowSchema', plural: 'flowschemas', singular: 'flowschema', namespaced: false,
    verbs: [...verbs],
    subresources: [{ name: 'status', kind: 'FlowSchema', verbs: ['get', 'patch', 'update'] }],
    strategy: new FlowSchemaStrategy(),
    table: flowSchemaTable,
  };
}

function priorityLevels(version: string): ResourceDef {
  return {
    group: Group, version, kind: 'PriorityLevelConfiguration', plural: 'prioritylevelconfigurations',
    singular: 'prioritylevelconfiguration', namespaced: false,
    verbs: [...verbs],
    subresources: [{ name: 'status', kind: 'PriorityLevelConfiguration', verbs: ['get', 'patch', 'update'] }],
    strategy: new PriorityLevelStrategy(version === 'v1beta2' ? 'assuredConcurrencyShares' : 'nominalConcurrencyShares'),
    table: priorityLevelTable,
  };
}

export const flowschemasV1beta3 = flowSchemas('v1beta3');
export const prioritylevelconfigurationsV1beta3 = priorityLevels('v1beta3');
/** v1beta2 is deprecated since v1.26 and gone in v1.29 (upstream's prerelease lifecycle). */
const v1beta2Warning = (kind: string): string =>
  `${Group}/v1beta2 ${kind} is deprecated in v1.26+, unavailable in v1.29+; use ${Group}/v1beta3 ${kind}`;

export const flowschemasV1beta2: ResourceDef = {
  ...flowSchemas('v1beta2'),
  deprecationWarning: v1beta2Warning('FlowSchema'),
  removedRelease: '1.29',
  conversion: { toStorage: flowSchemaToVersion('v1beta3'), fromStorage: flowSchemaToVersion('v1beta2') },
};
export const prioritylevelconfigurationsV1beta2: ResourceDef = {
  ...priorityLevels('v1beta2'),
  deprecationWarning: v1beta2Warning('PriorityLevelConfiguration'),
  removedRelease: '1.29',
  conversion: { toStorage: priorityLevelToV1beta3, fromStorage: priorityLevelToV1beta2 },
};
