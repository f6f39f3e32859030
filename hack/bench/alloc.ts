// Allocation per operation: what one replica allocates per 1 KB ConfigMap create and update,
// beside the floor server doing the same etcd calls (or, with --against=ENTRY, a replica of
// another build), counted by V8's sampling heap profiler with collected objects kept
// (heap-sampler.ts, preloaded into both servers). Unlike CPU per operation it hardly moves
// with the machine's other load, so a change that removes allocations shows as bytes per
// operation within a run or two. Each server is measured alone (the other idle), each verb
// `--rounds` times in turn; the idle allocation over the same wall time (leases, controllers)
// is measured apart and taken out. --keep=DIR keeps the last round's profiles
// (heap-profile.js reads them); --top=N prints the replica's top allocating functions.
// --verbs=create,update,get picks the verbs (a get reads back what the creates made: the
// path every request shares, with the least handler work).
// Run: node dist/hack/bench/alloc.js [--ops=4000] [--warmup=3000] [--rounds=3] [--concurrency=32] [--verbs=create,update] [--against=ENTRY] [--keep=DIR] [--top=N]
import { existsSync, mkdirSync, readdirSync, copyFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { againstBuild, arg, configMap, httpsClient, report, runMain, startListeningProcess, withBenchCluster, type Row } from './common.js';
import { heapByFunction, readHeapProfile } from './heap-profile.js';
import { makeScratchDir } from '../../pkg/storage/etcd/watcher/testing/scratch-dir.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['ops', 'warmup', 'rounds', 'concurrency', 'top', 'verbs', 'against', 'keep']);

const ops = arg('ops', 4000);
const warmup = arg('warmup', 3000);
const rounds = arg('rounds', 3);
const concurrency = arg('concurrency', 32);
const top = arg('top', 0);
const against = process.argv.find((x) => x.startsWith('--against='))?.slice('--against='.length);
const keep = process.argv.find((x) => x.startsWith('--keep='))?.slice('--keep='.length);
const allVerbs = ['create', 'update', 'get'] as const;
type Verb = typeof allVerbs[number];
const verbs = (process.argv.find((x) => x.startsWith('--verbs='))?.slice('--verbs='.length) ?? 'create,update').split(',')
  .map((v) => { if (!(allVerbs as readonly string[]).includes(v)) throw new Error(`--verbs: unknown verb ${v}`); return v as Verb; });
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

const sampleDir = makeScratchDir('bench-alloc-');
process.env['HEAP_SAMPLE_DIR'] = sampleDir;
const preload = ['--import', fileURLToPath(new URL('./heap-sampler.js', import.meta.url))];

/** Asks a sampled process for what it allocated since the last ask; resolves the profile's file. */
async function dump(pid: number, seen: Set<string>): Promise<string> {
  process.kill(pid, 'SIGUSR2');
  for (;;) {
    const file = readdirSync(sampleDir).find((f) => f.startsWith(`${pid}-`) && f.endsWith('.heapprofile') && !seen.has(f));
    if (file) { seen.add(file); return join(sampleDir, file); }
    await sleep(20);
  }
}

function server(name: string, base: string, creds: Parameters<typeof httpsClient>[1], ns: string, pid: number) {
  const c = httpsClient(base, creds, concurrency);
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  const objects: Array<{ name: string; rv: string }> = [];
  const seen = new Set<string>();
  let made = 0;
  let updates = 0;
  const rvOf = (res: { status: number; text: string }, code: number): string => {
    if (res.status !== code) throw new Error(`${name}: ${res.status} ${res.text.slice(0, 200)}`);
    return (JSON.parse(res.text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  };
  const one: Record<Verb, (i: number) => Promise<void>> = {
    async create() {
      const n = `a-${made++}`;
      objects.push({ name: n, rv: rvOf(await c.call('POST', path, configMap(n, ns, 1024)), 201) });
    },
    async update(i) {
      const o = objects[i % objects.length]!;
      const obj = configMap(o.name, ns, 1024, { k: String(updates++) });
      o.rv = rvOf(await c.call('PUT', `${path}/${o.name}`, { ...obj, metadata: { ...obj.metadata, resourceVersion: o.rv } }), 200);
    },
    async get(i) {
      const o = objects[i % objects.length]!;
      const res = await c.call('GET', `${path}/${o.name}`);
      if (res.status !== 200) throw new Error(`${name}: ${res.status} ${res.text.slice(0, 200)}`);
    },
  };
  /** Runs `count` operations of `verb`, `concurrency` at a time; wall µs. */
  const run = async (verb: Verb, count: number): Promise<number> => {
    let next = 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < count; i = next++) await one[verb](i);
    }));
    return (performance.now() - t0) * 1000;
  };
  /** Bytes allocated over `verb` × count, and over the same wall time idle. */
  const measure = async (verb: Verb, count: number): Promise<{ bytes: number; idleBytes: number; file: string }> => {
    await dump(pid, seen);
    const wall = await run(verb, count);
    const file = await dump(pid, seen);
    const bytes = heapByFunction(readHeapProfile(file), 'self').total;
    await sleep(Math.min(wall / 1000, 3000));
    const idleFile = await dump(pid, seen);
    const idleBytes = heapByFunction(readHeapProfile(idleFile), 'self').total * Math.max(1, wall / 1000 / 3000);
    return { bytes, idleBytes, file };
  };
  return { name, run, measure, close: c.close };
}

async function main(): Promise<void> {
  mkdirSync(sampleDir, { recursive: true });
  await withBenchCluster('alloc', async ({ cluster, etcdEndpoint }) => {
    const creds = cluster.credentialsFor();
    const { serving, ca } = cluster.pki;
    const floor = against ? undefined : await startListeningProcess('./floor-server.js',
      [etcdEndpoint, `/bench-alloc-floor-${Date.now().toString(36)}/`, serving.certFile, serving.keyFile, ca.certFile], preload);
    try {
      for (const [i, ns] of (against ? ['alloc', 'alloc-b'] : ['alloc']).entries()) {
        const setup = httpsClient(cluster.urls[i]!, creds);
        const res = await setup.call('POST', '/api/v1/namespaces', { metadata: { name: ns } });
        setup.close();
        if (res.status !== 201) throw new Error(`create namespace: ${res.status} ${res.text}`);
      }
      const servers = [
        server('replica', cluster.urls[0]!, creds, 'alloc', cluster.replicas[0]!.pid!),
        floor ? server('floor', `https://127.0.0.1:${floor.port}`, creds, 'alloc', floor.pid) : server('other build', cluster.urls[1]!, creds, 'alloc-b', cluster.replicas[1]!.pid!),
      ];
      console.log(`alloc: concurrency ${concurrency}, ${ops} operations per verb and round, ${rounds} rounds, after ${warmup} of each unmeasured`);
      // Updates and gets need objects: the warm-up creates them first, whatever is measured.
      for (const s of servers) for (const verb of ['create' as const, ...verbs.filter((v) => v !== 'create')]) await s.run(verb, warmup);
      const per = new Map<string, number[]>();
      const last = new Map<string, string>();
      for (let r = 0; r < rounds; r++) {
        for (const verb of verbs) {
          for (const s of r % 2 === 0 ? servers : [...servers].reverse()) {
            const m = await s.measure(verb, ops);
            const key = `${verb} ${s.name}`;
            per.set(key, [...(per.get(key) ?? []), (m.bytes - m.idleBytes) / ops / 1024]);
            last.set(key, m.file);
          }
        }
      }
      const rows: Row[] = [];
      const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      for (const verb of verbs) {
        const a = per.get(`${verb} ${servers[0]!.name}`)!;
        const b = per.get(`${verb} ${servers[1]!.name}`)!;
        console.log(`${verb}: KB per operation, each round: ${servers[0]!.name} ${a.map((x) => x.toFixed(1)).join(' ')} | ${servers[1]!.name} ${b.map((x) => x.toFixed(1)).join(' ')}`);
        rows.push({ measure: `${verb} KB allocated per operation (median)`, unit: 'KB', ours: median(a), etcd: median(b) });
      }
      report('alloc', `Allocation per 1 KB ConfigMap write, sampled heap with collected objects: one replica | ${against ? `a replica of ${against}` : 'the floor server'}`, rows, { ops, rounds, concurrency });
      if (keep) {
        mkdirSync(keep, { recursive: true });
        for (const [key, file] of last) copyFileSync(file, join(keep, `${key.replace(/ /g, '-')}.heapprofile`));
      }
      for (const verb of top > 0 ? verbs : []) {
        const { total, byFunction } = heapByFunction(readHeapProfile(last.get(`${verb} replica`)!), 'self');
        console.log(`\n${verb}: the replica's top allocating functions, bytes per operation (last round, idle included)`);
        for (const [name, bytes] of [...byFunction].sort((x, y) => y[1] - x[1]).slice(0, top)) {
          console.log(`${((bytes / total) * 100).toFixed(1).padStart(5)}% ${(bytes / ops).toFixed(0).padStart(6)} B  ${name}`);
        }
      }
      for (const s of servers) s.close();
    } finally {
      floor?.stop();
      if (existsSync(sampleDir)) rmSync(sampleDir, { recursive: true, force: true });
    }
  }, {
    nodeArgs: preload,
    ...againstBuild(against),
  });
}

runMain(main);
