// Borrowing between priority levels (upstream v1.28, KEP-1040): a level's current limit
// moves every 10 s between a lower bound (its nominal seats less what it may lend,
// lendablePercent) and an upper bound (plus what it may borrow, borrowingLimitPercent,
// unbounded when unset), following its seat demand, so a busy level runs on the seats an
// idle one is not using instead of queueing behind its nominal share. A level that used
// its nominal seats in the last period keeps them: only idle seats are lent.
import { allocateConcurrency } from './concurrency-allocation.js';
import type { DemandStats, SeatDemand } from './seat-demand.js';

/** Upstream's borrowingAdjustmentPeriod. */
export const adjustmentPeriodMs = 10_000;

export interface LevelBounds { nominalCL: number; minCL: number; maxCL: number }

export interface LevelLimits extends LevelBounds {
  currentCL: number;
  /** What the last adjustment aimed at, for apiserver_flowcontrol_target_seats. */
  target?: number;
  demand: SeatDemand;
  stats: DemandStats;
}

/** `borrowingLimitPercent` unset: the level may borrow up to the server's whole limit. */
export function borrowingBounds(nominalCL: number, lendablePercent: number | undefined, borrowingLimitPercent: number | undefined, serverLimit: number): LevelBounds {
  const lendable = Math.round((nominalCL * (lendablePercent ?? 0)) / 100);
  const borrowable = borrowingLimitPercent === undefined || borrowingLimitPercent === null ? serverLimit : Math.round((nominalCL * borrowingLimitPercent) / 100);
  return { nominalCL, minCL: nominalCL - lendable, maxCL: nominalCL + borrowable };
}

/** Ends every level's demand period and sets its current limit; returns the fair fraction. */
export function lendAndBorrow(levels: LevelLimits[], nominalSum: number): number {
  const items = levels.map((l) => {
    l.stats.update(l.demand.endPeriod());
    const lowerBound = Math.max(l.minCL, Math.min(l.nominalCL, l.stats.highWatermark));
    l.target = Math.max(lowerBound, l.stats.smoothed);
    return { lowerBound, upperBound: l.maxCL, target: l.target };
  });
  const { allocations, fairFraction } = allocateConcurrency(nominalSum, items);
  levels.forEach((l, i) => { l.currentCL = Math.round(allocations[i]!); });
  return fairFraction;
}
