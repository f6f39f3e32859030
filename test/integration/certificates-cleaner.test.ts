// csrcleaner with shortened timings (--csr-cleaner-durations): denied and failed requests
// go first, an issued request whose certificate has expired at the next poll, then
// issued requests some time after approval, and pending ones after their own deadline.
import { expect } from 'chai';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { request, startReplicas, type Cluster } from '../harness/index.js';
import { csrBody, makeRequest } from './csr-helpers.js';

const api = '/apis/certificates.k8s.io/v1/certificatesigningrequests';

describe('csrcleaner: requests are deleted on schedule', function () {
  this.timeout(90_000);
  let cluster: Cluster;

  before(async () => {
    cluster = await startReplicas(2, {
      extraArgs: (_i, pki) => [`--cluster-signing-cert-file=${pki.ca.certFile}`, `--cluster-signing-key-file=${pki.ca.keyFile}`,
        '--csr-cleaner-durations=approved=5s,denied=1s,pending=8s,poll=250ms'],
    });
  });
  after(async () => { await cluster?.stop(); });

  const call = (i: number, path: string, method = 'GET', body?: unknown) =>
    request(`${cluster.urls[i]}${path}`, { ...cluster.credentialsFor('admin'), method, ...(body === undefined ? {} : { body }) });
  const exists = async (name: string) => (await call(1, `${api}/${name}`)).status === 200;
  const create = async (name: string, signer: string, usages: string[]) => {
    const k = await makeRequest({ cn: name });
    const r = await call(0, api, 'POST', csrBody(name, k.request, signer, usages));
    expect(r.status, r.text).to.equal(201);
  };
  const condition = async (name: string, type: string) => {
    const c = (await call(0, `${api}/${name}`)).body as { status: { conditions?: unknown[] } };
    c.status.conditions = [{ type, status: 'True', reason: 'Test' }];
    const r = await call(0, `${api}/${name}/approval`, 'PUT', c);
    expect(r.status, r.text).to.equal(200);
  };
  const waitGone = async (name: string, ms: number) => {
    const deadline = Date.now() + ms;
    while (await exists(name)) {
      if (Date.now() > deadline) throw new Error(`${name} was not deleted within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('deletes denied, failed and expired requests first, then issued and pending ones', async () => {
    const started = Date.now();
    const client = 'kubernetes.io/kube-apiserver-client';
    await create('c-pending', client, ['client auth']);
    await create('c-denied', client, ['client auth']);
    await condition('c-denied', 'Denied');
    await create('c-failed', client, ['server auth']);
    await condition('c-failed', 'Approved');
    await create('c-issued', client, ['client auth']);
    await condition('c-issued', 'Approved');
    // An external signer's certificate that has already expired.
    await create('c-expired', 'example.com/x', ['client auth']);
    await condition('c-expired', 'Approved');
    const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const old = await x509.X509CertificateGenerator.createSelfSigned({
      name: 'CN=old', keys, signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
      notBefore: new Date(Date.now() - 7200_000), notAfter: new Date(Date.now() - 3600_000),
    });
    const c = (await call(0, `${api}/c-expired`)).body as { status: Record<string, unknown> };
    c.status.certificate = Buffer.from(old.toString('pem')).toString('base64');
    expect((await call(0, `${api}/c-expired/status`, 'PUT', c)).status).to.equal(200);

    await waitGone('c-expired', 2000);
    await waitGone('c-denied', 4000);
    await waitGone('c-failed', 4000);
    expect(Date.now() - started).to.be.below(5000);
    // Issued (not expired) and pending requests are not due yet.
    expect(await exists('c-issued')).to.equal(true);
    expect(await exists('c-pending')).to.equal(true);
    const issued = (await call(1, `${api}/c-issued`)).body as { status: { certificate?: string } };
    expect(issued.status.certificate).to.be.a('string');

    await waitGone('c-issued', 8000);
    expect(Date.now() - started).to.be.above(4000);
    expect(await exists('c-pending')).to.equal(true);
    await waitGone('c-pending', 8000);
    expect(Date.now() - started).to.be.above(7000);
  });
});
