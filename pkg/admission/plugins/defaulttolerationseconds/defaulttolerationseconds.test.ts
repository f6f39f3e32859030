import { expect } from 'chai';
import type { AdmissionAttributes } from '../../interfaces.js';
import type { KubeObject } from '../../../runtime/object.js';
import { DefaultTolerationSeconds } from './index.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const pod = (tolerations?: Obj[]): KubeObject => ({ metadata: { name: 'p' }, spec: { containers: [], tolerations } });
const attrs = (object: KubeObject, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'CREATE', group: '', version: 'v1', kind: 'Pod', resource: 'pods', subresource: '',
  namespace: 'team', name: 'p', object, user: { name: 'u', groups: [] }, dryRun: false, ...over,
});
const notReady = (s: number) => ({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: s });
const unreachable = (s: number) => ({ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: s });

describe('DefaultTolerationSeconds admission', () => {
  it('adds both tolerations with the configured seconds after the pod\'s own', async () => {
    const p = pod([{ key: 'a', operator: 'Exists' }]);
    await new DefaultTolerationSeconds({ notReadySeconds: 60, unreachableSeconds: 120 }).admit(attrs(p));
    expect((p.spec as Obj).tolerations).to.deep.equal([{ key: 'a', operator: 'Exists' }, notReady(60), unreachable(120)]);
    const q = pod();
    await new DefaultTolerationSeconds().admit(attrs(q));
    expect((q.spec as Obj).tolerations).to.deep.equal([notReady(300), unreachable(300)]);
  });

  it('adds nothing the pod already tolerates: the same key, an empty key, an empty effect', async () => {
    const plugin = new DefaultTolerationSeconds();
    const own = pod([{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }]);
    await plugin.admit(attrs(own));
    expect((own.spec as Obj).tolerations).to.deep.equal([notReady(5), unreachable(300)]);
    const all = pod([{ operator: 'Exists' }]);
    await plugin.admit(attrs(all));
    expect((all.spec as Obj).tolerations).to.deep.equal([{ operator: 'Exists' }]);
    const anyEffect = pod([{ key: 'node.kubernetes.io/unreachable', operator: 'Exists' }]);
    await plugin.admit(attrs(anyEffect));
    expect((anyEffect.spec as Obj).tolerations).to.deep.equal([{ key: 'node.kubernetes.io/unreachable', operator: 'Exists' }, notReady(300)]);
    const noSchedule = pod([{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoSchedule' }]);
    await plugin.admit(attrs(noSchedule));
    expect((noSchedule.spec as Obj).tolerations).to.have.length(3);
  });

  it('ignores subresources and other resources', async () => {
    const p = pod();
    await new DefaultTolerationSeconds().admit(attrs(p, { subresource: 'status' }));
    await new DefaultTolerationSeconds().admit(attrs(p, { resource: 'configmaps' }));
    expect((p.spec as Obj).tolerations).to.equal(undefined);
  });
});
