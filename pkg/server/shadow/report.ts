// What shadow mode tells: apiserver_shadow_comparisons_total{result="same|different|
// upstream_error"} for every comparison, and one structured log line per difference
// with both bodies, each cut to a bound, at most a few lines per second (the rest are
// counted only).
import { Counter, type Registry } from 'prom-client';
import type { Logger } from 'pino';

export type ShadowResult = 'same' | 'different' | 'upstream_error';

const bodyBytes = 4096;
const linesPerSecond = 2;

export interface ShadowDifference {
  path: string;
  user: string;
  status: { ours: number; upstream: number };
  firstDifference: string;
  ours: string;
  upstream: string;
}

export class ShadowReport {
  private readonly counter: Counter<'result'>;
  private tokens = linesPerSecond;
  private refilledAt = Date.now();

  constructor(registry: Registry, private readonly log: Logger) {
    const name = 'apiserver_shadow_comparisons_total';
    this.counter = (registry.getSingleMetric(name) as Counter<'result'> | undefined) ?? new Counter({
      name, help: 'Reads copied to the --shadow-upstream kube-apiserver, by the outcome of comparing its answer with ours.',
      labelNames: ['result'], registers: [registry],
    });
  }

  count(result: ShadowResult): void { this.counter.inc({ result }); }

  different(d: ShadowDifference): void {
    this.count('different');
    if (!this.take()) return;
    this.log.warn({ shadow: { ...d, ours: cut(d.ours), upstream: cut(d.upstream) } }, 'shadow: upstream answered differently');
  }

  upstreamError(path: string, err: string): void {
    this.count('upstream_error');
    if (this.take()) this.log.warn({ shadow: { path, err } }, 'shadow: upstream did not answer');
  }

  private take(): boolean {
    const now = Date.now();
    this.tokens = Math.min(linesPerSecond, this.tokens + ((now - this.refilledAt) / 1000) * linesPerSecond);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

function cut(s: string): string {
  return s.length <= bodyBytes ? s : `${s.slice(0, bodyBytes)}... (${s.length} bytes)`;
}
