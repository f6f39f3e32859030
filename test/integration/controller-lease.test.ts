// The controller-manager seam: the elected replica holds upstream's Lease
// kube-system/kube-controller-manager and renews it; while someone else (an upstream
// kube-controller-manager, played here by the test) holds it, no replica runs
// controllers (an approved CSR stays unsigned); once that holder stops renewing, the
// replicas take the Lease back and the request is signed. kube-apiserver's own loops (CRD
// status here) keep running meanwhile.
import { expect } from 'chai';
import { request, startReplicas, until, type Cluster } from '../harness/index.js';
import { csrBody, makeRequest } from './csr-helpers.js';

const leasePath = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager';
const api = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
type Lease = { metadata: { resourceVersion: string }; spec: Record<string, unknown> };

describe('controller leader election through the kube-controller-manager Lease', function () {
  this.timeout(120_000);
  let cluster: Cluster;

  before(async () => {
    cluster = await startReplicas(2, {
      extraArgs: (_i, pki) => [`--cluster-signing-cert-file=${pki.ca.certFile}`, `--cluster-signing-key-file=${pki.ca.keyFile}`],
    });
  });
  after(async () => { await cluster?.stop(); });

  const call = (path: string, method = 'GET', body?: unknown, i = 0) =>
    request(`${cluster.urls[i]}${path}`, { ...cluster.credentialsFor('admin'), method, ...(body === undefined ? {} : { body }) });
  const lease = async (): Promise<Lease | undefined> => {
    const r = await call(leasePath);
    return r.status === 200 ? (r.body as Lease) : undefined;
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const micro = () => new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

  it('holds and renews the Lease, yields to another holder, and takes it back when that holder stops', async () => {
    let held: Lease | undefined;
    for (let i = 0; i < 50 && !held?.spec.holderIdentity; i++) { held = await lease(); await sleep(200); }
    expect(held?.spec).to.include({ leaseDurationSeconds: 15 });
    const ours = held!.spec.holderIdentity as string;
    expect(ours).to.match(/_[0-9a-f-]{36}$/);
    // Renewed every 2 s (upstream's retry period): well before the 15 s lease runs out, even
    // when CI's load delays one renewal past a fixed pause.
    const renewed = await until('a renewal', async () => {
      const l = (await lease())!;
      return Date.parse(l.spec.renewTime as string) > Date.parse(held!.spec.renewTime as string) && l;
    }, 10_000, 200);
    expect(renewed.spec.holderIdentity).to.equal(ours);

    // "Upstream" takes the Lease and keeps renewing it.
    let upstream = true;
    const renewAsUpstream = async () => {
      while (upstream) {
        const l = (await lease())!;
        const spec = { ...l.spec, holderIdentity: 'upstream-kcm', leaseDurationSeconds: 15, renewTime: micro() };
        await call(leasePath, 'PUT', { ...l, spec });
        await sleep(1000);
      }
    };
    const renewing = renewAsUpstream();
    await sleep(5000);
    expect((await lease())!.spec.holderIdentity).to.equal('upstream-kcm');

    const { request: pem } = await makeRequest({ cn: 'lease-test' });
    expect((await call(api, 'POST', csrBody('lease-1', pem, 'kubernetes.io/kube-apiserver-client', ['client auth']))).status).to.equal(201);
    const c = (await call(`${api}/lease-1`)).body as { status: { conditions?: unknown[] } };
    c.status.conditions = [{ type: 'Approved', status: 'True', reason: 'Test' }];
    expect((await call(`${api}/lease-1/approval`, 'PUT', c)).status).to.equal(200);
    // kube-apiserver's own loops are not kube-controller-manager's: a CRD still gets
    // established while upstream holds the Lease.
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gizmos.lease.example.com' },
      spec: { group: 'lease.example.com', scope: 'Namespaced', names: { plural: 'gizmos', kind: 'Gizmo' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] },
    };
    expect((await call('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', 'POST', crd)).status).to.equal(201);
    await sleep(3000);
    expect(((await call(`${api}/lease-1`, 'GET', undefined, 1)).body as { status: Record<string, unknown> }).status.certificate).to.equal(undefined);
    // The establishing controller writes the condition in its own time (at CI's load, maybe after the pause above).
    const established = async () => {
      const got = (await call('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.lease.example.com', 'GET', undefined, 1)).body as
        { status: { conditions?: Array<{ type: string; status: string }> } };
      return (got.status.conditions ?? []).some((x) => x.type === 'Established' && x.status === 'True');
    };
    await until('gizmos established while upstream holds the Lease', established, 20_000, 100);

    upstream = false;
    await renewing;
    const deadline = Date.now() + 30_000;
    let back: Lease | undefined;
    while (Date.now() < deadline) {
      back = await lease();
      if (back?.spec.holderIdentity !== 'upstream-kcm') break;
      await sleep(500);
    }
    expect(back?.spec.holderIdentity).to.match(/_[0-9a-f-]{36}$/);
    expect(back!.spec.leaseTransitions).to.be.at.least(1);
    let cert: unknown;
    while (Date.now() < deadline && !cert) {
      cert = ((await call(`${api}/lease-1`, 'GET', undefined, 1)).body as { status: Record<string, unknown> }).status.certificate;
      await sleep(300);
    }
    expect(cert).to.be.a('string');
  });
});
