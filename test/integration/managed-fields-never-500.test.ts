// Managed fields never turn a client's write into a 500 (issue 27): random conditions
// lists and associative lists (keys missing, repeated, of the wrong type, items that are
// not objects) sent by update, JSON patch, merge patch, strategic merge patch and apply to
// a CRD's status, a CSR's approval and a Deployment (containers, ports, status
// conditions) answer 2xx or 4xx only. A 2xx whose lists do not fit their keys is written
// without managedFields, as upstream's field manager does.
import { expect } from 'chai';
import fc from 'fast-check';
import { request, startReplicas, until, type Cluster, type HttpResponse } from '../harness/index.js';
import { conditionsList as conditions, containersList as containers, setAt } from '../fuzz/keyed-lists.js';
import { csrBody, makeRequest } from './csr-helpers.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** How the list reaches the server. */
type Verb = 'put' | 'json-patch' | 'merge-patch' | 'strategic-merge-patch' | 'apply';
const verbs: Verb[] = ['put', 'json-patch', 'merge-patch', 'strategic-merge-patch', 'apply'];

interface Target {
  what: string;
  /** The object's URL (the subresource's, when there is one). */
  path: string;
  /** Where the list goes, from the object's root. */
  at: string[];
  list: fc.Arbitrary<unknown>;
  /** apiVersion and kind for apply. */
  typeMeta: { apiVersion: string; kind: string };
  verbs: Verb[];
}

describe('managed fields never turn a client\'s input into a 500', function () {
  this.timeout(300_000);
  let cluster: Cluster;
  const call = (method: string, path: string, body?: unknown, contentType?: string): Promise<HttpResponse<Obj>> =>
    request<Obj>(`${cluster.urls[0]}${path}`, {
      ...cluster.credentialsFor('admin'), method,
      ...(body === undefined ? {} : { body: contentType ? (typeof body === 'string' ? body : JSON.stringify(body)) : body }),
      ...(contentType ? { headers: { 'content-type': contentType } } : {}),
    });
  const created = async (path: string, body: Obj): Promise<Obj> => {
    const r = await call('POST', path, body);
    expect(r.status, r.text).to.equal(201);
    return r.body;
  };

  /** Sends `list` at `t.at` by `verb`; answers the response. */
  async function send(t: Target, verb: Verb, list: unknown): Promise<HttpResponse<Obj>> {
    const pointer = `/${t.at.join('/')}`;
    switch (verb) {
      case 'put':
        return call('PUT', t.path, setAt((await call('GET', t.path)).body, t.at, list));
      case 'json-patch':
        return call('PATCH', t.path, [{ op: 'add', path: pointer, value: list }], 'application/json-patch+json');
      case 'merge-patch':
        return call('PATCH', t.path, setAt({}, t.at, list), 'application/merge-patch+json');
      case 'strategic-merge-patch':
        return call('PATCH', t.path, setAt({}, t.at, list), 'application/strategic-merge-patch+json');
      case 'apply': {
        const name = t.path.split('/').filter((s) => s !== 'status' && s !== 'approval').pop();
        const body = { ...t.typeMeta, metadata: { name }, ...setAt({}, t.at, list) };
        return call('PATCH', `${t.path}?fieldManager=property&force=true`, body, 'application/apply-patch+yaml');
      }
    }
  }

  const targets: Target[] = [];

  before(async () => {
    cluster = await startReplicas(1);
    const crd = await created('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'props.mf.example.com' },
      spec: {
        group: 'mf.example.com', scope: 'Namespaced', names: { plural: 'props', singular: 'prop', kind: 'Prop', listKind: 'PropList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    });
    const k = await makeRequest({ cn: 'property' });
    const csr = await created('/apis/certificates.k8s.io/v1/certificatesigningrequests',
      csrBody('managed-fields-property', k.request, 'example.com/property', ['client auth']));
    await created('/api/v1/namespaces', { metadata: { name: 'mf-property' } });
    const deploy = await created('/apis/apps/v1/namespaces/mf-property/deployments', {
      metadata: { name: 'd' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'a', image: 'nginx' }] } } },
    });
    const crdPath = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`;
    const csrPath = `/apis/certificates.k8s.io/v1/certificatesigningrequests/${csr.metadata.name}`;
    const deployPath = `/apis/apps/v1/namespaces/mf-property/deployments/${deploy.metadata.name}`;
    await until('the CRD established', async () => ((await call('GET', crdPath)).body.status?.conditions ?? []).some((c: Obj) => c.type === 'Established'), 20_000, 100);
    targets.push(
      { what: 'CRD status conditions', path: `${crdPath}/status`, at: ['status', 'conditions'], list: conditions,
        typeMeta: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' }, verbs },
      { what: 'CSR approval conditions', path: `${csrPath}/approval`, at: ['status', 'conditions'], list: conditions,
        typeMeta: { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest' }, verbs },
      { what: 'Deployment containers', path: deployPath, at: ['spec', 'template', 'spec', 'containers'], list: containers,
        typeMeta: { apiVersion: 'apps/v1', kind: 'Deployment' }, verbs },
      { what: 'Deployment status conditions', path: `${deployPath}/status`, at: ['status', 'conditions'], list: conditions,
        typeMeta: { apiVersion: 'apps/v1', kind: 'Deployment' }, verbs },
    );
  });
  after(async () => { await cluster?.stop(); });

  // One case per target; each runs every verb over random lists from a fixed seed.
  for (const [i, what] of ['CRD status conditions', 'CSR approval conditions', 'Deployment containers', 'Deployment status conditions'].entries()) {
    it(`${what}: every verb answers 2xx or 4xx for random keyed lists`, async () => {
      const t = targets.find((x) => x.what === what)!;
      const seen = new Set<number>();
      await fc.assert(fc.asyncProperty(fc.constantFrom(...t.verbs), t.list, async (verb, list) => {
        const r = await send(t, verb, list);
        seen.add(r.status);
        expect(r.status, `${verb} ${JSON.stringify(list)}: ${r.text}`).to.be.within(200, 499);
        if (r.status >= 400) expect(r.body.kind, r.text).to.equal('Status');
      }), { numRuns: 60, seed: 27_000 + i, endOnFailure: true });
      // The property saw both outcomes, so it exercised writes and refusals alike.
      expect([...seen].some((s) => s < 300), `statuses ${[...seen]}`).to.equal(true);
    });
  }

  it('a write whose lists do not fit their keys is stored without managedFields, and later writes work', async () => {
    const t = targets.find((x) => x.what === 'CRD status conditions')!;
    const r = await send(t, 'json-patch', [{ message: 'no type' }, { type: 'A' }, { type: 'A' }]);
    expect(r.status, r.text).to.equal(200);
    expect(r.body.metadata.managedFields).to.equal(undefined);
    // Apply cannot merge into a live list that does not fit its keys: a 400, not a 500.
    const applied = await send(t, 'apply', [{ type: 'B', status: 'True' }]);
    expect(applied.status, applied.text).to.equal(400);
    expect(applied.body.message).to.include('failed to create typed live object');
    // An update repairs it; apply works again after.
    expect((await send(t, 'put', [{ type: 'A', status: 'True' }])).status).to.equal(200);
    const again = await send(t, 'apply', [{ type: 'B', status: 'True' }]);
    expect(again.status, again.text).to.equal(200);
  });
});
