// The watcher side of the watch benchmarks (fanout.ts, kubelets.ts): watchers spread
// over two child processes (hack/bench/watchers.ts), a writer at a fixed rate, and
// delivery latency, misses and duplicates collected from the children at the end.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stats } from './common.js';
import type { FromWorker, ToWorker, WatcherStart } from './watchers.js';

const clock = (): number => performance.timeOrigin + performance.now();
const workerEntry = fileURLToPath(new URL('./watchers.js', import.meta.url));

export interface WriteSchedule {
  rate: number;
  seconds: number;
  /**
   * Writes meant for one watcher only: the watcher (0..n-1) each write is for. Unset:
   * every watcher expects every write.
   */
  ownerOf?: (seq: number) => number;
  /** Called once every watcher is established, before the first write (to meter delivery alone). */
  established?: () => void;
}

class Worker {
  private readonly child: ChildProcess;
  private waiters: Array<(m: FromWorker) => void> = [];
  constructor() {
    this.child = fork(workerEntry, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (m: FromWorker) => { this.waiters.shift()?.(m); });
    // A worker that dies must fail the run, not leave it waiting for an answer.
    this.child.on('exit', (code, signal) => {
      for (const w of this.waiters.splice(0)) w({ op: 'error', message: `watcher process exited (${code ?? signal})` });
    });
  }
  ask(m: ToWorker): Promise<FromWorker> {
    return new Promise((resolve, reject) => {
      this.waiters.push((r) => (r.op === 'error' ? reject(new Error(r.message)) : resolve(r)));
      this.child.send(m);
    });
  }
  kill(): void { this.child.kill(); }
}

export interface RunResult { latency: ReturnType<typeof stats>; fromSend: ReturnType<typeof stats>; missed: number; duplicated: number; unexpected: number; broken: number; writes: number; failedWrites: number }

/**
 * Starts `n` watchers (`spec` gives each worker's: how many, and the index of its first
 * one), writes at the schedule's rate, waits for delivery, collects.
 */
export async function runWatchers(n: number, spec: (count: number, first: number) => WatcherStart,
  write: (seq: number) => Promise<boolean>, { rate, seconds, ownerOf, established }: WriteSchedule): Promise<RunResult> {
  const workers = Array.from({ length: Math.min(n, 2) }, () => new Worker());
  try {
    const share = (i: number) => Math.floor(n / workers.length) + (i < n % workers.length ? 1 : 0);
    const firsts = workers.map((_w, i) => Array.from({ length: i }, (_x, j) => share(j)).reduce((a, b) => a + b, 0));
    await Promise.all(workers.map((w, i) => w.ask({ op: 'start', spec: spec(share(i), firsts[i]!) })));
    established?.();
    const total = rate * seconds;
    const acks: number[] = new Array<number>(total).fill(NaN);
    const sends: number[] = new Array<number>(total).fill(NaN);
    let failedWrites = 0;
    const inflight: Array<Promise<void>> = [];
    const t0 = clock();
    for (let seq = 0; seq < total; seq++) {
      const due = t0 + (seq * 1000) / rate;
      const wait = due - clock();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      sends[seq] = clock();
      inflight.push(write(seq).then((ok) => { acks[seq] = clock(); if (!ok) failedWrites++; }));
    }
    await Promise.all(inflight);
    // Delivery: until every watcher has every event, or 15 s after the last acknowledgement.
    const deadline = clock() + 15_000;
    for (;;) {
      const got = (await Promise.all(workers.map((w) => w.ask({ op: 'progress' })))).reduce((a, r) => a + (r.op === 'progress' ? r.received : 0), 0);
      if (got >= (ownerOf ? total : total * n) || clock() > deadline) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // Each worker numbers its own watchers from 0.
    const ownersFor = (i: number) => ownerOf && Array.from({ length: total }, (_x, seq) => {
      const o = ownerOf(seq) - firsts[i]!;
      return o >= 0 && o < share(i) ? o : -1;
    });
    const results = await Promise.all(workers.map((w, i) => w.ask({ op: 'finish', acks, sends, owners: ownersFor(i) })));
    const latencies: number[] = [];
    const fromSend: number[] = [];
    let missed = 0, duplicated = 0, unexpected = 0, broken = 0;
    for (const r of results) {
      if (r.op !== 'result') continue;
      for (const l of r.latencies) latencies.push(l);
      for (const l of r.fromSend) fromSend.push(l);
      missed += r.missed; duplicated += r.duplicated; unexpected += r.unexpected; broken += r.broken;
    }
    return { latency: stats(latencies), fromSend: stats(fromSend), missed, duplicated, unexpected, broken, writes: total, failedWrites };
  } finally {
    for (const w of workers) w.kill();
  }
}

