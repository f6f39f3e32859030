// One priority level's seats and queues. A request takes as many seats as its work
// estimate (a large LIST several, most requests one) and runs at once when they are free
// and nobody waits; otherwise it is rejected (limitResponse Reject) or queued: shuffle
// sharding deals the flow a hand of queues and it joins the shortest, so one heavy flow
// fills only its own queues. Free seats go first to the queue whose head would finish
// first: seats served so far plus the head's seats (upstream orders queues by virtual
// finish time; seats served is the same idea without a clock), so a light flow is not
// kept behind a heavy one; when
// that queue's head needs more seats than are free, nothing overtakes it, so wide
// requests are never starved.
import { createHash } from 'node:crypto';
import type { SeatDemand } from './seat-demand.js';

export interface QueuingConfig { queues: number; handSize: number; queueLengthLimit: number }

export type RejectReason = 'concurrency-limit' | 'queue-full' | 'time-out' | 'cancelled';

/**
 * Lets a waiting request leave its queue: called once if the request waits, with the
 * function that withdraws it (a no-op once it has been dispatched or refused). The API
 * filter withdraws a request whose client went away, as upstream's queue set drops a
 * waiting request whose context is done (reason "cancelled"): otherwise a request nobody
 * waits for any more would hold its place, then run, while its client has sent it again.
 */
export type OnWaiting = (withdraw: () => void) => void;

export class Rejected extends Error {
  constructor(readonly reason: RejectReason) { super(reason); }
}

interface Waiter { flow: string; seats: number; dispatch: () => void; enqueuedAt: number }

/** A waiting request, for /debug/api_priority_and_fairness/dump_requests. */
export interface WaitingRequest { queue: number; indexInQueue: number; flow: string; arrivedAt: number }

export class QueueSet {
  private seatsUsed = 0;
  private executingRequests = 0;
  private queues: Waiter[][];
  /** Requests executing per queue they were dispatched from (-1: ran at once). */
  private executingByQueue = new Map<number, number>();
  /** Seats each queue has been given; only differences between active queues matter. */
  private served: number[];
  private waitingCount = 0;
  private waitingSeats = 0;

  private seatLimit: number;

  /**
   * `limit`: the level's seats; 0 (borrowing can allocate a level none) admits one request at
   * a time, as upstream's queue set admits one when nothing runs.
   * `demand`: told the seats in use plus the seats queued requests want, at every change (borrowing reads it).
   */
  constructor(limit: number, private queuing: QueuingConfig | undefined, private readonly demand?: SeatDemand) {
    this.seatLimit = Math.max(1, limit);
    this.queues = Array.from({ length: queuing?.queues ?? 0 }, () => []);
    this.served = this.queues.map(() => 0);
  }

  /** New limits from a changed configuration; waiting requests stay queued. */
  reconfigure(limit: number, queuing: QueuingConfig | undefined): void {
    this.seatLimit = Math.max(1, limit);
    if ((queuing?.queues ?? 0) !== this.queues.length) {
      const waiting = this.queues.flat();
      this.queues = Array.from({ length: queuing?.queues ?? 0 }, () => []);
      this.served = this.queues.map(() => 0);
      this.queuing = queuing;
      for (const w of waiting) {
        const q = this.queues[this.pick(w.flow)];
        // No queues any more (limitResponse Reject): the waiter is refused when its wait ends.
        if (q) q.push(w); else this.unqueued(w);
      }
    }
    this.queuing = queuing;
    this.dispatch();
  }

  /** A new current limit (borrowing moves it every adjustment period): more seats start waiting requests at once. */
  setLimit(limit: number): void {
    this.seatLimit = Math.max(1, limit);
    this.dispatch();
  }

  get limit(): number { return this.seatLimit; }

  get inQueue(): number { return this.waitingCount; }
  get running(): number { return this.executingRequests; }
  get seatsInUse(): number { return this.seatsUsed; }
  queueLengths(): number[] { return this.queues.map((q) => q.length); }
  queueExecuting(): number[] { return this.queues.map((_, i) => this.executingByQueue.get(i) ?? 0); }
  waitingRequests(): WaitingRequest[] {
    return this.queues.flatMap((q, queue) => q.map((w, indexInQueue) => ({ queue, indexInQueue, flow: w.flow, arrivedAt: w.enqueuedAt })));
  }

  /** Resolves with a release function once the seats are held; rejects with Rejected. */
  acquire(flow: string, maxWaitMs: number, seatsWanted = 1, onWaiting?: OnWaiting): Promise<() => void> | (() => void) {
    // Never wider than the level: a request must be able to run on an idle level.
    const seats = Math.max(1, Math.min(seatsWanted, this.limit));
    if (this.seatsUsed + seats <= this.limit && this.inQueue === 0) return this.seat(-1, seats);
    if (!this.queuing || this.queues.length === 0) throw new Rejected('concurrency-limit');
    const q = this.queues[this.pick(flow)]!;
    if (q.length >= this.queuing.queueLengthLimit) throw new Rejected('queue-full');
    return new Promise((resolve, reject) => {
      const queueIndex = this.queues.indexOf(q);
      let settled = false;
      const w: Waiter = { flow, seats, enqueuedAt: Date.now(), dispatch: () => { settled = true; clearTimeout(timer); resolve(this.seat(queueIndex, seats)); } };
      const leave = (reason: RejectReason): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.withdraw(w);
        reject(new Rejected(reason));
      };
      const timer = setTimeout(leave, maxWaitMs, 'time-out');
      timer.unref();
      onWaiting?.(() => leave('cancelled'));
      // A queue that becomes active starts level with the least-served active queue:
      // idle time earns no credit.
      if (q.length === 0) {
        const active = this.served.filter((_, i) => this.queues[i]!.length > 0);
        if (active.length > 0) this.served[queueIndex] = Math.max(this.served[queueIndex]!, Math.min(...active));
      }
      q.push(w);
      this.waitingCount++;
      this.waitingSeats += seats;
      this.noteDemand();
      this.dispatch();
    });
  }

  /** Takes a waiter out of its queue (where it waits now: a change in the number of queues deals waiters anew). */
  private withdraw(w: Waiter): void {
    for (const queue of this.queues) {
      const i = queue.indexOf(w);
      if (i >= 0) { queue.splice(i, 1); this.unqueued(w); break; }
    }
    // Its place may have been what held a wider request back at the head of another queue.
    this.dispatch();
  }

  private unqueued(w: Waiter): void {
    this.waitingCount--;
    this.waitingSeats -= w.seats;
    this.noteDemand();
  }

  private noteDemand(): void {
    this.demand?.set(this.seatsUsed + this.waitingSeats);
  }

  private seat(queue: number, seats: number): () => void {
    this.seatsUsed += seats;
    this.noteDemand();
    this.executingRequests++;
    this.executingByQueue.set(queue, (this.executingByQueue.get(queue) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.seatsUsed -= seats;
      this.noteDemand();
      this.executingRequests--;
      this.executingByQueue.set(queue, (this.executingByQueue.get(queue) ?? 1) - 1);
      this.dispatch();
    };
  }

  private dispatch(): void {
    while (this.seatsUsed < this.limit && this.inQueue > 0) {
      let head: { idx: number; w: Waiter } | undefined;
      // The head that would finish first goes first: a queue's served seats plus the seats
      // its head takes (upstream: the head's virtual finish time). Comparing served seats
      // alone tied a newly active light queue with a heavy flow's queue, and the lower index
      // won: a one-seat GET then waited for a ten-seat LIST to finish.
      for (let idx = 0; idx < this.queues.length; idx++) {
        const w = this.queues[idx]![0];
        if (w && (!head || this.served[idx]! + w.seats < this.served[head.idx]! + head.w.seats)) head = { idx, w };
      }
      if (!head || this.seatsUsed + head.w.seats > this.limit) return;
      this.queues[head.idx]!.shift();
      this.unqueued(head.w);
      this.served[head.idx]! += head.w.seats;
      head.w.dispatch();
    }
  }

  /** Shuffle sharding: the flow's hand of queues, then the shortest of them. */
  private pick(flow: string): number {
    let best = -1;
    for (const q of dealHand(flow, this.queues.length, this.queuing?.handSize ?? 1)) {
      if (best < 0 || this.queues[q]!.length < this.queues[best]!.length) best = q;
    }
    return best;
  }
}

/** The handSize distinct queues (of n) a flow may join, dealt from a hash of its name. */
export function dealHand(flow: string, n: number, handSize: number): number[] {
  let h = BigInt(`0x${createHash('sha256').update(flow).digest('hex').slice(0, 15)}`);
  const remaining = Array.from({ length: n }, (_, i) => i);
  const hand: number[] = [];
  for (let k = 0; k < Math.min(handSize, n); k++) {
    const j = Number(h % BigInt(remaining.length));
    h /= BigInt(remaining.length);
    hand.push(remaining.splice(j, 1)[0]!);
  }
  return hand;
}
