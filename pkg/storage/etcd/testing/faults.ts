// Fault injection for tests: the real etcd3 client against a real etcd, with chosen
// calls failing as etcd3 reports etcd's own failures. The failure is injected where etcd3
// sends every unary call (its connection pool), under any wrapper, so the boundary and
// etcd3's own elections and leases see it as they would see etcd's answer.
import { castGrpcError, type Etcd3 } from 'etcd3';

/** etcd's failures as etcd3 hands them out (gRPC code, etcd's text). */
export const etcdFailures = {
  'unavailable': { code: 14, details: 'read ECONNRESET' },
  'timed out': { code: 14, details: 'etcdserver: request timed out' },
  'leader changed': { code: 14, details: 'etcdserver: leader changed' },
  'compacted': { code: 11, details: 'etcdserver: mvcc: required revision has been compacted' },
  'no leader': { code: 14, details: 'etcdserver: no leader' },
  'connection refused': { code: 14, details: 'No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:2379' },
  'deadline exceeded': { code: 4, details: 'Deadline exceeded after 5.001s' },
  'permission denied': { code: 7, details: 'etcdserver: permission denied' },
} as const;

export type EtcdFailure = keyof typeof etcdFailures;
export const etcdFailureKinds = Object.keys(etcdFailures) as EtcdFailure[];

const grpcCodeNames: Record<number, string> = { 4: 'DEADLINE_EXCEEDED', 7: 'PERMISSION_DENIED', 11: 'OUT_OF_RANGE', 14: 'UNAVAILABLE' };

/** The error etcd3 rejects a call with when etcd (or the way to it) fails this way. */
export function etcdError(kind: EtcdFailure): Error {
  const { code, details } = etcdFailures[kind];
  return castGrpcError(Object.assign(new Error(`${code} ${grpcCodeNames[code]}: ${details}`), { code, details }));
}

interface Rule { service: string; method: string; error: Error; times: number }

export interface FaultInjector {
  /** The next `times` calls of service.method (e.g. 'KV', 'txn') fail with `kind`. */
  fail(service: string, method: string, kind: EtcdFailure, times?: number): void;
  /** How many injected failures were thrown. */
  readonly injected: number;
  clear(): void;
}

/** Makes `client` (a real etcd3 client) fail chosen calls; every other call reaches etcd. */
export function injectFaults(client: Etcd3): FaultInjector {
  const pool = (client as unknown as { pool: { exec(service: string, method: string, payload: unknown, options?: unknown): Promise<unknown> } }).pool;
  const exec = pool.exec.bind(pool);
  let rules: Rule[] = [];
  let injected = 0;
  pool.exec = (service, method, payload, options) => {
    const rule = rules.find((r) => r.service === service && r.method === method && r.times > 0);
    if (!rule) return exec(service, method, payload, options);
    rule.times--;
    injected++;
    return Promise.reject(rule.error);
  };
  return {
    fail(service, method, kind, times = 1) { rules.push({ service, method, error: etcdError(kind), times }); },
    get injected() { return injected; },
    clear() { rules = []; },
  };
}

export interface LostAnswers {
  /** The next `times` calls of service.method reach etcd, which applies them, and their answer is lost (UNAVAILABLE). */
  lose(service: string, method: string, times?: number): void;
  /** Calls of service.method that reached etcd. */
  sent(service: string, method: string): number;
}

type Callback = (err: unknown, res?: unknown) => void;

/**
 * Beneath etcd3's connection pool and its fault policies, at each member's gRPC client:
 * a call goes to etcd and its answer is replaced by a broken connection's UNAVAILABLE,
 * the case where a retried write would be applied twice.
 */
export function loseAnswers(client: Etcd3): LostAnswers {
  const hosts = (client as unknown as { pool: { hosts: Array<{ getServiceClient(name: string): object }> } }).pool.hosts;
  const counts = new Map<string, number>();
  let rules: Array<{ id: string; times: number }> = [];
  for (const host of hosts) {
    const get = host.getServiceClient.bind(host);
    host.getServiceClient = (service) => new Proxy(get(service), {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          const id = `${service}.${String(prop)}`;
          const cb = args[args.length - 1];
          if (typeof cb !== 'function') return (value as Function).apply(target, args);
          counts.set(id, (counts.get(id) ?? 0) + 1);
          const rule = rules.find((r) => r.id === id && r.times > 0);
          if (rule) rule.times--;
          args[args.length - 1] = ((err: unknown, res?: unknown) => (rule
            ? (cb as Callback)(Object.assign(new Error('14 UNAVAILABLE: read ECONNRESET'), { code: 14, details: 'read ECONNRESET' }))
            : (cb as Callback)(err, res))) satisfies Callback;
          return (value as Function).apply(target, args);
        };
      },
    });
  }
  return {
    lose(service, method, times = 1) { rules = [...rules, { id: `${service}.${method}`, times }]; },
    sent: (service, method) => counts.get(`${service}.${method}`) ?? 0,
  };
}
