// Benchmark: the per-object LIST and WATCH a kubelet's reflector makes for every
// ConfigMap and Secret its pods mount, as system:node:<name> with a client certificate
// (the Node authorizer's graph decides), over one HTTP/2 connection per node:
//   GET .../configmaps?fieldSelector=metadata.name=<x>&limit=500&resourceVersion=0
//   GET .../configmaps?fieldSelector=metadata.name=<x>&resourceVersion=<rv>&allowWatchBookmarks=true&timeoutSeconds=<t>&watch=true
// Measured on the replica: CPU per connection (TLS handshake with client certificate, one
// call), CPU per pair (the watch left open, as a kubelet's) over several rounds, of which
// the LIST alone, LIST and watch-start latency, etcd requests per pair (the cache answers
// from memory: the floor is none), and CPU per second with every watch open while other
// ConfigMaps are written (events for none of the watchers).
// --against=ENTRY: a second replica from another build (as crud-verbs.ts), in a cluster of
// its own, measured in the same run, the two taking turns round by round; printed in the right-hand column.
// Run: `node dist/hack/bench/single-name.js [--nodes=200] [--mounts=10] [--objects=2000]
//   [--concurrency=64] [--rounds=4] [--idle-seconds=10] [--writes=50] [--against=ENTRY]`;
// `--perf=<file>` records this build's replica with perf in the last round (`--perf-idle=<file>`:
// while the watches are open) (start it with
// BENCH_NODE_ARGS='--perf-prof --interpreted-frames-native-stack', then `perf inject --jit`).
import { spawn } from 'node:child_process';
import { encodeForStorage } from '../../pkg/storage/etcd/codec.js';
import { arg, httpsClient, nodeIdentities, now, procMeter, report, runMain, stats, againstBuild, withBenchCluster, type Row } from './common.js';
import { newTransport, type Identity, type Transport } from './cluster/transport.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['nodes', 'mounts', 'objects', 'writes', 'rounds', 'concurrency', 'idle-seconds', 'against', 'perf', 'perf-idle']);

const nodes = arg('nodes', 200);
const mounts = arg('mounts', 10);
const objects = arg('objects', 2000);
const concurrency = arg('concurrency', 64);
const idleSeconds = arg('idle-seconds', 10);
const writes = arg('writes', 50);
const perfIdleFile = process.argv.find((x) => x.startsWith('--perf-idle='))?.split('=')[1];
const perfFile = process.argv.find((x) => x.startsWith('--perf='))?.split('=')[1];
const rounds = arg('rounds', 4);
const against = process.argv.find((x) => x.startsWith('--against='))?.slice('--against='.length);
const ns = 'single-name';

interface Side {
  label: string;
  pid: number;
  /** Its cluster's etcd prefix. */
  prefix: string;
  transports: Transport[];
  watches: Array<() => void>;
  perPair: number[];
  listAlone: number[];
  lists: number[];
  starts: number[];
}

/** Mount j of node i: a ConfigMap for even j, a Secret for odd j, each object mounted by one node. */
const mountOf = (i: number, j: number): { resource: string; name: string } => {
  const n = (i * mounts + j) >> 1;
  return j % 2 === 0 ? { resource: 'configmaps', name: `cm-${n}` } : { resource: 'secrets', name: `sec-${n}` };
};

const headers = { accept: 'application/json', 'user-agent': 'kubelet/v1.28.3 (linux/amd64) kubernetes/bench' };

/** One request; resolves with the status and the time until the response head, and the body when `read`. */
function send(t: Transport, path: string, read: boolean): Promise<{ status: number; ms: number; body?: string; cancel: () => void }> {
  const t0 = now();
  return new Promise((resolve) => {
    const cancel = t.send('GET', path, headers, undefined, undefined, (status, res) => {
      const ms = now() - t0;
      if (!read) { res.resume(); resolve({ status, ms, cancel }); return; }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status, ms: now() - t0, body: Buffer.concat(chunks).toString('utf8'), cancel }));
    }, () => resolve({ status: 0, ms: now() - t0, cancel: () => undefined }));
  });
}

async function pool(count: number, width: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => { for (let i = next++; i < count; i = next++) await fn(i); }));
}

/** The namespace, the ConfigMaps and Secrets, and one pod per node mounting its objects, in the cluster at `url`. */
async function populate(url: string, admin: Parameters<typeof httpsClient>[1], side: Side): Promise<void> {
  const api = httpsClient(url, admin, 16);
  const must = async (method: string, path: string, body: unknown): Promise<void> => {
    for (let tries = 0; ; tries++) {
      const res = await api.call(method, path, body);
      if (res.status < 300 || res.status === 409) return;
      // Pods wait for the namespace's default service account (admission looks it up).
      if (tries > 100) throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  await must('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const stored = Math.max(objects, Math.ceil((nodes * mounts) / 2));
  await pool(stored, 16, async (n) => {
    await must('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${n}` }, data: { k: 'x'.repeat(512) } });
    await must('POST', `/api/v1/namespaces/${ns}/secrets`, { metadata: { name: `sec-${n}` }, data: { k: Buffer.from('x'.repeat(512)).toString('base64') } });
  });
  // One pod per node mounting all of that node's objects: the graph's path object -> pod -> node.
  await pool(nodes, 16, async (i) => {
    const volumes = Array.from({ length: mounts }, (_x, j) => {
      const m = mountOf(i, j);
      return m.resource === 'configmaps' ? { name: `v${j}`, configMap: { name: m.name } } : { name: `v${j}`, secret: { secretName: m.name } };
    });
    await must('POST', `/api/v1/namespaces/${ns}/pods`, { metadata: { name: `pod-${i}` }, spec: {
      nodeName: `node-${i}`, automountServiceAccountToken: false, volumes,
      containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }],
    } });
  });
  api.close();
  // The graph is fed by the replica's pod informer: wait until the last node may read.
  const last = mountOf(nodes - 1, mounts - 1);
  for (let deadline = Date.now() + 30_000; ;) {
    const r = await send(side.transports[nodes - 1]!, `/api/v1/namespaces/${ns}/${last.resource}/${last.name}`, true);
    if (r.status === 200) break;
    if (Date.now() > deadline) throw new Error(`node-${nodes - 1} cannot read ${last.name}: ${r.status} ${r.body}`);
    await new Promise((r2) => setTimeout(r2, 100));
  }
}

async function main(): Promise<void> {
  await withBenchCluster('single-name', async ({ cluster, raw, prefixes }) => {
    const admin = cluster.credentialsFor();
    const pairs = nodes * mounts;
    console.log(`single-name: ${nodes} nodes x ${mounts} mounts = ${pairs} LIST+WATCH pairs, ${objects} ConfigMaps and ${objects} Secrets stored, ${concurrency} at once`);
    const ids: Identity[] = await nodeIdentities(cluster, nodes);
    const sides: Side[] = cluster.urls.map((url, r) => ({
      label: r === 0 ? 'this build' : 'other build', pid: cluster.replicas[r]!.pid!, prefix: prefixes[r]!, watches: [], perPair: [], listAlone: [], lists: [], starts: [],
      transports: ids.map((id) => newTransport('h2', url, id)),
    }));
    // Each replica its own cluster (--against): the same objects in each.
    for (const [r, side] of sides.entries()) await populate(cluster.urls[r]!, admin, side);
    const rows: Row[] = [];
    const row = (measure: string, unit: string, f: (s: Side) => number): void => {
      rows.push({ measure, unit, ours: f(sides[0]!), ...(sides[1] ? { etcd: f(sides[1]) } : {}) });
    };
    // Connections: TLS handshake with client certificate verification, and one small call each.
    const connCpu: number[] = [];
    for (const side of sides) {
      const conn = procMeter(side.pid);
      await pool(nodes - 1, concurrency, async (i) => { await send(side.transports[i]!, '/api/v1/namespaces/kube-node-lease/leases/none', true); });
      connCpu.push((conn.stop().cpuSeconds * 1000) / (nodes - 1));
    }
    row('CPU per connection (handshake + a GET)', 'ms', (x) => connCpu[sides.indexOf(x)]!);
    // etcd requests a replica made (its etcd_requests_total), to tell a pair's etcd work.
    const etcdRequests = async (side: Side): Promise<number> => {
      const text = (await httpsClient(cluster.urls[sides.indexOf(side)]!, admin, 1).call('GET', '/metrics')).text;
      let sum = 0;
      for (const m of text.matchAll(/^etcd_requests_total\{[^}]*\} (\S+)$/gm)) sum += Number(m[1]);
      return sum;
    };
    const pathOf = (p: number): { i: number; base: string } => {
      const i = p % nodes;
      const m = mountOf(i, Math.floor(p / nodes));
      return { i, base: `/api/v1/namespaces/${ns}/${m.resource}?fieldSelector=${encodeURIComponent(`metadata.name=${m.name}`)}` };
    };
    /** Every pair once on `side`, its watches left open; returns CPU ms per pair. */
    const pairRound = async (side: Side, perf?: string): Promise<number> => {
      let failures = 0;
      const recorder = perf ? spawn('perf', ['record', '-k', 'mono', '-F', '997', '-g', '-p', String(side.pid), '-o', perf], { stdio: 'ignore' }) : undefined;
      if (recorder) await new Promise((r) => setTimeout(r, 500));
      const meter = procMeter(side.pid);
      await pool(pairs, concurrency, async (p) => {
        const { i, base } = pathOf(p);
        const list = await send(side.transports[i]!, `${base}&limit=500&resourceVersion=0`, true);
        side.lists.push(list.ms);
        if (list.status !== 200) { failures++; return; }
        const rv = (JSON.parse(list.body!) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
        const w = await send(side.transports[i]!, `${base}&resourceVersion=${rv}&allowWatchBookmarks=true&timeoutSeconds=${300 + (p % 300)}&watch=true`, false);
        side.starts.push(w.ms);
        if (w.status !== 200) failures++;
        side.watches.push(w.cancel);
      });
      const cpu = meter.stop().cpuSeconds;
      if (recorder) { recorder.kill('SIGINT'); await new Promise((r) => recorder.once('exit', r)); }
      if (failures > 0) throw new Error(`${side.label}: ${failures} of ${pairs} pairs failed`);
      return (cpu * 1000) / pairs;
    };
    /** Every LIST once on `side`, no watch; returns CPU ms per LIST. */
    const listRound = async (side: Side): Promise<number> => {
      const meter = procMeter(side.pid);
      await pool(pairs, concurrency, async (p) => {
        const { i, base } = pathOf(p);
        const r = await send(side.transports[i]!, `${base}&limit=500&resourceVersion=0`, true);
        if (r.status !== 200) throw new Error(`LIST: ${r.status} ${r.body}`);
      });
      return (meter.stop().cpuSeconds * 1000) / pairs;
    };
    const closeWatches = async (side: Side): Promise<void> => {
      for (const stop of side.watches.splice(0)) stop();
      // The replica tears them down before the next round is measured.
      await new Promise((r) => setTimeout(r, 2000));
    };

    // Every watch open on both sides at once; other ConfigMaps written straight into etcd
    // (no replica serves the writes): events for none of the watchers. The same window
    // before any watch was opened is the baseline.
    const idleRun = async (perf?: string): Promise<number[]> => {
      const recorder = perf ? spawn('perf', ['record', '-k', 'mono', '-F', '997', '-g', '-p', String(sides[0]!.pid), '-o', perf], { stdio: 'ignore' }) : undefined;
      const meters = sides.map((side) => procMeter(side.pid));
      const t0 = now();
      let seq = 0;
      while (now() - t0 < idleSeconds * 1000) {
        const tick = now();
        for (let w = 0; w < writes; w++, seq++) {
          const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `other-${seq % 20}`, namespace: ns, uid: `00000000-0000-4000-8000-${String(seq % 20).padStart(12, '0')}`, creationTimestamp: '2024-01-01T00:00:00Z' }, data: { seq: String(seq) } };
          const value = encodeForStorage(obj, 'application/vnd.kubernetes.protobuf');
          for (const side of sides) await raw.put(`${side.prefix}/configmaps/${ns}/other-${seq % 20}`).value(value);
        }
        await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (now() - tick))));
      }
      const cores = meters.map((m) => m.stop().cpuSeconds / ((now() - t0) / 1000));
      if (recorder) { recorder.kill('SIGINT'); await new Promise((r) => recorder.once('exit', r)); }
      return cores;
    };
    const idleBefore = await idleRun();

    // The first round on each side compiles the code paths: reported apart.
    const firstEtcd = await Promise.all(sides.map(etcdRequests));
    const first: number[] = [];
    for (const side of sides) first.push(await pairRound(side));
    const afterEtcd = await Promise.all(sides.map(etcdRequests));
    row('first round: CPU per pair (LIST + WATCH start)', 'ms', (x) => first[sides.indexOf(x)]!);
    row('etcd requests per pair (background included)', 'count', (x) => (afterEtcd[sides.indexOf(x)]! - firstEtcd[sides.indexOf(x)]!) / pairs);

    const idleAfter = await idleRun(perfIdleFile);
    row(`no watch open, ${writes} writes/s to other objects: CPU`, 'cores', (x) => idleBefore[sides.indexOf(x)]!);
    row(`${pairs} watches open, same writes: CPU`, 'cores', (x) => idleAfter[sides.indexOf(x)]!);

    // Kubelets re-list and re-watch when a watch times out: the same pairs again, warm,
    // the sides taking turns so that the machine's load falls on both alike.
    for (let k = 0; k < rounds; k++) {
      for (const side of k % 2 === 0 ? sides : [...sides].reverse()) {
        await closeWatches(side);
        side.lists = [];
        side.starts = [];
        side.perPair.push(await pairRound(side, k === rounds - 1 && side === sides[0] ? perfFile : undefined));
        side.listAlone.push(await listRound(side));
      }
    }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    row(`CPU per pair, median of ${rounds} rounds`, 'ms', (x) => median(x.perPair));
    row('  of which the LIST (LIST alone)', 'ms', (x) => median(x.listAlone));
    row('  and the WATCH start (the rest)', 'ms', (x) => median(x.perPair) - median(x.listAlone));
    row('LIST p50 (last round)', 'ms', (x) => stats(x.lists).p50);
    row('LIST p99', 'ms', (x) => stats(x.lists).p99);
    row('WATCH start p50 (to response head)', 'ms', (x) => stats(x.starts).p50);
    row('WATCH start p99', 'ms', (x) => stats(x.starts).p99);
    for (const side of sides) {
      console.log(`${side.label}: CPU per pair by round ${side.perPair.map((x) => x.toFixed(3)).join(' ')}; LIST alone ${side.listAlone.map((x) => x.toFixed(3)).join(' ')}`);
      await closeWatches(side);
      for (const t of side.transports) t.close();
    }
    const other = against ? ` | a replica of ${against}` : '';
    report('single-name', `single-name LIST + WATCH pairs as kubelets make them: ${nodes} nodes x ${mounts} mounts, ${concurrency} at once, Node,RBAC: this build${other}`, rows);
  }, {
    ...againstBuild(against), authorizationMode: 'Node,RBAC',
  });
}

runMain(main);
