// Benchmark: what one open watch keeps alive in a replica's heap. A major GC marks every
// live object again each time, and at 1,000 nodes a replica serves about 11,000 watches
// (docs/scaling.md, "What a replica's heap holds"), so objects per watch set how long the
// collector's marking runs. N watches of a kubelet's per-object shape (one ConfigMap each,
// `fieldSelector=metadata.name=<name>`, bookmarks on, from the list's revision) are opened
// over a few HTTP/2 connections, as kubelets hold them (or HTTP/1.1, one connection each,
// with --http1); a heap snapshot of the replica is taken before and after (after warming
// the same path with a few watches opened and closed, and with the connections already
// up), and the difference is counted per watch by constructor (heap-snapshot.ts).
// --keep-snapshots leaves both snapshots in a temporary folder and prints their paths.
// Run: `node dist/hack/bench/watch-heap.js [--watches=1000] [--connections=10] [--http1] [--top=25] [--keep-snapshots]`.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, configMap, flag, httpsClient, procStats, report, runMain, withBenchCluster, type Row } from './common.js';
import { checkBenchArgs } from './bench-args.js';
import { newTransport, type Transport } from './cluster/transport.js';
import { difference, formatGroups, readSnapshotCounts, type SnapshotCounts } from './heap-snapshot.js';

checkBenchArgs(import.meta.url, ['watches', 'connections', 'http1', 'top', 'keep-snapshots']);

const watches = arg('watches', 1000);
const http1 = flag('http1');
const connections = http1 ? watches : arg('connections', 10);
const top = arg('top', 25);
const keep = flag('keep-snapshots');
const ns = 'watch-heap';
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'watch-heap-'));
  try {
    await withBenchCluster('watch-heap', async ({ cluster }) => {
      const creds = cluster.credentialsFor();
      const api = httpsClient(cluster.urls[0]!, creds, 8);
      const pid = cluster.replicas[0]!.pid!;
      const transports: Transport[] = Array.from({ length: connections }, () => newTransport(http1 ? 'http/1.1' : 'h2', cluster.urls[0]!, creds));
      const cancels: Array<() => void> = [];
      try {
        const created = await api.call('POST', '/api/v1/namespaces', { metadata: { name: ns } });
        if (created.status !== 201) throw new Error(`create namespace: ${created.status} ${created.text}`);
        for (let i = 0; i < watches; i += 50) {
          await Promise.all(Array.from({ length: Math.min(50, watches - i) }, async (_x, j) => {
            const res = await api.call('POST', `/api/v1/namespaces/${ns}/configmaps`, configMap(`cm-${i + j}`, ns, 1024));
            if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
          }));
        }
        const list = JSON.parse((await api.call('GET', `/api/v1/namespaces/${ns}/configmaps`)).text) as { metadata: { resourceVersion: string } };
        const rv = list.metadata.resourceVersion;
        const open = (i: number, transport: Transport): Promise<void> => new Promise((resolve, reject) => {
          const path = `/api/v1/namespaces/${ns}/configmaps?allowWatchBookmarks=true&fieldSelector=${encodeURIComponent(`metadata.name=cm-${i}`)}&resourceVersion=${rv}&timeoutSeconds=3600&watch=true`;
          cancels.push(transport.send('GET', path, { Accept: 'application/json', 'User-Agent': 'watch-heap' }, undefined, undefined, (status, body) => {
            body.resume();
            if (status === 200) resolve(); else reject(new Error(`watch ${i}: HTTP ${status}`));
          }, reject));
        });
        // The path warmed (code compiled, metric series and shared encoders made) and every
        // connection up, so the second snapshot differs from the first by the watches alone.
        await Promise.all(transports.slice(0, Math.min(connections, 50)).map((t, i) => open(i, t)));
        for (const cancel of cancels.splice(0)) cancel();
        await Promise.all(transports.map(async (t) => {
          await new Promise<void>((resolve, reject) => t.send('GET', '/healthz', {}, undefined, 30_000, (_s, body) => { body.resume(); body.on('end', resolve); }, reject));
        }));
        await sleep(1000);
        const before = await snapshot(pid, dir, () => api.call('GET', '/healthz'));
        const rss0 = procStats(pid).rssBytes;
        await Promise.all(Array.from({ length: watches }, (_x, i) => open(i, transports[i % connections]!)));
        await sleep(1000);
        const rss1 = procStats(pid).rssBytes;
        const after = await snapshot(pid, dir, () => api.call('GET', '/healthz'));
        const more = difference(after, before);
        console.log(`\nwhat ${watches} watches (${http1 ? 'HTTP/1.1, one connection each' : `HTTP/2 over ${connections} connections`}) hold, per watch:`);
        for (const line of formatGroups(more, top, watches)) console.log(line);
        const rows: Row[] = [
          { measure: 'heap objects before the watches', unit: 'objects', ours: before.nodes },
          { measure: 'heap objects per watch', unit: 'objects', ours: more.nodes / watches },
          { measure: 'heap bytes per watch', unit: 'bytes', ours: more.bytes / watches },
          { measure: 'closures per watch', unit: 'objects', ours: countOf(more, 'closure') / watches },
          { measure: 'RSS per watch', unit: 'KiB', ours: (rss1 - rss0) / 1024 / watches },
        ];
        report(`watch-heap-${http1 ? 'http1' : 'h2'}`, `Heap held per watch: ${watches} per-object watches, ${http1 ? 'HTTP/1.1' : `HTTP/2 over ${connections} connections`}`, rows, { watches, connections });
      } finally {
        for (const cancel of cancels) cancel();
        for (const t of transports) t.close();
        api.close();
      }
    }, { replicas: 1, nodeArgs: ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir}`] });
  } finally {
    if (keep) console.log(`snapshots kept: ${readdirSync(dir).map((f) => join(dir, f)).join(' ')}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

const countOf = (c: SnapshotCounts, type: string): number => c.groups.filter((g) => g.type === type).reduce((n, g) => n + g.count, 0);

/**
 * Has the replica write a heap snapshot and reads its counts. Node writes it on the main
 * thread, so once the replica answers a request after the file appeared, the file is whole.
 */
async function snapshot(pid: number, dir: string, ping: () => Promise<unknown>): Promise<SnapshotCounts> {
  const known = new Set(readdirSync(dir));
  process.kill(pid, 'SIGUSR2');
  let file: string | undefined;
  for (let waited = 0; !file; waited += 100) {
    if (waited > 120_000) throw new Error('no heap snapshot after 120 s');
    await sleep(100);
    file = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !known.has(f));
  }
  await ping();
  const counts = await readSnapshotCounts(join(dir, file));
  if (!keep) rmSync(join(dir, file));
  return counts;
}

runMain(main);
