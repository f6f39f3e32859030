import { expect } from 'chai';
import type { KubeObject } from '../../runtime/object.js';
import { flowDistinguisher, matchesFlowSchema, sortFlowSchemas, type RequestDigest } from './classify.js';
import { dealHand, QueueSet, Rejected } from './queueset.js';
import { estimateSeats } from './estimate.js';

const digest = (o: Partial<RequestDigest>): RequestDigest => ({
  user: { name: 'alice', groups: ['system:authenticated'] }, isResourceRequest: true, verb: 'list', apiGroup: '',
  resource: 'pods', subresource: '', namespace: 'team', path: '/api/v1/namespaces/team/pods', ...o,
});
const fs = (name: string, precedence: number, rules: unknown[], distinguisher?: string): KubeObject => ({
  metadata: { name }, spec: { matchingPrecedence: precedence, priorityLevelConfiguration: { name: 'pl' }, rules,
    ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}) },
} as KubeObject);

describe('APF classification (FlowSchema matching)', () => {
  const sa = fs('sa', 500, [{ subjects: [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: '*' } }],
    resourceRules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'pods/status'], namespaces: ['*'] }] }]);
  const nodes = fs('nodes', 400, [{ subjects: [{ kind: 'Group', group: { name: 'system:nodes' } }],
    resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true }] }], 'ByUser');
  const health = fs('health', 2, [{ subjects: [{ kind: 'Group', group: { name: '*' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz/*', '/version'] }] }]);

  it('orders schemas by matchingPrecedence, then name', () => {
    expect(sortFlowSchemas([sa, nodes, fs('b', 400, []), health]).map((f) => f.metadata.name)).to.deep.equal(['health', 'b', 'nodes', 'sa']);
  });

  it('matches service-account subjects with * names, verbs, groups and resource/subresource', () => {
    const kubeSystem = { name: 'system:serviceaccount:kube-system:x' };
    expect(matchesFlowSchema(sa, digest({ user: kubeSystem }))).to.equal(true);
    expect(matchesFlowSchema(sa, digest({ user: kubeSystem, subresource: 'status', verb: 'get' }))).to.equal(true);
    expect(matchesFlowSchema(sa, digest({ user: kubeSystem, subresource: 'log', verb: 'get' }))).to.equal(false);
    expect(matchesFlowSchema(sa, digest({ user: kubeSystem, verb: 'delete' }))).to.equal(false);
    expect(matchesFlowSchema(sa, digest({ user: { name: 'system:serviceaccount:default:x' } }))).to.equal(false);
    expect(matchesFlowSchema(sa, digest({ user: kubeSystem, namespace: '' }))).to.equal(false, 'cluster scope needs clusterScope');
  });

  it('matches cluster-scoped requests only with clusterScope, and namespaced ones only with namespaces', () => {
    const node = { name: 'system:node:n1', groups: ['system:nodes'] };
    expect(matchesFlowSchema(nodes, digest({ user: node, namespace: '', resource: 'nodes' }))).to.equal(true);
    expect(matchesFlowSchema(nodes, digest({ user: node }))).to.equal(false);
    expect(flowDistinguisher(nodes, digest({ user: node }))).to.equal('system:node:n1');
  });

  it('matches non-resource URLs exactly or by a trailing /* prefix', () => {
    const nr = (path: string) => digest({ isResourceRequest: false, verb: 'get', path, resource: '', namespace: '' });
    expect(matchesFlowSchema(health, nr('/healthz/etcd'))).to.equal(true);
    expect(matchesFlowSchema(health, nr('/healthz'))).to.equal(true);
    expect(matchesFlowSchema(health, nr('/version'))).to.equal(true);
    expect(matchesFlowSchema(health, nr('/versions'))).to.equal(false);
    expect(matchesFlowSchema(health, digest({}))).to.equal(false, 'a resource request never matches non-resource rules');
  });
});

describe('APF queue set', () => {
  it('runs at once while seats are free, then queues, and hands freed seats to queues in turn', async () => {
    const qs = new QueueSet(1, { queues: 2, handSize: 1, queueLengthLimit: 10 });
    // A second flow dealt the other queue than flow a.
    const other = ['b', 'c', 'd', 'e', 'f', 'g'].find((f) => dealHand(f, 2, 1)[0] !== dealHand('a', 2, 1)[0])!;
    const first = qs.acquire('a', 1000);
    expect(first).to.be.a('function');
    const order: string[] = [];
    const waits = ['a', 'a', 'a', other].map((flow, i) => (qs.acquire(flow, 1000) as Promise<() => void>).then((release) => { order.push(`${flow === 'a' ? 'a' : 'x'}${i}`); release(); }));
    expect(qs.inQueue).to.equal(4);
    expect(qs.queueLengths().sort()).to.deep.equal([1, 3]);
    (first as () => void)();
    await Promise.all(waits);
    // Round robin over the queues: the other flow is served first or second, never behind all of a's requests.
    expect(order).to.have.length(4);
    expect(order.indexOf('x3')).to.be.at.most(1);
    expect(order.filter((o) => o !== 'x3')).to.deep.equal(['a0', 'a1', 'a2']);
  });

  it('gives free seats to the queue whose head finishes first: a light flow is not kept behind a heavy flow\'s wide requests', async () => {
    const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const heavy = names.find((n) => dealHand(n, 2, 1)[0] === 0)!;
    const light = names.find((n) => dealHand(n, 2, 1)[0] === 1)!;
    const qs = new QueueSet(10, { queues: 2, handSize: 1, queueLengthLimit: 10 });
    const first = qs.acquire(heavy, 1000, 10) as () => void;
    const order: string[] = [];
    const wait = (flow: string, seats: number, label: string) =>
      (qs.acquire(flow, 1000, seats) as Promise<() => void>).then((release) => { order.push(label); release(); });
    const all = [wait(heavy, 10, 'wide1'), wait(heavy, 10, 'wide2'), wait(light, 1, 'light1'), wait(light, 1, 'light2')];
    first();
    await Promise.all(all);
    // Both queues start level; by finish time (served + head's seats: 1 and 2 against 10)
    // the light flow's one-seat requests go before the heavy flow's ten-seat ones, where
    // round robin would interleave them (wide1, light1, wide2, light2).
    expect(order).to.deep.equal(['light1', 'light2', 'wide1', 'wide2']);
  });

  it('rejects at the queue length limit, after the wait limit, and at once without queues', async () => {
    const qs = new QueueSet(1, { queues: 1, handSize: 1, queueLengthLimit: 1 });
    qs.acquire('a', 1000);
    const queued = qs.acquire('a', 50) as Promise<() => void>;
    expect(() => qs.acquire('a', 50)).to.throw(Rejected).with.property('reason', 'queue-full');
    const err = await queued.then(() => undefined, (e: Rejected) => e);
    expect(err).to.be.instanceOf(Rejected).with.property('reason', 'time-out');
    const reject = new QueueSet(1, undefined);
    reject.acquire('a', 1000);
    expect(() => reject.acquire('b', 1000)).to.throw(Rejected).with.property('reason', 'concurrency-limit');
  });

  it('lets a waiting request withdraw (its client gone): refused as cancelled, its place freed, the others served in turn', async () => {
    const qs = new QueueSet(1, { queues: 1, handSize: 1, queueLengthLimit: 3 });
    const running = qs.acquire('a', 1000) as () => void;
    const withdraws: Array<() => void> = [];
    const onWaiting = (w: () => void): void => { withdraws.push(w); };
    const order: string[] = [];
    const outcome = (label: string, p: Promise<() => void>) => p.then((release) => { order.push(label); release(); return 'served'; }, (e: Rejected) => e.reason);
    const first = outcome('first', qs.acquire('a', 1000, 1, onWaiting) as Promise<() => void>);
    const second = outcome('second', qs.acquire('a', 1000, 1, onWaiting) as Promise<() => void>);
    const third = outcome('third', qs.acquire('a', 1000, 1, onWaiting) as Promise<() => void>);
    expect(withdraws).to.have.length(3);
    expect(qs.inQueue).to.equal(3);
    withdraws[1]!();
    expect(await second).to.equal('cancelled');
    expect(qs.inQueue).to.equal(2);
    // Its place is free: the queue takes another request at its length limit of 3.
    const fourth = outcome('fourth', qs.acquire('a', 1000, 1, onWaiting) as Promise<() => void>);
    expect(qs.queueLengths()).to.deep.equal([3]);
    running();
    expect([await first, await third, await fourth]).to.deep.equal(['served', 'served', 'served']);
    expect(order).to.deep.equal(['first', 'third', 'fourth']);
    // Withdrawing a request already served (its response then closes) changes nothing.
    withdraws[0]!();
    expect([qs.inQueue, qs.running, qs.seatsInUse]).to.deep.equal([0, 0, 0]);
  });

  it('does not call onWaiting for a request that runs at once', () => {
    const qs = new QueueSet(2, { queues: 1, handSize: 1, queueLengthLimit: 3 });
    let called = 0;
    const release = qs.acquire('a', 1000, 1, () => { called++; });
    expect(release).to.be.a('function');
    expect(called).to.equal(0);
  });
});
describe('APF work estimates (seats)', () => {
  const list = { verb: 'list', apiGroup: '', resource: 'configmaps', subresource: '' };
  const counts = (n: number) => (r: string) => (r === 'configmaps' ? n : undefined);
  it('charges a LIST a seat per 100 objects it processes, 1 to 10, judged as upstream v1.28 routes it', () => {
    const q = (s: string) => new URLSearchParams(s);
    // From etcd (resourceVersion unset): twice what it reads, at most limit objects.
    expect(estimateSeats(list, q(''), counts(0))).to.equal(1);
    expect(estimateSeats(list, q(''), counts(250))).to.equal(5);
    expect(estimateSeats(list, q(''), counts(50_000))).to.equal(10);
    expect(estimateSeats(list, q('limit=100'), counts(50_000))).to.equal(2);
    expect(estimateSeats(list, q('limit=100&continue=abc&resourceVersion=0'), counts(50_000))).to.equal(2);
    // From etcd with a selector: everything stored is read and filtered, plus the page.
    expect(estimateSeats(list, q('labelSelector=a%3Db&limit=100'), counts(250))).to.equal(4);
    // From the watch cache (resourceVersion=0): every stored object, whatever the limit.
    expect(estimateSeats(list, q('resourceVersion=0&limit=100'), counts(250))).to.equal(3);
    expect(estimateSeats(list, q('resourceVersion=0&resourceVersionMatch=NotOlderThan'), counts(250))).to.equal(3);
    expect(estimateSeats(list, q('resourceVersion=5&resourceVersionMatch=Exact'), counts(250))).to.equal(5);
    expect(estimateSeats({ ...list, verb: 'get' }, q(''), counts(50_000))).to.equal(1);
    expect(estimateSeats({ ...list, apiGroup: 'apps', resource: 'deployments' }, q(''), counts(5000))).to.equal(1, 'uncounted resources cost one seat');
  });

  it('charges a LIST of one name (a kubelet\'s per-object reflector) one seat, as a get', () => {
    const kubelet = new URLSearchParams('fieldSelector=metadata.name%3Dcm-1&limit=500&resourceVersion=0');
    expect(estimateSeats({ ...list, name: 'cm-1' }, kubelet, counts(12_000))).to.equal(1);
    expect(estimateSeats(list, kubelet, counts(12_000)), 'without the name, the cache walks all 12,000').to.equal(10);
  });

  it('runs a wide request only when its seats are free, holding narrower ones behind it', async () => {
    const qs = new QueueSet(4, { queues: 1, handSize: 1, queueLengthLimit: 10 });
    const narrow = qs.acquire('a', 1000) as () => void;
    const wide = qs.acquire('b', 1000, 4) as Promise<() => void>;
    expect(qs.inQueue, 'three seats are free, the wide request needs four').to.equal(1);
    const behind = qs.acquire('c', 1000) as Promise<() => void>;
    expect(qs.inQueue, 'a narrow request does not overtake the waiting wide one').to.equal(2);
    narrow();
    const releaseWide = await wide;
    expect(qs.seatsInUse).to.equal(4);
    releaseWide();
    (await behind)();
    expect(qs.seatsInUse).to.equal(0);
    const capped = qs.acquire('d', 1000, 50) as () => void;
    expect(capped, 'wider than the level: capped to the level, runs on an idle level').to.be.a('function');
    expect(qs.seatsInUse).to.equal(4);
    capped();
  });
});
