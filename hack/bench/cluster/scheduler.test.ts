// The scheduler stand-in schedules as kube-scheduler does: each pod is assumed on its
// node before its binding is answered (so a burst spreads over nodes), and bindings go
// out without waiting for each other's answers, paced only by the token bucket.
import { expect } from 'chai';
import type { ApiClient, KubeObj, WatchHandlers } from './client.js';
import type { PodLedger } from './kubelet.js';
import { SchedulerStandIn } from './scheduler.js';
import { StartupStages } from './startup.js';

/** An API that answers bindings only when told to, and offers the pods it is given as the reflector's list. */
function fakeApi(pods: KubeObj[]) {
  const sent: Array<{ path: string; node: string; answer: (status: number) => void }> = [];
  const api = {
    reflect: (_path: string, _label: unknown, h: WatchHandlers) => { h.onList?.(pods); return () => undefined; },
    call: (_label: unknown, _method: string, path: string, body: { target: { name: string } }) =>
      new Promise((resolve) => sent.push({ path, node: body.target.name, answer: (status) => resolve({ status, body: {} }) })),
  };
  return { api: api as unknown as ApiClient, sent };
}

const pod = (i: number): KubeObj => ({ metadata: { namespace: 'ns', name: `p-${i}`, uid: `u-${i}` }, spec: {} });
const ledger = (): PodLedger => ({ createdAt: new Map(), ranBeforeAnswer: new Map(), startup: [], bound: new Map(), seen: new Map(), stages: new StartupStages(0) });
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

describe('cluster load: SchedulerStandIn (kube-scheduler\'s shape)', () => {
  it('sends a burst of bindings without waiting for answers, spread over nodes by what it has assumed', async () => {
    const { api, sent } = fakeApi(Array.from({ length: 20 }, (_x, i) => pod(i)));
    const l = ledger();
    const s = new SchedulerStandIn(api, ['n0', 'n1', 'n2', 'n3', 'n4'], l, 50, 100);
    s.start();
    await tick(20);
    try {
      // All 20 in flight at once (within the burst of 100), none answered yet.
      expect(sent.length).to.equal(20);
      const perNode = new Map<string, number>();
      for (const b of sent) perNode.set(b.node, (perNode.get(b.node) ?? 0) + 1);
      expect([...perNode.values()]).to.deep.equal([4, 4, 4, 4, 4]);
      for (const b of sent) b.answer(201);
      await tick();
      expect(s.bindings).to.equal(20);
      expect([...l.bound.values()].map((keys) => keys.size)).to.deep.equal([4, 4, 4, 4, 4]);
    } finally {
      s.stop();
    }
  });

  it('takes back a failed binding\'s assumption and sends it again after its backoff', async () => {
    const { api, sent } = fakeApi([pod(0), pod(1), pod(2)]);
    const s = new SchedulerStandIn(api, ['n0', 'n1'], ledger(), 50, 100);
    s.start();
    await tick(20);
    try {
      expect(sent.map((b) => b.node)).to.deep.equal(['n0', 'n1', 'n0']);
      sent[0]!.answer(500);
      sent[1]!.answer(201);
      sent[2]!.answer(201);
      await tick(500);
      expect(sent.length, 'not before the backoff').to.equal(3);
      await tick(700);
      // p-0 again; n0 holds one pod now, not two (had the failed assumption stayed, n1 would be less loaded).
      expect(sent.length).to.equal(4);
      expect(sent[3]!.path).to.contain('/pods/p-0/binding');
      expect(sent[3]!.node).to.equal('n0');
      sent[3]!.answer(201);
      await tick();
      expect(s.bindings).to.equal(3);
    } finally {
      s.stop();
    }
  });
});
