// The next page of a paginated list, read and encoded while the client is still reading
// this one. A continue token names its page exactly (a revision and a first key), and at
// that revision the page's objects never change, so the bytes made ahead are the bytes the
// request would get. What cannot be known ahead, whether etcd has compacted that revision
// by the time the client asks, is asked once it does, as for every continue page. Without
// this a page's reading and encoding (about 1 ms at 500 objects) waited for the client's
// request, and the client waited for it: twenty times for a list of 10,000.
// Bounded: at most maxPages pages wait, each dropped once taken or after keepMs; only pages
// the watch cache holds are read ahead (never etcd), and no Table (its ages follow the clock).
import type { Context } from 'koa';
import type { KubeList } from '../../runtime/object.js';
import type { ListParams } from '../../registry/generic/store.js';
import type { HandlerScope } from './scope.js';
import { chooseMedia, encodeList, joinedList, type EncodedList } from './response.js';

const maxPages = 32;
const keepMs = 10_000;

interface Listed { list: KubeList; confirm: () => Promise<void>; confirmAsks: () => boolean }

/** A page read ahead: its objects first, its encoding later (a request may come between). */
export interface PageAhead {
  listed: Promise<Listed | undefined>;
  encoded: Promise<EncodedList | undefined>;
  /** etcd's word on the page, asked as its request arrived (askEarly). */
  confirmed?: Promise<void>;
  /** The page read, once it has been (listed's value). */
  read?: Listed;
  /** Starts reading now if the response before has not been seen out yet (its request is here). */
  start(): void;
}

interface Waiting { page: PageAhead; expiry: NodeJS.Timeout }

const pages = new Map<string, Waiting>();

/** Everything the response's bytes depend on: the path, the query but its token, the token, the media asked for. */
function keyOf(ctx: Context, query: URLSearchParams, token: string): string {
  return JSON.stringify([ctx.path, [...query].filter(([k]) => k !== 'continue'), token, ctx.get('accept')]);
}

/** The page read ahead for a request with continue token `token`, taken (each answers one request), or undefined. */
export function takeAhead(h: HandlerScope, token: string): PageAhead | undefined {
  const key = keyOf(h.ctx, h.query, token);
  const waiting = pages.get(key);
  if (!waiting) return undefined;
  pages.delete(key);
  // The expiry timer holds the page (500 objects and their encoding) for its 10 s: left
  // running, every page taken outlived a few young collections and was promoted to the
  // old generation (about 2 MB per scavenge while a client paged).
  clearTimeout(waiting.expiry);
  waiting.page.start();
  return waiting.page;
}

/**
 * As a request arrives, before the filters run: when its page was read ahead, asks etcd
 * about it now, so the round trip overlaps authentication, authorization and the rest
 * (the question is still sent after the page was asked for). The handler decides, as
 * for any request, whether the page is answered at all. True when a question went to
 * etcd: it leaves once the event loop turns, which the caller lets it do before the
 * filters run. False when nothing was asked: compaction known from the compactors' key
 * (as on every continue page while that watch holds), or the page still being read (its
 * question, if any, leaves when the read is done, not in that turn); a turn then only
 * delayed the request (0.06-0.1 ms a page, or the rest of a read ahead run first).
 */
export function askEarly(ctx: Context): boolean {
  if (pages.size === 0 || ctx.method !== 'GET' || !ctx.querystring.includes('continue=')) return false;
  const query = new URLSearchParams(ctx.querystring);
  const token = query.get('continue');
  const ahead = token ? pages.get(keyOf(ctx, query, token))?.page : undefined;
  if (!ahead || ahead.confirmed) return false;
  ahead.start();
  ahead.confirmed = ahead.listed.then((l) => l?.confirm());
  ahead.confirmed.catch(() => undefined);
  return ahead.read?.confirmAsks() === true;
}

/**
 * Once this response has gone out, reads and encodes the page `token` names, for the
 * request that will ask for it. `params`: this request's, whose next page it is.
 * `adjust`: what the handler does to every list before encoding it.
 */
export function readAhead(h: HandlerScope, params: ListParams, token: string, adjust: (list: KubeList) => void): void {
  if (chooseMedia(h).transform !== 'none' || pages.size >= maxPages) return;
  const key = keyOf(h.ctx, h.query, token);
  if (pages.has(key)) return;
  let start!: (sent: boolean) => void;
  const gate = new Promise<boolean>((resolve) => { start = resolve; });
  void responseSent(h.ctx).then(start);
  const listed = gate.then(async (sent) => {
    const ahead = sent ? await h.store.listAhead(h.info.namespace, { ...params, continue: token }) : undefined;
    if (ahead) adjust(ahead.list);
    return ahead;
  }).catch(() => undefined);
  const encoded = listed.then(async (l) => (l ? joinedList(await encodeList(h, l.list)) : undefined)).catch(() => undefined);
  const page: PageAhead = { listed, encoded, start: () => start(true) };
  void listed.then((l) => { page.read = l; });
  const expiry = setTimeout(() => pages.delete(key), keepMs).unref();
  pages.set(key, { page, expiry });
}

/** True once the response has been handed to the connection; false if it closed first. */
function responseSent(ctx: Context): Promise<boolean> {
  const res = ctx.res;
  if (res.writableFinished) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (): void => { res.off('close', close); resolve(true); };
    const close = (): void => { res.off('finish', finish); resolve(false); };
    res.once('finish', finish);
    res.once('close', close);
  });
}
