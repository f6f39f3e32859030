// Benchmark: what cluster-scope lists of a large watch cache do to everyone else's
// requests. A stand-in for the 1,000-node run's delete phase: one replica whose watch
// cache holds `--pods` pods (as the cluster bench's kubelets leave them: bound, Running,
// with their managers' fields) and `--nodes` Nodes, seeded straight into etcd from one
// pod and one Node written through the API; then, for `--seconds`, a steady stream of
// small writes (Lease renewals and pod status patches, open loop at `--write-rate`)
// while `--lists` clients list pods (labelSelector, consistent, as the driver's check)
// and Nodes (resourceVersion=0, as kube-proxies) one after another.
// Reported: the writes' latency, the replica's event-loop delay and GC pauses over the
// load (its own prom-client metrics), its heap, CPU and peak RSS. `--entry=PATH` runs the
// replica from another build's dist/cmd/apiserver.js, for an A/B run after run.
// Run: `node dist/hack/bench/list-stall.js [--pods=10000] [--nodes=1000] [--lists=4] [--seconds=30] [--write-rate=100]`.
import { request as httpsRequest, Agent } from 'node:https';
import { arg, httpsClient, now, procMeter, report, runMain, stats, withBenchCluster, type Row } from './common.js';
import { decodeFromStorage, encodeForStorage } from '../../pkg/storage/etcd/codec.js';
import { nodeStatusPatch, podCreatingPatch, podRunningPatch } from './cluster/kubelet.js';
import type { KubeObject } from '../../pkg/runtime/object.js';
import type { TlsCredentials } from '../../test/harness/index.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['pods', 'nodes', 'lists', 'seconds', 'write-rate', 'list-kinds', 'entry']);

const pods = arg('pods', 10_000);
const nodes = arg('nodes', 1_000);
const lists = arg('lists', 4);
const seconds = arg('seconds', 30);
const writeRate = arg('write-rate', 100);
const namespaces = 10;
const kinds = (process.argv.find((a) => a.startsWith('--list-kinds='))?.split('=')[1] ?? 'pods,nodes').split(',');
const entry = process.argv.find((a) => a.startsWith('--entry='))?.slice('--entry='.length);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const smp = 'application/strategic-merge-patch+json';
const proto = 'application/vnd.kubernetes.protobuf';

/** A GET whose body is counted, not parsed (the client's parse is not what is measured). */
function drain(base: string, path: string, creds: TlsCredentials, agent: Agent): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const u = new URL(path, base);
    const req = httpsRequest({ hostname: u.hostname, port: u.port, path: u.pathname + u.search, agent, headers: { Accept: 'application/json' } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => { bytes += c.length; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** prom-client's figures: event-loop delay since the last scrape, GC pauses and heap since start. */
function scrape(text: string) {
  const one = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const gc: Record<string, { count: number; sum: number; over100: number; over50: number }> = {};
  for (const line of text.split('\n')) {
    const m = /^nodejs_gc_duration_seconds_(bucket|sum|count)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m) continue;
    const kind = /kind="([^"]+)"/.exec(m[2]!)?.[1] ?? '';
    const g = (gc[kind] ??= { count: 0, sum: 0, over100: 0, over50: 0 });
    const v = Number(m[3]);
    if (m[1] === 'sum') g.sum = v;
    else if (m[1] === 'count') g.count = v;
    else {
      const le = /le="([^"]+)"/.exec(m[2]!)?.[1];
      if (le === '0.1') g.over100 = -v;
      if (le === "0.01") g.over50 = -v;
    }
  }
  for (const g of Object.values(gc)) { g.over100 += g.count; g.over50 += g.count; }
  return { lagMax: one('nodejs_eventloop_lag_max_seconds') * 1000, lagP99: one('nodejs_eventloop_lag_p99_seconds') * 1000,
    heapUsed: one('nodejs_heap_size_used_bytes'), external: one('nodejs_external_memory_bytes'), gc };
}

async function main(): Promise<void> {
  const wrap = async () => (entry ? { prefix: ['/bin/sh', '-c', 'e=$0; for a do shift; case "$a" in */cmd/apiserver.js) set -- "$@" $e;; *) set -- "$@" "$a";; esac; done; exec "$@"', entry] } : {});
  await withBenchCluster('list-stall', async ({ cluster, raw, prefix }) => {
    const base = cluster.urls[0]!;
    const creds = cluster.credentialsFor();
    const api = httpsClient(base, creds, 16);
    const pid = cluster.replicas[0]!.pid!;
    const must = async (method: string, path: string, body?: unknown, type?: string, ok = [200, 201]) => {
      for (let i = 0; ; i++) {
        const r = await api.call(method, path, body, type);
        if (ok.includes(r.status)) return JSON.parse(r.text) as KubeObject;
        if (i > 50) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
        await sleep(200);
      }
    };
    try {
      // One Node and one pod as the cluster bench's kubelet and driver leave them.
      for (let n = 0; n < namespaces; n++) await must('POST', '/api/v1/namespaces', { metadata: { name: `load-${n}` } });
      await must('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-0', labels: { 'kubernetes.io/hostname': 'node-0', 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', 'node.kubernetes.io/instance-type': 'hollow' } }, spec: {},
        status: { capacity: { cpu: '8', memory: '32Gi', pods: '110', 'ephemeral-storage': '100Gi' }, allocatable: { cpu: '8', memory: '32Gi', pods: '110', 'ephemeral-storage': '100Gi' },
          addresses: [{ type: 'InternalIP', address: '10.64.0.0' }, { type: 'Hostname', address: 'node-0' }], daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
          nodeInfo: { machineID: '', systemUUID: '', bootID: '', kernelVersion: '6.1.0', osImage: 'hollow', containerRuntimeVersion: 'containerd://1.7.0', kubeletVersion: 'v1.28.3', kubeProxyVersion: 'v1.28.3', operatingSystem: 'linux', architecture: 'amd64' } } });
      const t = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
      await must('PATCH', '/api/v1/nodes/node-0/status', nodeStatusPatch(t), smp);
      const containers = [{ name: 'c', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu: '10m', memory: '10M' } }, volumeMounts: [{ name: 'cm', mountPath: '/cm' }, { name: 'secret', mountPath: '/secret' }] }];
      const pod = await must('POST', '/api/v1/namespaces/load-0/pods', { apiVersion: 'v1', kind: 'Pod',
        metadata: { name: 'd-0-5d8f7-aaaaa', labels: { app: 'd-0' } },
        spec: { automountServiceAccountToken: false, terminationGracePeriodSeconds: 30, containers, volumes: [{ name: 'cm', configMap: { name: 'd-0' } }, { name: 'secret', secret: { secretName: 'd-0' } }] } });
      await must('POST', '/api/v1/namespaces/load-0/pods/d-0-5d8f7-aaaaa/binding', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'd-0-5d8f7-aaaaa' }, target: { kind: 'Node', name: 'node-0' } });
      await must('PATCH', '/api/v1/namespaces/load-0/pods/d-0-5d8f7-aaaaa/status', podCreatingPatch(pod.metadata.uid!, containers, '10.64.0.0', t), smp);
      await must('PATCH', '/api/v1/namespaces/load-0/pods/d-0-5d8f7-aaaaa/status', podRunningPatch(pod.metadata.uid!, containers, t, '10.128.0.2'), smp);
      const stored = async (key: string) => decodeFromStorage((await raw.get(key).exec()).kvs[0]!.value, 1);
      const podT = await stored(`${prefix}/pods/load-0/d-0-5d8f7-aaaaa`);
      const nodeT = await stored(`${prefix}/minions/node-0`);
      const strip = (o: KubeObject) => { delete o.metadata.resourceVersion; return o; };
      strip(podT); strip(nodeT);
      const seed = async (count: number, make: (i: number) => [string, KubeObject]) => {
        for (let i = 0; i < count; i += 128) {
          const ops = [];
          for (let j = i; j < Math.min(count, i + 128); j++) {
            const [key, obj] = make(j);
            ops.push({ request_put: { key: Buffer.from(key), value: encodeForStorage(obj, proto) } });
          }
          await raw.kv.txn({ compare: [], success: ops, failure: [] });
        }
      };
      const uid = (kind: number, i: number) => `00000000-0000-4000-${kind}000-${String(i).padStart(12, '0')}`;
      await seed(nodes, (i) => {
        const name = `node-${i}`;
        const o = structuredClone(nodeT);
        o.metadata = { ...o.metadata, name, uid: uid(8, i), labels: { ...o.metadata.labels, 'kubernetes.io/hostname': name } };
        return [`${prefix}/minions/${name}`, o];
      });
      await seed(pods, (i) => {
        const ns = `load-${i % namespaces}`;
        const d = Math.floor(i / 10);
        const name = `d-${d}-5d8f7-${String(i).padStart(5, '0')}`;
        const o = structuredClone(podT);
        o.metadata = { ...o.metadata, name, namespace: ns, uid: uid(9, i), labels: { app: `d-${d}` } };
        (o.spec as Record<string, unknown>).nodeName = `node-${i % nodes}`;
        return [`${prefix}/pods/${ns}/${name}`, o];
      });
      // Leases for the writers to renew.
      const leases = Math.min(nodes, 200);
      for (let i = 0; i < leases; i++) {
        await must('POST', '/api/v1/namespaces/kube-node-lease/leases'.replace('/api/v1', '/apis/coordination.k8s.io/v1'),
          { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: `node-${i}`, namespace: 'kube-node-lease' }, spec: { holderIdentity: `node-${i}`, leaseDurationSeconds: 40, renewTime: `${t.slice(0, -1)}.000000Z` } }, undefined, [201, 409]);
      }
      const agent = new Agent({ keepAlive: true, ca: creds.ca, cert: creds.cert, key: creds.key, maxSockets: lists + 2 });
      // Fill the caches (and the lists' encodings once) before measuring.
      const podList = '/api/v1/pods?labelSelector=app';
      const nodeList = '/api/v1/nodes?resourceVersion=0';
      const warm = await drain(base, podList, creds, agent);
      await drain(base, nodeList, creds, agent);
      console.log(`list-stall: ${pods} pods (list ${(warm.bytes / 2 ** 20).toFixed(1)} MiB), ${nodes} nodes; ${lists} listers, ${writeRate} writes/s for ${seconds} s${entry ? `; replica from ${entry}` : ''}`);
      await sleep(3000);
      const metrics = async () => scrape((await api.call('GET', '/metrics')).text);
      const before = await metrics();
      const meter = procMeter(pid);
      const t0 = now();
      const end = t0 + seconds * 1000;
      const writeMs: number[] = [];
      let failed = 0;
      let seq = 0;
      const write = async (n: number): Promise<void> => {
        const sent = now();
        let status: number;
        if (n % 2 === 0) {
          const i = (n / 2) % leases;
          const r = await api.call('PATCH', `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-${i}`, { spec: { renewTime: new Date().toISOString().replace('Z', '000Z') } }, 'application/merge-patch+json');
          status = r.status;
        } else {
          const i = ((n - 1) / 2 * 7919) % pods;
          const d = Math.floor(i / 10);
          const r = await api.call('PATCH', `/api/v1/namespaces/load-${i % namespaces}/pods/d-${d}-5d8f7-${String(i).padStart(5, '0')}/status`,
            { status: { conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }] } }, smp);
          status = r.status;
        }
        if (status === 200) writeMs.push(now() - sent);
        else failed++;
      };
      const writer = (async () => {
        const inflight = new Set<Promise<void>>();
        for (let next = t0; writeRate > 0 && next < end; next += 1000 / writeRate) {
          const wait = next - now();
          if (wait > 0) await sleep(wait);
          const p = write(seq++).catch(() => { failed++; });
          inflight.add(p);
          void p.finally(() => inflight.delete(p));
        }
        await Promise.all(inflight);
      })();
      const listMs: Record<string, number[]> = { pods: [], nodes: [] };
      let listBytes = 0;
      const listers = Array.from({ length: lists }, async (_x, k) => {
        for (let j = k; now() < end; j++) {
          const kind = kinds[j % kinds.length]!;
          const s = now();
          const r = await drain(base, kind === 'pods' ? podList : nodeList, creds, agent);
          if (r.status === 200) { listMs[kind]!.push(now() - s); listBytes += r.bytes; }
        }
      });
      await Promise.all([writer, ...listers]);
      const used = meter.stop();
      const after = await metrics();
      const w = stats(writeMs);
      const rows: Row[] = [
        { measure: 'write latency p50', unit: 'ms', ours: w.p50 },
        { measure: 'write latency p99', unit: 'ms', ours: w.p99 },
        { measure: 'write latency max', unit: 'ms', ours: Math.max(...writeMs) },
        { measure: 'writes answered / failed', unit: 'writes', ours: w.n, etcd: failed },
        { measure: 'pod lists / mean', unit: 'ms', ours: stats(listMs.pods!).mean, etcd: listMs.pods!.length },
        { measure: 'node lists / mean', unit: 'ms', ours: stats(listMs.nodes!).mean, etcd: listMs.nodes!.length },
        { measure: 'listed bytes', unit: 'MiB', ours: listBytes / 2 ** 20 },
        { measure: 'event-loop delay max (p99)', unit: 'ms', ours: after.lagMax, etcd: after.lagP99 },
      ];
      for (const [kind, g] of Object.entries(after.gc)) {
        const b = before.gc[kind] ?? { count: 0, sum: 0, over100: 0, over50: 0 };
        rows.push({ measure: `GC ${kind}: count, total ms`, unit: 'n / ms', ours: g.count - b.count, etcd: (g.sum - b.sum) * 1000 });
        rows.push({ measure: `GC ${kind}: >= 10 ms, >= 100 ms`, unit: 'pauses', ours: g.over50 - b.over50, etcd: g.over100 - b.over100 });
      }
      rows.push(
        { measure: 'heap used before / after', unit: 'MiB', ours: before.heapUsed / 2 ** 20, etcd: after.heapUsed / 2 ** 20 },
        { measure: 'external memory before / after', unit: 'MiB', ours: before.external / 2 ** 20, etcd: after.external / 2 ** 20 },
        { measure: 'replica CPU', unit: 's', ours: used.cpuSeconds },
        { measure: 'replica CPU per list (writes included)', unit: 'ms', ours: (used.cpuSeconds * 1000) / (listMs.pods!.length + listMs.nodes!.length) },
        { measure: 'replica peak RSS', unit: 'MiB', ours: used.maxRssBytes / 2 ** 20 },
      );
      report('list-stall', `Cluster-scope lists beside writes: ${pods} pods, ${nodes} nodes, ${lists} listers, ${writeRate} writes/s, ${seconds} s`, rows, { pods, nodes, lists, writeRate, seconds, entry });
      agent.destroy();
    } finally {
      api.close();
    }
  }, { replicas: 1, wrap });
}

runMain(main);
