// Benchmark: CPU per create. One replica, C loops creating 1 KB ConfigMaps over
// keep-alive HTTPS with the admin client certificate, `--count` creates in all; reports
// creates/s and the replica's CPU seconds for the whole batch (from /proc). With
// `--profile=<dir>` the replica runs under `node --cpu-prof` and writes its profile there
// on exit: the way to find where a request's CPU goes.
// Run: `node dist/hack/bench/creates.js [--count=2000] [--concurrency=32] [--profile=/tmp/prof]`.
import { arg, configMap, httpsClient, procMeter, report, runMain, withBenchCluster } from './common.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['count', 'concurrency', 'profile']);

const count = arg('count', 2000);
const concurrency = arg('concurrency', 32);
const profileDir = process.argv.find((a) => a.startsWith('--profile='))?.split('=')[1];

async function main(): Promise<void> {
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  await withBenchCluster('creates', async ({ cluster }) => {
    const c = httpsClient(cluster.urls[0]!, cluster.credentialsFor(), concurrency);
    try {
      const ns = 'creates';
      const res = await c.call('POST', '/api/v1/namespaces', { metadata: { name: ns } });
      if (res.status !== 201) throw new Error(`create namespace: ${res.status} ${res.text}`);
      // A short warm-up, so the JIT and the connection pool are not what is measured.
      await Promise.all(Array.from({ length: concurrency }, (_x, loop) => c.call('POST', `/api/v1/namespaces/${ns}/configmaps`, configMap(`warm-${loop}`, ns))));
      const meter = procMeter(cluster.replicas[0]!.pid!);
      let next = 0;
      let failed = 0;
      const t0 = performance.now();
      await Promise.all(Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < count; i = next++) {
          const r = await c.call('POST', `/api/v1/namespaces/${ns}/configmaps`, configMap(`c-${i}`, ns));
          if (r.status !== 201) failed++;
        }
      }));
      const seconds = (performance.now() - t0) / 1000;
      const cpu = meter.stop().cpuSeconds;
      report('creates', `${count} creates of 1 KB ConfigMaps, concurrency ${concurrency}, one replica`, [
        { measure: 'creates/s', unit: 'ops/s', ours: count / seconds },
        { measure: `replica CPU for ${count} creates`, unit: 's', ours: cpu },
        { measure: 'replica CPU per create', unit: 'us', ours: (cpu * 1e6) / count },
        { measure: 'failed creates', unit: 'ops', ours: failed },
      ], { count, concurrency });
    } finally {
      c.close();
    }
  }, { replicas: 1, nodeArgs });
}

runMain(main);
