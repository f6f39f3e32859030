// Whether etcd has compacted a revision, asked of etcd: what a watch from a revision served
// by the watch cache asks, and a continue page served from it while the compactors'
// revision is not followed (compact-revision.ts: start-up, a broken watch), so a cheap one. Its request's bytes are written here, not
// by protobufjs (a RangeRequest of key \0, keys only, limit 1, at the revision after the
// one asked about), its answer is never decoded (only its status matters), and the call
// goes straight to the gRPC channel, without grpc-js's per-call interceptor set-up and the
// stack trace it records for every call. It still goes through etcd3's connection pool on
// the connection etcd3 holds: the same members and failover, TLS, auth token and timeouts
// as every other call, and reads' retries (retry.ts) and fault injection in tests alike.
// Measured through etcd3's `kv.range` it cost 0.41-0.58 ms of CPU a continue page. The
// same call without a revision asks etcd's revision now (askCurrentRevision), for a first
// page read from the cache.
import { Metadata, type Channel, type StatusObject } from '@grpc/grpc-js';
import type { Etcd3 } from 'etcd3';

/** The name the question is sent under through etcd3's pool (its method on the KV service client). */
export const compactionQuestion = 'rangeRevisionKept';

type Callback = (err: Error | null, res?: Buffer) => void;
interface KVServiceClient { getChannel(): Channel; [compactionQuestion]?: unknown }
interface Pool {
  exec(service: string, method: string, payload: unknown, options?: unknown): Promise<unknown>;
  hosts: Array<{ getServiceClient(name: string): KVServiceClient }>;
}

/**
 * RangeRequest{key: "\0", limit: 1, revision, keys_only: true} in protobuf's wire format;
 * without a revision, etcd's present.
 */
export function rangeRequestAt(revision?: number): Buffer {
  const varint: number[] = [];
  for (let v = revision; v !== undefined; v = Math.floor(v / 128)) {
    if (v < 128) { varint.push(v); break; }
    varint.push((v % 128) | 128);
  }
  // Fields: key (1, bytes), limit (3, varint), revision (4, varint), keys_only (8, bool).
  return Buffer.from([0x0a, 0x01, 0x00, 0x18, 0x01, ...(revision === undefined ? [] : [0x20, ...varint]), 0x40, 0x01]);
}

/**
 * The KV client's method etcd3's pool calls as `client[method](payload, metadata, options,
 * callback)`: one unary Range with the bytes given, answered with the answer's bytes.
 * Errors are grpc-js's (`<code> <NAME>: <details>`, with code and details), which etcd3
 * turns into its typed errors as for any call.
 */
function rangeRevisionKept(this: KVServiceClient, request: Buffer, metadata: Metadata, options: { deadline?: number | Date } | undefined, callback: Callback): void {
  const call = this.getChannel().createCall('/etcdserverpb.KV/Range', options?.deadline ?? Infinity, undefined, null, undefined);
  let answer: Buffer | undefined;
  call.start(metadata ?? new Metadata(), {
    onReceiveMetadata: () => undefined,
    onReceiveMessage: (message: Buffer) => { answer = message; },
    onReceiveStatus: (status: StatusObject) => {
      if (status.code === 0) return callback(null, answer ?? Buffer.alloc(0));
      callback(Object.assign(new Error(`${status.code} ${statusNames[status.code] ?? 'UNKNOWN'}: ${status.details}`), status));
    },
  });
  call.sendMessageWithContext({}, request);
  call.halfClose();
  call.startRead();
}

const statusNames = ['OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'DEADLINE_EXCEEDED', 'NOT_FOUND', 'ALREADY_EXISTS',
  'PERMISSION_DENIED', 'RESOURCE_EXHAUSTED', 'FAILED_PRECONDITION', 'ABORTED', 'OUT_OF_RANGE', 'UNIMPLEMENTED', 'INTERNAL',
  'UNAVAILABLE', 'DATA_LOSS', 'UNAUTHENTICATED'];

/**
 * etcd3's connection pool of `client`, its KV service client given the question once; null
 * when this etcd3 keeps its connections otherwise (a version whose private pool differs).
 */
function poolOf(client: Etcd3): Pool | null {
  const pool = (client as unknown as { pool?: Pool }).pool;
  if (typeof pool?.exec !== 'function' || !Array.isArray(pool.hosts) || pool.hosts.length === 0) return null;
  // Every member's KV client is of the one class etcd3 made from its protos.
  const proto = Object.getPrototypeOf(pool.hosts[0]!.getServiceClient('KV')) as KVServiceClient;
  if (proto[compactionQuestion] === undefined) {
    Object.defineProperty(proto, compactionQuestion, { value: rangeRevisionKept, enumerable: false });
  }
  return pool;
}

const pools = new WeakMap<Etcd3, Pool | null>();

function poolFor(client: Etcd3): Pool | null {
  let pool = pools.get(client);
  if (pool === undefined) { pool = poolOf(client); pools.set(client, pool); }
  return pool;
}

/** etcd's present, of a key no object has (no value read). */
const presentRequest = rangeRequestAt();

/**
 * The header's revision in a RangeResponse's bytes: field 1 (ResponseHeader), its field 3.
 * Every ResponseHeader field is a varint; etcd writes the header first.
 */
export function headerRevision(answer: Buffer): number {
  let i = 0;
  const varint = (): number => {
    let value = 0;
    for (let scale = 1; i < answer.length; scale *= 128) {
      const b = answer[i++]!;
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
    }
    throw new Error('etcd answer: truncated varint');
  };
  if (answer[i++] !== 0x0a) throw new Error('etcd answer: no header');
  const end = varint() + i;
  while (i < end) {
    const tag = varint();
    const value = varint();
    if (tag === 0x18) return value;
  }
  throw new Error('etcd answer: no revision');
}

/**
 * etcd's revision now (a linearizable read, as any range without `serializable`), through
 * `client`'s pool as the compaction question (so as cheap), or etcd3's `kv.range` without it.
 */
export async function askCurrentRevision(client: Etcd3): Promise<number> {
  const pool = poolFor(client);
  if (pool === null) return Number((await client.kv.range({ key: Buffer.from([0]), limit: 1, keys_only: true })).header.revision);
  return headerRevision(await pool.exec('KV', compactionQuestion, presentRequest) as Buffer);
}

/**
 * Asks etcd through `client`'s pool whether it still holds revision `revision`. Resolves
 * when it does; rejects as etcd3 does (the caller translates): compacted, a future
 * revision, or etcd or the way to it failing. Without the pool (another etcd3) the same
 * question goes through etcd3's own `kv.range`, dearer but the same answer.
 */
export function askRevisionKept(client: Etcd3, revision: number): Promise<unknown> {
  const pool = poolFor(client);
  if (pool === null) return client.kv.range({ key: Buffer.from([0]), revision: String(revision), limit: 1, keys_only: true });
  return pool.exec('KV', compactionQuestion, rangeRequestAt(revision));
}
