import { expect } from 'chai';
import type { AdmissionAttributes } from '../../interfaces.js';
import { staticSource } from '../../source.js';
import type { StatusError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { Priority } from './index.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const pc = (name: string, value: number, extra: Obj = {}): KubeObject => ({ metadata: { name }, value, ...extra });
const pod = (spec: Obj = {}): KubeObject => ({ metadata: { name: 'p', namespace: 'team' }, spec: { containers: [{ name: 'c' }], ...spec } });

function attrs(object: KubeObject, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: 'CREATE', group: '', version: 'v1', kind: 'Pod', resource: 'pods', subresource: '',
    namespace: 'team', name: object.metadata.name ?? '', object, user: { name: 'u', groups: [] }, dryRun: false, ...over,
  };
}
const pcAttrs = (object: KubeObject, operation: 'CREATE' | 'UPDATE' = 'CREATE'): AdmissionAttributes =>
  attrs(object, { group: 'scheduling.k8s.io', kind: 'PriorityClass', resource: 'priorityclasses', namespace: '', operation });

async function rejection(p: Promise<void>): Promise<StatusError> {
  try { await p; } catch (e) { return e as StatusError; }
  throw new Error('admitted');
}

describe('Priority admission', () => {
  it('resolves priorityClassName into priority and preemptionPolicy', async () => {
    const p = pod({ priorityClassName: 'high' });
    await new Priority(staticSource([pc('high', 1000, { preemptionPolicy: 'Never' })])).admit(attrs(p));
    expect(p.spec).to.include({ priorityClassName: 'high', priority: 1000, preemptionPolicy: 'Never' });
  });

  it('gives a pod without a class the lowest global default, else 0 and PreemptLowerPriority', async () => {
    const none = pod();
    await new Priority(staticSource([pc('high', 1000)])).admit(attrs(none));
    expect(none.spec).to.include({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
    expect((none.spec as Obj).priorityClassName).to.equal(undefined);
    const p = pod();
    await new Priority(staticSource([pc('d2', 20, { globalDefault: true }), pc('d1', 10, { globalDefault: true, preemptionPolicy: 'PreemptLowerPriority' })])).admit(attrs(p));
    expect(p.spec).to.include({ priorityClassName: 'd1', priority: 10, preemptionPolicy: 'PreemptLowerPriority' });
  });

  it('finds a class the cache has not seen yet in storage', async () => {
    const p = pod({ priorityClassName: 'new' });
    await new Priority(staticSource([], [pc('new', 5)])).admit(attrs(p));
    expect((p.spec as Obj).priority).to.equal(5);
  });

  it('refuses an unknown class and a stated priority or policy that differs', async () => {
    const plugin = new Priority(staticSource([pc('high', 1000, { preemptionPolicy: 'Never' })]));
    expect((await rejection(plugin.admit(attrs(pod({ priorityClassName: 'nope' }))))).message)
      .to.equal('pods "p" is forbidden: no PriorityClass with name nope was found');
    expect((await rejection(plugin.admit(attrs(pod({ priorityClassName: 'high', priority: 1 }))))).message)
      .to.equal('pods "p" is forbidden: the integer value of priority (1) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name');
    expect((await rejection(plugin.admit(attrs(pod({ priorityClassName: 'high', preemptionPolicy: 'PreemptLowerPriority' }))))).message)
      .to.equal('pods "p" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name');
    const same = pod({ priorityClassName: 'high', priority: 1000 });
    await plugin.admit(attrs(same));
    expect((same.spec as Obj).priority).to.equal(1000);
  });

  it('keeps the priority create resolved when an update drops it', async () => {
    const p = pod();
    await new Priority(staticSource([])).admit(attrs(p, { operation: 'UPDATE', oldObject: pod({ priority: 7, preemptionPolicy: 'Never' }) }));
    expect(p.spec).to.include({ priority: 7, preemptionPolicy: 'Never' });
  });

  it('allows only one global default PriorityClass', async () => {
    const plugin = new Priority(staticSource([pc('d1', 10, { globalDefault: true })]));
    expect((await rejection(plugin.validate(pcAttrs(pc('d2', 5, { globalDefault: true }))))).message)
      .to.equal('priorityclasses.scheduling.k8s.io "d2" is forbidden: PriorityClass d1 is already marked as default. Only one default can exist');
    await plugin.validate(pcAttrs(pc('d1', 11, { globalDefault: true }), 'UPDATE'));
    await plugin.validate(pcAttrs(pc('d3', 11)));
    expect((await rejection(plugin.validate(pcAttrs(pc('d3', 11, { globalDefault: true }), 'UPDATE')))).code).to.equal(403);
  });
});
