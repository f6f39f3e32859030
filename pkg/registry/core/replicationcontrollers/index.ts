// core/v1 replicationcontrollers (+status, +scale), stored under upstream's
// `controllers` key.
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import type { FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { labelSelectorFromSet } from '../../../apis/meta/labels.js';
import { defaultPodTemplateSpec } from '../../../apis/core/defaults.js';
import { templateLabels, validateTemplateForReplicas } from '../../../apis/core/template.js';
import { formatLabels, num, section, templateColumns, templateContainers } from '../../../apis/core/printers.js';
import { obj, strMap, type Obj } from '../../../apis/core/types.js';
import { child, required } from '../../../apis/validation/field.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { validateLabels, validateNonnegativeField } from '../../../apis/validation/objectmeta.js';
import { BaseStrategy } from '../../generic/base-strategy.js';
import { fieldLabels } from '../../../apis/meta/fields.js';

export class ReplicationControllerStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain, hasStatus: true, tracksGeneration: true });
  }

  override applyDefaults(o: KubeObject): void {
    if (!obj(o.spec)) o.spec = {};
    const spec = o.spec as Obj;
    const tpl = obj(spec.template);
    if (tpl) {
      const labels = templateLabels(tpl);
      if (Object.keys(labels).length > 0) {
        if (Object.keys(strMap(spec.selector)).length === 0) spec.selector = { ...labels };
        if (Object.keys(o.metadata.labels ?? {}).length === 0) o.metadata.labels = { ...labels };
      }
      defaultPodTemplateSpec(tpl);
    }
    if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
  }

  protected override prepareObjectForCreate(o: KubeObject): void {
    o.status = { replicas: 0 };
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const spec = obj(o.spec) ?? {};
    const path = 'spec';
    const errs: FieldError[] = [];
    errs.push(...validateNonnegativeField(num(spec.minReadySeconds), child(path, 'minReadySeconds')));
    const selector = strMap(spec.selector);
    if (Object.keys(selector).length === 0) errs.push(required(child(path, 'selector')));
    else errs.push(...validateLabels(selector, child(path, 'selector')));
    errs.push(...validateNonnegativeField(num(spec.replicas), child(path, 'replicas')));
    errs.push(...validateTemplateForReplicas(obj(spec.template), labelSelectorFromSet(selector), child(path, 'template')));
    return errs;
  }
}

export const replicationControllerTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Desired', 'integer', 'Replicas is the number of desired replicas.'),
    column('Current', 'integer', 'Replicas is the most recently observed number of replicas.'),
    column('Ready', 'integer', 'The number of ready replicas for this replication controller.'),
    ageColumn(),
    ...templateColumns(),
    column('Selector', 'string', 'Selector is a label query over pods that should match the Replicas count.', { priority: 1 }),
  ],
  cells: (o) => {
    const spec = section(o, 'spec');
    const status = section(o, 'status');
    const { names, images } = templateContainers(spec.template);
    return [o.metadata.name ?? '', num(spec.replicas), num(status.replicas), num(status.readyReplicas),
      humanAge(o.metadata.creationTimestamp), names, images, formatLabels(spec.selector)];
  },
};

export const replicationcontrollers: ResourceDef = {
  group: '',
  version: 'v1',
  kind: 'ReplicationController',
  plural: 'replicationcontrollers',
  singular: 'replicationcontroller',
  shortNames: ['rc'],
  categories: ['all'],
  namespaced: true,
  verbs: [...allVerbs],
  storageResource: 'controllers',
  subresources: [
    { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'],
      scale: { specReplicasPath: ['spec', 'replicas'], statusReplicasPath: ['status', 'replicas'], selectorPath: ['spec', 'selector'] } },
    { name: 'status', kind: 'ReplicationController', verbs: ['get', 'patch', 'update'] },
  ],
  strategy: new ReplicationControllerStrategy(),
  table: replicationControllerTable,
  fieldLabels: fieldLabels(['metadata.name', 'metadata.namespace', 'status.replicas']),
  selectableFields: (o) => ({ 'status.replicas': String(num(section(o as KubeObject, 'status').replicas)) }),
};
