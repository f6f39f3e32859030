// What it costs a replica to start a node's pod watch from a revision the watch cache's
// ring still holds (a kubelet's watch of `spec.nodeName=<node>` resuming after its
// timeout, 1,000 of them every 5-10 minutes at 1,000 nodes): the cache replays every
// event after that revision and offers each to the watch's field. Creates --pods pods
// over --nodes nodes and updates each --updates times, then opens --watches watches from
// the revision before the last round of updates (--pods events to replay), a few at a
// time, and reports the replica's CPU per watch start and the largest stretch one start
// held the loop (the slowest answer head).
// Run: `node dist/hack/bench/watch-resume.js --pods=4000 --nodes=100 --updates=1 --watches=100`.
import { request as httpsRequest } from 'node:https';
import { arg, httpsClient, procMeter, runMain, stats, withBenchCluster } from './common.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['pods', 'nodes', 'updates', 'watches']);

function pod(name: string, node: string) {
  return {
    apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'resume', pod: name } },
    spec: { nodeName: node, containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.9', resources: { requests: { cpu: '10m' } } }] },
  };
}

runMain(async () => {
  const pods = arg('pods', 3000);
  const nodes = arg('nodes', 100);
  const updates = arg('updates', 2);
  const watches = arg('watches', 200);
  await withBenchCluster('watch-resume', async ({ cluster }) => {
    const creds = cluster.credentialsFor();
    const base = cluster.urls[0]!;
    const api = httpsClient(base, creds, 16);
    const ns = '/api/v1/namespaces/default/pods';
    const revision = async () => JSON.parse((await api.call('GET', `${ns}?limit=1`)).text).metadata.resourceVersion as string;
    await revision();
    const inParallel = async (n: number, f: (i: number) => Promise<void>, width = 16) => {
      let next = 0;
      await Promise.all(Array.from({ length: width }, async () => { for (let i = next++; i < n; i = next++) await f(i); }));
    };
    await inParallel(pods, async (i) => {
      const r = await api.call('POST', ns, pod(`p-${i}`, `node-${i % nodes}`));
      if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text.slice(0, 200)}`);
    });
    // Resumed from before the last round, as a kubelet resumes from its last bookmark: the
    // ring holds what came after (the ring keeps 75 s of events; a slower round outlives it).
    let first = await revision();
    for (let u = 0; u < updates; u++) {
      first = await revision();
      await inParallel(pods, async (i) => {
        const r = await api.call('PATCH', `${ns}/p-${i}`, { metadata: { labels: { round: String(u) } } }, 'application/merge-patch+json');
        if (r.status !== 200) throw new Error(`patch: ${r.status}`);
      });
    }
    const heads: number[] = [];
    const open = (node: string): Promise<void> => new Promise((resolve, reject) => {
      const u = new URL(`${ns}?watch=true&allowWatchBookmarks=true&timeoutSeconds=60&resourceVersion=${first}&fieldSelector=spec.nodeName%3D${node}`, base);
      const t0 = performance.now();
      const req = httpsRequest({ hostname: u.hostname, port: u.port, path: u.pathname + u.search, agent: false, ca: creds.ca, cert: creds.cert, key: creds.key }, (res) => {
        heads.push(performance.now() - t0);
        if (res.statusCode !== 200) reject(new Error(`watch: ${res.statusCode}`));
        res.resume();
        req.destroy();
        resolve();
      });
      req.on('error', reject);
      req.end();
    });
    // The ring must still hold `first`: a watch from a revision it let go of ends at once
    // with 410 Expired, which costs nothing and would measure nothing.
    const replayed = await new Promise<string>((resolve, reject) => {
      const u = new URL(`${ns}?watch=true&resourceVersion=${first}&fieldSelector=spec.nodeName%3Dnode-0`, base);
      const req = httpsRequest({ hostname: u.hostname, port: u.port, path: u.pathname + u.search, agent: false, ca: creds.ca, cert: creds.cert, key: creds.key }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => { text += c.toString(); });
        setTimeout(() => { req.destroy(); resolve(text); }, 1000);
      });
      req.on('error', reject);
      req.end();
    });
    const events = replayed.split('\n').filter(Boolean);
    if (events.length === 0 || events.some((l) => l.startsWith('{"type":"ERROR"'))) throw new Error(`the ring no longer holds revision ${first}: ${replayed.slice(0, 300)}`);
    // Warm up the watch path (compiled code, the cache started) before measuring.
    await inParallel(20, (i) => open(`node-${i % nodes}`), 4);
    heads.length = 0;
    const meter = procMeter(cluster.replicas[0]!.pid!);
    await inParallel(watches, (i) => open(`node-${i % nodes}`), 4);
    const { cpuSeconds } = meter.stop();
    const s = stats(heads);
    console.log(JSON.stringify({ pods, updates, watches, eventsPerWatch: events.length, cpuMsPerWatch: +(cpuSeconds * 1000 / watches).toFixed(2), headP50Ms: +s.p50.toFixed(1), headP99Ms: +s.p99.toFixed(1), headMaxMs: +Math.max(...heads).toFixed(1) }));
    api.close();
  }, { replicas: 1 });
});
