// API Priority and Fairness isolation, as a cluster sees it: one client floods LIST
// requests of 2,000 ConfigMaps with many connections while another user GETs one
// ConfigMap at a steady pace. Both are ordinary users in the same priority level
// (global-default), so only fair queuing keeps the second one served. Reported beside raw
// etcd doing the equivalent (a range flood beside single-key gets) in the same run; the
// figure that matters is the victim's p99 under flood over its p99 unloaded (upstream's
// goal: within 2x).
// Run: `node dist/hack/bench/apf.js [--seconds=5] [--flooders=48] [--objects=2000]`.
import { arg, httpsClient, now, report, runMain, seedConfigMaps, stats, withBenchCluster, type Row } from './common.js';

const seconds = arg('seconds', 5);
const flooders = arg('flooders', 48);
const objects = arg('objects', 2000);
const ns = 'apf-bench';

/** Latencies of back-to-back calls of `fn` for `ms`, from one caller. */
async function paced(ms: number, fn: () => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  const end = now() + ms;
  while (now() < end) {
    const t0 = now();
    await fn();
    out.push(now() - t0);
    await new Promise((r) => setTimeout(r, 5));
  }
  return out;
}

/** Runs `width` loops of `fn` until `stop()` resolves; counts calls and their outcomes. */
function flood(width: number, fn: () => Promise<number>): { stop(): Promise<Record<string, number>> } {
  let running = true;
  const outcomes: Record<string, number> = {};
  const loops = Array.from({ length: width }, async () => {
    while (running) {
      const code = await fn().catch(() => -1);
      outcomes[code] = (outcomes[code] ?? 0) + 1;
    }
  });
  return { async stop() { running = false; await Promise.all(loops); return outcomes; } };
}

runMain(async () => {
  const tokens = [{ token: 'flood-token', name: 'flooder' }, { token: 'victim-token', name: 'victim' }];
  await withBenchCluster('apf', async ({ cluster, raw, prefix }) => {
    const admin = httpsClient(cluster.urls[0]!, cluster.credentialsFor());
    await admin.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await seedConfigMaps(raw, prefix, ns, objects, 1024);
    admin.close();
    // A fresh start counts the seeded objects at once (the periodic count runs every minute),
    // so APF's work estimate sees the lists' real size.
    await cluster.stopReplica(0);
    await cluster.startReplica(0);
    const victim = httpsClient(cluster.urls[0]!, { ...cluster.credentialsFor('anonymous'), token: 'victim-token' }, 2);
    const flooder = httpsClient(cluster.urls[0]!, { ...cluster.credentialsFor('anonymous'), token: 'flood-token' }, flooders);
    const get = async () => { const r = await victim.call('GET', `/api/v1/namespaces/${ns}/configmaps/cm-000001`); if (r.status !== 200) throw new Error(`GET ${r.status}`); };
    const ms = seconds * 1000;

    await paced(500, get);
    const oursIdle = stats(await paced(ms, get));
    const f = flood(flooders, async () => (await flooder.call('GET', `/api/v1/namespaces/${ns}/configmaps`)).status);
    const oursLoaded = stats(await paced(ms, get));
    const outcomes = await f.stop();

    const key = `${prefix}/configmaps/${ns}/cm-000001`;
    const rawGet = async () => { await raw.get(key).buffer(); };
    const etcdIdle = stats(await paced(ms, rawGet));
    const rf = flood(flooders, async () => { await raw.getAll().prefix(`${prefix}/configmaps/${ns}/`).keys(); return 200; });
    const etcdLoaded = stats(await paced(ms, rawGet));
    await rf.stop();
    victim.close();
    flooder.close();

    const rows: Row[] = [
      { measure: 'victim GET p50, idle', unit: 'ms', ours: oursIdle.p50, etcd: etcdIdle.p50 },
      { measure: 'victim GET p99, idle', unit: 'ms', ours: oursIdle.p99, etcd: etcdIdle.p99 },
      { measure: `victim GET p50, ${flooders} LIST flooders`, unit: 'ms', ours: oursLoaded.p50, etcd: etcdLoaded.p50 },
      { measure: `victim GET p99, ${flooders} LIST flooders`, unit: 'ms', ours: oursLoaded.p99, etcd: etcdLoaded.p99 },
      { measure: 'p99 under flood / p99 idle', unit: 'x', ours: oursLoaded.p99 / oursIdle.p99, etcd: etcdLoaded.p99 / etcdIdle.p99 },
    ];
    report('apf', `APF isolation: one user floods LIST (${objects} objects), another GETs (same priority level)`, rows,
      { flooderOutcomes: outcomes, samples: { idle: oursIdle.n, loaded: oursLoaded.n } });
    console.log(`flooder outcomes by status: ${JSON.stringify(outcomes)}`);
  }, { replicas: 1, tokens, extraArgs: ['--max-requests-inflight=100', '--max-mutating-requests-inflight=50'] });
});
