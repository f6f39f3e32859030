import { expect } from 'chai';
import type { AdmissionAttributes } from '../../interfaces.js';
import { staticSource } from '../../source.js';
import type { StatusError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { LimitRanger } from './index.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const lr = (limits: Obj[], namespace = 'team'): KubeObject => ({ metadata: { name: 'lr', namespace }, spec: { limits } });
const pod = (containers: Obj[], extra: Obj = {}): KubeObject => ({ metadata: { name: 'p', namespace: 'team' }, spec: { containers, ...extra } });

function attrs(object: KubeObject, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: 'CREATE', group: '', version: 'v1', kind: 'Pod', resource: 'pods', subresource: '',
    namespace: 'team', name: object.metadata.name ?? '', object, user: { name: 'u', groups: [] }, dryRun: false, ...over,
  };
}

async function rejection(p: Promise<void>): Promise<StatusError> {
  try { await p; } catch (e) { return e as StatusError; }
  throw new Error('admitted');
}

async function run(plugin: LimitRanger, a: AdmissionAttributes): Promise<void> {
  await plugin.admit(a);
  await plugin.validate(a);
}

describe('LimitRanger', () => {
  const container = { type: 'Container', max: { cpu: '1', memory: '1Gi' }, min: { cpu: '100m' }, default: { cpu: '500m', memory: '256Mi' },
    defaultRequest: { cpu: '200m', memory: '256Mi' }, maxLimitRequestRatio: { cpu: '4' } };

  it('defaults limits and requests of containers and init containers, and says so in an annotation', async () => {
    const p = pod([{ name: 'c', resources: {} }, { name: 'd', resources: { limits: { cpu: '1' }, requests: { cpu: '1' } } }], {
      initContainers: [{ name: 'i' }],
    });
    await run(new LimitRanger(staticSource([lr([container])])), attrs(p));
    const spec = p.spec as Obj;
    expect(spec.containers[0].resources).to.deep.equal({ limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '200m', memory: '256Mi' } });
    expect(spec.containers[1].resources).to.deep.equal({ limits: { cpu: '1', memory: '256Mi' }, requests: { cpu: '1', memory: '256Mi' } });
    expect(spec.initContainers[0].resources).to.deep.equal({ limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '200m', memory: '256Mi' } });
    expect(p.metadata.annotations).to.deep.equal({
      'kubernetes.io/limit-ranger': 'LimitRanger plugin set: cpu, memory request for container c; cpu, memory limit for container c; '
        + 'memory request for container d; memory limit for container d; '
        + 'cpu, memory request for init container i; cpu, memory limit for init container i',
    });
  });

  it('adds no annotation when nothing was defaulted, and prints defaults canonically', async () => {
    const p = pod([{ name: 'c', resources: { limits: { cpu: '1' }, requests: { cpu: '1' } } }]);
    await run(new LimitRanger(staticSource([lr([{ type: 'Container', max: { cpu: '2' } }])])), attrs(p));
    expect(p.metadata.annotations).to.equal(undefined);
    const q = pod([{ name: 'c' }]);
    await new LimitRanger(staticSource([lr([{ type: 'Container', default: { cpu: '1000m' } }])])).admit(attrs(q));
    expect((q.spec as Obj).containers[0].resources).to.deep.equal({ limits: { cpu: '1' } });
  });

  it('refuses a container over max with upstream\'s message', async () => {
    const err = await rejection(run(new LimitRanger(staticSource([lr([container])])),
      attrs(pod([{ name: 'c', resources: { limits: { cpu: '2' }, requests: { cpu: '2' } } }]))));
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2');
  });

  it('reports min, missing values and the limit/request ratio, init containers too', async () => {
    const plugin = new LimitRanger(staticSource([lr([{ type: 'Container', min: { memory: '64Mi' }, max: { cpu: '1' }, maxLimitRequestRatio: { cpu: '2' } }])]));
    const p = pod([{ name: 'c', resources: { requests: { cpu: '100m', memory: '32Mi' }, limits: { cpu: '500m', memory: '32Mi' } } }], {
      initContainers: [{ name: 'i', resources: {} }],
    });
    const err = await rejection(plugin.validate(attrs(p)));
    expect(err.message).to.equal('pods "p" is forbidden: ['
      + 'minimum memory usage per Container is 64Mi, but request is 32Mi, '
      + 'cpu max limit to request ratio per Container is 2, but provided ratio is 5.000000, '
      + 'minimum memory usage per Container is 64Mi.  No request is specified, '
      + 'maximum cpu usage per Container is 1.  No limit is specified, '
      + 'cpu max limit to request ratio per Container is 2, but no request is specified or request is 0]');
  });

  it('bounds the pod as a whole: containers summed, the largest init container, overhead', async () => {
    const plugin = new LimitRanger(staticSource([lr([{ type: 'Pod', max: { cpu: '1' } }])]));
    const ok = pod([{ name: 'a', resources: { limits: { cpu: '400m' } } }, { name: 'b', resources: { limits: { cpu: '600m' } } }], {
      initContainers: [{ name: 'i', resources: { limits: { cpu: '1' } } }],
    });
    await plugin.validate(attrs(ok));
    const over = structuredClone(ok);
    (over.spec as Obj).overhead = { cpu: '100m' };
    const err = await rejection(plugin.validate(attrs(over)));
    expect(err.message).to.equal('pods "p" is forbidden: maximum cpu usage per Pod is 1, but limit is 1100m');
  });

  it('bounds what a claim requests, on create and on resize', async () => {
    const plugin = new LimitRanger(staticSource([lr([{ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '10Gi' } }])]));
    const pvc = (storage: string): KubeObject => ({ metadata: { name: 'c', namespace: 'team' }, spec: { resources: { requests: { storage } } } });
    const claim = (o: KubeObject, op: 'CREATE' | 'UPDATE' = 'CREATE') => attrs(o, { kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims', operation: op, oldObject: op === 'UPDATE' ? pvc('5Gi') : undefined });
    await plugin.validate(claim(pvc('5Gi')));
    expect((await rejection(plugin.validate(claim(pvc('500Mi'))))).message)
      .to.equal('persistentvolumeclaims "c" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi');
    expect((await rejection(plugin.validate(claim(pvc('20Gi'), 'UPDATE')))).message)
      .to.equal('persistentvolumeclaims "c" is forbidden: maximum storage usage per PersistentVolumeClaim is 10Gi, but request is 20Gi');
  });

  it('ignores pod updates, subresources, objects being deleted and other namespaces', async () => {
    const plugin = new LimitRanger(staticSource([lr([container]), lr([{ type: 'Container', max: { cpu: '1m' } }], 'other')]));
    const big = () => pod([{ name: 'c', resources: { limits: { cpu: '5' } } }]);
    await run(plugin, attrs(big(), { operation: 'UPDATE', oldObject: big() }));
    await run(plugin, attrs(big(), { subresource: 'status' }));
    const dying = big();
    dying.metadata.deletionTimestamp = '2024-01-01T00:00:00Z';
    const pvc = { metadata: { name: 'c', namespace: 'team' }, spec: {} };
    await plugin.validate(attrs(pvc, { resource: 'persistentvolumeclaims', operation: 'UPDATE', oldObject: dying }));
    await run(new LimitRanger(staticSource([lr([container], 'other')])), attrs(big()));
  });

  it('looks in storage when the cache has no LimitRange, and remembers an empty answer for 30s', async () => {
    let now = 0;
    const empty = staticSource([], []);
    const plugin = new LimitRanger(empty, () => now);
    await run(plugin, attrs(pod([{ name: 'c' }])));
    const reads = empty.liveReads;
    expect(reads).to.be.greaterThan(0);
    await run(plugin, attrs(pod([{ name: 'c' }])));
    expect(empty.liveReads).to.equal(reads);
    now = 31_000;
    await plugin.admit(attrs(pod([{ name: 'c' }])));
    expect(empty.liveReads).to.equal(reads + 1);
    const fresh = staticSource([], [lr([container])]);
    const p = pod([{ name: 'c' }]);
    await new LimitRanger(fresh).admit(attrs(p));
    expect((p.spec as Obj).containers[0].resources.limits).to.deep.equal({ cpu: '500m', memory: '256Mi' });
  });
});
