// Pod start-up broken into the stages a pod passes through, so a slow start-up says
// where it waited: the create call, the watch that tells the scheduler, the scheduler's
// queue and its binding call, the watch that tells the node's kubelet, the kubelet's
// ContainerCreating report and its Running report. Each pod's marks are taken where
// the generator sees them happen (a watch event at its arrival, a call at its answer);
// the stages are the differences of consecutive marks, so they add up to the total
// (create sent -> Running acknowledged) less the simulated container start. A stage can
// be negative: a watch event may arrive before the answer to the call that caused it.
import { stats, type Stats } from '../common.js';

/** The marks, in the order a pod passes them. */
const marks = ['sent', 'answered', 'schedulerSaw', 'bindSent', 'bound', 'kubeletSaw', 'creating', 'running'] as const;
export type Mark = typeof marks[number];

/** Stage names, each from the mark before it to its own mark (running: less the simulated start). */
export const stageNames: Record<Exclude<Mark, 'sent'>, string> = {
  answered: 'create sent -> answered',
  schedulerSaw: 'answered -> scheduler saw it (watch)',
  bindSent: 'scheduler saw -> binding sent (queue, rate limit)',
  bound: 'binding sent -> bound (binding call)',
  kubeletSaw: 'bound -> kubelet saw it (node pod watch)',
  creating: 'kubelet saw -> ContainerCreating answered',
  running: 'ContainerCreating -> Running answered, less the start',
};

export class StartupStages {
  private readonly pods = new Map<string, Partial<Record<Mark, number>>>();
  /** Per stage (its end mark), the duration of every pod that reached Running. */
  readonly stages = new Map<Exclude<Mark, 'sent'>, number[]>();
  /** Per pod that reached Running, its total (create sent -> Running answered). */
  readonly totals: number[] = [];

  constructor(private readonly containerStartMs: number) {}

  /**
   * `key` (ns/name) reached `mark` at `at`; the first time counts (a re-list sees a pod
   * again), or with `latest` the last (a binding sent again after a failed one: the
   * backoff is the queue's).
   */
  mark(key: string, mark: Mark, at: number, latest = false): void {
    let t = this.pods.get(key);
    if (!t) this.pods.set(key, (t = {}));
    if (t[mark] === undefined || latest) t[mark] = at;
    // The create's answer can come after the pod ran: its stages are complete only now.
    if (mark !== 'running' && t.running !== undefined) this.finish(key, t);
  }

  /** The pod is gone before it ran (deleted, or its create failed). */
  drop(key: string): void { this.pods.delete(key); }

  /** The pod's Running report was answered at `at`: its stages are kept once every mark is in. */
  ran(key: string, at: number): void {
    this.mark(key, 'running', at);
    this.finish(key, this.pods.get(key)!);
  }

  private finish(key: string, t: Partial<Record<Mark, number>>): void {
    if (marks.some((m) => t[m] === undefined)) return;
    this.pods.delete(key);
    for (let i = 1; i < marks.length; i++) {
      const m = marks[i] as Exclude<Mark, 'sent'>;
      let d = t[m]! - t[marks[i - 1]!]!;
      if (m === 'running') d -= this.containerStartMs;
      let xs = this.stages.get(m);
      if (!xs) this.stages.set(m, (xs = []));
      xs.push(d);
    }
    this.totals.push(t.running! - t.sent!);
  }

  /** Pods that reached Running without a mark, by the first mark missing (the generator did not see that step). */
  get unmarked(): Map<Mark, number> {
    const out = new Map<Mark, number>();
    for (const t of this.pods.values()) {
      if (t.running === undefined) continue;
      const missing = marks.find((m) => t[m] === undefined)!;
      out.set(missing, (out.get(missing) ?? 0) + 1);
    }
    return out;
  }

  rows(): Array<{ stage: string; s: Stats }> {
    return (Object.keys(stageNames) as Array<Exclude<Mark, 'sent'>>).map((m) => ({ stage: stageNames[m], s: stats(this.stages.get(m) ?? []) }));
  }
}
