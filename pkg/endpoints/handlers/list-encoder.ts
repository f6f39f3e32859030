// Encodes a large collection response a batch of items at a time, giving the event loop
// back between batches. Why: a single JSON.stringify of a 2,000-object list (~2 MB) and a
// single TLS write of the result each held the process for about 10 ms, and every other
// request of every other user waited behind them. APF bounds how many such lists run at
// once (their seats), not how long each of them blocks the one thread serving everyone.
// The bytes are exactly those of the one-shot encoders (serialize() in response.ts):
// clients and tests compare bodies.
import { randomBytes } from 'node:crypto';
import { Readable, type Writable } from 'node:stream';
import type { Context } from 'koa';
import { koaWouldSendBody, respondOnHttp2Stream } from './http2-body.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Writer } from '../../runtime/serializer/protobuf/wire.js';
import { encodeInto, encodeMessage } from '../../runtime/serializer/protobuf/codec.js';
import { messageFields, messageForKind } from '../../runtime/serializer/protobuf/schema.js';
import { protobufMagic } from '../../runtime/serializer/protobuf/envelope.js';
import { sharedEncoding } from '../../runtime/serializer/shared-encodings.js';
import { isPlainObject } from '../../runtime/object.js';
import { goJson, goJsonText } from '../../runtime/serializer/json/go-escapes.js';
import { reuseWhenFinished, wholeWriteBytes } from './page-buffers.js';

/** Below this many elements a collection is encoded in one go: yielding would cost more than it saves. */
export const cooperativeMinItems = 100;
/**
 * Roughly how much output one batch makes before the encoder yields (and the size of a
 * write): one TLS record's worth. At 64 KB a batch held the event loop long enough that a
 * GET waiting behind a flood's batches had its p99 doubled (APF bench: 1.7-2.7x its idle
 * p99); at 16 KB it was 1.4-1.9x over seven runs, with the same list throughput and
 * single-list latency.
 */
export const batchBytes = 16 * 1024;

type Json = Record<string, unknown>;

/** The array member a collection body streams: a list's items, a Table's rows. */
export function collectionField(body: unknown): 'items' | 'rows' | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  for (const f of ['items', 'rows'] as const) {
    const v = (body as Json)[f];
    if (Array.isArray(v) && v.length >= cooperativeMinItems) return f;
  }
  return undefined;
}

// A string no API object holds, standing in for the array while the rest of the body is
// encoded, so the body's own key order and escaping come from goJson itself. Drawn
// at first use, not at load: a start from the V8 startup snapshot (cmd/snapshot.ts) would
// otherwise reuse the build's draw.
let placeholderDrawn: string | undefined;
const placeholder = (): string => (placeholderDrawn ??= `\u0000list-encoder-${randomBytes(8).toString('hex')}\u0000`);

/**
 * The JSON body as serialize() writes it (`pretty` = two-space indent), as pieces: text
 * encoded a batch of array elements per event-loop turn, and the cached bytes of the watch
 * cache's shared objects as they are, not copied (see BatchedBody).
 */
export async function encodeJsonCooperatively(body: Json, field: string, pretty: boolean): Promise<Buffer[]> {
  const items = body[field] as unknown[];
  const stand = placeholder();
  const outer = goJson({ ...body, [field]: stand }, pretty);
  const quoted = JSON.stringify(stand);
  const at = outer.indexOf(quoted);
  const head = outer.slice(0, at);
  const tail = `${outer.slice(at + quoted.length)}\n`;
  if (items.length === 0) return [Buffer.from(`${head}[]${tail}`)];
  // JSON.stringify puts a top-level member's elements at depth 2: four spaces when pretty.
  const open = pretty ? '[\n    ' : '[';
  const sep = pretty ? ',\n    ' : ',';
  const close = pretty ? '\n  ]' : ']';
  const one = pretty
    ? (v: unknown) => goJsonText(JSON.stringify(v, null, 2) ?? 'null').replace(/\n/g, '\n    ')
    : (v: unknown) => goJsonText(JSON.stringify(v) ?? 'null');
  const out: Buffer[] = [];
  let text = head + open;
  let size = 0;
  for (let i = 0; i < items.length; i++) {
    if (i > 0) text += sep;
    const item = items[i];
    const cached = !pretty && isPlainObject(item) ? sharedEncoding(item, 'json', one) : undefined;
    if (cached) {
      if (text) out.push(text === sep ? compactSeparator : Buffer.from(text));
      out.push(cached);
      size += text.length + cached.length;
      text = '';
    } else {
      text += one(item);
    }
    if (size + text.length >= batchBytes) {
      if (text) out.push(Buffer.from(text));
      text = '';
      size = 0;
      await nextTurn();
    }
  }
  out.push(Buffer.from(text + close + tail));
  return out;
}

const compactSeparator = Buffer.from(',');

/**
 * The enveloped protobuf body as encodeObject() writes it, in chunks, or undefined when
 * the kind's message does not end with its repeated `items` (then the caller encodes it in
 * one go). Upstream's encoder writes fields in number order, so a list is its other fields
 * followed by one length-delimited record per item: the same bytes however they are cut.
 */
export async function encodeProtobufCooperatively(body: Json): Promise<Buffer[] | undefined> {
  const apiVersion = String(body.apiVersion ?? '');
  const kind = String(body.kind ?? '');
  const type = messageForKind(apiVersion, kind);
  const fields = type ? messageFields(type) : undefined;
  const itemsField = fields?.find((f) => f.j === 'items');
  if (!type || !fields || !itemsField || itemsField.r !== 1 || itemsField.t !== 'msg' || !itemsField.m
    || fields.some((f) => f.n > itemsField.n)) return undefined;
  const items = body.items as unknown[];
  const parts: Uint8Array[] = [encodeMessage(type, { ...body, items: [] })];
  const tag = (itemsField.n << 3) | 2;
  let w = Writer.create();
  // Bytes of records since the last turn, cached messages included (they are not in w).
  let sinceTurn = 0;
  for (const item of items) {
    const start = w.pos;
    const cached = isPlainObject(item) ? sharedEncoding(item, 'protobuf', (v) => encodeMessage(itemsField.m!, v)) : undefined;
    if (cached) {
      // The record's tag and length, then the cached message itself, not copied.
      w.uint32(tag).uint32(cached.length);
      parts.push(w.flush(), cached);
      sinceTurn += cached.length;
    } else {
      w.uint32(tag).fork();
      encodeInto(w, itemsField.m, item);
      w.ldelim();
    }
    sinceTurn += w.pos - start;
    if (sinceTurn >= batchBytes) {
      parts.push(w.flush());
      w = Writer.create();
      sinceTurn = 0;
      await nextTurn();
    }
  }
  parts.push(w.flush());
  const rawLength = totalBytes(parts);
  // runtime.Unknown: typeMeta (1), raw (2), contentEncoding (3), contentType (4).
  const head = Writer.create();
  head.raw(protobufMagic);
  head.uint32(10).fork().uint32(10).string(apiVersion).uint32(18).string(kind).ldelim();
  head.uint32(18).uint32(rawLength);
  const tail = Writer.create().uint32(26).string('').uint32(34).string('');
  return [head.finish(), ...parts, tail.finish()].map((p) => (Buffer.isBuffer(p) ? p : Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
}

/** The bytes of all `pieces` together. */
export function totalBytes(pieces: readonly Uint8Array[]): number {
  let size = 0;
  for (const p of pieces) size += p.length;
  return size;
}

/**
 * Groups pieces into writes of about `batchBytes` (cutting larger pieces), so each write
 * encrypts little and small pieces do not each become a TLS record of their own.
 */
export function* writeBatches(pieces: Buffer[]): Generator<Buffer[]> {
  let batch: Buffer[] = [];
  let size = 0;
  for (const p of pieces) {
    for (let off = 0; off < p.length; off += batchBytes) {
      const piece = off === 0 && p.length <= batchBytes ? p : p.subarray(off, Math.min(p.length, off + batchBytes));
      if (size > 0 && size + piece.length > batchBytes) {
        yield batch;
        batch = [];
        size = 0;
      }
      batch.push(piece);
      size += piece.length;
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * The pieces as one buffer per batch, for a consumer that takes each write as a job of its
 * own: zlib, fed the pieces one by one, made a thread-pool round trip per cached 1 KB
 * object (a 2,000-object list: 49-150 ms of CPU compressed, 9-13 ms joined).
 */
export function* joinedBatches(pieces: Buffer[]): Generator<Buffer> {
  for (const batch of writeBatches(pieces)) yield batch.length === 1 ? batch[0]! : Buffer.concat(batch);
}

/**
 * A response body written a batch per event-loop turn, each batch corked so that its
 * pieces leave in one vectored write: the cached bytes of shared objects go to the socket
 * without being copied into a new buffer first (copies that, at megabytes per list, made
 * V8 collect for external-memory pressure). Waits for the socket to drain when it asks.
 */
export class BatchedBody extends Readable {
  constructor(private readonly pieces: Buffer[]) {
    super();
  }

  override _read(): void {
    // Never read: pipe() below writes the pieces itself.
  }

  override pipe<T extends NodeJS.WritableStream>(dest: T, options?: { end?: boolean }): T {
    const out = dest as unknown as Writable;
    void this.writeBatchesTo(out).then((complete) => {
      if (!complete) return;
      // Ends as a piped stream does: stream.pipeline() ends the response on 'end', and
      // takes a response finished before its source ended for a premature close.
      this.push(null);
      this.resume();
      if (options?.end !== false) out.end();
    }).catch((err: Error) => this.destroy(err));
    return dest;
  }

  /**
   * Writes the body to `out` and ends it, without a stream pipeline around it (see
   * sendBatchedBody). Resolves early, leaving `out` as it is, when either side is destroyed.
   */
  async sendTo(out: Writable): Promise<void> {
    if (await this.writeBatchesTo(out)) out.end();
  }

  /** A joined page's buffer is reused once `res` (an HTTP/1.1 response) has finished (page-buffers.ts). */
  reuseBufferAfter(res: Writable): void {
    reuseWhenFinished(res, this.pieces);
  }

  /**
   * Writes every batch; false when a side was destroyed first. A body up to wholeWriteBytes
   * goes in one corked turn; a larger one a batch a turn, waiting for 'drain' when asked to.
   */
  private async writeBatchesTo(out: Writable): Promise<boolean> {
    const whole = totalBytes(this.pieces) <= wholeWriteBytes;
    const batches = writeBatches(this.pieces);
    let next = batches.next();
    for (;;) {
      if (out.destroyed || this.destroyed) return false;
      out.cork();
      let ok = true;
      while (!next.done) {
        for (const piece of next.value) ok = out.write(piece);
        next = batches.next();
        if (!whole) break;
      }
      out.uncork();
      // No turn after the last batch: the caller ends `out` in this one, so that over
      // HTTP/2 the last frame carries END_STREAM instead of one sent turns later.
      if (next.done) return true;
      if (!ok) await drained(out);
      else await nextTurn();
    }
  }
}

/**
 * Sends a BatchedBody response itself, at the point Koa's respond() would (once every
 * filter has returned), and tells Koa not to: Koa sends a stream body through
 * stream.pipeline(), whose set-up and teardown (end-of-stream listeners on both sides, and
 * an AbortController aborted at the end, building a DOMException with its stack) are paid
 * by every list of 100 items or more: a paginated list pays them once a page. Anything
 * Koa would answer otherwise (HEAD, a response already ended) is left to Koa.
 */
export function sendBatchedBody(ctx: Context): void {
  const body = ctx.body as unknown;
  if (!(body instanceof BatchedBody) || !koaWouldSendBody(ctx)) return;
  ctx.respond = false;
  // Over HTTP/2 on the stream itself, so the last batch's frame ends it (http2-body.ts).
  const stream = respondOnHttp2Stream(ctx);
  const res: Writable = stream ?? (ctx.res as unknown as Writable);
  if (!stream && ctx.req.httpVersionMajor === 1) body.reuseBufferAfter(res);
  // As Koa's pipeline would, a failed write ends the response (and the body) there.
  body.sendTo(res).catch((err: Error) => {
    body.destroy(err);
    res.destroy(err);
  });
}

function drained(out: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => { out.off('drain', done); out.off('close', done); resolve(); };
    out.on('drain', done);
    out.on('close', done);
  });
}
