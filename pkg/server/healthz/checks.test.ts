import { expect } from 'chai';
import { createInformerSyncCheck } from './checks.js';

describe('informer-sync check', () => {
  it('passes once every informer synced, whatever else is reported', async () => {
    await createInformerSyncCheck(() => [], () => [{ key: '/registry/secrets/a/b', reason: 'x' }]).check();
  });

  it('names the pending informers, and the etcd keys that could not be decoded', async () => {
    const check = createInformerSyncCheck(() => ['secrets', 'pods'], () => [{ key: '/registry/secrets/ns/broken', reason: 'index out of range: 7 + 1 > 7' }]);
    let message = '';
    try { await check.check(); } catch (err) { message = (err as Error).message; }
    expect(message).to.equal('2 informers not started yet: [secrets pods]; unable to decode /registry/secrets/ns/broken: index out of range: 7 + 1 > 7');
  });
});
