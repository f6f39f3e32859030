// API Priority and Fairness through a real replica with a small server concurrency
// limit: a flooding user on a Reject level is answered 429 (upstream's plain-text body
// and Retry-After) while others are served; a Queue level holds requests instead of
// refusing them; exempt requests are never held; every classified response names its
// FlowSchema and priority level; configuration changes take effect from the informers; a
// seat is held until the response is sent, and a waiting request whose client went away
// leaves its queue without running.
import { expect } from 'chai';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect as http2Connect, constants as http2Constants } from 'node:http2';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';

const fc = '/apis/flowcontrol.apiserver.k8s.io/v1beta3';
interface Meta { metadata: { uid: string } }

describe('API Priority and Fairness', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  const ns = `apf-${Date.now().toString(36)}`;
  const admin = <T = Meta>(method: string, path: string, body?: unknown) =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body });
  const as = (token: string, path: string): Promise<HttpResponse<unknown>> => request(`${cluster.urls[0]}${path}`, { token });
  // One seat that stays one: borrowingLimitPercent 0 keeps the level from borrowing the
  // seats the other levels leave idle.
  const level = (name: string, limitResponse: unknown) => ({
    metadata: { name }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, borrowingLimitPercent: 0, limitResponse } },
  });
  const schema = (name: string, pl: string, user: string) => ({
    metadata: { name }, spec: {
      priorityLevelConfiguration: { name: pl }, matchingPrecedence: 100, distinguisherMethod: { type: 'ByUser' },
      rules: [{ subjects: [{ kind: 'User', user: { name: user } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true }] }],
    },
  });
  const classifiedAs = async (token: string, uid: string): Promise<void> => {
    for (let i = 0; i < 100; i++) {
      if ((await as(token, `/api/v1/namespaces/${ns}/configmaps?limit=1`)).headers['x-kubernetes-pf-flowschema-uid'] === uid) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`requests were never classified under FlowSchema ${uid}`);
  };
  const flood = (token: string, n: number) => Promise.all(Array.from({ length: n }, () => as(token, `/api/v1/namespaces/${ns}/configmaps`)));

  before(async () => {
    cluster = await startReplicas(1, {
      tokens: [{ token: 'flood-token', name: 'flooder' }, { token: 'queue-token', name: 'queuer' }, { token: 'other-token', name: 'other' }],
      extraArgs: ['--max-requests-inflight=4', '--max-mutating-requests-inflight=2'],
    });
    expect((await admin('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
    const data = { blob: 'x'.repeat(2000) };
    await Promise.all(Array.from({ length: 150 }, (_, i) => admin('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${i}` }, data })));
  });
  after(async () => { await cluster?.stop(); });

  it('rejects a flooding user on a Reject level with 429, plain text and Retry-After, while another user is served', async () => {
    expect((await admin('POST', `${fc}/prioritylevelconfigurations`, level('tiny-reject', { type: 'Reject' }))).status).to.equal(201);
    const fs = await admin('POST', `${fc}/flowschemas`, schema('flooder', 'tiny-reject', 'flooder'));
    expect(fs.status).to.equal(201);
    await classifiedAs('flood-token', fs.body.metadata.uid);
    const pl = await admin('GET', `${fc}/prioritylevelconfigurations/tiny-reject`);
    const [flooded, others] = await Promise.all([flood('flood-token', 40), Promise.all(Array.from({ length: 5 }, () => as('other-token', `/api/v1/namespaces/${ns}/configmaps/cm-1`)))]);
    const rejected = flooded.filter((r) => r.status === 429);
    expect(rejected.length, 'some flooding requests are refused').to.be.greaterThan(0);
    expect(flooded.filter((r) => r.status === 200).length, 'the level still serves one at a time').to.be.greaterThan(0);
    expect(rejected[0]!.text).to.equal('Too many requests, please try again later.\n');
    expect(rejected[0]!.headers['retry-after']).to.equal('1');
    expect(rejected[0]!.headers['x-kubernetes-pf-prioritylevel-uid']).to.equal(pl.body.metadata.uid);
    expect(others.map((r) => r.status)).to.deep.equal([200, 200, 200, 200, 200]);
    const metrics = (await admin<string>('GET', '/metrics')).text;
    expect(metrics).to.match(/apiserver_flowcontrol_rejected_requests_total\{flow_schema="flooder",priority_level="tiny-reject",reason="concurrency-limit"\} [1-9]/);
    expect(metrics).to.match(/apiserver_flowcontrol_nominal_limit_seats\{priority_level="tiny-reject"\} 1\n/);
    // Borrowing's bounds: a level lends nothing (lendablePercent 0) and borrows nothing
    // (borrowingLimitPercent 0) here; catch-all (1 seat of 6, lendablePercent 0, no
    // borrowingLimitPercent) may borrow up to the server's whole 4 + 2.
    expect(metrics).to.match(/apiserver_flowcontrol_lower_limit_seats\{priority_level="tiny-reject"\} 1\n/);
    expect(metrics).to.match(/apiserver_flowcontrol_upper_limit_seats\{priority_level="tiny-reject"\} 1\n/);
    expect(metrics).to.match(/apiserver_flowcontrol_current_limit_seats\{priority_level="tiny-reject"\} 1\n/);
    expect(metrics).to.match(/apiserver_flowcontrol_lower_limit_seats\{priority_level="catch-all"\} 1\n/);
    expect(metrics).to.match(/apiserver_flowcontrol_upper_limit_seats\{priority_level="catch-all"\} 7\n/);
    expect(metrics).to.match(/apiserver_flowcontrol_seat_fair_frac [0-9.e+-]+\n/);
  });

  it('queues instead of refusing on a Queue level, serving every request in turn', async () => {
    expect((await admin('POST', `${fc}/prioritylevelconfigurations`, level('tiny-queue', { type: 'Queue', queuing: { queues: 2, handSize: 1, queueLengthLimit: 100 } }))).status).to.equal(201);
    const fs = await admin('POST', `${fc}/flowschemas`, schema('queuer', 'tiny-queue', 'queuer'));
    await classifiedAs('queue-token', fs.body.metadata.uid);
    const results = await flood('queue-token', 40);
    expect(results.map((r) => r.status).filter((s) => s !== 200)).to.deep.equal([]);
    const metrics = (await admin<string>('GET', '/metrics')).text;
    const waited = /apiserver_flowcontrol_request_wait_duration_seconds_count\{flow_schema="queuer",priority_level="tiny-queue",execute="true"\} (\d+)/.exec(metrics);
    expect(Number(waited?.[1])).to.be.at.least(40);
  });

  it('never holds exempt requests and names the exempt FlowSchema in the headers', async () => {
    const exempt = await admin('GET', `${fc}/flowschemas/exempt`);
    const r = await admin('GET', `/api/v1/namespaces/${ns}`);
    expect(r.headers['x-kubernetes-pf-flowschema-uid']).to.equal(exempt.body.metadata.uid);
    const burst = await Promise.all(Array.from({ length: 30 }, () => admin('GET', `/api/v1/namespaces/${ns}/configmaps`)));
    expect(burst.every((x) => x.status === 200)).to.equal(true);
  });

  it('serves the priority levels at /debug/api_priority_and_fairness/dump_priority_levels', async () => {
    const r = await admin<string>('GET', '/debug/api_priority_and_fairness/dump_priority_levels');
    expect(r.status).to.equal(200);
    expect(r.text.split('\n')[0]).to.match(/^PriorityLevelName,\s+ActiveQueues,\s+IsIdle,\s+IsQuiescing,\s+WaitingRequests,\s+ExecutingRequests/);
    expect(r.text).to.match(/\ntiny-reject,\s+0,\s+true,\s+false,\s+0,\s+0,\s+1\n/);
    // The nominal seats (workload-low: 3 of 6), not the current limit, which borrowing moves
    // (an idle workload-low lends all but what its lendablePercent of 90 keeps: 0).
    expect(r.text).to.match(/\nworkload-low,\s+\d+,\s+\w+,\s+false,\s+\d+,\s+\d+,\s+3\n/);
    expect(r.text).to.match(/\nexempt,\s+<none>/);
  });

  it('dumps queues and the requests waiting in them while a flow is held back', async () => {
    // tiny-queue (one seat, two queues) from the test above: a burst leaves most requests queued.
    const burst = flood('queue-token', 30);
    let queues = '';
    let requests = '';
    for (let i = 0; i < 50 && !/\ntiny-queue,\s+queuer,/.test(requests); i++) {
      [queues, requests] = await Promise.all([
        admin<string>('GET', '/debug/api_priority_and_fairness/dump_queues').then((r) => r.text),
        admin<string>('GET', '/debug/api_priority_and_fairness/dump_requests').then((r) => r.text),
      ]);
    }
    await burst;
    expect(queues.split('\n')[0]).to.match(/^PriorityLevelName,\s+Index,\s+PendingRequests,\s+ExecutingRequests$/);
    expect(queues).to.match(/\ntiny-queue,\s+0,\s+\d+,\s+\d+\n/);
    expect(queues).to.match(/\ntiny-queue,\s+1,\s+\d+,\s+\d+\n/);
    expect(requests.split('\n')[0]).to.match(/^PriorityLevelName,\s+FlowSchemaName,\s+QueueIndex,\s+RequestIndexInQueue,\s+FlowDistingsher,\s+ArriveTime$/);
    expect(requests).to.match(/\ntiny-queue,\s+queuer,\s+[01],\s+\d+,\s+queuer,\s+\d{4}-\d\d-\d\dT/);
  });

  // A list of 20 MB, more than loopback socket buffers take in, whose client does not read:
  // the server cannot finish sending it, so it holds its level's seat until the client reads.
  const big = `${ns}-big`;
  const slowList = async (token: string): Promise<{ res: IncomingMessage; req: ClientRequest }> => {
    if ((await admin('GET', `/api/v1/namespaces/${big}`)).status === 404) {
      expect((await admin('POST', '/api/v1/namespaces', { metadata: { name: big } })).status).to.equal(201);
      const data = { blob: 'y'.repeat(500_000) };
      for (let i = 0; i < 40; i += 8) {
        await Promise.all(Array.from({ length: 8 }, (_, j) => admin('POST', `/api/v1/namespaces/${big}/configmaps`, { metadata: { name: `big-${i + j}` }, data })));
      }
    }
    const u = new URL(cluster.urls[0]!);
    return new Promise((resolve, reject) => {
      const req = httpsRequest({ hostname: u.hostname, port: u.port, path: `/api/v1/namespaces/${big}/configmaps`, rejectUnauthorized: false, headers: { Authorization: `Bearer ${token}` } });
      req.on('response', (res) => { res.pause(); res.socket.pause(); resolve({ res, req }); });
      req.on('error', reject);
      req.end();
    });
  };
  const readAll = async (slow: { res: IncomingMessage }): Promise<number> => {
    let received = 0;
    slow.res.on('data', (c: Buffer) => { received += c.length; });
    const ended = new Promise((r) => slow.res.on('end', r));
    slow.res.socket.resume();
    slow.res.resume();
    await ended;
    return received;
  };

  it('holds a request\'s seat until its response is sent: a client slow to read a large list keeps its level\'s one seat', async () => {
    // tiny-queue (one seat) from the tests above: the queuer's slow list holds it.
    const slow = await slowList('queue-token');
    try {
      expect(slow.res.statusCode).to.equal(200);
      let answered = false;
      const next = as('queue-token', `/api/v1/namespaces/${ns}/configmaps/cm-1`).then((r) => { answered = true; return r; });
      await new Promise((r) => setTimeout(r, 1500));
      expect(answered, 'the second request waits while the first is still being sent').to.equal(false);
      expect(await readAll(slow)).to.be.greaterThan(20_000_000);
      expect((await next).status).to.equal(200);
    } finally {
      slow.req.destroy();
    }
  });

  it('drops a waiting request whose client went away (HTTP/1.1 or an HTTP/2 stream): it leaves its queue at once, never runs, and counts as cancelled', async () => {
    const inQueue = async (): Promise<number> => {
      const m = /apiserver_flowcontrol_current_inqueue_requests\{flow_schema="queuer",priority_level="tiny-queue"\} (\d+)/.exec((await admin<string>('GET', '/metrics')).text);
      return Number(m?.[1] ?? 0);
    };
    const cancelled = async (): Promise<number> => {
      const m = /apiserver_flowcontrol_rejected_requests_total\{flow_schema="queuer",priority_level="tiny-queue",reason="cancelled"\} (\d+)/.exec((await admin<string>('GET', '/metrics')).text);
      return Number(m?.[1] ?? 0);
    };
    const before = await cancelled();
    const slow = await slowList('queue-token');
    const u = new URL(cluster.urls[0]!);
    const create = (i: number): string => JSON.stringify({ metadata: { name: `gone-${i}` }, data: { k: 'v' } });
    const headers = { 'Authorization': 'Bearer queue-token', 'Content-Type': 'application/json' };
    // Three over HTTP/1.1, whose clients close their connections, and three streams of one
    // HTTP/2 connection, which its client cancels (RST_STREAM) and keeps, as client-go does
    // when a call's context ends.
    const overHttp1 = [0, 1, 2].map((i) => {
      const req = httpsRequest({ hostname: u.hostname, port: u.port, method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps`, rejectUnauthorized: false, headers });
      req.on('error', () => undefined);
      req.end(create(i));
      return req;
    });
    const session = http2Connect(cluster.urls[0]!, { rejectUnauthorized: false });
    session.on('error', () => undefined);
    const overHttp2 = [3, 4, 5].map((i) => {
      const stream = session.request({ ':method': 'POST', ':path': `/api/v1/namespaces/${ns}/configmaps`, ...headers });
      stream.on('error', () => undefined);
      stream.end(create(i));
      return stream;
    });
    try {
      for (let i = 0; i < 100 && await inQueue() < 6; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await inQueue(), 'the six creates wait behind the slow list').to.equal(6);
      for (const req of overHttp1) req.destroy();
      for (const stream of overHttp2) stream.close(http2Constants.NGHTTP2_CANCEL);
      for (let i = 0; i < 100 && await inQueue() > 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await inQueue(), 'their clients gone, they left the queue while the seat was still held').to.equal(0);
      expect(await cancelled() - before).to.equal(6);
      expect(session.closed, 'the HTTP/2 connection stays open').to.equal(false);
      expect(await readAll(slow)).to.be.greaterThan(20_000_000);
      // The level serves again, and none of the withdrawn creates ran.
      expect((await as('queue-token', `/api/v1/namespaces/${ns}/configmaps/cm-1`)).status).to.equal(200);
      const names = (await admin<{ items: Array<{ metadata: { name: string } }> }>('GET', `/api/v1/namespaces/${ns}/configmaps`)).body.items.map((c) => c.metadata.name);
      expect(names.filter((n) => n.startsWith('gone-'))).to.deep.equal([]);
    } finally {
      slow.req.destroy();
      session.close();
    }
  });
});

describe('max-in-flight limit (--enable-priority-and-fairness=false)', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  before(async () => {
    cluster = await startReplicas(1, {
      tokens: [{ token: 'user-token', name: 'user' }],
      extraArgs: ['--enable-priority-and-fairness=false', '--max-requests-inflight=1', '--max-mutating-requests-inflight=1'],
    });
  });
  after(async () => { await cluster?.stop(); });

  it('refuses read-only requests beyond the limit with 429, but not system:masters', async () => {
    const path = '/api/v1/namespaces/kube-system/configmaps';
    const users = await Promise.all(Array.from({ length: 30 }, () => request(`${cluster.urls[0]}${path}`, { token: 'user-token' })));
    expect(users.some((r) => r.status === 429)).to.equal(true);
    expect(users.find((r) => r.status === 429)!.text).to.equal('Too many requests, please try again later.\n');
    const admins = await Promise.all(Array.from({ length: 30 }, () => request(`${cluster.urls[0]}${path}`, cluster.credentialsFor())));
    expect(admins.every((r) => r.status === 200)).to.equal(true);
    expect(admins[0]!.headers).to.not.have.property('x-kubernetes-pf-flowschema-uid');
  });
});
