import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fieldErrorMessage, type FieldError } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { services } from './index.js';

const surface = resolve(process.cwd(), '../shared/fixtures/surface');
const readJSON = (p: string): any => JSON.parse(readFileSync(resolve(surface, p), 'utf8'));
const s = services.strategy;
const causes = (errs: FieldError[]) => errs.map((e) => ({ field: e.field, message: fieldErrorMessage(e, false), reason: e.type }));

/** The create path up to storage: defaults, prepareForCreate, validate. */
function create(body: KubeObject): { obj: KubeObject; errs: FieldError[] } {
  const obj = structuredClone(body);
  obj.metadata = { namespace: 'fixtures', ...obj.metadata };
  s.applyDefaults(obj);
  s.prepareForCreate(obj, { namespace: 'fixtures' });
  return { obj, errs: s.validate(obj, { namespace: 'fixtures' }) };
}

/** Allocated values differ on every run (fixtures README); the allocator is tested apart. */
function withoutAllocated(spec: any): any {
  const out = structuredClone(spec);
  if (out.clusterIP && out.clusterIP !== 'None') { delete out.clusterIP; delete out.clusterIPs; }
  for (const p of out.ports ?? []) delete p.nodePort;
  return out;
}

describe('services', () => {
  it('declares upstream discovery data and storage key', () => {
    expect(services).to.include({ kind: 'Service', plural: 'services', singular: 'service', namespaced: true, storageResource: 'services/specs' });
    expect(services.shortNames).to.deep.equal(['svc']);
    expect(services.categories).to.deep.equal(['all']);
    expect(services.verbs).to.deep.equal(['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  });

  for (const name of ['svc', 'svc-ext', 'svc-headless', 'svc-lb', 'svc-np']) {
    it(`defaults ${name} as upstream did`, () => {
      const req = readJSON(`objects/v1.Service.${name}.request.json`);
      const want = readJSON(`objects/v1.Service.${name}.response.json`);
      const { obj, errs } = create(req);
      expect(errs).to.deep.equal([]);
      expect(withoutAllocated(obj.spec)).to.deep.equal(withoutAllocated(want.spec));
      expect(obj.status).to.deep.equal(want.status);
    });
  }

  for (const c of ['svc-bad-port', 'svc-dup-port-names', 'svc-no-ports']) {
    it(`refuses ${c} with upstream's causes`, () => {
      const f = readJSON(`invalid/${c}.json`);
      expect(causes(create(f.request.body).errs)).to.deep.equal(f.response.details.causes);
    });
  }

  it('refuses a changed clusterIP (svc-clusterip-immutable)', () => {
    const f = readJSON('invalid/svc-clusterip-immutable.json');
    const old = create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc', resourceVersion: '1' },
      spec: { clusterIP: '10.96.5.5', ports: [{ port: 80 }], selector: { app: 'web' } } }).obj;
    const obj = structuredClone(old);
    Object.assign(obj.spec as object, f.request.body.spec);
    s.applyDefaults(obj);
    s.prepareForUpdate(obj, old, {});
    expect(causes(s.validateUpdate(obj, old, {}))).to.deep.equal(f.response.details.causes);
  });

  it('an update keeps allocated values and the policy it leaves out, and drops what a new type has no use for', () => {
    const old = create({ metadata: { name: 'np', resourceVersion: '1' }, spec: { type: 'NodePort', ipFamilyPolicy: 'PreferDualStack',
      clusterIP: '10.96.0.9', ports: [{ name: 'a', port: 80, nodePort: 30080 }] } }).obj;
    const put: KubeObject = { metadata: { name: 'np', resourceVersion: '1' }, spec: { type: 'NodePort', ports: [{ name: 'a', port: 80 }] } };
    s.applyDefaults(put);
    s.prepareForUpdate(put, old, {});
    expect(put.spec).to.deep.include({ clusterIP: '10.96.0.9', clusterIPs: ['10.96.0.9'], ipFamilyPolicy: 'PreferDualStack', ipFamilies: ['IPv4'] });
    expect((put.spec as any).ports[0].nodePort).to.equal(30080);
    const toClusterIP = structuredClone(old);
    (toClusterIP.spec as any).type = 'ClusterIP';
    s.prepareForUpdate(toClusterIP, old, {});
    expect((toClusterIP.spec as any).ports[0].nodePort).to.equal(undefined);
    expect(toClusterIP.spec).to.not.have.property('externalTrafficPolicy');
    expect(s.validateUpdate(toClusterIP, old, {})).to.deep.equal([]);
    const toExternal = structuredClone(old);
    Object.assign(toExternal.spec as object, { type: 'ExternalName', externalName: 'example.com' });
    s.prepareForUpdate(toExternal, old, {});
    expect(toExternal.spec).to.not.have.any.keys('clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy');
    expect(s.validateUpdate(toExternal, old, {})).to.deep.equal([]);
  });

  it('a headless service without selector asks for both families', () => {
    const { obj } = create({ metadata: { name: 'h' }, spec: { clusterIP: 'None' } });
    expect(obj.spec).to.deep.include({ ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv4'], clusterIPs: ['None'] });
  });

  it('nodePort is forbidden on ClusterIP, targetPort names are IANA service names', () => {
    const { errs } = create({ metadata: { name: 'x' }, spec: { ports: [{ port: 80, nodePort: 30001, targetPort: 'Bad--' }] } });
    expect(errs.map((e) => fieldErrorMessage(e))).to.deep.equal([
      'spec.ports[0].targetPort: Invalid value: "Bad--": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      "spec.ports[0].targetPort: Invalid value: \"Bad--\": must not contain consecutive hyphens",
      "spec.ports[0].targetPort: Invalid value: \"Bad--\": must not begin or end with a hyphen",
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
    ]);
  });

  it('prints the rows upstream printed', () => {
    const table = readJSON('tables/v1.Service.json');
    expect(services.table!.columns.map((c) => [c.name, c.type, c.format, c.priority]))
      .to.deep.equal(table.columnDefinitions.map((c: any) => [c.name, c.type, c.format, c.priority]));
    for (const row of table.rows) {
      const obj = readJSON(`objects/v1.Service.${row[0]}.response.json`);
      const cells = services.table!.cells(obj);
      // Age (index 5) depends on the clock; allocated values come from the fixture object itself.
      cells[5] = row[5];
      if (row[0] === 'svc') { cells[2] = row[2]; }
      expect(cells).to.deep.equal(row);
    }
  });
});
