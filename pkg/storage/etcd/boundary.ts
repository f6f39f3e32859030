// The one door to etcd. Every call made through the client guardEtcd returns (its kv,
// lease and watch clients, builders, elections) fails with a StorageError when etcd or
// the way to it fails, so no call site can forget to translate: the registry maps
// StorageErrors to Status in one place, and a raw gRPC error never reaches a client as a
// 500. Only the promises of calls are translated; errors that etcd3 reports through
// events (a watch stream's, an election's) are the listener's to handle.
import { isBrokenCircuitError } from 'cockatiel';
import { ClientClosedError, GRPCDeadlineExceededError, GRPCUnavailableError, type Etcd3 } from 'etcd3';
import { StorageError } from '../interfaces.js';

/** Calls whose failure may leave a change half-known: put, delete, compact, lease changes. */
const writeCalls = new Set(['put', 'deleteRange', 'compact', 'leaseGrant', 'leaseRevoke', 'delete', 'election', 'lease', 'lock', 'campaign', 'proclaim', 'resign']);

/** Wraps a client so that every call's failure leaves as a translated StorageError. */
export function guardEtcd(client: Etcd3): Etcd3 {
  if (guarded.has(client)) return client;
  const proxy = guard(client, false, new WeakMap()) as Etcd3;
  guarded.add(proxy);
  return proxy;
}

const guarded = new WeakSet<object>();

/**
 * etcd's failures as the storage layer speaks of them. The outcome of a write is unknown
 * when etcd timed out or lost its leader while the write was in flight, or the connection
 * broke after it was sent: that is a Timeout (upstream's answer for a request whose
 * outcome is unknown is a 504). A request etcd could not take (no connection, no leader,
 * too busy), or any read that failed on the way, is Unreachable.
 */
export function translateEtcdError(err: unknown, key: string, write: boolean): Error {
  if (err instanceof StorageError) return err;
  const msg = err instanceof Error ? err.message : String(err);
  if (msg.includes('required revision has been compacted')) {
    return new StorageError('ResourceVersionGone', key, 'The resourceVersion for the provided list is too old.');
  }
  if (msg.includes('required revision is a future revision')) {
    return new StorageError('TooLargeResourceVersion', key, 'Too large resource version');
  }
  // By class, not by class name: the single-file build renames classes whose names collide.
  if (/etcdserver: request timed out|etcdserver: leader changed|DEADLINE_EXCEEDED|deadline exceeded/i.test(msg)
    || err instanceof GRPCDeadlineExceededError) {
    return new StorageError('Timeout', key, write
      ? `etcd did not confirm the write (${msg}): it may or may not have been applied`
      : `etcd did not answer in time (${msg})`);
  }
  // etcd3's circuit breaker refuses calls for a while after a member failed (BrokenCircuitError).
  const notTaken = /ECONNREFUSED|No connections available|no connection established|etcdserver: no leader|etcdserver: too many requests|there is no address available|there is no connection available|circuit breaker is open/i.test(msg)
    || err instanceof ClientClosedError || isBrokenCircuitError(err);
  const unavailable = msg.includes('UNAVAILABLE') || err instanceof GRPCUnavailableError;
  if (notTaken || (!write && unavailable)) {
    return new StorageError('Unreachable', key, `etcd unreachable: ${msg}`);
  }
  if (unavailable) {
    return new StorageError('Timeout', key, `the connection to etcd failed during the write (${msg}): it may or may not have been applied`);
  }
  // An error etcd itself answered (its text, after grpc-js's "7 PERMISSION_DENIED: ", starts
  // "etcdserver: "): upstream's storage passes it through as etcd's client has it, its text.
  const refused = /^\d+ [A-Z_]+: (etcdserver: .*)$/s.exec(msg);
  if (refused) return new StorageError('EtcdRefused', key, refused[1]!);
  return err instanceof Error ? err : new Error(msg);
}

function wrappable(v: unknown): v is object {
  if (typeof v !== 'object' || v === null || Array.isArray(v) || ArrayBuffer.isView(v) || v instanceof Promise) return false;
  const proto = Object.getPrototypeOf(v);
  return proto !== null && proto !== Object.prototype;
}

function guard(target: object, write: boolean, proxies: WeakMap<object, object>): object {
  const known = proxies.get(target);
  if (known) return known;
  const proxy = new Proxy(target, {
    get(t, prop) {
      const value = Reflect.get(t, prop, t) as unknown;
      if (typeof value === 'function') {
        // A builder is a thenable that runs when awaited: its settlement is translated too.
        if ((prop === 'then' || prop === 'catch' || prop === 'finally') && !(t instanceof Promise)) {
          return (...args: unknown[]) => {
            const settled = new Promise((resolve, reject) => { (value as Function).call(t, resolve, reject); })
              .catch((err: unknown) => { throw translateEtcdError(err, '', write); });
            return (settled[prop] as Function)(...args);
          };
        }
        return (...args: unknown[]) => {
          const name = String(prop);
          const isWrite = write || isWriteCall(name, args[0]);
          const out = (value as Function).apply(t, args) as unknown;
          if (out instanceof Promise) return out.catch((err: unknown) => { throw translateEtcdError(err, keyOf(args[0]), isWrite); });
          return wrappable(out) ? guard(out, isWrite, proxies) : out;
        };
      }
      return wrappable(value) ? guard(value, write, proxies) : value;
    },
  });
  proxies.set(target, proxy);
  return proxy;
}

function isWriteCall(name: string, req: unknown): boolean {
  if (name !== 'txn') return writeCalls.has(name);
  const ops = [...((req as { success?: object[] })?.success ?? []), ...((req as { failure?: object[] })?.failure ?? [])];
  return ops.some((op) => 'request_put' in op || 'request_delete_range' in op);
}

/** The key a request is about, for the error's message; a transaction's first compared key. */
function keyOf(req: unknown): string {
  const r = req as { key?: unknown; compare?: Array<{ key?: unknown }> } | undefined;
  const k = r?.key ?? r?.compare?.[0]?.key;
  return Buffer.isBuffer(k) || typeof k === 'string' ? k.toString() : '';
}
