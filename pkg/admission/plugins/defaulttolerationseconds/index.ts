// DefaultTolerationSeconds: a pod that does not already tolerate the node controller's
// not-ready / unreachable NoExecute taints tolerates them for a bounded time (the
// --default-*-toleration-seconds flags), so its pods move off a lost node eventually.
import type { AdmissionAttributes, AdmissionPlugin, Operation } from '../../interfaces.js';
import { arr, obj, str, type Obj } from '../../../apis/core/types.js';

export const pluginName = 'DefaultTolerationSeconds';
export const taintNodeNotReady = 'node.kubernetes.io/not-ready';
export const taintNodeUnreachable = 'node.kubernetes.io/unreachable';

export interface DefaultTolerationSecondsOptions {
  notReadySeconds: number;
  unreachableSeconds: number;
}

export class DefaultTolerationSeconds implements AdmissionPlugin {
  readonly name = pluginName;
  readonly resources = new Set(['/pods']);

  constructor(private readonly opts: DefaultTolerationSecondsOptions = { notReadySeconds: 300, unreachableSeconds: 300 }) {}

  handles(op: Operation): boolean { return op === 'CREATE' || op === 'UPDATE'; }

  async admit(a: AdmissionAttributes): Promise<void> {
    if (a.group !== '' || a.resource !== 'pods' || a.subresource !== '' || !a.object) return;
    if (!obj(a.object.spec)) a.object.spec = {};
    const spec = a.object.spec as Obj;
    const tolerations = arr(spec.tolerations);
    // An empty key or effect matches every key or effect.
    const tolerates = (key: string) => tolerations.some((t) => (str(t.key) === key || !str(t.key))
      && (str(t.effect) === 'NoExecute' || !str(t.effect)));
    const added: Obj[] = [];
    if (!tolerates(taintNodeNotReady)) added.push(toleration(taintNodeNotReady, this.opts.notReadySeconds));
    if (!tolerates(taintNodeUnreachable)) added.push(toleration(taintNodeUnreachable, this.opts.unreachableSeconds));
    if (added.length > 0) spec.tolerations = [...(Array.isArray(spec.tolerations) ? spec.tolerations : []), ...added];
  }
}

function toleration(key: string, seconds: number): Obj {
  return { key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds };
}
