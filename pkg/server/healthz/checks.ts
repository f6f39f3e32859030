// Upstream's stock checks. Names are what operators grep for in `?verbose` output.
import type { HealthCheck } from './registry.js';

/** Always healthy: proves the server answers HTTP. */
export const pingCheck: HealthCheck = { name: 'ping', check: async () => {} };

/**
 * Upstream's `log` check fails when the log flusher has been stuck for a minute. Our
 * logger writes synchronously, so a stuck log shows up as a stuck request instead; the
 * check takes an optional probe for callers that buffer logs.
 */
export function createLogCheck(lastFlushAgeMs: () => number = () => 0): HealthCheck {
  return {
    name: 'log',
    check: async () => {
      const age = lastFlushAgeMs();
      if (age > 60_000) throw new Error(`logging blocked for ${Math.round(age / 1000)}s`);
    },
  };
}

export interface ShutdownCheck extends HealthCheck {
  /** Called when graceful shutdown starts: /readyz fails from then on. */
  markShuttingDown(): void;
}

export function createShutdownCheck(): ShutdownCheck {
  let shuttingDown = false;
  return {
    name: 'shutdown',
    check: async () => {
      if (shuttingDown) throw new Error('process is shutting down');
    },
    markShuttingDown: () => { shuttingDown = true; },
  };
}

/** `informer-sync`: fails while any named cache (informer, watch cache) has not synced. */
export function createInformerSyncCheck(notSynced: () => string[],
  undecodable: () => Array<{ key: string; reason: string }> = () => []): HealthCheck {
  return {
    name: 'informer-sync',
    check: async () => {
      const pending = notSynced();
      if (pending.length === 0) return;
      // A damaged value keeps an informer from ever listing: name the key, not just the informer.
      const damaged = undecodable().map((d) => `; unable to decode ${d.key}: ${d.reason}`).join('');
      throw new Error(`${pending.length} informers not started yet: [${pending.join(' ')}]${damaged}`);
    },
  };
}

/** A check from a name and a function (upstream NamedCheck). */
export function namedCheck(name: string, check: () => Promise<void>): HealthCheck {
  return { name, check };
}
