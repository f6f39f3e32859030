// Priority: a new pod's priorityClassName becomes its integer priority and preemption
// policy (the global default class, or 0 and PreemptLowerPriority, when it names none);
// a pod may not state a different priority itself. Updates keep what create resolved.
// Only one PriorityClass may be the global default.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { admissionForbidden } from '../../forbidden.js';
import type { ObjectSource } from '../../source.js';
import { obj, str, type Obj } from '../../../apis/core/types.js';
import type { KubeObject } from '../../../runtime/object.js';

export const pluginName = 'Priority';
/** scheduling.DefaultPriorityWhenNoDefaultClassExists */
const defaultPriority = 0;
const defaultPreemptionPolicy = 'PreemptLowerPriority';

export class Priority implements AdmissionPlugin {
  readonly name = pluginName;
  readonly resources = new Set(['/pods', 'scheduling.k8s.io/priorityclasses']);

  constructor(private readonly classes: ObjectSource) {}

  handles(op: Operation): boolean { return op === 'CREATE' || op === 'UPDATE'; }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (a.subresource !== '' || a.group !== '' || a.resource !== 'pods' || !a.object) return;
    const spec = podSpec(a.object);
    if (a.operation === 'UPDATE') {
      // Create set these; validation refuses changing them, so only fill what the update dropped.
      const old = obj(a.oldObject?.spec) ?? {};
      if (spec.priority == null && old.priority != null) spec.priority = old.priority;
      if (spec.preemptionPolicy == null && old.preemptionPolicy != null) spec.preemptionPolicy = old.preemptionPolicy;
      return;
    }
    let priority: number;
    let policy: string | undefined;
    const className = str(spec.priorityClassName);
    if (!className) {
      const dpc = await this.defaultClass();
      if (dpc) {
        spec.priorityClassName = dpc.metadata.name;
        priority = classValue(dpc);
        policy = str((dpc as Obj).preemptionPolicy) || undefined;
      } else {
        priority = defaultPriority;
        policy = defaultPreemptionPolicy;
      }
    } else {
      const pc = await this.classes.get('', className) ?? await this.classes.liveGet('', className);
      if (!pc) throw admissionForbidden(a, `no PriorityClass with name ${className} was found`);
      priority = classValue(pc);
      policy = str((pc as Obj).preemptionPolicy) || undefined;
    }
    if (typeof spec.priority === 'number' && spec.priority !== priority) {
      throw admissionForbidden(a, `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`);
    }
    spec.priority = priority;
    if (policy !== undefined) {
      if (typeof spec.preemptionPolicy === 'string' && spec.preemptionPolicy !== policy) {
        throw admissionForbidden(a, `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`);
      }
      spec.preemptionPolicy = policy;
    }
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    if (a.subresource !== '' || a.group !== 'scheduling.k8s.io' || a.resource !== 'priorityclasses' || !a.object) return;
    if ((a.object as Obj).globalDefault !== true) return;
    const dpc = await this.defaultClass();
    if (!dpc) return;
    if (a.operation === 'CREATE' || dpc.metadata.name !== a.object.metadata.name) {
      throw admissionForbidden(a, `PriorityClass ${dpc.metadata.name} is already marked as default. Only one default can exist`);
    }
  }

  /** Should a race leave several defaults, the lowest value wins. */
  private async defaultClass(): Promise<KubeObject | undefined> {
    let found: KubeObject | undefined;
    for (const pc of await this.classes.list('')) {
      if ((pc as Obj).globalDefault !== true) continue;
      if (!found || classValue(found) > classValue(pc)) found = pc;
    }
    return found;
  }
}

function classValue(pc: KubeObject): number {
  const v = (pc as Obj).value;
  return typeof v === 'number' ? v : 0;
}

function podSpec(pod: KubeObject): Obj {
  if (!obj(pod.spec)) pod.spec = {};
  return pod.spec as Obj;
}
