// Where each phase of a run spent the machine, to tell the generator's own saturation
// from the server's: the generator's CPU (process.cpuUsage, every thread of it) and its
// event-loop delay (perf_hooks.monitorEventLoopDelay: a timer due now runs this late, so a
// latency measured by the generator includes up to this much of its own queueing), the
// CPU of each other process measured (replicas, etcd, HAProxy), and for each of them the
// time it was runnable but waited for a core (/proc/<pid>/task/*/schedstat):
// a process short of CPU because the machine is busy waits, one busy with its own work
// runs. On a kernel with autogroup scheduling, nice orders processes only within one
// session's group; groups share the cores equally whatever their processes' nice.
import { readdirSync, readFileSync } from 'node:fs';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { procStats } from '../common.js';

export interface PhaseFigures {
  name: string;
  seconds: number;
  generatorCpuSeconds: number;
  loopDelayMs: { p50: number; p99: number; max: number };
  /** Seconds the generator's main thread waited for a core. */
  generatorWaitSeconds: number;
  processes: Array<{ name: string; cpuSeconds: number; waitSeconds: number }>;
  machineBusy: number;
}

/** Busy and total jiffies of all cores (/proc/stat's first line). */
export function machineJiffies(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - (f[3] ?? 0) - (f[4] ?? 0), total };
}

function cpuOf(pid: number): number {
  try { return procStats(pid).cpuSeconds; } catch { return NaN; }
}

/**
 * Seconds spent runnable, waiting for a core (schedstat's second field): of the main
 * thread, where a Node process serves every request, or summed over all live threads
 * (etcd's Go runtime has no one thread that matters).
 */
export function runQueueWaitSeconds(pid: number, threads: 'main' | 'all' = 'main'): number {
  const waitOf = (file: string): number => Number(readFileSync(file, 'utf8').split(' ')[1]) / 1e9;
  try {
    if (threads === 'main') return waitOf(`/proc/${pid}/task/${pid}/schedstat`);
    let s = 0;
    for (const t of readdirSync(`/proc/${pid}/task`)) {
      try { s += waitOf(`/proc/${pid}/task/${t}/schedstat`); } catch { /* thread gone */ }
    }
    return s;
  } catch { return NaN; }
}

/** The histogram records each whole interval between its timer's runs: the delay is what exceeds this. */
const resolutionMs = 10;

export class PhaseMeter {
  private readonly loop: IntervalHistogram = monitorEventLoopDelay({ resolution: resolutionMs });
  private t0 = performance.now();
  private cpu0 = process.cpuUsage();
  private jiffies0 = machineJiffies();
  private procCpu0: number[] = [];
  private procWait0: number[] = [];
  private selfWait0 = 0;
  readonly phases: PhaseFigures[] = [];

  /** `procs`: the other processes whose CPU each phase reports (`threads`: whose wait for a core). */
  constructor(private readonly procs: Array<{ name: string; pid: number; threads?: 'main' | 'all' }>) {}

  start(): void {
    this.loop.enable();
    this.begin();
  }

  private begin(): void {
    this.t0 = performance.now();
    this.cpu0 = process.cpuUsage();
    this.jiffies0 = machineJiffies();
    this.procCpu0 = this.procs.map((p) => cpuOf(p.pid));
    this.procWait0 = this.procs.map((p) => runQueueWaitSeconds(p.pid, p.threads));
    this.selfWait0 = runQueueWaitSeconds(process.pid);
    this.loop.reset();
  }

  /** Closes the phase running since the last mark (or start) under `name`, and begins the next. */
  mark(name: string): PhaseFigures {
    const cpu = process.cpuUsage(this.cpu0);
    const j = machineJiffies();
    const ns = (x: number): number => (Number.isFinite(x) ? Math.max(0, x / 1e6 - resolutionMs) : NaN);
    const figures: PhaseFigures = {
      name,
      seconds: (performance.now() - this.t0) / 1000,
      generatorCpuSeconds: (cpu.user + cpu.system) / 1e6,
      loopDelayMs: { p50: ns(this.loop.percentile(50)), p99: ns(this.loop.percentile(99)), max: ns(this.loop.max) },
      generatorWaitSeconds: runQueueWaitSeconds(process.pid) - this.selfWait0,
      processes: this.procs.map((p, i) => ({ name: p.name, cpuSeconds: cpuOf(p.pid) - (this.procCpu0[i] ?? NaN), waitSeconds: runQueueWaitSeconds(p.pid, p.threads) - (this.procWait0[i] ?? NaN) })),
      machineBusy: (j.busy - this.jiffies0.busy) / Math.max(1, j.total - this.jiffies0.total),
    };
    this.phases.push(figures);
    this.begin();
    return figures;
  }

  stop(): void { this.loop.disable(); }
}

/** One line per phase: wall time, cores used/waited by the generator and each process, its loop delay, the machine's busy share. */
export function phaseLines(phases: PhaseFigures[]): string[] {
  if (phases.length === 0) return [];
  const per = (s: number, wall: number): string => (Number.isNaN(s) ? '-' : (s / Math.max(wall, 1e-3)).toFixed(2));
  const pair = (run: number, wait: number, wall: number): string => `${per(run, wall)}/${per(wait, wall)}`;
  const head = `${'phase'.padEnd(30)} ${'s'.padStart(6)} ${'loop delay p50/p99/max ms'.padStart(25)} ${['generator', ...phases[0]!.processes.map((p) => p.name)].map((n) => n.padStart(10)).join(' ')} ${'machine'.padStart(7)}`;
  return [head, ...phases.map((p) => {
    const d = p.loopDelayMs;
    const delay = `${d.p50.toFixed(0)}/${d.p99.toFixed(0)}/${d.max.toFixed(0)}`;
    const procs = [pair(p.generatorCpuSeconds, p.generatorWaitSeconds, p.seconds), ...p.processes.map((x) => pair(x.cpuSeconds, x.waitSeconds, p.seconds))];
    return `${p.name.slice(0, 30).padEnd(30)} ${p.seconds.toFixed(0).padStart(6)} ${delay.padStart(25)} ${procs.map((x) => x.padStart(10)).join(' ')} ${`${(p.machineBusy * 100).toFixed(0)}%`.padStart(7)}`;
  })];
}
