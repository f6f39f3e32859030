// Benchmark: JSON against protobuf on the wire, each beside raw etcd3 doing the
// equivalent against the same etcd in the same run (ratios, never absolute targets):
//   GET of one object, C concurrent clients      vs  etcd get of its key
//   LIST of N objects                            vs  one etcd range + parse of every value
//   watch fan-out: W watchers, writes via the other replica, write -> delivery latency
//                                                 vs  W etcd watchers on a key prefix
//   codec: encode and decode of an N-item list (JSON.stringify/parse vs our protobuf codec)
// Run: `make bench` or `node dist/hack/bench/protobuf.js [--objects=10000] [--gets=3000]
// [--concurrency=16] [--watchers=100] [--writes=50]`. Everything stays on 127.0.0.1.
import { Agent, request as httpsRequest } from 'node:https';
import { prefixEnd } from '../../pkg/storage/etcd/keys.js';
import { encodeForStorage } from '../../pkg/storage/etcd/codec.js';
import { decodeObject, encodeObject } from '../../pkg/runtime/serializer/protobuf/envelope.js';
import { Reader } from '../../pkg/runtime/serializer/protobuf/wire.js';
import type { TlsCredentials } from '../../test/harness/index.js';
import { arg, now, runMain, withBenchCluster } from './common.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['objects', 'gets', 'writes', 'watchers', 'list-runs', 'concurrency']);

const objects = arg('objects', 10_000);
const gets = arg('gets', 3000);
const concurrency = arg('concurrency', 16);
const watchers = arg('watchers', 100);
const writes = arg('writes', 50);
const listRuns = arg('list-runs', 5);

const pb = 'application/vnd.kubernetes.protobuf';
const p = (xs: number[], q: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };

function client(base: string, creds: TlsCredentials) {
  const agent = new Agent({ keepAlive: true, ca: creds.ca, cert: creds.cert, key: creds.key, maxSockets: 64 });
  const call = (path: string, accept: string, method = 'GET', body?: Buffer, contentType?: string): Promise<{ status: number; body: Buffer }> => new Promise((resolve, reject) => {
    const u = new URL(path, base);
    const req = httpsRequest({ method, hostname: u.hostname, port: u.port, path: u.pathname + u.search, agent,
      headers: { Accept: accept, ...(body ? { 'Content-Type': contentType!, 'Content-Length': String(body.length) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
  /**
   * A watch whose events reach onEvent with their arrival time. 100 watchers share this
   * one client thread, so each event is only scanned for its object's name (the same
   * cheap scan for both formats): a full decode here would time the client, not the server.
   */
  const watch = (path: string, accept: string, onEvent: (name: string, at: number) => void) => new Promise<() => void>((resolve, reject) => {
    const u = new URL(path, base);
    const req = httpsRequest({ method: 'GET', hostname: u.hostname, port: u.port, path: u.pathname + u.search,
      agent: new Agent({ ca: creds.ca, cert: creds.cert, key: creds.key }), headers: { Accept: accept } }, (res) => {
      let buf: Buffer = Buffer.alloc(0);
      const proto = /protobuf/.test(res.headers['content-type'] ?? '');
      res.on('data', (c: Buffer) => {
        const at = now();
        buf = buf.length ? Buffer.concat([buf, c]) : c;
        if (proto) {
          while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32BE(0)) {
            const len = buf.readUInt32BE(0);
            onEvent(frameObjectName(buf.subarray(4, 4 + len)), at);
            buf = buf.subarray(4 + len);
          }
        } else {
          let nl: number;
          while ((nl = buf.indexOf(0x0a)) >= 0) {
            const line = buf.subarray(0, nl).toString();
            buf = buf.subarray(nl + 1);
            const m = /"name":"([^"]*)"/.exec(line);
            if (m) onEvent(m[1], at);
          }
        }
      });
      resolve(() => req.destroy());
    });
    req.on('error', reject);
    req.end();
  });
  return { call, watch, close: () => agent.destroy() };
}

/** Field `n` (length-delimited) of a message: WatchEvent.object -> raw -> envelope raw -> metadata -> name. */
function field(b: Buffer, n: number): Buffer {
  const r = Reader.create(b);
  while (r.pos < r.len) {
    const tag = r.uint32();
    if (tag === ((n << 3) | 2)) return r.bytes();
    r.skipType(tag & 7);
  }
  return Buffer.alloc(0);
}

function frameObjectName(frame: Buffer): string {
  const envelope = field(field(frame, 2), 1);
  return field(field(field(envelope.subarray(4), 2), 1), 1).toString();
}

async function pool(n: number, c: number, task: (i: number) => Promise<void>): Promise<number[]> {
  const lat: number[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: c }, async () => {
    while (next < n) {
      const i = next++;
      const t = now();
      await task(i);
      lat.push(now() - t);
    }
  }));
  return lat;
}

interface Row { name: string; json: number; protobuf: number; etcd: number; unit: string }

async function main(): Promise<void> {
  await withBenchCluster('protobuf', async ({ cluster, raw, prefix }) => {
    const creds = cluster.credentialsFor();
    const a = client(cluster.urls[0], creds);
    const b = client(cluster.urls[1], creds);
    const rows: Row[] = [];
    try {
      const ns = 'bench';
      await a.call('/api/v1/namespaces', 'application/json', 'POST', Buffer.from(JSON.stringify({ metadata: { name: ns } })), 'application/json');
      const obj = (j: number) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${String(j).padStart(6, '0')}`, namespace: ns,
        uid: `00000000-0000-0000-0000-${String(j).padStart(12, '0')}`, creationTimestamp: '2024-01-01T00:00:00Z', labels: { app: 'bench', shard: String(j % 16) } },
      data: { key: `value-${j}`, other: 'x'.repeat(800) } });
      // Seeded in the server's default storage encoding (protobuf); a JSON mirror is the raw side.
      const keyRoot = `${prefix}/configmaps/${ns}/`;
      const rawRoot = `${prefix}-raw/configmaps/${ns}/`;
      for (let i = 0; i < objects; i += 64) {
        const ops = [];
        for (let j = i; j < Math.min(objects, i + 64); j++) {
          const o = obj(j);
          ops.push({ request_put: { key: Buffer.from(`${keyRoot}${o.metadata.name}`), value: encodeForStorage(o, pb) } });
          ops.push({ request_put: { key: Buffer.from(`${rawRoot}${o.metadata.name}`), value: Buffer.from(JSON.stringify(o)) } });
        }
        await raw.kv.txn({ compare: [], success: ops, failure: [] });
      }
      const listPath = `/api/v1/namespaces/${ns}/configmaps`;
      console.log(`bench: ${objects} ConfigMaps of ~1 KB, ${gets} GETs at C=${concurrency}, ${watchers} watchers x ${writes} writes`);

      // --- GET ---
      const getRow = async (accept: string) => {
        const lat = await pool(gets, concurrency, async (i) => {
          const r = await a.call(`${listPath}/cm-${String(i % objects).padStart(6, '0')}`, accept);
          if (r.status !== 200) throw new Error(`get: ${r.status}`);
          if (accept === pb) decodeObject(r.body); else JSON.parse(r.body.toString());
        });
        return p(lat, 0.5);
      };
      const getEtcd = p(await pool(gets, concurrency, async (i) => {
        const v = await raw.get(`${rawRoot}cm-${String(i % objects).padStart(6, '0')}`).buffer();
        JSON.parse(v!.toString());
      }), 0.5);
      rows.push({ name: 'GET one object, p50', json: await getRow('application/json'), protobuf: await getRow(pb), etcd: getEtcd, unit: 'ms' });

      // --- LIST ---
      const listRow = async (accept: string) => {
        const t: number[] = [];
        for (let i = 0; i < listRuns; i++) {
          const s = now();
          const r = await b.call(listPath, accept);
          if (r.status !== 200) throw new Error(`list: ${r.status}`);
          const n = accept === pb ? (decodeObject(r.body).items as unknown[]).length : (JSON.parse(r.body.toString()) as { items: unknown[] }).items.length;
          if (n !== objects) throw new Error(`list returned ${n}`);
          t.push(now() - s);
        }
        return p(t, 0.5);
      };
      const listEtcd: number[] = [];
      for (let i = 0; i < listRuns; i++) {
        const s = now();
        const kb = Buffer.from(rawRoot);
        const r = await raw.kv.range({ key: kb, range_end: prefixEnd(kb) });
        for (const kv of r.kvs) JSON.parse(kv.value.toString());
        listEtcd.push(now() - s);
      }
      rows.push({ name: `LIST ${objects}, p50`, json: await listRow('application/json'), protobuf: await listRow(pb), etcd: p(listEtcd, 0.5), unit: 'ms' });

      // --- watch fan-out ---
      const fanOut = async (accept: string, tag: string) => {
        const wns = `watch-${tag}`;
        await a.call('/api/v1/namespaces', 'application/json', 'POST', Buffer.from(JSON.stringify({ metadata: { name: wns } })), 'application/json');
        const started = new Map<string, number>();
        const lat: number[] = [];
        let seen = 0;
        const stops = [];
        // From a list's resourceVersion, as informers watch.
        const listed = await b.call(`/api/v1/namespaces/${wns}/configmaps`, 'application/json');
        const fromRV = (JSON.parse(listed.body.toString()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
        for (let i = 0; i < watchers; i++) {
          stops.push(await b.watch(`/api/v1/namespaces/${wns}/configmaps?watch=1&resourceVersion=${fromRV}`, accept, (name, at) => {
            const s = started.get(name);
            if (s !== undefined) { lat.push(at - s); seen++; }
          }));
        }
        await new Promise((r) => setTimeout(r, 500));
        for (let i = 0; i < writes; i++) {
          const name = `w-${i}`;
          started.set(name, now());
          const before = seen;
          const r = await a.call(`/api/v1/namespaces/${wns}/configmaps`, accept, 'POST', encodeObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { i: String(i) } }), pb);
          if (r.status !== 201) throw new Error(`create: ${r.status}`);
          const deadline = now() + 10_000;
          while (seen < before + watchers && now() < deadline) await new Promise((res) => setTimeout(res, 1));
        }
        for (const s of stops) s();
        return p(lat, 0.5);
      };
      const rawFan = async () => {
        const root = `${prefix}-rawwatch/`;
        const started = new Map<string, number>();
        const lat: number[] = [];
        let seen = 0;
        const ws = [];
        for (let i = 0; i < watchers; i++) {
          const w = await raw.watch().prefix(root).create();
          w.on('put', (kv) => { const s = started.get(kv.key.toString()); JSON.parse(kv.value.toString()); if (s !== undefined) { lat.push(now() - s); seen++; } });
          ws.push(w);
        }
        for (let i = 0; i < writes; i++) {
          const key = `${root}w-${i}`;
          started.set(key, now());
          const before = seen;
          await raw.put(key).value(JSON.stringify({ metadata: { name: `w-${i}` }, data: { i: String(i) } }));
          const deadline = now() + 10_000;
          while (seen < before + watchers && now() < deadline) await new Promise((res) => setTimeout(res, 1));
        }
        for (const w of ws) await w.cancel();
        return p(lat, 0.5);
      };
      rows.push({ name: `watch ${watchers} watchers, p50`, json: await fanOut('application/json', 'json'), protobuf: await fanOut(pb, 'pb'), etcd: await rawFan(), unit: 'ms' });

      // --- codec ---
      const list = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '1' }, items: Array.from({ length: objects }, (_, j) => obj(j)) };
      // Warmed up first: the protobuf codec generates its per-message functions on first use.
      const time = (f: () => void) => { for (let i = 0; i < 5; i++) f(); const t: number[] = []; for (let i = 0; i < 15; i++) { const s = now(); f(); t.push(now() - s); } return p(t, 0.5); };
      let jsonText = '';
      let pbBytes: Buffer = Buffer.alloc(0);
      const encJ = time(() => { jsonText = JSON.stringify(list); });
      const encP = time(() => { pbBytes = encodeObject(list); });
      const decJ = time(() => JSON.parse(jsonText));
      const decP = time(() => decodeObject(pbBytes));
      rows.push({ name: `encode ${objects}-item list`, json: encJ, protobuf: encP, etcd: NaN, unit: 'ms' });
      rows.push({ name: `decode ${objects}-item list`, json: decJ, protobuf: decP, etcd: NaN, unit: 'ms' });
      console.log(`sizes: JSON ${jsonText.length} bytes, protobuf ${pbBytes.length} bytes`);

      console.log('');
      console.log(`${'measure'.padEnd(30)} ${'JSON'.padStart(10)} ${'protobuf'.padStart(10)} ${'etcd3'.padStart(10)} ${'JSON/etcd'.padStart(10)} ${'pb/etcd'.padStart(10)} ${'pb/JSON'.padStart(9)}`);
      for (const r of rows) {
        const f = (v: number) => (Number.isNaN(v) ? '-' : `${v.toFixed(2)}`).padStart(10);
        const ratio = (x: number, y: number) => (Number.isNaN(y) ? '-' : `${(x / y).toFixed(2)}x`).padStart(10);
        console.log(`${r.name.padEnd(30)} ${f(r.json)} ${f(r.protobuf)} ${f(r.etcd)} ${ratio(r.json, r.etcd)} ${ratio(r.protobuf, r.etcd)} ${`${(r.protobuf / r.json).toFixed(2)}x`.padStart(9)}`);
      }
    } finally {
      a.close();
      b.close();
    }
  });
}

runMain(main);
