// Whether etcd has compacted a revision, asked of etcd: what a watch from a revision served
// by the watch cache asks, and a continue page served from it while the compactors'
// revision is not followed (compact-revision.ts: start-up, a broken watch), so a cheap one. Its request's bytes are written here, not
// by protobufjs (a RangeRequest of one key no object has, keys only, limit 1, at the revision
// after the one asked about), its answer is never decoded (only its status matters), and the call
// goes straight to the gRPC channel, without grpc-js's per-call interceptor set-up and the
// stack trace it records for every call. It still goes through etcd3's connection pool on
// the connection etcd3 holds: the same members and failover, TLS, auth token and timeouts
// as every other call, and reads' retries (retry.ts) and fault injection in tests alike.
// Measured through etcd3's `kv.range` it cost 0.41-0.58 ms of CPU a continue page. The
// same call without a revision asks etcd's revision now (askCurrentRevision), for a first
// page read from the cache. The key is the caller's, inside --etcd-prefix: any range is
// answered with etcd's revision, and an etcd user confined to the prefix (etcd auth, a role
// on the prefix's range) is refused every key outside it.
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
 * RangeRequest{key, limit: 1, revision, keys_only: true} in protobuf's wire format;
 * without a revision, etcd's present.
 */
export function rangeRequestAt(key: Buffer, revision?: number): Buffer {
  // Fields: key (1, bytes), limit (3, varint), revision (4, varint), keys_only (8, bool).
  const head = [0x0a, ...varint(key.length)];
  const tail = [0x18, 0x01, ...(revision === undefined ? [] : [0x20, ...varint(revision)]), 0x40, 0x01];
  const request = Buffer.allocUnsafe(head.length + key.length + tail.length);
  request.set(head, 0);
  key.copy(request, head.length);
  request.set(tail, head.length + key.length);
  return request;
}

function varint(value: number): number[] {
  const bytes: number[] = [];
  for (let v = value; ; v = Math.floor(v / 128)) {
    if (v < 128) { bytes.push(v); return bytes; }
    bytes.push((v % 128) | 128);
  }
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

/** etcd's present, asked of each key (a few: the callers' roots), built once a key. */
const presentRequests = new Map<string, Buffer>();

function presentRequest(key: string): Buffer {
  let request = presentRequests.get(key);
  if (request === undefined) { request = rangeRequestAt(Buffer.from(key)); presentRequests.set(key, request); }
  return request;
}

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

/** The same question through etcd3's own `kv.range`, for an etcd3 whose pool this module does not know: dearer, same answer. */
function askThroughEtcd3(client: Etcd3, key: string, revision?: number) {
  return client.kv.range({ key: Buffer.from(key), limit: 1, keys_only: true, ...(revision === undefined ? {} : { revision: String(revision) }) });
}

/**
 * etcd's revision now (a linearizable read, as any range without `serializable`), asked of
 * `key` through `client`'s pool as the compaction question (so as cheap).
 */
export async function askCurrentRevision(client: Etcd3, key: string): Promise<number> {
  const pool = poolFor(client);
  if (pool === null) return Number((await askThroughEtcd3(client, key)).header.revision);
  return headerRevision(await pool.exec('KV', compactionQuestion, presentRequest(key)) as Buffer);
}

/**
 * Asks etcd, reading `key` through `client`'s pool, whether it still holds revision
 * `revision`. Resolves when it does; rejects as etcd3 does (the caller translates):
 * compacted, a future revision, or etcd or the way to it failing.
 */
export function askRevisionKept(client: Etcd3, key: string, revision: number): Promise<unknown> {
  const pool = poolFor(client);
  if (pool === null) return askThroughEtcd3(client, key, revision);
  return pool.exec('KV', compactionQuestion, rangeRequestAt(Buffer.from(key), revision));
}
