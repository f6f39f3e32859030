// The etcd client's HTTP/2 windows: a watch must not be held to 64 KiB per turn of a
// busy event loop. A 1.25 MiB transaction's watch event is read through a loop whose
// every turn takes 20 ms (as a loaded replica's do): our client gets it in a few turns;
// one with grpc-js's default windows reads 64 KiB a turn.
import { expect } from 'chai';
import { Etcd3 } from 'etcd3';
import { testEtcdEndpoint } from '../../../test/harness/etcd.js';
import { createEtcdClient, etcdFlowControlWindow } from './client.js';
import { prefixEnd } from './keys.js';
import { watchRange } from './watcher/range-watch.js';

const quiet = { warn: () => undefined, info: () => undefined };

/** Milliseconds from sending a 40-key, 32 KiB-per-key transaction to its watch event, every loop turn 20 ms long. */
async function deliveryMs(watcher: Etcd3, writer: Etcd3, prefix: string): Promise<number> {
  const key = Buffer.from(prefix);
  const start = Number((await writer.get('x').exec()).header.revision) + 1;
  const w = watchRange(watcher, { key, rangeEnd: prefixEnd(key), startRevision: start });
  await w.created;
  const value = Buffer.alloc(32 * 1024, 'v');
  let busy = true;
  const spin = (): void => {
    const until = performance.now() + 20;
    while (performance.now() < until) { /* a loaded loop's turn */ }
    if (busy) setImmediate(spin);
  };
  try {
    const t0 = performance.now();
    const put = writer.kv.txn({ compare: [], success: Array.from({ length: 40 }, (_x, i) => ({ request_put: { key: Buffer.from(`${prefix}${i}`), value } })), failure: [] });
    setImmediate(spin);
    for await (const m of w) if (m.type === 'events') break;
    const ms = performance.now() - t0;
    await put;
    return ms;
  } finally {
    busy = false;
    w.close();
    await writer.delete().prefix(prefix);
  }
}

describe('etcd client: HTTP/2 flow-control windows', function () {
  this.timeout(30_000);
  // Timed against a shared etcd while other test files run: once in about 3,000 CI tests
  // (6d2cbf1's fresh-clone run) grpc-js's default windows read the event in 102 ms instead
  // of 850-1,040, so the scenario did not reproduce; a client that lost its large windows
  // fails every attempt.
  this.retries(2);

  it('reads a large watch event through a busy event loop in a few turns, where 64 KiB windows take many', async () => {
    const endpoint = await testEtcdEndpoint();
    const ours = createEtcdClient({ endpoints: [endpoint], tls: {} }, quiet).client;
    const grpcDefault = new Etcd3({ hosts: endpoint.replace(/^https?:\/\//, '') });
    const writer = new Etcd3({ hosts: endpoint.replace(/^https?:\/\//, '') });
    try {
      const prefix = `/client-window-test/${process.pid}/`;
      const withDefault = await deliveryMs(grpcDefault, writer, `${prefix}a/`);
      const withOurs = await deliveryMs(ours, writer, `${prefix}b/`);
      // 1.25 MiB in 64 KiB windows: about 20 turns of 20 ms.
      expect(withDefault, 'grpc-js default windows').to.be.above(300);
      expect(withOurs, `ours (${etcdFlowControlWindow} B windows), against ${withDefault.toFixed(0)} ms`).to.be.below(withDefault / 2);
    } finally {
      ours.close();
      grpcDefault.close();
      writer.close();
    }
  });
});
