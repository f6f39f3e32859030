// Benchmark: lists and watch latency through our replicas beside raw etcd3 doing the
// equivalent against the same etcd, in the same run, printed as ratios.
//   list of N ConfigMaps, full          vs  one etcd range over the prefix
//   list of N ConfigMaps, limit=500     vs  etcd ranges of 500 at one revision
//   watch delivery: PUT via replica A -> event at a watcher on replica B
//                                        vs  etcd put -> event at an etcd watcher
// Run: `make bench` (or `node dist/hack/bench/index.js [--objects=10000] [--samples=200]`).
// Everything runs on this machine: its own etcd, two replicas on 127.0.0.1.
import { Agent, request as httpsRequest } from 'node:https';
import { prefixEnd } from '../../pkg/storage/etcd/keys.js';
import type { TlsCredentials } from '../../test/harness/index.js';
import { arg, now, runMain, withBenchCluster } from './common.js';

const objects = arg('objects', 10_000);
const samples = arg('samples', 200);
const listRuns = arg('list-runs', 7);

interface Stats { p50: number; p90: number; p99: number; mean: number }
function stats(xs: number[]): Stats {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { p50: q(0.5), p90: q(0.9), p99: q(0.99), mean: s.reduce((a, b) => a + b, 0) / s.length };
}
const ms = (n: number) => `${n.toFixed(2)} ms`;

/** A keep-alive HTTPS client, so the figures measure the server, not TLS handshakes. */
function client(base: string, creds: TlsCredentials) {
  const agent = new Agent({ keepAlive: true, ca: creds.ca, cert: creds.cert, key: creds.key, maxSockets: 4 });
  const call = (method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> => new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const u = new URL(path, base);
    const req = httpsRequest({
      method, hostname: u.hostname, port: u.port, path: u.pathname + u.search, agent,
      headers: { Accept: 'application/json', ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) } : {}) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
  /** Opens a watch; `onEvent` gets each parsed line with its arrival time. */
  const watch = (path: string, onEvent: (ev: { type: string; object: { metadata: { name: string } } }, at: number) => void) => new Promise<() => void>((resolve, reject) => {
    const u = new URL(path, base);
    const req = httpsRequest({ method: 'GET', hostname: u.hostname, port: u.port, path: u.pathname + u.search, agent: new Agent({ ca: creds.ca, cert: creds.cert, key: creds.key }) }, (res) => {
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        const at = now();
        buf += c;
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line.trim()) onEvent(JSON.parse(line) as never, at);
        }
      });
      resolve(() => req.destroy());
    });
    req.on('error', reject);
    req.end();
  });
  return { call, watch, close: () => agent.destroy() };
}

async function main(): Promise<void> {
  await withBenchCluster('list', async ({ cluster, raw, prefix, etcdEndpoint, dataDir }) => {
    const creds = cluster.credentialsFor();
    const a = client(cluster.urls[0], creds);
    const b = client(cluster.urls[1], creds);
    try {
      console.log(`bench: ${objects} ConfigMaps, ${samples} watch samples, etcd ${etcdEndpoint} (data in ${dataDir})`);
      const ns = 'bench';
      const created = await a.call('POST', '/api/v1/namespaces', { metadata: { name: ns } });
      if (created.status !== 201) throw new Error(`create namespace: ${created.status} ${created.text}`);
      // Seed through our own storage layout, in transactions of 128 puts: 10,000 POSTs
      // would measure writes, not lists.
      const keyRoot = `${prefix}/configmaps/${ns}/`;
      const t0 = Date.now();
      for (let i = 0; i < objects; i += 128) {
        const ops = [];
        for (let j = i; j < Math.min(objects, i + 128); j++) {
          const name = `cm-${String(j).padStart(6, '0')}`;
          const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, uid: `00000000-0000-0000-0000-${String(j).padStart(12, '0')}`, creationTimestamp: '2024-01-01T00:00:00Z', labels: { app: 'bench', shard: String(j % 16) } }, data: { key: `value-${j}`, other: 'x'.repeat(200) } };
          ops.push({ request_put: { key: Buffer.from(`${keyRoot}${name}`), value: Buffer.from(JSON.stringify(obj)) } });
        }
        await raw.kv.txn({ compare: [], success: ops, failure: [] });
      }
      console.log(`seeded in ${Date.now() - t0} ms`);
      const listPath = `/api/v1/namespaces/${ns}/configmaps`;
      const check = JSON.parse((await a.call('GET', `${listPath}?limit=1`)).text) as { metadata: { remainingItemCount?: number } };
      if ((check.metadata.remainingItemCount ?? 0) + 1 !== objects) throw new Error(`seed check: ${JSON.stringify(check.metadata)}`);

      const keyBuf = Buffer.from(keyRoot);
      const end = prefixEnd(keyBuf);
      // --- full list ---
      const apiFull: number[] = [];
      const rawFull: number[] = [];
      for (let i = 0; i < listRuns; i++) {
        let t = now();
        const res = await a.call('GET', listPath);
        apiFull.push(now() - t);
        if (res.status !== 200) throw new Error(`list: ${res.status}`);
        t = now();
        const r = await raw.kv.range({ key: keyBuf, range_end: end });
        // The equivalent client work: parse every value.
        for (const kv of r.kvs) JSON.parse(kv.value.toString('utf8'));
        rawFull.push(now() - t);
      }
      // --- paginated list, limit=500 ---
      const apiPaged: number[] = [];
      const rawPaged: number[] = [];
      for (let i = 0; i < listRuns; i++) {
        let t = now();
        let cont = '';
        let pages = 0;
        do {
          const res = await b.call('GET', `${listPath}?limit=500${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`);
          if (res.status !== 200) throw new Error(`paged list: ${res.status} ${res.text}`);
          cont = (JSON.parse(res.text) as { metadata: { continue?: string } }).metadata.continue ?? '';
          pages++;
        } while (cont);
        apiPaged.push(now() - t);
        t = now();
        let start = keyBuf;
        let rev = '0';
        for (;;) {
          const r = await raw.kv.range({ key: start, range_end: end, limit: 500, revision: rev });
          rev = r.header.revision;
          for (const kv of r.kvs) JSON.parse(kv.value.toString('utf8'));
          if (!r.more) break;
          start = Buffer.concat([r.kvs[r.kvs.length - 1].key, Buffer.from([0])]);
        }
        rawPaged.push(now() - t);
        if (i === 0) console.log(`paginated list: ${pages} pages`);
      }

      // --- watch latency: write via A, event at B ---
      const apiLat: number[] = [];
      const pending = new Map<string, number>();
      const rv = (JSON.parse((await a.call('GET', `${listPath}?limit=1`)).text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
      const watchNs = 'bench-watch';
      await a.call('POST', '/api/v1/namespaces', { metadata: { name: watchNs } });
      let arrived: (() => void) | undefined;
      const stopWatch = await b.watch(`/api/v1/namespaces/${watchNs}/configmaps?watch=1&resourceVersion=${rv}`, (ev, at) => {
        const started = pending.get(ev.object.metadata.name);
        if (started !== undefined && ev.type === 'ADDED') { apiLat.push(at - started); pending.delete(ev.object.metadata.name); arrived?.(); }
      });
      for (let i = 0; i < samples; i++) {
        const name = `w-${i}`;
        const got = new Promise<void>((r) => { arrived = r; });
        pending.set(name, now());
        const res = await a.call('POST', `/api/v1/namespaces/${watchNs}/configmaps`, { metadata: { name }, data: { i: String(i) } });
        if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
        await got;
      }
      stopWatch();
      const rawLat: number[] = [];
      const rawPrefix = `${prefix}-raw/`;
      const w = await raw.watch().prefix(rawPrefix).create();
      let rawArrived: (() => void) | undefined;
      const rawPending = new Map<string, number>();
      w.on('put', (kv) => {
        const at = now();
        const started = rawPending.get(kv.key.toString());
        if (started !== undefined) { rawLat.push(at - started); rawPending.delete(kv.key.toString()); rawArrived?.(); }
      });
      for (let i = 0; i < samples; i++) {
        const key = `${rawPrefix}w-${i}`;
        const got = new Promise<void>((r) => { rawArrived = r; });
        rawPending.set(key, now());
        await raw.put(key).value(JSON.stringify({ metadata: { name: `w-${i}` }, data: { i: String(i) } }));
        await got;
      }
      await w.cancel();

      const rows: Array<[string, Stats, Stats]> = [
        [`list ${objects}, full`, stats(apiFull), stats(rawFull)],
        [`list ${objects}, limit=500`, stats(apiPaged), stats(rawPaged)],
        ['watch latency A->B', stats(apiLat), stats(rawLat)],
      ];
      console.log('');
      console.log(`${'measure'.padEnd(26)} ${'ours p50'.padStart(11)} ${'etcd3 p50'.padStart(11)} ${'ratio p50'.padStart(10)} ${'ours p99'.padStart(11)} ${'etcd3 p99'.padStart(11)} ${'ratio p99'.padStart(10)}`);
      for (const [name, ours, base] of rows) {
        console.log(`${name.padEnd(26)} ${ms(ours.p50).padStart(11)} ${ms(base.p50).padStart(11)} ${`${(ours.p50 / base.p50).toFixed(2)}x`.padStart(10)} ${ms(ours.p99).padStart(11)} ${ms(base.p99).padStart(11)} ${`${(ours.p99 / base.p99).toFixed(2)}x`.padStart(10)}`);
      }
    } finally {
      a.close();
      b.close();
    }
  });
}

runMain(main);
