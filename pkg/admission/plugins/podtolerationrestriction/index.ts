// PodTolerationRestriction: a namespace decides which taints its pods may tolerate.
// New pods get the namespace's default tolerations (annotation, else the cluster
// default from the configuration); every pod's tolerations must then fit the
// namespace's whitelist (annotation, else the cluster whitelist). An annotation that is
// present but empty overrides the cluster value with "none".
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { lookupNamespace, waitForNamespaces, type NamespaceLookup } from '../../namespaces.js';
import { arr, obj } from '../../../apis/core/types.js';
import { podQOSClass } from '../../../apis/core/defaults.js';
import { errors } from '../../../runtime/errors.js';
import { isPlainObject } from '../../../runtime/object.js';
import { plainError } from '../../../util/proxy/errors.js';
import { cleanToleration, mergeTolerations, verifyAgainstWhitelist, type Toleration } from '../../../util/tolerations/tolerations.js';
import type { PodTolerationRestrictionConfig } from './config.js';

export { podTolerationRestrictionConfig } from './config.js';

export const defaultTolerationsAnnotation = 'scheduler.alpha.kubernetes.io/defaultTolerations';
export const tolerationsWhitelistAnnotation = 'scheduler.alpha.kubernetes.io/tolerationsWhitelist';

// Pods with resource requests tolerate memory pressure: the kubelet evicts BestEffort first.
const memoryPressure: Toleration = { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' };

export class PodTolerationRestriction implements AdmissionPlugin {
  readonly name = 'PodTolerationRestriction';

  constructor(private readonly namespaces: NamespaceLookup,
    private readonly config: PodTolerationRestrictionConfig = { default: [], whitelist: [] }) {}

  handles(op: Operation): boolean {
    return op === 'CREATE' || op === 'UPDATE';
  }

  async admit(a: AdmissionAttributes): Promise<void> {
    const spec = this.podSpec(a);
    if (!spec) return;
    await waitForNamespaces(this.namespaces, a);
    let extra: Toleration[] = [];
    if (a.operation === 'CREATE') {
      extra = [...(await this.namespaceTolerations(a.namespace, defaultTolerationsAnnotation) ?? this.config.default)];
    }
    if (podQOSClass(spec) !== 'BestEffort') extra.push(memoryPressure);
    if (extra.length > 0) spec.tolerations = mergeTolerations(arr(spec.tolerations) as Toleration[], extra);
    await this.validate(a);
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    const spec = this.podSpec(a);
    if (!spec) return;
    await waitForNamespaces(this.namespaces, a);
    const tolerations = arr(spec.tolerations) as Toleration[];
    if (tolerations.length === 0) return;
    let whitelist = await this.namespaceTolerations(a.namespace, tolerationsWhitelistAnnotation);
    let scope = 'namespace';
    if (whitelist === undefined) {
      whitelist = this.config.whitelist;
      scope = 'cluster';
    }
    if (whitelist.length > 0 && !verifyAgainstWhitelist(tolerations, whitelist)) {
      // A plain error upstream: 500 without a reason.
      throw plainError(`pod tolerations (possibly merged with namespace default tolerations) conflict with its ${scope} whitelist`);
    }
  }

  private podSpec(a: AdmissionAttributes): Record<string, unknown> | undefined {
    if (a.group !== '' || a.resource !== 'pods' || a.subresource !== '') return undefined;
    return obj(a.object?.spec);
  }

  /** The annotation's tolerations; undefined when the annotation is absent. */
  private async namespaceTolerations(name: string, annotation: string): Promise<Toleration[] | undefined> {
    const ns = await lookupNamespace(this.namespaces, name);
    if (!ns) throw errors.notFound({ group: '', resource: 'namespaces' }, name);
    const value = ns.metadata.annotations?.[annotation];
    if (value === undefined) return undefined;
    if (value === '') return [];
    return parseTolerations(value);
  }
}

/** The annotation holds a JSON list of core/v1 tolerations; anything else is a plain error. */
function parseTolerations(value: string): Toleration[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (err) {
    throw plainError((err as Error).message);
  }
  if (parsed === null) return [];
  if (!Array.isArray(parsed) || !parsed.every(isPlainObject)) {
    throw plainError('json: cannot unmarshal into Go value of type []v1.Toleration');
  }
  return parsed.map((t) => cleanToleration(t as Record<string, unknown>));
}
