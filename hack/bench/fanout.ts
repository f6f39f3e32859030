// Benchmark: watch fan-out. N watchers (1, 100, 1,000) on the ConfigMaps of one namespace
// of one replica while a writer updates ConfigMaps there at a fixed rate for a bounded
// time; beside it, N raw etcd3 watchers on a key prefix with the same writes as puts.
// Measured: delivery latency from the write's acknowledgement to each watcher's receipt
// (p50/p99 over every watcher and event), events missed and duplicated (both must be 0),
// the replica's and etcd's CPU seconds and peak RSS during the run (from /proc).
// The watchers live in child processes (hack/bench/watchers.ts) so that one client
// event loop is not what is measured.
// Run: `node dist/hack/bench/fanout.js [--watchers=1,100,1000] [--rate=50] [--seconds=10]`.
import { arg, configMap, httpsClient, procMeter, report, runMain, withBenchCluster, type Row } from './common.js';
import { runWatchers } from './watcher-pool.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['watchers', 'rate', 'seconds'], { sharedArgs: true });

const counts = (process.argv.find((a) => a.startsWith('--watchers='))?.split('=')[1] ?? '1,100,1000').split(',').map(Number);
const rate = arg('rate', 50);
const seconds = arg('seconds', 10);
const objects = 10;

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
        let deliveryMeter: ReturnType<typeof procMeter> | undefined;
        const ours = await runWatchers(n, (count) => ({ kind: 'api', count, url: watchUrl, creds }), async (seq) => {
          const res = await api.call('PUT', `/api/v1/namespaces/${ns}/configmaps/cm-${seq % objects}`, configMap(`cm-${seq % objects}`, ns, 1024, { seq: String(seq) }));
          return res.status === 200;
        }, { rate, seconds, established: () => { deliveryMeter = procMeter(replicaPid); } });
        const oursDelivery = deliveryMeter!.stop();
        const oursReplica = meters.replica.stop();
        const oursEtcd = meters.etcd.stop();

        const keyPrefix = `${prefix}-raw/fan-${n}/`;
        meters = { replica: procMeter(replicaPid), etcd: procMeter(etcdPid) };
        const base = await runWatchers(n, (count) => ({ kind: 'etcd', count, endpoint: etcdEndpoint, keyPrefix }), async (seq) => {
          await raw.put(`${keyPrefix}cm-${seq % objects}`).value(JSON.stringify(configMap(`cm-${seq % objects}`, ns, 1024, { seq: String(seq) })));
          return true;
        }, { rate, seconds });
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
          // The figure: what each event handed to a watcher costs the server.
          { measure: 'server CPU per delivered event', unit: 'µs', ours: (oursReplica.cpuSeconds * 1e6) / ours.latency.n, etcd: (baseEtcd.cpuSeconds * 1e6) / base.latency.n },
          // The same without the watches' set-up (TLS handshakes, certificates, requests),
          // which the figure above spreads over the run's events.
          { measure: 'replica CPU per event, delivery only', unit: 'µs', ours: (oursDelivery.cpuSeconds * 1e6) / ours.latency.n },
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
