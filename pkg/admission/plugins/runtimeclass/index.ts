// RuntimeClass: a new pod naming a RuntimeClass gets the class's pod overhead (a pod
// stating another overhead is refused) and its scheduling constraints: node selector
// entries (a conflicting value is refused) and tolerations, merged into the pod's. A pod
// may state an overhead only through a class that defines one.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { admissionForbidden } from '../../forbidden.js';
import type { ObjectSource } from '../../source.js';
import { arr, obj, str, strMap, type Obj } from '../../../apis/core/types.js';
import type { KubeObject } from '../../../runtime/object.js';
import { parse, canonicalQuantity } from '../../../apis/core/exact-quantity.js';
import { mergeTolerations } from '../../../util/tolerations/tolerations.js';

export const pluginName = 'RuntimeClass';
const overheadMismatch = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";

export class RuntimeClass implements AdmissionPlugin {
  readonly name = pluginName;
  readonly resources = new Set(['/pods']);

  constructor(private readonly classes: ObjectSource) {}

  handles(op: Operation): boolean { return op === 'CREATE'; }

  async admit(a: AdmissionAttributes): Promise<void> {
    const found = await this.prepare(a);
    if (!found) return;
    const { spec, rc } = found;
    const overhead = obj(obj(rc?.overhead)?.podFixed);
    if (rc && obj(rc.overhead)) {
      const podOverhead = obj(spec.overhead);
      if (podOverhead && Object.keys(podOverhead).length > 0 && !sameResources(podOverhead, overhead)) throw admissionForbidden(a, overheadMismatch);
      if (overhead) spec.overhead = Object.fromEntries(Object.entries(overhead).map(([k, v]) => [k, canonicalQuantity(v)]));
      else delete spec.overhead;
    }
    const scheduling = obj(rc?.scheduling);
    if (!scheduling) return;
    const selector = strMap(scheduling.nodeSelector);
    if (spec.nodeSelector == null) {
      if (scheduling.nodeSelector != null) spec.nodeSelector = { ...selector };
    } else {
      const podSelector = strMap(spec.nodeSelector);
      for (const [k, v] of Object.entries(selector)) {
        if (k in podSelector && podSelector[k] !== v) {
          throw admissionForbidden(a, `conflict: runtimeClass.scheduling.nodeSelector[${k}] = ${v}; pod.spec.nodeSelector[${k}] = ${podSelector[k]}`);
        }
        podSelector[k] = v;
      }
      spec.nodeSelector = podSelector;
    }
    const merged = mergeTolerations(arr(spec.tolerations), arr(scheduling.tolerations));
    if (merged.length > 0) spec.tolerations = merged;
  }

  async validate(a: AdmissionAttributes): Promise<void> {
    const found = await this.prepare(a);
    if (!found) return;
    const { spec, rc } = found;
    if (rc && obj(rc.overhead)) {
      if (!sameResources(obj(spec.overhead), obj(obj(rc.overhead)?.podFixed))) throw admissionForbidden(a, overheadMismatch);
    } else if (spec.overhead != null) {
      throw admissionForbidden(a, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
    }
  }

  /** The pod's spec and its RuntimeClass (from storage when the cache has not seen it yet). */
  private async prepare(a: AdmissionAttributes): Promise<{ spec: Obj; rc?: Obj } | undefined> {
    if (a.group !== '' || a.resource !== 'pods' || a.subresource !== '' || !a.object) return undefined;
    if (!obj(a.object.spec)) a.object.spec = {};
    const spec = a.object.spec as Obj;
    const name = spec.runtimeClassName;
    if (typeof name !== 'string') return { spec };
    const rc: KubeObject | undefined = await this.classes.get('', name) ?? await this.classes.liveGet('', name);
    if (!rc) throw admissionForbidden(a, `pod rejected: RuntimeClass ${JSON.stringify(name)} not found`);
    return { spec, rc: rc as Obj };
  }
}

/** apiequality.Semantic on ResourceLists: the same names, quantities equal by value. */
function sameResources(a: Obj | undefined, b: Obj | undefined): boolean {
  // Like reflect.DeepEqual, a missing list differs from an empty one.
  if (a === undefined || b === undefined) return a === b;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => {
    if (!(k in b)) return false;
    const x = parse(a[k]);
    const y = parse(b[k]);
    return x !== undefined && y !== undefined ? x.nano === y.nano : str(a[k]) === str(b[k]);
  });
}
