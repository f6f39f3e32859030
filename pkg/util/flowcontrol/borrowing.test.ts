import { expect } from 'chai';
import { Registry } from 'prom-client';
import type { Informer } from '../../client/informer.js';
import type { KubeObject } from '../../runtime/object.js';
import { allocateConcurrency } from './concurrency-allocation.js';
import { borrowingBounds } from './borrowing.js';
import { APFController } from './controller.js';
import { FlowcontrolMetrics } from './metrics.js';
import { SeatDemand } from './seat-demand.js';

describe('APF borrowing: sharing out the seats', () => {
  it('gives every level the same fraction of its target when no bound binds', () => {
    const { allocations } = allocateConcurrency(60, [
      { lowerBound: 0, upperBound: 100, target: 10 }, { lowerBound: 0, upperBound: 100, target: 20 },
    ]);
    expect(allocations.map((a) => Math.round(a * 1000) / 1000)).to.deep.equal([20, 40]);
  });

  it('holds a level at its lower bound or upper bound and shares the rest among the others', () => {
    const { allocations, fairFraction } = allocateConcurrency(50, [
      { lowerBound: 30, upperBound: 100, target: 30 }, // its fair share (6) is under its lower bound
      { lowerBound: 0, upperBound: 10, target: 100 }, // its fair share (20) is over its upper bound
      { lowerBound: 0, upperBound: 1000, target: 50 },
    ]);
    const rounded = allocations.map((a) => Math.round(a * 1000) / 1000);
    expect(rounded).to.deep.equal([30, 10, 10]);
    expect(Math.round(fairFraction * 1000) / 1000).to.equal(0.2);
  });

  it('gives every lower bound when they already take the sum, and every upper bound when they cannot reach it', () => {
    expect(allocateConcurrency(10, [{ lowerBound: 8, upperBound: 9, target: 8 }, { lowerBound: 4, upperBound: 5, target: 4 }]).allocations).to.deep.equal([8, 4]);
    expect(allocateConcurrency(100, [{ lowerBound: 1, upperBound: 9, target: 8 }, { lowerBound: 1, upperBound: 5, target: 4 }]).allocations).to.deep.equal([9, 5]);
  });

  it('bounds a level by lendablePercent and borrowingLimitPercent (unset: the server\'s whole limit)', () => {
    expect(borrowingBounds(74, 33, undefined, 600)).to.deep.equal({ nominalCL: 74, minCL: 50, maxCL: 674 });
    expect(borrowingBounds(10, 0, 50, 600)).to.deep.equal({ nominalCL: 10, minCL: 10, maxCL: 15 });
  });
});

describe('APF borrowing: seat demand over a period', () => {
  it('integrates demand over time: average, standard deviation and high watermark', () => {
    let t = 0;
    const d = new SeatDemand(() => t);
    d.set(10);
    t = 5000;
    d.set(0);
    t = 10_000;
    const p = d.endPeriod();
    expect(p).to.deep.equal({ average: 5, deviation: 5, max: 10, durationMs: 10_000 });
    t = 20_000;
    expect(d.endPeriod(), 'the next period starts from the demand at its start').to.deep.equal({ average: 0, deviation: 0, max: 0, durationMs: 10_000 });
  });
});

/** Informers holding fixed objects: what the controller reads of the API. */
function fixedInformer(objs: KubeObject[]): Informer {
  return { list: () => objs, hasSynced: () => true, addHandlers: () => undefined } as unknown as Informer;
}

const level = (name: string, shares: number, lendablePercent: number): KubeObject => ({
  metadata: { name },
  spec: { type: 'Limited', limited: { nominalConcurrencyShares: shares, lendablePercent, limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 2, queueLengthLimit: 50 } } } },
} as KubeObject);
const schema = (name: string, precedence: number, group: string, pl: string): KubeObject => ({
  metadata: { name },
  spec: { matchingPrecedence: precedence, priorityLevelConfiguration: { name: pl },
    rules: [{ subjects: [{ kind: 'Group', group: { name: group } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] }] },
} as KubeObject);

describe('APF borrowing: the controller', () => {
  const digest = (group: string) => ({ user: { name: 'u', groups: [group] }, isResourceRequest: true, verb: 'get', apiGroup: '', resource: 'pods', subresource: '', namespace: 'ns', path: '/api/v1/namespaces/ns/pods/p' });

  it('lets a busy level run on the seats an idle level lends after an adjustment period, and no further than those', async () => {
    let t = 1_000_000;
    // 20 seats: "busy" and "idle" have 10 each; idle may lend 90% of its own.
    const apf = new APFController(fixedInformer([schema('busy', 100, 'busy', 'busy'), schema('idle', 200, 'idle', 'idle')]),
      fixedInformer([level('busy', 50, 0), level('idle', 50, 90)]), 20, new FlowcontrolMetrics(new Registry()), 60_000, () => t);
    const busy = apf.classify(digest('busy'))!;
    expect(busy.priorityLevel.metadata.name).to.equal('busy');
    const running: Array<() => void> = [];
    const waiting: Array<Promise<() => void>> = [];
    for (let i = 0; i < 30; i++) {
      const r = apf.admit(busy, 1);
      if (typeof r === 'function') running.push(r); else waiting.push(r);
    }
    // Before any demand is known, seats go in proportion to the lower bounds (10 and 1), as upstream's first allocation.
    expect(running.length).to.equal(18);
    t += 10_000;
    apf.classify(digest('busy'));
    const levels = apf.dumpPriorityLevels();
    expect(levels.find((l) => l.name === 'busy')?.limit, 'its 10 plus the idle level\'s 9 lendable seats').to.equal(19);
    expect(levels.find((l) => l.name === 'busy')?.nominal, 'borrowing moves the current limit, not the nominal one').to.equal(10);
    expect(levels.find((l) => l.name === 'idle')?.limit, 'the idle level keeps what it may not lend').to.equal(1);
    expect(levels.find((l) => l.name === 'busy')?.executing, 'a waiting request started at once').to.equal(19);
    for (const r of running) r();
    for (const w of waiting) (await w)();
  });

  it('hands the seats back when the borrower goes idle and the lender gets busy', async () => {
    let t = 1_000_000;
    const apf = new APFController(fixedInformer([schema('a', 100, 'a', 'a'), schema('b', 200, 'b', 'b')]),
      fixedInformer([level('a', 50, 50), level('b', 50, 50)]), 20, new FlowcontrolMetrics(new Registry()), 60_000, () => t);
    const a = apf.classify(digest('a'))!;
    const b = apf.classify(digest('b'))!;
    const held = Array.from({ length: 15 }, () => apf.admit(a, 1));
    t += 10_000;
    apf.classify(digest('a'));
    expect(apf.dumpPriorityLevels().find((l) => l.name === 'a')?.limit).to.equal(15);
    for (const h of held) (await h)();
    const bHeld = Array.from({ length: 12 }, () => apf.admit(b, 1));
    t += 10_000;
    apf.classify(digest('b'));
    // a's smoothed demand still remembers its 15 seats; b used all of its 10 (and wants 12): b keeps at least its nominal.
    const limits = apf.dumpPriorityLevels();
    expect(limits.find((l) => l.name === 'b')!.limit).to.be.at.least(10);
    expect(limits.find((l) => l.name === 'a')!.limit + limits.find((l) => l.name === 'b')!.limit).to.be.within(19, 21);
    for (const h of bHeld) (await h)();
  });
});
