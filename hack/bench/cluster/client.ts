// One identity's connection to the API (see transport.ts: one HTTP/2 connection, or an
// HTTP/1.1 keep-alive pool), its TLS client certificate or token, requests timed into the
// Recorder under (resource, verb, scope), and watches as client-go's reflector keeps them:
// list, watch from the list's revision, re-watch from the last revision seen when the
// server ends the stream; after an ERROR event (410 Expired: the server no longer holds
// that revision's history) re-list from the last revision seen, unpaged, which a watch
// cache answers from memory, and from the latest revision if that list gets 410 too.
// A 429 or 5xx with Retry-After is sent again after the wait, as client-go's rest client.
import type { Recorder, Scope } from './recorder.js';
import { onLines } from '../lines.js';
import { newTransport, type Identity, type Protocol, type Transport } from './transport.js';

export type { Identity, Protocol };
export interface Reply<T = Record<string, unknown>> { status: number; body: T; retryAfter?: string; /** When the answer's headers, its last body bytes and its end reached JavaScript. */ headersAt?: number; lastDataAt?: number; endAt?: number }
export interface CallLabel { resource: string; verb: string; scope: Scope }

export interface KubeObj { metadata: { name: string; namespace?: string; resourceVersion?: string; uid?: string; deletionTimestamp?: string; [k: string]: unknown }; [k: string]: unknown }
export interface WatchHandlers {
  /** The list's objects (initially and after every re-list). */
  onList?(items: KubeObj[]): void;
  onEvent(type: string, obj: KubeObj, at: number): void;
}

const clock = (): number => performance.timeOrigin + performance.now();

export class ApiClient {
  private readonly transport: Transport;
  private stopped = false;
  private readonly watches = new Set<() => void>();

  constructor(server: string, id: Identity, private readonly rec: Recorder, readonly userAgent: string, protocol: Protocol = 'h2') {
    this.transport = newTransport(protocol, server, id);
    this.base = { Accept: 'application/json', 'User-Agent': userAgent, ...(id.token ? { Authorization: `Bearer ${id.token}` } : {}) };
  }

  /**
   * One API call as client-go's rest client makes it: a 429, or any 5xx, carrying an
   * integer Retry-After is sent again after that many seconds, at most maxRetries (10)
   * times (client-go's checkWait and withRetry). Each retried answer is counted as a retry,
   * not an error; the latency recorded is the answered attempt's, as the server's own
   * histogram would see it (the wait is the client's).
   */
  async call<T = Record<string, unknown>>(label: CallLabel, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Reply<T>> {
    for (let retries = 0; ; retries++) {
      const t0 = clock();
      const res = await this.raw(method, path, body, contentType);
      if (this.stopped) return res as Reply<T>;
      const wait = retryAfterSeconds(res);
      if (wait !== undefined && retries < maxRetries) {
        this.rec.retry(label.resource, label.verb, res.status, wait);
        await sleep(wait * 1000);
        continue;
      }
      const status = res.status;
      const message = status >= 400 && typeof res.body.message === 'string' ? res.body.message : undefined;
      // A write's result, for the watch lag of the event it causes.
      const meta = (res.body as KubeObj).metadata;
      if (method !== 'GET' && status < 300 && meta?.resourceVersion && res.body.kind !== 'Status') {
        this.rec.wrote(`${label.resource.split('/')[0]}/${meta.namespace ?? ''}/${meta.name}`, meta.resourceVersion, t0);
      }
      const now = clock();
      const { headersAt, lastDataAt, endAt } = res;
      const parts = headersAt !== undefined && endAt !== undefined
        ? { tail: endAt - headersAt, end: endAt - (lastDataAt ?? headersAt), own: now - endAt } : undefined;
      this.rec.call(label.resource, label.verb, label.scope, now - t0, status, message, parts);
      return res as Reply<T>;
    }
  }

  /** A read that is the generator's own bookkeeping (waiting for set-up), not part of the load. */
  unrecorded(path: string): Promise<Reply> {
    return this.raw('GET', path, undefined, 'application/json');
  }

  /** Every request's own headers, made once (a request without a body sends this object itself). */
  private readonly base: Record<string, string>;

  private headers(): Record<string, string> {
    return this.base;
  }

  private raw(method: string, path: string, body: unknown, contentType: string): Promise<Reply> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const headers = payload ? { ...this.base, 'Content-Type': contentType, 'Content-Length': String(payload.length) } : this.base;
    return new Promise<Reply>((resolve) => {
      this.transport.send(method, path, headers, payload, 60_000, (status, res, retryAfter) => {
        const headersAt = clock();
        const chunks: Buffer[] = [];
        let lastDataAt: number | undefined;
        res.on('data', (c: Buffer) => { chunks.push(c); lastDataAt = clock(); });
        res.on('end', () => {
          const endAt = clock();
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: Record<string, unknown> = {};
          try { parsed = text ? JSON.parse(text) as Record<string, unknown> : {}; } catch { parsed = { text }; }
          resolve({ status, body: parsed, retryAfter, headersAt, lastDataAt, endAt });
        });
        res.on('error', () => resolve({ status: 0, body: {} }));
        // Cut before its end (a reset stream ends without 'end' or 'error'); after 'end' this changes nothing.
        res.on('close', () => resolve({ status: 0, body: {} }));
      }, () => resolve({ status: 0, body: {} }));
    });
  }

  /**
   * A reflector on `collection` (a path, query allowed): list (resourceVersion=0 as
   * client-go's first list), then watch from the list's revision, forever until stopped.
   * Every ERROR event ending a watch is counted (Recorder.watchError).
   */
  reflect(collection: string, label: Omit<CallLabel, 'verb'>, h: WatchHandlers): () => void {
    let current: (() => void) | undefined;
    let stop = false;
    const sep = collection.includes('?') ? '&' : '?';
    const loop = async (): Promise<void> => {
      let listFrom = '0';
      while (!stop && !this.stopped) {
        const listed = await this.listOnce(`${collection}${sep}resourceVersion=${listFrom}`, label, h);
        // client-go: a revision the server no longer has is dropped for a consistent list.
        if (listed === 410) { listFrom = ''; continue; }
        if (typeof listed === 'number') { await sleep(1000); continue; }
        let rv = listed;
        for (;;) {
          if (stop || this.stopped) return;
          let pause = 100;
          const end = await new Promise<'gone' | 'ended'>((resolve) => {
            current = this.streamWatch(`${collection}${sep}watch=1&allowWatchBookmarks=true&resourceVersion=${rv}&timeoutSeconds=${300 + Math.floor(Math.random() * 300)}`, (type, obj, at) => {
              if (type === 'ERROR') { this.rec.watchError(label.resource, obj as { code?: number }); resolve('gone'); return; }
              if (obj.metadata?.resourceVersion) rv = obj.metadata.resourceVersion;
              if (type !== 'BOOKMARK') h.onEvent(type, obj, at);
            }, (waitMs) => { if (waitMs !== undefined) pause = waitMs; resolve('ended'); });
          });
          if (end === 'gone') {
            listFrom = rv;
            // client-go's reflector backs off 0.8-1.6 s before it lists again.
            await sleep(800 * (1 + Math.random()));
            break;
          }
          await sleep(pause);
        }
      }
    };
    void loop();
    const cancel = (): void => { stop = true; current?.(); this.watches.delete(cancel); };
    this.watches.add(cancel);
    return cancel;
  }

  /**
   * One LIST of a reflector: its revision, or the status of a failed one. Its own function
   * so that no frame of the reflector's loop holds the answer: a suspended async function
   * keeps every local of its frame, and a kube-proxy's Node list (every Node, parsed) was
   * kept for the whole run that way, about 500 MiB over 100 kube-proxies at 1,000 nodes.
   */
  private async listOnce(path: string, label: Omit<CallLabel, 'verb'>, h: WatchHandlers): Promise<string | number> {
    const list = await this.call<{ metadata: { resourceVersion: string }; items: KubeObj[] }>({ ...label, verb: 'LIST' }, 'GET', path);
    if (list.status !== 200) return list.status;
    h.onList?.(list.body.items);
    return list.body.metadata.resourceVersion;
  }

  /** `onEnd` gets the wait the server asked for when it refused the watch with Retry-After. */
  private streamWatch(path: string, onEvent: (type: string, obj: KubeObj, at: number) => void, onEnd: (waitMs?: number) => void): () => void {
    let done = false;
    let waitMs: number | undefined;
    const finish = (): void => { if (!done) { done = true; onEnd(waitMs); } };
    const cancel = this.transport.send('GET', path, this.headers(), undefined, undefined, (status, res, retryAfter) => {
      if (status !== 200) {
        // client-go's Watch retries as its other calls do (checkWait); the reflector then watches again.
        const wait = retryAfterSeconds({ status, retryAfter });
        if (wait !== undefined) { waitMs = wait * 1000; this.rec.retry('watch', 'WATCH', status, wait); } else this.rec.call('watch', 'WATCH', 'resource', 0, status);
        res.resume(); res.on('end', finish); res.on('close', finish); return;
      }
      onLines(res, clock, (line, at) => {
        if (!line.trim()) return;
        const ev = JSON.parse(line) as { type: string; object: KubeObj };
        onEvent(ev.type, ev.object, at);
      });
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
    }, finish);
    return () => { done = true; cancel(); };
  }

  close(): void {
    this.stopped = true;
    for (const w of [...this.watches]) w();
    this.transport.close();
  }
}

/** client-go's default for a rest client (rest.Config's MaxRetries unset: 10). */
const maxRetries = 10;

/** client-go's checkWait: seconds to wait before sending again, or undefined for an answer to keep. */
function retryAfterSeconds(r: { status: number; retryAfter?: string }): number | undefined {
  if (r.status !== 429 && r.status < 500) return undefined;
  if (r.retryAfter === undefined || !/^-?\d+$/.test(r.retryAfter.trim())) return undefined;
  return Math.max(0, Number(r.retryAfter));
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A collection's path narrowed by a field selector, as client-go's ListOptions sends it. */
export const withFieldSelector = (collection: string, selector: string): string => `${collection}?fieldSelector=${encodeURIComponent(selector)}`;
export { clock };
