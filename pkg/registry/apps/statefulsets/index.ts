// apps/v1 statefulsets (+status, +scale).
import type { FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { num, section, templateColumns, templateContainers } from '../../../apis/core/printers.js';
import { validateTemplateForReplicas } from '../../../apis/core/template.js';
import { arr, obj, setDefault, str, type Obj } from '../../../apis/core/types.js';
import { nonNegative, validateEnum, validateSelector } from '../../../apis/apps/validation.js';
import { child, forbidden } from '../../../apis/validation/field.js';
import { deepEqual } from '../../../util/deep-equal.js';
import { scaleSubresource, specOf, WorkloadStrategy } from '../workload.js';
import type { StrategyContext } from '../../generic/strategy.js';

const mutableSpecFields = ['replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];
const retentionPolicies = ['Retain', 'Delete'];

export class StatefulSetStrategy extends WorkloadStrategy {
  protected initialStatus(): Obj {
    return { replicas: 0, availableReplicas: 0 };
  }

  protected defaultSpec(spec: Obj): void {
    setDefault(spec, 'podManagementPolicy', 'OrderedReady');
    if (!obj(spec.updateStrategy)) spec.updateStrategy = {};
    const us = spec.updateStrategy as Obj;
    setDefault(us, 'type', 'RollingUpdate');
    if (us.type === 'RollingUpdate') {
      if (!obj(us.rollingUpdate)) us.rollingUpdate = {};
      setDefault(us.rollingUpdate as Obj, 'partition', 0);
    }
    if (!obj(spec.persistentVolumeClaimRetentionPolicy)) spec.persistentVolumeClaimRetentionPolicy = {};
    const pvc = spec.persistentVolumeClaimRetentionPolicy as Obj;
    setDefault(pvc, 'whenDeleted', 'Retain');
    setDefault(pvc, 'whenScaled', 'Retain');
    setDefault(spec, 'replicas', 1);
    setDefault(spec, 'revisionHistoryLimit', 10);
    // Claim templates are PersistentVolumeClaims: Go prints their zero creationTimestamp
    // and status, and the claim defaults apply.
    for (const pvcTemplate of arr(spec.volumeClaimTemplates)) {
      if (!obj(pvcTemplate.metadata)) pvcTemplate.metadata = {};
      setDefault(pvcTemplate.metadata as Obj, 'creationTimestamp', null);
      if (!obj(pvcTemplate.spec)) pvcTemplate.spec = {};
      setDefault(pvcTemplate.spec as Obj, 'volumeMode', 'Filesystem');
      if (!obj(pvcTemplate.status)) pvcTemplate.status = {};
      setDefault(pvcTemplate.status as Obj, 'phase', 'Pending');
    }
  }

  protected validateSpec(o: KubeObject): FieldError[] {
    const spec = specOf(o);
    const errs: FieldError[] = [];
    errs.push(...validateEnum(spec.podManagementPolicy, 'spec.podManagementPolicy', ['OrderedReady', 'Parallel']));
    const us = obj(spec.updateStrategy) ?? {};
    errs.push(...validateEnum(us.type, 'spec.updateStrategy.type', ['RollingUpdate', 'OnDelete']));
    if (us.type === 'OnDelete' && obj(us.rollingUpdate)) {
      errs.push(forbidden('spec.updateStrategy.rollingUpdate', "only allowed for updateStrategy 'RollingUpdate'"));
    }
    const ru = obj(us.rollingUpdate);
    if (ru) errs.push(...nonNegative(ru.partition, 'spec.updateStrategy.rollingUpdate.partition'));
    const pvc = obj(spec.persistentVolumeClaimRetentionPolicy) ?? {};
    for (const f of ['whenDeleted', 'whenScaled']) {
      errs.push(...validateEnum(str(pvc[f]), child('spec.persistentVolumeClaimRetentionPolicy', f), retentionPolicies));
    }
    errs.push(...nonNegative(spec.replicas, 'spec.replicas'));
    errs.push(...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
    const sel = validateSelector(spec, 'spec', 'statefulset');
    errs.push(...sel.errs);
    const tplErrs = validateTemplateForReplicas(obj(spec.template), sel.selector, 'spec.template')
      .map((e) => (e.detail === 'activeDeadlineSeconds in ReplicaSet is not Supported' ? { ...e, detail: 'activeDeadlineSeconds in StatefulSet is not Supported' } : e));
    errs.push(...tplErrs);
    return errs;
  }

  protected override validateObjectUpdate(o: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    if (ctx.subresource) return super.validateObjectUpdate(o, old, ctx);
    const errs = this.validateSpec(o);
    const strip = (spec: Obj): Obj => Object.fromEntries(Object.entries(spec).filter(([k]) => !mutableSpecFields.includes(k)));
    if (!deepEqual(strip(specOf(o)), strip(specOf(old)))) {
      errs.push(forbidden('spec', "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"));
    }
    return errs;
  }
}

export const statefulSetTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Ready', 'string', 'Number of the pod with ready state'),
    ageColumn(),
    ...templateColumns(),
  ],
  cells: (o) => {
    const spec = section(o, 'spec');
    const status = section(o, 'status');
    const { names, images } = templateContainers(spec.template);
    return [o.metadata.name ?? '', `${num(status.readyReplicas)}/${num(spec.replicas)}`, humanAge(o.metadata.creationTimestamp), names, images];
  },
};

export const statefulsets: ResourceDef = {
  group: 'apps',
  version: 'v1',
  kind: 'StatefulSet',
  plural: 'statefulsets',
  singular: 'statefulset',
  shortNames: ['sts'],
  categories: ['all'],
  namespaced: true,
  verbs: [...allVerbs],
  subresources: [scaleSubresource(), { name: 'status', kind: 'StatefulSet', verbs: ['get', 'patch', 'update'] }],
  strategy: new StatefulSetStrategy(),
  table: statefulSetTable,
};
