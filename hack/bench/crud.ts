// Benchmark: CRUD throughput at a fixed concurrency. Each of C loops creates a 1 KB
// ConfigMap, gets it, updates it (with its resourceVersion) and deletes it, over
// keep-alive HTTPS with a client certificate; against one replica, then against two
// replicas behind the local TCP load balancer (hack/lb, as hack/local-up-cluster.sh runs
// it). Beside it, raw etcd3 does the equivalent transactions at the same concurrency:
// create = put if absent, get = range, update = put if the mod revision matches,
// delete = delete if present. And the floor (floor-server.ts): a bare HTTPS server making
// our server's etcd calls with no API logic, the most this architecture reaches here.
// Also: server CPU per operation, from /proc. And encryption at rest's cost: one more
// replica, on its own key prefix, with ConfigMaps encrypted by aescbc
// (--encryption-provider-config), measured right after the plain one-replica setting.
// And mutual TLS to etcd: one replica on an etcd that requires client certificates,
// beside raw etcd3 over the same TLS (kubeadm's setup; the other settings use plain etcd).
// Run: `node dist/hack/bench/crud.js [--concurrency=32] [--seconds=10]`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Etcd3 } from 'etcd3';
import { arg, configMap, httpsClient, procMeter, report, runMain, startListeningProcess, stats, withBenchCluster, type Row, type Stats } from './common.js';
import { startReplicas, type Cluster } from '../../test/harness/index.js';
import { etcdClientArgs, startTLSEtcd } from '../../test/harness/etcd-tls.js';
import { memberClient } from '../../pkg/storage/etcd/watcher/testing/etcd-cluster.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['concurrency', 'seconds'], { sharedArgs: true });

const concurrency = arg('concurrency', 32);
const seconds = arg('seconds', 10);
const ops = ['create', 'get', 'update', 'delete'] as const;
type Op = typeof ops[number];
const clock = (): number => performance.now();

interface Outcome { opsPerSecond: number; latency: Record<Op, Stats>; errors: number; total: number }

/** Runs `cycle` in `concurrency` loops for `seconds`; each cycle reports its four timings. */
async function drive(cycle: (loop: number, k: number, time: (op: Op, f: () => Promise<void>) => Promise<void>) => Promise<void>): Promise<Outcome> {
  const lat: Record<Op, number[]> = { create: [], get: [], update: [], delete: [] };
  let errors = 0;
  const time = async (op: Op, f: () => Promise<void>): Promise<void> => {
    const t = clock();
    await f();
    lat[op].push(clock() - t);
  };
  const t0 = clock();
  const end = t0 + seconds * 1000;
  await Promise.all(Array.from({ length: concurrency }, async (_x, loop) => {
    for (let k = 0; clock() < end; k++) {
      try { await cycle(loop, k, time); } catch { errors++; }
    }
  }));
  const elapsed = (clock() - t0) / 1000;
  const total = ops.reduce((a, op) => a + lat[op].length, 0);
  return { opsPerSecond: total / elapsed, errors, total, latency: Object.fromEntries(ops.map((op) => [op, stats(lat[op])])) as Record<Op, Stats> };
}

function apiCycle(base: string, creds: Parameters<typeof httpsClient>[1], ns: string) {
  const c = httpsClient(base, creds, concurrency);
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  const expect = (res: { status: number; text: string }, code: number, what: string) => {
    if (res.status !== code) throw new Error(`${what}: ${res.status} ${res.text.slice(0, 200)}`);
    return JSON.parse(res.text) as { metadata: { resourceVersion: string } };
  };
  const cycle = async (loop: number, k: number, time: (op: Op, f: () => Promise<void>) => Promise<void>): Promise<void> => {
    const name = `c-${loop}-${k}`;
    const obj = configMap(name, ns, 1024);
    await time('create', async () => { expect(await c.call('POST', path, obj), 201, 'create'); });
    let rv = '';
    await time('get', async () => { rv = expect(await c.call('GET', `${path}/${name}`), 200, 'get').metadata.resourceVersion; });
    await time('update', async () => {
      expect(await c.call('PUT', `${path}/${name}`, { ...obj, metadata: { ...obj.metadata, resourceVersion: rv }, data: { ...(obj['data'] as Record<string, string>), k: String(k) } }), 200, 'update');
    });
    await time('delete', async () => { expect(await c.call('DELETE', `${path}/${name}`), 200, 'delete'); });
  };
  return { cycle, close: c.close };
}

function etcdCycle(raw: Etcd3, keyRoot: string) {
  return async (loop: number, k: number, time: (op: Op, f: () => Promise<void>) => Promise<void>): Promise<void> => {
    const key = Buffer.from(`${keyRoot}c-${loop}-${k}`);
    const value = Buffer.from(JSON.stringify(configMap(`c-${loop}-${k}`, 'crud', 1024)));
    const ok = (r: { succeeded: boolean }, what: string) => { if (!r.succeeded) throw new Error(`${what} failed`); };
    await time('create', async () => {
      ok(await raw.kv.txn({ compare: [{ key, target: 'Version', result: 'Equal', version: 0 }], success: [{ request_put: { key, value } }], failure: [] }), 'create');
    });
    let rev = '';
    await time('get', async () => { rev = (await raw.kv.range({ key })).kvs[0]!.mod_revision; });
    await time('update', async () => {
      ok(await raw.kv.txn({ compare: [{ key, target: 'Mod', result: 'Equal', mod_revision: rev }], success: [{ request_put: { key, value } }], failure: [] }), 'update');
    });
    await time('delete', async () => {
      ok(await raw.kv.txn({ compare: [{ key, target: 'Version', result: 'Greater', version: 0 }], success: [{ request_delete_range: { key } }], failure: [] }), 'delete');
    });
  };
}

/** Drives f while metering the CPU of the given server processes and of etcd. */
async function measureCPU(f: () => Promise<Outcome>, servers: number[], etcdPid: number) {
  const meters = servers.map(procMeter);
  const etcd = procMeter(etcdPid);
  const out = await f();
  return { out, cpu: meters.reduce((a, m) => a + m.stop().cpuSeconds, 0), etcdCpu: etcd.stop().cpuSeconds };
}

/** CPU seconds spread over an outcome's operations, in microseconds. */
const perOp = (cpu: number, o: Outcome): number => (cpu * 1e6) / o.total;

/** One replica whose ConfigMaps are encrypted at rest with aescbc (a 32-byte key), on its own key prefix. */
async function startEncryptedReplica(etcdEndpoint: string, prefix: string): Promise<{ cluster: Cluster; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-aescbc-'));
  const config = join(dir, 'encryption.yaml');
  writeFileSync(config, `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [configmaps]\n    providers:\n      - aescbc:\n          keys:\n            - name: key1\n              secret: ${Buffer.alloc(32, 7).toString('base64')}\n      - identity: {}\n`);
  const cluster = await startReplicas(1, { etcdEndpoint, etcdPrefix: `${prefix}-aescbc`, extraArgs: ['--controllers=*,-root-ca-cert-publisher', `--encryption-provider-config=${config}`] });
  return { cluster, stop: async () => { await cluster.stop(); rmSync(dir, { recursive: true, force: true }); } };
}

async function main(): Promise<void> {
  await withBenchCluster('crud', async ({ cluster, raw, prefix, etcdPid, etcdEndpoint }) => {
    const encrypted = await startEncryptedReplica(etcdEndpoint, prefix);
    const creds = cluster.credentialsFor();
    const setup = httpsClient(cluster.urls[0]!, creds);
    const lb = await startListeningProcess('../lb/main.js', ['0', ...cluster.replicas.map((r) => String(r.port))]);
    const { serving, ca } = cluster.pki;
    const floor = await startListeningProcess('./floor-server.js', [etcdEndpoint, `${prefix}-floor/`, serving.certFile, serving.keyFile, ca.certFile]);
    console.log(`crud: concurrency ${concurrency}, ${seconds} s per setting; load balancer on ${lb.port}`);
    try {
      for (const ns of ['crud-1', 'crud-2']) {
        const res = await setup.call('POST', '/api/v1/namespaces', { metadata: { name: ns } });
        if (res.status !== 201) throw new Error(`create namespace: ${res.status} ${res.text}`);
      }
      const encCreds = encrypted.cluster.credentialsFor();
      const encSetup = httpsClient(encrypted.cluster.urls[0]!, encCreds);
      const nsRes = await encSetup.call('POST', '/api/v1/namespaces', { metadata: { name: 'crud-aescbc' } });
      encSetup.close();
      if (nsRes.status !== 201) throw new Error(`create namespace: ${nsRes.status} ${nsRes.text}`);
      const pids = cluster.replicas.map((r) => r.pid!);
      const measure = (f: () => Promise<Outcome>, servers: number[]) => measureCPU(f, servers, etcdPid);
      const one = apiCycle(cluster.urls[0]!, creds, 'crud-1');
      const r1 = await measure(() => drive(one.cycle), [pids[0]!]);
      one.close();
      const enc = apiCycle(encrypted.cluster.urls[0]!, encCreds, 'crud-aescbc');
      const ra = await measure(() => drive(enc.cycle), [encrypted.cluster.replicas[0]!.pid!]);
      enc.close();
      const two = apiCycle(`https://127.0.0.1:${lb.port}`, creds, 'crud-2');
      const r2 = await measure(() => drive(two.cycle), [...pids, lb.pid]);
      two.close();
      const bare = apiCycle(`https://127.0.0.1:${floor.port}`, creds, 'crud-floor');
      const rf = await measure(() => drive(bare.cycle), [floor.pid]);
      bare.close();
      const re = await measure(() => drive(etcdCycle(raw, `${prefix}-raw/crud/`)), []);

      // Scenario key, title, outcome, and what the server CPU figure covers.
      const settings = [
        ['crud-1-replica', 'one replica', r1, 'replicas'],
        ['crud-2-replicas-lb', 'two replicas behind the load balancer', r2, 'replicas + lb'],
        ['crud-floor', 'floor: a bare HTTPS server making the same etcd calls, no API logic (floor-server.ts)', rf, 'floor server'],
      ] as const;
      for (const [key, label, r, servers] of settings) {
        const rows: Row[] = [
          { measure: 'operations/s (all four kinds)', unit: 'ops/s', ours: r.out.opsPerSecond, etcd: re.out.opsPerSecond },
          ...ops.flatMap((op): Row[] => [
            { measure: `${op} latency p50`, unit: 'ms', ours: r.out.latency[op].p50, etcd: re.out.latency[op].p50 },
            { measure: `${op} latency p99`, unit: 'ms', ours: r.out.latency[op].p99, etcd: re.out.latency[op].p99 },
          ]),
          { measure: `CPU per operation (${servers} | etcd)`, unit: 'us', ours: perOp(r.cpu, r.out), etcd: perOp(re.etcdCpu, re.out) },
          { measure: 'etcd CPU per operation', unit: 'us', ours: perOp(r.etcdCpu, r.out), etcd: perOp(re.etcdCpu, re.out) },
          { measure: 'failed operations', unit: 'ops', ours: r.out.errors, etcd: re.out.errors },
        ];
        report(key, `CRUD of 1 KB ConfigMaps, concurrency ${concurrency}, ${seconds} s: ${label}`, rows, { concurrency, seconds });
      }
      // Encryption's cost: the same CRUD on one replica with aescbc ConfigMaps, beside the
      // plain one-replica run just before it (the etcd3 column stays raw etcd's).
      report('crud-1-replica-aescbc', `CRUD of 1 KB ConfigMaps, concurrency ${concurrency}, ${seconds} s: one replica, ConfigMaps encrypted with aescbc`, [
        { measure: 'operations/s (all four kinds)', unit: 'ops/s', ours: ra.out.opsPerSecond, etcd: re.out.opsPerSecond },
        { measure: 'operations/s without encryption', unit: 'ops/s', ours: r1.out.opsPerSecond, etcd: re.out.opsPerSecond },
        { measure: 'throughput with aescbc / without', unit: 'ratio', ours: ra.out.opsPerSecond / r1.out.opsPerSecond },
        ...ops.map((op): Row => ({ measure: `${op} latency p50`, unit: 'ms', ours: ra.out.latency[op].p50, etcd: re.out.latency[op].p50 })),
        { measure: 'CPU per operation (replica | etcd)', unit: 'us', ours: perOp(ra.cpu, ra.out), etcd: perOp(re.etcdCpu, re.out) },
        { measure: 'CPU per operation without encryption', unit: 'us', ours: perOp(r1.cpu, r1.out), etcd: perOp(re.etcdCpu, re.out) },
        { measure: 'failed operations', unit: 'ops', ours: ra.out.errors, etcd: re.out.errors },
      ], { concurrency, seconds });
    } finally {
      lb.stop();
      floor.stop();
      setup.close();
      await encrypted.stop();
    }
  });
}

/** One replica on a mutual-TLS etcd against raw etcd3 over the same TLS, each measured alone. */
async function benchOverTLS(): Promise<void> {
  const etcd = await startTLSEtcd();
  const { pki } = etcd;
  const raw = memberClient([etcd.endpoint], { caFile: pki.ca.certFile, certFile: pki.apiserverClient.certFile, keyFile: pki.apiserverClient.keyFile }, 10_000);
  const cluster = await startReplicas(1, { etcdEndpoint: etcd.endpoint, extraArgs: ['--controllers=*,-root-ca-cert-publisher', ...etcdClientArgs(pki)] });
  try {
    const creds = cluster.credentialsFor();
    const setup = httpsClient(cluster.urls[0]!, creds);
    const res = await setup.call('POST', '/api/v1/namespaces', { metadata: { name: 'crud-tls' } });
    setup.close();
    if (res.status !== 201) throw new Error(`create namespace: ${res.status} ${res.text}`);
    const measure = (f: () => Promise<Outcome>, servers: number[]) => measureCPU(f, servers, etcd.pid);
    const api = apiCycle(cluster.urls[0]!, creds, 'crud-tls');
    const rt = await measure(() => drive(api.cycle), [cluster.replicas[0]!.pid!]);
    api.close();
    const re = await measure(() => drive(etcdCycle(raw, `${cluster.etcdPrefix}-raw/crud/`)), []);
    report('crud-1-replica-etcd-tls', `CRUD of 1 KB ConfigMaps, concurrency ${concurrency}, ${seconds} s: one replica on an etcd requiring client certificates, beside raw etcd3 over the same TLS`, [
      { measure: 'operations/s (all four kinds)', unit: 'ops/s', ours: rt.out.opsPerSecond, etcd: re.out.opsPerSecond },
      ...ops.map((op): Row => ({ measure: `${op} latency p50`, unit: 'ms', ours: rt.out.latency[op].p50, etcd: re.out.latency[op].p50 })),
      { measure: 'CPU per operation (replica | etcd)', unit: 'us', ours: perOp(rt.cpu, rt.out), etcd: perOp(re.etcdCpu, re.out) },
      { measure: 'etcd CPU per operation', unit: 'us', ours: perOp(rt.etcdCpu, rt.out), etcd: perOp(re.etcdCpu, re.out) },
      { measure: 'failed operations', unit: 'ops', ours: rt.out.errors, etcd: re.out.errors },
    ], { concurrency, seconds });
  } finally {
    raw.close();
    await cluster.stop();
    await etcd.stop();
  }
}

runMain(async () => {
  await main();
  await benchOverTLS();
});
