// The replica's shutdown signals, in upstream's order (genericapiserver's lifecycle
// signals): ShutdownInitiated (readyz fails, connections stop being reused), then
// NotAcceptingNewRequest once --shutdown-delay-duration has passed, then the drains:
// non-long-running requests finish, watches get their grace period and are then ended
// cleanly so their clients re-list on another replica.

/** A watch as shutdown sees it: ended cleanly (a last bookmark, then the end) when its grace is over. */
export interface TrackedWatch {
  endCleanly(): void;
}

export class ServerLifecycle {
  shutdownInitiated = false;
  notAcceptingNewRequests = false;
  /** In-flight requests are drained and storage is about to close: nothing new may start. */
  drained = false;
  private inflight = 0;
  private drainWaiters: (() => void)[] = [];
  private readonly watches = new Set<TrackedWatch>();

  initiateShutdown(): void {
    this.shutdownInitiated = true;
  }

  stopAcceptingNewRequests(): void {
    this.notAcceptingNewRequests = true;
  }

  /** Counts a non-long-running request; call the result once it has been answered. */
  beginRequest(): () => void {
    this.inflight++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.inflight === 0) for (const w of this.drainWaiters.splice(0)) w();
    };
  }

  get inflightRequests(): number { return this.inflight; }
  get activeWatches(): number { return this.watches.size; }

  /** A watch to end cleanly when the replica shuts down, until untrackWatch. */
  trackWatch(w: TrackedWatch): void {
    this.watches.add(w);
  }

  untrackWatch(w: TrackedWatch): void {
    this.watches.delete(w);
  }

  /** Resolves once no non-long-running request is in flight, or after timeoutMs. */
  async drainRequests(timeoutMs: number): Promise<boolean> {
    const drained = this.inflight === 0 || await new Promise<boolean>((resolve) => {
      const t = setTimeout(() => resolve(false), timeoutMs);
      this.drainWaiters.push(() => { clearTimeout(t); resolve(true); });
    });
    this.drained = true;
    return drained;
  }

  /** Gives watches graceMs to end by themselves, then ends the rest. */
  async terminateWatches(graceMs: number): Promise<void> {
    const end = Date.now() + graceMs;
    while (this.watches.size > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, Math.min(100, end - Date.now())));
    for (const w of [...this.watches]) w.endCleanly();
  }
}
