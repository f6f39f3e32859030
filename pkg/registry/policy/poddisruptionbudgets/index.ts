// policy/v1 poddisruptionbudgets (+status). Evictions (pods/eviction) read and
// decrement their status.
import type { FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { GoLiteral } from '../../../runtime/gofmt.js';
import { allVerbs } from '../../../runtime/scheme.js';
import type { ResourceDef } from '../../rest/resource.js';
import { ageColumn, column, humanAge, nameColumn, type TableConvertor } from '../../../runtime/table.js';
import { num, section } from '../../../apis/core/printers.js';
import { obj, str, type Obj } from '../../../apis/core/types.js';
import { isNotMoreThan100Percent, nonNegative, validatePositiveIntOrPercent } from '../../../apis/apps/validation.js';
import { invalid, notSupported } from '../../../apis/validation/field.js';
import { validateLabelSelector, type LabelSelector } from '../../../apis/validation/labelselector.js';
import { nameIsDNSSubdomain } from '../../../apis/validation/names.js';
import { BaseStrategy } from '../../generic/base-strategy.js';
import type { StrategyContext } from '../../generic/strategy.js';

const evictionPolicies = ['AlwaysAllow', 'IfHealthyBudget'];

function specOf(o: KubeObject): Obj {
  return obj(o.spec) ?? {};
}

/**
 * Go's %#v of the internal spec: pointers print as addresses, which differ on every run
 * upstream too; ours are fixed placeholders.
 */
function goPDBSpec(spec: Obj): GoLiteral {
  const ptr = (v: unknown, type: string, addr: string) => `(*${type})(${v === undefined || v === null ? 'nil' : addr})`;
  return new GoLiteral(`policy.PodDisruptionBudgetSpec{MinAvailable:${ptr(spec.minAvailable, 'intstr.IntOrString', '0xc000010000')}, `
    + `Selector:${ptr(spec.selector, 'v1.LabelSelector', '0xc000010020')}, MaxUnavailable:${ptr(spec.maxUnavailable, 'intstr.IntOrString', '0xc000010040')}, `
    + `UnhealthyPodEvictionPolicy:${ptr(spec.unhealthyPodEvictionPolicy, 'policy.UnhealthyPodEvictionPolicyType', '0xc000010060')}}`);
}

export class PodDisruptionBudgetStrategy extends BaseStrategy {
  constructor() {
    super({ namespaced: true, nameValidator: nameIsDNSSubdomain, hasStatus: true, tracksGeneration: true });
  }

  protected override prepareObjectForCreate(o: KubeObject): void {
    o.status = { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 };
  }

  protected override validateObject(o: KubeObject): FieldError[] {
    const spec = specOf(o);
    const errs: FieldError[] = [];
    const hasMin = spec.minAvailable !== undefined && spec.minAvailable !== null;
    const hasMax = spec.maxUnavailable !== undefined && spec.maxUnavailable !== null;
    if (hasMin && hasMax) errs.push(invalid('spec', goPDBSpec(spec), 'minAvailable and maxUnavailable cannot be both set'));
    if (hasMin) {
      errs.push(...validatePositiveIntOrPercent(spec.minAvailable, 'spec.minAvailable'));
      errs.push(...isNotMoreThan100Percent(spec.minAvailable, 'spec.minAvailable'));
    }
    if (hasMax) {
      errs.push(...validatePositiveIntOrPercent(spec.maxUnavailable, 'spec.maxUnavailable'));
      errs.push(...isNotMoreThan100Percent(spec.maxUnavailable, 'spec.maxUnavailable'));
    }
    const sel = obj(spec.selector);
    if (sel) errs.push(...validateLabelSelector(sel as LabelSelector, {}, 'spec.selector'));
    const policy = str(spec.unhealthyPodEvictionPolicy);
    if (policy && !evictionPolicies.includes(policy)) errs.push(notSupported('spec.unhealthyPodEvictionPolicy', policy, evictionPolicies));
    return errs;
  }

  protected override validateObjectUpdate(o: KubeObject, _old: KubeObject, ctx: StrategyContext): FieldError[] {
    if (ctx.subresource !== 'status') return this.validateObject(o);
    const status = section(o, 'status');
    return ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods']
      .flatMap((f) => nonNegative(status[f], `status.${f}`));
  }
}

function intOrString(v: unknown): string {
  return v === undefined || v === null ? 'N/A' : String(v);
}

export const podDisruptionBudgetTable: TableConvertor = {
  columns: [
    nameColumn(),
    column('Min Available', 'string', 'The minimum number of pods that must be available simultaneously.  This can be either an integer or a string specifying a percentage, e.g. "28%".'),
    column('Max Unavailable', 'string', 'The maximum number of pods that may be unavailable simultaneously.  This can be either an integer or a string specifying a percentage, e.g. "28%".'),
    column('Allowed Disruptions', 'integer', 'Calculated number of pods that may be disrupted at this time.'),
    ageColumn(),
  ],
  cells: (o) => {
    const spec = section(o, 'spec');
    return [o.metadata.name ?? '', intOrString(spec.minAvailable), intOrString(spec.maxUnavailable),
      num(section(o, 'status').disruptionsAllowed), humanAge(o.metadata.creationTimestamp)];
  },
};

export const poddisruptionbudgets: ResourceDef = {
  group: 'policy',
  version: 'v1',
  kind: 'PodDisruptionBudget',
  plural: 'poddisruptionbudgets',
  singular: 'poddisruptionbudget',
  shortNames: ['pdb'],
  namespaced: true,
  verbs: [...allVerbs],
  subresources: [{ name: 'status', kind: 'PodDisruptionBudget', verbs: ['get', 'patch', 'update'] }],
  strategy: new PodDisruptionBudgetStrategy(),
  table: podDisruptionBudgetTable,
};
