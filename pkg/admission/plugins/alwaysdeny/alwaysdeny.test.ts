import { expect } from 'chai';
import { podAttrs, rejection } from '../../testing.js';
import { AlwaysDeny } from './index.js';

describe('AlwaysDeny', () => {
  const p = new AlwaysDeny();

  it('refuses in both phases with 403 and upstream message, naming the object', async () => {
    for (const phase of [p.admit.bind(p), p.validate.bind(p)]) {
      const err = await rejection(phase(podAttrs({})));
      expect(err.code).to.equal(403);
      expect(err.reason).to.equal('Forbidden');
      expect(err.message).to.equal('pods "p" is forbidden: admission control is denying all modifications');
    }
  });

  it('handles every operation, including deletes and connects', async () => {
    for (const op of ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const) expect(p.handles(op)).to.equal(true);
    const err = await rejection(p.admit({ ...podAttrs({}), operation: 'DELETE', group: 'apps', resource: 'deployments', name: 'd' }));
    expect(err.message).to.equal('deployments.apps "d" is forbidden: admission control is denying all modifications');
  });

  it('names a generateName object by its prefix', async () => {
    const err = await rejection(p.admit(podAttrs({}, { name: '', object: { metadata: { generateName: 'web-' }, spec: {} } })));
    expect(err.message).to.equal('pods "web-" is forbidden: admission control is denying all modifications');
  });
});
