// Every generator thread that makes HTTP/2 requests binds Node's per-request AsyncResource
// (ClientHttp2Session.request's PendingRequest) without Node 20's deprecated accessor.
import { expect } from 'chai';
import { Worker } from 'node:worker_threads';

describe('cluster load: transport', () => {
  it('makes a thread\'s AsyncResource.bind skip the deprecated accessor once the transport is loaded', async () => {
    // A fresh thread: its own AsyncResource, untouched by other tests in this process.
    const transport = new URL('./transport.js', import.meta.url).href;
    const w = new Worker(`
      const { AsyncResource } = require('node:async_hooks');
      const { parentPort } = require('node:worker_threads');
      const has = () => Object.prototype.hasOwnProperty.call(new AsyncResource('t').bind(() => undefined), 'asyncResource');
      const before = has();
      import(${JSON.stringify(transport)}).then(() => parentPort.postMessage([before, has()]));
    `, { eval: true });
    const got = await new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject); });
    await w.terminate();
    expect(got).to.deep.equal([true, false]);
  });
});
