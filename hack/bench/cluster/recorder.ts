// What the cluster load measures, as upstream's SLOs are stated: API call latency per
// (resource, verb, scope) seen from the client, pod start-up latency (create sent to the
// simulated kubelet's Running status acknowledged), watch delivery lag (a write's send to
// its event at a watcher), and errors by HTTP code.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { stats, type Stats } from '../common.js';
import { WatchLag } from './watch-lag.js';

export type Scope = 'resource' | 'namespace' | 'cluster';

/** Upstream's API call latency SLO thresholds (seconds) by verb class and scope. */
export function sloSeconds(verb: string, scope: Scope): number {
  if (verb !== 'LIST') return 1;
  return scope === 'cluster' ? 30 : 5;
}

/** What a Recorder on another thread measured, as it crosses to the main one (structured clone). */
export interface RecorderSnapshot {
  calls: Array<[string, number[]]>;
  tail: Array<[string, number[]]>;
  end: Array<[string, number[]]>;
  own: Array<[string, number[]]>;
  errors: Array<[string, number]>;
  errorMessages: Array<[string, string]>;
  watchErrors: Array<[string, number]>;
  retries: Array<[string, number]>;
  retryWaitSeconds: number;
  /** The event-loop delay of the thread that made these calls, over its life. */
  loop?: ThreadLoop;
}

/** A generator thread's event-loop delay, ms over the timer's 10 ms interval: its own queueing, in every latency it timed. */
export interface ThreadLoop { thread: string; p50: number; p99: number; max: number }

/** Starts measuring this thread's event-loop delay; the returned function reads it. */
export function threadLoop(thread: string): () => ThreadLoop {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const ms = (ns: number): number => Math.max(0, ns / 1e6 - 10);
  return () => ({ thread, p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) });
}

export class Recorder {
  private readonly calls = new Map<string, number[]>();
  /**
   * Parts of each call's latency: `tail`, from its answer's headers reaching
   * JavaScript to its end (the rest of the body and the stream's end: the server's
   * writes after the headers, or the generator's loop reading them late), and `end`,
   * the part of it from the last body bytes to the end (the stream's END_STREAM alone); `own`, from
   * its end to the record (JSON parse, the promise chain): the generator's alone. The
   * time an answer waited on the socket for a busy or descheduled loop is not seen per
   * call: that is the loop delay (phases.ts, threadLoop).
   */
  private readonly tail = new Map<string, number[]>();
  private readonly end = new Map<string, number[]>();
  private readonly own = new Map<string, number[]>();
  readonly errors = new Map<string, number>();
  /** The first Status message of each error kind (code, resource, verb): what the server said. */
  readonly errorMessages = new Map<string, string>();
  /** ERROR events that ended watches, by `<Status code> <resource>` (410: history the server no longer holds). */
  readonly watchErrors = new Map<string, number>();
  /** Answers sent again after their Retry-After (client-go's retry), by `<code> <resource> <verb>`: not errors. */
  readonly retries = new Map<string, number>();
  retryWaitSeconds = 0;
  /** The worker threads' event-loop delay (kubelets, kube-proxies), as each reported it when stopped. */
  readonly threadLoops: ThreadLoop[] = [];
  readonly startup: number[] = [];
  private readonly lag = new WatchLag();
  watchEvents = 0;

  call(resource: string, verb: string, scope: Scope, ms: number, status: number, message?: string, parts?: { tail: number; end: number; own: number }): void {
    const key = `${resource}|${verb}|${scope}`;
    let xs = this.calls.get(key);
    if (!xs) this.calls.set(key, (xs = []));
    xs.push(ms);
    if (parts) {
      for (const [m, v] of [[this.tail, parts.tail], [this.end, parts.end], [this.own, parts.own]] as const) {
        let ys = m.get(key);
        if (!ys) m.set(key, (ys = []));
        ys.push(v);
      }
    }
    if (status >= 400 || status === 0) {
      const ek = `${status} ${resource} ${verb}`;
      this.errors.set(ek, (this.errors.get(ek) ?? 0) + 1);
      if (message && !this.errorMessages.has(ek)) this.errorMessages.set(ek, message.slice(0, 300));
    }
  }

  /** An answer of `status` with Retry-After `seconds`: the call is sent again after the wait. */
  retry(resource: string, verb: string, status: number, seconds: number): void {
    const k = `${status} ${resource} ${verb}`;
    this.retries.set(k, (this.retries.get(k) ?? 0) + 1);
    this.retryWaitSeconds += seconds;
  }

  /** A watch of `resource` ended with an ERROR event holding `status`; its reflector re-lists. */
  watchError(resource: string, status: { code?: number }): void {
    const k = `${status.code ?? 0} ${resource}`;
    this.watchErrors.set(k, (this.watchErrors.get(k) ?? 0) + 1);
  }

  /** A write of `id` sent at `at` produced revision `rv`. */
  wrote(id: string, rv: string, at: number): void {
    this.lag.wrote(`${id}@${rv}`, at);
  }

  /** A watcher received `id` at revision `rv` at `at`; only writes this process made are timed. */
  saw(id: string, rv: string, at: number): void {
    this.watchEvents++;
    this.lag.saw(`${id}@${rv}`, at);
  }

  /** Each write's lag to the first sighting of its event at a watcher of this process, ms. */
  get watchLag(): number[] {
    return this.lag.lags;
  }

  rows(): Array<{ resource: string; verb: string; scope: Scope; s: Stats; tail: Stats; end: Stats; own: Stats; slo: number }> {
    return [...this.calls].map(([k, xs]) => {
      const [resource, verb, scope] = k.split('|') as [string, string, Scope];
      return { resource, verb, scope, s: stats(xs), tail: stats(this.tail.get(k) ?? []), end: stats(this.end.get(k) ?? []), own: stats(this.own.get(k) ?? []), slo: sloSeconds(verb, scope) };
    }).sort((a, b) => `${a.resource}${a.verb}${a.scope}`.localeCompare(`${b.resource}${b.verb}${b.scope}`));
  }

  snapshot(): RecorderSnapshot {
    return { calls: [...this.calls], tail: [...this.tail], end: [...this.end], own: [...this.own], errors: [...this.errors], errorMessages: [...this.errorMessages], watchErrors: [...this.watchErrors], retries: [...this.retries], retryWaitSeconds: this.retryWaitSeconds };
  }

  /** Adds what another thread's Recorder measured (its watch events come through saw()). */
  merge(o: RecorderSnapshot): void {
    const append = (into: Map<string, number[]>, from: Array<[string, number[]]>) => {
      for (const [k, xs] of from) { const mine = into.get(k); if (mine) for (const x of xs) mine.push(x); else into.set(k, xs); }
    };
    append(this.calls, o.calls);
    append(this.tail, o.tail);
    append(this.end, o.end);
    append(this.own, o.own);
    const add = (into: Map<string, number>, from: Array<[string, number]>) => { for (const [k, v] of from) into.set(k, (into.get(k) ?? 0) + v); };
    add(this.errors, o.errors);
    add(this.watchErrors, o.watchErrors);
    add(this.retries, o.retries);
    for (const [k, m] of o.errorMessages) if (!this.errorMessages.has(k)) this.errorMessages.set(k, m);
    this.retryWaitSeconds += o.retryWaitSeconds;
    if (o.loop) this.threadLoops.push(o.loop);
  }

  get requestCount(): number {
    let n = 0;
    for (const xs of this.calls.values()) n += xs.length;
    return n;
  }

  fiveXX(): number {
    let n = 0;
    for (const [k, v] of this.errors) if (k.startsWith('5') || k.startsWith('0 ')) n += v;
    return n;
  }
}
