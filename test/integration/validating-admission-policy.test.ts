// ValidatingAdmissionPolicy end to end on a real replica: the admissionregistration.k8s.io
// v1beta1 policy and binding resources behind --runtime-config, the admission plugin
// behind the feature gate (Deny with upstream's message and code, Warn as a Warning
// header, params from a ConfigMap, the API's validation of policies) and the status
// controller's type checking.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { kubectl, request, startReplicas, type Cluster, type HttpResponse, readAuditLog } from '../harness/index.js';

interface Status { code: number; reason: string; message: string; details?: { name?: string; group?: string; kind?: string; causes?: Array<{ message?: string; field?: string }> } }
interface Policy { metadata: { generation: number }; status?: { observedGeneration?: number; typeChecking?: { expressionWarnings?: Array<{ fieldRef: string; warning: string }> } } }

const vap = '/apis/admissionregistration.k8s.io/v1beta1/validatingadmissionpolicies';
const vapb = '/apis/admissionregistration.k8s.io/v1beta1/validatingadmissionpolicybindings';

function deployment(name: string, replicas: number, labels: Record<string, string> = {}): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, labels },
    spec: {
      replicas, selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  };
}

function policy(name: string, spec: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingAdmissionPolicy', metadata: { name },
    spec: {
      matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'] }] },
      ...spec,
    },
  };
}

function binding(name: string, policyName: string, actions: string[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name },
    spec: { policyName, validationActions: actions, ...extra },
  };
}

describe('ValidatingAdmissionPolicy', function () {
  this.timeout(90_000);
  let cluster: Cluster;
  const auditDir = mkdtempSync(join(tmpdir(), 'vap-audit-'));
  const call = <T>(method: string, path: string, body?: unknown): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body });
  const auditEvents = (): Array<{ stage: string; objectRef?: { name?: string }; annotations?: Record<string, string> }> =>
    readAuditLog(join(auditDir, 'audit.log'));

  /** Policies reach the plugin through an informer: retry until the expected answer arrives. */
  async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const v = await fn();
      if (ok(v) || Date.now() > end) return v;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  before(async () => {
    writeFileSync(join(auditDir, 'policy.yaml'), 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  resources:\n  - group: apps\n    resources: [deployments]\n');
    cluster = await startReplicas(1, {
      extraArgs: ['--runtime-config=admissionregistration.k8s.io/v1beta1=true', '--feature-gates=ValidatingAdmissionPolicy=true',
        `--audit-policy-file=${join(auditDir, 'policy.yaml')}`, `--audit-log-path=${join(auditDir, 'audit.log')}`],
    });
    for (const ns of ['vap-deny', 'vap-warn', 'vap-params']) {
      expect((await call('POST', '/api/v1/namespaces', { metadata: { name: ns, labels: { vap: ns } } })).status).to.equal(201);
    }
  });
  after(async () => { await cluster?.stop(); rmSync(auditDir, { recursive: true, force: true }); });

  it('denies a request a Deny binding\'s validation fails, with upstream\'s message, reason and code', async () => {
    const p = await call('POST', vap, policy('replica-limit', {
      validations: [{ expression: 'object.spec.replicas <= 5', message: 'replicas must be no greater than 5' }],
    }));
    expect(p.status, p.text).to.equal(201);
    const b = await call('POST', vapb, binding('replica-limit-deny', 'replica-limit', ['Deny'], {
      matchResources: { namespaceSelector: { matchLabels: { vap: 'vap-deny' } } },
    }));
    expect(b.status, b.text).to.equal(201);
    const path = '/apis/apps/v1/namespaces/vap-deny/deployments';
    const r = await eventually(() => call<Status>('POST', path, deployment('big', 10)), (x) => x.status !== 201);
    expect(r.status, r.text).to.equal(422);
    const msg = "ValidatingAdmissionPolicy 'replica-limit' with binding 'replica-limit-deny' denied request: replicas must be no greater than 5";
    expect(r.body.reason).to.equal('Invalid');
    expect(r.body.message).to.equal(`deployments.apps "big" is forbidden: ${msg}`);
    expect(r.body.details).to.deep.include({ name: 'big', group: 'apps', kind: 'deployments' });
    expect(r.body.details?.causes).to.deep.equal([{ message: msg }]);
    expect((await call('POST', path, deployment('small', 3))).status).to.equal(201);
    // The binding selects by namespace: the same object elsewhere is admitted.
    expect((await call('POST', '/apis/apps/v1/namespaces/vap-params/deployments', deployment('big-elsewhere', 10))).status).to.equal(201);
  });

  it('answers a Warn binding with a Warning header and admits the request', async () => {
    expect((await call('POST', vap, policy('replica-warn', {
      validations: [{ expression: 'object.spec.replicas <= 2', messageExpression: "'replicas is ' + string(object.spec.replicas)" }],
    }))).status).to.equal(201);
    expect((await call('POST', vapb, binding('replica-warn', 'replica-warn', ['Warn', 'Audit'], {
      matchResources: { namespaceSelector: { matchLabels: { vap: 'vap-warn' } } },
    }))).status).to.equal(201);
    let n = 0;
    const r = await eventually(() => call('POST', '/apis/apps/v1/namespaces/vap-warn/deployments', deployment(`w${n++}`, 4)),
      (x) => Boolean(x.headers.warning));
    expect(r.status, r.text).to.equal(201);
    expect(String(r.headers.warning)).to.contain("Validation failed for ValidatingAdmissionPolicy 'replica-warn' with binding 'replica-warn': replicas is 4");
    const name = (r.body as { metadata: { name: string } }).metadata.name;
    const done = auditEvents().find((e) => e.stage === 'ResponseComplete' && e.objectRef?.name === name);
    expect(JSON.parse(done?.annotations?.['validation.policy.admission.k8s.io/validation_failure'] ?? 'null')).to.deep.equal([{
      message: 'replicas is 4', policy: 'replica-warn', binding: 'replica-warn', expressionIndex: 0, validationActions: ['Warn', 'Audit'],
    }]);
  });

  it('reads params from a ConfigMap named by the binding, and denies without it under parameterNotFoundAction Deny', async () => {
    expect((await call('POST', vap, policy('max-from-params', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      validations: [{ expression: 'object.spec.replicas <= int(params.data.max)', messageExpression: "'at most ' + params.data.max + ' replicas'", reason: 'Forbidden' }],
    }))).status).to.equal(201);
    expect((await call('POST', vapb, binding('max-from-params', 'max-from-params', ['Deny'], {
      paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' },
      matchResources: { namespaceSelector: { matchLabels: { vap: 'vap-params' } } },
    }))).status).to.equal(201);
    const path = '/apis/apps/v1/namespaces/vap-params/deployments';
    const missing = await eventually(() => call<Status>('POST', path, deployment('p1', 1)), (x) => x.status !== 201);
    expect(missing.status, missing.text).to.equal(422);
    expect(missing.body.message).to.equal("deployments.apps \"p1\" is forbidden: ValidatingAdmissionPolicy 'max-from-params' with binding 'max-from-params' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction");
    expect((await call('POST', '/api/v1/namespaces/vap-params/configmaps', { metadata: { name: 'limits' }, data: { max: '3' } })).status).to.equal(201);
    const denied = await eventually(() => call<Status>('POST', path, deployment('p2', 4)), (x) => x.status === 403);
    expect(denied.status, denied.text).to.equal(403);
    expect(denied.body.reason).to.equal('Forbidden');
    expect(denied.body.message).to.contain('denied request: at most 3 replicas');
    expect((await call('POST', path, deployment('p3', 3))).status).to.equal(201);
  });

  it('rejects invalid policies and bindings with upstream\'s field errors', async () => {
    const p = await call<Status>('POST', vap, {
      apiVersion: 'admissionregistration.k8s.io/v1beta1', kind: 'ValidatingAdmissionPolicy', metadata: { name: 'bad' },
      spec: { failurePolicy: 'Sometimes', validations: [{ expression: 'object.x +' }, { expression: 'nope == 1' }] },
    });
    expect(p.status).to.equal(422);
    const fields = (p.body.details?.causes ?? []).map((c) => c.field);
    expect(fields).to.include.members(['spec.failurePolicy', 'spec.matchConstraints', 'spec.validations[0].expression', 'spec.validations[1].expression']);
    expect(p.body.message).to.contain("spec.validations[1].expression: Invalid value: \"nope == 1\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')");
    const b = await call<Status>('POST', vapb, binding('bad-binding', '', ['Deny', 'Warn']));
    expect(b.status).to.equal(422);
    expect(b.body.message).to.contain('spec.policyName: Required value');
    expect(b.body.message).to.contain('must not contain both Deny and Warn');
  });

  it('reports expressions that reference fields the matched kinds lack in status.typeChecking', async () => {
    expect((await call('POST', vap, policy('typo', {
      validations: [{ expression: 'object.replicas > 1' }, { expression: 'object.spec.replicas > 1' }],
    }))).status).to.equal(201);
    const got = await eventually(() => call<Policy>('GET', `${vap}/typo`), (x) => x.body.status?.observedGeneration === 1);
    expect(got.body.status?.observedGeneration).to.equal(1);
    expect(got.body.status?.typeChecking?.expressionWarnings).to.deep.equal([{
      fieldRef: 'spec.validations[0].expression',
      warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:7: undefined field 'replicas'\n | object.replicas > 1\n | ......^",
    }]);
  });
});

describe('ValidatingAdmissionPolicy with kubectl', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  before(async () => {
    cluster = await startReplicas(1, { extraArgs: ['--runtime-config=admissionregistration.k8s.io/v1beta1=true,admissionregistration.k8s.io/v1alpha1=true'] });
  });
  after(async () => { await cluster?.stop(); });

  it('prints policies and bindings as upstream and serves them through v1alpha1 too', async () => {
    const kc = { kubeconfig: cluster.kubeconfigFor(0) };
    const applied = await kubectl(['apply', '-f', '-'], { ...kc, stdin: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
      policy('kubectl-policy', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'true' }] }),
      binding('kubectl-binding', 'kubectl-policy', ['Audit'], { paramRef: { name: 'cm', namespace: 'default', parameterNotFoundAction: 'Allow' } }),
    ] }) });
    expect(applied.code, applied.stderr).to.equal(0);
    const p = await kubectl(['get', 'validatingadmissionpolicies'], kc);
    expect(p.stdout.split('\n')[0]).to.match(/^NAME\s+VALIDATIONS\s+PARAMKIND\s+AGE$/);
    expect(p.stdout).to.match(/kubectl-policy\s+1\s+v1\/ConfigMap\s+/);
    const b = await kubectl(['get', 'validatingadmissionpolicybindings'], kc);
    expect(b.stdout.split('\n')[0]).to.match(/^NAME\s+POLICYNAME\s+PARAMREF\s+AGE$/);
    expect(b.stdout).to.match(/kubectl-binding\s+kubectl-policy\s+default\/cm\s+/);
    const alpha = await request<{ apiVersion: string; spec: { failurePolicy: string } }>(
      `${cluster.urls[0]}/apis/admissionregistration.k8s.io/v1alpha1/validatingadmissionpolicies/kubectl-policy`, cluster.credentialsFor());
    expect(alpha.status).to.equal(200);
    expect(alpha.body.apiVersion).to.equal('admissionregistration.k8s.io/v1alpha1');
    expect(alpha.body.spec.failurePolicy).to.equal('Fail');
  });
});

describe('ValidatingAdmissionPolicy without --runtime-config', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  before(async () => { cluster = await startReplicas(1); });
  after(async () => { await cluster?.stop(); });

  it('does not serve admissionregistration.k8s.io/v1beta1 (404)', async () => {
    const r = await request(`${cluster.urls[0]}${vap}`, cluster.credentialsFor());
    expect(r.status).to.equal(404);
    const disc = await request<{ versions: Array<{ version: string }> }>(`${cluster.urls[0]}/apis/admissionregistration.k8s.io`, cluster.credentialsFor());
    expect(disc.body.versions.map((v) => v.version)).to.deep.equal(['v1']);
  });
});
