// The two plugins against a real HTTPS webhook backend, with configurations fed by a
// stand-in informer: matchPolicy Equivalent, audit annotations, matchConditions through
// the compiler seam, service references, and parallel validating calls.
import { expect } from 'chai';
import { Registry } from 'prom-client';
import { startWebhookServer, type WebhookServer } from '../../../../test/harness/webhook-server.js';
import { buildScheme } from '../../../registry/index.js';
import type { KubeObject } from '../../../runtime/object.js';
import type { AdmissionAttributes } from '../../interfaces.js';
import type { DispatchDeps } from './dispatch.js';
import { schemeEquivalence, setMatchConditionCompiler } from './index.js';
import { webhookMetrics } from './metrics.js';
import { MutatingWebhook } from './mutating.js';
import { WebhookConfigurations, type ConfigurationInformer } from './source.js';
import type { WebhookSpec } from './types.js';
import { ValidatingWebhook } from './validating.js';

function informer(configs: KubeObject[]): ConfigurationInformer {
  return { addHandlers: () => undefined, list: () => configs, hasSynced: () => true, waitForSync: async () => undefined };
}

const config = (name: string, webhooks: WebhookSpec[]): KubeObject => ({ metadata: { name, uid: name, resourceVersion: '1' }, webhooks });

async function rejection(p: Promise<unknown> | void): Promise<{ code: number; message: string; reason?: string }> {
  try {
    await p;
  } catch (err) {
    return err as { code: number; message: string };
  }
  throw new Error('expected a rejection');
}

describe('admission webhook plugins', () => {
  let ws: WebhookServer;
  const services = new Map<string, KubeObject>();
  const deps: DispatchDeps = {
    namespaces: { cached: (name) => ({ metadata: { name, labels: {} } }), live: async () => undefined },
    equivalence: schemeEquivalence(buildScheme({})),
    metrics: webhookMetrics(new Registry()),
  };
  const hook = (name: string, path: string, over: Partial<WebhookSpec> = {}): WebhookSpec => ({
    name, clientConfig: { url: ws.url(path), caBundle: ws.caBundle },
    rules: [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'], scope: '*' }],
    failurePolicy: 'Fail', matchPolicy: 'Equivalent', sideEffects: 'None', timeoutSeconds: 5, admissionReviewVersions: ['v1'],
    namespaceSelector: {}, objectSelector: {}, ...over,
  });
  const source = (configs: KubeObject[]) => new WebhookConfigurations(informer(configs), () => undefined, { get: (ns, n) => services.get(`${ns}/${n}`) });
  const cmAttrs = (over: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
    operation: 'CREATE', group: '', version: 'v1', kind: 'ConfigMap', resource: 'configmaps', subresource: '', namespace: 'ns1', name: 'c1',
    object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c1', namespace: 'ns1' }, data: { a: 'b' } },
    user: { name: 'alice', groups: ['devs'] }, dryRun: false, warnings: [], auditAnnotations: {}, ...over,
  });

  before(async () => { ws = await startWebhookServer({ dnsNames: ['hooks.team.svc'] }); });
  after(async () => { await ws.stop(); });
  afterEach(() => setMatchConditionCompiler(undefined));

  it('calls a webhook whose rule names an equivalent version, converting the object both ways (matchPolicy Equivalent)', async () => {
    ws.handle('/hpa', () => ({ patch: [{ op: 'replace', path: '/spec/maxReplicas', value: 7 }] }));
    ws.handle('/hpa-exact', () => ({ allowed: false }));
    const v2Rule = [{ operations: ['CREATE'], apiGroups: ['autoscaling'], apiVersions: ['v2'], resources: ['horizontalpodautoscalers'], scope: '*' }];
    const plugin = new MutatingWebhook(source([config('c', [
      hook('hpa.example.com', '/hpa', { rules: v2Rule }),
      hook('exact.example.com', '/hpa-exact', { rules: v2Rule, matchPolicy: 'Exact' }),
    ])]), deps);
    const object: KubeObject = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h', namespace: 'ns1' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'd', apiVersion: 'apps/v1' }, minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 50 } };
    const attrs = cmAttrs({ group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler', resource: 'horizontalpodautoscalers', name: 'h', object });
    await plugin.admit(attrs);
    const [call] = ws.requestsTo('/hpa');
    expect(call!.request).to.deep.include({
      kind: { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' },
      resource: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' },
      requestKind: { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' },
      requestResource: { group: 'autoscaling', version: 'v1', resource: 'horizontalpodautoscalers' },
    });
    expect(call!.request.object.apiVersion).to.equal('autoscaling/v2');
    expect(call!.request.object.spec.metrics[0].resource.target).to.deep.equal({ type: 'Utilization', averageUtilization: 50 });
    expect(ws.requestsTo('/hpa-exact')).to.have.length(0);
    expect(object.apiVersion).to.equal('autoscaling/v1');
    expect((object.spec as Record<string, unknown>)).to.include({ maxReplicas: 7, targetCPUUtilizationPercentage: 50 });
  });

  it('records upstream\'s mutation and patch audit annotations and the webhook\'s own, prefixed with its name', async () => {
    ws.handle('/annotate', () => ({ patch: [{ op: 'add', path: '/data/x', value: 'y' }], auditAnnotations: { decision: 'patched' } }));
    ws.handle('/noop', () => ({}));
    const plugin = new MutatingWebhook(source([config('cfg-a', [hook('noop.example.com', '/noop'), hook('annotate.example.com', '/annotate')])]), deps);
    const attrs = cmAttrs();
    const metadata = attrs.object!.metadata;
    await plugin.admit(attrs);
    expect(attrs.object!.data).to.deep.equal({ a: 'b', x: 'y' });
    // The store keeps references into the object: the patch lands in the same objects.
    expect(attrs.object!.metadata).to.equal(metadata);
    expect(attrs.object).to.include({ apiVersion: 'v1', kind: 'ConfigMap' });
    expect(attrs.auditAnnotations).to.deep.equal({
      'mutation.webhook.admission.k8s.io/round_0_index_0': '{"configuration":"cfg-a","webhook":"noop.example.com","mutated":false}',
      'mutation.webhook.admission.k8s.io/round_0_index_1': '{"configuration":"cfg-a","webhook":"annotate.example.com","mutated":true}',
      'patch.webhook.admission.k8s.io/round_0_index_1': '{"configuration":"cfg-a","webhook":"annotate.example.com","patch":[{"op":"add","path":"/data/x","value":"y"}],"patchType":"JSONPatch"}',
      'annotate.example.com/decision': 'patched',
    });
  });

  it('evaluates matchConditions through the installed compiler; an error follows failurePolicy', async () => {
    ws.handle('/cond', () => ({}));
    const seen: unknown[] = [];
    const hooks = (policy: 'Fail' | 'Ignore', expression: string) => source([config('cond', [
      hook('cond.example.com', '/cond', { failurePolicy: policy, matchConditions: [{ name: 'c', expression }] }),
    ])]);
    // No compiler installed: the webhook is called.
    await new ValidatingWebhook(hooks('Fail', 'false'), deps).validate(cmAttrs());
    expect(ws.requestsTo('/cond')).to.have.length(1);
    setMatchConditionCompiler((conds) => async (input) => {
      seen.push(input.request);
      if (conds[0]!.expression === 'error') throw new Error('expression "c" failed: no such key: x');
      return conds[0]!.expression === 'true';
    });
    await new ValidatingWebhook(hooks('Fail', 'false'), deps).validate(cmAttrs());
    expect(ws.requestsTo('/cond')).to.have.length(1);
    await new ValidatingWebhook(hooks('Fail', 'true'), deps).validate(cmAttrs());
    expect(ws.requestsTo('/cond')).to.have.length(2);
    expect(seen[0]).to.deep.include({ operation: 'CREATE', name: 'c1', namespace: 'ns1', userInfo: { username: 'alice', groups: ['devs'] } });
    await new ValidatingWebhook(hooks('Ignore', 'error'), deps).validate(cmAttrs());
    const err = await rejection(new ValidatingWebhook(hooks('Fail', 'error'), deps).validate(cmAttrs()));
    expect(err).to.include({ code: 403, message: 'configmaps "c1" is forbidden: expression "c" failed: no such key: x' });
    expect(ws.requestsTo('/cond')).to.have.length(2);
  });

  it('reaches a service reference at its ClusterIP, verifying the certificate for <svc>.<ns>.svc', async () => {
    ws.handle('/svc', () => ({ allowed: false, status: { message: 'from the service' } }));
    const svcHook = (name: string, port: number) => hook('svc.example.com', '/svc', { clientConfig: { service: { namespace: 'team', name, path: '/svc', port }, caBundle: ws.caBundle } });
    services.set('team/hooks', { metadata: { name: 'hooks', namespace: 'team' }, spec: { type: 'ClusterIP', clusterIP: '127.0.0.1', ports: [{ port: ws.port }] } });
    const denied = await rejection(new ValidatingWebhook(source([config('svc', [svcHook('hooks', ws.port)])]), deps).validate(cmAttrs()));
    expect(denied).to.include({ code: 400, message: 'admission webhook "svc.example.com" denied the request: from the service' });
    // Same address, but the certificate is not valid for hooks.elsewhere.svc.
    const elsewhere = hook('svc.example.com', '/svc', { clientConfig: { service: { namespace: 'elsewhere', name: 'hooks', path: '/svc', port: ws.port }, caBundle: ws.caBundle } });
    services.set('elsewhere/hooks', services.get('team/hooks')!);
    const wrongName = await rejection(new ValidatingWebhook(source([config('svc', [elsewhere])]), deps).validate(cmAttrs()));
    expect(wrongName.message).to.equal(`Internal error occurred: failed calling webhook "svc.example.com": failed to call webhook: Post "https://hooks.elsewhere.svc:${ws.port}/svc?timeout=5s": tls: failed to verify certificate: x509: certificate is valid for localhost, kubernetes, kubernetes.default, kubernetes.default.svc, kubernetes.default.svc.cluster.local, hooks.team.svc, not hooks.elsewhere.svc`);
    const missing = await rejection(new ValidatingWebhook(source([config('svc', [svcHook('nope', ws.port)])]), deps).validate(cmAttrs()));
    expect(missing).to.include({ code: 500, message: 'Internal error occurred: failed calling webhook "svc.example.com": could not get REST client: service "nope" not found' });
    const noPort = await rejection(new ValidatingWebhook(source([config('svc', [svcHook('hooks', 1)])]), deps).validate(cmAttrs()));
    expect(noPort.message).to.equal('Internal error occurred: failed calling webhook "svc.example.com": could not get REST client: no service port 1 found for service "hooks"');
  });

  it('presents the client certificate or basic credentials the kubeconfig resolver picks', async () => {
    const mtls = await startWebhookServer({ clientUsers: ['kube-apiserver-webhook'] });
    try {
      mtls.handle('/who', () => ({}));
      const client = mtls.pki.clients.get('kube-apiserver-webhook')!;
      const spec = hook('who.example.com', '/who', { clientConfig: { url: mtls.url('/who'), caBundle: mtls.caBundle } });
      const withCreds = (creds: Record<string, string>) => new ValidatingWebhook(
        new WebhookConfigurations(informer([config('who', [spec])]), (target) => (target === `127.0.0.1:${mtls.port}` ? creds : undefined), { get: () => undefined }), deps);
      await withCreds({ cert: client.cert, key: client.key }).validate(cmAttrs());
      await withCreds({ username: 'hook-user', password: 's3cret' }).validate(cmAttrs());
      const [byCert, byBasic] = mtls.requestsTo('/who');
      expect(byCert!.clientCN).to.equal('kube-apiserver-webhook');
      expect(byCert!.headers.authorization).to.equal(undefined);
      expect(byBasic!.clientCN).to.equal('');
      expect(byBasic!.headers.authorization).to.equal(`Basic ${Buffer.from('hook-user:s3cret').toString('base64')}`);
    } finally {
      await mtls.stop();
    }
  });

  it('calls validating webhooks in parallel and reports the first failure in configuration order', async () => {
    // Each backend answers only once both calls have arrived, or gives up after 3 s: called one
    // after the other, the first would never see the second. No elapsed-time bound, which
    // CI's load could break.
    let arrived = 0;
    let bothArrived!: () => void;
    const both = new Promise<void>((r) => { bothArrived = r; });
    const overlapped: boolean[] = [];
    const slow = (message: string) => async () => {
      if (++arrived === 2) bothArrived();
      overlapped.push(await Promise.race([both.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 3000))]));
      return { allowed: false, status: { message } };
    };
    ws.handle('/slow-a', slow('a says no'));
    ws.handle('/slow-b', slow('b says no'));
    const plugin = new ValidatingWebhook(source([config('par', [hook('a.example.com', '/slow-a'), hook('b.example.com', '/slow-b')])]), deps);
    const err = await rejection(plugin.validate(cmAttrs()));
    expect(overlapped).to.deep.equal([true, true]);
    expect(err.message).to.equal('admission webhook "a.example.com" denied the request: a says no');
  });

  it('never sends admission configuration objects to webhooks', async () => {
    ws.handle('/all', () => ({ allowed: false }));
    const plugin = new ValidatingWebhook(source([config('all', [hook('all.example.com', '/all')])]), deps);
    for (const resource of ['validatingwebhookconfigurations', 'mutatingwebhookconfigurations', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings']) {
      await plugin.validate(cmAttrs({ group: 'admissionregistration.k8s.io', resource, namespace: '', kind: 'X' }));
    }
    expect(ws.requestsTo('/all')).to.have.length(0);
    expect((await rejection(plugin.validate(cmAttrs()))).code).to.equal(400);
  });

  it('fails only the requests a webhook that cannot be compiled would see', async () => {
    const bad = hook('bad.example.com', '/never', {
      rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'], scope: '*' }],
      objectSelector: { matchExpressions: [{ key: 'a', operator: 'Sometimes', values: ['b'] }] },
    });
    const plugin = new ValidatingWebhook(source([config('bad', [bad])]), deps);
    const err = await rejection(plugin.validate(cmAttrs()));
    expect(err.code).to.equal(500);
    expect(err.message).to.match(/^Internal error occurred: .*Sometimes/);
    await plugin.validate(cmAttrs({ resource: 'secrets', kind: 'Secret' }));
  });

  it('waits for the configuration informer\'s first list before deciding', async () => {
    let synced = false;
    let release: () => void = () => undefined;
    const configs = [config('late', [hook('late.example.com', '/late', { })])];
    ws.handle('/late', () => ({ allowed: false, status: { message: 'late but present' } }));
    const lateInformer: ConfigurationInformer = {
      addHandlers: () => undefined, list: () => (synced ? configs : []), hasSynced: () => synced,
      waitForSync: () => new Promise<void>((resolve) => { release = resolve; }),
    };
    const plugin = new ValidatingWebhook(new WebhookConfigurations(lateInformer, () => undefined, { get: () => undefined }), deps);
    const pending = rejection(plugin.validate(cmAttrs()));
    setTimeout(() => { synced = true; release(); }, 50);
    expect((await pending).message).to.equal('admission webhook "late.example.com" denied the request: late but present');
  });

  it('costs nothing when no configuration exists', async () => {
    const plugin = new MutatingWebhook(source([]), deps);
    const attrs = cmAttrs();
    expect(plugin.admit(attrs)).to.equal(undefined);
    expect(new ValidatingWebhook(source([]), deps).validate(attrs)).to.equal(undefined);
    expect(attrs.auditAnnotations).to.deep.equal({});
  });
});
