// The run's summary: upstream's SLO table (API call latency per resource, verb and scope;
// pod start-up), watch lag, errors by code, per-replica CPU and RSS, etcd's db size;
// printed and kept in _output/bench/cluster.json.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Etcd3 } from 'etcd3';
import { procStats, stats } from '../common.js';
import type { RunOptions, RunResult } from './run.js';
import type { ServerLatencyRow } from './server-latency.js';
import { machineJiffies, PhaseMeter, phaseLines, type PhaseFigures } from './phases.js';

export interface Resources {
  seconds: number;
  replicas: Array<{ pid: number; cpuSeconds: number; maxRssMiB: number; maxFds: number }>;
  etcd?: { cpuSeconds: number; maxRssMiB: number; maxFds: number };
  etcdDbBytes?: { before: number; after: number };
  /** The generator itself and the balancer: what the machine's cores went to besides the server. */
  others: Array<{ name: string; pid: number; cpuSeconds: number; maxRssMiB: number; maxFds: number }>;
  /** 1-minute load average, lowest and highest sampled; the machine's busy share of all cores. */
  load: { min: number; max: number; machineBusy: number };
  /** Per phase: the generator's CPU and event-loop delay beside the other processes' CPU. */
  phases: PhaseFigures[];
}

/** Open descriptors of a process (its sockets, mostly): what connections cost it. */
function openFds(pid: number): number {
  try { return readdirSync(`/proc/${pid}/fd`).length; } catch { return 0; }
}

/** Per-process CPU, peak RSS and peak open descriptors over the run (from /proc), and etcd's db size before and after. */
export class ResourceSampler {
  private first = new Map<number, number>();
  private peak = new Map<number, number>();
  private peakFds = new Map<number, number>();
  private t0 = 0;
  private dbBefore?: number;
  private jiffies = machineJiffies();
  private load = { min: Infinity, max: 0 };
  private readonly meter: PhaseMeter;

  constructor(private readonly pids: number[], private readonly etcdPid: number | undefined, private readonly etcd: Etcd3 | undefined,
    private readonly others: Array<{ name: string; pid: number }> = []) {
    this.meter = new PhaseMeter([
      ...pids.map((pid, i) => ({ name: `replica-${i}`, pid })),
      ...(etcdPid ? [{ name: 'etcd', pid: etcdPid, threads: 'all' as const }] : []),
      ...others.filter((o) => o.pid !== process.pid).map((o) => ({ name: o.name, pid: o.pid, threads: 'all' as const })),
    ]);
  }

  /** The phase running since the last one ended is over: its figures are kept and logged. */
  phase(name: string): string {
    const p = this.meter.mark(name);
    return phaseLines([p])[1]!;
  }

  private get all(): number[] { return [...this.pids, ...(this.etcdPid ? [this.etcdPid] : []), ...this.others.map((o) => o.pid)]; }

  async start(): Promise<void> {
    this.t0 = Date.now();
    this.jiffies = machineJiffies();
    for (const p of this.all) { const s = procStats(p); this.first.set(p, s.cpuSeconds); this.peak.set(p, s.rssBytes); }
    this.dbBefore = await this.dbSize();
    this.meter.start();
  }

  private samples = 0;

  sample(): void {
    const l = loadavg()[0]!;
    this.load = { min: Math.min(this.load.min, l), max: Math.max(this.load.max, l) };
    // Listing /proc/<pid>/fd of every process (about 4,500 entries at 1,000 nodes) was 3-5%
    // of the generator's main thread at 1 s; descriptors change with connections, slowly.
    const fds = this.samples++ % 10 === 0;
    for (const p of this.all) {
      try { this.peak.set(p, Math.max(this.peak.get(p) ?? 0, procStats(p).rssBytes)); } catch { /* gone */ }
      if (fds) this.peakFds.set(p, Math.max(this.peakFds.get(p) ?? 0, openFds(p)));
    }
  }

  private async dbSize(): Promise<number | undefined> {
    try { return this.etcd ? Number((await this.etcd.maintenance.status()).dbSize) : undefined; } catch { return undefined; }
  }

  async stop(): Promise<Resources> {
    this.samples = 0;
    this.sample();
    const of = (p: number) => ({
      pid: p, cpuSeconds: procStats(p).cpuSeconds - (this.first.get(p) ?? 0), maxRssMiB: (this.peak.get(p) ?? 0) / 2 ** 20, maxFds: this.peakFds.get(p) ?? 0,
    });
    const after = await this.dbSize();
    this.meter.stop();
    const j = machineJiffies();
    return {
      seconds: (Date.now() - this.t0) / 1000,
      replicas: this.pids.map(of),
      etcd: this.etcdPid ? of(this.etcdPid) : undefined,
      etcdDbBytes: this.dbBefore !== undefined && after !== undefined ? { before: this.dbBefore, after } : undefined,
      others: this.others.map((o) => ({ name: o.name, ...of(o.pid) })),
      load: { ...this.load, machineBusy: (j.busy - this.jiffies.busy) / Math.max(1, j.total - this.jiffies.total) },
      phases: this.meter.phases,
    };
  }
}

const ms = (x: number): string => (Number.isNaN(x) ? '-' : x >= 100 ? x.toFixed(0) : x.toFixed(1));

export async function printReport(r: RunResult, o: RunOptions, res: Resources, server: Record<string, ServerLatencyRow[]> = {}): Promise<void> {
  const lines: string[] = [];
  const out = (l: string) => { lines.push(l); console.log(l); };
  out(`\n== Cluster load: ${o.nodes} nodes, ${r.pods} pods (${o.podsPerDeployment} per deployment), qps ${o.qps}, ${r.seconds.toFixed(0)} s, ${r.rec.requestCount} requests, peak ${r.watches} watches`);
  out(`${'resource'.padEnd(16)} ${'verb'.padEnd(7)} ${'scope'.padEnd(9)} ${'count'.padStart(7)} ${'p50 ms'.padStart(8)} ${'p90 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'SLO'.padStart(6)}  met ${'tail p99'.padStart(8)} ${'end p99'.padStart(8)} ${'gen p99'.padStart(8)}`);
  out('(tail p99: from the answer\'s headers reaching the generator\'s JavaScript to its end: the rest of the body and the stream\'s end, written by the server after the headers or read late by a busy loop; end p99: the part of it from the last body bytes to the stream\'s end; gen p99: from the end to the record, JSON parse and promise chain, the generator\'s alone; an answer waiting on the socket for a busy loop is in the loop delays below)');
  let allMet = true;
  for (const row of r.rec.rows()) {
    // Upstream excludes WATCH from the latency SLO; a watch row here counts failed opens only.
    const met = row.s.p99 <= row.slo * 1000;
    allMet &&= met;
    out(`${row.resource.padEnd(16)} ${row.verb.padEnd(7)} ${row.scope.padEnd(9)} ${String(row.s.n).padStart(7)} ${ms(row.s.p50).padStart(8)} ${ms(row.s.p90).padStart(8)} ${ms(row.s.p99).padStart(8)} ${`${row.slo}s`.padStart(6)}  ${(met ? 'yes' : 'NO').padEnd(3)} ${ms(row.tail.p99).padStart(8)} ${ms(row.end.p99).padStart(8)} ${ms(row.own.p99).padStart(8)}`);
  }
  for (const [metric, rows] of Object.entries(server)) {
    out(`the replicas' ${metric}${metric.startsWith('event-loop') ? ', 10 ms sampling interval included' : ' (merged; p50/p99 from its buckets)'}:`);
    for (const x of rows) out(`  ${x.key.padEnd(44)} ${String(x.count).padStart(7)}  p50 ${ms(x.p50).padStart(7)} ms  p99 ${ms(x.p99).padStart(7)} ms`);
  }
  const st = stats(r.rec.startup);
  const startupMet = st.n === 0 || st.p99 <= 5000;
  out(`pod start-up (create sent -> Running acknowledged): n=${st.n} p50 ${ms(st.p50)} ms, p90 ${ms(st.p90)} ms, p99 ${ms(st.p99)} ms (SLO 5 s: ${startupMet ? 'met' : 'NOT met'})`);
  const stageRows = r.stages.rows();
  const unmarked = [...r.stages.unmarked].map(([m, n]) => `${m} ${n}`).join(', ');
  out(`  by stage (${o.podStartMs} ms simulated start left out; a watch event may come before its call's answer, hence negatives)${unmarked ? `; Running without a mark, by the first missing: ${unmarked}` : ''}:`);
  for (const x of stageRows) out(`    ${x.stage.padEnd(54)} n=${String(x.s.n).padStart(6)}  p50 ${ms(x.s.p50).padStart(7)} ms  p90 ${ms(x.s.p90).padStart(7)} ms  p99 ${ms(x.s.p99).padStart(7)} ms`);
  const lag = stats(r.rec.watchLag);
  out(`watch lag (write sent -> event at a watcher, writes of this run): n=${lag.n} p50 ${ms(lag.p50)} ms, p99 ${ms(lag.p99)} ms; ${r.rec.watchEvents} events received`);
  out(`pod events missed by kubelets: ${r.missedPodEvents}; pods never Running: ${r.unstartedPods}; pods left after delete: ${r.leftoverPods}; bindings: ${r.bindings}`);
  const errors = [...r.rec.errors].sort((a, b) => b[1] - a[1]);
  out(`errors by code: ${errors.length === 0 ? 'none' : errors.map(([k, v]) => `${k}: ${v}`).join(', ')}; 5xx and failed requests: ${r.rec.fiveXX()}`);
  for (const [k, m] of r.rec.errorMessages) if (!/^40[49] /.test(k)) out(`  ${k}: ${m}`);
  const watchErrors = [...r.rec.watchErrors].sort((a, b) => b[1] - a[1]);
  const retries = [...r.rec.retries].sort((a, b) => b[1] - a[1]);
  out(`retried after Retry-After (as client-go; not errors): ${retries.length === 0 ? 'none' : retries.map(([k, v]) => `${k}: ${v}`).join(', ')}; ${r.rec.retryWaitSeconds} s waited in all`);
  out(`watches ended by an ERROR event (code resource: count; each re-lists): ${watchErrors.length === 0 ? 'none' : watchErrors.map(([k, v]) => `${k}: ${v}`).join(', ')}`);
  const fds = (n: number) => `, peak ${n} open descriptors`;
  for (const rep of res.replicas) out(`replica pid ${rep.pid}: CPU ${rep.cpuSeconds.toFixed(1)} s (${(rep.cpuSeconds / res.seconds).toFixed(2)} cores), peak RSS ${rep.maxRssMiB.toFixed(0)} MiB${fds(rep.maxFds)}`);
  if (res.etcd) out(`etcd: CPU ${res.etcd.cpuSeconds.toFixed(1)} s (${(res.etcd.cpuSeconds / res.seconds).toFixed(2)} cores), peak RSS ${res.etcd.maxRssMiB.toFixed(0)} MiB`);
  for (const o of res.others) out(`${o.name} pid ${o.pid}: CPU ${o.cpuSeconds.toFixed(1)} s (${(o.cpuSeconds / res.seconds).toFixed(2)} cores), peak RSS ${o.maxRssMiB.toFixed(0)} MiB${fds(o.maxFds)}`);
  if (res.phases.length > 0) {
    out('per phase: the generator\'s main-thread event-loop delay (the driver\'s and the scheduler\'s queueing, in their latencies; kubelets and kube-proxies run on threads of their own, below); for it and each process, cores run / seconds per second runnable but waiting for a core (main thread; etcd and HAProxy: all threads); the machine\'s busy share:');
    for (const l of phaseLines(res.phases)) out(`  ${l}`);
  }
  if (r.rec.threadLoops.length > 0) {
    out(`the generator's worker threads' event-loop delay over the run (their own queueing, in the latencies of the calls they made), p50/p99/max ms: ${
      r.rec.threadLoops.map((t) => `${t.thread} ${t.p50.toFixed(0)}/${t.p99.toFixed(0)}/${t.max.toFixed(0)}`).join('; ')}`);
  }
  out(`machine: ${(res.load.machineBusy * 100).toFixed(0)}% of all cores busy; load average (1 min) ${res.load.min.toFixed(1)}-${res.load.max.toFixed(1)}`);
  if (res.etcdDbBytes) out(`etcd db size: ${(res.etcdDbBytes.before / 2 ** 20).toFixed(1)} MiB -> ${(res.etcdDbBytes.after / 2 ** 20).toFixed(1)} MiB`);
  if (r.cut.length > 0) out(`cut short by --deadline-s: ${r.cut.join(', ')}`);
  out(`SLOs: ${allMet && startupMet ? 'all met' : 'NOT all met'}`);
  mkdirSync(join('_output', 'bench'), { recursive: true });
  writeFileSync(join('_output', 'bench', 'cluster.json'), `${JSON.stringify({ at: new Date().toISOString(), options: o, result: { ...r, rec: undefined, stages: undefined, calls: r.rec.rows(), startup: st, startupStages: stageRows, watchLag: lag, errors: Object.fromEntries(r.rec.errors), retries: Object.fromEntries(r.rec.retries), watchErrors: Object.fromEntries(r.rec.watchErrors), threadLoops: r.rec.threadLoops }, resources: res, serverLatency: server, summary: lines }, null, 2)}\n`);
}
