// Benchmark: memory of a replica whose watch cache holds many small ConfigMaps. The
// objects (1 KB each) go straight into etcd in the server's key layout and storage
// encoding; the replica's RSS is read from /proc once a list at resourceVersion=0 (served
// by the watch cache) is at least as new as the last put, i.e. the cache holds them all.
// Beside it: etcd's own RSS and the bytes the objects take in etcd.
// Run: `node dist/hack/bench/memory.js [--memory-objects=10000,100000]`.
import { configMap, httpsClient, procStats, report, runMain, seedConfigMaps, withBenchCluster, type Row } from './common.js';
import { encodeForStorage } from '../../pkg/storage/etcd/codec.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['memory-objects'], { sharedArgs: true });

const sizes = (process.argv.find((a) => a.startsWith('--memory-objects='))?.split('=')[1] ?? '10000,100000').split(',').map(Number).sort((a, b) => a - b);
const MiB = 2 ** 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  await withBenchCluster('memory', async ({ cluster, raw, prefix, etcdPid }) => {
    const api = httpsClient(cluster.urls[0]!, cluster.credentialsFor());
    const pid = cluster.replicas[0]!.pid!;
    const ns = 'mem';
    try {
      const created = await api.call('POST', '/api/v1/namespaces', { metadata: { name: ns } });
      if (created.status !== 201) throw new Error(`create namespace: ${created.status} ${created.text}`);
      // Matches nothing, so waiting on the cache costs no serialisation of its contents.
      const cachedList = `/api/v1/namespaces/${ns}/configmaps?resourceVersion=0&fieldSelector=metadata.name%3Dnone`;
      const cacheAt = async (): Promise<number> => {
        const res = await api.call('GET', cachedList);
        if (res.status !== 200) throw new Error(`list: ${res.status} ${res.text}`);
        return Number((JSON.parse(res.text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
      };
      await cacheAt();
      await sleep(2000);
      const empty = procStats(pid).rssBytes;
      const etcdEmpty = procStats(etcdPid).rssBytes;
      const perObject = encodeForStorage({ ...configMap('cm-000000', ns, 1024), metadata: { name: 'cm-000000', namespace: ns, uid: '00000000-0000-4000-8000-000000000000', creationTimestamp: '2024-01-01T00:00:00Z', labels: { app: 'bench', shard: '0' } } }, 'application/vnd.kubernetes.protobuf').length;
      const rows: Row[] = [{ measure: 'RSS, empty cache', unit: 'MiB', ours: empty / MiB, etcd: etcdEmpty / MiB }];
      let have = 0;
      for (const n of sizes) {
        const t0 = Date.now();
        const revision = await seedConfigMaps(raw, prefix, ns, n - have, 1024, have);
        have = n;
        const seeded = Date.now() - t0;
        while ((await cacheAt()) < revision) await sleep(250);
        const loaded = Date.now() - t0;
        // Let the garbage of decoding settle before reading the steady state.
        await sleep(3000);
        const rss = procStats(pid).rssBytes;
        const etcdRss = procStats(etcdPid).rssBytes;
        console.log(`memory: ${n} ConfigMaps put in ${seeded} ms, in the cache after ${loaded} ms`);
        rows.push(
          { measure: `RSS with ${n} ConfigMaps cached`, unit: 'MiB', ours: rss / MiB, etcd: etcdRss / MiB },
          { measure: `  per object above empty (${n})`, unit: 'bytes', ours: (rss - empty) / n, etcd: (etcdRss - etcdEmpty) / n },
        );
        // A whole list from the cache leaves each object's JSON beside it (shared encodings).
        const full = await api.call('GET', `/api/v1/namespaces/${ns}/configmaps?resourceVersion=0`);
        if (full.status !== 200) throw new Error(`full list: ${full.status}`);
        await sleep(3000);
        rows.push({ measure: `  after a whole list at resourceVersion=0 (${n})`, unit: 'MiB', ours: procStats(pid).rssBytes / MiB });
      }
      rows.push({ measure: 'one object as stored in etcd (protobuf)', unit: 'bytes', ours: perObject });
      report('memory', 'Memory of one replica with 1 KB ConfigMaps in its watch cache (etcd3 column: the etcd process)', rows, { sizes });
    } finally {
      api.close();
    }
  }, { replicas: 1 });
}

runMain(main);
