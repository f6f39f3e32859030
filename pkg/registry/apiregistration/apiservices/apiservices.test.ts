import { expect } from 'chai';
import { fieldErrorMessage } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { storageSegment } from '../../../runtime/scheme.js';
import { fixtureObject, fixtureTable, withoutRunValues } from '../../../../test/harness/surface-objects.js';
import { apiservices } from './index.js';

const gv = 'apiregistration.k8s.io_v1';
const name = 'v1alpha1.fixtures.example.com';
const s = apiservices.strategy;

describe('apiservices', () => {
  it("create reproduces upstream's fixture and keeps the group in the storage key", () => {
    const obj = structuredClone(fixtureObject(gv, 'APIService', name, 'request'));
    delete (obj.spec as { service: Record<string, unknown> }).service.port;
    s.applyDefaults(obj);
    s.prepareForCreate(obj, {});
    expect(s.validate(obj, {})).to.deep.equal([]);
    expect(obj).to.deep.equal(withoutRunValues(fixtureObject(gv, 'APIService', name, 'response')));
    expect(storageSegment(apiservices)).to.equal('apiregistration.k8s.io/apiservices');
  });

  it('checks the name, priorities and TLS settings with upstream messages', () => {
    const obj = { metadata: { name: 'v1.wrong' }, spec: { group: 'g.example.com', version: 'v1', groupPriorityMinimum: 0, versionPriority: 1001,
      insecureSkipTLSVerify: true, caBundle: 'AAAA' } } as unknown as KubeObject;
    expect(s.validate(obj, {}).map((e) => fieldErrorMessage(e))).to.deep.equal([
      'metadata.name: Invalid value: "v1.wrong": must be `spec.version+"."+spec.group`: "v1.g.example.com"',
      'spec.groupPriorityMinimum: Invalid value: 0: must be positive and less than 20000',
      'spec.versionPriority: Invalid value: 1001: must be positive and less than 1000',
      'spec.caBundle: Invalid value: "3 bytes": local APIServices may not have a caBundle',
      'spec.insecureSkipTLSVerify: Invalid value: true: local APIServices may not have insecureSkipTLSVerify',
    ]);
    const svc = { metadata: { name: 'v1.g.example.com' }, spec: { group: 'g.example.com', version: 'v1', groupPriorityMinimum: 1, versionPriority: 1,
      insecureSkipTLSVerify: true, caBundle: 'AAAA', service: { port: 70000 } } } as unknown as KubeObject;
    expect(s.validate(svc, {}).map((e) => fieldErrorMessage(e))).to.deep.equal([
      'spec.service.namespace: Required value',
      'spec.service.name: Required value',
      'spec.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
      'spec.insecureSkipTLSVerify: Invalid value: true: may not be true if caBundle is present',
    ]);
  });

  it('prints NAME SERVICE AVAILABLE AGE as upstream', () => {
    const table = fixtureTable(gv, 'APIService');
    expect(apiservices.table!.columns.map(({ name: n, type, format, priority }) => ({ name: n, type, format, priority }))).to.deep.equal(table.columnDefinitions);
    const resp = fixtureObject(gv, 'APIService', name, 'response');
    resp.status = { conditions: [{ type: 'Available', status: 'False', reason: 'ServicePortError' }] };
    const row = table.rows.find((r) => r[0] === name)!;
    expect(apiservices.table!.cells(resp).slice(0, 3)).to.deep.equal(row.slice(0, 3));
    expect(apiservices.table!.cells({ metadata: { name: 'v1.' }, spec: { version: 'v1' }, status: { conditions: [{ type: 'Available', status: 'True' }] } }).slice(0, 3))
      .to.deep.equal(table.rows.find((r) => r[0] === 'v1.')!.slice(0, 3));
  });
});
