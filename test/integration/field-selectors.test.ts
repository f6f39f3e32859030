// Field selectors through real replicas, per kind as upstream v1.28 accepts them: the
// labels each kind's conversion accepts (and the exact 400 for others), the values its
// GetAttrs exposes, in lists (etcd and watch cache), watches (an object entering the
// selection is ADDED, leaving it DELETED) and deletecollection.
import { expect } from 'chai';
import { request, startReplicas, watch, type Cluster, type HttpResponse, type WatchEvent, type WatchStream } from '../harness/index.js';

interface Obj { metadata: { name: string; resourceVersion?: string }; spec?: Record<string, unknown>; status?: Record<string, unknown> }
interface List { metadata: { resourceVersion: string }; items: Obj[] }
interface Status { kind: string; code: number; reason: string; message: string }

const q = (sel: string) => `fieldSelector=${encodeURIComponent(sel)}`;

describe('field selectors over HTTP (two replicas)', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const ns = `fs-${Date.now().toString(36)}`;
  const pods = `/api/v1/namespaces/${ns}/pods`;
  const call = <T = Obj>(method: string, path: string, body?: unknown, replica = 0, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(), method, body, headers });
  const names = async (path: string, replica = 0): Promise<string[]> => {
    const res = await call<List>('GET', path, undefined, replica);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).to.equal(200);
    return res.body.items.map((o) => o.metadata.name).sort();
  };
  const pod = (name: string, spec: Record<string, unknown> = {}) =>
    ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });
  const setStatus = (name: string, status: Record<string, unknown>) =>
    call('PATCH', `${pods}/${name}/status`, { status }, 0, { 'Content-Type': 'application/merge-patch+json' });

  before(async () => {
    cluster = await startReplicas(2);
    expect((await call('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).to.equal(201);
  });
  after(async () => { await cluster?.stop(); });

  describe('refused labels: 400 BadRequest in the wording of the kind\'s conversion', () => {
    const cases: [string, string, string][] = [
      [pods, 'spec.foo=x', 'field label not supported: spec.foo'],
      ['/api/v1/nodes', 'metadata.namespace=x', 'field label not supported: metadata.namespace'],
      ['/api/v1/namespaces', 'name=x', 'field label not supported: name'],
      [`/api/v1/namespaces/${ns}/secrets`, 'data.x=1', 'field label not supported: data.x'],
      [`/api/v1/namespaces/${ns}/events`, 'message=x', 'field label not supported: message'],
      [`/apis/events.k8s.io/v1/namespaces/${ns}/events`, 'involvedObject.name=x', 'field label not supported: involvedObject.name'],
      [`/api/v1/namespaces/${ns}/replicationcontrollers`, 'spec.replicas=1', 'field label not supported: spec.replicas'],
      ['/apis/certificates.k8s.io/v1/certificatesigningrequests', 'metadata.namespace=', 'field label not supported: metadata.namespace'],
      [`/apis/batch/v1/namespaces/${ns}/jobs`, 'status.succeeded=1', 'field label "status.succeeded" not supported for batchv1.Job'],
      // Kinds without a registered conversion (services gained one only in v1.31, apps/v1 never).
      [`/api/v1/namespaces/${ns}/services`, 'spec.clusterIP=None', '"spec.clusterIP" is not a known field selector: only "metadata.name", "metadata.namespace"'],
      [`/apis/apps/v1/namespaces/${ns}/replicasets`, 'status.replicas=0', '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"'],
      ['/api/v1/persistentvolumes', 'spec.storageClassName=x', '"spec.storageClassName" is not a known field selector: only "metadata.name", "metadata.namespace"'],
    ];
    for (const [path, sel, message] of cases) {
      it(`${path.split('/').pop()}: ${sel}`, async () => {
        for (const suffix of ['', '&watch=1']) {
          const res = await call<Status>('GET', `${path}?${q(sel)}${suffix}`, undefined, 1);
          expect(res.status).to.equal(400);
          expect(res.body).to.include({ kind: 'Status', code: 400, reason: 'BadRequest', message });
        }
      });
    }

    it('deletecollection is refused the same way, and deletes nothing', async () => {
      await call('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'kept' } });
      const res = await call<Status>('DELETE', `/api/v1/namespaces/${ns}/configmaps?${q('data.a=1')}`);
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('"data.a" is not a known field selector: only "metadata.name", "metadata.namespace"');
      expect(await names(`/api/v1/namespaces/${ns}/configmaps?${q('metadata.name=kept')}`)).to.deep.equal(['kept']);
    });
  });

  describe('accepted labels select on the values upstream exposes', () => {
    it('pods: every pod field, spec.host as spec.nodeName, status.podIPs accepted but never valued', async () => {
      // ServiceAccount admission refuses a pod naming an account that does not exist.
      expect((await call('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'sa1' } })).status).to.equal(201);
      expect((await call('POST', pods, pod('a', { nodeName: 'n1', restartPolicy: 'Never', schedulerName: 'sched-x', serviceAccountName: 'sa1', hostNetwork: true }))).status).to.equal(201);
      expect((await call('POST', pods, pod('b', { nodeName: 'n2' }))).status).to.equal(201);
      expect((await call('POST', pods, pod('c'))).status).to.equal(201);
      expect((await setStatus('a', { phase: 'Running', podIP: '10.1.0.5', podIPs: [{ ip: '10.1.0.5' }] })).status).to.equal(200);
      expect((await setStatus('b', { phase: 'Pending', nominatedNodeName: 'n3' })).status).to.equal(200);
      const expectations: [string, string[]][] = [
        ['spec.nodeName=n1', ['a']],
        ['spec.host=n2', ['b']],
        ['spec.nodeName=', ['c']],
        ['spec.nodeName!=', ['a', 'b']],
        ['spec.restartPolicy=Never', ['a']],
        ['spec.restartPolicy=Always', ['b', 'c']],
        ['spec.schedulerName=default-scheduler', ['b', 'c']],
        ['spec.serviceAccountName=sa1', ['a']],
        ['spec.hostNetwork=true', ['a']],
        ['spec.hostNetwork=false', ['b', 'c']],
        ['status.phase=Running', ['a']],
        ['status.phase!=Running', ['b', 'c']],
        ['status.podIP=10.1.0.5', ['a']],
        ['status.podIPs=10.1.0.5', []],
        ['status.podIPs=', ['a', 'b', 'c']],
        ['status.nominatedNodeName=n3', ['b']],
        ['metadata.namespace=' + ns + ',metadata.name=c', ['c']],
        ['spec.nodeName=n1,status.phase=Running', ['a']],
      ];
      for (const [sel, want] of expectations) {
        expect(await names(`${pods}?${q(sel)}`, 1), sel).to.deep.equal(want);
        // From the watch cache (any revision) as from etcd.
        expect(await names(`${pods}?${q(sel)}&resourceVersion=0`, 0), `${sel} (rv=0)`).to.deep.equal(want);
      }
      expect(await names(`/api/v1/pods?${q(`spec.nodeName=n1,metadata.namespace=${ns}`)}`)).to.deep.equal(['a']);
    });

    it('nodes: spec.unschedulable and metadata.name', async () => {
      await call('POST', '/api/v1/nodes', { metadata: { name: `${ns}-cordoned` }, spec: { unschedulable: true } });
      await call('POST', '/api/v1/nodes', { metadata: { name: `${ns}-open` } });
      expect(await names(`/api/v1/nodes?${q('spec.unschedulable=true')}`)).to.deep.equal([`${ns}-cordoned`]);
      expect(await names(`/api/v1/nodes?${q(`spec.unschedulable=false,metadata.name=${ns}-open`)}&resourceVersion=0`, 1)).to.deep.equal([`${ns}-open`]);
    });

    it('namespaces: status.phase', async () => {
      const active = await names(`/api/v1/namespaces?${q('status.phase=Active')}`);
      expect(active).to.include(ns);
      expect(await names(`/api/v1/namespaces?${q('status.phase=Terminating')}`)).to.deep.equal([]);
    });

    it('secrets: type', async () => {
      const secrets = `/api/v1/namespaces/${ns}/secrets`;
      await call('POST', secrets, { metadata: { name: 'opaque' }, stringData: { a: 'b' } });
      await call('POST', secrets, { metadata: { name: 'dockercfg' }, type: 'kubernetes.io/dockerconfigjson',
        stringData: { '.dockerconfigjson': '{"auths":{}}' } });
      expect(await names(`${secrets}?${q('type=kubernetes.io/dockerconfigjson')}`)).to.deep.equal(['dockercfg']);
      expect(await names(`${secrets}?${q('type=Opaque')}`, 1)).to.deep.equal(['opaque']);
    });

    it('events: the core fields, and the events.k8s.io names for the same objects', async () => {
      const evs = `/api/v1/namespaces/${ns}/events`;
      const base = { involvedObject: { kind: 'Pod', namespace: ns, name: 'a', uid: 'uid-a', apiVersion: 'v1', resourceVersion: '7', fieldPath: 'spec.containers{c}' },
        message: 'm', firstTimestamp: '2024-01-01T00:00:00Z', lastTimestamp: '2024-01-01T00:00:00Z', count: 1 };
      const e1 = await call('POST', evs, { ...base, metadata: { name: 'e1' }, reason: 'Started', type: 'Normal', source: { component: 'kubelet' } });
      expect(e1.status, JSON.stringify(e1.body)).to.equal(201);
      const e2 = await call('POST', evs, { ...base, metadata: { name: 'e2' }, involvedObject: { kind: 'Service', namespace: ns, name: 'n1' }, reason: 'Rebooted', type: 'Warning',
        reportingComponent: 'node-ctl', reportingInstance: 'i' });
      expect(e2.status, JSON.stringify(e2.body)).to.equal(201);
      const core: [string, string[]][] = [
        ['involvedObject.kind=Pod', ['e1']],
        ['involvedObject.namespace=' + ns, ['e1', 'e2']],
        ['involvedObject.name=n1', ['e2']],
        ['involvedObject.uid=uid-a', ['e1']],
        ['involvedObject.apiVersion=v1', ['e1']],
        ['involvedObject.resourceVersion=7', ['e1']],
        ['involvedObject.fieldPath=spec.containers{c}', ['e1']],
        ['reason=Rebooted', ['e2']],
        ['type=Normal', ['e1']],
        ['source=kubelet', ['e1']],
        // Without a source component, source reads as the reporting component.
        ['source=node-ctl', ['e2']],
        ['reportingComponent=node-ctl', ['e2']],
      ];
      for (const [sel, want] of core) expect(await names(`${evs}?${q(sel)}`, 1), sel).to.deep.equal(want);
      const v1 = `/apis/events.k8s.io/v1/namespaces/${ns}/events`;
      const modern: [string, string[]][] = [
        ['regarding.kind=Service', ['e2']],
        ['regarding.name=a,regarding.uid=uid-a', ['e1']],
        ['regarding.fieldPath=spec.containers{c}', ['e1']],
        ['reportingController=node-ctl', ['e2']],
        ['reason=Started,type=Normal', ['e1']],
        ['source=kubelet', ['e1']],
      ];
      for (const [sel, want] of modern) expect(await names(`${v1}?${q(sel)}`), sel).to.deep.equal(want);
    });

    it('replicationcontrollers: status.replicas; jobs: status.successful', async () => {
      const rcs = `/api/v1/namespaces/${ns}/replicationcontrollers`;
      const tmpl = { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
      expect((await call('POST', rcs, { metadata: { name: 'rc' }, spec: { replicas: 0, selector: { app: 'x' }, template: tmpl } })).status).to.equal(201);
      expect(await names(`${rcs}?${q('status.replicas=0')}`)).to.deep.equal(['rc']);
      expect(await names(`${rcs}?${q('status.replicas=1')}`)).to.deep.equal([]);
      const jobs = `/apis/batch/v1/namespaces/${ns}/jobs`;
      expect((await call('POST', jobs, { metadata: { name: 'j' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } })).status).to.equal(201);
      expect(await names(`${jobs}?${q('status.successful=0')}`)).to.deep.equal(['j']);
      const st = await call('PATCH', `${jobs}/j/status`, { status: { succeeded: 1 } }, 0, { 'Content-Type': 'application/merge-patch+json' });
      expect(st.status).to.equal(200);
      expect(await names(`${jobs}?${q('status.successful=1')}`, 1)).to.deep.equal(['j']);
    });

    it('cluster-scoped kinds without a conversion accept metadata.namespace, which reads as empty', async () => {
      const all = await names('/apis/rbac.authorization.k8s.io/v1/clusterroles?' + q('metadata.namespace='));
      expect(all).to.include('cluster-admin');
      expect(await names('/apis/rbac.authorization.k8s.io/v1/clusterroles?' + q('metadata.namespace=default'))).to.deep.equal([]);
    });
  });

  describe('watches', () => {
    const brief = (e: WatchEvent<Obj>) => `${e.type} ${e.object.metadata.name} ${String(e.object.status?.phase ?? '')}`.trim();
    async function take(w: WatchStream<Obj>, n: number): Promise<string[]> {
      const out: string[] = [];
      while (out.length < n) {
        const ev = await w.next(10_000);
        if (ev.type !== 'BOOKMARK') out.push(brief(ev));
      }
      return out;
    }

    for (const [label, rv] of [['from now (watch cache)', 'now'], ['with the initial state', '']] as const) {
      it(`status.phase ${label}: ADDED on entering, MODIFIED inside, DELETED on leaving and on deletion`, async () => {
        const name = `w-${rv || 'initial'}`;
        const other = `${name}-other`;
        expect((await call('POST', pods, pod(name, { nodeName: 'wn' }))).status).to.equal(201);
        expect((await call('POST', pods, pod(other, { nodeName: 'wn' }))).status).to.equal(201);
        await setStatus(other, { phase: 'Running' });
        const list = await call<List>('GET', `${pods}?${q('status.phase=Running')}`);
        const from = rv === 'now' ? `&resourceVersion=${list.body.metadata.resourceVersion}` : '';
        const w = await watch<Obj>(`${cluster.urls[1]}${pods}?watch=1&${q(`status.phase=Running,spec.nodeName=wn`)}${from}`, cluster.credentialsFor());
        try {
          expect(w.status).to.equal(200);
          if (rv === '') expect(await take(w, 1)).to.deep.equal([`ADDED ${other} Running`]);
          await setStatus(name, { phase: 'Running' });
          await call('PATCH', `${pods}/${name}`, { metadata: { labels: { touched: 'yes' } } }, 0, { 'Content-Type': 'application/merge-patch+json' });
          await setStatus(name, { phase: 'Succeeded' });
          await setStatus(name, { phase: 'Running' });
          await call('DELETE', `${pods}/${name}?gracePeriodSeconds=0`);
          await call('DELETE', `${pods}/${other}?gracePeriodSeconds=0`);
          expect(await take(w, 6)).to.deep.equal([
            `ADDED ${name} Running`,
            `MODIFIED ${name} Running`,
            // Leaving: the object as it was before the change that took it out.
            `DELETED ${name} Running`,
            `ADDED ${name} Running`,
            `DELETED ${name} Running`,
            `DELETED ${other} Running`,
          ]);
        } finally { w.close(); }
      });
    }

    it('the DELETED sent on leaving carries the revision of the change', async () => {
      expect((await call('POST', pods, pod('rv-leave', { nodeName: 'rvn' }))).status).to.equal(201);
      const w = await watch<Obj>(`${cluster.urls[0]}${pods}?watch=1&${q('spec.nodeName=rvn,status.phase!=Failed')}`, cluster.credentialsFor());
      try {
        const added = await w.next(10_000);
        expect(added.type).to.equal('ADDED');
        const failed = await setStatus('rv-leave', { phase: 'Failed' });
        let ev = await w.next(10_000);
        while (ev.type === 'BOOKMARK') ev = await w.next(10_000);
        expect(ev.type).to.equal('DELETED');
        expect(ev.object.status?.phase).to.not.equal('Failed');
        expect(ev.object.metadata.resourceVersion).to.equal(failed.body.metadata.resourceVersion);
      } finally { w.close(); }
    });

    it('nodes: spec.unschedulable, cordon and uncordon through the other replica', async () => {
      const name = `${ns}-cordon`;
      await call('POST', '/api/v1/nodes', { metadata: { name } });
      const w = await watch<Obj>(`${cluster.urls[1]}/api/v1/nodes?watch=1&${q(`spec.unschedulable=true,metadata.name=${name}`)}`, cluster.credentialsFor());
      const patch = (unschedulable: boolean) => call('PATCH', `/api/v1/nodes/${name}`, { spec: { unschedulable } }, 0, { 'Content-Type': 'application/merge-patch+json' });
      try {
        await patch(true);
        await patch(false);
        expect((await take(w, 2)).map((s) => s.split(' ')[0])).to.deep.equal(['ADDED', 'DELETED']);
      } finally { w.close(); }
    });
  });

  describe('deletecollection', () => {
    it('removes only the selected objects', async () => {
    for (const [name, node] of [['dc-1', 'dcn'], ['dc-2', 'dcn'], ['dc-3', 'other']]) {
      expect((await call('POST', pods, pod(name, { nodeName: node }))).status).to.equal(201);
    }
    const res = await call<List>('DELETE', `${pods}?${q('spec.nodeName=dcn')}&gracePeriodSeconds=0`, undefined, 1);
    expect(res.status).to.equal(200);
    expect(res.body.items.map((p) => p.metadata.name).sort()).to.deep.equal(['dc-1', 'dc-2']);
    expect(await names(`${pods}?${q('spec.nodeName=dcn')}`)).to.deep.equal([]);
    expect(await names(`${pods}?${q('spec.nodeName=other')}`)).to.deep.equal(['dc-3']);
    });
  });
});
