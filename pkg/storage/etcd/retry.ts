// Which etcd calls may be sent again after a failure. etcd3's default global policy
// retries every unary call up to three times on a "recoverable" error (UNAVAILABLE,
// DEADLINE_EXCEEDED, ...), writes included. A write etcd applied before the answer was
// lost would then be applied again: a create's retried transaction finds its own key and
// answers 409 AlreadyExists for the client's own object, an update's retry fails its
// revision compare (409 Conflict), a plain put lands twice. etcd's own Go client
// (clientv3's retry interceptor) retries only repeatable calls (Range and the like) on
// UNAVAILABLE, and a mutating call only when it never left the client. So: reads, and
// calls that never reached etcd, are retried here; other failed writes fail at once and the boundary (boundary.ts) answers for an unknown
// outcome (a 504 Timeout whose message says the write may have happened).
import { isRecoverableError, type Etcd3 } from 'etcd3';
import { compactionQuestion } from './compaction-question.js';

type Exec = (service: string, method: string, payload: unknown, options?: unknown) => Promise<unknown>;

/** Calls that change nothing, by etcd3 service and method. */
const readOnly: Record<string, Set<string>> = {
  KV: new Set(['range', compactionQuestion]),
  Lease: new Set(['leaseTimeToLive', 'leaseLeases']),
  Cluster: new Set(['memberList']),
  Maintenance: new Set(['status', 'hashKV']),
};

/** A transaction of compares and ranges only reads. */
function readOnlyTxn(payload: unknown): boolean {
  const t = payload as { success?: object[]; failure?: object[] } | undefined;
  return [...(t?.success ?? []), ...(t?.failure ?? [])].every((op) => !('request_put' in op) && !('request_delete_range' in op) && !('request_txn' in op));
}

export function repeatable(service: string, method: string, payload: unknown): boolean {
  if (service === 'KV' && method === 'txn') return readOnlyTxn(payload);
  return readOnly[service]?.has(method) ?? false;
}

const attempts = 3;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * The call never left for etcd: no connection to the member could be made. Any call may
 * then be sent again (clientv3's isSafeRetryMutableRPC), on another member.
 */
export function neverSent(err: Error): boolean {
  return /No connection established|ECONNREFUSED|failed to connect to all addresses|there is no (address|connection) available/i.test(err.message);
}

/**
 * Retries read-only calls on etcd3's "recoverable" errors, and any call etcd never got, up
 * to three tries (as etcd3's default global policy did for all calls; the client is made
 * with that policy off), each on a freshly chosen member. Made where etcd3 sends every
 * unary call (its connection pool), beneath the boundary, so a call that finally fails is
 * still translated.
 */
export function retryReads(client: Etcd3): void {
  const pool = (client as unknown as { pool?: { exec?: Exec } }).pool;
  if (typeof pool?.exec !== 'function') throw new Error('this etcd3 version sends its calls differently: cannot limit its retries to reads');
  const exec = pool.exec.bind(pool);
  pool.exec = async (service, method, payload, options) => {
    const read = repeatable(service, method, payload);
    for (let i = 1; ; i++) {
      try {
        return await exec(service, method, payload, options);
      } catch (err) {
        if (i >= attempts || !(err instanceof Error) || !(neverSent(err) || (read && isRecoverableError(err)))) throw err;
        await sleep(20 * i);
      }
    }
  };
}
