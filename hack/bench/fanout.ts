// Benchmark: watch fan-out. N watchers (1, 100, 1,000) on the ConfigMaps of one namespace
// of one replica while a writer updates ConfigMaps there at a fixed rate for a bounded
// time; beside it, N raw etcd3 watchers on a key prefix with the same writes as puts.
// Measured: delivery latency from the write's acknowledgement to each watcher's receipt
// (p50/p99 over every watcher and event), events missed and duplicated (both must be 0),
// the replica's and etcd's CPU seconds and peak RSS during the run (from /proc).
// The watchers live in child processes (hack/bench/watchers.ts) so that one client
// event loop is not what is measured.
// Run: `node dist/hack/bench/fanout.js [--watchers=1,100,1000] [--rate=50] [--seconds=10]`.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { arg, configMap, httpsClient, procMeter, report, runMain, stats, withBenchCluster, type Row } from './common.js';
import type { FromWorker, ToWorker, WatcherStart } from './watchers.js';

const counts = (process.argv.find((a) => a.startsWith('--watchers='))?.split('=')[1] ?? '1,100,1000').split(',').map(Number);
const rate = arg('rate', 50);
const seconds = arg('seconds', 10);
const objects = 10;
const clock = (): number => performance.timeOrigin + performance.now();
const workerEntry = fileURLToPath(new URL('./watchers.js', import.meta.url));

class Worker {
  private readonly child: ChildProcess;
  private waiters: Array<(m: FromWorker) => void> = [];
  constructor() {
    this.child = fork(workerEntry, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (m: FromWorker) => { this.waiters.shift()?.(m); });
    // A worker that dies must fail the run, not leave it waiting for an answer.
    this.child.on('exit', (code, signal) => {
      for (const w of this.waiters.splice(0)) w({ op: 'error', message: `watcher process exited (${code ?? signal})` });
    });
  }
  ask(m: ToWorker): Promise<FromWorker> {
    return new Promise((resolve, reject) => {
      this.waiters.push((r) => (r.op === 'error' ? reject(new Error(r.message)) : resolve(r)));
      this.child.send(m);
    });
  }
  kill(): void { this.child.kill(); }
}

interface RunResult { latency: ReturnType<typeof stats>; fromSend: ReturnType<typeof stats>; missed: number; duplicated: number; broken: number; writes: number; failedWrites: number }

/** Starts the watchers, writes for `seconds`, waits for delivery, collects. */
async function run(n: number, spec: (count: number) => WatcherStart, write: (seq: number) => Promise<boolean>): Promise<RunResult> {
  const workers = Array.from({ length: Math.min(n, 2) }, () => new Worker());
  try {
    const share = (i: number) => Math.floor(n / workers.length) + (i < n % workers.length ? 1 : 0);
    await Promise.all(workers.map((w, i) => w.ask({ op: 'start', spec: spec(share(i)) })));
    const total = rate * seconds;
    const acks: number[] = new Array<number>(total).fill(NaN);
    const sends: number[] = new Array<number>(total).fill(NaN);
    let failedWrites = 0;
    const inflight: Array<Promise<void>> = [];
    const t0 = clock();
    for (let seq = 0; seq < total; seq++) {
      const due = t0 + (seq * 1000) / rate;
      const wait = due - clock();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sends[seq] = clock();
      inflight.push(write(seq).then((ok) => { acks[seq] = clock(); if (!ok) failedWrites++; }));
    }
    await Promise.all(inflight);
    // Delivery: until every watcher has every event, or 15 s after the last acknowledgement.
    const deadline = clock() + 15_000;
    for (;;) {
      const got = (await Promise.all(workers.map((w) => w.ask({ op: 'progress' })))).reduce((a, r) => a + (r.op === 'progress' ? r.received : 0), 0);
      if (got >= total * n || clock() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const results = await Promise.all(workers.map((w) => w.ask({ op: 'finish', acks, sends })));
    const latencies: number[] = [];
    const fromSend: number[] = [];
    let missed = 0, duplicated = 0, broken = 0;
    for (const r of results) {
      if (r.op !== 'result') continue;
      for (const l of r.latencies) latencies.push(l);
      for (const l of r.fromSend) fromSend.push(l);
      missed += r.missed; duplicated += r.duplicated; broken += r.broken;
    }
    return { latency: stats(latencies), fromSend: stats(fromSend), missed, duplicated, broken, writes: total, failedWrites };
  } finally {
    for (const w of workers) w.kill();
  }
}

async function main(): Promise<void> {
  await withBenchCluster('fanout', async ({ cluster, raw, prefix, etcdEndpoint, etcdPid }) => {
    const creds = cluster.credentialsFor();
    const api = httpsClient(cluster.urls[0]!, creds, 16);
    const replicaPid = cluster.replicas[0]!.pid!;
    console.log(`fan-out: ${counts.join(', ')} watchers, ${rate} updates/s for ${seconds} s over ${objects} ConfigMaps`);
    try {
      for (const n of counts) {
        const ns = `fan-${n}`;
        const created = await api.call('POST', '/api/v1/namespaces', { metadata: { name: ns } });
        if (created.status !== 201) throw new Error(`create namespace: ${created.status} ${created.text}`);
        for (let i = 0; i < objects; i++) {
          const res = await api.call('POST', `/api/v1/namespaces/${ns}/configmaps`, configMap(`cm-${i}`, ns, 1024, { seq: '-1' }));
          if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
        }
        const list = JSON.parse((await api.call('GET', `/api/v1/namespaces/${ns}/configmaps`)).text) as { metadata: { resourceVersion: string } };
        const watchUrl = `${cluster.urls[0]}/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${list.metadata.resourceVersion}`;

        let meters = { replica: procMeter(replicaPid), etcd: procMeter(etcdPid) };
        const ours = await run(n, (count) => ({ kind: 'api', count, url: watchUrl, creds }), async (seq) => {
          const res = await api.call('PUT', `/api/v1/namespaces/${ns}/configmaps/cm-${seq % objects}`, configMap(`cm-${seq % objects}`, ns, 1024, { seq: String(seq) }));
          return res.status === 200;
        });
        const oursReplica = meters.replica.stop();
        const oursEtcd = meters.etcd.stop();

        const keyPrefix = `${prefix}-raw/fan-${n}/`;
        meters = { replica: procMeter(replicaPid), etcd: procMeter(etcdPid) };
        const base = await run(n, (count) => ({ kind: 'etcd', count, endpoint: etcdEndpoint, keyPrefix }), async (seq) => {
          await raw.put(`${keyPrefix}cm-${seq % objects}`).value(JSON.stringify(configMap(`cm-${seq % objects}`, ns, 1024, { seq: String(seq) })));
          return true;
        });
        meters.replica.stop();
        const baseEtcd = meters.etcd.stop();

        const rows: Row[] = [
          { measure: 'delivery latency p50', unit: 'ms', ours: ours.latency.p50, etcd: base.latency.p50 },
          { measure: 'delivery latency p99', unit: 'ms', ours: ours.latency.p99, etcd: base.latency.p99 },
          // From the ack, raw etcd's figure can be negative: its watchers may hear of a put
          // before the writer's event loop has read the reply. From the send it cannot.
          { measure: 'latency from the write\'s send p50', unit: 'ms', ours: ours.fromSend.p50, etcd: base.fromSend.p50 },
          { measure: 'latency from the write\'s send p99', unit: 'ms', ours: ours.fromSend.p99, etcd: base.fromSend.p99 },
          { measure: 'events missed (all watchers)', unit: 'events', ours: ours.missed, etcd: base.missed },
          { measure: 'events duplicated (all watchers)', unit: 'events', ours: ours.duplicated, etcd: base.duplicated },
          { measure: 'streams closed early', unit: 'streams', ours: ours.broken, etcd: base.broken },
          { measure: 'server CPU (replica | etcd)', unit: 's', ours: oursReplica.cpuSeconds, etcd: baseEtcd.cpuSeconds },
          { measure: 'etcd CPU', unit: 's', ours: oursEtcd.cpuSeconds, etcd: baseEtcd.cpuSeconds },
          { measure: 'server peak RSS (replica | etcd)', unit: 'MiB', ours: oursReplica.maxRssBytes / 2 ** 20, etcd: baseEtcd.maxRssBytes / 2 ** 20 },
        ];
        if (ours.failedWrites) rows.push({ measure: 'failed writes', unit: 'writes', ours: ours.failedWrites, etcd: base.failedWrites });
        report(`fanout-${n}`, `Watch fan-out: ${n} watcher(s), ${rate} updates/s for ${seconds} s (${ours.writes} writes)`, rows, { watchers: n, rate, seconds });
      }
    } finally {
      api.close();
    }
  }, { replicas: 1 });
}

runMain(main);
