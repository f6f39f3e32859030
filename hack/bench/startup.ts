// Benchmark: start-to-ready of kube-apiserver as envtest starts it (its flags, its
// cert dir, its /healthz poll; test/harness/envtest.ts), each start on a fresh etcd,
// beside upstream's 2.5 s measured on this machine (issue 25); the replica's RSS once
// idle; then eight servers of the JS test API on one etcd at once.
// Run: `node dist/hack/bench/startup.js [--starts=20] [--parallel=8]`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedEtcd } from '../../pkg/storage/etcd/embedded.js';
import { startTestServer } from '../../pkg/testing/index.js';
import { startEnvtestAPIServer } from '../../test/harness/envtest.js';
import { repoRoot } from '../../test/harness/repo.js';
import { arg, now, procStats, report, runMain } from './common.js';

const upstreamStartMs = 2500;
const MiB = 2 ** 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function freshEtcd() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-startup-etcd-'));
  const etcd = await startEmbeddedEtcd({ dataDir });
  return { endpoint: etcd.endpoint, async stop() { await etcd.stop(); rmSync(dataDir, { recursive: true, force: true }); } };
}

async function main(): Promise<void> {
  const starts = arg('starts', 20);
  const parallel = arg('parallel', 8);
  const binary = join(repoRoot(), 'bin', 'kube-apiserver.js');
  const ready: number[] = [];
  const cpu: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < starts; i++) {
    const etcd = await freshEtcd();
    try {
      const server = await startEnvtestAPIServer({ binary, etcdURL: etcd.endpoint, startTimeoutMs: 60_000 });
      ready.push(server.startToReadyMs);
      cpu.push(procStats(server.pid).cpuSeconds);
      await sleep(3000);
      rss.push(procStats(server.pid).rssBytes / MiB);
      await server.stop();
    } finally {
      await etcd.stop();
    }
    process.stdout.write(`start ${i + 1}/${starts}: ${ready.at(-1)} ms to /healthz, ${cpu.at(-1)!.toFixed(2)} s CPU, ${rss.at(-1)!.toFixed(0)} MiB idle\n`);
  }

  const etcd = await freshEtcd();
  let parallelMs = 0;
  let parallelRss = 0;
  try {
    const t0 = now();
    const servers = await Promise.all(Array.from({ length: parallel }, () => startTestServer({ etcd: etcd.endpoint, timeoutMs: 300_000 })));
    parallelMs = now() - t0;
    await Promise.all(servers.map((s) => s.stop()));
    parallelRss = rss.length ? pct(rss, 50) * parallel : 0;
  } finally {
    await etcd.stop();
  }

  report('startup', `start-to-ready with envtest's flags, ${starts} starts on fresh etcds (upstream kube-apiserver: ${upstreamStartMs} ms on this machine)`, [
    { measure: 'start to /healthz 200, p50', unit: 'ms', ours: pct(ready, 50) },
    { measure: 'start to /healthz 200, max', unit: 'ms', ours: Math.max(...ready) },
    { measure: 'CPU until ready, p50', unit: 's', ours: pct(cpu, 50) },
    { measure: 'RSS idle 3 s after ready, p50', unit: 'MiB', ours: pct(rss, 50) },
    { measure: 'RSS idle 3 s after ready, max', unit: 'MiB', ours: Math.max(...rss) },
    { measure: `${parallel} test servers on one etcd, all ready`, unit: 'ms', ours: parallelMs },
  ], { upstreamStartMs, parallelRssEstimateMiB: parallelRss });
  console.log(`upstream kube-apiserver ${upstreamStartMs} ms (issue 25, same machine): ours p50 ${pct(ready, 50)} ms, max ${Math.max(...ready)} ms`);
}

runMain(main);
