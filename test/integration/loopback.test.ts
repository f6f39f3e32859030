// The server's own writes travel as a client's do: a controller's request is
// authenticated as the controller's service account, audited, authorized by RBAC
// (through the bootstrap controller roles) and admitted, as upstream's controllers'
// requests through their loopback/service-account clients are.
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request, startReplicas, type Cluster, readAuditLog } from '../harness/index.js';

interface Ev {
  stage: string; verb: string; requestURI: string; userAgent?: string;
  user: { username: string; groups?: string[] };
  objectRef?: Record<string, string>; responseStatus?: { code: number };
  annotations?: Record<string, string>; sourceIPs?: string[];
}

const policy = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
- level: None
  nonResourceURLs: ['/healthz*', '/readyz*', '/livez*']
- level: Metadata
`;

describe('controllers write through the loopback client', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let dir: string;
  const events = (): Ev[] => readAuditLog<Ev>(join(dir, 'audit.log'));
  const admin = (method: string, path: string, body?: unknown) =>
    request<Record<string, unknown>>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body });
  const eventually = async <T>(fn: () => T | undefined | Promise<T | undefined>, ms = 15_000): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const v = await fn();
      if (v !== undefined) return v;
      if (Date.now() > end) throw new Error('condition not met');
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loopback-it-'));
    writeFileSync(join(dir, 'policy.yaml'), policy);
    cluster = await startReplicas(1, {
      authorizationMode: 'RBAC',
      extraArgs: [`--audit-policy-file=${join(dir, 'policy.yaml')}`, `--audit-log-path=${join(dir, 'audit.log')}`],
    });
  });
  after(async () => {
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the serviceaccount controller creates `default` as its own service account, audited and authorized by RBAC', async () => {
    const ns = `lb-${Date.now().toString(36)}`;
    expect((await admin('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
    await eventually(async () => ((await admin('GET', `/api/v1/namespaces/${ns}/serviceaccounts/default`)).status === 200 ? true : undefined));

    const ev = await eventually(() => events().find((e) => e.verb === 'create' && e.objectRef?.resource === 'serviceaccounts'
      && e.objectRef.namespace === ns && e.stage === 'ResponseComplete'));
    expect(ev.user.username).to.equal('system:serviceaccount:kube-system:service-account-controller');
    expect(ev.user.groups).to.include.members(['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated']);
    expect(ev.userAgent).to.match(/^kube-controller-manager\/v1\.28\.\d+ \(\w+\/\w+\) kubernetes\/[0-9a-f]{7}\/service-account-controller$/);
    expect(ev.requestURI).to.equal(`/api/v1/namespaces/${ns}/serviceaccounts`);
    expect(ev.responseStatus?.code).to.equal(201);
    expect(ev.annotations).to.include({ 'authorization.k8s.io/decision': 'allow' });
    expect(ev.annotations?.['authorization.k8s.io/reason']).to.contain('system:controller:service-account-controller');
  });

  it('bootstrap objects are written by system:apiserver through the same chain', () => {
    const ev = events().find((e) => e.verb === 'create' && e.objectRef?.resource === 'namespaces' && e.objectRef.name === 'kube-system');
    expect(ev, 'kube-system namespace create').to.not.equal(undefined);
    expect(ev!.user).to.deep.equal({ username: 'system:apiserver', groups: ['system:masters'] });
    expect(ev!.userAgent).to.match(/^kube-apiserver\/v1\.28\.\d+ /);
    expect(ev!.responseStatus?.code).to.equal(201);
    const role = events().find((e) => e.verb === 'create' && e.objectRef?.resource === 'clusterroles' && e.objectRef.name === 'system:controller:namespace-controller');
    expect(role?.user.username).to.equal('system:apiserver');
  });

  it('the leader Lease is held by system:kube-controller-manager', () => {
    const ev = events().find((e) => e.objectRef?.resource === 'leases' && e.objectRef.name === 'kube-controller-manager' && ['create', 'update'].includes(e.verb));
    expect(ev?.user.username).to.equal('system:kube-controller-manager');
    expect(ev?.userAgent).to.match(/\/leader-election$/);
  });
});
