import { expect } from 'chai';
import { fieldErrorMessage } from '../../../runtime/errors.js';
import type { KubeObject } from '../../../runtime/object.js';
import { createThrough, objectFixture, tableFixture, withoutVolatile } from '../../../../test/harness/surface.js';
import { resourcequotas } from './index.js';

const s = resourcequotas.strategy;

describe('resourcequotas', () => {
  it('declares upstream discovery data', () => {
    expect(resourcequotas).to.include({ kind: 'ResourceQuota', plural: 'resourcequotas', namespaced: true });
    expect(resourcequotas.shortNames).to.deep.equal(['quota']);
    expect(resourcequotas.subresources!.map((r) => r.name)).to.deep.equal(['status']);
  });

  it('reproduces upstream\'s created rq (empty status)', () => {
    const { request, response } = objectFixture('v1', 'ResourceQuota', 'rq');
    expect(createThrough(resourcequotas, request, 'fixtures')).to.deep.equal(withoutVolatile(response));
  });

  it('validates hard quantities and scopes; status keeps spec', () => {
    expect(s.validate({ metadata: { name: 'q', namespace: 'n' }, spec: { hard: { pods: '-1' }, scopes: ['Sometimes'] } }, {}).map((e) => fieldErrorMessage(e))).to.deep.equal([
      'spec.hard[pods]: Invalid value: "-1": must be greater than or equal to 0',
      'spec.scopes[0]: Unsupported value: "Sometimes": supported values: "BestEffort", "CrossNamespacePodAffinity", "NotBestEffort", "NotTerminating", "PriorityClass", "Terminating"',
    ]);
    const old: KubeObject = { metadata: { name: 'q', namespace: 'n' }, spec: { hard: { pods: '1' } }, status: {} };
    const upd: KubeObject = { metadata: { name: 'q', namespace: 'n' }, spec: { hard: { pods: '9' } }, status: { hard: { pods: '1' }, used: { pods: '0' } } };
    s.prepareForUpdate(upd, old, { subresource: 'status' });
    expect(upd.spec).to.deep.equal({ hard: { pods: '1' } });
    expect(upd.status).to.deep.equal({ hard: { pods: '1' }, used: { pods: '0' } });
  });

  it('prints upstream\'s columns', () => {
    const fx = tableFixture('v1', 'ResourceQuota');
    expect(resourcequotas.table!.columns.map(({ name, type, format, priority }) => ({ format, name, priority, type }))).to.deep.equal(fx.columnDefinitions);
    const { response } = objectFixture('v1', 'ResourceQuota', 'rq');
    response.metadata.creationTimestamp = new Date().toISOString();
    expect(resourcequotas.table!.cells(response)).to.deep.equal(fx.rows[0]);
    response.status = { hard: { pods: '10', 'limits.cpu': '2', 'requests.cpu': '1' }, used: { pods: '3' } };
    expect(resourcequotas.table!.cells(response).slice(2)).to.deep.equal(['pods: 3/10, requests.cpu: 0/1', 'limits.cpu: 0/2']);
  });
});
