// The cluster load generator sends what it claims: a small run against a replica with the
// Node authorizer, RBAC, NodeRestriction and an audit log, whose log is then read back.
// Each simulated kubelet must appear under its own identity (system:node:<name>) with
// the requests and rates of a kubelet; the scheduler's bindings, the kube-proxies'
// watches and the kubelets' zero-grace deletes too; and nothing may be refused. A call
// answered 429 with Retry-After is sent again after the wait, as client-go's, and the
// audit log shows the server saw it twice.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAuditLog, startReplicas, type Cluster } from '../../../test/harness/index.js';
import { issueCertificate } from '../../../pkg/util/cert/index.js';
import { ApiClient, sleep } from './client.js';
import { readKubeconfig, type Credentials } from './kubeconfig.js';
import { Recorder } from './recorder.js';
import { runClusterLoad, type RunResult } from './run.js';

interface Ev {
  stage: string; verb: string; requestURI: string; user: { username: string };
  objectRef?: { resource?: string; subresource?: string; namespace?: string; name?: string };
  requestReceivedTimestamp: string; responseStatus?: { code?: number }; requestObject?: { gracePeriodSeconds?: number; preconditions?: { uid?: string } };
}

const policy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: Request
  resources: [{ group: "", resources: ["pods"] }]
  verbs: ["delete"]
- level: Metadata
`;

describe('cluster load generator (hack/bench/cluster)', function () {
  this.timeout(240_000);
  let dir = '';
  let cluster: Cluster | undefined;
  let result: RunResult;
  let events: Ev[] = [];
  let admin: Credentials;
  let signer: { cert: string; key: string };
  const nodes = ['hollow-node-0', 'hollow-node-1', 'hollow-node-2'];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cluster-load-'));
    writeFileSync(join(dir, 'policy.yaml'), policy);
    cluster = await startReplicas(1, {
      authorizationMode: 'Node,RBAC',
      extraArgs: ['--enable-admission-plugins=NodeRestriction', `--audit-policy-file=${join(dir, 'policy.yaml')}`, `--audit-log-path=${join(dir, 'audit.log')}`],
    });
    admin = readKubeconfig(cluster.kubeconfigFor(0));
    signer = { cert: readFileSync(cluster.pki.ca.certFile, 'utf8'), key: readFileSync(cluster.pki.ca.keyFile, 'utf8') };
    result = await runClusterLoad(admin, signer, {
      nodes: 3, podsPerNode: 2, podsPerDeployment: 2, namespaces: 1, qps: 20, proxyFraction: 0.34,
      leasePeriodMs: 1000, statusPeriodMs: 3000, podStartMs: 200, externalControllers: false,
      steadySeconds: 5, phaseTimeoutMs: 60_000, nodePrefix: 'hollow-node-', mountsPerPod: 2, scalePhase: true, deadlineSeconds: 0, protocol: 'h2', events: true, kubeletServiceWatch: true,
    }, { log: () => undefined });
    // The replica writes its last events just after the last responses.
    await new Promise((r) => setTimeout(r, 1000));
    events = readAuditLog<Ev>(join(dir, 'audit.log')).filter((e) => e.stage === 'ResponseComplete' || (e.verb === 'watch' && e.stage === 'ResponseStarted'));
  });
  after(async () => {
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const by = (user: string | RegExp, verb: string, resource: string, subresource?: string) => events.filter((e) => (typeof user === 'string' ? e.user.username === user : user.test(e.user.username))
    && e.verb === verb && e.objectRef?.resource === resource && (e.objectRef?.subresource ?? undefined) === subresource && e.stage === (verb === 'watch' ? 'ResponseStarted' : 'ResponseComplete'));
  const recorded = (resource: string, verb: string) => result.rec.rows().filter((r) => r.resource === resource && r.verb === verb).reduce((n, r) => n + r.s.n, 0);

  it('completes the workload: every pod bound, seen by its kubelet, Running, then deleted; no error', () => {
    expect(result.bindings).to.be.at.least(6);
    expect(result.missedPodEvents).to.equal(0);
    expect(result.unstartedPods).to.equal(0);
    expect(result.leftoverPods).to.equal(0);
    expect(Object.fromEntries(result.rec.errors)).to.deep.equal({});
    expect(events.filter((e) => /^system:(node:|kube-proxy$|kube-scheduler$)/.test(e.user.username) && (e.responseStatus?.code ?? 200) >= 400).map((e) => `${e.user.username} ${e.verb} ${e.requestURI} ${e.responseStatus?.code}`)).to.deep.equal([]);
  });

  it('breaks each pod\'s start-up into stages that add up to its total, less the simulated start', () => {
    const ran = result.rec.startup.length;
    expect(ran).to.be.at.least(6);
    const st = result.stages;
    expect(st.totals.length).to.equal(ran);
    expect([...st.totals].sort((a, b) => a - b)).to.deep.equal([...result.rec.startup].sort((a, b) => a - b));
    const rows = st.rows();
    expect(rows.map((r) => r.s.n)).to.deep.equal(Array(7).fill(ran));
    for (let i = 0; i < ran; i++) {
      const sum = [...st.stages.values()].reduce((n, xs) => n + xs[i]!, 0);
      expect(sum + 200, `pod ${i}`).to.be.closeTo(st.totals[i]!, 1e-6);
    }
    // Calls take time; the simulated start's timer never fires early by more than a tick.
    for (const m of ['answered', 'bound', 'creating'] as const) for (const d of st.stages.get(m)!) expect(d, m).to.be.above(0);
    for (const d of st.stages.get('running')!) expect(d, 'running').to.be.above(-2);
  });

  it('each kubelet lists and watches its own Node, registers it and renews its own Lease about once a period, as system:node:<name>', () => {
    const at = (e: Ev) => Date.parse(e.requestReceivedTimestamp);
    for (const n of nodes) {
      const created = by(`system:node:${n}`, 'create', 'nodes');
      expect(created.map((e) => e.requestURI)).to.deep.equal(['/api/v1/nodes']);
      // As a v1.28 kubelet's node informer: its first call, before the registration.
      const listed = by(`system:node:${n}`, 'list', 'nodes');
      expect(listed.length, n).to.be.at.least(1);
      expect(decodeURIComponent(listed[0]!.requestURI)).to.contain(`fieldSelector=metadata.name=${n}`);
      expect(at(listed[0]!), n).to.be.at.most(at(created[0]!));
      const watches = by(`system:node:${n}`, 'watch', 'nodes');
      expect(watches.length, n).to.be.at.least(1);
      for (const w of watches) expect(decodeURIComponent(w.requestURI)).to.contain(`fieldSelector=metadata.name=${n}`);
      const renewals = by(`system:node:${n}`, 'update', 'leases').filter((e) => e.objectRef?.namespace === 'kube-node-lease' && e.objectRef.name === n);
      // One a second (lease period 1 s) over the run, started within the first period.
      expect(renewals.length, n).to.be.within(Math.floor(result.seconds * 0.6), Math.ceil(result.seconds) + 1);
    }
    // The generator records an answer; a renewal in flight when the run stopped reaches the
    // audit log but not the record (at most one per kubelet).
    expect(by(/^system:node:/, 'update', 'leases').length).to.be.within(recorded('leases', 'PUT'), recorded('leases', 'PUT') + nodes.length);
  });

  it('patches Node status at start and every status period, and pod status twice per pod (ContainerCreating, Running)', () => {
    // Counted over the node's own life as the server saw it (its first status patch to its
    // last request of any kind), not the run's: under load a node registers seconds after
    // the run's clock starts. The periodic patches start at a random point of the first period.
    const at = (e: Ev) => Date.parse(e.requestReceivedTimestamp);
    for (const n of nodes) {
      const patches = by(`system:node:${n}`, 'patch', 'nodes', 'status');
      const life = (Math.max(...events.filter((e) => e.user.username === `system:node:${n}`).map(at)) - Math.min(...patches.map(at))) / 1000;
      expect(patches.length, `${n}: ${patches.length} status patches in ${life.toFixed(1)} s`).to.be.within(Math.max(1, Math.floor((life - 1) / 3)), 2 + Math.ceil(life / 3));
    }
    // As with the Lease renewals above: a periodic patch in flight when the run stopped reaches
    // the audit log but not the record (at most one per kubelet; a CI run once saw 9 against 8).
    expect(by(/^system:node:/, 'patch', 'nodes', 'status').length).to.be.within(recorded('nodes', 'PATCH'), recorded('nodes', 'PATCH') + nodes.length);
    const podStatus = by(/^system:node:/, 'patch', 'pods', 'status');
    expect(podStatus.length).to.equal(recorded('pods', 'PATCH'));
    expect(podStatus.length).to.equal(2 * result.bindings);
  });

  it('watches its pods by spec.nodeName, every Service (--kubelet-service-watch) and each mounted ConfigMap and Secret by metadata.name', () => {
    for (const n of nodes) {
      const podWatches = by(`system:node:${n}`, 'watch', 'pods');
      expect(podWatches.length, n).to.be.at.least(1);
      for (const w of podWatches) expect(decodeURIComponent(w.requestURI)).to.contain(`fieldSelector=spec.nodeName=${n}`);
      const serviceWatches = by(`system:node:${n}`, 'watch', 'services');
      expect(serviceWatches.length, n).to.be.at.least(1);
      for (const w of serviceWatches) expect(w.requestURI).to.match(/^\/api\/v1\/services\?(?!.*fieldSelector)/);
    }
    for (const resource of ['configmaps', 'secrets']) {
      const watches = by(/^system:node:/, 'watch', resource);
      expect(watches.length, resource).to.be.at.least(3);
      for (const w of watches) expect(decodeURIComponent(w.requestURI)).to.match(/fieldSelector=metadata\.name=dep-\d+/);
    }
  });

  it('binds through pods/binding as the scheduler; kube-proxy watches Services, EndpointSlices and its own Node', () => {
    expect(by('system:kube-scheduler', 'create', 'pods', 'binding').length).to.equal(result.bindings);
    for (const r of ['services', 'endpointslices', 'nodes']) {
      expect(by('system:kube-proxy', 'watch', r).length, r).to.be.at.least(1);
      // The kube-proxies run on a thread of their own: their calls reach the run's record.
      // Kubelets list their own Node and every Service too, the scheduler every Node: those rows hold all.
      const kubelets = r === 'nodes' || r === 'services' ? by(/^system:node:/, 'list', r).length : 0;
      const scheduler = r === 'nodes' ? by('system:kube-scheduler', 'list', r).length : 0;
      expect(by('system:kube-proxy', 'list', r).length, r).to.be.at.least(1);
      expect(recorded(r, 'LIST'), r).to.equal(by('system:kube-proxy', 'list', r).length + kubelets + scheduler);
    }
    // Two kube-proxies (0.34 of 3 nodes), each on a node of its own and watching only that Node,
    // as v1.28's; the scheduler's node informer holds every Node.
    const proxyNodes = (verb: string) => [...new Set(by('system:kube-proxy', verb, 'nodes').map((e) => new URL(e.requestURI, 'https://x').searchParams.get('fieldSelector')))].sort();
    expect(proxyNodes('list')).to.deep.equal(['metadata.name=hollow-node-0', 'metadata.name=hollow-node-1']);
    expect(proxyNodes('watch')).to.deep.equal(['metadata.name=hollow-node-0', 'metadata.name=hollow-node-1']);
    for (const verb of ['list', 'watch']) {
      const all = by('system:kube-scheduler', verb, 'nodes');
      expect(all.length, verb).to.be.at.least(1);
      for (const e of all) expect(e.requestURI, verb).to.not.contain('fieldSelector');
    }
    // Each worker thread (the kubelets' one, the kube-proxies') reports its loop delay when stopped.
    expect(result.rec.threadLoops.map((t) => t.thread).sort()).to.deep.equal(['2 kube-proxies', 'kubelets hollow-node-0..']);
  });

  it('posts the Events of each pod\'s life under the identity of who posts them upstream', () => {
    const kubelet = by(/^system:node:/, 'create', 'events');
    // Pulled, Created, Started at start and Killing at deletion, one container per pod.
    expect(kubelet.length).to.equal(4 * result.bindings);
    for (const e of kubelet) expect(e.requestURI).to.match(/^\/api\/v1\/namespaces\/load-0\/events/);
    const scheduled = by('system:kube-scheduler', 'create', 'events');
    expect(scheduled.length).to.equal(result.bindings);
    for (const e of scheduled) expect(e.requestURI).to.match(/^\/apis\/events\.k8s\.io\/v1\/namespaces\/load-0\/events/);
    // SuccessfulCreate per pod the ReplicaSet stand-in made and ScalingReplicaSet per Deployment.
    expect(by('admin', 'create', 'events').length).to.be.above(result.bindings);
    expect(by(/./, 'create', 'events').length).to.equal(recorded('events', 'POST'));
  });

  it('confirms each graceful deletion with a zero-grace delete preconditioned on the pod UID', () => {
    const confirms = by(/^system:node:/, 'delete', 'pods');
    expect(confirms.length).to.equal(result.bindings);
    for (const c of confirms) {
      expect(c.requestObject?.gracePeriodSeconds).to.equal(0);
      expect(c.requestObject?.preconditions?.uid).to.be.a('string').and.not.equal('');
    }
    expect(by('admin', 'delete', 'pods').length).to.equal(result.bindings);
  });

  it('sends a call answered 429 with Retry-After again after the wait, as client-go, counting a retry and not an error', async () => {
    // A priority level of 3 seats (1 share of 600) that rejects, for one user only: a burst
    // of 8 concurrent calls over one HTTP/2 connection finds it full.
    const fc = '/apis/flowcontrol.apiserver.k8s.io/v1beta3';
    const setup = new ApiClient(admin.server, admin, new Recorder(), 'cluster-test');
    const probeCert = await issueCertificate(signer, { cn: 'retry-probe', organizations: [], usage: 'client', days: 1 });
    const rec = new Recorder();
    const probe = new ApiClient(admin.server, { ca: admin.ca, cert: probeCert.cert, key: probeCert.key }, rec, 'retry-probe');
    const label = { resource: 'setup', verb: 'POST', scope: 'cluster' as const };
    try {
      expect((await setup.call(label, 'POST', `${fc}/prioritylevelconfigurations`, { metadata: { name: 'retry-probe' },
        spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' } } } })).status).to.equal(201);
      expect((await setup.call(label, 'POST', `${fc}/flowschemas`, { metadata: { name: 'retry-probe' }, spec: {
        priorityLevelConfiguration: { name: 'retry-probe' }, matchingPrecedence: 10, distinguisherMethod: { type: 'ByUser' },
        rules: [{ subjects: [{ kind: 'User', user: { name: 'retry-probe' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }] }],
      } })).status).to.equal(201);
      const review = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } };
      const burst = 8;
      let bursts = 0;
      let answers: number[] = [];
      // The replica applies the new level once its informers see it: bursts until one is refused.
      for (; bursts < 20 && rec.retries.size === 0; bursts++) {
        answers = (await Promise.all(Array.from({ length: burst }, () => probe.call({ resource: 'selfsubjectaccessreviews', verb: 'POST', scope: 'cluster' },
          'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', review)))).map((r) => r.status);
        if (rec.retries.size === 0) await sleep(200);
      }
      const retried = rec.retries.get('429 selfsubjectaccessreviews POST') ?? 0;
      expect(retried, 'retries').to.be.at.least(1);
      expect([...rec.retries.keys()]).to.deep.equal(['429 selfsubjectaccessreviews POST']);
      expect(rec.retryWaitSeconds).to.equal(retried); // Retry-After: 1 each
      expect(answers).to.deep.equal(Array(burst).fill(201));
      expect(rec.errors.size, 'errors').to.equal(0);
      expect(rec.rows().find((r) => r.resource === 'selfsubjectaccessreviews')?.s.n).to.equal(burst * bursts);
      // The server's side: every refused call was answered 429 and came again.
      await sleep(500);
      const seen = readAuditLog<Ev>(join(dir, 'audit.log')).filter((e) => e.user.username === 'retry-probe' && e.stage === 'ResponseComplete');
      expect(seen.filter((e) => e.responseStatus?.code === 429).length, 'refused').to.equal(retried);
      expect(seen.filter((e) => e.responseStatus?.code === 201).length, 'created').to.equal(burst * bursts);
    } finally {
      probe.close();
      setup.close();
    }
  });
});
