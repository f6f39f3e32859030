// Times and bytes come back in the form upstream's Go types give them, whatever spelling
// the body used: metav1.Time in UTC to the second, MicroTime to the microsecond, Go's
// zero time as null, []byte as standard padded base64. That form is served on the write
// itself, stored, and a later write that only respells a stored value is no write (same
// resourceVersion, no watch event), for JSON bodies, merge patches and protobuf bodies.
import { expect } from 'chai';
import { decodeObject, encodeObject } from '../../pkg/runtime/serializer/protobuf/envelope.js';
import { request, startReplicas, watch, type Cluster, type HttpResponse } from '../harness/index.js';

type Obj = Record<string, any>;
const pb = 'application/vnd.kubernetes.protobuf';

describe('decoded forms: times and bytes as upstream serves them', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const ns = `decoded-${Date.now().toString(36)}`;
  const call = (method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<HttpResponse<Obj>> =>
    request<Obj>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body, headers: { 'Content-Type': contentType } });
  const ok = (r: HttpResponse<Obj>, code = 200): Obj => {
    expect(r.status, r.text).to.equal(code);
    return r.body;
  };
  /** The stored value: decoded, and whether it is exactly the encoding of what it decodes to. */
  const stored = async (resource: string, name: string): Promise<{ obj: Obj; canonicalBytes: boolean }> => {
    const etcd = cluster.etcdClient();
    try {
      const raw = await etcd.get(`${cluster.etcdPrefix}/${resource}/${ns}/${name}`).buffer();
      expect(raw, `${resource}/${name} in etcd`).to.not.equal(null);
      const obj = decodeObject(raw!) as Obj;
      return { obj, canonicalBytes: Buffer.compare(encodeObject(obj), raw!) === 0 };
    } finally {
      etcd.close();
    }
  };
  /**
   * `respell` writes the same values in other spellings: the answer and a later GET keep
   * the resourceVersion, and the watch's next event is the real change made after it.
   */
  const expectNoWrite = async (path: string, created: Obj, respell: () => Promise<HttpResponse<Obj>>, change: () => Promise<HttpResponse<Obj>>) => {
    const rv = created.metadata.resourceVersion;
    const w = await watch<Obj>(`${cluster.urls[0]}${path}?watch=1&resourceVersion=${rv}&fieldSelector=metadata.name%3D${created.metadata.name}`, cluster.credentialsFor());
    try {
      const same = ok(await respell());
      expect(same.metadata.resourceVersion, 'respelled write').to.equal(rv);
      expect(ok(await call('GET', `${path}/${created.metadata.name}`)).metadata.resourceVersion).to.equal(rv);
      const changed = ok(await change());
      expect(changed.metadata.resourceVersion).to.not.equal(rv);
      const e = await w.next(5000);
      expect([e.type, e.object.metadata.resourceVersion]).to.deep.equal(['MODIFIED', changed.metadata.resourceVersion]);
    } finally {
      w.close();
    }
  };

  before(async () => {
    cluster = await startReplicas(1);
    ok(await call('POST', '/api/v1/namespaces', { metadata: { name: ns } }), 201);
  });
  after(() => cluster?.stop());

  describe('metav1.Time', () => {
    const events = () => `/api/v1/namespaces/${ns}/events`;
    const event = (name: string, times: Obj) => ({ metadata: { name }, involvedObject: { kind: 'Pod', name: 'p', namespace: ns }, reason: 'R', message: 'm', count: 1, ...times });

    it('is served and stored in UTC to the second; a respelled PUT or merge patch is no write', async () => {
      const created = ok(await call('POST', events(), event('t1', { firstTimestamp: '2024-05-01T12:00:00.123+02:00', lastTimestamp: '2024-05-01T10:00:05.999999999Z' })), 201);
      expect([created.firstTimestamp, created.lastTimestamp]).to.deep.equal(['2024-05-01T10:00:00Z', '2024-05-01T10:00:05Z']);
      const got = ok(await call('GET', `${events()}/t1`));
      expect([got.firstTimestamp, got.lastTimestamp]).to.deep.equal(['2024-05-01T10:00:00Z', '2024-05-01T10:00:05Z']);
      const { obj, canonicalBytes } = await stored('events', 't1');
      expect([obj.firstTimestamp, obj.lastTimestamp]).to.deep.equal(['2024-05-01T10:00:00Z', '2024-05-01T10:00:05Z']);
      expect(canonicalBytes, 'no fraction of a second is stored').to.equal(true);
      await expectNoWrite(events(), created,
        () => call('PUT', `${events()}/t1`, { ...got, firstTimestamp: '2024-05-01T05:00:00.5-05:00' }),
        () => call('PUT', `${events()}/t1`, { ...got, count: 2 }));
      const now = ok(await call('GET', `${events()}/t1`));
      await expectNoWrite(events(), now,
        () => call('PATCH', `${events()}/t1`, { lastTimestamp: '2024-05-01T10:00:05.1Z' }, 'application/merge-patch+json'),
        () => call('PATCH', `${events()}/t1`, { count: 3 }, 'application/merge-patch+json'));
    });

    it("is null when it is Go's zero time, and a day its month lacks is upstream's 400", async () => {
      const created = ok(await call('POST', events(), event('t2', { firstTimestamp: '0001-01-01T00:00:00Z', lastTimestamp: '0001-01-01T01:00:00+01:00' })), 201);
      expect([created.firstTimestamp, created.lastTimestamp]).to.deep.equal([null, null]);
      const r = await call('POST', events(), event('t3', { firstTimestamp: '2023-02-29T00:00:00Z' }));
      expect(r.status).to.equal(400);
      expect(r.body.message).to.equal('Event in version "v1" cannot be handled as a Event: parsing time "2023-02-29T00:00:00Z": day out of range');
    });

    it('from a protobuf body, is served the same way', async () => {
      const body = encodeObject({ apiVersion: 'v1', kind: 'Event', ...event('t4', { firstTimestamp: '2024-05-01T12:00:00.75+02:00' }), metadata: { name: 't4', namespace: ns } });
      const r = await request<Buffer>(`${cluster.urls[0]}${events()}`, { ...cluster.credentialsFor(), method: 'POST', body, headers: { 'Content-Type': pb, Accept: 'application/json' } });
      expect(r.status, r.text).to.equal(201);
      expect(JSON.parse(r.text).firstTimestamp).to.equal('2024-05-01T10:00:00Z');
    });
  });

  describe('metav1.MicroTime', () => {
    const leases = () => `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`;

    it('is served and stored in UTC with six digits; a respelled PUT is no write', async () => {
      const created = ok(await call('POST', leases(), { metadata: { name: 'l1' }, spec: { holderIdentity: 'a', renewTime: '2024-05-01T12:00:00.123456+02:00', acquireTime: '0001-01-01T00:00:00.000000Z' } }), 201);
      expect(created.spec).to.deep.equal({ holderIdentity: 'a', renewTime: '2024-05-01T10:00:00.123456Z', acquireTime: null });
      expect((await stored('leases', 'l1')).obj.spec.renewTime).to.equal('2024-05-01T10:00:00.123456Z');
      // The zero time is a set pointer, served as null: respelled it is the same; a null
      // sent back would be a nil pointer, a change (upstream's encoding differs too).
      await expectNoWrite(leases(), created,
        () => call('PUT', `${leases()}/l1`, { ...created, spec: { ...created.spec, renewTime: '2024-05-01T09:00:00.123456-01:00', acquireTime: '0001-01-01T00:00:00.000000Z' } }),
        () => call('PUT', `${leases()}/l1`, { ...created, spec: { ...created.spec, holderIdentity: 'b' } }));
    });
  });

  describe('[]byte', () => {
    const secrets = () => `/api/v1/namespaces/${ns}/secrets`;
    const configMaps = () => `/api/v1/namespaces/${ns}/configmaps`;

    it('is served as padded standard base64 (line breaks dropped, unused bits cleared); a respelled PUT or patch is no write', async () => {
      const created = ok(await call('POST', secrets(), { metadata: { name: 's1' }, data: { a: 'YW\nJj', b: 'YWJ=', c: 'YWJj\r\n' } }), 201);
      const canonical = { a: 'YWJj', b: 'YWI=', c: 'YWJj' };
      expect(created.data).to.deep.equal(canonical);
      expect(ok(await call('GET', `${secrets()}/s1`)).data).to.deep.equal(canonical);
      expect((await stored('secrets', 's1')).obj.data).to.deep.equal(canonical);
      await expectNoWrite(secrets(), created,
        () => call('PUT', `${secrets()}/s1`, { ...created, data: { a: 'YWJj\n', b: 'YWJ=', c: 'YW\r\nJj' } }),
        () => call('PUT', `${secrets()}/s1`, { ...created, data: { ...canonical, d: 'ZA==' } }));
      const cm = ok(await call('POST', configMaps(), { metadata: { name: 'b1' }, binaryData: { bin: 'AAE=\n' } }), 201);
      expect(cm.binaryData).to.deep.equal({ bin: 'AAE=' });
      await expectNoWrite(configMaps(), cm,
        () => call('PATCH', `${configMaps()}/b1`, { binaryData: { bin: 'AAF=' } }, 'application/merge-patch+json'),
        () => call('PATCH', `${configMaps()}/b1`, { binaryData: { bin: 'AAI=' } }, 'application/merge-patch+json'));
    });
  });
});
