// /metrics against upstream v1.28's metric documentation: after a replica has served
// creates, reads, a watch and a failed authentication, every family listed here is
// exposed with upstream's type, label names, buckets and stability class, so
// kube-prometheus dashboards and the apiserver SLO alerts read it unchanged.
import { expect } from 'chai';
import { request, startReplicas, watch, type Cluster } from '../harness/index.js';
import { parseOptions } from '../../pkg/server/options.js';

interface Family { type: string; help: string; labels: Set<string>; buckets: number[]; samples: Array<{ name: string; labels: Record<string, string>; value: number }> }

function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const family = (name: string): Family => {
    let f = families.get(name);
    if (!f) { f = { type: '', help: '', labels: new Set(), buckets: [], samples: [] }; families.set(name, f); }
    return f;
  };
  for (const line of text.split('\n')) {
    const meta = /^# (TYPE|HELP) (\S+) (.*)$/.exec(line);
    if (meta) {
      if (meta[1] === 'TYPE') family(meta[2]!).type = meta[3]!;
      else family(meta[2]!).help = meta[3]!;
      continue;
    }
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!sample) continue;
    const labels: Record<string, string> = {};
    for (const m of (sample[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[m[1]!] = m[2]!;
    const base = sample[1]!.replace(/_(bucket|sum|count)$/, '');
    const f = families.has(sample[1]!) ? family(sample[1]!) : family(base);
    if (sample[1]!.endsWith('_bucket')) {
      const le = labels.le!;
      if (le !== '+Inf' && !f.buckets.includes(Number(le))) f.buckets.push(Number(le));
      delete labels.le;
    }
    for (const k of Object.keys(labels)) f.labels.add(k);
    f.samples.push({ name: sample[1]!, labels, value: Number(sample[3]) });
  }
  return families;
}

const requestLabels = ['component', 'group', 'resource', 'scope', 'subresource', 'verb', 'version'];
const requestBuckets = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
const exp = (start: number, factor: number, n: number) => Array.from({ length: n }, (_, i) => start * factor ** i);
const admissionBuckets = [0.005, 0.025, 0.1, 0.5, 1, 2.5];

/** name → type, label names (sorted), buckets when a histogram, stability class. */
const upstream: Record<string, { type: string; labels: string[]; buckets?: number[]; stability: 'STABLE' | 'ALPHA' | 'BETA' }> = {
  apiserver_request_total: { type: 'counter', labels: ['code', 'dry_run', ...requestLabels].sort(), stability: 'STABLE' },
  apiserver_request_duration_seconds: { type: 'histogram', labels: ['dry_run', ...requestLabels].sort(), buckets: requestBuckets, stability: 'STABLE' },
  apiserver_request_sli_duration_seconds: { type: 'histogram', labels: requestLabels, buckets: requestBuckets.slice(2), stability: 'ALPHA' },
  apiserver_response_sizes: { type: 'histogram', labels: requestLabels, buckets: exp(1000, 10, 8), stability: 'STABLE' },
  apiserver_current_inflight_requests: { type: 'gauge', labels: ['request_kind'], stability: 'STABLE' },
  apiserver_longrunning_requests: { type: 'gauge', labels: requestLabels, stability: 'STABLE' },
  apiserver_registered_watchers: { type: 'gauge', labels: ['group', 'kind', 'version'], stability: 'ALPHA' },
  apiserver_watch_events_total: { type: 'counter', labels: ['group', 'kind', 'version'], stability: 'ALPHA' },
  apiserver_watch_events_sizes: { type: 'histogram', labels: ['group', 'kind', 'version'], buckets: exp(1024, 2, 8), stability: 'ALPHA' },
  apiserver_storage_objects: { type: 'gauge', labels: ['resource'], stability: 'STABLE' },
  etcd_request_duration_seconds: { type: 'histogram', labels: ['operation', 'type'], buckets: requestBuckets, stability: 'ALPHA' },
  apiserver_storage_list_total: { type: 'counter', labels: ['resource'], stability: 'ALPHA' },
  apiserver_storage_list_fetched_objects_total: { type: 'counter', labels: ['resource'], stability: 'ALPHA' },
  apiserver_storage_list_evaluated_objects_total: { type: 'counter', labels: ['resource'], stability: 'ALPHA' },
  apiserver_storage_list_returned_objects_total: { type: 'counter', labels: ['resource'], stability: 'ALPHA' },
  apiserver_admission_step_admission_duration_seconds: { type: 'histogram', labels: ['operation', 'rejected', 'type'], buckets: admissionBuckets, stability: 'STABLE' },
  apiserver_admission_controller_admission_duration_seconds: { type: 'histogram', labels: ['name', 'operation', 'rejected', 'type'], buckets: admissionBuckets, stability: 'STABLE' },
  authentication_attempts: { type: 'counter', labels: ['result'], stability: 'ALPHA' },
  authentication_duration_seconds: { type: 'histogram', labels: ['result'], buckets: exp(0.001, 2, 15), stability: 'ALPHA' },
  authenticated_user_requests: { type: 'counter', labels: ['username'], stability: 'ALPHA' },
  apiserver_requested_deprecated_apis: { type: 'gauge', labels: ['group', 'removed_release', 'resource', 'subresource', 'version'], stability: 'STABLE' },
  apiserver_flowcontrol_dispatched_requests_total: { type: 'counter', labels: ['flow_schema', 'priority_level'], stability: 'BETA' },
  apiserver_flowcontrol_current_executing_requests: { type: 'gauge', labels: ['flow_schema', 'priority_level'], stability: 'BETA' },
  apiserver_flowcontrol_nominal_limit_seats: { type: 'gauge', labels: ['priority_level'], stability: 'BETA' },
};

describe('/metrics families as upstream documents them', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let families: Map<string, Family>;

  before(async () => {
    cluster = await startReplicas(1);
    const base = cluster.urls[0]!;
    const creds = cluster.credentialsFor();
    const ns = `metrics-${Date.now().toString(36)}`;
    // APF classifies (and counts) requests once its configuration is loaded.
    for (let i = 0; i < 100 && !(await request(`${base}/api/v1/namespaces`, creds)).headers['x-kubernetes-pf-flowschema-uid']; i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    await request(`${base}/api/v1/namespaces`, { ...creds, method: 'POST', body: { metadata: { name: ns } } });
    const w = await watch(`${base}/api/v1/namespaces/${ns}/configmaps?watch=1&timeoutSeconds=5`, creds);
    // A second watch stays open while /metrics is read: the long-running gauge has a sample.
    const open = await watch(`${base}/api/v1/namespaces/${ns}/secrets?watch=1&timeoutSeconds=30`, creds);
    await request(`${base}/api/v1/namespaces/${ns}/configmaps`, { ...creds, method: 'POST', body: { metadata: { name: 'cm' }, data: { k: 'v' } } });
    await w.next(5000);
    await request(`${base}/api/v1/namespaces/${ns}/configmaps/cm`, creds);
    const listed = (await request(`${base}/api/v1/namespaces/${ns}/configmaps`, creds)).body as { metadata: { resourceVersion: string } };
    // An Exact list is read from etcd, not the watch cache (apiserver_storage_list_*).
    await request(`${base}/api/v1/namespaces/${ns}/configmaps?resourceVersion=${listed.metadata.resourceVersion}&resourceVersionMatch=Exact`, creds);
    await request(`${base}/apis/flowcontrol.apiserver.k8s.io/v1beta2/flowschemas`, creds);
    await request(`${base}/api/v1/namespaces`, { token: 'not-a-token' });
    const text = (await request(`${base}/metrics`, creds)).text;
    w.close();
    open.close();
    families = parseExposition(text);
  });
  after(() => cluster?.stop());

  for (const [name, want] of Object.entries(upstream)) {
    it(`${name}: ${want.type}, labels ${want.labels.join(',') || '(none)'}, ${want.stability}`, () => {
      const f = families.get(name);
      expect(f, `${name} is exposed`).to.not.equal(undefined);
      expect(f!.type).to.equal(want.type);
      expect(f!.help.startsWith(`[${want.stability}] `), f!.help).to.equal(true);
      expect(f!.samples.length, `${name} has samples`).to.be.greaterThan(0);
      expect([...f!.labels].sort()).to.deep.equal([...want.labels].sort());
      if (want.buckets) expect(f!.buckets.map((b) => Number(b.toPrecision(12)))).to.deep.equal(want.buckets.map((b) => Number(b.toPrecision(12))));
    });
  }

  it('records what was served: watch events, response sizes, authentication results, stored objects', () => {
    const value = (name: string, labels: Record<string, string>) => [...families.values()].flatMap((f) => f.samples)
      .find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    expect(value('apiserver_watch_events_total', { group: '', version: 'v1', kind: 'ConfigMap' })).to.be.at.least(1);
    expect(value('apiserver_response_sizes_count', { verb: 'LIST', resource: 'configmaps' })).to.be.at.least(1);
    // An invalid bearer token is an authenticator error upstream ("invalid bearer token"), not a failure.
    expect(value('authentication_attempts', { result: 'error' })).to.be.at.least(1);
    expect(value('authentication_attempts', { result: 'success' })).to.be.at.least(3);
    expect(value('authenticated_user_requests', { username: 'admin' })).to.be.at.least(3);
    expect(value('apiserver_storage_objects', { resource: 'namespaces' })).to.be.at.least(4);
    expect(value('apiserver_admission_step_admission_duration_seconds_count', { operation: 'CREATE', type: 'validate', rejected: 'false' })).to.be.at.least(1);
  });

  it('hides apiserver_request_slo_duration_seconds (deprecated in 1.27) unless --show-hidden-metrics-for-version=1.27', async () => {
    expect(families.has('apiserver_request_slo_duration_seconds')).to.equal(false);
    const shown = await startReplicas(1, { extraArgs: ['--show-hidden-metrics-for-version=1.27'] });
    try {
      const creds = shown.credentialsFor();
      await request(`${shown.urls[0]}/api/v1/namespaces/default`, creds);
      const f = parseExposition((await request(`${shown.urls[0]}/metrics`, creds)).text).get('apiserver_request_slo_duration_seconds');
      expect(f?.help).to.match(/^\[ALPHA\] \(Deprecated since 1\.27\.0\) /);
      expect(f?.buckets).to.deep.equal(requestBuckets.slice(2));
    } finally {
      await shown.stop();
    }
    expect(() => parseOptions(['--show-hidden-metrics-for-version=1.26'])).to.throw("--show-hidden-metrics-for-version must be omitted or have the value '1.27'. Only the previous minor version is allowed");
  });
});
