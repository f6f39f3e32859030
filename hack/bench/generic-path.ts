// Benchmark: what every request pays besides its verb's own work. A GET of one ConfigMap at
// resourceVersion=0 is answered from the watch cache without asking etcd, so its CPU is the
// per-request path alone (TLS and HTTP, Koa and the filters: authentication, audit, APF,
// authorization, request deadline, shutdown tracking, metrics, the V(3) request line; the
// request info, the handler's lookup and the response's JSON). CPU per request is the
// replica's utime + stime over its slices of a second (concurrency C), less what it spends
// idle. With --against=ENTRY a replica of another build takes turns with it (as
// crud-verbs.js --against, each in a cluster of its own), each first in every other pair of
// slices: an interleaved A/B of a change to that path. Run it both ways round: the same
// build against itself gave 0.88-1.13 in six runs at load 9-14 (replica 0 measured 4-8%
// cheaper in every run while both shared one cluster). A bare Node HTTPS server answering the
// same JSON costs 65-72 us a request here (docs/scaling.md).
// Run: `node dist/hack/bench/generic-path.js [--seconds=20] [--warmup=5] [--concurrency=32] [--against=ENTRY]`.
import { arg, httpsClient, procStats, report, runMain, againstBuild, withBenchCluster, configMap, type Row } from './common.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['seconds', 'warmup', 'concurrency', 'against']);

const concurrency = arg('concurrency', 32);
const seconds = arg('seconds', 20);
const warmup = arg('warmup', 5);
const against = process.argv.find((x) => x.startsWith('--against='))?.slice('--against='.length);

interface Side { ops: number; errors: number; cpuUs: number; wallUs: number }

function target(base: string, creds: Parameters<typeof httpsClient>[1], path: string, pid: number) {
  const c = httpsClient(base, creds, concurrency);
  const acc: Side = { ops: 0, errors: 0, cpuUs: 0, wallUs: 0 };
  const idle = { rate: 0 };
  const slice = async (ms: number, count: boolean): Promise<void> => {
    const cpu0 = procStats(pid).cpuSeconds;
    const start = Date.now();
    const end = start + ms;
    let ops = 0;
    let errors = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        try {
          const res = await c.call('GET', path);
          if (res.status === 200) ops++;
          else errors++;
        } catch { errors++; }
      }
    }));
    if (!count) return;
    acc.cpuUs += (procStats(pid).cpuSeconds - cpu0) * 1e6;
    acc.wallUs += (Date.now() - start) * 1e3;
    acc.ops += ops;
    acc.errors += errors;
  };
  /** CPU the server spends with no request (leases, controllers), per µs: taken out of its slices. */
  const measureIdle = async (ms: number): Promise<void> => {
    const cpu0 = procStats(pid).cpuSeconds;
    const t0 = Date.now();
    await new Promise((r) => setTimeout(r, ms));
    idle.rate = ((procStats(pid).cpuSeconds - cpu0) * 1e6) / ((Date.now() - t0) * 1e3);
  };
  return { slice, acc, idle, measureIdle, close: c.close };
}

async function main(): Promise<void> {
  await withBenchCluster('generic-path', async ({ cluster }) => {
    const creds = cluster.credentialsFor();
    const ns = 'generic-path';
    // Each replica its own cluster (--against): the same object in each.
    for (const url of cluster.urls) {
      const setup = httpsClient(url, creds);
      const mk = await setup.call('POST', '/api/v1/namespaces', { metadata: { name: ns } });
      if (mk.status !== 201) throw new Error(`create namespace: ${mk.status} ${mk.text}`);
      const cm = await setup.call('POST', `/api/v1/namespaces/${ns}/configmaps`, configMap('one', ns, 1024));
      if (cm.status !== 201) throw new Error(`create configmap: ${cm.status} ${cm.text}`);
      // A list starts the ConfigMaps' watch cache, which then answers resourceVersion=0.
      await setup.call('GET', `/api/v1/namespaces/${ns}/configmaps`);
      setup.close();
    }
    const path = `/api/v1/namespaces/${ns}/configmaps/one?resourceVersion=0`;
    const a = target(cluster.urls[0]!, creds, path, cluster.replicas[0]!.pid!);
    const b = !against ? undefined : target(cluster.urls[1]!, creds, path, cluster.replicas[1]!.pid!);
    console.log(`generic-path: concurrency ${concurrency}, ${seconds} s per server after ${warmup} s unmeasured`);
    for (let t = 0; t < warmup; t++) {
      await a.slice(1000, false);
      await b?.slice(1000, false);
    }
    await Promise.all([a.measureIdle(5000), b?.measureIdle(5000)]);
    for (let t = 0; t < seconds; t++) {
      // Each build takes the first turn of a pair as often as the second.
      const [x, y] = t % 2 === 0 ? [a, b] : [b, a];
      await x?.slice(1000, true);
      await y?.slice(1000, true);
    }
    const per = (t: typeof a) => Math.max(0, t.acc.cpuUs - t.idle.rate * t.acc.wallUs) / Math.max(1, t.acc.ops);
    const rows: Row[] = [
      { measure: `CPU per cached GET (replica | ${against ? 'other build' : '-'})`, unit: 'us', ours: per(a), etcd: b ? per(b) : undefined },
      { measure: 'idle CPU', unit: 'ms/s', ours: a.idle.rate * 1000, etcd: b ? b.idle.rate * 1000 : undefined },
      { measure: `requests (failed: ${a.acc.errors} | ${b?.acc.errors ?? 0})`, unit: 'ops', ours: a.acc.ops, etcd: b?.acc.ops },
    ];
    a.close();
    b?.close();
    report('generic-path', `GET at resourceVersion=0 (the watch cache), concurrency ${concurrency}, ${seconds} s each: one replica | ${against ? `a replica of ${against}` : 'nothing'}`, rows);
  }, {
    ...againstBuild(against),
  });
}

runMain(main);
