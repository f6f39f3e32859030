// API Priority and Fairness for one replica: the FlowSchemas and
// PriorityLevelConfigurations its informers hold, turned into one QueueSet per limited
// priority level. The server's concurrency limit (--max-requests-inflight plus
// --max-mutating-requests-inflight) is shared out by nominal concurrency shares:
// NCL(l) = ceil(SCL * shares(l) / sum of shares), and every 10 s levels lend and borrow
// seats by their demand (borrowing.ts). A request takes the seats its work estimate says
// (estimate.ts).
import type { Informer } from '../../client/informer.js';
import type { KubeObject } from '../../runtime/object.js';
import { adjustmentPeriodMs, borrowingBounds, lendAndBorrow, type LevelLimits } from './borrowing.js';
import { flowDistinguisher, matchesFlowSchema, sortFlowSchemas, type RequestDigest } from './classify.js';
import type { FlowcontrolMetrics } from './metrics.js';
import { QueueSet, Rejected, type OnWaiting, type QueuingConfig } from './queueset.js';
import { DemandStats, SeatDemand } from './seat-demand.js';

type Obj = Record<string, unknown>;

export interface Classification {
  flowSchema: KubeObject;
  priorityLevel: KubeObject;
  exempt: boolean;
  flow: string;
}

/** A priority level: its object, its queues (none when exempt) and its share of the server's seats. */
interface Level extends LevelLimits {
  obj: KubeObject;
  queues?: QueueSet;
  /** Seats held by exempt requests: exempt levels have demand too, though nothing holds them. */
  exemptSeats: number;
}

export class APFController {
  private dirty = true;
  private schemas: KubeObject[] = [];
  private levels = new Map<string, Level>();
  private nominalSum = 0;
  private adjustedAt: number;

  constructor(private readonly flowSchemas: Informer, private readonly priorityLevels: Informer,
    private readonly serverConcurrencyLimit: number, private readonly metrics: FlowcontrolMetrics,
    private readonly maxQueueWaitMs: number, private readonly now: () => number = Date.now) {
    this.adjustedAt = now();
    const mark = { add: () => { this.dirty = true; }, update: () => { this.dirty = true; }, delete: () => { this.dirty = true; } };
    flowSchemas.addHandlers(mark);
    priorityLevels.addHandlers(mark);
  }

  /** Until the configuration is read, requests are not held back. */
  ready(): boolean {
    return this.flowSchemas.hasSynced() && this.priorityLevels.hasSynced();
  }

  classify(d: RequestDigest): Classification | undefined {
    this.refresh();
    // Adjusted when requests come rather than by a timer: an idle server has nothing to lend.
    if (this.now() - this.adjustedAt >= adjustmentPeriodMs) this.adjust();
    for (const fs of this.schemas) {
      if (!matchesFlowSchema(fs, d)) continue;
      const pl = this.levels.get(String(((fs.spec as Obj).priorityLevelConfiguration as Obj | undefined)?.name ?? ''));
      if (!pl) continue;
      return { flowSchema: fs, priorityLevel: pl.obj, exempt: !pl.queues, flow: `${fs.metadata.name}/${flowDistinguisher(fs, d)}` };
    }
    return undefined;
  }

  /**
   * A seat in the request's priority level: its release at once when the level is exempt
   * or has one free (nearly every request: no promise to wait on), else once one frees;
   * throws (or rejects with) Rejected when refused.
   */
  admit(c: Classification, seats = 1, onWaiting?: OnWaiting): (() => void) | Promise<() => void> {
    const labels = { flow_schema: c.flowSchema.metadata.name!, priority_level: c.priorityLevel.metadata.name! };
    const level = this.levels.get(labels.priority_level);
    const queues = level?.queues;
    if (!queues) {
      // Exempt: never held, but dispatched and executing are counted as upstream counts them.
      this.metrics.dispatched.inc(labels);
      this.metrics.executing.inc(labels);
      if (!level) return () => { this.metrics.executing.dec(labels); };
      level.demand.set(level.exemptSeats += seats);
      return () => { this.metrics.executing.dec(labels); level.demand.set(level.exemptSeats -= seats); };
    }
    const start = Date.now();
    let got: ReturnType<QueueSet['acquire']>;
    try {
      got = queues.acquire(c.flow, this.maxQueueWaitMs, seats, onWaiting);
    } catch (err) {
      if (err instanceof Rejected) this.rejectedMetrics(labels, err, start);
      throw err;
    }
    if (got instanceof Promise) return this.queued(labels, got, start);
    return this.dispatched(labels, got, start);
  }

  private async queued(labels: { flow_schema: string; priority_level: string }, got: Promise<() => void>, start: number): Promise<() => void> {
    this.metrics.inQueue.inc(labels);
    let release: () => void;
    try {
      release = await got;
    } catch (err) {
      if (err instanceof Rejected) this.rejectedMetrics(labels, err, start);
      throw err;
    } finally {
      this.metrics.inQueue.dec(labels);
    }
    return this.dispatched(labels, release, start);
  }

  private dispatched(labels: { flow_schema: string; priority_level: string }, release: () => void, start: number): () => void {
    this.metrics.waitDuration.observe({ ...labels, execute: 'true' }, (Date.now() - start) / 1000);
    this.metrics.dispatched.inc(labels);
    this.metrics.executing.inc(labels);
    return () => { this.metrics.executing.dec(labels); release(); };
  }

  rejectedMetrics(labels: { flow_schema: string; priority_level: string }, err: Rejected, start: number): void {
    this.metrics.rejected.inc({ ...labels, reason: err.reason });
    this.metrics.waitDuration.observe({ ...labels, execute: 'false' }, (Date.now() - start) / 1000);
  }

  /** For /debug/api_priority_and_fairness/dump_priority_levels: `nominal` its configured seats, `limit` its current ones. */
  dumpPriorityLevels(): Array<{ name: string; exempt: boolean; nominal: number; limit: number; executing: number; waiting: number; queues: number[] }> {
    this.refresh();
    return [...this.levels.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, l]) => ({
      name, exempt: !l.queues, nominal: l.nominalCL, limit: l.queues?.limit ?? 0, executing: l.queues?.running ?? 0,
      waiting: l.queues?.inQueue ?? 0, queues: l.queues?.queueLengths() ?? [],
    }));
  }

  /** For /debug/api_priority_and_fairness/dump_queues: every queue of every queuing level. */
  dumpQueues(): Array<{ level: string; index: number; pending: number; executing: number }> {
    this.refresh();
    return [...this.levels.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).flatMap(([level, l]) => {
      if (!l.queues) return [];
      const executing = l.queues.queueExecuting();
      return l.queues.queueLengths().map((pending, index) => ({ level, index, pending, executing: executing[index] ?? 0 }));
    });
  }

  /** For /debug/api_priority_and_fairness/dump_requests: the requests waiting in queues. */
  dumpRequests(): Array<{ level: string; flowSchema: string; distinguisher: string; queue: number; indexInQueue: number; arrivedAt: number }> {
    this.refresh();
    return [...this.levels.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).flatMap(([level, l]) => (l.queues?.waitingRequests() ?? []).map((w) => {
      const slash = w.flow.indexOf('/');
      return { level, flowSchema: w.flow.slice(0, slash), distinguisher: w.flow.slice(slash + 1), queue: w.queue, indexInQueue: w.indexInQueue, arrivedAt: w.arrivedAt };
    }));
  }

  private refresh(): void {
    if (!this.dirty) return;
    this.dirty = false;
    this.schemas = sortFlowSchemas(this.flowSchemas.list());
    const objs = this.priorityLevels.list();
    const total = objs.reduce((n, pl) => n + sharesOf(pl), 0) || 1;
    const next = new Map<string, Level>();
    this.nominalSum = 0;
    for (const pl of objs) {
      const spec = pl.spec as Obj;
      const name = pl.metadata.name!;
      const limited = spec.type === 'Limited';
      const share = Math.ceil((this.serverConcurrencyLimit * sharesOf(pl)) / total);
      const nominal = limited ? Math.max(1, share) : share;
      const body = (spec.limited ?? spec.exempt ?? {}) as Obj;
      const bounds = borrowingBounds(nominal, body.lendablePercent as number | undefined, body.borrowingLimitPercent as number | undefined, this.serverConcurrencyLimit);
      const existing = this.levels.get(name);
      const level: Level = existing
        ? Object.assign(existing, { obj: pl }, bounds)
        : { obj: pl, exemptSeats: 0, ...bounds, currentCL: bounds.nominalCL, demand: new SeatDemand(this.now), stats: new DemandStats() };
      if (limited) {
        const lr = ((spec.limited as Obj | undefined)?.limitResponse ?? {}) as Obj;
        const q = lr.type === 'Queue' ? (lr.queuing ?? {}) as Obj : undefined;
        const queuing: QueuingConfig | undefined = q
          ? { queues: Number(q.queues ?? 64), handSize: Number(q.handSize ?? 8), queueLengthLimit: Number(q.queueLengthLimit ?? 50) }
          : undefined;
        if (level.queues) level.queues.reconfigure(level.currentCL, queuing);
        else level.queues = new QueueSet(level.currentCL, queuing, level.demand);
      } else {
        level.queues = undefined;
      }
      next.set(name, level);
      this.nominalSum += nominal;
      this.metrics.nominalLimit.set({ priority_level: name }, nominal);
      this.metrics.concurrencyLimit.set({ priority_level: name }, nominal);
      this.metrics.lowerLimit.set({ priority_level: name }, bounds.minCL);
      this.metrics.upperLimit.set({ priority_level: name }, bounds.maxCL);
    }
    this.levels = next;
    // As upstream, a new configuration is followed at once by a new allocation.
    this.adjust();
  }

  /** Every level lends what it did not need over the period and borrows what it lacked. */
  private adjust(): void {
    this.adjustedAt = this.now();
    const levels = [...this.levels.entries()];
    const fairFraction = lendAndBorrow(levels.map(([, l]) => l), this.nominalSum);
    for (const [name, l] of levels) {
      l.queues?.setLimit(l.currentCL);
      const labels = { priority_level: name };
      this.metrics.currentLimit.set(labels, l.currentCL);
      this.metrics.demandHighWatermark.set(labels, l.stats.highWatermark);
      this.metrics.demandAverage.set(labels, l.stats.average);
      this.metrics.demandStdev.set(labels, l.stats.deviation);
      this.metrics.demandSmoothed.set(labels, l.stats.smoothed);
      this.metrics.target.set(labels, l.target ?? 0);
    }
    this.metrics.fairFraction.set(fairFraction);
  }
}

function sharesOf(pl: KubeObject): number {
  const spec = pl.spec as Obj;
  const body = (spec.limited ?? spec.exempt ?? {}) as Obj;
  return Number(body.nominalConcurrencyShares ?? body.assuredConcurrencyShares ?? (spec.type === 'Limited' ? 30 : 0));
}
