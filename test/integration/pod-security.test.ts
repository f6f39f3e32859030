// PodSecurity (default-on) through real replicas: namespace labels select the policy;
// enforce refuses pods with upstream's 403 message, warn answers with Warning headers,
// audit lands in the audit log as annotations; exemptions come from a
// PodSecurityConfiguration in --admission-control-config-file; tightening a namespace's
// enforce label warns about the pods already in it; workload templates are warned about.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, startReplicas, until, type Cluster, type HttpResponse, readAuditLog } from '../harness/index.js';

interface Status { code: number; reason: string; message: string }
interface AuditEvent { auditID: string; stage: string; annotations?: Record<string, string> }

function warnings(res: HttpResponse<unknown>): string[] {
  const raw = res.headers['warning'];
  const joined = Array.isArray(raw) ? raw.join(', ') : raw ?? '';
  return [...joined.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, '$1'));
}

const privileged = (name: string) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx', securityContext: { privileged: true } }] } });
const plain = (name: string, extra: Record<string, unknown> = {}) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...extra } });
const restrictedViolations = 'allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), '
  + 'unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), '
  + 'runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), '
  + 'seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';
const label = (mode: string) => `pod-security.kubernetes.io/${mode}`;

describe('PodSecurity admission', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let dir: string;
  const id = Date.now().toString(36);
  const call = <T = Status>(method: string, path: string, body?: unknown, opts: { user?: string; replica?: number; headers?: Record<string, string> } = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[opts.replica ?? 0]}${path}`, { ...cluster.credentialsFor(opts.user), method, body, headers: opts.headers });
  const createNs = async (name: string, labels: Record<string, string>) => {
    const r = await call('POST', '/api/v1/namespaces', { metadata: { name, labels } });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
  };
  const auditEvents = (): AuditEvent[] => readAuditLog<AuditEvent>(join(dir, 'audit.log'));
  const annotationsOf = async (auditID: string): Promise<Record<string, string>> => {
    for (let i = 0; i < 50; i++) {
      const done = auditEvents().find((e) => e.auditID === auditID && e.stage === 'ResponseComplete');
      if (done) return done.annotations ?? {};
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no audit event ${auditID}`);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'podsecurity-it-'));
    writeFileSync(join(dir, 'admission.yaml'), `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodSecurity
  path: podsecurity.yaml
`);
    writeFileSync(join(dir, 'podsecurity.yaml'), `apiVersion: pod-security.admission.config.k8s.io/v1
kind: PodSecurityConfiguration
defaults:
  enforce: privileged
  audit: restricted
exemptions:
  usernames: [ci-bot]
  namespaces: [psa-exempt-${id}]
  runtimeClasses: [kata]
`);
    writeFileSync(join(dir, 'audit-policy.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    cluster = await startReplicas(2, {
      tokens: [{ token: 'ci-token', name: 'ci-bot', groups: ['system:masters'] }],
      extraArgs: [`--admission-control-config-file=${join(dir, 'admission.yaml')}`,
        `--audit-policy-file=${join(dir, 'audit-policy.yaml')}`, `--audit-log-path=${join(dir, 'audit.log')}`],
    });
  });
  after(async () => {
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('enforce=restricted refuses a privileged pod with upstream\'s message', async () => {
    const ns = `psa-r-${id}`;
    await createNs(ns, { [label('enforce')]: 'restricted' });
    const r = await call('POST', `/api/v1/namespaces/${ns}/pods`, privileged('x'), { replica: 1 });
    expect(r.status, JSON.stringify(r.body)).to.equal(403);
    expect(r.body).to.include({ code: 403, reason: 'Forbidden',
      message: `pods "x" is forbidden: violates PodSecurity "restricted:latest": privileged (container "c" must not set securityContext.privileged=true), ${restrictedViolations}` });
    expect(warnings(r)).to.deep.equal([]);
    const annotations = await annotationsOf(String(r.headers['audit-id']));
    expect(annotations).to.include({ 'pod-security.kubernetes.io/enforce-policy': 'restricted:latest' });
    const ok = await call('POST', `/api/v1/namespaces/${ns}/pods`, { metadata: { name: 'ok' }, spec: {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [{ name: 'c', image: 'nginx', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
    } });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
  });

  it('counts evaluations and exemptions in /metrics', async () => {
    const r = await call<string>('GET', '/metrics', undefined, { replica: 1 });
    expect(r.status).to.equal(200);
    expect(r.text).to.match(/^pod_security_evaluations_total\{decision="deny",policy_level="restricted",policy_version="latest",mode="enforce",request_operation="create",resource="pod",subresource=""\} [1-9]/m);
    expect(r.text).to.include('# HELP pod_security_exemptions_total [ALPHA] Number of exempt requests, not counting ignored or out of scope requests.');
  });

  it('pinned versions: enforce-version v1.22 does not know the runAsUser check', async () => {
    const ns = `psa-v-${id}`;
    await createNs(ns, { [label('enforce')]: 'restricted', [label('enforce-version')]: 'v1.22' });
    const body = { metadata: { name: 'root' }, spec: {
      securityContext: { runAsNonRoot: true, runAsUser: 0, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [{ name: 'c', image: 'nginx', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } }],
    } };
    expect((await call('POST', `/api/v1/namespaces/${ns}/pods`, body)).status).to.equal(201);
    const patch = await call('PATCH', `/api/v1/namespaces/${ns}`, { metadata: { labels: { [label('enforce-version')]: 'v1.23' } } },
      { headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(patch.status).to.equal(200);
    expect(warnings(patch)).to.deep.equal([
      `existing pods in namespace "${ns}" violate the new PodSecurity enforce level "restricted:v1.23"`, 'root: runAsUser=0',
    ]);
  });

  it('warn answers with a Warning header and the default audit level annotates the event', async () => {
    const ns = `psa-w-${id}`;
    await createNs(ns, { [label('warn')]: 'baseline' });
    const r = await call('POST', `/api/v1/namespaces/${ns}/pods`, privileged('p'));
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    expect(warnings(r)).to.deep.equal(['would violate PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)']);
    const annotations = await annotationsOf(String(r.headers['audit-id']));
    expect(annotations['pod-security.kubernetes.io/enforce-policy']).to.equal('privileged:latest');
    expect(annotations['pod-security.kubernetes.io/audit-violations']).to.equal(
      `would violate PodSecurity "restricted:latest": privileged (container "c" must not set securityContext.privileged=true), ${restrictedViolations}`);
    // A label-only update of a running pod is not evaluated again.
    const relabel = await call('PATCH', `/api/v1/namespaces/${ns}/pods/p`, { metadata: { labels: { a: 'b' } } }, { headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(relabel.status).to.equal(200);
    expect(warnings(relabel)).to.deep.equal([]);
  });

  it('exempt users, namespaces and runtime classes from the configuration file', async () => {
    const ns = `psa-e-${id}`;
    await createNs(ns, { [label('enforce')]: 'baseline' });
    const denied = await call('POST', `/api/v1/namespaces/${ns}/pods`, privileged('by-admin'));
    expect(denied.status).to.equal(403);
    const byBot = await request<Status>(`${cluster.urls[1]}/api/v1/namespaces/${ns}/pods`, {
      method: 'POST', body: privileged('by-bot'), ca: cluster.credentialsFor().ca, token: 'ci-token',
    });
    expect(byBot.status, JSON.stringify(byBot.body)).to.equal(201);
    expect(await annotationsOf(String(byBot.headers['audit-id']))).to.include({ 'pod-security.kubernetes.io/exempt': 'user' });
    // The RuntimeClass admission plugin refuses pods naming a class that does not exist.
    const rc = await call('POST', '/apis/node.k8s.io/v1/runtimeclasses', { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: 'kata' }, handler: 'kata' });
    expect([201, 409], JSON.stringify(rc.body)).to.include(rc.status);
    const kata = await call('POST', `/api/v1/namespaces/${ns}/pods`, { ...privileged('kata'), spec: { ...privileged('kata').spec, runtimeClassName: 'kata' } });
    expect(kata.status, JSON.stringify(kata.body)).to.equal(201);

    const exempt = `psa-exempt-${id}`;
    const created = await call('POST', '/api/v1/namespaces', { metadata: { name: exempt, labels: { [label('enforce')]: 'restricted' } } });
    expect(created.status).to.equal(201);
    expect(warnings(created)).to.deep.equal([`namespace "${exempt}" is exempt from Pod Security, and the policy (enforce=restricted:latest) will be ignored`]);
    expect((await call('POST', `/api/v1/namespaces/${exempt}/pods`, privileged('p'))).status).to.equal(201);
  });

  it('evaluates ephemeral containers added through pods/ephemeralcontainers', async () => {
    const ns = `psa-eph-${id}`;
    await createNs(ns, { [label('enforce')]: 'baseline' });
    expect((await call('POST', `/api/v1/namespaces/${ns}/pods`, plain('app'))).status).to.equal(201);
    const debug = (privileged: boolean) => ({ spec: { ephemeralContainers: [{ name: 'dbg', image: 'busybox', ...(privileged ? { securityContext: { privileged: true } } : {}) }] } });
    const merge = { 'Content-Type': 'application/strategic-merge-patch+json' };
    const refused = await call('PATCH', `/api/v1/namespaces/${ns}/pods/app/ephemeralcontainers`, debug(true), { headers: merge });
    expect(refused.status, JSON.stringify(refused.body)).to.equal(403);
    expect(refused.body.message).to.equal('pods "app" is forbidden: violates PodSecurity "baseline:latest": privileged (container "dbg" must not set securityContext.privileged=true)');
    const added = await call('PATCH', `/api/v1/namespaces/${ns}/pods/app/ephemeralcontainers`, debug(false), { headers: merge });
    expect(added.status, JSON.stringify(added.body)).to.equal(200);
  });

  it('refuses invalid labels on namespaces with 422', async () => {
    const r = await call('POST', '/api/v1/namespaces', { metadata: { name: `psa-bad-${id}`, labels: { [label('enforce')]: 'strict' } } });
    expect(r.status).to.equal(422);
    expect(r.body).to.include({ reason: 'Invalid',
      message: `Namespace "psa-bad-${id}" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted` });
  });

  it('tightening enforce warns about existing pods that would now be refused', async () => {
    const ns = `psa-l-${id}`;
    await createNs(ns, {});
    for (const body of [privileged('b'), privileged('a'), plain('h', { hostNetwork: true }), plain('fine')]) {
      expect((await call('POST', `/api/v1/namespaces/${ns}/pods`, body)).status).to.equal(201);
    }
    const tighten = (query = '') => call('PATCH', `/api/v1/namespaces/${ns}${query}`, { metadata: { labels: { [label('enforce')]: 'baseline' } } },
      { replica: 1, headers: { 'Content-Type': 'application/merge-patch+json' } });
    const expected = [
      `existing pods in namespace "${ns}" violate the new PodSecurity enforce level "baseline:latest"`,
      'a (and 1 other pod): privileged',
      'h: host namespaces',
    ];
    // The other replica's pod cache is fed by its watch, which at CI's load can lag any fixed
    // pause: dry runs of the change tell when it holds all four pods.
    await until('replica 1\'s pod cache holds the pods', async () => {
      const dry = await tighten('?dryRun=All');
      return dry.status === 200 && JSON.stringify(warnings(dry)) === JSON.stringify(expected);
    }, 20_000, 100);
    const r = await tighten();
    expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect(warnings(r)).to.deep.equal(expected);
    const relaxed = await call('PATCH', `/api/v1/namespaces/${ns}`, { metadata: { labels: { [label('enforce')]: 'privileged' } } },
      { headers: { 'Content-Type': 'application/merge-patch+json' } });
    expect(warnings(relaxed)).to.deep.equal([]);
  });

  it('warns about workload templates without refusing them', async () => {
    const ns = `psa-d-${id}`;
    await createNs(ns, { [label('enforce')]: 'restricted', [label('warn')]: 'restricted' });
    const r = await call('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: privileged('x').spec } },
    });
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    expect(warnings(r)).to.deep.equal([
      `would violate PodSecurity "restricted:latest": privileged (container "c" must not set securityContext.privileged=true), ${restrictedViolations}`,
    ]);
  });
});
