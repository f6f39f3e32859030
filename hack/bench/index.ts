// Benchmark: lists and watch latency through our replicas beside raw etcd3 doing the
// equivalent against the same etcd, in the same run, printed as ratios.
//   list of N ConfigMaps (2,000 and 10,000), resourceVersion unset and =0
//                                       vs  one etcd range over the prefix (values decoded)
//   list of N ConfigMaps, limit=500     vs  etcd ranges of 500 at one revision
//     (the client follows continue tokens to the end; printed beside the unpaginated
//     list as a ratio of objects/s and of the serving replica's CPU per list)
//   watch delivery: PUT via replica A -> event at a watcher on replica B
//                                        vs  etcd put -> event at an etcd watcher
// Run: `make bench` (or `node dist/hack/bench/index.js [--objects=2000,10000] [--samples=200] [--list-runs=7] [--list-warmup=5]
//   [--list-warmup-requests=3000]`; `--list-warmup-requests=0` measures as before session 35).
// Everything runs on this machine: its own etcd, two replicas on 127.0.0.1.
import { Agent, request as httpsRequest } from 'node:https';
import { prefixEnd } from '../../pkg/storage/etcd/keys.js';
import type { TlsCredentials } from '../../test/harness/index.js';
import { decodeFromStorage } from '../../pkg/storage/etcd/codec.js';
import { arg, httpsClient, now, procStats, report, runMain, seedConfigMaps, stats, withBenchCluster, type Row } from './common.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['objects', 'samples', 'list-runs', 'list-warmup', 'list-warmup-requests'], { sharedArgs: true });

const sizes = (process.argv.find((x) => x.startsWith('--objects='))?.split('=')[1] ?? '2000,10000').split(',').map(Number);
const samples = arg('samples', 200);
const listRuns = arg('list-runs', 7);
const listWarmup = arg('list-warmup', 5);
// Unmeasured list requests (continue pages of 150) before the first size's measured runs: see warmRequestPath.
const listWarmupRequests = arg('list-warmup-requests', 3000);


/** The shared keep-alive client (common.ts), plus a JSON-lines watch. */
function client(base: string, creds: TlsCredentials) {
  const { call, close } = httpsClient(base, creds);
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
  return { call, watch, close };
}

/**
 * Pages through `listPath` 150 objects at a time until the replica has answered `requests`
 * list requests, unmeasured. Why: the paginated list's cost beyond the unpaginated one is
 * per request (filters, handler, read ahead, response), and V8 optimizes a function once it
 * has run enough, so code run once per request reaches its optimized tier only after a few
 * thousand requests, where the unpaginated list's per-object loops get there within its
 * first run. Measured after a few unmeasured lists of each variant, a fresh replica's
 * paginated list of 10,000 cost 20-26% less CPU 80 runs later (41.7 -> 30.7 ms; unpaginated
 * 19.6 -> 18.3), with TurboFan still compiling 12-30 request-path functions every 10 runs:
 * the ratio measured the JIT's warm-up of the request path, not a replica serving. Pages of 150 (about
 * 68 KB here) go through the same paths as pages of 500 (cooperative encoding, joined
 * pages in reused buffers) at a third of the time per request.
 */
async function warmRequestPath(c: ReturnType<typeof client>, listPath: string, requests: number): Promise<void> {
  for (let served = 0; served < requests;) {
    let cont = '';
    do {
      const res = await c.call('GET', `${listPath}?limit=150${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`);
      if (res.status !== 200) throw new Error(`warm-up page: ${res.status} ${res.text}`);
      cont = (JSON.parse(res.text) as { metadata: { continue?: string } }).metadata.continue ?? '';
      served++;
    } while (cont && served < requests);
  }
}

async function main(): Promise<void> {
  await withBenchCluster('list', async ({ cluster, raw, prefix, etcdEndpoint, dataDir }) => {
    const creds = cluster.credentialsFor();
    const a = client(cluster.urls[0], creds);
    const b = client(cluster.urls[1], creds);
    try {
      console.log(`bench: lists of ${sizes.join(', ')} ConfigMaps, ${samples} watch samples, etcd ${etcdEndpoint} (data in ${dataDir})`);
      const seriesRows: Row[] = [];
      let requestPathWarm = false;
      for (const n of sizes) {
        const ns = `list-${n}`;
        const created = await a.call('POST', '/api/v1/namespaces', { metadata: { name: ns } });
        if (created.status !== 201) throw new Error(`create namespace: ${created.status} ${created.text}`);
        const t0 = Date.now();
        const revision = await seedConfigMaps(raw, prefix, ns, n, 256);
        console.log(`seeded ${n} in ${Date.now() - t0} ms`);
        const listPath = `/api/v1/namespaces/${ns}/configmaps`;
        const check = JSON.parse((await a.call('GET', `${listPath}?limit=1`)).text) as { metadata: { remainingItemCount?: number } };
        if ((check.metadata.remainingItemCount ?? 0) + 1 !== n) throw new Error(`seed check: ${JSON.stringify(check.metadata)}`);
        // resourceVersion=0 is served by the watch cache once it has caught up with the seed.
        for (;;) {
          const res = JSON.parse((await a.call('GET', `${listPath}?resourceVersion=0&fieldSelector=metadata.name%3Dnone`)).text) as { metadata: { resourceVersion: string } };
          if (Number(res.metadata.resourceVersion) >= revision) break;
          await new Promise((r) => setTimeout(r, 200));
        }
        const keyBuf = Buffer.from(`${prefix}/configmaps/${ns}/`);
        const end = prefixEnd(keyBuf);
        const timed = async (f: () => Promise<void>): Promise<number[]> => {
          const out: number[] = [];
          for (let i = 0; i < listRuns; i++) { const t = now(); await f(); out.push(now() - t); }
          return out;
        };
        const full = (query: string) => async () => {
          const res = await a.call('GET', `${listPath}${query}`);
          if (res.status !== 200) throw new Error(`list: ${res.status}`);
          if ((JSON.parse(res.text) as { items: unknown[] }).items.length !== n) throw new Error('list: wrong count');
        };
        // The issue's paginated list: a client following continue tokens to the end.
        const paged = async () => {
          let cont = '';
          let items = 0;
          do {
            const res = await a.call('GET', `${listPath}?limit=500${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`);
            if (res.status !== 200) throw new Error(`paged list: ${res.status} ${res.text}`);
            const page = JSON.parse(res.text) as { items: unknown[]; metadata: { continue?: string } };
            items += page.items.length;
            cont = page.metadata.continue ?? '';
          } while (cont);
          if (items !== n) throw new Error(`paged list: ${items} items`);
        };
        // The equivalent client work on the etcd side: decode every value.
        const rawFull = async () => {
          const r = await raw.kv.range({ key: keyBuf, range_end: end });
          for (const kv of r.kvs) decodeFromStorage(kv.value, kv.mod_revision);
        };
        const rawPaged = async () => {
          let start = keyBuf;
          let rev = '0';
          for (;;) {
            const r = await raw.kv.range({ key: start, range_end: end, limit: 500, revision: rev });
            rev = r.header.revision;
            for (const kv of r.kvs) decodeFromStorage(kv.value, kv.mod_revision);
            if (!r.more) break;
            start = Buffer.concat([r.kvs[r.kvs.length - 1]!.key, Buffer.from([0])]);
          }
        };
        const etcdFull = stats(await timed(rawFull));
        const etcdPaged = stats(await timed(rawPaged));
        // The serving replica's CPU per list, beside wall times, which on a shared machine
        // move with its load. The variants take turns run by run, so that a change of load
        // during the scenario falls on all of them alike.
        const servingCpu = () => procStats(cluster.replicas[0]!.pid!).cpuSeconds;
        const variants = [
          { label: 'resourceVersion unset', f: full(''), base: etcdFull },
          { label: 'resourceVersion=0', f: full('?resourceVersion=0'), base: etcdFull },
          { label: 'limit=500, paginated', f: paged, base: etcdPaged },
        ].map((v) => ({ ...v, times: [] as number[], cpuSeconds: 0 }));
        // Unmeasured runs first: a paginated list is twenty requests where the unpaginated one
        // is one, so right after the seed its per-request path (filters, handler, read ahead)
        // still runs in V8's lower tiers while the long loops of the unpaginated list are
        // optimized within its first run; measured cold, the ratio is the JIT's warm-up.
        for (let i = 0; i < listWarmup; i++) for (const v of variants) await v.f();
        if (!requestPathWarm) {
          await warmRequestPath(a, listPath, listWarmupRequests);
          requestPathWarm = true;
        }
        for (let i = 0; i < listRuns; i++) {
          // Each run starts with the next variant, so none always follows the same one (and
          // pays, client and replica alike, for collecting the garbage of the lists before it).
          for (const v of [...variants.slice(i % variants.length), ...variants.slice(0, i % variants.length)]) {
            const cpu0 = servingCpu();
            const t = now();
            await v.f();
            v.times.push(now() - t);
            v.cpuSeconds += servingCpu() - cpu0;
          }
        }
        const perObject: Record<string, { p50: number; cpuMs: number }> = {};
        for (const { label, base, times, cpuSeconds } of variants) {
          const ours = stats(times);
          const cpuMs = (cpuSeconds * 1000) / listRuns;
          perObject[label] = { p50: ours.p50, cpuMs };
          seriesRows.push(
            { measure: `list ${n}, ${label}, p50`, unit: 'ms', ours: ours.p50, etcd: base.p50 },
            { measure: `list ${n}, ${label}, p99`, unit: 'ms', ours: ours.p99, etcd: base.p99 },
            { measure: `list ${n}, ${label}, objects/s (p50)`, unit: 'obj/s', ours: n / (ours.p50 / 1000), etcd: n / (base.p50 / 1000) },
            { measure: `list ${n}, ${label}, replica CPU`, unit: 'ms', ours: cpuMs },
          );
        }
        // The issue's bar: paginated objects/s as a share of the same list unpaginated.
        const unpaged = perObject['resourceVersion unset']!;
        const pagedFig = perObject['limit=500, paginated']!;
        seriesRows.push(
          { measure: `list ${n}, paginated / unpaginated objects/s`, unit: 'ratio', ours: unpaged.p50 / pagedFig.p50 },
          { measure: `list ${n}, paginated / unpaginated CPU`, unit: 'ratio', ours: pagedFig.cpuMs / unpaged.cpuMs },
        );
      }
      report('lists', `Lists of ConfigMaps (${listRuns} runs each, after ${listWarmup} unmeasured of each and ${listWarmupRequests} unmeasured list requests) vs an etcd range of the same keys (paginated: ranges of 500 at one revision)`,
        seriesRows, { sizes, runs: listRuns, warmup: listWarmup, warmupRequests: listWarmupRequests });

      // --- watch latency: write via A, event at B ---
      const apiLat: number[] = [];
      const pending = new Map<string, number>();
      const rv = (JSON.parse((await a.call('GET', '/api/v1/namespaces?limit=1')).text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
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

      const wa = stats(apiLat);
      const wb = stats(rawLat);
      report('watch-latency', `Watch delivery, one watcher: create via replica A, event at replica B (${samples} samples) vs etcd put -> etcd watcher`, [
        { measure: 'latency p50', unit: 'ms', ours: wa.p50, etcd: wb.p50 },
        { measure: 'latency p99', unit: 'ms', ours: wa.p99, etcd: wb.p99 },
      ]);
    } finally {
      a.close();
      b.close();
    }
  });
}

runMain(main);
