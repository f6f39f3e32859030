import { expect } from 'chai';
import type { AdmissionAttributes } from '../../interfaces.js';
import type { KubeObject } from '../../../runtime/object.js';
import { TaintNodesByCondition } from './index.js';

const node = (taints?: unknown[]): KubeObject => ({ metadata: { name: 'n' }, spec: taints ? { taints } : {} });
const attrs = (object: KubeObject, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'CREATE', group: '', version: 'v1', kind: 'Node', resource: 'nodes', subresource: '',
  namespace: '', name: 'n', object, user: { name: 'u', groups: [] }, dryRun: false, ...over,
});
const notReady = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };

describe('TaintNodesByCondition admission', () => {
  it('taints a new Node not-ready:NoSchedule after its own taints', async () => {
    const n = node([{ key: 'a', effect: 'NoExecute' }]);
    await new TaintNodesByCondition().admit(attrs(n));
    expect(n.spec).to.deep.equal({ taints: [{ key: 'a', effect: 'NoExecute' }, notReady] });
    const bare = node();
    await new TaintNodesByCondition().admit(attrs(bare));
    expect(bare.spec).to.deep.equal({ taints: [notReady] });
  });

  it('keeps a matching taint whatever its value, and handles only Node creates', async () => {
    const n = node([{ key: 'node.kubernetes.io/not-ready', value: 'x', effect: 'NoSchedule' }]);
    await new TaintNodesByCondition().admit(attrs(n));
    expect((n.spec as { taints: unknown[] }).taints).to.have.length(1);
    const plugin = new TaintNodesByCondition();
    expect(plugin.handles('UPDATE')).to.equal(false);
    const s = node();
    await plugin.admit(attrs(s, { subresource: 'status' }));
    expect(s.spec).to.deep.equal({});
  });
});
