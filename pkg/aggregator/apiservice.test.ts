import { expect } from 'chai';
import type { KubeObject } from '../runtime/object.js';
import { apiServiceSpec, isAvailable, setCondition } from './apiservice.js';

describe('APIService helpers', () => {
  it('reads the spec with upstream defaults', () => {
    const s = apiServiceSpec({ metadata: {}, spec: { group: 'g', version: 'v', service: { namespace: 'n', name: 's' }, caBundle: 'Y2E=' } });
    expect(s).to.deep.include({ group: 'g', version: 'v', service: { namespace: 'n', name: 's', port: 443 }, caBundle: 'Y2E=', insecureSkipTLSVerify: false });
    expect(apiServiceSpec({ metadata: {}, spec: { group: 'g', version: 'v' } }).service).to.equal(undefined);
  });

  it('keeps the transition time while the status stays, and replaces it when the status changes', () => {
    const o: KubeObject = { metadata: {} };
    setCondition(o, { type: 'Available', status: 'False', lastTransitionTime: 't1', reason: 'ServiceNotFound', message: 'm1' });
    setCondition(o, { type: 'Available', status: 'False', lastTransitionTime: 't2', reason: 'FailedDiscoveryCheck', message: 'm2' });
    expect(o.status).to.deep.equal({ conditions: [{ type: 'Available', status: 'False', lastTransitionTime: 't1', reason: 'FailedDiscoveryCheck', message: 'm2' }] });
    expect(isAvailable(o)).to.equal(false);
    setCondition(o, { type: 'Available', status: 'True', lastTransitionTime: 't3', reason: 'Passed', message: 'all checks passed' });
    expect(o.status).to.deep.equal({ conditions: [{ type: 'Available', status: 'True', lastTransitionTime: 't3', reason: 'Passed', message: 'all checks passed' }] });
    expect(isAvailable(o)).to.equal(true);
  });
});
