// Streams watch events as newline-delimited JSON documents {type, object}. Selectors
// are applied per event, with objects moving in and out of the selection reported as
// ADDED and DELETED, as upstream's cache watcher does. Bookmarks carry the newest
// revision up to which every change was sent (from etcd progress notifications), about
// once a minute and once more before the stream ends on its timeout.
import { isFiltering, matcherFor } from '../../registry/generic/predicate.js';
import { validateResourceVersionFormat } from './list.js';
import { parseListQuery, type ListQuery } from './query.js';
import { chooseMedia } from './response.js';
import { protobufWatchContentType } from '../../runtime/serializer/protobuf/watch.js';
import type { HandlerScope } from './scope.js';
import type { ServerLifecycle } from '../request/lifecycle.js';
import { selectionFor } from './selectors.js';
import { errors, type FieldError } from '../../runtime/errors.js';
import { isHTTP2 } from '../../util/net/connection.js';
import { SelfWrittenBody, setSelfWrittenBody } from '../responsewriters/self-written-body.js';
import { WatchResponse } from './watch-response.js';

/** Upstream's --min-request-timeout default: watches end after 1x to 2x this. */
let minRequestTimeoutSeconds = 1800;
export function setMinRequestTimeout(seconds: number): void {
  minRequestTimeoutSeconds = seconds;
}

/** Upstream's cache watcher sends a bookmark about once a minute. */
let bookmarkIntervalMs = 60_000;
/** Tests shorten the bookmark period; production keeps upstream's minute. */
export function setBookmarkInterval(ms: number): void {
  bookmarkIntervalMs = ms;
}

const legacyWatchWarning = (item: boolean) => `299 - "${item
  ? "watch of a single object through the /watch/ path is deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter"
  : "the /watch/ path prefix is deprecated: use the 'watch' parameter with a list operation instead"}"`;

/** The refusals for watch options, as upstream's validateWatchOptions. */
export function validateWatchOptions(q: ListQuery): void {
  const errs: FieldError[] = [];
  const match = q.resourceVersionMatch ?? '';
  if (q.sendInitialEvents !== undefined && match !== 'NotOlderThan') {
    errs.push({ type: 'FieldValueForbidden', field: 'resourceVersionMatch',
      detail: 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan' });
  }
  if (match !== '') {
    if (q.sendInitialEvents === undefined) {
      errs.push({ type: 'FieldValueForbidden', field: 'resourceVersionMatch',
        detail: 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided' });
    }
    if (match !== 'NotOlderThan') {
      errs.push({ type: 'FieldValueNotSupported', field: 'resourceVersionMatch', value: match,
        detail: 'supported values: "NotOlderThan"' });
    }
    if (q.continue) {
      errs.push({ type: 'FieldValueForbidden', field: 'resourceVersionMatch',
        detail: 'resourceVersionMatch is forbidden when continue is provided' });
    }
  }
  if (errs.length > 0) throw errors.invalid('meta.k8s.io', 'ListOptions', '', errs);
  validateResourceVersionFormat(q.resourceVersion);
}

export async function watchHandler(h: HandlerScope): Promise<void> {
  const q = parseListQuery(h.query);
  validateWatchOptions(q);
  const name = h.info.name;
  const selection = selectionFor(h.def, q, name || undefined);
  const media = chooseMedia(h);
  const rv = q.resourceVersion ?? '';
  // Unset: legacy semantics, the current state first unless resuming from a revision.
  const sendInitial = q.sendInitialEvents ?? (rv === '' || rv === '0');
  const stream = await h.store.watch(h.info.namespace, name, rv, sendInitial, selection);

  // Frames go straight to the response: a stream in between cost a transform and a pipe
  // hop per event and watcher. Koa (and the filters that tell a stream by its body) still
  // see a stream body, one that writes nothing itself and ends when the watch does.
  const body = new SelfWrittenBody();
  h.ctx.status = 200;
  h.ctx.set('Content-Type', media.format === 'protobuf' ? protobufWatchContentType
    : media.transform === 'Table' ? 'application/json' : media.contentType);
  // HTTP/2 frames the body itself and forbids the header.
  if (!isHTTP2(h.ctx.req)) h.ctx.set('Transfer-Encoding', 'chunked');
  h.ctx.set('Cache-Control', 'no-cache, private');
  if (h.info.legacyWatchPrefix) h.ctx.set('Warning', legacyWatchWarning(Boolean(name)));
  setSelfWrittenBody(h.ctx, body);
  // Clients wait for the response head before reading events: send it now.
  h.ctx.flushHeaders();

  // The handler returns now; the response streams until the watch ends it.
  new WatchResponse(h.ctx.req, h.ctx.res, body, stream, {
    store: h.store,
    def: h.def,
    media,
    // Without a selector every object matches: no typed view to make per event and watcher.
    matches: isFiltering(selection) ? matcherFor(h.def, selection) : undefined,
    bookmarks: q.allowWatchBookmarks === true,
    streamingList: q.sendInitialEvents === true,
    sendInitial,
    // Resuming from a revision: every change up to it is known to the client already, so a
    // bookmark may carry it even before any event or progress notification arrives.
    resumedFrom: !sendInitial && /^\d+$/.test(rv) ? Number(rv) : 0,
    timeoutMs: (q.timeoutSeconds && q.timeoutSeconds > 0 ? q.timeoutSeconds : minRequestTimeoutSeconds * (1 + Math.random())) * 1000,
    bookmarkIntervalMs,
    lifecycle: h.ctx.state.lifecycle as ServerLifecycle | undefined,
  }).start();
}
