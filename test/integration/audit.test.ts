// Audit logging through a real replica: --audit-policy-file with levels per resource,
// --audit-log-path in json, the Audit-ID header, stages (RequestReceived,
// ResponseStarted for watches, ResponseComplete), request and response bodies by level,
// authorization annotations, impersonation, and failed authentication.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, startReplicas, watch, type Cluster } from '../harness/index.js';

interface Ev {
  level: string; auditID: string; stage: string; verb: string; requestURI: string;
  user: { username: string; groups?: string[] }; impersonatedUser?: { username: string };
  objectRef?: Record<string, string>; responseStatus?: { code: number; reason?: string; status?: string; message?: string };
  requestObject?: Record<string, unknown>; responseObject?: Record<string, unknown>;
  annotations?: Record<string, string>; sourceIPs?: string[]; userAgent?: string;
  requestReceivedTimestamp: string; stageTimestamp: string;
}

const policy = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: ['/healthz*', '/readyz*', '/livez*']
- level: RequestResponse
  resources: [{group: '', resources: [configmaps]}]
- level: Request
  resources: [{group: '', resources: [secrets]}]
  omitStages: [RequestReceived]
- level: Metadata
  omitManagedFields: true
`;

describe('audit logging (--audit-policy-file, --audit-log-path)', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let dir: string;
  const ns = `audit-${Date.now().toString(36)}`;
  const logPath = () => join(dir, 'audit.log');
  // Complete lines only: the replica may be writing the last one (callers poll with eventually).
  const events = (): Ev[] => {
    const text = readFileSync(logPath(), 'utf8');
    return text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter(Boolean).map((l) => JSON.parse(l) as Ev);
  };
  const byID = (id: string): Ev[] => events().filter((e) => e.auditID === id);
  const admin = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    request<Record<string, unknown>>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body, headers });
  const eventually = async <T>(fn: () => T | undefined, ms = 5000): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const v = fn();
      if (v !== undefined) return v;
      if (Date.now() > end) throw new Error('condition not met');
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-it-'));
    writeFileSync(join(dir, 'policy.yaml'), policy);
    cluster = await startReplicas(1, {
      authorizationMode: 'RBAC',
      tokens: [{ token: 'viewer-token', name: 'viewer' }],
      extraArgs: [`--audit-policy-file=${join(dir, 'policy.yaml')}`, `--audit-log-path=${join(dir, 'audit.log')}`],
    });
    expect((await admin('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
  });
  after(async () => {
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('records a create at RequestResponse in both stages, under the Audit-ID it answers with', async () => {
    const r = await admin('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'cm1' }, data: { a: 'b' } }, { 'User-Agent': 'audit-test/1.0' });
    expect(r.status).to.equal(201);
    const id = String(r.headers['audit-id']);
    expect(id).to.match(/^[0-9a-f-]{36}$/);
    const evs = byID(id);
    expect(evs.map((e) => e.stage)).to.deep.equal(['RequestReceived', 'ResponseComplete']);
    const [received, done] = evs as [Ev, Ev];
    expect(received).to.not.have.property('responseStatus');
    expect(received).to.not.have.property('annotations');
    expect(done).to.deep.include({ level: 'RequestResponse', verb: 'create', requestURI: `/api/v1/namespaces/${ns}/configmaps`, userAgent: 'audit-test/1.0' });
    expect(done.user.username).to.equal('admin');
    expect(done.sourceIPs).to.deep.equal(['127.0.0.1']);
    expect(done.objectRef).to.deep.equal({ resource: 'configmaps', namespace: ns, name: 'cm1', apiVersion: 'v1' });
    expect(done.responseStatus).to.deep.equal({ metadata: {}, code: 201 });
    expect(done.requestObject).to.deep.include({ data: { a: 'b' } });
    expect(done.responseObject).to.nested.include({ 'metadata.name': 'cm1', 'data.a': 'b' });
    expect(done.responseObject).to.have.nested.property('metadata.uid');
    expect(done.annotations).to.include({ 'authorization.k8s.io/decision': 'allow' });
    expect(done.requestReceivedTimestamp).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(done.stageTimestamp >= done.requestReceivedTimestamp).to.equal(true);
  });

  it('keeps the client\'s Audit-ID, and logs errors with their Status fields', async () => {
    const r = await admin('GET', `/api/v1/namespaces/${ns}/configmaps/missing`, undefined, { 'Audit-ID': 'client-chosen-id' });
    expect(r.status).to.equal(404);
    expect(r.headers['audit-id']).to.equal('client-chosen-id');
    const done = byID('client-chosen-id').find((e) => e.stage === 'ResponseComplete')!;
    expect(done.responseStatus).to.deep.include({ code: 404, reason: 'NotFound', status: 'Failure', message: 'configmaps "missing" not found' });
    expect(done.responseObject).to.include({ kind: 'Status', reason: 'NotFound' });
  });

  it('logs the request body but not the response at level Request, and omits the stages the rule omits', async () => {
    const r = await admin('POST', `/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 's1' }, stringData: { k: 'v' } });
    expect(r.status).to.equal(201);
    const evs = byID(String(r.headers['audit-id']));
    expect(evs.map((e) => e.stage)).to.deep.equal(['ResponseComplete']);
    expect(evs[0]!.requestObject).to.deep.include({ stringData: { k: 'v' } });
    expect(evs[0]).to.not.have.property('responseObject');
  });

  it('logs metadata only at level Metadata, completing objectRef from the body (uid, resourceVersion)', async () => {
    const got = await admin('GET', `/api/v1/namespaces/${ns}`);
    const r = await admin('PUT', `/api/v1/namespaces/${ns}`, { ...got.body, metadata: { ...(got.body.metadata as object), labels: { x: 'y' } } });
    expect(r.status).to.equal(200);
    const done = byID(String(r.headers['audit-id'])).find((e) => e.stage === 'ResponseComplete')!;
    expect(done.level).to.equal('Metadata');
    expect(done).to.not.have.property('requestObject');
    expect(done).to.not.have.property('responseObject');
    const meta = got.body.metadata as { uid: string; resourceVersion: string };
    expect(done.objectRef).to.deep.equal({ resource: 'namespaces', name: ns, namespace: ns, uid: meta.uid, resourceVersion: meta.resourceVersion, apiVersion: 'v1' });
    const none = await admin('GET', '/healthz');
    expect(byID(String(none.headers['audit-id']))).to.deep.equal([]);
  });

  it('records a watch at ResponseStarted when the stream opens and ResponseComplete when it ends', async () => {
    const w = await watch(`${cluster.urls[0]}/api/v1/namespaces/${ns}/configmaps?watch=1&timeoutSeconds=1`, cluster.credentialsFor());
    const id = String(w.headers['audit-id']);
    const started = await eventually(() => byID(id).find((e) => e.stage === 'ResponseStarted'));
    expect(started.responseStatus?.code).to.equal(200);
    expect(byID(id).some((e) => e.stage === 'ResponseComplete')).to.equal(false);
    await eventually(() => (w.ended() ? true : undefined), 5000);
    const stages = (await eventually(() => (byID(id).length === 3 ? byID(id) : undefined))).map((e) => e.stage);
    expect(stages).to.deep.equal(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    w.close();
  });

  it('records impersonation and a forbidden decision with its annotations', async () => {
    const r = await admin('GET', `/api/v1/namespaces/${ns}/pods`, undefined, { 'Impersonate-User': 'viewer' });
    expect(r.status).to.equal(403);
    const done = byID(String(r.headers['audit-id'])).find((e) => e.stage === 'ResponseComplete')!;
    expect(done.user.username).to.equal('admin');
    expect(done.impersonatedUser?.username).to.equal('viewer');
    expect(done.annotations).to.include({ 'authorization.k8s.io/decision': 'forbid' });
    expect(done.responseStatus).to.include({ code: 403, reason: 'Forbidden' });
  });

  it('records a failed authentication at ResponseStarted with code 401', async () => {
    const r = await request(`${cluster.urls[0]}/api/v1/namespaces`, { token: 'not-a-token' });
    expect(r.status).to.equal(401);
    const evs = byID(String(r.headers['audit-id']));
    expect(evs).to.have.length(1);
    expect(evs[0]).to.deep.include({ stage: 'ResponseStarted', level: 'Metadata', user: { username: '' } });
    expect(evs[0]!.responseStatus).to.deep.equal({ metadata: {}, message: 'Authentication failed, attempted: bearer', code: 401 });
  });

  it('annotates requests for a deprecated version and sets apiserver_requested_deprecated_apis', async () => {
    const r = await admin('GET', '/apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas');
    expect(r.status).to.equal(200);
    expect(String(r.headers.warning)).to.match(/^299 - "flowcontrol.apiserver.k8s.io\/v1beta2 FlowSchema is deprecated in v1.26\+/);
    const done = await eventually(() => byID(String(r.headers['audit-id'])).find((e) => e.stage === 'ResponseComplete'));
    expect(done.annotations).to.include({ 'k8s.io/deprecated': 'true', 'k8s.io/removed-release': '1.29' });
    const current = await admin('GET', '/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas');
    const plain = byID(String(current.headers['audit-id'])).find((e) => e.stage === 'ResponseComplete');
    expect(plain?.annotations ?? {}).to.not.have.property('k8s.io/deprecated');
    const metrics = await request(`${cluster.urls[0]}/metrics`, cluster.credentialsFor());
    expect(metrics.text).to.include('apiserver_requested_deprecated_apis{group="flowcontrol.apiserver.k8s.io",version="v1beta2",resource="flowschemas",subresource="",removed_release="1.29"} 1');
    expect(metrics.text).to.not.match(/apiserver_requested_deprecated_apis\{[^}]*version="v1beta3"/);
  });
});
