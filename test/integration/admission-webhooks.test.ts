// MutatingAdmissionWebhook and ValidatingAdmissionWebhook through two real replicas and
// a real HTTPS webhook backend: configurations written through one replica take effect
// on the other within a second; denials, patches, timeouts, unreachable and untrusted
// backends under both failure policies; selectors; subresource rules; dry run and side
// effects; warnings; reinvocation; AdmissionReview v1beta1; kubeconfig credentials.
//
// Every webhook selects objects labelled wh-test=<its test id>, so tests never see each
// other's webhooks. Handlers allow dry-run requests: a dry-run create is how a test
// learns that both replicas call the new webhook before it starts asserting.
import { expect } from 'chai';
import type { Etcd3 } from 'etcd3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  freePort, request, startReplicas, startWebhookServer, testEtcdClient,
  type Cluster, type HttpResponse, type WebhookHandler, type WebhookServer,
  readAuditLog,
} from '../harness/index.js';

interface Obj { metadata: { name: string; resourceVersion?: string; labels?: Record<string, string>; annotations?: Record<string, string> }; data?: Record<string, string> }
interface Status { code: number; reason?: string; message: string; status: string }

const token = 'webhook-secret-token';
const adm = 'admissionregistration.k8s.io/v1';

describe('admission webhooks', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let ws: WebhookServer;
  let other: WebhookServer;
  let etcd: Etcd3;
  let dir: string;
  const ns = `wh-${Date.now().toString(36)}`;
  const created: string[] = [];

  const api = <T = Obj>(replica: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(), method, body, headers });
  const cm = (name: string, id: string, labels: Record<string, string> = {}) =>
    ({ metadata: { name, labels: { 'wh-test': id, ...labels } }, data: { k: 'v' } });
  const createCM = (replica: number, id: string, name: string, query = '', namespace = ns) =>
    api<Obj & Status>(replica, 'POST', `/api/v1/namespaces/${namespace}/configmaps${query}`, cm(name, id));

  /** A webhook on configmaps CREATE/UPDATE of objects labelled with the test id. */
  const hook = (id: string, name: string, path: string, over: Record<string, unknown> = {}) => ({
    name: `${name}.${id}.example.com`,
    clientConfig: { url: ws.url(path), caBundle: ws.caBundle },
    rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    objectSelector: { matchLabels: { 'wh-test': id } },
    sideEffects: 'None', admissionReviewVersions: ['v1'], timeoutSeconds: 5, failurePolicy: 'Fail',
    ...over,
  });
  const configure = async (kind: 'Mutating' | 'Validating', name: string, webhooks: unknown[]): Promise<void> => {
    const plural = `${kind.toLowerCase()}webhookconfigurations`;
    const r = await api(0, 'POST', `/apis/admissionregistration.k8s.io/v1/${plural}`, { apiVersion: adm, kind: `${kind}WebhookConfiguration`, metadata: { name }, webhooks });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    created.push(`/apis/admissionregistration.k8s.io/v1/${plural}/${name}`);
  };
  /** Dry-run requests are always allowed, so probing never trips a test's own denial. */
  const handle = (path: string, fn: WebhookHandler) => ws.handle(path, (req, rec) => (req.dryRun ? {} : fn(req, rec)));
  /** Waits until both replicas call the webhook at `path` for `probe`. */
  const effective = async (path: string, probe: (replica: number) => Promise<unknown>, server = ws): Promise<void> => {
    for (const replica of [0, 1]) {
      const deadline = Date.now() + 5000;
      for (;;) {
        const before = server.requestsTo(path).length;
        await probe(replica);
        if (server.requestsTo(path).length > before) break;
        if (Date.now() > deadline) throw new Error(`webhook ${path} never called through replica ${replica}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const dryRunCM = (id: string) => (replica: number) => createCM(replica, id, `probe-${Math.random().toString(36).slice(2, 8)}`, '?dryRun=All');
  const callsFor = (path: string, name: string) => ws.requestsTo(path).filter((r) => r.request.name === name || r.request.object?.metadata?.name === name);
  /** Retries a request until `done` holds (for webhooks no probe can observe). */
  const until = async <T>(fn: () => Promise<T>, done: (v: T) => boolean, ms = 5000): Promise<T> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const v = await fn();
      if (done(v) || Date.now() > deadline) return v;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const metrics = async (replica: number) => (await api<string>(replica, 'GET', '/metrics')).text;

  before(async () => {
    [ws, other] = await Promise.all([startWebhookServer(), startWebhookServer()]);
    dir = mkdtempSync(join(tmpdir(), 'wh-admission-'));
    const kubeconfig = join(dir, 'webhook-kubeconfig.yaml');
    writeFileSync(kubeconfig, `apiVersion: v1\nkind: Config\nusers:\n- name: "127.0.0.1:${ws.port}"\n  user:\n    token: ${token}\n`);
    const admissionConfig = join(dir, 'admission.yaml');
    const entry = (name: string) => `- name: ${name}\n  configuration:\n    apiVersion: apiserver.config.k8s.io/v1\n    kind: WebhookAdmissionConfiguration\n    kubeConfigFile: ${kubeconfig}\n`;
    writeFileSync(admissionConfig, `apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n${entry('MutatingAdmissionWebhook')}${entry('ValidatingAdmissionWebhook')}`);
    writeFileSync(join(dir, 'audit-policy.yaml'), `apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n- level: Request\n  resources: [{ group: "", resources: [configmaps] }]\n  namespaces: [${ns}]\n- level: None\n`);
    [cluster, etcd] = await Promise.all([startReplicas(2, {
      extraArgs: (i) => [`--admission-control-config-file=${admissionConfig}`,
        `--audit-policy-file=${join(dir, 'audit-policy.yaml')}`, `--audit-log-path=${join(dir, `audit-${i}.log`)}`],
    }), testEtcdClient()]);
    expect((await api(0, 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
  });
  afterEach(async () => {
    for (const path of created.splice(0)) await api(0, 'DELETE', path);
  });
  after(async () => {
    await cluster?.stop();
    await Promise.all([ws?.stop(), other?.stop()]);
    etcd?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a configuration created through replica 0 takes effect on replica 1 within a second; denials carry the webhook\'s code and message', async () => {
    const id = 'deny';
    handle('/deny', (req) => (req.object.metadata.name === 'plain'
      ? { allowed: false }
      : { allowed: false, status: { code: 403, message: 'not on my watch' } }));
    await configure('Validating', 'deny-config', [hook(id, 'deny', '/deny')]);
    const t0 = Date.now();
    let r: HttpResponse<Obj & Status>;
    for (let i = 0; ; i++) {
      r = await createCM(1, id, `c-${i}`);
      if (r.status !== 201 || Date.now() - t0 > 3000) break;
    }
    expect(Date.now() - t0).to.be.below(1000);
    expect(r.status).to.equal(403);
    expect(r.body).to.include({ code: 403, status: 'Failure', message: 'admission webhook "deny.deny.example.com" denied the request: not on my watch' });
    await effective('/deny', dryRunCM(id));
    const plain = await createCM(0, id, 'plain');
    expect(plain.status).to.equal(400);
    expect(plain.body.message).to.equal('admission webhook "deny.deny.example.com" denied the request without explanation');
    const m = await metrics(1);
    expect(m).to.match(/apiserver_admission_webhook_rejection_count\{name="deny\.deny\.example\.com",type="validating",operation="CREATE",error_type="no_error",rejection_code="403"\} [1-9]/);
    expect(m).to.match(/apiserver_admission_webhook_request_total\{name="deny\.deny\.example\.com",type="validating",operation="CREATE",code="403",rejected="true"\} [1-9]/);
    expect(m).to.match(/apiserver_admission_webhook_admission_duration_seconds_count\{name="deny\.deny\.example\.com",type="validating",operation="CREATE",rejected="true"\} [1-9]/);
  });

  it('applies a mutating webhook\'s JSON patch, then validates the patched object; the review carries the request', async () => {
    const id = 'patch';
    handle('/patch', (req) => ({
      patch: req.object.metadata.name === 'bad'
        ? [{ op: 'add', path: '/metadata/labels/broken', value: 'not a valid value!' }]
        : [{ op: 'add', path: '/metadata/labels/patched', value: 'yes' }, { op: 'add', path: '/data/added', value: 'by-webhook' }],
      auditAnnotations: { decision: 'labelled' },
    }));
    await configure('Mutating', 'patch-config', [hook(id, 'patch', '/patch')]);
    await effective('/patch', dryRunCM(id));
    const r = await createCM(1, id, 'good', '?fieldManager=wh-test&fieldValidation=Strict');
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    expect(r.body.metadata.labels).to.include({ patched: 'yes', 'wh-test': id });
    expect(r.body.data).to.deep.equal({ k: 'v', added: 'by-webhook' });
    const auditID = String(r.headers['audit-id']);
    const event = await until(async () => readAuditLog<{ auditID: string; annotations?: Record<string, string> }>(join(dir, 'audit-1.log')).find((e) => e.auditID === auditID), (e) => e !== undefined);
    expect(event?.annotations).to.deep.include({
      'patch.patch.example.com/decision': 'labelled',
      'mutation.webhook.admission.k8s.io/round_0_index_0': '{"configuration":"patch-config","webhook":"patch.patch.example.com","mutated":true}',
      'patch.webhook.admission.k8s.io/round_0_index_0': '{"configuration":"patch-config","webhook":"patch.patch.example.com","patch":[{"op":"add","path":"/metadata/labels/patched","value":"yes"},{"op":"add","path":"/data/added","value":"by-webhook"}],"patchType":"JSONPatch"}',
    });
    const stored = await api(0, 'GET', `/api/v1/namespaces/${ns}/configmaps/good`);
    expect(stored.body.metadata.labels).to.include({ patched: 'yes' });

    const [call] = callsFor('/patch', 'good');
    expect(call!.review).to.include({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' });
    expect(call!.query).to.deep.equal({ timeout: '5s' });
    expect(call!.headers['content-type']).to.equal('application/json');
    expect(call!.request).to.deep.include({
      kind: { group: '', version: 'v1', kind: 'ConfigMap' }, resource: { group: '', version: 'v1', resource: 'configmaps' },
      requestKind: { group: '', version: 'v1', kind: 'ConfigMap' }, requestResource: { group: '', version: 'v1', resource: 'configmaps' },
      name: 'good', namespace: ns, operation: 'CREATE', dryRun: false,
    });
    expect(call!.request.uid).to.match(/^[0-9a-f-]{36}$/);
    expect(call!.request.userInfo.username).to.equal('admin');
    expect(call!.request.userInfo.groups).to.include('system:masters');
    expect(call!.request.object).to.deep.include({ apiVersion: 'v1', kind: 'ConfigMap', data: { k: 'v' } });
    // The options as the client sent them.
    expect(call!.request.options).to.deep.equal({ kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'wh-test', fieldValidation: 'Strict' });
    expect(call!.request).to.not.have.property('oldObject');

    const upd = await api<Obj>(0, 'PUT', `/api/v1/namespaces/${ns}/configmaps/good`, { ...r.body, data: { k: 'v2' } });
    expect(upd.status, JSON.stringify(upd.body)).to.equal(200);
    expect(upd.body.metadata).to.include({ uid: (r.body.metadata as Record<string, unknown>).uid, creationTimestamp: (r.body.metadata as Record<string, unknown>).creationTimestamp });
    expect(upd.body.data).to.deep.equal({ k: 'v2', added: 'by-webhook' });
    const [, updCall] = callsFor('/patch', 'good');
    expect(updCall!.request.operation).to.equal('UPDATE');
    expect(updCall!.request.oldObject.data).to.deep.equal({ k: 'v', added: 'by-webhook' });
    expect(updCall!.request.object.data).to.deep.equal({ k: 'v2' });

    const bad = await createCM(1, id, 'bad');
    expect(bad.status).to.equal(422);
    expect(bad.body.message).to.match(/^ConfigMap "bad" is invalid: metadata\.labels: Invalid value: "not a valid value!"/);
  });

  it('a webhook timeout fails the request under Fail and is ignored under Ignore', async () => {
    const slow: WebhookHandler = () => ({ delayMs: 1500 });
    handle('/slow-fail', slow);
    handle('/slow-ignore', slow);
    await configure('Validating', 'slow-fail', [hook('slowf', 'slow', '/slow-fail', { timeoutSeconds: 1 })]);
    await configure('Mutating', 'slow-ignore', [hook('slowi', 'slow', '/slow-ignore', { timeoutSeconds: 1, failurePolicy: 'Ignore' })]);
    await effective('/slow-fail', dryRunCM('slowf'));
    await effective('/slow-ignore', dryRunCM('slowi'));
    const failed = await createCM(1, 'slowf', 'slowf-1');
    expect(failed.status).to.equal(500);
    expect(failed.body).to.include({ reason: 'InternalError' });
    expect(failed.body.message).to.match(new RegExp(
      `^Internal error occurred: failed calling webhook "slow\\.slowf\\.example\\.com": failed to call webhook: Post "https://127\\.0\\.0\\.1:${ws.port}/slow-fail\\?timeout=1s": context deadline exceeded$`));
    const ignored = await createCM(1, 'slowi', 'slowi-1');
    expect(ignored.status, JSON.stringify(ignored.body)).to.equal(201);
    expect(await metrics(1)).to.match(/apiserver_admission_webhook_fail_open_count\{name="slow\.slowi\.example\.com",type="admit"\} [1-9]/);
  });

  it('an unreachable webhook fails the request under Fail and is ignored under Ignore', async () => {
    const port = await freePort();
    const dead = { clientConfig: { url: `https://127.0.0.1:${port}/nobody`, caBundle: ws.caBundle } };
    await configure('Validating', 'dead-fail', [hook('deadf', 'dead', '/nobody', dead)]);
    await configure('Validating', 'dead-ignore', [hook('deadi', 'dead', '/nobody', { ...dead, failurePolicy: 'Ignore' })]);
    let i = 0;
    const failed = await until(() => createCM(1, 'deadf', `deadf-${i++}`), (r) => r.status !== 201);
    expect(failed.status).to.equal(500);
    expect(failed.body.message).to.equal(`Internal error occurred: failed calling webhook "dead.deadf.example.com": failed to call webhook: Post "https://127.0.0.1:${port}/nobody?timeout=5s": dial tcp 127.0.0.1:${port}: connect: connection refused`);
    const failOpen = /apiserver_admission_webhook_fail_open_count\{name="dead\.deadi\.example\.com",type="validating"\} [1-9]/;
    const seen = await until(async () => ({ r: await createCM(1, 'deadi', `deadi-${i++}`), m: await metrics(1) }), (v) => failOpen.test(v.m));
    expect(seen.r.status).to.equal(201);
    expect(seen.m).to.match(failOpen);
  });

  it('a backend whose certificate the caBundle does not vouch for fails the call', async () => {
    other.handle('/other', () => ({}));
    await configure('Validating', 'wrong-ca', [hook('wrongca', 'ca', '/other', { clientConfig: { url: other.url('/other'), caBundle: ws.caBundle } })]);
    let i = 0;
    const failed = await until(() => createCM(1, 'wrongca', `wrongca-${i++}`), (r) => r.status !== 201);
    expect(failed.status).to.equal(500);
    expect(failed.body.message).to.equal(`Internal error occurred: failed calling webhook "ca.wrongca.example.com": failed to call webhook: Post "https://127.0.0.1:${other.port}/other?timeout=5s": tls: failed to verify certificate: x509: certificate signed by unknown authority`);
    expect(other.requestsTo('/other')).to.have.length(0);
  });

  it('objectSelector and namespaceSelector decide which requests reach the webhook', async () => {
    const id = 'sel';
    const prod = `${ns}-prod`;
    const dev = `${ns}-dev`;
    expect((await api(0, 'POST', '/api/v1/namespaces', { metadata: { name: prod, labels: { env: 'prod' } } })).status).to.equal(201);
    expect((await api(0, 'POST', '/api/v1/namespaces', { metadata: { name: dev, labels: { env: 'dev' } } })).status).to.equal(201);
    handle('/sel', () => ({ allowed: false, status: { message: 'prod is frozen' } }));
    await configure('Validating', 'sel-config', [hook(id, 'sel', '/sel', { namespaceSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] } })]);
    await effective('/sel', (replica) => createCM(replica, id, `probe-${Math.random().toString(36).slice(2, 8)}`, '?dryRun=All', prod));
    const denied = await createCM(1, id, 'c1', '', prod);
    expect(denied.status).to.equal(400);
    expect(denied.body.message).to.equal('admission webhook "sel.sel.example.com" denied the request: prod is frozen');
    expect((await createCM(1, id, 'c1', '', dev)).status).to.equal(201);
    const unlabelled = await api(1, 'POST', `/api/v1/namespaces/${prod}/configmaps`, { metadata: { name: 'unlabelled' } });
    expect(unlabelled.status).to.equal(201);
    expect(callsFor('/sel', 'unlabelled')).to.have.length(0);
    // The dev namespace's c1 never reached it.
    expect(callsFor('/sel', 'c1')).to.have.length(1);
  });

  it('matchConditions (CEL) decide which requests reach the webhook, and a failing condition follows failurePolicy', async () => {
    const id = 'mc';
    handle('/mc', () => ({ allowed: false, status: { message: 'conditions matched' } }));
    await configure('Validating', 'mc-config', [hook(id, 'mc', '/mc', {
      matchConditions: [{ name: 'not-skipped', expression: "!object.metadata.name.startsWith('skip-')" },
        { name: 'by-admin', expression: "request.userInfo.username == 'admin'" }],
    })]);
    await effective('/mc', dryRunCM(id));
    const denied = await createCM(1, id, 'checked');
    expect(denied.status).to.equal(400);
    expect(denied.body.message).to.equal('admission webhook "mc.mc.example.com" denied the request: conditions matched');
    expect((await createCM(1, id, 'skip-me')).status).to.equal(201);
    expect(callsFor('/mc', 'skip-me')).to.have.length(0);
    // An expression that fails at run time (no such key) under Fail refuses the request without calling the webhook.
    handle('/mc-err', () => ({ allowed: true }));
    await configure('Validating', 'mc-err-config', [hook(`${id}-err`, 'mc-err', '/mc-err', {
      matchConditions: [{ name: 'needs-label', expression: "object.metadata.labels['absent'] == 'x'" }],
    })]);
    const refused = await until(() => createCM(0, `${id}-err`, `err-${Math.random().toString(36).slice(2, 6)}`), (r) => r.status !== 201);
    expect(refused.status, JSON.stringify(refused.body)).to.equal(403);
    expect(refused.body.message).to.match(/needs-label/);
    expect(ws.requestsTo('/mc-err')).to.have.length(0);
  });

  it('a subresource rule matches the subresource only', async () => {
    const id = 'sub';
    const name = `${ns}-sub`;
    expect((await api(0, 'POST', '/api/v1/namespaces', { metadata: { name, labels: { 'wh-test': id } } })).status).to.equal(201);
    handle('/sub', () => ({ allowed: false, status: { code: 403, message: 'status is read-only' } }));
    await configure('Validating', 'sub-config', [hook(id, 'sub', '/sub', {
      rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['namespaces/status'], scope: 'Cluster' }],
    })]);
    const putStatus = async (replica: number, query = '') => {
      const cur = await api<Obj>(replica, 'GET', `/api/v1/namespaces/${name}`);
      return api<Obj & Status>(replica, 'PUT', `/api/v1/namespaces/${name}/status${query}`, cur.body);
    };
    await effective('/sub', (replica) => putStatus(replica, '?dryRun=All'));
    const denied = await putStatus(1);
    expect(denied.status).to.equal(403);
    expect(denied.body.message).to.equal('admission webhook "sub.sub.example.com" denied the request: status is read-only');
    const [call] = ws.requestsTo('/sub').filter((r) => !r.request.dryRun);
    expect(call!.request).to.deep.include({ subResource: 'status', requestSubResource: 'status', resource: { group: '', version: 'v1', resource: 'namespaces' }, name, namespace: name });
    const cur = await api<Obj>(1, 'GET', `/api/v1/namespaces/${name}`);
    const main = await api<Obj>(1, 'PUT', `/api/v1/namespaces/${name}`, { ...cur.body, metadata: { ...cur.body.metadata, labels: { ...cur.body.metadata.labels, extra: 'x' } } });
    expect(main.status, JSON.stringify(main.body)).to.equal(200);
  });

  it('dry run reaches webhooks without side effects and is refused for those that may have them', async () => {
    handle('/dry', () => ({}));
    await configure('Validating', 'dry-none', [hook('drynone', 'dry', '/dry')]);
    await effective('/dry', dryRunCM('drynone'));
    const ok = await createCM(1, 'drynone', 'dry1', '?dryRun=All');
    expect(ok.status).to.equal(201);
    expect(callsFor('/dry', 'dry1')[0]!.request.dryRun).to.equal(true);
    expect((await api(1, 'GET', `/api/v1/namespaces/${ns}/configmaps/dry1`)).status).to.equal(404);

    // v1 refuses sideEffects Some on create; a configuration stored before (v1beta1) may still have it.
    handle('/some', () => ({}));
    const name = 'dry-some';
    await etcd.put(`${cluster.etcdPrefix}/validatingwebhookconfigurations/${name}`).value(JSON.stringify({
      apiVersion: adm, kind: 'ValidatingWebhookConfiguration',
      metadata: { name, uid: '0b5e7f9c-0000-4000-8000-000000000001', creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'), generation: 1 },
      webhooks: [hook('drysome', 'some', '/some', { sideEffects: 'Some' })],
    }));
    created.push(`/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/${name}`);
    let i = 0;
    await effective('/some', (replica) => createCM(replica, 'drysome', `real-${i++}`));
    const before = ws.requestsTo('/some').length;
    const refused = await createCM(1, 'drysome', 'dry2', '?dryRun=All');
    expect(refused.status).to.equal(400);
    expect(refused.body).to.include({ reason: 'BadRequest', message: 'admission webhook "some.drysome.example.com" does not support dry run' });
    expect(ws.requestsTo('/some')).to.have.length(before);
  });

  it('webhook warnings reach the client as Warning headers', async () => {
    handle('/warn', () => ({ warnings: ['this configmap is deprecated'] }));
    await configure('Validating', 'warn-config', [hook('warn', 'warn', '/warn')]);
    await effective('/warn', dryRunCM('warn'));
    const r = await createCM(1, 'warn', 'w1');
    expect(r.status).to.equal(201);
    expect(String(r.headers.warning)).to.contain('299 - "this configmap is deprecated"');
  });

  it('reinvokes an IfNeeded webhook once when a later webhook changed the object', async () => {
    const id = 'reinv';
    handle('/reinv-a', () => ({ patch: [{ op: 'add', path: '/metadata/labels/a', value: 'seen' }] }));
    handle('/reinv-b', () => ({ patch: [{ op: 'add', path: '/metadata/annotations', value: { b: 'set' } }] }));
    await configure('Mutating', 'reinv-config', [
      hook(id, 'a', '/reinv-a', { reinvocationPolicy: 'IfNeeded' }),
      hook(id, 'b', '/reinv-b'),
    ]);
    await effective('/reinv-b', dryRunCM(id));
    const r = await createCM(1, id, 'r1');
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    expect(r.body.metadata.labels).to.include({ a: 'seen' });
    expect(r.body.metadata.annotations).to.deep.equal({ b: 'set' });
    const a = callsFor('/reinv-a', 'r1');
    expect(a).to.have.length(2);
    expect(a[0]!.request.object.metadata.annotations).to.equal(undefined);
    expect(a[1]!.request.object.metadata.annotations).to.deep.equal({ b: 'set' });
    expect(callsFor('/reinv-b', 'r1')).to.have.length(1);
  });

  it('speaks AdmissionReview v1beta1 to a webhook that only accepts it', async () => {
    handle('/beta', () => ({ patch: [{ op: 'add', path: '/metadata/labels/beta', value: 'yes' }] }));
    await configure('Mutating', 'beta-config', [hook('beta', 'beta', '/beta', { admissionReviewVersions: ['v1beta2', 'v1beta1'] })]);
    await effective('/beta', dryRunCM('beta'));
    const r = await createCM(1, 'beta', 'b1');
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    expect(r.body.metadata.labels).to.include({ beta: 'yes' });
    expect(callsFor('/beta', 'b1')[0]!.review.apiVersion).to.equal('admission.k8s.io/v1beta1');
  });

  it('authenticates with the kubeconfig user named after the webhook\'s host:port', async () => {
    handle('/authn', () => ({}));
    other.handle('/anon', () => ({}));
    await configure('Validating', 'authn-config', [
      hook('authn', 'tok', '/authn'),
      hook('authn', 'anon', '/anon', { clientConfig: { url: other.url('/anon'), caBundle: other.caBundle } }),
    ]);
    await effective('/authn', dryRunCM('authn'));
    await effective('/anon', dryRunCM('authn'), other);
    expect((await createCM(1, 'authn', 'a1')).status).to.equal(201);
    expect(callsFor('/authn', 'a1')[0]!.headers.authorization).to.equal(`Bearer ${token}`);
    expect(other.requestsTo('/anon').at(-1)!.headers.authorization).to.equal(undefined);
  });
});
