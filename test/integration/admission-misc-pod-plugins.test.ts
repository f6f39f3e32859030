// The non-default pod, service and event admission plugins through real replicas:
// --enable-admission-plugins with an --admission-control-config-file (one plugin
// configured from a file by `path`, others inline), upstream's codes and messages, and
// the fields the mutating plugins set as clients see them in responses.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';

interface Status { code: number; reason?: string; message: string }
interface Pod {
  metadata: { name: string; resourceVersion?: string };
  spec: {
    containers: Array<{ imagePullPolicy?: string; image: string }>;
    initContainers?: Array<{ imagePullPolicy?: string }>;
    nodeSelector?: Record<string, string>;
    tolerations?: Array<Record<string, unknown>>;
  };
}

const id = Date.now().toString(36);
const plain = `misc-plain-${id}`;
const sel = `misc-sel-${id}`;
const tol = `misc-tol-${id}`;
const ev = `misc-ev-${id}`;
const merge = { 'Content-Type': 'application/merge-patch+json' };

// Tolerations other default plugins add (DefaultTolerationSeconds, memory pressure) are
// whitelisted everywhere, so only the tolerations under test decide.
const systemTolerations = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
];
const clusterDefault = { key: 'cluster-default', operator: 'Exists', effect: 'NoSchedule' };
const dedicated = { key: 'dedicated', operator: 'Equal', value: 'ml', effect: 'NoSchedule' };
const gpu = { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' };

const enabled = ['AlwaysPullImages', 'ExtendedResourceToleration', 'LimitPodHardAntiAffinityTopology', 'PodNodeSelector',
  'PodTolerationRestriction', 'SecurityContextDeny', 'DenyServiceExternalIPs', 'EventRateLimit'];

describe('admission: AlwaysPullImages, ExtendedResourceToleration, LimitPodHardAntiAffinityTopology, PodNodeSelector, PodTolerationRestriction, SecurityContextDeny, DenyServiceExternalIPs, EventRateLimit, AlwaysAdmit, AlwaysDeny', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  let dir: string;
  let configFile: string;

  const call = <T = Status>(c: Cluster, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${c.urls[0]}${path}`, { ...c.credentialsFor(), method, body, headers });
  const api = <T = Status>(method: string, path: string, body?: unknown, headers?: Record<string, string>) => call<T>(cluster, method, path, body, headers);
  const createPod = (ns: string, name: string, spec: Record<string, unknown>) =>
    api<Pod & Status>('POST', `/api/v1/namespaces/${ns}/pods`, { metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });
  const created = (r: HttpResponse<Pod & Status>): Pod => {
    expect(r.status, r.text).to.equal(201);
    return r.body;
  };
  const refused = (r: HttpResponse<unknown>, code: number, message: string, reason?: string): void => {
    expect(r.status, r.text).to.equal(code);
    const s = r.body as Status;
    expect(s.code).to.equal(code);
    expect(s.message).to.equal(message);
    expect(s.reason).to.equal(reason);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'adm-podmisc-'));
    // PodNodeSelector reads its configuration from a file named by `path`, relative to the AdmissionConfiguration.
    writeFileSync(join(dir, 'podnodeselector.yaml'), `podNodeSelectorPluginConfig:\n  clusterDefaultNodeSelector: pool=general\n  ${sel}: env=prod,disk=ssd\n`);
    configFile = join(dir, 'admission.yaml');
    writeFileSync(configFile, JSON.stringify({
      apiVersion: 'apiserver.config.k8s.io/v1', kind: 'AdmissionConfiguration',
      plugins: [
        { name: 'PodNodeSelector', path: 'podnodeselector.yaml' },
        { name: 'PodTolerationRestriction', configuration: {
          apiVersion: 'podtolerationrestriction.admission.k8s.io/v1alpha1', kind: 'Configuration',
          default: [clusterDefault], whitelist: [clusterDefault, gpu, ...systemTolerations],
        } },
        { name: 'EventRateLimit', configuration: {
          apiVersion: 'eventratelimit.admission.k8s.io/v1alpha1', kind: 'Configuration',
          limits: [{ type: 'Namespace', qps: 1, burst: 3, cacheSize: 100 }],
        } },
      ],
    }));
    cluster = await startReplicas(1, {
      extraArgs: [`--enable-admission-plugins=${enabled.join(',')}`, `--admission-control-config-file=${configFile}`,
        '--feature-gates=SecurityContextDeny=true'],
    });
    const annotations: Record<string, Record<string, string>> = {
      [plain]: {},
      [sel]: { 'scheduler.alpha.kubernetes.io/node-selector': 'env=prod' },
      [tol]: {
        'scheduler.alpha.kubernetes.io/defaultTolerations': JSON.stringify([dedicated]),
        'scheduler.alpha.kubernetes.io/tolerationsWhitelist': JSON.stringify([{ key: 'dedicated', operator: 'Exists' }, clusterDefault, ...systemTolerations]),
      },
      [ev]: {},
    };
    for (const [name, a] of Object.entries(annotations)) {
      const r = await api('POST', '/api/v1/namespaces', { metadata: { name, annotations: a } });
      expect(r.status, r.text).to.equal(201);
    }
  });
  after(async () => {
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Namespace annotations reach the plugins through the replica's watch cache: retry until they do. */
  async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const v = await fn();
      if (ok(v) || Date.now() > deadline) return v;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('AlwaysPullImages: containers and init containers of created and re-imaged pods pull Always', async () => {
    const pod = created(await createPod(plain, 'pull', {
      initContainers: [{ name: 'i', image: 'busybox', imagePullPolicy: 'IfNotPresent' }],
      containers: [{ name: 'c', image: 'nginx:1.25', imagePullPolicy: 'Never' }],
    }));
    expect(pod.spec.initContainers?.[0].imagePullPolicy).to.equal('Always');
    expect(pod.spec.containers[0].imagePullPolicy).to.equal('Always');
    const stored = await api<Pod>('GET', `/api/v1/namespaces/${plain}/pods/pull`);
    expect(stored.body.spec.containers[0].imagePullPolicy).to.equal('Always');
    const reimaged = await api<Pod>('PATCH', `/api/v1/namespaces/${plain}/pods/pull`, { spec: { containers: [{ name: 'c', image: 'nginx:1.26' }] } },
      { 'Content-Type': 'application/strategic-merge-patch+json' });
    expect(reimaged.status, reimaged.text).to.equal(200);
    expect(reimaged.body.spec.containers[0]).to.include({ image: 'nginx:1.26', imagePullPolicy: 'Always' });
  });

  it('ExtendedResourceToleration: a pod requesting an extended resource tolerates its taint', async () => {
    const pod = created(await createPod(plain, 'gpu', {
      containers: [{ name: 'c', image: 'nginx', resources: { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } } }],
    }));
    expect(pod.spec.tolerations).to.deep.include(gpu);
  });

  it('LimitPodHardAntiAffinityTopology: required anti-affinity only by hostname', async () => {
    const term = (topologyKey: string) => ({ affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [
      { labelSelector: { matchLabels: { app: 'web' } }, topologyKey },
    ] } } });
    refused(await createPod(plain, 'zonal', term('topology.kubernetes.io/zone')), 403,
      'pods "zonal" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.kubernetes.io/zone but only key kubernetes.io/hostname is allowed', 'Forbidden');
    created(await createPod(plain, 'per-node', term('kubernetes.io/hostname')));
  });

  it('PodNodeSelector: the cluster default selector applies to namespaces without the annotation', async () => {
    const pod = created(await createPod(plain, 'placed', { nodeSelector: { disk: 'hdd' } }));
    expect(pod.spec.nodeSelector).to.deep.equal({ pool: 'general', disk: 'hdd' });
  });

  it('PodNodeSelector: merges the namespace selector, refuses conflicts and labels outside the namespace whitelist', async () => {
    const ok = await eventually(() => createPod(sel, 'prod', { nodeSelector: { disk: 'ssd' } }), (r) => r.status === 201);
    expect(created(ok).spec.nodeSelector).to.deep.equal({ env: 'prod', disk: 'ssd' });
    refused(await createPod(sel, 'dev', { nodeSelector: { env: 'dev' } }), 403,
      'pods "dev" is forbidden: pod node label selector conflicts with its namespace node label selector', 'Forbidden');
    refused(await createPod(sel, 'hdd', { nodeSelector: { disk: 'hdd' } }), 403,
      'pods "hdd" is forbidden: pod node label selector labels conflict with its namespace whitelist', 'Forbidden');
  });

  it('PodTolerationRestriction: namespace defaults merged into new pods; tolerations outside the namespace whitelist refused', async () => {
    const ok = await eventually(() => createPod(tol, 'tolerant', {}), (r) => r.status === 201);
    expect(created(ok).spec.tolerations).to.deep.include(dedicated);
    expect(created(ok).spec.tolerations).to.not.deep.include(clusterDefault);
    refused(await createPod(tol, 'intruder', { tolerations: [{ key: 'other', operator: 'Exists', effect: 'NoSchedule' }] }), 500,
      'pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist');
  });

  it('PodTolerationRestriction: the configured cluster default and whitelist apply elsewhere', async () => {
    const pod = created(await createPod(plain, 'defaulted', {}));
    expect(pod.spec.tolerations).to.deep.include(clusterDefault);
    refused(await createPod(plain, 'outsider', { tolerations: [dedicated] }), 500,
      'pod tolerations (possibly merged with namespace default tolerations) conflict with its cluster whitelist');
  });

  it('SecurityContextDeny: pod and container user and SELinux settings are refused', async () => {
    refused(await createPod(plain, 'root', { securityContext: { runAsUser: 0 } }), 403,
      'pods "root" is forbidden: pod.Spec.SecurityContext.RunAsUser is forbidden', 'Forbidden');
    refused(await createPod(plain, 'labelled', { containers: [{ name: 'c', image: 'nginx', securityContext: { seLinuxOptions: { level: 's0:c1' } } }] }), 403,
      'pods "labelled" is forbidden: SecurityContext.SELinuxOptions is forbidden', 'Forbidden');
    created(await createPod(plain, 'nonroot', { securityContext: { runAsNonRoot: true } }));
  });

  it('DenyServiceExternalIPs: new externalIPs refused on create and update', async () => {
    const svc = (name: string, externalIPs?: string[]) => ({ metadata: { name }, spec: { ports: [{ port: 80 }], ...(externalIPs ? { externalIPs } : {}) } });
    refused(await api('POST', `/api/v1/namespaces/${plain}/services`, svc('ext', ['203.0.113.10'])), 403,
      'services "ext" is forbidden: Use of external IPs is denied by admission control', 'Forbidden');
    const ok = await api('POST', `/api/v1/namespaces/${plain}/services`, svc('internal'));
    expect(ok.status, ok.text).to.equal(201);
    refused(await api('PATCH', `/api/v1/namespaces/${plain}/services/internal`, { spec: { externalIPs: ['203.0.113.10'] } }, merge), 403,
      'services "internal" is forbidden: Use of external IPs is denied by admission control', 'Forbidden');
  });

  it('EventRateLimit: a namespace\'s core events beyond the burst get 429; other namespaces and events.k8s.io are not charged', async () => {
    const event = (ns: string, name: string) => api('POST', `/api/v1/namespaces/${ns}/events`, {
      metadata: { name }, involvedObject: { kind: 'ConfigMap', name: 'x', namespace: ns }, reason: 'Test', message: 'hello', type: 'Normal',
    });
    // Three tokens to start with, refilled at one per second: the first three pass, and
    // sending on without pause runs the bucket dry.
    const results: Array<HttpResponse<Status>> = [];
    for (let i = 0; i < 30 && !results.some((r) => r.status === 429); i++) results.push(await event(ev, `burst-${i}`));
    expect(results.slice(0, 3).map((r) => r.status)).to.deep.equal([201, 201, 201]);
    const limited = results[results.length - 1];
    refused(limited, 429, `Too many requests: limit reached on type Namespace for key ${ev}`, 'TooManyRequests');
    expect(limited.headers['retry-after']).to.equal(undefined);
    const elsewhere = await event(plain, 'unaffected');
    expect(elsewhere.status, elsewhere.text).to.equal(201);
    const v1 = await api('POST', `/apis/events.k8s.io/v1/namespaces/${ev}/events`, {
      metadata: { name: 'new-api' }, eventTime: new Date().toISOString().replace(/Z$/, '000Z'), type: 'Normal', reason: 'Test', action: 'Testing',
      reportingController: 'example.com/test', reportingInstance: 'test-1', regarding: { kind: 'ConfigMap', name: 'x', namespace: ev }, note: 'hello',
    });
    expect(v1.status, v1.text).to.equal(201);
    // The bucket refills at qps: after a second, one more event fits.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await event(ev, 'refilled')).status).to.equal(201);
  });

  describe('sharing storage with replicas running AlwaysAdmit and AlwaysDeny', () => {
    let other: Cluster | undefined;
    afterEach(async () => {
      await other?.stop();
      other = undefined;
    });

    it('AlwaysAdmit admits what DenyServiceExternalIPs refuses; removing an existing address is then allowed', async () => {
      other = await startReplicas(1, { etcdPrefix: cluster.etcdPrefix, extraArgs: ['--enable-admission-plugins=AlwaysAdmit'] });
      const ext = await call(other, 'POST', `/api/v1/namespaces/${plain}/services`,
        { metadata: { name: 'legacy' }, spec: { ports: [{ port: 80 }], externalIPs: ['203.0.113.1', '203.0.113.2'] } });
      expect(ext.status, ext.text).to.equal(201);
      const fewer = await api('PATCH', `/api/v1/namespaces/${plain}/services/legacy`, { spec: { externalIPs: ['203.0.113.2'] } }, merge);
      expect(fewer.status, fewer.text).to.equal(200);
      refused(await api('PATCH', `/api/v1/namespaces/${plain}/services/legacy`, { spec: { externalIPs: ['203.0.113.2', '203.0.113.3'] } }, merge), 403,
        'services "legacy" is forbidden: Use of external IPs is denied by admission control', 'Forbidden');
    });

    it('AlwaysDeny refuses creates, updates and deletes with 403 and leaves reads alone', async () => {
      other = await startReplicas(1, { etcdPrefix: cluster.etcdPrefix, extraArgs: ['--enable-admission-plugins=AlwaysDeny'] });
      const why = 'admission control is denying all modifications';
      refused(await call(other, 'POST', `/api/v1/namespaces/${plain}/configmaps`, { metadata: { name: 'cm' } }), 403,
        `configmaps "cm" is forbidden: ${why}`, 'Forbidden');
      refused(await call(other, 'PATCH', `/api/v1/namespaces/${plain}/services/internal`, { metadata: { labels: { a: 'b' } } }, merge), 403,
        `services "internal" is forbidden: ${why}`, 'Forbidden');
      refused(await call(other, 'DELETE', `/api/v1/namespaces/${plain}/services/internal`), 403,
        `services "internal" is forbidden: ${why}`, 'Forbidden');
      expect((await call(other, 'GET', `/api/v1/namespaces/${plain}/services/internal`)).status).to.equal(200);
    });
  });

  describe('startup', () => {
    it('refuses SecurityContextDeny without its feature gate and EventRateLimit without limits', async () => {
      const failure = async (args: string[]): Promise<string> => {
        try {
          const c = await startReplicas(1, { etcdPrefix: cluster.etcdPrefix, extraArgs: args, readyTimeoutMs: 30_000 });
          await c.stop();
        } catch (err) {
          return (err as Error).message;
        }
        throw new Error(`started with ${args.join(' ')}`);
      };
      expect(await failure(['--enable-admission-plugins=SecurityContextDeny'])).to.include(
        'couldn\'t init admission plugin "SecurityContextDeny": SecurityContextDeny admission controller is an alpha feature, planned to be removed, and requires the SecurityContextDeny feature gate to be enabled');
      expect(await failure(['--enable-admission-plugins=EventRateLimit'])).to.include(
        'couldn\'t init admission plugin "EventRateLimit": limits: Invalid value');
    });
  });
});
