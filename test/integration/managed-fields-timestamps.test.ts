// An update whose only effect would be new managedFields times is not written, as
// upstream's (IgnoreManagedFieldsTimestampsTransformer, since 1.26): no new resourceVersion,
// no watch event. The case: the manager owning a field changes it and a mutating webhook
// sets it back, so the field manager stamped a new time on an object otherwise unchanged.
import { expect } from 'chai';
import {
  request, startReplicas, startWebhookServer, watch, type Cluster, type HttpResponse, type WatchStream, type WebhookServer,
} from '../harness/index.js';

interface Entry { manager: string; time?: string }
interface Obj { metadata: { name: string; resourceVersion: string; labels?: Record<string, string>; managedFields?: Entry[] }; data?: Record<string, string> }

describe('managed fields: an update changing only their times', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  let ws: WebhookServer;
  const ns = `mf-times-${Date.now().toString(36)}`;
  const cms = `/api/v1/namespaces/${ns}/configmaps`;
  const call = (method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<HttpResponse<Obj>> =>
    request<Obj>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body, headers: { 'Content-Type': contentType } });
  const ok = (r: HttpResponse<Obj>, code = 200): Obj => {
    expect(r.status, r.text).to.equal(code);
    return r.body;
  };
  const pinned = (name: string, data: Record<string, string>) => ({ metadata: { name, labels: { pin: 'yes' } }, data });
  /** Waits past the second of `obj`'s newest managedFields time, so that a new stamp would differ. */
  const nextSecond = async (obj: Obj): Promise<void> => {
    const newest = Math.max(...(obj.metadata.managedFields ?? []).map((e) => Date.parse(e.time ?? '')));
    await new Promise((r) => setTimeout(r, Math.max(0, newest + 1100 - Date.now())));
  };
  /** The next event of the watch, as its type and resourceVersion. */
  const nextEvent = async (w: WatchStream<Obj>): Promise<[string, string]> => {
    const e = await w.next(5000);
    return [e.type, e.object.metadata.resourceVersion];
  };

  before(async () => {
    cluster = await startReplicas(1);
    ws = await startWebhookServer();
    ok(await call('POST', '/api/v1/namespaces', { metadata: { name: ns } }), 201);
    // The webhook holds data.pinned at "yes" on every update of a labelled ConfigMap.
    ws.handle('/pin', (req) => (req.object?.data?.pinned === 'yes' ? {} : { patch: [{ op: 'replace', path: '/data/pinned', value: 'yes' }] }));
    ok(await call('POST', '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations', {
      metadata: { name: `pin-${ns}` },
      webhooks: [{
        name: 'pin.example.com', clientConfig: { url: ws.url('/pin'), caBundle: ws.caBundle },
        rules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } }, objectSelector: { matchLabels: { pin: 'yes' } },
        sideEffects: 'None', admissionReviewVersions: ['v1'], failurePolicy: 'Fail',
      }],
    }), 201);
    // In effect once a dry-run update comes back pinned.
    const probe = ok(await call('POST', cms, pinned('probe', { pinned: 'yes' })), 201);
    for (let deadline = Date.now() + 10_000; ;) {
      const r = ok(await call('PUT', `${cms}/probe?dryRun=All`, { ...probe, data: { pinned: 'no' } }));
      if (r.data?.pinned === 'yes') break;
      if (Date.now() > deadline) throw new Error('the webhook never took effect');
      await new Promise((res) => setTimeout(res, 100));
    }
  });
  after(async () => {
    await cluster?.stop();
    await ws?.stop();
  });

  const writes: Array<[string, (obj: Obj) => Promise<HttpResponse<Obj>>]> = [
    ['a PUT', (obj) => call('PUT', `${cms}/${obj.metadata.name}?fieldManager=owner`, { ...obj, data: { ...obj.data, pinned: 'no' } })],
    ['a merge patch', (obj) => call('PATCH', `${cms}/${obj.metadata.name}?fieldManager=owner`, { data: { pinned: 'no' } }, 'application/merge-patch+json')],
  ];
  for (const [i, [what, write]] of writes.entries()) {
    it(`is not written (${what}): same resourceVersion and times, no event; a real change after it is`, async () => {
      const created = ok(await call('POST', `${cms}?fieldManager=owner`, pinned(`held-${i}`, { pinned: 'yes', k: 'v' })), 201);
      const w = await watch<Obj>(`${cluster.urls[0]}${cms}?watch=1&resourceVersion=${created.metadata.resourceVersion}&fieldSelector=metadata.name%3Dheld-${i}`, cluster.credentialsFor());
      try {
        await nextSecond(created);
        const same = ok(await write(created));
        expect(same.data).to.deep.equal({ pinned: 'yes', k: 'v' });
        expect(same.metadata.resourceVersion).to.equal(created.metadata.resourceVersion);
        expect(same.metadata.managedFields).to.deep.equal(created.metadata.managedFields);
        expect(ok(await call('GET', `${cms}/held-${i}`)).metadata.resourceVersion).to.equal(created.metadata.resourceVersion);
        // A change of a value is written, with a new time.
        const changed = ok(await call('PUT', `${cms}/held-${i}?fieldManager=owner`, { ...created, data: { pinned: 'yes', k: 'w' } }));
        expect(changed.metadata.resourceVersion).to.not.equal(created.metadata.resourceVersion);
        expect(changed.metadata.managedFields?.[0]?.time).to.not.equal(created.metadata.managedFields?.[0]?.time);
        expect(await nextEvent(w)).to.deep.equal(['MODIFIED', changed.metadata.resourceVersion]);
      } finally {
        w.close();
      }
    });
  }

  it('is not written for a field sent as null where none is stored (the same Go value), in a later second', async () => {
    // The create owns `immutable` (null over the zero value); storage keeps no null.
    const created = ok(await call('POST', `${cms}?fieldManager=owner`, { metadata: { name: 'nulled' }, data: { k: 'v' }, immutable: null }), 201);
    await nextSecond(created);
    const same = ok(await call('PUT', `${cms}/nulled?fieldManager=owner`, { ...created, immutable: null }));
    expect(same.metadata.resourceVersion).to.equal(created.metadata.resourceVersion);
    expect(same.metadata.managedFields).to.deep.equal(created.metadata.managedFields);
  });

  it('is written when ownership moves, though no value changes (a manager takes the field)', async () => {
    const created = ok(await call('POST', `${cms}?fieldManager=owner`, pinned('taken', { pinned: 'yes' })), 201);
    await nextSecond(created);
    const taken = ok(await call('PUT', `${cms}/taken?fieldManager=other`, { ...created, data: { pinned: 'no' } }));
    expect(taken.data).to.deep.equal({ pinned: 'yes' });
    expect(taken.metadata.resourceVersion).to.not.equal(created.metadata.resourceVersion);
    expect(taken.metadata.managedFields?.map((e) => e.manager)).to.deep.equal(['owner', 'other']);
  });
});
