// Quota evaluation across concurrent requests (upstream's quotaEvaluator). Requests in
// one namespace are batched: one pass reads the namespace's quotas from storage, checks
// every waiting request in turn against the running usage, and writes each changed
// quota's status.used with a compare-and-swap on its resourceVersion (the etcd mod
// revision) before any of the requests is persisted. A conflict (another replica, or
// the controller, wrote the quota first) re-reads the quotas that failed and checks
// again, so two replicas admitting at once never both take the last unit.
import type { Evaluator } from '../../../quota/evaluator/interfaces.js';
import { quotaView, type QuotaView } from '../../../quota/quota.js';
import { equals, type ResourceList } from '../../../quota/resources.js';
import type { KubeObject } from '../../../runtime/object.js';
import { errors, StatusError } from '../../../runtime/errors.js';
import type { AdmissionAttributes } from '../../interfaces.js';
import { checkRequest } from './check.js';
import type { LimitedResource } from './config.js';

/** How the evaluator reads and charges quotas. */
export interface QuotaAccess {
  /** The namespace's quotas, as admission reads them (access.ts: informer first). */
  list(namespace: string): Promise<KubeObject[]>;
  /** True when list() is known to answer no quota now (false when it cannot tell at once). */
  noneNow?(namespace: string): boolean;
  /** The namespace's quotas read from storage, after a conflict. */
  fresh(namespace: string): Promise<KubeObject[]>;
  /** Writes status.used if the quota is still at q.resourceVersion; a 409 StatusError otherwise. */
  updateUsed(q: QuotaView, used: ResourceList): Promise<void>;
}

interface Waiter {
  attrs: AdmissionAttributes;
  evaluator: Evaluator;
  /** undefined: admitted; 'pending': waiting for its quota writes; else the refusal. */
  result: Error | undefined | 'pending';
}

// Upstream retries three times; two replicas contending for one quota can lose more
// races than that in a burst, and each lost race means the other side made progress.
const maxRetries = 10;
const evaluationTimeoutMs = 10_000;

export class QuotaEvaluator {
  private readonly work = new Map<string, Array<{ w: Waiter; done: () => void }>>();
  private readonly running = new Set<string>();

  constructor(private readonly access: QuotaAccess, private readonly limited: LimitedResource[] = []) {}

  /** Nothing to charge in the namespace, known at once: no limited resource, no quota. */
  nothingToCharge(namespace: string): boolean {
    return this.limited.length === 0 && this.access.noneNow?.(namespace) === true;
  }

  async evaluate(attrs: AdmissionAttributes, evaluator: Evaluator): Promise<void> {
    // A namespace without quotas (the common case) has nothing to charge or serialize:
    // answered here, without joining the namespace's batch and its timeout.
    if (this.limited.length === 0 && (await this.access.list(attrs.namespace)).length === 0) return;
    const w: Waiter = { attrs, evaluator, result: 'pending' };
    let timer: NodeJS.Timeout | undefined;
    const finished = new Promise<void>((done) => {
      const ns = attrs.namespace;
      const list = this.work.get(ns) ?? [];
      list.push({ w, done });
      this.work.set(ns, list);
      if (!this.running.has(ns)) void this.drain(ns);
    });
    const timeout = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), evaluationTimeoutMs); });
    const outcome = await Promise.race([finished, timeout]);
    clearTimeout(timer);
    if (outcome === 'timeout') throw errors.internal('resource quota evaluation timed out');
    if (w.result === 'pending') throw errors.internal('resource quota evaluation failed');
    if (w.result) throw w.result;
  }

  private async drain(ns: string): Promise<void> {
    this.running.add(ns);
    try {
      for (;;) {
        const batch = this.work.get(ns) ?? [];
        this.work.delete(ns);
        if (batch.length === 0) break;
        try {
          await this.checkAttributes(ns, batch.map((b) => b.w));
        } catch (err) {
          for (const { w } of batch) if (w.result === 'pending') w.result = err as Error;
        }
        for (const { done } of batch) done();
      }
    } finally {
      this.running.delete(ns);
    }
  }

  private async checkAttributes(ns: string, waiters: Waiter[]): Promise<void> {
    const quotas = (await this.access.list(ns)).map(quotaView);
    if (quotas.length === 0 && this.limited.length === 0) {
      for (const w of waiters) w.result = undefined;
      return;
    }
    await this.checkQuotas(quotas, waiters, maxRetries);
  }

  private async checkQuotas(quotas: QuotaView[], waiters: Waiter[], retries: number): Promise<void> {
    const original = quotas;
    let changed = false;
    for (const w of waiters) {
      let next: QuotaView[];
      try {
        next = checkRequest(quotas, w.attrs, w.evaluator, this.limited);
      } catch (err) {
        w.result = err as Error;
        continue;
      }
      // A dry run is checked like any request but charges nothing.
      if (w.attrs.dryRun) {
        w.result = undefined;
        continue;
      }
      const charges = next.some((q, i) => !equals(q.used, quotas[i].used));
      if (charges) changed = true;
      else w.result = undefined;
      quotas = next;
    }
    if (!changed) return;

    const failed: QuotaView[] = [];
    let lastErr: Error | undefined;
    await Promise.all(quotas.map(async (q, i) => {
      if (equals(original[i].used, q.used)) return;
      try {
        await this.access.updateUsed(original[i], q.used);
      } catch (err) {
        failed.push(q);
        lastErr = err as Error;
      }
    }));
    if (failed.length === 0) {
      for (const w of waiters) if (w.result === 'pending') w.result = undefined;
      return;
    }
    const conflict = lastErr instanceof StatusError && lastErr.code === 409;
    if (retries <= 0 || !conflict) {
      for (const w of waiters) if (w.result === 'pending') w.result = lastErr;
      return;
    }
    // The quotas that were written hold their charges; the requests still waiting are
    // checked again only against fresh versions of the others (a deleted one no longer
    // limits). Requests already decided stay decided.
    const fresh = (await this.access.fresh(quotas[0].namespace)).map(quotaView);
    const names = new Set(failed.map((q) => q.name));
    await this.checkQuotas(fresh.filter((q) => names.has(q.name)), waiters.filter((w) => w.result === 'pending'), retries - 1);
  }
}
