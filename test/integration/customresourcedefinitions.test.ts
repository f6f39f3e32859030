// CustomResourceDefinitions over HTTP against two replicas: upstream's fixture is
// answered as upstream did, invalid definitions get upstream's 422, the status
// controllers accept names (or report the conflict) and establish the CRD within a
// second, and a delete goes through the cleanup finalizer to the end.
import { expect } from 'chai';
import { request, startReplicas, type Cluster, type HttpResponse } from '../harness/index.js';
import { fixtureObject, fixtureTable, withoutRunValues } from '../harness/surface-objects.js';
import type { KubeObject } from '../../pkg/runtime/object.js';

interface Status { code: number; reason: string; message: string; details?: { causes?: Array<{ reason: string; message: string; field: string }> } }
interface Table { columnDefinitions: { name: string; type: string; format: string; priority: number }[]; rows: { cells: unknown[] }[] }
interface Condition { type: string; status: string; reason: string; message: string; lastTransitionTime: string }
type CRD = KubeObject & { status: { acceptedNames: Record<string, unknown>; conditions: Condition[] | null; storedVersions: string[] } };

const gv = 'apiextensions.k8s.io_v1';
const base = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function crd(plural: string, kind: string, extra: { shortNames?: string[]; group?: string } = {}): KubeObject {
  const group = extra.group ?? 'conflicts.example.com';
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `${plural}.${group}` },
    spec: {
      group, scope: 'Namespaced', names: { plural, kind, ...(extra.shortNames ? { shortNames: extra.shortNames } : {}) },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
}

describe('customresourcedefinitions over HTTP', function () {
  this.timeout(60_000);
  let cluster: Cluster;
  const call = <T>(replica: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResponse<T>> =>
    request<T>(`${cluster.urls[replica]}${path}`, { ...cluster.credentialsFor(), method, body, headers });

  /**
   * Polls replica 1 until pred holds, failing after `ms`. The naming and establishing
   * controllers act only on watch events (no periodic resync), so a deadline long enough for
   * CI's load cannot be met by some later pass: 10 s, where 1 s was sometimes a close call.
   */
  async function until(name: string, pred: (c: CRD | undefined) => boolean, ms = 10_000): Promise<CRD | undefined> {
    const deadline = Date.now() + ms;
    for (;;) {
      const res = await call<CRD>(1, 'GET', `${base}/${name}`);
      const body = res.status === 200 ? res.body : undefined;
      if (pred(body)) return body;
      if (Date.now() > deadline) throw new Error(`${name}: condition not reached in ${ms}ms; last: ${JSON.stringify(body?.status ?? res.status)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  const cond = (c: CRD | undefined, type: string) => c?.status.conditions?.find((x) => x.type === type);

  before(async () => { cluster = await startReplicas(2); });
  after(async () => { await cluster?.stop(); });

  it('is discovered after admissionregistration, with its short names, and has its local APIService', async () => {
    const groups = await call<{ groups: Array<{ name: string }> }>(1, 'GET', '/apis');
    const names = groups.body.groups.map((g) => g.name);
    expect(names.indexOf('apiextensions.k8s.io')).to.equal(names.indexOf('admissionregistration.k8s.io') + 1);
    const list = await call<{ resources: Array<Record<string, unknown>> }>(0, 'GET', '/apis/apiextensions.k8s.io/v1');
    expect(list.body.resources.map((r) => [r.name, r.namespaced, r.kind, r.shortNames, r.categories])).to.deep.equal([
      ['customresourcedefinitions', false, 'CustomResourceDefinition', ['crd', 'crds'], ['api-extensions']],
      ['customresourcedefinitions/status', false, 'CustomResourceDefinition', undefined, undefined],
    ]);
    const svc = await call<KubeObject>(1, 'GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1.apiextensions.k8s.io');
    expect(svc.status).to.equal(200);
    expect(svc.body.spec).to.deep.include({ group: 'apiextensions.k8s.io', version: 'v1', groupPriorityMinimum: 16700, versionPriority: 15 });
  });

  it('answers the fixture as upstream did, and replica 1 reads and prints it', async () => {
    const name = 'widgets.fixtures.example.com';
    const res = await call<CRD>(0, 'POST', base, fixtureObject(gv, 'CustomResourceDefinition', name, 'request'));
    expect(res.status, res.text).to.equal(201);
    const want = fixtureObject(gv, 'CustomResourceDefinition', name, 'response');
    expect(withoutRunValues(res.body)).to.deep.equal(withoutRunValues(want));
    const entries = (o: KubeObject) => (o.metadata.managedFields ?? []).map(({ time: _t, ...rest }) => rest);
    expect(entries(res.body)).to.deep.equal(entries(want));
    const got = await call<CRD>(1, 'GET', `${base}/${name}`);
    expect(got.body.metadata.uid).to.equal(res.body.metadata.uid);
    const table = await call<Table>(1, 'GET', base, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    const upstream = fixtureTable(gv, 'CustomResourceDefinition');
    expect(table.body.columnDefinitions.map(({ name: n, type, format, priority }) => ({ name: n, type, format, priority })))
      .to.deep.equal(upstream.columnDefinitions);
    expect(table.body.rows.find((r) => r.cells[0] === name)?.cells).to.deep.equal([name, res.body.metadata.creationTimestamp]);
  });

  it('accepts the names and establishes the CRD, seen through the other replica', async () => {
    const created = await call<CRD>(0, 'POST', base, crd('gadgets', 'Gadget', { shortNames: ['gd'], group: 'status.example.com' }));
    expect(created.status, created.text).to.equal(201);
    const c = await until('gadgets.status.example.com', (x) => cond(x, 'Established')?.status === 'True');
    expect(c!.status.acceptedNames).to.deep.equal({ plural: 'gadgets', singular: 'gadget', shortNames: ['gd'], kind: 'Gadget', listKind: 'GadgetList' });
    expect(c!.status.conditions!.map(({ type, status, reason, message }) => ({ type, status, reason, message }))).to.deep.equal([
      { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' },
      { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' },
    ]);
    expect(c!.status.storedVersions).to.deep.equal(['v1']);
    const statusEntry = c!.metadata.managedFields?.find((m) => m.subresource === 'status');
    expect(statusEntry?.manager).to.equal('kube-apiserver');
  });

  it('refuses names another CRD of the group holds, and accepts them once it is deleted', async () => {
    expect((await call(0, 'POST', base, crd('apples', 'Apple', { shortNames: ['ap'] }))).status).to.equal(201);
    await until('apples.conflicts.example.com', (x) => cond(x, 'Established')?.status === 'True');
    expect((await call(0, 'POST', base, crd('pears', 'Apple'))).status).to.equal(201);
    expect((await call(0, 'POST', base, crd('plums', 'Plum', { shortNames: ['ap', 'pl'] }))).status).to.equal(201);
    const pears = await until('pears.conflicts.example.com', (x) => cond(x, 'NamesAccepted')?.status === 'False');
    // Singular (defaulted from the kind), kind and listKind all clash; as upstream, the last check's reason is reported.
    expect(cond(pears, 'NamesAccepted')).to.include({ reason: 'ListKindConflict', message: '"AppleList" is already in use' });
    expect(cond(pears, 'Established')).to.include({ status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
    expect(pears!.status.acceptedNames).to.deep.equal({ plural: 'pears', kind: '' });
    const plums = await until('plums.conflicts.example.com', (x) => cond(x, 'NamesAccepted')?.status === 'False');
    expect(cond(plums, 'NamesAccepted')).to.include({ reason: 'ShortNamesConflict', message: '"ap" is already in use' });

    const del = await call<CRD>(0, 'DELETE', `${base}/apples.conflicts.example.com`);
    expect(del.status, del.text).to.equal(200);
    expect(del.body.metadata.finalizers).to.deep.equal(['customresourcecleanup.apiextensions.k8s.io']);
    expect(del.body.metadata.deletionTimestamp).to.be.a('string');
    expect(cond(del.body, 'Terminating')).to.include({ status: 'True', reason: 'InstanceDeletionPending' });
    await until('apples.conflicts.example.com', (x) => x === undefined);
    const accepted = await until('pears.conflicts.example.com', (x) => cond(x, 'Established')?.status === 'True');
    expect(accepted!.status.acceptedNames).to.include({ kind: 'Apple', listKind: 'AppleList' });
    await until('plums.conflicts.example.com', (x) => cond(x, 'Established')?.status === 'True');
  });

  it('refuses invalid definitions with upstream\'s 422', async () => {
    const bad = crd('things', 'Thing', { group: 'example' });
    bad.metadata.name = 'stuff.example';
    const spec = bad.spec as { versions: Array<Record<string, unknown>> };
    spec.versions = [{ name: 'v1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { properties: {} } } } } }];
    const res = await call<Status>(1, 'POST', base, bad);
    expect(res.status).to.equal(422);
    expect(res.body.reason).to.equal('Invalid');
    const versions = 'apiextensions.CustomResourceDefinitionVersion{Name:"v1", Served:true, Storage:false, Deprecated:false, '
      + 'DeprecationWarning:(*string)(nil), Schema:(*apiextensions.CustomResourceValidation)(nil), '
      + 'Subresources:(*apiextensions.CustomResourceSubresources)(nil), AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil)}';
    expect(res.body.message).to.equal('CustomResourceDefinition.apiextensions.k8s.io "stuff.example" is invalid: ['
      + 'metadata.name: Invalid value: "stuff.example": must be spec.names.plural+"."+spec.group, '
      + 'spec.group: Invalid value: "example": should be a domain with at least one dot, '
      + `spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{${versions}}: must have exactly one version marked as storage version, `
      + 'spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields, '
      + 'status.storedVersions: Invalid value: []string(nil): must have at least one stored version]');
    expect(res.body.details?.causes?.map((c) => c.field)).to.deep.equal(['metadata.name', 'spec.group', 'spec.versions',
      'spec.validation.openAPIV3Schema.properties[spec].type', 'status.storedVersions']);
  });

  it('keeps group and plural immutable, and scope once established', async () => {
    const name = 'gadgets.status.example.com';
    const cur = await call<CRD>(0, 'GET', `${base}/${name}`);
    const next = structuredClone(cur.body);
    (next.spec as { scope: string }).scope = 'Cluster';
    const res = await call<Status>(1, 'PUT', `${base}/${name}`, next);
    expect(res.status).to.equal(422);
    expect(res.body.message).to.equal(`CustomResourceDefinition.apiextensions.k8s.io "${name}" is invalid: spec.scope: Invalid value: "Cluster": field is immutable`);
  });
});
