// A reflector does not keep its last LIST answer while it watches: a kube-proxy's Node list
// held for the whole run was most of the generator's memory at 1,000 nodes.
import { expect } from 'chai';
import { Worker } from 'node:worker_threads';

describe('cluster load: a reflector\'s memory', () => {
  it('lets the LIST answer be collected once the watch is open', async function () {
    this.timeout(20_000);
    // A thread of its own, where `gc` can be had without changing this process's flags.
    const client = new URL('./client.js', import.meta.url).href;
    const recorder = new URL('./recorder.js', import.meta.url).href;
    const w = new Worker(`
      const { setFlagsFromString } = require('node:v8');
      setFlagsFromString('--expose-gc');
      const gc = require('node:vm').runInNewContext('gc');
      const http2 = require('node:http2');
      const { parentPort } = require('node:worker_threads');
      const tick = () => new Promise((r) => setTimeout(r, 20));
      (async () => {
        const { ApiClient } = await import(${JSON.stringify(client)});
        const { Recorder } = await import(${JSON.stringify(recorder)});
        let watching;
        const watched = new Promise((r) => { watching = r; });
        const server = http2.createServer((req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          // The watch stays open, sending nothing, as a quiet resource's does.
          if (req.url.includes('watch=1')) { res.write(''); watching(); return; }
          const items = Array.from({ length: 2000 }, (_, i) => ({ metadata: { name: 'n' + i, resourceVersion: '5', labels: { a: 'b' + i } } }));
          res.end(JSON.stringify({ kind: 'NodeList', metadata: { resourceVersion: '5' }, items }));
        });
        await new Promise((r) => server.listen(0, '127.0.0.1', r));
        const api = new ApiClient('http://127.0.0.1:' + server.address().port, {}, new Recorder(), 'test', 'h2');
        let ref;
        api.reflect('/api/v1/nodes', { resource: 'nodes', scope: 'cluster' }, {
          onList: (items) => { ref = new WeakRef(items); },
          onEvent: () => undefined,
        });
        await watched;
        // A WeakRef's target lives to the end of the job that made or read it: collect on later turns.
        for (let i = 0; i < 3; i++) { await tick(); gc(); }
        const collected = ref.deref() === undefined;
        api.close();
        server.close();
        parentPort.postMessage(collected);
      })().catch((e) => parentPort.postMessage(String(e)));
    `, { eval: true });
    const got = await new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject); });
    await w.terminate();
    expect(got).to.equal(true);
  });
});
