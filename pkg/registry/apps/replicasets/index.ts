// apps/v1 replicasets (+status, +scale).
import type { FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { formatLabelSelector, num, section, templateColumns, templateContainers } from '../../../apis/core/printers.js';
import { validateTemplateForReplicas } from '../../../apis/core/template.js';
import { obj, setDefault, type Obj } from '../../../apis/core/types.js';
import { nonNegative, validateSelector } from '../../../apis/apps/validation.js';
import { child } from '../../../apis/validation/field.js';
import { scaleSubresource, specOf, WorkloadStrategy } from '../workload.js';

export class ReplicaSetStrategy extends WorkloadStrategy {
  protected initialStatus(): Obj {
    return { replicas: 0 };
  }

  protected defaultSpec(spec: Obj): void {
    setDefault(spec, 'replicas', 1);
  }

  protected validateSpec(o: KubeObject): FieldError[] {
    const spec = specOf(o);
    const errs: FieldError[] = [];
    errs.push(...nonNegative(spec.replicas, 'spec.replicas'));
    errs.push(...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
    // Upstream's ReplicaSet check names deployments in this message too.
    const sel = validateSelector(spec, 'spec', 'deployment');
    errs.push(...sel.errs);
    errs.push(...validateTemplateForReplicas(obj(spec.template), sel.selector, child('spec', 'template')));
    return errs;
  }
}

export const replicaSetTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Desired', 'integer', 'Replicas is the number of desired replicas.'),
    column('Current', 'integer', 'Replicas is the most recently observed number of replicas.'),
    column('Ready', 'integer', 'The number of ready replicas for this replica set.'),
    ageColumn(),
    ...templateColumns(),
    column('Selector', 'string', 'Selector is a label query over pods that should match the replica count.', { priority: 1 }),
  ],
  cells: (o) => {
    const spec = section(o, 'spec');
    const status = section(o, 'status');
    const { names, images } = templateContainers(spec.template);
    return [o.metadata.name ?? '', num(spec.replicas), num(status.replicas), num(status.readyReplicas),
      humanAge(o.metadata.creationTimestamp), names, images, formatLabelSelector(spec.selector)];
  },
};

export const replicasets: ResourceDef = {
  group: 'apps',
  version: 'v1',
  kind: 'ReplicaSet',
  plural: 'replicasets',
  singular: 'replicaset',
  shortNames: ['rs'],
  categories: ['all'],
  namespaced: true,
  verbs: [...allVerbs],
  subresources: [scaleSubresource(), { name: 'status', kind: 'ReplicaSet', verbs: ['get', 'patch', 'update'] }],
  strategy: new ReplicaSetStrategy(),
  table: replicaSetTable,
  // Exposed as upstream's GetAttrs does, yet not selectable: apps/v1 registers no field
  // label conversion, so the default one refuses status.replicas.
  selectableFields: (o) => ({ 'status.replicas': String(num(section(o as KubeObject, 'status').replicas)) }),
};
