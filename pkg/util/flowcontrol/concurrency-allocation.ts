// How the server's seats are shared out among priority levels after each adjustment
// period (upstream's computeConcurrencyAllocation): every level gets the same fraction
// ("fair fraction") of its target, held within its bounds, and the allocations add up to
// the required sum. A level whose lower bound is above its fair share keeps the bound; one
// whose upper bound is below it gets the bound; the rest share what is left in proportion
// to their targets.

export interface AllocationItem { lowerBound: number; upperBound: number; target: number }

/** Upstream's MinTarget: a zero target would take no share at any fraction. */
const minTarget = 0.001;

const clamp = (item: AllocationItem, fraction: number, target: number): number =>
  Math.max(item.lowerBound, Math.min(item.upperBound, fraction * target));

export function allocateConcurrency(requiredSum: number, items: AllocationItem[]): { allocations: number[]; fairFraction: number } {
  const targets = items.map((i) => Math.max(minTarget, i.target));
  const total = (fraction: number): number => items.reduce((n, item, k) => n + clamp(item, fraction, targets[k]!), 0);
  const lowSum = items.reduce((n, i) => n + i.lowerBound, 0);
  const highSum = items.reduce((n, i) => n + i.upperBound, 0);
  if (items.length === 0 || requiredSum <= lowSum) return { allocations: items.map((i) => i.lowerBound), fairFraction: 0 };
  if (requiredSum >= highSum) return { allocations: items.map((i) => i.upperBound), fairFraction: Math.max(...items.map((i, k) => i.upperBound / targets[k]!)) };
  // total() grows with the fraction, from lowSum at 0 to highSum at the largest upperBound/target:
  // halving the interval 100 times pins the fraction far below a seat.
  let low = 0;
  let high = Math.max(...items.map((i, k) => i.upperBound / targets[k]!));
  for (let step = 0; step < 100; step++) {
    const mid = (low + high) / 2;
    if (total(mid) < requiredSum) low = mid;
    else high = mid;
  }
  return { allocations: items.map((item, k) => clamp(item, high, targets[k]!)), fairFraction: high };
}
