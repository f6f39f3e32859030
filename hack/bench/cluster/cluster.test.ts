// The cluster load generator sends what it claims: a small run against a replica with the
// Node authorizer, RBAC, NodeRestriction and an audit log, whose log is then read back.
// Each simulated kubelet must appear under its own identity (system:node:<name>) with
// the requests and rates of a kubelet; the scheduler's bindings, the kube-proxies'
// watches and the kubelets' zero-grace deletes too; and nothing may be refused.
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readAuditLog, startReplicas, type Cluster } from '../../../test/harness/index.js';
import { readKubeconfig } from './kubeconfig.js';
import { runClusterLoad, type RunResult } from './run.js';

interface Ev {
  stage: string; verb: string; requestURI: string; user: { username: string };
  objectRef?: { resource?: string; subresource?: string; namespace?: string; name?: string };
  responseStatus?: { code?: number }; requestObject?: { gracePeriodSeconds?: number; preconditions?: { uid?: string } };
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
  const nodes = ['hollow-node-0', 'hollow-node-1', 'hollow-node-2'];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cluster-load-'));
    writeFileSync(join(dir, 'policy.yaml'), policy);
    cluster = await startReplicas(1, {
      authorizationMode: 'Node,RBAC',
      extraArgs: ['--enable-admission-plugins=NodeRestriction', `--audit-policy-file=${join(dir, 'policy.yaml')}`, `--audit-log-path=${join(dir, 'audit.log')}`],
    });
    const admin = readKubeconfig(cluster.kubeconfigFor(0));
    const signer = { cert: readFileSync(cluster.pki.ca.certFile, 'utf8'), key: readFileSync(cluster.pki.ca.keyFile, 'utf8') };
    result = await runClusterLoad(admin, signer, {
      nodes: 3, podsPerNode: 2, podsPerDeployment: 2, namespaces: 1, qps: 20, proxyFraction: 0.34,
      leasePeriodMs: 1000, statusPeriodMs: 3000, podStartMs: 200, externalControllers: false,
      steadySeconds: 5, phaseTimeoutMs: 60_000, nodePrefix: 'hollow-node-', mountsPerPod: 2, scalePhase: true, deadlineSeconds: 0, protocol: 'h2',
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

  it('each kubelet registers its own Node and renews its own Lease about once a period, as system:node:<name>', () => {
    for (const n of nodes) {
      expect(by(`system:node:${n}`, 'create', 'nodes').map((e) => e.requestURI)).to.deep.equal(['/api/v1/nodes']);
      const renewals = by(`system:node:${n}`, 'update', 'leases').filter((e) => e.objectRef?.namespace === 'kube-node-lease' && e.objectRef.name === n);
      // One a second (lease period 1 s) over the run, started within the first period.
      expect(renewals.length, n).to.be.within(Math.floor(result.seconds * 0.6), Math.ceil(result.seconds) + 1);
    }
    // The generator records an answer; a renewal in flight when the run stopped reaches the
    // audit log but not the record (at most one per kubelet).
    expect(by(/^system:node:/, 'update', 'leases').length).to.be.within(recorded('leases', 'PUT'), recorded('leases', 'PUT') + nodes.length);
  });

  it('patches Node status at start and every status period, and pod status twice per pod (ContainerCreating, Running)', () => {
    for (const n of nodes) {
      const patches = by(`system:node:${n}`, 'patch', 'nodes', 'status');
      expect(patches.length, n).to.be.within(1 + Math.floor(result.seconds / 3) - 1, 2 + Math.ceil(result.seconds / 3));
    }
    expect(by(/^system:node:/, 'patch', 'nodes', 'status').length).to.equal(recorded('nodes', 'PATCH'));
    const podStatus = by(/^system:node:/, 'patch', 'pods', 'status');
    expect(podStatus.length).to.equal(recorded('pods', 'PATCH'));
    expect(podStatus.length).to.equal(2 * result.bindings);
  });

  it('watches its pods by spec.nodeName and each mounted ConfigMap and Secret by metadata.name', () => {
    for (const n of nodes) {
      const podWatches = by(`system:node:${n}`, 'watch', 'pods');
      expect(podWatches.length, n).to.be.at.least(1);
      for (const w of podWatches) expect(decodeURIComponent(w.requestURI)).to.contain(`fieldSelector=spec.nodeName=${n}`);
    }
    for (const resource of ['configmaps', 'secrets']) {
      const watches = by(/^system:node:/, 'watch', resource);
      expect(watches.length, resource).to.be.at.least(3);
      for (const w of watches) expect(decodeURIComponent(w.requestURI)).to.match(/fieldSelector=metadata\.name=dep-\d+/);
    }
  });

  it('binds through pods/binding as the scheduler; kube-proxy watches Services, EndpointSlices and Nodes', () => {
    expect(by('system:kube-scheduler', 'create', 'pods', 'binding').length).to.equal(result.bindings);
    for (const r of ['services', 'endpointslices', 'nodes']) expect(by('system:kube-proxy', 'watch', r).length, r).to.be.at.least(1);
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
});
