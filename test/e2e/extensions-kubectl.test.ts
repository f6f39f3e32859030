// Webhook configurations and CertificateSigningRequests driven by the real kubectl v1.28
// through two replicas: apply, get (server tables), describe, certificate approve/deny
// (the approval subresource), delete.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectlOn, startReplicas, type Cluster } from '../harness/index.js';
import { surfaceDir } from '../harness/surface-objects.js';

describe('e2e kubectl: extension groups', function () {
  this.timeout(180_000);
  let cluster: Cluster;
  const { k, ok } = kubectlOn(() => cluster);
  const fixture = (name: string) => readFileSync(join(surfaceDir, 'objects', `${name}.request.json`), 'utf8');

  before(async () => { cluster = await startReplicas(2); });
  after(async () => { await cluster?.stop(); });

  it('applies, gets, describes and deletes webhook configurations', async () => {
    expect(await ok(['apply', '-f', '-'], fixture('admissionregistration.k8s.io_v1.MutatingWebhookConfiguration.fixtures-mwc')))
      .to.equal('mutatingwebhookconfiguration.admissionregistration.k8s.io/fixtures-mwc created\n');
    expect(await ok(['apply', '-f', '-'], fixture('admissionregistration.k8s.io_v1.ValidatingWebhookConfiguration.fixtures-vwc'), 1))
      .to.equal('validatingwebhookconfiguration.admissionregistration.k8s.io/fixtures-vwc created\n');
    const out = await ok(['get', 'mutatingwebhookconfigurations'], undefined, 1);
    expect(out.split('\n')[0].split(/\s+/)).to.deep.equal(['NAME', 'WEBHOOKS', 'AGE']);
    expect(out).to.match(/^fixtures-mwc\s+1\s+\d+s$/m);
    const desc = await ok(['describe', 'validatingwebhookconfiguration', 'fixtures-vwc']);
    expect(desc).to.match(/Name:\s+fixtures-vwc/);
    expect(desc).to.match(/Failure Policy:\s+Fail/);
    expect(desc).to.match(/Timeout Seconds:\s+10/);
    const bad = await k(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'bad' }, webhooks: [{ name: 'bad', admissionReviewVersions: ['v1'], sideEffects: 'None', clientConfig: { url: 'https://h' } }] }));
    expect(bad.code).to.not.equal(0);
    expect(bad.stderr).to.include('webhooks[0].name: Invalid value: "bad": should be a domain with at least three segments separated by dots');
    expect(await ok(['delete', 'mutatingwebhookconfiguration', 'fixtures-mwc'], undefined, 1))
      .to.equal('mutatingwebhookconfiguration.admissionregistration.k8s.io "fixtures-mwc" deleted\n');
    expect(await ok(['delete', 'validatingwebhookconfiguration', 'fixtures-vwc']))
      .to.equal('validatingwebhookconfiguration.admissionregistration.k8s.io "fixtures-vwc" deleted\n');
  });

  it('applies CSRs, approves one and denies another with kubectl certificate, shows them, deletes them', async () => {
    const csr = JSON.parse(fixture('certificates.k8s.io_v1.CertificateSigningRequest.fixtures-csr'));
    expect(await ok(['apply', '-f', '-'], JSON.stringify(csr)))
      .to.equal('certificatesigningrequest.certificates.k8s.io/fixtures-csr created\n');
    csr.metadata.name = 'fixtures-csr-2';
    expect(await ok(['create', '-f', '-'], JSON.stringify(csr), 1))
      .to.equal('certificatesigningrequest.certificates.k8s.io/fixtures-csr-2 created\n');
    expect(await ok(['certificate', 'approve', 'fixtures-csr'], undefined, 1))
      .to.equal('certificatesigningrequest.certificates.k8s.io/fixtures-csr approved\n');
    expect(await ok(['certificate', 'deny', 'fixtures-csr-2']))
      .to.equal('certificatesigningrequest.certificates.k8s.io/fixtures-csr-2 denied\n');
    const out = await ok(['get', 'csr']);
    expect(out.split('\n')[0].split(/\s+/)).to.deep.equal(['NAME', 'AGE', 'SIGNERNAME', 'REQUESTOR', 'REQUESTEDDURATION', 'CONDITION']);
    expect(out).to.match(/^fixtures-csr\s+\d+s\s+kubernetes\.io\/kube-apiserver-client\s+admin\s+60m\s+Approved$/m);
    expect(out).to.match(/^fixtures-csr-2\s+\d+s\s+kubernetes\.io\/kube-apiserver-client\s+admin\s+60m\s+Denied$/m);
    const approved = JSON.parse(await ok(['get', 'csr', 'fixtures-csr', '-o', 'json'], undefined, 1));
    expect(approved.status.conditions.map((c: { type: string; reason: string }) => [c.type, c.reason])).to.deep.equal([['Approved', 'KubectlApprove']]);
    const desc = await ok(['describe', 'csr', 'fixtures-csr']);
    expect(desc).to.match(/Requesting User:\s+admin/);
    expect(desc).to.match(/Signer:\s+kubernetes\.io\/kube-apiserver-client/);
    expect(desc).to.match(/Status:\s+Approved/);
    // Approving a denied request is refused by the server (both conditions).
    const both = await k(['certificate', 'approve', 'fixtures-csr-2']);
    expect(both.code).to.not.equal(0);
    expect(await ok(['delete', 'csr', 'fixtures-csr', 'fixtures-csr-2']))
      .to.equal('certificatesigningrequest.certificates.k8s.io "fixtures-csr" deleted\ncertificatesigningrequest.certificates.k8s.io "fixtures-csr-2" deleted\n');
  });
});
