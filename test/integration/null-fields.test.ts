// A field sent as null in a built-in kind: upstream's typed decoder leaves a nil pointer,
// slice or map (encoding/json sets them to nil on null), which an omitempty field never
// encodes, so the response, the stored object and the field manager all see it absent,
// on create, update and patch alike. A struct held by value (a Time) is not omitted.
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';

interface Obj { metadata: { name: string; resourceVersion: string; labels?: unknown; creationTimestamp?: unknown; managedFields: Array<{ fieldsV1: unknown }> }; [k: string]: unknown }

describe('null fields of built-in kinds', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const ns = `nulls-${Date.now().toString(36)}`;
  const cms = `/api/v1/namespaces/${ns}/configmaps`;
  const call = <T>(method: string, path: string, body?: string, contentType = 'application/json'): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[0]}${path}`, { ...cluster.credentialsFor(), method, body, headers: { 'Content-Type': contentType } });

  before(async () => {
    cluster = await startReplicas(1);
    expect((await call('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns } }))).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  it('create: omitted nulls are absent from the response, the stored object and the managed fields', async () => {
    const res = await call<Obj>('POST', cms, '{"metadata":{"name":"a","labels":null,"annotations":{"x":"y"}},"data":null,"binaryData":null}');
    expect(res.status, res.text).to.equal(201);
    for (const body of [res.body, (await call<Obj>('GET', `${cms}/a`)).body]) {
      expect(body).to.not.have.any.keys('data', 'binaryData');
      expect(body.metadata).to.not.have.property('labels');
      expect(body.metadata.managedFields[0].fieldsV1).to.deep.equal({ 'f:metadata': { 'f:annotations': { '.': {}, 'f:x': {} } } });
    }
    const pod = await call<{ spec: Record<string, unknown> & { containers: Array<Record<string, unknown>> } }>('POST', `/api/v1/namespaces/${ns}/pods`,
      '{"metadata":{"name":"p"},"spec":{"nodeSelector":null,"affinity":null,"containers":[{"name":"c","image":"x","env":null,"args":null}]}}');
    expect(pod.status, pod.text).to.equal(201);
    expect(pod.body.spec).to.not.have.any.keys('nodeSelector', 'affinity');
    expect(pod.body.spec.containers[0]).to.not.have.any.keys('env', 'args');
  });

  it('update and JSON patch: the same', async () => {
    const current = await call<Obj>('GET', `${cms}/a`);
    const put = await call<Obj>('PUT', `${cms}/a`,
      `{"metadata":{"name":"a","resourceVersion":"${current.body.metadata.resourceVersion}","labels":{"l":"1"}},"data":{"k":"v"},"binaryData":null}`);
    expect(put.status, put.text).to.equal(200);
    expect(put.body).to.not.have.property('binaryData');
    const patched = await call<Obj>('PATCH', `${cms}/a`, '[{"op":"replace","path":"/data","value":null}]', 'application/json-patch+json');
    expect(patched.status, patched.text).to.equal(200);
    expect(patched.body).to.not.have.property('data');
    expect((await call<Obj>('GET', `${cms}/a`)).body).to.not.have.property('data');
  });

  it('a null in a scalar without omitempty, a list\'s item or a map\'s value is the Go zero value, never null', async () => {
    const cm = await call<Obj>('POST', cms, '{"metadata":{"name":"z","labels":{"l":null}},"data":{"k":null}}');
    expect(cm.status, cm.text).to.equal(201);
    for (const body of [cm.body, (await call<Obj>('GET', `${cms}/z`)).body]) {
      expect(body.data).to.deep.equal({ k: '' });
      expect(body.metadata.labels).to.deep.equal({ l: '' });
    }
    const pod = await call<{ spec: { containers: Array<{ command: unknown }> } }>('POST', `/api/v1/namespaces/${ns}/pods`,
      '{"metadata":{"name":"z"},"spec":{"containers":[{"name":"c","image":"x","command":["a",null]}]}}');
    expect(pod.status, pod.text).to.equal(201);
    expect(pod.body.spec.containers[0].command).to.deep.equal(['a', '']);
    // Validation sees the zero value where it used to meet a null and fail with a 500.
    const badFinalizer = await call<{ reason: string }>('POST', cms, '{"metadata":{"name":"f","finalizers":[null]}}');
    expect(badFinalizer.status, badFinalizer.text).to.equal(422);
    expect(badFinalizer.text).to.include('metadata.finalizers: Invalid value: \\"\\": name part must be non-empty');

    const pdbs = `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`;
    const pdb = await call<Obj>('POST', pdbs, '{"metadata":{"name":"b"},"spec":{"minAvailable":1,"selector":{"matchLabels":{"a":"b"}}}}');
    expect(pdb.status, pdb.text).to.equal(201);
    const status = await call<Obj & { status: Record<string, unknown> }>('PUT', `${pdbs}/b/status`, JSON.stringify({
      metadata: { name: 'b', resourceVersion: pdb.body.metadata.resourceVersion },
      spec: { minAvailable: 1, selector: { matchLabels: { a: 'b' } } },
      status: { currentHealthy: null, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0,
        conditions: [{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: null, lastTransitionTime: '2026-11-30T17:20:07Z' }] },
    }));
    expect(status.status, status.text).to.equal(200);
    for (const body of [status.body, (await call<Obj & { status: Record<string, unknown> }>('GET', `${pdbs}/b`)).body]) {
      expect(body.status.currentHealthy).to.equal(0);
      expect(body.status.conditions).to.deep.equal([{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', lastTransitionTime: '2026-11-30T17:20:07Z' }]);
    }
    // 0 was stored before, so the status writer does not own it.
    expect(status.body.metadata.managedFields[1].fieldsV1).to.not.have.nested.property('f:status.f:currentHealthy');
  });

  it('a null in a struct held by value is that struct\'s zero: a container status\'s state', async () => {
    const patch = '[{"op":"add","path":"/status/containerStatuses","value":[{"name":"c","ready":false,"restartCount":0,"image":"x","imageID":"","state":null}]}]';
    type WithStatuses = { status: { containerStatuses: Array<{ state?: unknown }> } };
    const res = await call<WithStatuses>('PATCH', `/api/v1/namespaces/${ns}/pods/z/status`, patch, 'application/json-patch+json');
    expect(res.status, res.text).to.equal(200);
    const states = (body: WithStatuses) => body.status.containerStatuses.map((c) => c.state);
    expect(states(res.body)).to.deep.equal([{}]);
    expect(states((await call<WithStatuses>('GET', `/api/v1/namespaces/${ns}/pods/z`)).body)).to.deep.equal([{}]);
  });

  it('a struct held by value that a write leaves out is that struct\'s zero in its answer, as in GET: a container status\'s lastState', async () => {
    type WithStatuses = { status: { containerStatuses: Array<Record<string, unknown>> }; metadata: { resourceVersion: string } };
    const pods = `/api/v1/namespaces/${ns}/pods`;
    const pod = await call<WithStatuses>('POST', pods, '{"metadata":{"name":"absent"},"spec":{"containers":[{"name":"c","image":"x"}]}}');
    expect(pod.status, pod.text).to.equal(201);
    const statuses = (state: unknown) => ({ status: { containerStatuses: [{ name: 'c', ready: false, restartCount: 0, image: 'x', imageID: '', state }] } });
    const expected = (state: unknown) => [{ name: 'c', ready: false, restartCount: 0, image: 'x', imageID: '', state, lastState: {} }];
    // The kubelet's way (a strategic merge patch), a merge patch, and an update of the status.
    const writes: Array<[string, () => Promise<HttpResponse<WithStatuses>>]> = [
      ['strategic merge patch', () => call('PATCH', `${pods}/absent/status`, JSON.stringify(statuses({ waiting: { reason: 'A' } })), 'application/strategic-merge-patch+json')],
      ['merge patch', () => call('PATCH', `${pods}/absent/status`, JSON.stringify(statuses({ waiting: { reason: 'B' } })), 'application/merge-patch+json')],
      ['update', async () => {
        const current = (await call<WithStatuses>('GET', `${pods}/absent`)).body;
        const { containerStatuses } = statuses({ waiting: { reason: 'C' } }).status;
        return call('PUT', `${pods}/absent/status`, JSON.stringify({ ...current, status: { ...current.status, containerStatuses } }));
      }],
    ];
    for (const [[how, write], reason] of writes.map((w, i) => [w, 'ABC'[i]] as const)) {
      const res = await write();
      expect(res.status, `${how}: ${res.text}`).to.equal(200);
      expect(res.body.status.containerStatuses, how).to.deep.equal(expected({ waiting: { reason } }));
      expect((await call<WithStatuses>('GET', `${pods}/absent`)).body.status.containerStatuses, how).to.deep.equal(expected({ waiting: { reason } }));
    }
  });

  it('a zero time in a pointer field is kept and served as null; a null there is dropped', async () => {
    const leases = `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases`;
    const res = await call<{ spec: Record<string, unknown> }>('POST', leases,
      '{"metadata":{"name":"l"},"spec":{"holderIdentity":"h","acquireTime":"0001-01-01T00:00:00.000000Z","renewTime":null}}');
    expect(res.status, res.text).to.equal(201);
    expect(res.body.spec).to.deep.equal({ holderIdentity: 'h', acquireTime: null });
    // Upstream stores a set pointer to the zero MicroTime as an empty message and reads it back as null.
    expect((await call<{ spec: Record<string, unknown> }>('GET', `${leases}/l`)).body.spec).to.deep.equal({ holderIdentity: 'h', acquireTime: null });
  });

  it('a struct held by value keeps its null: a template\'s creationTimestamp', async () => {
    const res = await call<{ template: { metadata: Record<string, unknown> } }>('POST', `/api/v1/namespaces/${ns}/podtemplates`,
      '{"metadata":{"name":"t"},"template":{"metadata":{"creationTimestamp":null,"labels":null},"spec":{"containers":[{"name":"c","image":"x"}]}}}');
    expect(res.status, res.text).to.equal(201);
    expect(res.body.template.metadata).to.deep.equal({ creationTimestamp: null });
  });
});
