// Certificates end to end with the real kubectl v1.28 on two replicas: a user's CSR
// applied, approved with `kubectl certificate approve`, signed by the in-process signer,
// and the issued certificate used from a fresh kubeconfig against the other replica;
// `kubectl certificate deny` leaves a request unsigned.
import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { kubectl, startReplicas, writeKubeconfig, type Cluster } from '../harness/index.js';
import { csrBody, makeRequest } from '../integration/csr-helpers.js';

describe('e2e certificates with kubectl', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'certs-e2e-'));
    cluster = await startReplicas(2, {
      authorizationMode: 'RBAC',
      extraArgs: (_i, pki) => [`--cluster-signing-cert-file=${pki.ca.certFile}`, `--cluster-signing-key-file=${pki.ca.keyFile}`],
    });
  });
  after(async () => {
    await cluster?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const waitFor = async (args: string[], ok: (out: string) => boolean, what: string): Promise<string> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const r = await kubectl(args, { kubeconfig: cluster.kubeconfigFor(1) });
      if (r.code === 0 && ok(r.stdout)) return r.stdout;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${r.stdout}${r.stderr}`);
      await new Promise((res) => setTimeout(res, 250));
    }
  };

  it('apply, approve, read status.certificate, and log in with it on the other replica', async () => {
    const admin = cluster.kubeconfigFor(0);
    const { request, key } = await makeRequest({ cn: 'jane', organizations: ['qa', 'release'] });
    const applied = await kubectl(['apply', '-f', '-'], {
      kubeconfig: admin, stdin: stringify(csrBody('jane', request, 'kubernetes.io/kube-apiserver-client', ['client auth'], 86400)),
    });
    expect(applied.code, applied.stderr).to.equal(0);
    expect(applied.stdout.trim()).to.equal('certificatesigningrequest.certificates.k8s.io/jane created');
    const pending = await kubectl(['get', 'csr', 'jane', '--no-headers'], { kubeconfig: admin });
    expect(pending.stdout.trim().split(/\s+/).slice(2)).to.deep.equal(['kubernetes.io/kube-apiserver-client', 'admin', '24h', 'Pending']);

    const approve = await kubectl(['certificate', 'approve', 'jane'], { kubeconfig: admin });
    expect(approve.code, approve.stderr).to.equal(0);
    expect(approve.stdout.trim()).to.equal('certificatesigningrequest.certificates.k8s.io/jane approved');
    await waitFor(['get', 'csr', 'jane', '--no-headers'], (out) => out.trim().endsWith('Approved,Issued'), 'Approved,Issued');
    const cert = Buffer.from(await waitFor(['get', 'csr', 'jane', '-o', 'jsonpath={.status.certificate}'], (out) => out.length > 0, 'the certificate'), 'base64').toString();
    expect(cert).to.match(/^-----BEGIN CERTIFICATE-----\n/);

    const kubeconfig = writeKubeconfig(join(dir, 'jane.kubeconfig'), { server: cluster.urls[1]!, ca: cluster.pki.ca.cert, user: { name: 'jane', cert, key } });
    const who = await kubectl(['auth', 'whoami', '-o', 'json'], { kubeconfig });
    expect(who.code, who.stderr).to.equal(0);
    expect((JSON.parse(who.stdout) as { status: { userInfo: unknown } }).status.userInfo).to.deep.equal({
      username: 'jane', groups: ['qa', 'release', 'system:authenticated'],
    });
    // Authenticated, but RBAC grants jane nothing.
    const denied = await kubectl(['get', 'namespaces'], { kubeconfig });
    expect(denied.code).to.not.equal(0);
    expect(denied.stderr).to.contain('User "jane" cannot list resource "namespaces"');
  });

  it('kubectl certificate deny: Denied, never issued', async () => {
    const admin = cluster.kubeconfigFor(0);
    const { request } = await makeRequest({ cn: 'joe' });
    expect((await kubectl(['apply', '-f', '-'], {
      kubeconfig: admin, stdin: stringify(csrBody('joe', request, 'kubernetes.io/kube-apiserver-client', ['client auth'])),
    })).code).to.equal(0);
    const deny = await kubectl(['certificate', 'deny', 'joe'], { kubeconfig: admin });
    expect(deny.code, deny.stderr).to.equal(0);
    expect(deny.stdout.trim()).to.equal('certificatesigningrequest.certificates.k8s.io/joe denied');
    await waitFor(['get', 'csr', 'joe', '--no-headers'], (out) => out.trim().endsWith('Denied'), 'Denied');
    await new Promise((res) => setTimeout(res, 1000));
    const out = await kubectl(['get', 'csr', 'joe', '-o', 'jsonpath={.status.certificate}|{.status.conditions[*].type}'], { kubeconfig: cluster.kubeconfigFor(1) });
    expect(out.stdout).to.equal('|Denied');
    // kubectl will not approve a denied request, even forced (the server would refuse it too:
    // test/integration/certificates.test.ts).
    for (const extra of [[], ['--force']]) {
      const again = await kubectl(['certificate', 'approve', 'joe', ...extra], { kubeconfig: admin });
      expect(again.code).to.not.equal(0);
      expect(again.stderr).to.contain('certificate signing request "joe" is already Denied');
    }
  });
});
