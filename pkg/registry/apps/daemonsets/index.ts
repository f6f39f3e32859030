// apps/v1 daemonsets (+status). The template generation lives in upstream's
// deprecated.daemonset.template.generation annotation: 1 on create, +1 on each template change.
import type { FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { formatLabelSelector, formatLabels, num, section, templateColumns, templateContainers } from '../../../apis/core/printers.js';
import { templateLabels } from '../../../apis/core/template.js';
import { validatePodTemplateSpec } from '../../../apis/core/validation.js';
import { goStringMapLiteral } from '../../../apis/core/gofmt.js';
import { obj, setDefault, str, type Obj } from '../../../apis/core/types.js';
import {
  isZero, nonNegative, validateEnum, validatePositiveIntOrPercent, validateSelector,
} from '../../../apis/apps/validation.js';
import { forbidden, invalid, notSupported } from '../../../apis/validation/field.js';
import { deepEqual } from '../../../util/deep-equal.js';
import type { StrategyContext } from '../../generic/strategy.js';
import { specOf, WorkloadStrategy } from '../workload.js';

export const templateGenerationAnnotation = 'deprecated.daemonset.template.generation';

export class DaemonSetStrategy extends WorkloadStrategy {
  protected initialStatus(): Obj {
    return { currentNumberScheduled: 0, desiredNumberScheduled: 0, numberMisscheduled: 0, numberReady: 0 };
  }

  protected defaultSpec(spec: Obj): void {
    if (!obj(spec.updateStrategy)) spec.updateStrategy = {};
    const us = spec.updateStrategy as Obj;
    setDefault(us, 'type', 'RollingUpdate');
    if (us.type === 'RollingUpdate') {
      if (!obj(us.rollingUpdate)) us.rollingUpdate = {};
      const ru = us.rollingUpdate as Obj;
      setDefault(ru, 'maxUnavailable', 1);
      setDefault(ru, 'maxSurge', 0);
    }
    setDefault(spec, 'revisionHistoryLimit', 10);
  }

  // Upstream's internal DaemonSet carries the template generation as a field and its
  // conversion back to v1 always writes the annotation (0 until create sets 1), so a
  // decoded DaemonSet has it, and the field manager records it as the writer's.
  override applyDefaults(o: KubeObject): void {
    super.applyDefaults(o);
    if (o.metadata?.annotations?.[templateGenerationAnnotation] === undefined) {
      o.metadata = o.metadata ?? {};
      o.metadata.annotations = { ...(o.metadata.annotations ?? {}), [templateGenerationAnnotation]: '0' };
    }
  }

  protected override prepareObjectForCreate(o: KubeObject): void {
    super.prepareObjectForCreate(o);
    o.metadata.annotations = { ...(o.metadata.annotations ?? {}), [templateGenerationAnnotation]: '1' };
  }

  protected override prepareObjectForUpdate(o: KubeObject, old: KubeObject, ctx: StrategyContext): void {
    if (ctx.subresource) return;
    const oldGen = Number(old.metadata.annotations?.[templateGenerationAnnotation] ?? '0') || 0;
    const gen = deepEqual(specOf(o).template, specOf(old).template) ? oldGen : oldGen + 1;
    if (gen > 0) o.metadata.annotations = { ...(o.metadata.annotations ?? {}), [templateGenerationAnnotation]: String(gen) };
  }

  protected override validateObjectUpdate(o: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[] {
    if (ctx.subresource === 'status') {
      const status = obj(o.status) ?? {};
      return Object.entries(status).flatMap(([k, v]) => (typeof v === 'number' ? nonNegative(v, `status.${k}`) : []));
    }
    return super.validateObjectUpdate(o, old, ctx);
  }

  protected validateSpec(o: KubeObject): FieldError[] {
    const spec = specOf(o);
    const errs: FieldError[] = [];
    const sel = validateSelector(spec, 'spec', 'daemonset', false);
    const tpl = obj(spec.template) ?? {};
    const labels = templateLabels(tpl);
    if (!sel.selector.matches(labels)) {
      errs.push(invalid('spec.template.metadata.labels', goStringMapLiteral(obj(obj(tpl.metadata)?.labels) ? labels : null), '`selector` does not match template `labels`'));
    }
    errs.push(...sel.errs);
    errs.push(...validatePodTemplateSpec(tpl, 'spec.template'));
    const podSpec = obj(tpl.spec) ?? {};
    if (str(podSpec.restartPolicy) !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', str(podSpec.restartPolicy), ['Always']));
    if (podSpec.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
      errs.push(forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in DaemonSet is not Supported'));
    }
    errs.push(...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'));
    const us = obj(spec.updateStrategy) ?? {};
    errs.push(...validateEnum(us.type, 'spec.updateStrategy.type', ['RollingUpdate', 'OnDelete']));
    const ru = obj(us.rollingUpdate);
    if (us.type === 'RollingUpdate' && ru) {
      errs.push(...validatePositiveIntOrPercent(ru.maxUnavailable, 'spec.updateStrategy.rollingUpdate.maxUnavailable'));
      errs.push(...validatePositiveIntOrPercent(ru.maxSurge, 'spec.updateStrategy.rollingUpdate.maxSurge'));
      if (isZero(ru.maxUnavailable) && isZero(ru.maxSurge)) {
        errs.push(invalid('spec.updateStrategy.rollingUpdate.maxUnavailable', ru.maxUnavailable ?? 0, 'may not be 0 when `maxSurge` is 0'));
      }
    }
    errs.push(...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
    return errs;
  }
}

export const daemonSetTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Desired', 'integer', 'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod).'),
    column('Current', 'integer', 'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod.'),
    column('Ready', 'integer', 'numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.'),
    column('Up-to-date', 'integer', 'The total number of nodes that are running updated daemon pod'),
    column('Available', 'integer', 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)'),
    column('Node Selector', 'string', 'NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node\'s labels for the pod to be scheduled on that node.'),
    ageColumn(),
    ...templateColumns(),
    column('Selector', 'string', 'A label query over pods that are managed by the daemon set.', { priority: 1 }),
  ],
  cells: (o) => {
    const spec = section(o, 'spec');
    const status = section(o, 'status');
    const { names, images } = templateContainers(spec.template);
    return [o.metadata.name ?? '', num(status.desiredNumberScheduled), num(status.currentNumberScheduled), num(status.numberReady),
      num(status.updatedNumberScheduled), num(status.numberAvailable), formatLabels(obj(obj(spec.template)?.spec)?.nodeSelector),
      humanAge(o.metadata.creationTimestamp), names, images, formatLabelSelector(spec.selector)];
  },
};

export const daemonsets: ResourceDef = {
  group: 'apps',
  version: 'v1',
  kind: 'DaemonSet',
  plural: 'daemonsets',
  singular: 'daemonset',
  shortNames: ['ds'],
  categories: ['all'],
  namespaced: true,
  verbs: [...allVerbs],
  subresources: [{ name: 'status', kind: 'DaemonSet', verbs: ['get', 'patch', 'update'] }],
  strategy: new DaemonSetStrategy(),
  table: daemonSetTable,
};
