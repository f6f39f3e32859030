import { expect } from 'chai';
import type { AdmissionAttributes } from '../../interfaces.js';
import { rejection } from '../../testing.js';
import { DenyServiceExternalIPs } from './index.js';

const svc = (ips?: string[]) => ({ metadata: { name: 's', namespace: 'team' }, spec: { ports: [{ port: 80 }], ...(ips ? { externalIPs: ips } : {}) } });

function attrs(over: Partial<AdmissionAttributes>): AdmissionAttributes {
  return {
    operation: 'CREATE', group: '', version: 'v1', kind: 'Service', resource: 'services', subresource: '',
    namespace: 'team', name: 's', user: { name: 'u', groups: [] }, dryRun: false, ...over,
  };
}

describe('DenyServiceExternalIPs', () => {
  const p = new DenyServiceExternalIPs();

  it('refuses a new Service with externalIPs (403, upstream message)', async () => {
    const err = await rejection(p.validate(attrs({ object: svc(['1.2.3.4']) })));
    expect(err.code).to.equal(403);
    expect(err.message).to.equal('services "s" is forbidden: Use of external IPs is denied by admission control');
  });

  it('refuses an update adding an address', async () => {
    await rejection(p.validate(attrs({ operation: 'UPDATE', object: svc(['1.2.3.4', '5.6.7.8']), oldObject: svc(['1.2.3.4']) })));
    await rejection(p.validate(attrs({ operation: 'UPDATE', object: svc(['1.2.3.4']), oldObject: svc() })));
  });

  it('allows Services without externalIPs, keeping or removing existing addresses', async () => {
    await p.validate(attrs({ object: svc() }));
    await p.validate(attrs({ object: svc([]) }));
    await p.validate(attrs({ operation: 'UPDATE', object: svc(['1.2.3.4']), oldObject: svc(['5.6.7.8', '1.2.3.4']) }));
    await p.validate(attrs({ operation: 'UPDATE', object: svc(), oldObject: svc(['1.2.3.4']) }));
  });

  it('ignores subresources and other resources', async () => {
    await p.validate(attrs({ subresource: 'status', object: svc(['1.2.3.4']) }));
    await p.validate(attrs({ resource: 'endpoints', object: svc(['1.2.3.4']) }));
    expect(p.handles('DELETE')).to.equal(false);
  });
});
