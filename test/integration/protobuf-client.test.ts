// A client that speaks only protobuf (bodies and Accept), as kubectl 1.34 and every
// client-go program do: create, get, list, watch, update and delete of every served
// built-in resource, Status errors, virtual creates and the negotiation edge cases.
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeObject, encodeObject } from '../../pkg/runtime/serializer/protobuf/envelope.js';
import { request, startReplicas, watch, type Cluster } from '../harness/index.js';

type Obj = Record<string, any>;
const pb = 'application/vnd.kubernetes.protobuf';
const ns = 'fixtures';

/** Bodies for kinds that have no surface fixture. */
const ownBodies: Obj[] = [
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'pb-role', namespace: ns }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'pb-clusterrole' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'pb-rb', namespace: ns }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pb-role' }, subjects: [{ kind: 'User', name: 'u', apiGroup: 'rbac.authorization.k8s.io' }] },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'pb-crb' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'pb-clusterrole' }, subjects: [{ kind: 'Group', name: 'g', apiGroup: 'rbac.authorization.k8s.io' }] },
  { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'pb-namespace' } },
  { apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta2', kind: 'PriorityLevelConfiguration', metadata: { name: 'pb-plc' },
    spec: { type: 'Limited', limited: { assuredConcurrencyShares: 5, limitResponse: { type: 'Reject' } } } },
  { apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta2', kind: 'FlowSchema', metadata: { name: 'pb-fs' },
    spec: { matchingPrecedence: 5000, priorityLevelConfiguration: { name: 'pb-plc' },
      rules: [{ subjects: [{ kind: 'User', user: { name: 'nobody' } }], resourceRules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'], namespaces: ['*'] }] }] } },
];

/** The minimal request bodies upstream was sent, from ../shared/fixtures/surface/objects. */
function fixtureBodies(): Obj[] {
  const dir = join(process.cwd(), '../shared/fixtures/surface/objects');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.request.json')).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Obj);
}

interface Served { group: string; version: string; resource: string; kind: string; namespaced: boolean; verbs: string[] }

describe('protobuf-only client', function () {
  this.timeout(240_000);
  let cluster: Cluster;
  let base: string;
  const call = (path: string, opts: Parameters<typeof request>[1] = {}) =>
    request(`${base}${path}`, { ...cluster.credentialsFor('admin'), ...opts });
  const pbCall = (path: string, method = 'GET', body?: Obj) =>
    call(path, { method, headers: { Accept: pb, ...(body ? { 'Content-Type': pb } : {}) }, body: body ? encodeObject(body) : undefined });
  const decoded = (r: { raw: Buffer; headers: Record<string, unknown> }): Obj => {
    expect(r.headers['content-type']).to.equal(pb);
    return decodeObject(r.raw);
  };
  let served: Served[] = [];

  before(async () => {
    cluster = await startReplicas(2, { extraArgs: ['--controllers=*,-root-ca-cert-publisher'] });
    base = cluster.urls[0];
    expect((await call('/api/v1/namespaces', { method: 'POST', body: { metadata: { name: ns } } })).status).to.equal(201);
    const groups = [{ path: '/api/v1', group: '', version: 'v1' }];
    const apis = (await call('/apis')).body as Obj;
    for (const g of apis.groups) for (const v of g.versions) groups.push({ path: `/apis/${v.groupVersion}`, group: g.name, version: v.version });
    for (const g of groups) {
      const list = (await call(g.path)).body as Obj;
      for (const r of list.resources) {
        if (r.name.includes('/')) continue;
        served.push({ group: g.group, version: g.version, resource: r.name, kind: r.kind, namespaced: r.namespaced, verbs: r.verbs });
      }
    }
  });
  after(async () => { await cluster?.stop(); });

  const pathOf = (s: Served, namespace?: string) =>
    `${s.group ? `/apis/${s.group}` : '/api'}/${s.version}${s.namespaced ? `/namespaces/${namespace}` : ''}/${s.resource}`;

  const labelled = (o: Obj): Obj => ({ ...o, metadata: { ...o.metadata, labels: { ...(o.metadata.labels ?? {}), protobuf: 'yes' } } });

  /** What a controller may write right after a create (CRD and FlowSchema status) left out. */
  const withoutControllerWrites = (o: Obj): Obj => {
    const { status: _s, ...rest } = o;
    const { resourceVersion: _r, managedFields: _m, ...meta } = o.metadata;
    return { ...rest, metadata: meta };
  };

  it('does create, get, list, watch, update and delete of every served stored resource', async () => {
    const bodies = [...fixtureBodies(), ...ownBodies];
    const stored = served.filter((s) => ['create', 'get', 'list', 'watch', 'update', 'delete'].every((v) => s.verbs.includes(v)));
    expect(stored.length).to.be.greaterThan(10);
    const missing: string[] = [];
    for (const s of stored) {
      const apiVersion = s.group ? `${s.group}/${s.version}` : s.version;
      const body = bodies.find((b) => b.apiVersion === apiVersion && b.kind === s.kind && ![ns, 'default'].includes(b.metadata?.name));
      if (!body) { missing.push(`${s.resource}.${s.group}/${s.version}`); continue; }
      const name = body.metadata.name as string;
      const collection = pathOf(s, ns);
      const what = `${s.resource}.${s.group}/${s.version}`;

      const created = await pbCall(collection, 'POST', body);
      expect(created.status, `${what} create: ${created.text}`).to.equal(201);
      const obj = decoded(created);
      expect(obj).to.include({ apiVersion, kind: s.kind });
      expect(obj.metadata.name).to.equal(name);

      const got = await pbCall(`${collection}/${name}`);
      expect(got.status, what).to.equal(200);
      expect(withoutControllerWrites(decoded(got))).to.deep.equal(withoutControllerWrites(obj));

      const list = await pbCall(collection);
      expect(list.status, what).to.equal(200);
      const l = decoded(list);
      expect(l.kind).to.equal(`${s.kind}List`);
      expect(l.items.map((i: Obj) => i.metadata.name)).to.include(name);

      const w = await watch(`${base}${collection}?watch=1&resourceVersion=${l.metadata.resourceVersion}&fieldSelector=metadata.name%3D${name}`, {
        ...cluster.credentialsFor('admin'), headers: { Accept: pb },
      });
      expect(w.headers['content-type']).to.equal(`${pb};stream=watch`);
      // As a client does: a conflict with a controller's write is retried on a fresh read.
      let updated = await pbCall(`${collection}/${name}`, 'PUT', labelled(obj));
      for (let i = 0; updated.status === 409 && i < 5; i++) {
        updated = await pbCall(`${collection}/${name}`, 'PUT', labelled(decoded(await pbCall(`${collection}/${name}`))));
      }
      expect(updated.status, `${what} update: ${updated.text}`).to.equal(200);
      expect(decoded(updated).metadata.labels.protobuf).to.equal('yes');
      // A controller's own write (APIService availability, CRD or FlowSchema status) may come first.
      let modified = await w.next();
      while (modified.type === 'MODIFIED' && (modified.object as Obj).metadata.labels?.protobuf !== 'yes') modified = await w.next();
      expect(modified.type).to.equal('MODIFIED');
      expect((modified.object as Obj).metadata.labels.protobuf).to.equal('yes');

      const deleted = await pbCall(`${collection}/${name}`, 'DELETE', { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', gracePeriodSeconds: 0 });
      expect(deleted.status, `${what} delete: ${deleted.text}`).to.be.oneOf([200, 202]);
      decoded(deleted);
      if (s.kind !== 'Namespace') {
        // Kinds deleted through a finalizer (CRDs) are modified first.
        let gone = await w.next();
        while (gone.type === 'MODIFIED') gone = await w.next();
        expect(gone.type).to.equal('DELETED');
        const after = await pbCall(`${collection}/${name}`);
        expect(after.status).to.equal(404);
        expect(decoded(after)).to.include({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404 });
      }
      w.close();
    }
    expect(missing, 'served resources with no body to test with').to.deep.equal([]);
  });

  it('watch bookmarks come as protobuf frames', async () => {
    const list = decoded(await pbCall(`/api/v1/namespaces/${ns}/configmaps`));
    const w = await watch(`${base}/api/v1/namespaces/${ns}/configmaps?watch=1&allowWatchBookmarks=true&timeoutSeconds=2&resourceVersion=${list.metadata.resourceVersion}`, {
      ...cluster.credentialsFor('admin'), headers: { Accept: pb },
    });
    const created = await pbCall(`/api/v1/namespaces/${ns}/configmaps`, 'POST', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bm' } });
    const rv = decoded(created).metadata.resourceVersion;
    expect((await w.next()).type).to.equal('ADDED');
    const bookmark = await w.next(5000);
    expect(bookmark.type).to.equal('BOOKMARK');
    expect(bookmark.object).to.deep.equal({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: rv, creationTimestamp: null } });
    w.close();
  });

  it('answers virtual creates in protobuf', async () => {
    const review = await pbCall('/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', 'POST', {
      apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { verb: 'get', resource: 'pods', namespace: ns } },
    });
    expect(review.status).to.equal(201);
    expect(decoded(review).status.allowed).to.equal(true);
    const whoami = await pbCall('/apis/authentication.k8s.io/v1/selfsubjectreviews', 'POST', {
      apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview',
    });
    expect(whoami.status).to.equal(201);
    expect(decoded(whoami).status.userInfo.username).to.equal('admin');
    const token = await pbCall(`/api/v1/namespaces/${ns}/serviceaccounts/default/token`, 'POST', {
      apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['api'], expirationSeconds: 3600 },
    });
    expect(token.status, token.text).to.equal(201);
    const tr = decoded(token);
    expect(tr.kind).to.equal('TokenRequest');
    expect(tr.status.token.split('.')).to.have.length(3);
  });

  it('refuses a body of another kind with the message JSON bodies get', async () => {
    const r = await pbCall(`/api/v1/namespaces/${ns}/configmaps`, 'POST', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'x' } });
    expect(r.status).to.equal(400);
    expect(decoded(r)).to.include({ reason: 'BadRequest', message: 'the kind in the data (Secret) does not match the expected kind (ConfigMap)' });
    const garbage = await call(`/api/v1/namespaces/${ns}/configmaps`, { method: 'POST', headers: { 'Content-Type': pb }, body: Buffer.from('not protobuf') });
    expect(garbage.status).to.equal(400);
    expect((garbage.body as Obj).message).to.match(/does not appear to be a protobuf message/);
  });

  it('negotiates Accept lists and q-values as upstream', async () => {
    const path = `/api/v1/namespaces/${ns}/serviceaccounts`;
    const accept = async (a: string) => (await call(path, { headers: { Accept: a } }));
    expect((await accept(`${pb}, */*`)).headers['content-type']).to.equal(pb);
    expect((await accept(`${pb};q=0.9,application/json;q=0.8`)).headers['content-type']).to.equal(pb);
    expect((await accept(`application/json;q=0.8,${pb};q=0.9`)).headers['content-type']).to.equal(pb);
    expect((await accept(`*/*,${pb}`)).headers['content-type']).to.equal(pb);
    expect((await accept(`${pb};q=0.5,application/json`)).headers['content-type']).to.match(/^application\/json\b/);
    // Tables have no protobuf form: the JSON clause that follows is taken, or 406.
    const table = await accept(`${pb};as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1;g=meta.k8s.io,application/json`);
    expect(table.headers['content-type']).to.equal('application/json'); // the serializer's type, not the transform's
    const only = await accept(`${pb};as=Table;v=v1;g=meta.k8s.io`);
    expect(only.status).to.equal(406);
    // The error itself cannot be written in what was asked for either: JSON, as upstream.
    expect(only.body).to.include({
      reason: 'NotAcceptable', code: 406,
      message: 'only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf',
    });
    // Metadata-only lists are served in protobuf (kube-controller-manager's metadata informers).
    const meta = await accept(`${pb};as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json`);
    expect(meta.headers['content-type']).to.equal(pb);
    const pl = decodeObject(meta.raw) as Obj;
    expect(pl).to.include({ kind: 'PartialObjectMetadataList', apiVersion: 'meta.k8s.io/v1' });
    expect(pl.items.map((i: Obj) => i.metadata.name)).to.include('default');
  });

  it('415 lists protobuf among the accepted body types', async () => {
    const r = await call(`/api/v1/namespaces/${ns}/configmaps`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'x' });
    expect(r.status).to.equal(415);
    expect((r.body as Obj).message).to.equal('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf');
  });
});
