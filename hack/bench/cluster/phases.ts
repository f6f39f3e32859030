// Where each phase of a run spent the machine, to tell the generator's own saturation
// from the server's: the generator's CPU (process.cpuUsage, every thread of it) and its
// event-loop delay (perf_hooks.monitorEventLoopDelay: a timer due now runs this late, so a
// latency measured by the generator includes up to this much of its own queueing), the
// CPU of each other process measured (replicas, etcd, HAProxy), and the machine's busy
// share of all cores (what the rest of the machine took).
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { procStats } from '../common.js';

export interface PhaseFigures {
  name: string;
  seconds: number;
  generatorCpuSeconds: number;
  loopDelayMs: { p50: number; p99: number; max: number };
  processes: Array<{ name: string; cpuSeconds: number }>;
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

/** The histogram records each whole interval between its timer's runs: the delay is what exceeds this. */
const resolutionMs = 10;

export class PhaseMeter {
  private readonly loop: IntervalHistogram = monitorEventLoopDelay({ resolution: resolutionMs });
  private t0 = performance.now();
  private cpu0 = process.cpuUsage();
  private jiffies0 = machineJiffies();
  private procCpu0: number[] = [];
  readonly phases: PhaseFigures[] = [];

  /** `procs`: the other processes whose CPU each phase reports. */
  constructor(private readonly procs: Array<{ name: string; pid: number }>) {}

  start(): void {
    this.loop.enable();
    this.begin();
  }

  private begin(): void {
    this.t0 = performance.now();
    this.cpu0 = process.cpuUsage();
    this.jiffies0 = machineJiffies();
    this.procCpu0 = this.procs.map((p) => cpuOf(p.pid));
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
      processes: this.procs.map((p, i) => ({ name: p.name, cpuSeconds: cpuOf(p.pid) - (this.procCpu0[i] ?? NaN) })),
      machineBusy: (j.busy - this.jiffies0.busy) / Math.max(1, j.total - this.jiffies0.total),
    };
    this.phases.push(figures);
    this.begin();
    return figures;
  }

  stop(): void { this.loop.disable(); }
}

/** One line per phase: wall time, the generator's cores and loop delay, each process's cores, the machine's busy share. */
export function phaseLines(phases: PhaseFigures[]): string[] {
  if (phases.length === 0) return [];
  const cores = (s: number, wall: number): string => (Number.isNaN(s) ? '-' : (s / Math.max(wall, 1e-3)).toFixed(2));
  const head = `${'phase'.padEnd(34)} ${'s'.padStart(7)} ${'gen cores'.padStart(9)} ${'loop delay p50/p99/max ms'.padStart(26)} ${phases[0]!.processes.map((p) => p.name.padStart(10)).join(' ')} ${'machine'.padStart(8)}`;
  return [head, ...phases.map((p) => {
    const d = p.loopDelayMs;
    const delay = `${d.p50.toFixed(0)}/${d.p99.toFixed(0)}/${d.max.toFixed(0)}`;
    return `${p.name.slice(0, 34).padEnd(34)} ${p.seconds.toFixed(0).padStart(7)} ${cores(p.generatorCpuSeconds, p.seconds).padStart(9)} ${delay.padStart(26)} ${p.processes.map((x) => cores(x.cpuSeconds, p.seconds).padStart(10)).join(' ')} ${`${(p.machineBusy * 100).toFixed(0)}%`.padStart(8)}`;
  })];
}
