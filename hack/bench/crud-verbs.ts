// Benchmark: server CPU per operation, one verb at a time, ours beside the floor
// (floor-server.ts: a bare HTTPS server making the same etcd calls, no API logic). For
// each verb in turn (create, get, update, patch, delete) C loops send only that verb for
// `seconds`, to one replica and to the floor by turns (a second each), and each server's CPU time (utime +
// stime from /proc) over that phase is divided by the operations it served: a CPU figure,
// so other load on the machine slows a phase without changing much what it costs. Updates
// carry the resourceVersion the last write returned; patches are JSON merge patches of
// one data key; every update and patch changes the object (no no-op writes); deletes
// remove every object the create phase made, each once. What a server spends with no
// request at all (its idle CPU, measured with both servers idle) is taken out of each
// phase's CPU before dividing, so a phase slowed by other load on the machine is not
// charged more of the replica's background work (leases, controllers).
// With --windows=FILE the phases' start and end (CLOCK_MONOTONIC µs, the clock V8's
// profiles use) are written there, so cpuprofile.js --window can show one verb's profile
// and cpuprofile-steps.js --window split it over a write's steps
// (BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" profiles the replica, FLOOR_NODE_ARGS the floor). --no-controllers
// runs the replica without its in-process controllers (--controllers=-*), as upstream's
// kube-apiserver runs without kube-controller-manager's: what their informers cost per write.
// --against=ENTRY puts a second replica in the floor's place, started from another build's
// dist/cmd/apiserver.js (the same flags, etcd and PKI, its own etcd prefix so that it leads
// its own controllers as the first does): a before/after of a change measured
// interleaved in one run, each build taking its turns under the same load. Node flags may
// precede the entry (--against='--max-semi-space-size=64 dist/cmd/apiserver.js').
// --etcd-calls adds what etcd served each server per operation, from etcd's own /metrics
// read around each slice (grpc_server_handled_total by method, and the gRPC bytes etcd
// received and sent): our etcd_requests_total leaves out reads inside a write, and the
// bytes include the watch events a replica's caches receive for its own writes.
// --perf=DIR records both servers with `perf record` over the measured phases and prints,
// per verb, each one's CPU per operation by kind of work (perf-split.ts); start the
// replica and the floor with BENCH_NODE_ARGS / FLOOR_NODE_ARGS=--perf-basic-prof-only-functions
// to have JavaScript named by package.
// --floor=design starts the floor with --design (floor-server.ts: upstream's protobuf in
// etcd and a watch-fed copy of every object, what this design pays before any API logic);
// --floors measures that design floor beside the bare floor, no replica: what the design
// itself adds to each verb.
// Run: `node dist/hack/bench/crud-verbs.js [--concurrency=32] [--seconds=5] [--warmup=10] [--idle=5] [--windows=FILE] [--no-controllers] [--against=ENTRY] [--etcd-calls] [--verbs=create,get,...] [--perf=DIR]`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { perfKinds, perfTable, recordPerf } from './perf-split.js';
import { arg, configMap, flag, httpsClient, procStats, report, runMain, startListeningProcess, againstBuild, withBenchCluster, type Row } from './common.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['concurrency', 'seconds', 'warmup', 'idle', 'windows', 'no-controllers', 'against', 'etcd-calls', 'verbs', 'perf', 'floor', 'floors']);

const concurrency = arg('concurrency', 32);
const seconds = arg('seconds', 5);
// Each verb runs this long, on both servers by turns as in the measured phases, before
// anything is measured. 2 s (a few hundred creates on a loaded machine) left much of the
// replica's path to V8's interpreter and baseline code, its optimizing compiler still
// working through it during the measured phase; the floor's path is a few functions.
const warmup = arg('warmup', 10);
const idleSeconds = arg('idle', 5);
const sliceSeconds = 1;
const windowsFile = process.argv.find((x) => x.startsWith('--windows='))?.split('=')[1];
const against = process.argv.find((x) => x.startsWith('--against='))?.slice('--against='.length);
const allVerbs = ['create', 'get', 'update', 'patch', 'delete'] as const;
type Verb = typeof allVerbs[number];
// --verbs=create,get: only these phases (in the usual order); the others need the objects a create phase makes.
const verbs = ((): readonly Verb[] => {
  const asked = process.argv.find((x) => x.startsWith('--verbs='))?.slice('--verbs='.length).split(',');
  if (!asked) return allVerbs;
  const unknown = asked.filter((v) => !(allVerbs as readonly string[]).includes(v));
  if (unknown.length > 0) throw new Error(`unknown verbs: ${unknown.join(', ')}`);
  if (!asked.includes('create')) throw new Error('--verbs must include create: the other verbs act on the objects it makes');
  return allVerbs.filter((v) => asked.includes(v));
})();
const micros = (): number => Number(process.hrtime.bigint() / 1000n);
const countEtcdCalls = flag('etcd-calls');
const perfDir = process.argv.find((x) => x.startsWith('--perf='))?.slice('--perf='.length);
const floors = flag('floors');
const designFloor = floors || process.argv.includes('--floor=design');

/** etcd's counters that matter here: calls served by gRPC method, and gRPC bytes in and out. */
type EtcdCounters = Map<string, number>;
async function etcdCounters(endpoint: string): Promise<EtcdCounters> {
  const text = await (await fetch(`${endpoint}/metrics`)).text();
  const out: EtcdCounters = new Map();
  for (const line of text.split('\n')) {
    const handled = /^grpc_server_handled_total\{.*grpc_method="(\w+)".*\} (\S+)$/.exec(line);
    if (handled) out.set(handled[1]!, (out.get(handled[1]!) ?? 0) + Number(handled[2]));
    const bytes = /^etcd_network_client_grpc_(received|sent)_bytes_total (\S+)$/.exec(line);
    if (bytes) out.set(`bytes ${bytes[1]}`, Number(bytes[2]));
  }
  return out;
}

interface Phase { ops: number; errors: number; cpuUs: number; busyUs: number; window: [number, number]; etcd: Map<string, number> }

/** One server's objects and the resourceVersion each last had, per loop. */
function target(base: string, creds: Parameters<typeof httpsClient>[1], ns: string, pid: number, etcdEndpoint: string) {
  const c = httpsClient(base, creds, concurrency);
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  const objects: Array<Array<{ name: string; rv: string }>> = Array.from({ length: concurrency }, () => []);
  const rvOf = (res: { status: number; text: string }, code: number): string => {
    if (res.status !== code) throw new Error(`${res.status} ${res.text.slice(0, 200)}`);
    return (JSON.parse(res.text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  };
  const step: Record<Verb, (loop: number, k: number) => Promise<boolean>> = {
    async create(loop, k) {
      // The phase's number keeps names apart when no delete phase ran in between (--verbs).
      const name = `c-${round}-${loop}-${k}`;
      objects[loop]!.push({ name, rv: rvOf(await c.call('POST', path, configMap(name, ns, 1024)), 201) });
      return true;
    },
    async get(loop, k) {
      const o = objects[loop]![k % objects[loop]!.length]!;
      rvOf(await c.call('GET', `${path}/${o.name}`), 200);
      return true;
    },
    async update(loop, k) {
      const o = objects[loop]![k % objects[loop]!.length]!;
      // The phase's number keeps every update a change: the warm-up phase wrote k = 0, 1...
      // to the same objects, and an update to what is already stored writes nothing (a
      // no-op: upstream's and ours answer from a read, where the floor writes regardless).
      const obj = configMap(o.name, ns, 1024, { k: `${round}-${k}` });
      o.rv = rvOf(await c.call('PUT', `${path}/${o.name}`, { ...obj, metadata: { ...obj.metadata, resourceVersion: o.rv } }), 200);
      return true;
    },
    async patch(loop, k) {
      const o = objects[loop]![k % objects[loop]!.length]!;
      o.rv = rvOf(await c.call('PATCH', `${path}/${o.name}`, { data: { k: `p${round}-${k}` } }, 'application/merge-patch+json'), 200);
      return true;
    },
    async delete(loop, k) {
      const o = objects[loop]![k];
      if (!o) return false;
      rvOf(await c.call('DELETE', `${path}/${o.name}`), 200);
      return true;
    },
  };
  /** CPU the server spends with no request (leases, controllers, timers), per µs of wall time. */
  const idle = { rate: 0 };
  const measureIdle = async (ms: number): Promise<number> => {
    const cpu0 = procStats(pid).cpuSeconds;
    const t0 = micros();
    await new Promise((r) => setTimeout(r, ms));
    idle.rate = ((procStats(pid).cpuSeconds - cpu0) * 1e6) / (micros() - t0);
    return idle.rate;
  };
  // Each loop's position in the current verb's sequence, kept across slices.
  let cursor: number[] = [];
  let round = 0;
  let acc = { ops: 0, errors: 0, cpuUs: 0, wallUs: 0, start: 0, stop: 0, etcd: new Map<string, number>() };
  /** Starts a verb's phase: counters and positions from zero. */
  const begin = (): void => {
    cursor = new Array(concurrency).fill(0);
    round++;
    acc = { ops: 0, errors: 0, cpuUs: 0, wallUs: 0, start: micros(), stop: 0, etcd: new Map() };
  };
  /** Sends only `verb` from every loop for `sliceSeconds` (deletes: at most until each object is gone); true while deletes remain. */
  const slice = async (verb: Verb, sliceSeconds: number): Promise<boolean> => {
    let more = verb !== 'delete';
    const etcd0 = countEtcdCalls ? await etcdCounters(etcdEndpoint) : undefined;
    const cpu0 = procStats(pid).cpuSeconds;
    const start = micros();
    const end = start + sliceSeconds * 1e6;
    await Promise.all(Array.from({ length: concurrency }, async (_x, loop) => {
      while (micros() < end) {
        const k = cursor[loop]!++;
        try {
          if (!(await step[verb](loop, k))) return;
          acc.ops++;
        } catch { acc.errors++; }
      }
      more = true;
    }));
    const stop = micros();
    acc.cpuUs += (procStats(pid).cpuSeconds - cpu0) * 1e6;
    acc.wallUs += stop - start;
    acc.stop = stop;
    if (etcd0) {
      for (const [name, n] of await etcdCounters(etcdEndpoint)) acc.etcd.set(name, (acc.etcd.get(name) ?? 0) + n - (etcd0.get(name) ?? 0));
    }
    return more;
  };
  /** The phase so far, per operation. */
  const result = (verb: Verb): Phase => {
    if (verb === 'delete') for (const list of objects) list.length = 0;
    const n = Math.max(1, acc.ops);
    const etcd = new Map([...acc.etcd].filter(([, v]) => v > 0).map(([k, v]) => [k, v / n]));
    return { ops: acc.ops, errors: acc.errors, cpuUs: acc.cpuUs / n, busyUs: Math.max(0, acc.cpuUs - idle.rate * acc.wallUs) / n, window: [acc.start, acc.stop], etcd };
  };
  return { begin, slice, result, measureIdle, close: c.close };
}

async function main(): Promise<void> {
  await withBenchCluster('crud-verbs', async ({ cluster, prefix, etcdEndpoint }) => {
    const creds = cluster.credentialsFor();
    const { serving, ca } = cluster.pki;
    const startFloor = (design: boolean) => startListeningProcess('./floor-server.js',
      [etcdEndpoint, `${prefix}-floor${design ? '-design' : ''}/`, serving.certFile, serving.keyFile, ca.certFile, ...(design ? ['--design'] : [])],
      (process.env['FLOOR_NODE_ARGS'] ?? '').split(' ').filter(Boolean));
    const floor = against ? undefined : await startFloor(designFloor);
    // --floors: the bare floor takes the replica's column.
    const bareFloor = floors ? await startFloor(false) : undefined;
    try {
      for (const [i, ns] of (against ? ['crud-verbs', 'crud-verbs-b'] : ['crud-verbs']).entries()) {
        const setup = httpsClient(cluster.urls[i]!, creds);
        const res = await setup.call('POST', '/api/v1/namespaces', { metadata: { name: ns } });
        setup.close();
        if (res.status !== 201) throw new Error(`create namespace: ${res.status} ${res.text}`);
      }
      const ours = bareFloor
        ? target(`https://127.0.0.1:${bareFloor.port}`, creds, 'crud-verbs', bareFloor.pid, etcdEndpoint)
        : target(cluster.urls[0]!, creds, 'crud-verbs', cluster.replicas[0]!.pid!, etcdEndpoint);
      const bare = floor
        ? target(`https://127.0.0.1:${floor.port}`, creds, 'crud-verbs', floor.pid, etcdEndpoint)
        : target(cluster.urls[1]!, creds, 'crud-verbs-b', cluster.replicas[1]!.pid!, etcdEndpoint);
      // The two servers take turns in slices of a second, so both see the same mix of
      // the machine's other load over a phase.
      const phase = async (verb: Verb, total: number): Promise<[Phase, Phase]> => {
        ours.begin();
        bare.begin();
        for (let t = 0, more = true; more && t < total; t += sliceSeconds) {
          const a = await ours.slice(verb, sliceSeconds);
          const b = await bare.slice(verb, sliceSeconds);
          more = a || b;
        }
        if (verb === 'delete') {
          // Deletes go on until each server has removed every object it made.
          while (await ours.slice(verb, sliceSeconds));
          while (await bare.slice(verb, sliceSeconds));
        }
        return [ours.result(verb), bare.result(verb)];
      };
      console.log(`crud-verbs: concurrency ${concurrency}, ${seconds} s per verb and server, after ${warmup} s of each unmeasured`);
      // The first requests of each verb compile its code path: not what a verb costs.
      for (const verb of verbs) await phase(verb, warmup);
      // Under load, fewer operations share the same background CPU: it is measured apart
      // (both servers idle at once) and taken out of the per-operation figures below.
      const [oursIdle, floorIdle] = await Promise.all([ours.measureIdle(idleSeconds * 1000), bare.measureIdle(idleSeconds * 1000)]);
      const side = against ? 'other build' : designFloor ? 'design floor' : 'floor';
      const mine = bareFloor ? 'floor' : 'replica';
      const rows: Row[] = [];
      const windows: Record<string, [number, number]> = {};
      const pids = [bareFloor ? bareFloor.pid : cluster.replicas[0]!.pid!, floor ? floor.pid : cluster.replicas[1]!.pid!];
      if (perfDir) mkdirSync(perfDir, { recursive: true });
      const perfFiles = perfDir ? pids.map((pid) => join(perfDir, `${pid}.perf.data`)) : [];
      const recorders = perfFiles.map((file, i) => recordPerf(pids[i]!, file));
      const perfLines: string[] = [];
      const phases: Array<[Verb, Phase, Phase]> = [];
      for (const verb of verbs) {
        const [o, f] = await phase(verb, seconds);
        phases.push([verb, o, f]);
        windows[verb] = o.window;
        rows.push({ measure: `${verb} CPU per operation (${mine} | ${side})`, unit: 'us', ours: o.busyUs, etcd: f.busyUs });
        rows.push({ measure: `${verb} same, idle CPU not taken out`, unit: 'us', ours: o.cpuUs, etcd: f.cpuUs });
        rows.push({ measure: `${verb} operations (failed: ${o.errors} | ${f.errors})`, unit: 'ops', ours: o.ops, etcd: f.ops });
        for (const name of new Set([...o.etcd.keys(), ...f.etcd.keys()])) {
          rows.push({ measure: `${verb} etcd ${name} per operation`, unit: name.startsWith('bytes') ? 'B' : 'calls', ours: o.etcd.get(name) ?? 0, etcd: f.etcd.get(name) ?? 0 });
        }
      }
      for (const r of recorders) await r.stop();
      for (const [verb, o, f] of perfFiles.length > 0 ? phases : []) {
        perfLines.push(`${verb}: us of CPU per operation by kind (perf)     ${mine} ${side}`,
          ...perfTable(perfKinds(perfFiles[0]!, o.window), o.ops, perfKinds(perfFiles[1]!, f.window), f.ops));
      }
      rows.push({ measure: `idle CPU (${mine} | ${side})`, unit: 'ms/s', ours: oursIdle * 1000, etcd: floorIdle * 1000 });
      ours.close();
      bare.close();
      const other = against ? `a replica of ${against}` : designFloor ? 'the design floor' : 'the floor server';
      report('crud-verbs', `CRUD of 1 KB ConfigMaps one verb at a time, concurrency ${concurrency}, ${seconds} s each: ${bareFloor ? 'the floor server' : 'one replica'} | ${other}`, rows, { concurrency, seconds });
      if (perfLines.length > 0) console.log(`\n${perfLines.join('\n')}`);
      if (windowsFile) writeFileSync(windowsFile, `${JSON.stringify(windows)}\n`);
    } finally {
      floor?.stop();
      bareFloor?.stop();
    }
  }, {
    ...againstBuild(against),
    extraArgs: flag('no-controllers') ? ['--controllers=-*'] : [],
  });
}

runMain(main);
