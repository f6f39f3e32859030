// Benchmark: start-to-ready of kube-apiserver as envtest starts it (its flags, its
// cert dir; test/harness/envtest.ts), one start at a time, each on a fresh etcd, beside
// upstream's 2.5 s measured on this machine (issue 25): wall time from the spawn to the
// first 200 from /readyz (polled every 10 ms), the CPU the process used until then, and
// its RSS once idle; then eight servers of the JS test API on one etcd at once.
// Wall time needs a quiet machine; CPU is what to compare on a busy one (the load
// average is printed with the figures).
// Run: `node dist/hack/bench/startup.js [--starts=20] [--parallel=8] [--compare-files] [--against=DIR]`;
// --compare-files interleaves starts of the per-file build (dist/cmd/apiserver.js) with
// those of the executable (the single-file build), for the difference in one run;
// --against=DIR interleaves starts of another build's executable (a copy of a checkout's
// bin/ and dist/, e.g. main's, beside a node_modules) for a before/after under one load.
// BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" gives the servers node flags.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { shippedNodeFlags } from '../../cmd/node-flags.js';
import { startEmbeddedEtcd } from '../../pkg/storage/etcd/embedded.js';
import { startTestServer } from '../../pkg/testing/index.js';
import { startEnvtestAPIServer } from '../../test/harness/envtest.js';
import { repoRoot } from '../../test/harness/repo.js';
import { arg, flag, now, procStats, report, runMain } from './common.js';
import { checkBenchArgs } from './bench-args.js';

checkBenchArgs(import.meta.url, ['starts', 'parallel', 'compare-files', 'against'], { sharedArgs: true });

const upstreamStartMs = 2500;
const MiB = 2 ** 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

async function freshEtcd() {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-startup-etcd-'));
  const etcd = await startEmbeddedEtcd({ dataDir });
  return { endpoint: etcd.endpoint, async stop() { await etcd.stop(); rmSync(dataDir, { recursive: true, force: true }); } };
}

interface Starts { wallMs: number[]; cpuS: number[]; rssMiB: number[] }

async function startOnce(binary: string, into: Starts, label: string): Promise<void> {
  const etcd = await freshEtcd();
  try {
    const server = await startEnvtestAPIServer({ binary, etcdURL: etcd.endpoint, startTimeoutMs: 60_000, readyPath: '/readyz', pollMs: 10 });
    into.wallMs.push(server.startToReadyMs);
    into.cpuS.push(procStats(server.pid).cpuSeconds);
    await sleep(3000);
    into.rssMiB.push(procStats(server.pid).rssBytes / MiB);
    await server.stop();
  } finally {
    await etcd.stop();
  }
  process.stdout.write(`${label} start ${into.wallMs.length}: ${into.wallMs.at(-1)} ms to /readyz, ${into.cpuS.at(-1)!.toFixed(2)} s CPU, ${into.rssMiB.at(-1)!.toFixed(0)} MiB idle (load ${load()})\n`);
}

const rows = (label: string, s: Starts) => [
  { measure: `${label}start to /readyz 200, p50`, unit: 'ms', ours: pct(s.wallMs, 50) },
  { measure: `${label}start to /readyz 200, max`, unit: 'ms', ours: Math.max(...s.wallMs) },
  { measure: `${label}CPU until ready, p50`, unit: 's', ours: pct(s.cpuS, 50) },
  { measure: `${label}CPU until ready, max`, unit: 's', ours: Math.max(...s.cpuS) },
  { measure: `${label}RSS idle 3 s after ready, p50`, unit: 'MiB', ours: pct(s.rssMiB, 50) },
  { measure: `${label}RSS idle 3 s after ready, max`, unit: 'MiB', ours: Math.max(...s.rssMiB) },
];

async function main(): Promise<void> {
  const starts = arg('starts', 20);
  const parallel = arg('parallel', 8);
  const executable: Starts = { wallMs: [], cpuS: [], rssMiB: [] };
  const files: Starts = { wallMs: [], cpuS: [], rssMiB: [] };
  const against = process.argv.find((a) => a.startsWith('--against='))?.slice('--against='.length) ?? '';
  const baseline: Starts = { wallMs: [], cpuS: [], rssMiB: [] };
  const launcherDir = mkdtempSync(join(tmpdir(), 'bench-startup-bin-'));
  const nodeArgs = (process.env['BENCH_NODE_ARGS'] ?? '').split(' ').filter(Boolean).map((a) => `"${a}"`).join(' ');
  /** `shipped`: the node flags a .js starts under before BENCH_NODE_ARGS (the per-file build's: bin/node-flags, as the executable's). */
  const launcher = (name: string, script: string, shipped: string[] = []): string => {
    const file = join(launcherDir, name, 'kube-apiserver');
    mkdirSync(dirname(file));
    // A build's own launcher (bin/kube-apiserver: the startup snapshot when there is one)
    // is started as envtest starts it; node flags then go in NODE_OPTIONS (and the
    // launcher leaves the snapshot aside: V8 takes it only under its builder's flags).
    const exec = script.endsWith('.js') ? `exec "${process.execPath}" ${shipped.join(' ')} ${nodeArgs} "${script}"` : `NODE_OPTIONS='${nodeArgs.replaceAll('"', '')}' exec "${script}"`;
    writeFileSync(file, `#!/bin/sh\n${exec} "$@"\n`);
    chmodSync(file, 0o755);
    return file;
  };
  const executableOf = (dir: string) => (existsSync(join(dir, 'bin', 'kube-apiserver')) ? join(dir, 'bin', 'kube-apiserver') : join(dir, 'bin', 'kube-apiserver.js'));
  const binary = launcher('executable', executableOf(repoRoot()));
  const perFile = launcher('per-file', join(repoRoot(), 'dist', 'cmd', 'apiserver.js'), shippedNodeFlags());
  const againstBinary = against ? launcher('against', executableOf(against)) : '';
  const loadBefore = load();
  try {
    for (let i = 0; i < starts; i++) {
      if (againstBinary) await startOnce(againstBinary, baseline, 'against');
      await startOnce(binary, executable, 'kube-apiserver');
      if (flag('compare-files')) await startOnce(perFile, files, 'per-file build');
    }
  } finally {
    rmSync(launcherDir, { recursive: true, force: true });
  }
  const loadAfter = load();

  const etcd = await freshEtcd();
  let parallelMs = 0;
  try {
    const t0 = now();
    const servers = await Promise.all(Array.from({ length: parallel }, () => startTestServer({ etcd: etcd.endpoint, timeoutMs: 300_000 })));
    parallelMs = now() - t0;
    await Promise.all(servers.map((s) => s.stop()));
  } finally {
    await etcd.stop();
  }

  report('startup', `start-to-ready with envtest's flags, ${starts} serial starts on fresh etcds (upstream kube-apiserver: ${upstreamStartMs} ms on this machine); load average ${loadBefore} before, ${loadAfter} after`, [
    ...rows('', executable),
    ...(files.wallMs.length ? rows('per-file build: ', files) : []),
    ...(baseline.wallMs.length ? rows(`against ${against}: `, baseline) : []),
    { measure: `${parallel} test servers on one etcd, all ready`, unit: 'ms', ours: parallelMs },
  ], { upstreamStartMs, parallelRssEstimateMiB: pct(executable.rssMiB, 50) * parallel, loadBefore, loadAfter });
  console.log(`upstream kube-apiserver ${upstreamStartMs} ms (issue 25, same machine): ours p50 ${pct(executable.wallMs, 50)} ms, max ${Math.max(...executable.wallMs)} ms to /readyz; CPU p50 ${pct(executable.cpuS, 50).toFixed(2)} s; load ${loadAfter}`);
}

runMain(main);
