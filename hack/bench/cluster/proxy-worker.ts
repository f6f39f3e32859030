// The kube-proxies' thread (see startKubeProxies in proxy.ts): their clients and
// reflectors, a Recorder of their own calls handed over when stopped, and the watch
// events they see handed over in batches for the main thread's watch-lag matching.
import { parentPort, workerData } from 'node:worker_threads';
import { ApiClient } from './client.js';
import { flushMs, startKubeProxy, type FromWorker, type ProxyData, type Saw, type SawBatch } from './proxy.js';
import { Recorder, threadLoop } from './recorder.js';

function runWorker(d: ProxyData): void {
  const rec = new Recorder();
  const loop = threadLoop(`${d.nodes.length} kube-proxies`);
  let batch: SawBatch = [];
  const flush = (): void => { if (batch.length) { parentPort!.postMessage({ saw: batch } satisfies FromWorker); batch = []; } };
  const timer = setInterval(flush, flushMs);
  const sink: Saw = { saw: (key, rv, at) => { batch.push(key, rv, at); } };
  const clients = d.nodes.map(() => new ApiClient(d.server, d.id, rec, d.userAgent, d.protocol));
  const stops = clients.map((c, i) => startKubeProxy(c, sink, d.nodes[i]!, d.allNodes));
  parentPort!.once('message', () => {
    for (const s of stops) s();
    for (const c of clients) c.close();
    clearInterval(timer);
    flush();
    parentPort!.postMessage({ done: { ...rec.snapshot(), loop: loop() } } satisfies FromWorker);
  });
}

runWorker(workerData as ProxyData);
