// TaintNodesByCondition: a new Node starts tainted not-ready:NoSchedule, so nothing is
// scheduled onto it before the node lifecycle controller has seen it become Ready.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { arr, obj, str, type Obj } from '../../../apis/core/types.js';

export const pluginName = 'TaintNodesByCondition';
const notReadyTaint = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };

export class TaintNodesByCondition implements AdmissionPlugin {
  readonly name = pluginName;
  readonly resources = new Set(['/nodes']);

  handles(op: Operation): boolean { return op === 'CREATE'; }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (a.group !== '' || a.resource !== 'nodes' || a.subresource !== '' || !a.object) return;
    if (!obj(a.object.spec)) a.object.spec = {};
    const spec = a.object.spec as Obj;
    // Taint.MatchTaint: the same key and effect, whatever the value.
    if (arr(spec.taints).some((t) => str(t.key) === notReadyTaint.key && str(t.effect) === notReadyTaint.effect)) return;
    spec.taints = [...(Array.isArray(spec.taints) ? spec.taints : []), { ...notReadyTaint }];
  }
}
