// apps/v1 deployments (+status, +scale).
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { formatLabelSelector, num, section, templateColumns, templateContainers } from '../../../apis/core/printers.js';
import { scaleSubresource } from '../workload.js';
import { DeploymentStrategy } from './strategy.js';

export const deploymentTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Ready', 'string', 'Number of the pod with ready state'),
    column('Up-to-date', 'string', 'Total number of non-terminated pods targeted by this deployment that have the desired template spec.'),
    column('Available', 'string', 'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.'),
    ageColumn(),
    ...templateColumns(),
    column('Selector', 'string', 'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.', { priority: 1 }),
  ],
  cells: (o) => {
    const spec = section(o, 'spec');
    const status = section(o, 'status');
    const { names, images } = templateContainers(spec.template);
    return [o.metadata.name ?? '', `${num(status.readyReplicas)}/${num(spec.replicas)}`, num(status.updatedReplicas),
      num(status.availableReplicas), humanAge(o.metadata.creationTimestamp), names, images, formatLabelSelector(spec.selector)];
  },
};

export const deployments: ResourceDef = {
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  plural: 'deployments',
  singular: 'deployment',
  shortNames: ['deploy'],
  categories: ['all'],
  namespaced: true,
  verbs: [...allVerbs],
  subresources: [scaleSubresource(), { name: 'status', kind: 'Deployment', verbs: ['get', 'patch', 'update'] }],
  strategy: new DeploymentStrategy(),
  table: deploymentTable,
};
