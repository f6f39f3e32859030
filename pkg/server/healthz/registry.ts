// Named health checks behind /healthz, /livez and /readyz, registered the way upstream's
// generic server does: health checks go to all three endpoints, readiness-only checks
// to /readyz, and boot-sequence checks (post-start hooks) reach /livez only after the
// --livez-grace-period has passed since they were added, so a slow start is not
// mistaken for a dead process.

export interface HealthCheck {
  name: string;
  /** Resolves when healthy; rejects with the reason (logged, never shown publicly). */
  check(): Promise<void>;
}

export type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

export interface HealthRegistryOptions {
  /** --livez-grace-period in milliseconds (upstream default 0). */
  livezGracePeriodMs?: number;
  /** Clock in milliseconds; injectable for tests. */
  now?: () => number;
}

export interface PostStartHook {
  /** The check's name: `poststarthook/<hook name>`. */
  readonly name: string;
  /** Marks the hook finished; its check passes from now on. */
  done(): void;
}

export class HealthRegistry {
  private readonly lists: Record<HealthEndpoint, HealthCheck[]> = { healthz: [], livez: [], readyz: [] };
  private readonly gracePeriodMs: number;
  private readonly now: () => number;

  constructor(options: HealthRegistryOptions = {}) {
    this.gracePeriodMs = options.livezGracePeriodMs ?? 0;
    this.now = options.now ?? Date.now;
  }

  /** Checks that matter for every endpoint (upstream AddHealthChecks), e.g. ping, log, etcd. */
  addHealthChecks(...checks: HealthCheck[]): void {
    this.add(0, checks);
  }

  /**
   * Checks needed only while booting (upstream AddBootSequenceHealthChecks): on /livez they
   * report ok until the grace period has passed.
   */
  addBootSequenceHealthChecks(...checks: HealthCheck[]): void {
    this.add(this.gracePeriodMs, checks);
  }

  /** Checks on /livez alone, reporting ok until `delayMs` after registration. */
  addLivezChecks(delayMs: number, ...checks: HealthCheck[]): void {
    for (const c of checks) {
      this.assertUnique('livez', c.name);
      this.lists.livez.push(delayMs > 0 ? this.delayed(c, delayMs) : c);
    }
  }

  /** Checks on /healthz and /readyz but not /livez (upstream's KMS plugin checks: a plugin outage must not restart the server). */
  addHealthzAndReadyzChecks(...checks: HealthCheck[]): void {
    for (const c of checks) {
      this.assertUnique('healthz', c.name);
      this.lists.healthz.push(c);
    }
    this.addReadyzChecks(...checks);
  }

  /** Checks on /readyz alone (upstream AddReadyzChecks), e.g. etcd-readiness, informer-sync, shutdown. */
  addReadyzChecks(...checks: HealthCheck[]): void {
    for (const c of checks) {
      this.assertUnique('readyz', c.name);
      this.lists.readyz.push(c);
    }
  }

  /** Registers `poststarthook/<name>`, failing with "not finished" until `done()` is called. */
  addPostStartHook(name: string): PostStartHook {
    let finished = false;
    const checkName = `poststarthook/${name}`;
    this.addBootSequenceHealthChecks({
      name: checkName,
      check: async () => {
        if (!finished) throw new Error('not finished');
      },
    });
    return { name: checkName, done: () => { finished = true; } };
  }

  checks(endpoint: HealthEndpoint): readonly HealthCheck[] {
    return this.lists[endpoint];
  }

  private add(livezDelayMs: number, checks: HealthCheck[]): void {
    for (const c of checks) {
      this.assertUnique('healthz', c.name);
      this.lists.healthz.push(c);
    }
    this.addLivezChecks(livezDelayMs, ...checks);
    this.addReadyzChecks(...checks);
  }

  private assertUnique(endpoint: HealthEndpoint, name: string): void {
    if (this.lists[endpoint].some((c) => c.name === name)) throw new Error(`duplicate ${endpoint} check "${name}"`);
  }

  private delayed(c: HealthCheck, delayMs: number): HealthCheck {
    const startCheckingAt = this.now() + delayMs;
    return {
      name: c.name,
      check: async () => {
        if (this.now() > startCheckingAt) await c.check();
      },
    };
  }
}
