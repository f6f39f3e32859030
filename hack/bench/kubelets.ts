// Benchmark: node-scoped watchers, as kubelets are. 1,000 pods on 100 nodes; 100
// watchers of all pods, each selecting its node's (`fieldSelector=spec.nodeName=<node>`,
// what every kubelet sends); a writer updates the pods' annotations at a fixed rate, each
// write meant for the one watcher of its pod's node. Measured: delivery latency from the
// write's acknowledgement (p50/p99), events missed, events a watcher got that were not
// for it (both must be 0), and the replica's CPU. The same run again with the node as a
// label selector (`labelSelector=node=<node>`), which no index serves: every event is
// offered to every watcher, as every selector was before the watch cache had triggers.
// Run: `node dist/hack/bench/kubelets.js [--pods=1000] [--nodes=100] [--rate=100] [--seconds=10]`.
import { arg, httpsClient, procMeter, report, runMain, withBenchCluster, type Row } from './common.js';
import { runWatchers, type RunResult } from './watcher-pool.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['pods', 'nodes', 'rate', 'seconds'], { sharedArgs: true });

const pods = arg('pods', 1000);
const nodes = arg('nodes', 100);
const rate = arg('rate', 100);
const seconds = arg('seconds', 10);
const ns = 'kubelets';

const nodeOf = (i: number): string => `node-${i % nodes}`;
const pod = (i: number) => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name: `pod-${i}`, namespace: ns, labels: { node: nodeOf(i) }, annotations: { seq: '-1' } },
  spec: {
    nodeName: nodeOf(i), automountServiceAccountToken: false,
    containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }],
  },
});

async function main(): Promise<void> {
  await withBenchCluster('kubelets', async ({ cluster }) => {
    const creds = cluster.credentialsFor();
    const api = httpsClient(cluster.urls[0]!, creds, 16);
    const replicaPid = cluster.replicas[0]!.pid!;
    console.log(`kubelets: ${pods} pods on ${nodes} nodes, ${nodes} node-scoped watchers, ${rate} pod updates/s for ${seconds} s`);
    try {
      const created = await api.call('POST', '/api/v1/namespaces', { metadata: { name: ns } });
      if (created.status !== 201) throw new Error(`create namespace: ${created.status} ${created.text}`);
      // Pods wait for the namespace's default service account (admission looks it up).
      for (let deadline = Date.now() + 30_000; ;) {
        const res = await api.call('POST', `/api/v1/namespaces/${ns}/pods`, pod(0));
        if (res.status === 201) break;
        if (Date.now() > deadline) throw new Error(`create pod: ${res.status} ${res.text}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      let next = 1;
      await Promise.all(Array.from({ length: 16 }, async () => {
        for (let i = next++; i < pods; i = next++) {
          const res = await api.call('POST', `/api/v1/namespaces/${ns}/pods`, pod(i));
          if (res.status !== 201) throw new Error(`create pod: ${res.status} ${res.text.slice(0, 300)}`);
        }
      }));

      // Updates send the pods as stored (admission filled in fields an update may not change).
      type Pod = { metadata: Record<string, unknown> & { name: string; annotations: Record<string, string> } };
      const stored = new Map<string, Pod>();
      for (const p of (JSON.parse((await api.call('GET', `/api/v1/namespaces/${ns}/pods`)).text) as { items: Pod[] }).items) {
        const { resourceVersion: _rv, managedFields: _mf, ...metadata } = p.metadata;
        stored.set(p.metadata.name, { ...p, metadata: metadata as Pod['metadata'] });
      }
      // `run` tells the runs' writes apart: a write equal to the stored object is skipped.
      const updated = (i: number, seq: number, run: string): Pod => {
        const p = stored.get(`pod-${i}`)!;
        return { ...p, metadata: { ...p.metadata, annotations: { seq: String(seq), run } } };
      };
      let reported = false;
      const measure = async (run: string, selector: (node: string) => string, secs = seconds): Promise<{ r: RunResult; cpu: number }> => {
        const list = JSON.parse((await api.call('GET', `/api/v1/namespaces/${ns}/pods?limit=1`)).text) as { metadata: { resourceVersion: string } };
        const urls = Array.from({ length: nodes }, (_x, n) => `${cluster.urls[0]}/api/v1/pods?watch=1&resourceVersion=${list.metadata.resourceVersion}&${selector(`node-${n}`)}`);
        const meter = procMeter(replicaPid);
        const r = await runWatchers(nodes, (count, first) => ({ kind: 'api', count, url: urls.slice(first, first + count), creds }), async (seq) => {
          const i = seq % pods;
          const res = await api.call('PUT', `/api/v1/namespaces/${ns}/pods/pod-${i}`, updated(i, seq, run));
          if (res.status !== 200 && !reported) { reported = true; console.error(`update pod: ${res.status} ${res.text.slice(0, 300)}`); }
          return res.status === 200;
        }, { rate, seconds: secs, ownerOf: (seq) => (seq % pods) % nodes });
        return { r, cpu: meter.stop().cpuSeconds };
      };
      // Labelled by what serves them; "etcd3" column: the unindexed selector, for the ratio.
      // A short unmeasured pass first, so neither measured one runs on a cold server.
      await measure('warm-up', (node) => `labelSelector=${encodeURIComponent(`node=${node}`)}`, 2);
      const indexed = await measure('indexed', (node) => `fieldSelector=${encodeURIComponent(`spec.nodeName=${node}`)}`);
      const scanned = await measure('scanned', (node) => `labelSelector=${encodeURIComponent(`node=${node}`)}`);
      const rows: Row[] = [
        { measure: 'delivery latency p50', unit: 'ms', ours: indexed.r.latency.p50, etcd: scanned.r.latency.p50 },
        { measure: 'delivery latency p99', unit: 'ms', ours: indexed.r.latency.p99, etcd: scanned.r.latency.p99 },
        { measure: 'events missed (all watchers)', unit: 'events', ours: indexed.r.missed, etcd: scanned.r.missed },
        { measure: 'events for another node (all watchers)', unit: 'events', ours: indexed.r.unexpected, etcd: scanned.r.unexpected },
        { measure: 'events duplicated (all watchers)', unit: 'events', ours: indexed.r.duplicated, etcd: scanned.r.duplicated },
        { measure: 'streams closed early', unit: 'streams', ours: indexed.r.broken, etcd: scanned.r.broken },
        { measure: 'replica CPU', unit: 's', ours: indexed.cpu, etcd: scanned.cpu },
        { measure: 'replica CPU per update', unit: 'us', ours: (indexed.cpu * 1e6) / indexed.r.writes, etcd: (scanned.cpu * 1e6) / scanned.r.writes },
        { measure: 'failed writes', unit: 'writes', ours: indexed.r.failedWrites, etcd: scanned.r.failedWrites },
      ];
      report('kubelets', `Node-scoped watchers: ${nodes} watchers, ${pods} pods, ${rate} updates/s for ${seconds} s `
        + '(ours: fieldSelector spec.nodeName, indexed; "etcd3" column: the same by labelSelector, unindexed)', rows, { pods, nodes, rate, seconds });
    } finally {
      api.close();
    }
  }, { replicas: 1 });
}

runMain(main);
