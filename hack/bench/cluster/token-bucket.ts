// client-go's client-side rate limit (flowcontrol's token bucket, golang.org/x/time/rate
// underneath): `qps` tokens a second into a bucket of `burst`, full at the start; a call
// takes one token, and when none is left it waits until its own token has accrued, so
// waiters go in the order they asked and the rate holds over any window.
import { clock, sleep } from './client.js';

export class TokenBucket {
  private tokens: number;
  private last = clock();

  constructor(private readonly qps: number, private readonly burst: number) {
    this.tokens = burst;
  }

  async take(): Promise<void> {
    const now = clock();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) * this.qps) / 1000);
    this.last = now;
    this.tokens -= 1;
    // Negative: this call's token accrues after the ones already promised.
    if (this.tokens < 0) await sleep((-this.tokens * 1000) / this.qps);
  }
}
