// The simulated kubelets on worker threads of their own, split evenly. One event loop
// holding 1,000 kubelets, the driver and the scheduler timed every answer behind all of
// their work (its p99 loop delay reached 936 ms in a phase of the 1,000-node run): a
// call's latency then held the generator's own queueing. Each thread's kubelets keep
// their own connections and timers; what the run measures across components crosses to
// the main thread in batches with the times it happened: writes and watch events for
// watch lag (a Node status patch is seen by kube-proxies on another thread), and the pod
// ledger's marks (seen, kubeletSaw, creating, Running, dropped).
import { Worker } from 'node:worker_threads';
import type { Identity, Protocol } from './client.js';
import type { KubeletOptions, PodSink } from './kubelet.js';
import type { Recorder, RecorderSnapshot } from './recorder.js';

export interface KubeletNode { name: string; index: number; id: Identity }
export interface KubeletThreadData { server: string; nodes: KubeletNode[]; opts: KubeletOptions; userAgent: string; protocol: Protocol; wave: number }

/**
 * What a kubelet thread reports, in its order, flattened into one array (one structured
 * clone of strings and numbers instead of an array per note): a tag, then its fields:
 * 'w'(rote) and 's'(aw) id, rv, at; 'n' (seen) node, key; 'm'(ark) key, mark, at;
 * 'd'(rop) key; 'r'(an) key, at.
 */
export type KubeletNotes = Array<string | number>;
export type FromKubeletThread =
  | { notes: KubeletNotes; watches: number }
  | { ready: true }
  | { registered: true }
  | { failed: string }
  | { done: RecorderSnapshot };

/** Notes are handed to the main thread this often (their times travel with them). */
export const flushMs = 50;

export class KubeletThreads {
  private readonly workers: Worker[] = [];
  private readonly watches: number[] = [];
  private readonly done: Array<Promise<void>> = [];
  private readonly ready: Array<Promise<void>>;
  private readonly registered: Array<Promise<void>>;
  private stopping?: Promise<void>;

  constructor(server: string, nodes: KubeletNode[], threads: number, opts: KubeletOptions, userAgent: string, protocol: Protocol,
    private readonly rec: Recorder, private readonly sink: PodSink) {
    const n = Math.max(1, Math.min(threads, nodes.length));
    for (let t = 0; t < n; t++) {
      const mine = nodes.filter((_x, i) => i % n === t);
      // Registration in waves of 50 nodes in all, as before the split.
      const data: KubeletThreadData = { server, nodes: mine, opts, userAgent, protocol, wave: Math.max(1, Math.ceil(50 / n)) };
      this.workers.push(new Worker(new URL('./kubelet-thread.js', import.meta.url), { workerData: data }));
      this.watches.push(0);
    }
    const ready: Array<Promise<void>> = [];
    this.registered = this.workers.map((w, i) => new Promise<void>((resolve, reject) => {
      let finished!: () => void;
      let loaded!: () => void;
      this.done.push(new Promise<void>((r) => { finished = r; }));
      ready.push(new Promise<void>((r) => { loaded = r; }));
      w.on('message', (m: FromKubeletThread) => {
        if ('notes' in m) { this.apply(m.notes); this.watches[i] = m.watches; } else if ('ready' in m) loaded();
        else if ('registered' in m) resolve();
        else if ('failed' in m) reject(new Error(m.failed));
        else { this.rec.merge(m.done); finished(); }
      });
      w.once('error', (err) => { loaded(); reject(err); });
    }));
    // A start that fails before it is awaited is reported by start(), not as unhandled.
    for (const r of this.registered) r.catch(() => undefined);
    this.ready = ready;
  }

  /** Every thread has loaded its code (seconds under load: not the run's time). */
  async loaded(): Promise<void> { await Promise.all(this.ready); }

  /** Every node registered (Node, Lease, status) and its pod watch started. */
  async start(): Promise<void> {
    for (const w of this.workers) w.postMessage('start');
    await Promise.all(this.registered);
  }

  private apply(n: KubeletNotes): void {
    for (let i = 0; i < n.length;) {
      const tag = n[i];
      const a = n[i + 1] as string;
      switch (tag) {
        case 'w': this.rec.wrote(a, n[i + 2] as string, n[i + 3] as number); i += 4; break;
        case 's': this.rec.saw(a, n[i + 2] as string, n[i + 3] as number); i += 4; break;
        case 'n': this.sink.seen(a, n[i + 2] as string); i += 3; break;
        case 'm': this.sink.mark(a, n[i + 2] as 'kubeletSaw' | 'creating', n[i + 3] as number); i += 4; break;
        case 'd': this.sink.drop(a); i += 2; break;
        case 'r': this.sink.ran(a, n[i + 2] as number); i += 3; break;
        default: throw new Error(`kubelet thread: unknown note ${String(tag)} at ${i}`);
      }
    }
  }

  /** Watches the kubelets hold now (as last reported). */
  get watchCount(): number { return this.watches.reduce((a, b) => a + b, 0); }

  /** Stops every kubelet; their calls are in the run's Recorder and their notes applied when this resolves. */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      for (const w of this.workers) w.postMessage('stop');
      await Promise.race([Promise.all(this.done), new Promise((r) => setTimeout(r, 10_000))]);
      await Promise.all(this.workers.map((w) => w.terminate()));
    })();
    return this.stopping;
  }
}
