// Benchmark: the steady writes of kubelets, as system:node:<name> with client certificates
// (Node,RBAC authorization, NodeRestriction admission), over one HTTP/2 connection per
// node, with the request bodies of the cluster load's simulated kubelet (cluster/kubelet.ts):
//   PUT   .../kube-node-lease/leases/<node>   (the Lease it last got back, new renewTime)
//   PATCH /api/v1/nodes/<node>/status          (strategic merge: the four conditions)
//   PATCH .../pods/<pod>/status                (strategic merge: ContainerCreating, then Running, in turn)
// Each shape is driven alone at a fixed concurrency; measured on the replica from /proc:
// CPU per operation, median over interleaved rounds. Every write changes the object (the
// times in the bodies advance a second per write), so each one reaches etcd.
// --against=ENTRY: a second replica from another build (as single-name.ts), in a cluster of
// its own, measured in the same run, the two taking turns round by round; printed in the right-hand column.
// Run: `node dist/hack/bench/kubelet-writes.js [--nodes=50] [--pods-per-node=4] [--ops=1500]
//   [--concurrency=32] [--rounds=4] [--against=ENTRY] [--perf=<file>] [--perf-shape=pods]`;
// --perf records this build's replica with perf during the last round of --perf-shape
// (start it with BENCH_NODE_ARGS=--perf-basic-prof).
import { spawn } from 'node:child_process';
import { arg, httpsClient, nodeIdentities, now, procMeter, report, runMain, stats, againstBuild, withBenchCluster, type Row } from './common.js';
import { newTransport, type Identity, type Transport } from './cluster/transport.js';
import { nodeStatusPatch, podCreatingPatch, podRunningPatch, renewedLease } from './cluster/kubelet.js';
import type { KubeObj } from './cluster/client.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['nodes', 'pods-per-node', 'ops', 'rounds', 'concurrency', 'against', 'perf', 'perf-shape']);

const nodes = arg('nodes', 50);
const podsPerNode = arg('pods-per-node', 4);
const ops = arg('ops', 1500);
const concurrency = arg('concurrency', 32);
const rounds = arg('rounds', 4);
const against = process.argv.find((x) => x.startsWith('--against='))?.slice('--against='.length);
const perfFile = process.argv.find((x) => x.startsWith('--perf='))?.split('=')[1];
const perfShape = process.argv.find((x) => x.startsWith('--perf-shape='))?.split('=')[1] ?? 'pods';
const ns = 'kubelet-writes';
const leases = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';
const smp = 'application/strategic-merge-patch+json';
const containers = [{ name: 'c', image: 'registry.k8s.io/pause:3.9' }];

interface Side { label: string; pid: number; transports: Transport[]; podUids: string[]; leases: Array<KubeObj | undefined>; cpu: Record<string, number[]>; latency: Record<string, number[]> }

const headers = { accept: 'application/json', 'user-agent': 'kubelet/v1.28.3 (linux/amd64) kubernetes/bench' };

function send(t: Transport, method: string, path: string, body: unknown, contentType = 'application/json'): Promise<{ status: number; ms: number; text: string }> {
  const t0 = now();
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const h = payload ? { ...headers, 'content-type': contentType, 'content-length': String(payload.length) } : headers;
  return new Promise((resolve) => {
    t.send(method, path, h, payload, 60_000, (status, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status, ms: now() - t0, text: Buffer.concat(chunks).toString('utf8') }));
    }, () => resolve({ status: 0, ms: now() - t0, text: '' }));
  });
}

async function pool(count: number, width: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => { for (let i = next++; i < count; i = next++) await fn(i); }));
}

/** A second-resolution time that moves one second per write, so every write changes the object. */
let seq = 0;
const tick = (): string => new Date(Date.UTC(2026, 0, 1) + (seq++) * 1000).toISOString().replace(/\.\d+Z$/, 'Z');

/** The namespace, the pods, and each node with its Lease (created by the node, as a kubelet does), in the cluster at `url`. */
async function populate(url: string, admin: Parameters<typeof httpsClient>[1], side: Side): Promise<void> {
  const api = httpsClient(url, admin, 16);
  const must = async (method: string, path: string, body: unknown): Promise<string> => {
    for (let tries = 0; ; tries++) {
      const res = await api.call(method, path, body);
      if (res.status < 300 || res.status === 409) return res.text;
      if (tries > 100) throw new Error(`${method} ${path}: ${res.status} ${res.text.slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  await must('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const pods = nodes * podsPerNode;
  await pool(pods, 16, async (p) => {
    const i = p % nodes;
    const text = await must('POST', `/api/v1/namespaces/${ns}/pods`, { metadata: { name: `pod-${p}`, labels: { app: `d-${p % 10}` } }, spec: {
      nodeName: `node-${i}`, automountServiceAccountToken: false,
      containers: [{ ...containers[0]!, resources: { requests: { cpu: '10m', memory: '10M' } }, volumeMounts: [{ name: 'cm', mountPath: '/cm' }, { name: 'secret', mountPath: '/secret' }] }],
      volumes: [{ name: 'cm', configMap: { name: `cm-${p}` } }, { name: 'secret', secret: { secretName: `sec-${p}` } }],
    } });
    side.podUids[p] = (JSON.parse(text) as KubeObj).metadata.uid ?? '';
  });
  api.close();
  await pool(nodes, 16, async (i) => {
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: `node-${i}`, labels: { 'kubernetes.io/hostname': `node-${i}` } }, spec: {},
      status: { capacity: { cpu: '8', memory: '32Gi', pods: '110' }, allocatable: { cpu: '8', memory: '32Gi', pods: '110' }, addresses: [{ type: 'InternalIP', address: `10.64.0.${i}` }] } };
    const n = await send(side.transports[i]!, 'POST', '/api/v1/nodes', node);
    if (n.status !== 201) throw new Error(`node-${i}: create: ${n.status} ${n.text.slice(0, 300)}`);
    const uid = (JSON.parse(n.text) as KubeObj).metadata.uid;
    const l = await send(side.transports[i]!, 'POST', leases, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: `node-${i}`, namespace: 'kube-node-lease', ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: `node-${i}`, uid }] }, spec: { holderIdentity: `node-${i}`, leaseDurationSeconds: 40, renewTime: new Date().toISOString().replace('Z', '000Z') } });
    if (l.status !== 201) throw new Error(`node-${i}: create lease: ${l.status} ${l.text.slice(0, 300)}`);
  });
  // The graph is fed by the replica's pod informer: wait until the last pod's node may patch it.
  for (let deadline = Date.now() + 30_000; ;) {
    const p = pods - 1;
    const r = await send(side.transports[p % nodes]!, 'GET', `/api/v1/namespaces/${ns}/pods/pod-${p}`, undefined);
    if (r.status === 200) break;
    if (Date.now() > deadline) throw new Error(`node-${p % nodes} cannot read pod-${p}: ${r.status} ${r.text}`);
    await new Promise((r2) => setTimeout(r2, 100));
  }
}

async function main(): Promise<void> {
  await withBenchCluster('kubelet-writes', async ({ cluster }) => {
    const admin = cluster.credentialsFor();
    const pods = nodes * podsPerNode;
    const ids: Identity[] = await nodeIdentities(cluster, nodes);
    const sides: Side[] = cluster.urls.map((url, r) => ({
      label: r === 0 ? 'this build' : 'other build', pid: cluster.replicas[r]!.pid!, podUids: [], leases: [], cpu: {}, latency: {},
      transports: ids.map((id) => newTransport('h2', url, id)),
    }));
    const first = sides[0]!;
    // Each replica its own cluster (--against): the same objects in each.
    for (const [r, side] of sides.entries()) await populate(cluster.urls[r]!, admin, side);
    // One write of each shape; each node (or pod) written by one worker at a time, as a kubelet does.
    const shapes: Record<string, { keys: number; write: (side: Side, k: number) => Promise<{ status: number; ms: number }> }> = {
      leases: { keys: nodes, write: async (side, i) => {
        const t = side.transports[i]!;
        const r = await send(t, 'PUT', `${leases}/node-${i}`, renewedLease(side.leases[i]!, tick().replace('Z', '.000000Z')));
        if (r.status === 200) side.leases[i] = JSON.parse(r.text) as KubeObj;
        return r;
      } },
      nodes: { keys: nodes, write: (side, i) => send(side.transports[i]!, 'PATCH', `/api/v1/nodes/node-${i}/status`, nodeStatusPatch(tick()), smp) },
      pods: { keys: pods, write: (side, p) => {
        const n = seq;
        const body = n % 2 === 0 ? podCreatingPatch(side.podUids[p]!, containers, `10.64.0.${p % nodes}`, tick())
          : podRunningPatch(side.podUids[p]!, containers, tick(), `10.128.0.${(p % 250) + 2}`);
        return send(side.transports[p % nodes]!, 'PATCH', `/api/v1/namespaces/${ns}/pods/pod-${p}/status`, body, smp);
      } },
    };
    const run = async (side: Side, name: string, perf?: string): Promise<void> => {
      const shape = shapes[name]!;
      const recorder = perf ? spawn('perf', ['record', '-F', '997', '-g', '-p', String(side.pid), '-o', perf], { stdio: 'ignore' }) : undefined;
      if (recorder) await new Promise((r) => setTimeout(r, 500));
      // The other side has renewed these Leases since: read them afresh, before the meter starts.
      if (name === 'leases') {
        await pool(nodes, 16, async (i) => { side.leases[i] = JSON.parse((await send(side.transports[i]!, 'GET', `${leases}/node-${i}`, undefined)).text) as KubeObj; });
      }
      const lat: number[] = [];
      let failures = 0;
      let last = '';
      const meter = procMeter(side.pid);
      // Worker w owns the keys w, w + width, ...: a key is never written by two at once.
      const width = Math.min(concurrency, shape.keys);
      const owned = Math.floor(shape.keys / width);
      await Promise.all(Array.from({ length: width }, async (_x, w) => {
        for (let j = 0; j < Math.ceil(ops / width); j++) {
          const r = await shape.write(side, w + width * (j % owned));
          lat.push(r.ms);
          if (r.status !== 200) { failures++; last = `${r.status}`; }
        }
      }));
      const cpu = meter.stop().cpuSeconds;
      if (recorder) { recorder.kill('SIGINT'); await new Promise((r) => recorder.once('exit', r)); }
      if (failures > 0) throw new Error(`${side.label} ${name}: ${failures} of ${ops} failed (last ${last})`);
      (side.cpu[name] ??= []).push((cpu * 1000) / (width * Math.ceil(ops / width)));
      side.latency[name] = lat;
    };
    // The first pass compiles the code paths; then rounds, the sides taking turns.
    for (const side of sides) for (const name of Object.keys(shapes)) await run(side, name);
    for (let k = 0; k < rounds; k++) {
      for (const side of k % 2 === 0 ? sides : [...sides].reverse()) {
        for (const name of Object.keys(shapes)) await run(side, name, k === rounds - 1 && side === first && name === perfShape ? perfFile : undefined);
      }
    }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const rows: Row[] = [];
    const labels: Record<string, string> = { leases: 'Lease PUT', nodes: 'Node status PATCH', pods: 'pod status PATCH' };
    for (const name of Object.keys(shapes)) {
      const row = (measure: string, unit: string, f: (s: Side) => number): void => { rows.push({ measure, unit, ours: f(first), ...(sides[1] ? { etcd: f(sides[1]) } : {}) }); };
      row(`${labels[name]}: CPU per op, median of ${rounds} rounds`, 'ms', (s) => median(s.cpu[name]!));
      row(`${labels[name]}: p50 (last round)`, 'ms', (s) => stats(s.latency[name]!).p50);
    }
    for (const side of sides) {
      console.log(`${side.label}: CPU per op by round: ${Object.keys(shapes).map((n) => `${n} ${side.cpu[n]!.map((x) => x.toFixed(3)).join(' ')}`).join('; ')}`);
      for (const t of side.transports) t.close();
    }
    const other = against ? ` | a replica of ${against}` : '';
    report('kubelet-writes', `kubelet writes as system:node with client certificates: ${nodes} nodes, ${pods} pods, ${concurrency} at once, ${ops} per round, Node,RBAC + NodeRestriction: this build${other}`, rows);
  }, {
    ...againstBuild(against), authorizationMode: 'Node,RBAC', extraArgs: ['--enable-admission-plugins=NodeRestriction'],
  });
}

runMain(main);
