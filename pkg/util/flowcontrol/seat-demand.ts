// A priority level's seat demand (seats held by executing requests plus seats wanted by
// queued ones) over time, as upstream's borrowing reads it: the time-weighted average,
// standard deviation and high watermark of each adjustment period, and a smoothed figure
// that rises at once with demand but decays slowly (half-life about five minutes at one
// adjustment every 10 s), so a level does not lend away seats it needed a minute ago.

export interface DemandPeriod { average: number; deviation: number; max: number; durationMs: number }

/** Upstream's seatDemandSmoothingCoefficient. */
const smoothing = 0.977;

export class SeatDemand {
  private value = 0;
  private since: number;
  private periodStart: number;
  /** Integrals of the value and of its square over the period, in seat-milliseconds. */
  private sum = 0;
  private sumSquares = 0;
  private max = 0;

  constructor(private readonly now: () => number = Date.now) {
    this.since = this.periodStart = now();
  }

  /** The level's demand changed to `seats`. */
  set(seats: number): void {
    this.accumulate();
    this.value = seats;
    if (seats > this.max) this.max = seats;
  }

  /** The period that ends now; the next one starts with the current demand as its high watermark. */
  endPeriod(): DemandPeriod {
    this.accumulate();
    const durationMs = this.since - this.periodStart;
    const average = durationMs > 0 ? this.sum / durationMs : this.value;
    const variance = durationMs > 0 ? this.sumSquares / durationMs - average * average : 0;
    const period = { average, deviation: Math.sqrt(Math.max(0, variance)), max: this.max, durationMs };
    this.periodStart = this.since;
    this.sum = this.sumSquares = 0;
    this.max = this.value;
    return period;
  }

  private accumulate(): void {
    const t = this.now();
    const dt = t - this.since;
    if (dt > 0) {
      this.sum += this.value * dt;
      this.sumSquares += this.value * this.value * dt;
    }
    this.since = t;
  }
}

/** The figures borrowing works from, updated once per adjustment period. */
export class DemandStats {
  average = 0;
  deviation = 0;
  highWatermark = 0;
  smoothed = 0;

  update(p: DemandPeriod): void {
    this.highWatermark = p.max;
    if (p.durationMs <= 0) return;
    this.average = p.average;
    this.deviation = p.deviation;
    const envelope = p.average + p.deviation;
    this.smoothed = Math.max(envelope, smoothing * this.smoothed + (1 - smoothing) * envelope);
  }
}
