// The CertificateSigningRequest lifecycle (SPEC 3.2) on two RBAC replicas, cell by cell:
// create (pending), approve and deny through /approval (CertificateApproval), the
// in-process signer issuing or refusing (Failed), an external signer writing /status
// (CertificateSigning), CertificateSubjectRestriction, the legacy signer in v1, and
// csrapproving for kubelet client requests. Requests are made through one replica and
// watched through the other.
import { expect } from 'chai';
import { X509Certificate } from 'node:crypto';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';
import { csrBody, makeRequest } from './csr-helpers.js';

type CSR = { metadata: { name: string; resourceVersion: string }; spec: Record<string, unknown>;
  status: { certificate?: string; conditions?: Array<Record<string, string>> } };

const api = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const rbac = '/apis/rbac.authorization.k8s.io/v1';
const client = 'kubernetes.io/kube-apiserver-client';

describe('certificate signing requests: the SPEC 3.2 state table', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const tokens = [
    { token: 'alice-token', name: 'alice', groups: ['devs'] },
    { token: 'approver-token', name: 'approver' },
    { token: 'noapprove-token', name: 'noapprove' },
    { token: 'signer-token', name: 'signer' },
    { token: 'nosign-token', name: 'nosign' },
    { token: 'bootstrap-token', name: 'system:bootstrap:abcdef', groups: ['system:bootstrappers'] },
    { token: 'node-token', name: 'system:node:n1', groups: ['system:nodes'] },
  ];

  const call = (i: number, user: string, path: string, method = 'GET', body?: unknown): Promise<HttpResponse> =>
    request(`${cluster.urls[i]}${path}`, { ...cluster.credentialsFor(user), method, ...(body === undefined ? {} : { body }) });
  const get = async (name: string, i = 1): Promise<CSR> => (await call(i, 'admin', `${api}/${name}`)).body as CSR;
  const eventually = async <T>(fn: () => Promise<T | undefined>, what: string, ms = 15_000): Promise<T> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const v = await fn();
      if (v !== undefined) return v;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  const issued = (name: string) => eventually(async () => {
    const c = await get(name);
    return c.status.certificate ? c : undefined;
  }, `${name} to be issued`);
  const withCondition = (name: string, type: string) => eventually(async () => {
    const c = await get(name);
    return c.status.conditions?.some((x) => x.type === type) ? c : undefined;
  }, `${name} to get ${type}`);
  const setCondition = async (i: number, user: string, name: string, type: string): Promise<HttpResponse> => {
    const c = await get(name, i);
    c.status.conditions = [...(c.status.conditions ?? []), { type, status: 'True', reason: 'Test', message: `${type} by test` }];
    return call(i, user, `${api}/${name}/approval`, 'PUT', c);
  };
  const create = async (user: string, name: string, subject: Parameters<typeof makeRequest>[0], signer: string,
    usages: string[], expirationSeconds?: number) => {
    const k = await makeRequest(subject);
    const r = await call(0, user, api, 'POST', csrBody(name, k.request, signer, usages, expirationSeconds));
    return { ...k, res: r };
  };
  const role = (name: string, rules: unknown[]) => call(0, 'admin', `${rbac}/clusterroles`, 'POST', { metadata: { name }, rules });
  const bind = (name: string, roleName: string, user: string, kind = 'User') => call(0, 'admin', `${rbac}/clusterrolebindings`, 'POST', {
    metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind, name: user }],
  });
  const csrRule = { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['create', 'get', 'list', 'watch'] };

  before(async () => {
    cluster = await startReplicas(2, {
      authorizationMode: 'RBAC', tokens,
      extraArgs: (_i, pki) => [`--cluster-signing-cert-file=${pki.ca.certFile}`, `--cluster-signing-key-file=${pki.ca.keyFile}`],
    });
    const setup: Array<Promise<HttpResponse>> = [
      role('t-requester', [csrRule]),
      role('t-approver', [csrRule,
        { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/approval'], verbs: ['update'] },
        { apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: [client], verbs: ['approve'] }]),
      role('t-noapprove', [csrRule,
        { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/approval'], verbs: ['update'] }]),
      role('t-signer', [csrRule,
        { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/status'], verbs: ['update'] },
        { apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['example.com/*'], verbs: ['sign'] }]),
      role('t-nosign', [csrRule,
        { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/status'], verbs: ['update'] }]),
    ];
    for (const r of await Promise.all(setup)) expect(r.status, r.text).to.equal(201);
    const bindings = await Promise.all([
      bind('t-alice', 't-requester', 'alice'), bind('t-approver', 't-approver', 'approver'),
      bind('t-noapprove', 't-noapprove', 'noapprove'), bind('t-signer', 't-signer', 'signer'), bind('t-nosign', 't-nosign', 'nosign'),
      bind('t-bootstrap', 'system:node-bootstrapper', 'system:bootstrappers', 'Group'),
      bind('t-bootstrap-approve', 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', 'system:bootstrappers', 'Group'),
      bind('t-node', 'system:node-bootstrapper', 'system:nodes', 'Group'),
      bind('t-node-renew', 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', 'system:nodes', 'Group'),
    ]);
    for (const r of bindings) expect(r.status, r.text).to.equal(201);
    // RBAC reaches both replicas' caches.
    await eventually(async () => ((await call(1, 'alice', api)).status === 200 ? true : undefined), 'RBAC on replica 1');
  });
  after(async () => { await cluster?.stop(); });

  it('create: pending, the requester from the credentials, no certificate', async () => {
    const { res } = await create('alice', 'pending-1', { cn: 'alice-cert', organizations: ['devs'] }, client, ['client auth']);
    expect(res.status, res.text).to.equal(201);
    const c = res.body as CSR;
    expect(c.spec).to.include({ username: 'alice', uid: 'alice' });
    expect(c.spec.groups).to.deep.equal(['devs', 'system:authenticated']);
    expect(c.status).to.deep.equal({});
    await new Promise((r) => setTimeout(r, 500));
    expect((await get('pending-1')).status).to.deep.equal({});
  });

  it('pending → approved → issued: the certificate logs in to the other replica as its subject', async () => {
    const { res, key } = await create('alice', 'issue-1', { cn: 'alice-cert', organizations: ['devs', 'team-a'] }, client,
      ['digital signature', 'client auth'], 3600);
    expect(res.status, res.text).to.equal(201);
    const approved = await setCondition(1, 'approver', 'issue-1', 'Approved');
    expect(approved.status, approved.text).to.equal(200);
    const c = await issued('issue-1');
    expect(c.status.conditions?.map((x) => x.type)).to.deep.equal(['Approved']);
    const pem = Buffer.from(c.status.certificate!, 'base64').toString();
    const cert = new X509Certificate(pem);
    expect(cert.verify(new X509Certificate(cluster.pki.ca.cert).publicKey)).to.equal(true);
    expect(cert.subject.split('\n')).to.deep.equal(['O=devs', 'O=team-a', 'CN=alice-cert']);
    expect(cert.ca).to.equal(false);
    const notBefore = Date.parse(cert.validFrom);
    const notAfter = Date.parse(cert.validTo);
    // Backdated 5 minutes; a lifetime under 8 hours is not shortened by the backdate.
    expect(notAfter - notBefore).to.be.closeTo(3600_000 + 5 * 60_000, 2000);
    expect(Math.abs(notBefore - (Date.now() - 5 * 60_000))).to.be.below(60_000);
    expect(cert.keyUsage).to.deep.equal(['1.3.6.1.5.5.7.3.2']);

    const who = await request(`${cluster.urls[1]}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
      ca: cluster.pki.ca.cert, cert: pem, key, method: 'POST',
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
    expect(who.status, who.text).to.equal(201);
    expect((who.body as { status: { userInfo: unknown } }).status.userInfo).to.deep.equal({
      username: 'alice-cert', groups: ['devs', 'team-a', 'system:authenticated'],
    });
  });

  it('pending → denied: the signer does not sign', async () => {
    expect((await create('alice', 'deny-1', { cn: 'x' }, client, ['client auth'])).res.status).to.equal(201);
    const denied = await setCondition(1, 'approver', 'deny-1', 'Denied');
    expect(denied.status, denied.text).to.equal(200);
    expect((denied.body as CSR).status.conditions?.[0]).to.include({ type: 'Denied', status: 'True', reason: 'Test' });
    await new Promise((r) => setTimeout(r, 1000));
    const c = await get('deny-1');
    expect(c.status.certificate).to.equal(undefined);
    expect(c.status.conditions?.map((x) => x.type)).to.deep.equal(['Denied']);
    // Approved and Denied together are refused.
    const both = await setCondition(0, 'approver', 'deny-1', 'Approved');
    expect(both.status).to.equal(422);
    expect((both.body as { message: string }).message).to.contain('Approved and Denied conditions are mutually exclusive');
  });

  it('refused: approving without `approve` on the signer (CertificateApproval)', async () => {
    expect((await create('alice', 'noapprove-1', { cn: 'x' }, client, ['client auth'])).res.status).to.equal(201);
    const r = await setCondition(1, 'noapprove', 'noapprove-1', 'Approved');
    expect(r.status).to.equal(403);
    expect(r.body).to.include({ reason: 'Forbidden',
      message: `certificatesigningrequests.certificates.k8s.io "noapprove-1" is forbidden: user not permitted to approve requests with signerName "${client}"` });
    // The requester has no update on /approval at all: RBAC refuses before admission.
    expect((await setCondition(0, 'alice', 'noapprove-1', 'Approved')).status).to.equal(403);
    expect((await get('noapprove-1')).status).to.deep.equal({});
  });

  it('approved → failed: the signer refuses usages and subjects its rules forbid', async () => {
    const cases: Array<[string, Parameters<typeof makeRequest>[0], string, string[], string]> = [
      ['fail-usage', { cn: 'x' }, client, ['client auth', 'server auth'], 'invalid usage for client certificate: server auth'],
      ['fail-noclient', { cn: 'x' }, client, ['digital signature'], 'missing required usage for client certificate: client auth'],
      ['fail-serving', { cn: 'system:node:n1', organizations: ['system:nodes'] }, 'kubernetes.io/kubelet-serving',
        ['digital signature', 'server auth'], 'DNS or IP subjectAltName is required'],
      ['fail-kubelet', { cn: 'n1', organizations: ['system:nodes'] }, 'kubernetes.io/kube-apiserver-client-kubelet',
        ['digital signature', 'client auth'], "subject common name does not begin with 'system:node:'"],
    ];
    for (const [name, subject, signer, usages] of cases) {
      const { res } = await create('admin', name, subject, signer, usages);
      expect(res.status, res.text).to.equal(201);
      expect((await setCondition(0, 'admin', name, 'Approved')).status).to.equal(200);
    }
    for (const [name, , , , message] of cases) {
      const c = await withCondition(name, 'Failed');
      expect(c.status.certificate).to.equal(undefined);
      const failed = c.status.conditions!.find((x) => x.type === 'Failed')!;
      expect(failed).to.include({ status: 'True', reason: 'SignerValidationFailure', message });
      expect(failed.lastUpdateTime).to.be.a('string');
    }
  });

  it('kubelet-serving requests that follow the rules are issued with their names', async () => {
    const { res } = await create('admin', 'serving-1', { cn: 'system:node:n1', organizations: ['system:nodes'], dnsNames: ['n1.example'], ipAddresses: ['10.1.2.3'] },
      'kubernetes.io/kubelet-serving', ['digital signature', 'key encipherment', 'server auth']);
    expect(res.status, res.text).to.equal(201);
    expect((await setCondition(1, 'admin', 'serving-1', 'Approved')).status).to.equal(200);
    const cert = new X509Certificate(Buffer.from((await issued('serving-1')).status.certificate!, 'base64'));
    expect(cert.subjectAltName).to.equal('DNS:n1.example, IP Address:10.1.2.3');
    expect(cert.keyUsage).to.deep.equal(['1.3.6.1.5.5.7.3.1']);
    // Without expirationSeconds: --cluster-signing-duration (a year), less the backdate, capped by the CA.
    const life = Date.parse(cert.validTo) - Date.parse(cert.validFrom);
    expect(life).to.be.closeTo(365 * 24 * 3600_000, 2000);
  });

  it('refused: the legacy signer in v1, and system:masters for kube-apiserver-client (CertificateSubjectRestriction)', async () => {
    const legacy = await create('admin', 'legacy-1', { cn: 'x' }, 'kubernetes.io/legacy-unknown', ['client auth']);
    expect(legacy.res.status).to.equal(422);
    expect((legacy.res.body as { message: string }).message).to.equal('CertificateSigningRequest.certificates.k8s.io "legacy-1" is invalid: '
      + 'spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version');
    const masters = await create('admin', 'masters-1', { cn: 'evil', organizations: ['system:masters'] }, client, ['client auth']);
    expect(masters.res.status).to.equal(403);
    expect(masters.res.body).to.include({ reason: 'Forbidden', message: 'certificatesigningrequests.certificates.k8s.io "masters-1" is forbidden: '
      + `use of ${client} signer with system:masters group is not allowed` });
    // Other signers may carry the group: the restriction is for kube-apiserver-client only.
    expect((await create('admin', 'masters-2', { cn: 'x', organizations: ['system:masters'] }, 'example.com/foo', ['client auth'])).res.status).to.equal(201);
  });

  it('an external signer: /status needs `sign` on the signer (CertificateSigning); a wildcard grant suffices', async () => {
    expect((await create('alice', 'ext-1', { cn: 'ext' }, 'example.com/foo', ['client auth'])).res.status).to.equal(201);
    expect((await setCondition(0, 'admin', 'ext-1', 'Approved')).status).to.equal(200);
    const cert = cluster.pki.clients.get('admin')!.cert;
    const put = async (i: number, user: string) => {
      const c = await get('ext-1', i);
      c.status.certificate = Buffer.from(cert).toString('base64');
      return call(i, user, `${api}/ext-1/status`, 'PUT', c);
    };
    const refused = await put(1, 'nosign');
    expect(refused.status).to.equal(403);
    expect(refused.body).to.include({
      message: 'certificatesigningrequests.certificates.k8s.io "ext-1" is forbidden: user not permitted to sign requests with signerName "example.com/foo"' });
    const ok = await put(0, 'signer');
    expect(ok.status, ok.text).to.equal(200);
    expect(Buffer.from((ok.body as CSR).status.certificate!, 'base64').toString()).to.equal(cert);
    expect((ok.body as CSR).status.conditions?.map((x) => x.type)).to.deep.equal(['Approved']);
  });

  it('csrapproving: kubelet client requests are approved for nodeclient (bootstrap) and selfnodeclient (renewal), then issued', async () => {
    const usages = ['digital signature', 'key encipherment', 'client auth'];
    const kubelet = 'kubernetes.io/kube-apiserver-client-kubelet';
    const boot = await create('system:bootstrap:abcdef', 'node-csr-boot', { cn: 'system:node:n2', organizations: ['system:nodes'] }, kubelet, usages);
    expect(boot.res.status, boot.res.text).to.equal(201);
    const renew = await create('system:node:n1', 'node-csr-renew', { cn: 'system:node:n1', organizations: ['system:nodes'] }, kubelet, usages);
    expect(renew.res.status, renew.res.text).to.equal(201);
    // A node asking for another node's name is not its own renewal, and it lacks nodeclient.
    const other = await create('system:node:n1', 'node-csr-other', { cn: 'system:node:n3', organizations: ['system:nodes'] }, kubelet, usages);
    expect(other.res.status, other.res.text).to.equal(201);

    const b = await issued('node-csr-boot');
    expect(b.status.conditions?.[0]).to.include({ type: 'Approved', status: 'True', reason: 'AutoApproved',
      message: 'Auto approving kubelet client certificate after SubjectAccessReview.' });
    const r = await issued('node-csr-renew');
    expect(r.status.conditions?.[0]).to.include({ type: 'Approved', reason: 'AutoApproved',
      message: 'Auto approving self kubelet client certificate after SubjectAccessReview.' });
    expect(new X509Certificate(Buffer.from(r.status.certificate!, 'base64')).subject.split('\n')).to.deep.equal(['O=system:nodes', 'CN=system:node:n1']);
    await new Promise((res) => setTimeout(res, 1000));
    expect((await get('node-csr-other')).status).to.deep.equal({});
  });
});
