// API Priority and Fairness configuration over HTTP against real replicas: upstream's
// fixture objects, one stored object read through v1beta3 and v1beta2, the bootstrap
// configuration present after start with upstream's specs, mandatory objects put back
// after a delete or an edit, suggested ones left alone once an operator opts out, the
// Dangling condition, and the tables.
import { expect } from 'chai';
import { Etcd3 } from 'etcd3';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';
import { objectFixture, stripVolatile, tableFixture } from '../harness/surface-fixtures.js';
import type { KubeList, KubeObject } from '../../pkg/runtime/object.js';
import {
  AutoUpdateAnnotation, mandatoryFlowSchemas, mandatoryPriorityLevels, suggestedFlowSchemas, suggestedPriorityLevels,
} from '../../pkg/registry/flowcontrol/bootstrap.js';

const v3 = '/apis/flowcontrol.apiserver.k8s.io/v1beta3';
const v2 = '/apis/flowcontrol.apiserver.k8s.io/v1beta2';
type Obj = Record<string, unknown>;

async function eventually<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('flowcontrol over HTTP', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  const call = <T = Obj>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, replica = 0): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(), method, body, headers });
  const get = async (path: string): Promise<KubeObject | undefined> => {
    const res = await call<KubeObject>('GET', path);
    return res.status === 200 ? res.body : undefined;
  };

  before(async () => {
    cluster = await startReplicas(2);
  });
  after(async () => { await cluster?.stop(); });

  it('serves v1beta3 (preferred) and v1beta2 only', async () => {
    const group = (await call<{ versions: Obj[]; preferredVersion: Obj }>('GET', '/apis/flowcontrol.apiserver.k8s.io')).body;
    expect(group.versions.map((v) => v.version)).to.deep.equal(['v1beta3', 'v1beta2']);
    expect(group.preferredVersion.version).to.equal('v1beta3');
    expect((await call('GET', '/apis/flowcontrol.apiserver.k8s.io/v1beta1')).status).to.equal(404);
    const res = (await call<{ resources: Obj[] }>('GET', v2)).body.resources.map((r) => r.name);
    expect(res).to.deep.equal(['flowschemas', 'flowschemas/status', 'prioritylevelconfigurations', 'prioritylevelconfigurations/status']);
  });

  it('creates the bootstrap configuration with upstream\'s specs', async () => {
    for (const [plural, objs] of [['prioritylevelconfigurations', [...mandatoryPriorityLevels, ...suggestedPriorityLevels]],
      ['flowschemas', [...mandatoryFlowSchemas, ...suggestedFlowSchemas]]] as const) {
      for (const want of objs) {
        const got = await eventually(`${plural}/${want.metadata.name}`, () => get(`${v3}/${plural}/${want.metadata.name}`));
        expect(got.spec, want.metadata.name).to.deep.equal(want.spec);
        expect(got.metadata.annotations).to.deep.equal({ [AutoUpdateAnnotation]: 'true' });
        expect(got.metadata.generation).to.equal(1);
      }
    }
    const fs = await eventually('Dangling on catch-all', async () => {
      const o = await get(`${v3}/flowschemas/catch-all`);
      return (o?.status as Obj | undefined)?.conditions ? o : undefined;
    });
    expect(((fs.status as Obj).conditions as Obj[]).map(({ lastTransitionTime: _t, ...c }) => c)).to.deep.equal([{ type: 'Dangling', status: 'False',
      reason: 'Found', message: 'This FlowSchema references the PriorityLevelConfiguration object named "catch-all" and it exists' }]);
  });

  it('creates the fixture objects as upstream answered, keyed as upstream keys them', async () => {
    for (const [kind, name, plural] of [['PriorityLevelConfiguration', 'fixtures-plc', 'prioritylevelconfigurations'], ['FlowSchema', 'fixtures-fs', 'flowschemas']] as const) {
      const f = objectFixture(`flowcontrol.apiserver.k8s.io_v1beta3.${kind}.${name}`);
      const res = await call<KubeObject>('POST', `${v3}/${plural}`, f.request);
      expect(res.status, name).to.equal(201);
      expect(stripVolatile(res.body)).to.deep.equal(stripVolatile(f.response));
    }
    const client = new Etcd3({ hosts: cluster.etcdEndpoint });
    try {
      const keys = await client.getAll().prefix(`${cluster.etcdPrefix}/`).keys();
      expect(keys).to.include.members([`${cluster.etcdPrefix}/flowschemas/fixtures-fs`, `${cluster.etcdPrefix}/prioritylevelconfigurations/fixtures-plc`]);
    } finally { client.close(); }
  });

  it('serves one stored object through both versions (nominalConcurrencyShares <-> assuredConcurrencyShares)', async () => {
    const created = await call<KubeObject>('POST', `${v2}/prioritylevelconfigurations`, { apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta2',
      kind: 'PriorityLevelConfiguration', metadata: { name: 'both' }, spec: { type: 'Limited', limited: { assuredConcurrencyShares: 12, limitResponse: { type: 'Reject' } } } });
    expect(created.status).to.equal(201);
    expect(created.body.apiVersion).to.equal('flowcontrol.apiserver.k8s.io/v1beta2');
    expect(created.headers.warning).to.equal('299 - "flowcontrol.apiserver.k8s.io/v1beta2 PriorityLevelConfiguration is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration"');
    expect((created.body.spec as Obj).limited).to.deep.equal({ assuredConcurrencyShares: 12, limitResponse: { type: 'Reject' }, lendablePercent: 0 });
    const asV3 = await call<KubeObject>('GET', `${v3}/prioritylevelconfigurations/both`, undefined, {}, 1);
    expect(asV3.body.apiVersion).to.equal('flowcontrol.apiserver.k8s.io/v1beta3');
    expect(asV3.headers.warning).to.equal(undefined);
    expect((asV3.body.spec as Obj).limited).to.deep.equal({ nominalConcurrencyShares: 12, limitResponse: { type: 'Reject' }, lendablePercent: 0 });
    const patched = await call<KubeObject>('PATCH', `${v3}/prioritylevelconfigurations/both`, { spec: { limited: { nominalConcurrencyShares: 3 } } },
      { 'Content-Type': 'application/merge-patch+json' });
    expect(patched.status).to.equal(200);
    const asV2 = (await call<KubeObject>('GET', `${v2}/prioritylevelconfigurations/both`)).body;
    expect((asV2.spec as { limited: Obj }).limited.assuredConcurrencyShares).to.equal(3);
    expect(asV2.metadata.resourceVersion).to.equal(patched.body.metadata.resourceVersion);
    const fs = (await call<KubeObject>('GET', `${v2}/flowschemas/fixtures-fs`)).body;
    expect(fs.apiVersion).to.equal('flowcontrol.apiserver.k8s.io/v1beta2');
    expect((fs.spec as Obj).matchingPrecedence).to.equal(5000);
  });

  it('answers invalid writes with upstream\'s status, naming the version\'s field', async () => {
    const res = await call<Obj>('POST', `${v2}/prioritylevelconfigurations`, { metadata: { name: 'neg' },
      spec: { type: 'Limited', limited: { assuredConcurrencyShares: -1, limitResponse: { type: 'Reject' } } } });
    expect(res.status).to.equal(422);
    expect(res.body).to.deep.include({ reason: 'Invalid',
      message: 'PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "neg" is invalid: spec.limited.assuredConcurrencyShares: Invalid value: -1: must be positive' });
    const fs = await call<Obj>('POST', `${v3}/flowschemas`, { metadata: { name: 'one' }, spec: { matchingPrecedence: 1,
      priorityLevelConfiguration: { name: 'exempt' }, rules: [{ subjects: [{ kind: 'Group', group: { name: 'g' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] } });
    expect(fs.status).to.equal(422);
    expect(fs.body.message).to.equal("FlowSchema.flowcontrol.apiserver.k8s.io \"one\" is invalid: spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1");
    const mandatory = await call<Obj>('PATCH', `${v3}/flowschemas/catch-all`, { spec: { matchingPrecedence: 9000 } }, { 'Content-Type': 'application/merge-patch+json' });
    expect(mandatory.status).to.equal(422);
    expect(mandatory.body.message).to.match(/spec of 'catch-all' must equal the fixed value$/);
  });

  it('puts deleted mandatory and suggested objects back', async () => {
    for (const path of [`${v3}/flowschemas/catch-all`, `${v3}/prioritylevelconfigurations/exempt`, `${v3}/flowschemas/global-default`]) {
      const before = (await call<KubeObject>('GET', path)).body;
      expect((await call('DELETE', path)).status, path).to.equal(200);
      const back = await eventually(`${path} re-created`, async () => {
        const o = await get(path);
        return o && o.metadata.uid !== before.metadata.uid ? o : undefined;
      });
      expect(back.spec, path).to.deep.equal(before.spec);
    }
  });

  it('keeps an edited suggested object whose annotation says false; restores one that says true', async () => {
    const path = `${v3}/prioritylevelconfigurations/workload-low`;
    const optOut = await call<KubeObject>('PATCH', path, { metadata: { annotations: { [AutoUpdateAnnotation]: 'false' } },
      spec: { limited: { nominalConcurrencyShares: 77 } } }, { 'Content-Type': 'application/merge-patch+json' });
    expect(optOut.status).to.equal(200);
    // Any change to a managed object makes the leader look again at once.
    expect((await call('DELETE', `${v3}/flowschemas/probes`)).status).to.equal(200);
    await eventually('probes re-created', () => get(`${v3}/flowschemas/probes`));
    await new Promise((r) => setTimeout(r, 500));
    expect(((await call<KubeObject>('GET', path)).body.spec as { limited: Obj }).limited.nominalConcurrencyShares).to.equal(77);

    await call('PATCH', path, { metadata: { annotations: { [AutoUpdateAnnotation]: 'true' } } }, { 'Content-Type': 'application/merge-patch+json' });
    const restored = await eventually('workload-low restored', async () => {
      const o = await get(path);
      return (o?.spec as { limited: Obj } | undefined)?.limited.nominalConcurrencyShares === 100 ? o : undefined;
    });
    expect(restored.spec).to.deep.equal(suggestedPriorityLevels.find((o) => o.metadata.name === 'workload-low')!.spec);
  });

  it('marks a schema whose priority level is missing as dangling', async () => {
    const created = await call('POST', `${v3}/flowschemas`, { metadata: { name: 'orphan' }, spec: { matchingPrecedence: 600,
      priorityLevelConfiguration: { name: 'nope' }, rules: [{ subjects: [{ kind: 'User', user: { name: 'u' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }] }] } });
    expect(created.status).to.equal(201);
    const fs = await eventually('orphan dangling', async () => {
      const o = await get(`${v3}/flowschemas/orphan`);
      return ((o?.status as Obj | undefined)?.conditions as Obj[] | undefined)?.[0]?.status === 'True' ? o : undefined;
    });
    expect(((fs.status as Obj).conditions as Obj[])[0]).to.include({ reason: 'NotFound',
      message: 'This FlowSchema references the PriorityLevelConfiguration object named "nope" but there is no such object' });
    expect((await call('DELETE', `${v3}/flowschemas/orphan`)).status).to.equal(200);
  });

  it('lists tables as upstream prints them', async () => {
    const asTable = { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };
    await eventually('fixtures-fs found', async () => {
      const o = await get(`${v3}/flowschemas/fixtures-fs`);
      return ((o?.status as Obj | undefined)?.conditions as Obj[] | undefined)?.[0]?.status === 'False' ? o : undefined;
    });
    const fsTable = (await call<{ rows: Array<{ cells: unknown[] }>; columnDefinitions: Obj[] }>('GET', `${v3}/flowschemas`, undefined, asTable)).body;
    const fsWant = tableFixture('flowcontrol.apiserver.k8s.io_v1beta3.FlowSchema');
    const strip = (c: unknown[]) => [...c.slice(0, 4), c[5]];
    expect(fsTable.rows.map((r) => strip(r.cells))).to.deep.equal(fsWant.rows.map(strip));
    const plTable = (await call<{ rows: Array<{ cells: unknown[] }> }>('GET', `${v3}/prioritylevelconfigurations`, undefined, asTable)).body;
    const plWant = tableFixture('flowcontrol.apiserver.k8s.io_v1beta3.PriorityLevelConfiguration').rows.map((r) => r.slice(0, 6));
    expect(plTable.rows.map((r) => r.cells.slice(0, 6)).filter((c) => c[0] !== 'both')).to.deep.equal(plWant);
    const list = (await call<KubeList>('GET', `${v2}/prioritylevelconfigurations`)).body;
    expect(list.kind).to.equal('PriorityLevelConfigurationList');
    expect(list.items.every((o) => o.apiVersion === undefined || o.apiVersion === 'flowcontrol.apiserver.k8s.io/v1beta2')).to.equal(true);
  });
});
