// Streams watch events as newline-delimited JSON documents {type, object}. Selectors
// are applied per event, with objects moving in and out of the selection reported as
// ADDED and DELETED, as upstream's cache watcher does. Bookmarks carry the newest
// revision up to which every change was sent (from etcd progress notifications), about
// once a minute and once more before the stream ends on its timeout.
import type { KubeObject } from '../../runtime/object.js';
import { isFiltering, matcherFor } from '../../registry/generic/predicate.js';
import type { WatchEvent } from '../../storage/interfaces.js';
import { initialEventsEndAnnotation } from '../../storage/etcd/watch.js';
import { validateResourceVersionFormat } from './list.js';
import { parseListQuery, type ListQuery } from './query.js';
import { chooseMedia, serialize } from './response.js';
import { encodeWatchFrame, protobufWatchContentType } from '../../runtime/serializer/protobuf/watch.js';
import type { HandlerScope } from './scope.js';
import type { ServerLifecycle } from '../request/lifecycle.js';
import { apiserverMetrics } from '../metrics/metrics.js';
import { selectionFor } from './selectors.js';
import { partialObjectMetadata, toTable } from './table.js';
import { errors, isStatusError, type FieldError } from '../../runtime/errors.js';
import { isHTTP2, unsentBytes } from '../../util/net/connection.js';
import { WatchFrameWriter } from '../responsewriters/watch-frames.js';
import { SelfWrittenBody, setSelfWrittenBody } from '../responsewriters/self-written-body.js';
import { SharedFrames } from './watch-shared-frames.js';

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

/**
 * Upstream's cacher closes a watcher that cannot keep up ("Forcing watch close due to
 * unresponsiveness") instead of queueing for it without end: here, a stream whose unread
 * output stays above this many bytes for this long is cut off. A client that reads, even a
 * big initial burst, stays under it or drains it well within the grace period.
 */
const maxUnreadWatchBytes = 16 * 1024 * 1024;
const unresponsiveWatcherMs = 5_000;

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
  const matches = matcherFor(h.def, selection);
  const filtering = isFiltering(selection);
  const media = chooseMedia(h);
  const rv = q.resourceVersion ?? '';
  // Unset: legacy semantics, the current state first unless resuming from a revision.
  const sendInitial = q.sendInitialEvents ?? (rv === '' || rv === '0');
  const stream = await h.store.watch(h.info.namespace, name, rv, sendInitial, selection);

  // Frames go straight to the response: a stream in between cost a transform and a pipe
  // hop per event and watcher. Koa (and the filters that tell a stream by its body) still
  // see a stream body, one that writes nothing itself and ends when the watch does.
  const out = h.ctx.res;
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

  const timeoutMs = (q.timeoutSeconds && q.timeoutSeconds > 0 ? q.timeoutSeconds
    : minRequestTimeoutSeconds * (1 + Math.random())) * 1000;
  const apiVersion = h.store.decorate({ metadata: {} }).apiVersion;
  // Resuming from a revision: every change up to it is known to the client already, so a
  // bookmark may carry it even before any event or progress notification arrives.
  let lastRV = !sendInitial && /^\d+$/.test(rv) ? Number(rv) : 0;
  // Bookmarks before the initial state is complete would claim more than was sent.
  let initialDone = !sendInitial;
  let firstTable = true;
  let ended = false;

  const encodeObject = (obj: KubeObject): unknown => {
    const decorated = h.store.decorate(obj);
    switch (media.transform) {
      case 'Table': {
        const t = toTable(h.def, decorated, media.transformVersion, 'Metadata', firstTable);
        firstTable = false;
        return t;
      }
      case 'PartialObjectMetadata':
      case 'PartialObjectMetadataList':
        return partialObjectMetadata(decorated, media.transformVersion);
      default:
        return decorated;
    }
  };
  const watchLabels = { group: h.def.group, version: h.def.version, kind: h.def.kind };
  const metrics = apiserverMetrics();
  metrics.registeredWatchers.inc(watchLabels);
  let overSince: number | undefined;
  let cutOff = (): void => undefined;
  let finishNow = (): void => undefined;
  const unread = (): number => unsentBytes(h.ctx.req, out);
  // Checked again after the grace period even if no event comes, so the queue is dropped in time.
  const stillStalled = (): void => {
    if (overSince === undefined || ended) return;
    if (unread() <= maxUnreadWatchBytes) overSince = undefined;
    else if (Date.now() - overSince >= unresponsiveWatcherMs) cutOff();
    else setTimeout(stillStalled, unresponsiveWatcherMs).unref();
  };
  const http1 = !isHTTP2(h.ctx.req);
  // Per frame and watcher: the series is found once per watch, not on every observation.
  const observeSize = metrics.watchEventSizes.bound(watchLabels);
  const writer = new WatchFrameWriter(out, http1, (n) => {
    metrics.watchEvents.inc(watchLabels, n);
    if (unread() <= maxUnreadWatchBytes) overSince = undefined;
    else if (overSince === undefined) {
      overSince = Date.now();
      setTimeout(stillStalled, unresponsiveWatcherMs).unref();
    } else if (Date.now() - overSince >= unresponsiveWatcherMs) cutOff();
  }, () => finishNow());
  /**
   * `chunk`: `f` framed as an HTTP/1.1 chunk already (shared by every watcher of the event).
   * A response ended by anything but finish() (its 'close' comes later) is found by the
   * writer when the burst is due, which then drops the frames and ends the watch.
   */
  const write = (f: string | Buffer, chunk?: Buffer) => {
    observeSize(typeof f === 'string' ? Buffer.byteLength(f) : f.length);
    writer.add(f, chunk);
  };
  const frame = (type: string, object: unknown): string | Buffer => (media.format === 'protobuf'
    ? encodeWatchFrame(type, object as Record<string, unknown>)
    : serialize({ ...media, format: 'json', pretty: false }, { type, object }));
  const send = (type: string, object: unknown) => {
    if (!ended) write(frame(type, object));
  };
  // Watchers of one resource share the cache's event objects: a frame encoded for one is
  // reused by every other watcher of the same version and format (upstream's cacher
  // encodes each event once per format too).
  const shared = SharedFrames.of(`${media.format}|${apiVersion}`);
  // Once per watch rather than per event: neither a closure per frame nor a read of `media`.
  const transformed = media.transform !== 'none';
  const encodeFrame = (type: string, object: KubeObject): string | Buffer => frame(type, encodeObject(object));
  const sendObject = (type: string, object: KubeObject) => {
    if (ended) return;
    if (transformed) { write(encodeFrame(type, object)); return; }
    const f = shared.frame(type, object, encodeFrame);
    write(f, http1 ? shared.chunk(type, object) : undefined);
  };
  const bookmarkObject = (annotations?: Record<string, string>): unknown => {
    const metadata: Record<string, unknown> = { resourceVersion: String(lastRV) };
    if (annotations) metadata.annotations = annotations;
    switch (media.transform) {
      case 'Table':
        return { kind: 'Table', apiVersion: `meta.k8s.io/${media.transformVersion}`, metadata, rows: [] };
      case 'PartialObjectMetadata':
      case 'PartialObjectMetadataList':
        return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${media.transformVersion}`, metadata };
      default:
        return { kind: h.def.kind, apiVersion, metadata };
    }
  };
  const periodicBookmark = () => {
    if (q.allowWatchBookmarks && initialDone && lastRV > 0) send('BOOKMARK', bookmarkObject());
  };
  const advance = (rvString: string | undefined) => {
    const n = Number(rvString);
    if (Number.isFinite(n) && n > lastRV) lastRV = n;
  };

  function emit(ev: WatchEvent): void {
    if (ev.type === 'ERROR') { send('ERROR', ev.object); return; }
    if (ev.type === 'BOOKMARK') {
      advance(ev.object.metadata.resourceVersion);
      if (ev.object.metadata.annotations?.[initialEventsEndAnnotation] === 'true') {
        initialDone = true;
        // Only streaming-list clients asked for the end marker of the initial state.
        if (q.sendInitialEvents === true) send('BOOKMARK', bookmarkObject({ [initialEventsEndAnnotation]: 'true' }));
      }
      return;
    }
    if (initialDone) advance(ev.object.metadata.resourceVersion);
    // Without a selector every object matches: no typed view to make per event and watcher.
    const now = filtering ? matches(h.store.decorate(ev.object)) : true;
    const before = ev.previous ? !filtering || matches(h.store.decorate(ev.previous)) : false;
    if (ev.type === 'ADDED') { if (now) sendObject('ADDED', ev.object); return; }
    if (ev.type === 'DELETED') { if (before || now) sendObject('DELETED', ev.object); return; }
    if (now && before) sendObject('MODIFIED', ev.object);
    else if (now) sendObject('ADDED', ev.object);
    else if (before) {
      // Leaving the selection: the previous content, at the revision of the change.
      const prev = structuredClone(ev.previous!);
      prev.metadata.resourceVersion = ev.object.metadata.resourceVersion;
      send('DELETED', encodeObject(prev));
    }
  }

  // The handler returns now and Koa pipes `out`; the stream lives until one of these ends it.
  {
    const lifecycle = h.ctx.state.lifecycle as ServerLifecycle | undefined;
    const finish = () => {
      if (ended) return;
      // First: stopping the stream ends a listened one, which calls back here.
      ended = true;
      untrack();
      metrics.registeredWatchers.dec(watchLabels);
      stream.stop();
      clearTimeout(timer);
      clearInterval(ticker);
      // What this burst queued goes before the end (the last bookmark, an ERROR).
      writer.flush();
      body.end(out);
    };
    // A replica shutting down ends the stream as its timeout would: cleanly, after a bookmark.
    const untrack = lifecycle?.trackWatch(() => { periodicBookmark(); finish(); }) ?? (() => undefined);
    const timer = setTimeout(() => { periodicBookmark(); finish(); }, timeoutMs);
    const ticker = setInterval(periodicBookmark, bookmarkIntervalMs);
    // The response closes when the client goes away (IncomingMessage 'close' fires as
    // soon as the request is read, so it cannot tell).
    h.ctx.res.on('close', finish);
    out.on('close', finish);
    // An unhandled 'error' on a response would take the whole process down.
    out.on('error', finish);
    finishNow = finish;
    cutOff = () => {
      finish();
      // What is queued for the client is dropped with its connection.
      h.ctx.res.destroy();
    };
    // A typed failure (a custom resource's conversion webhook) keeps its own Status.
    const failed = (err: unknown) => send('ERROR', (isStatusError(err) ? err : errors.internal(err)).toStatus());
    if (stream.listen) {
      // Called in the watch cache's fan-out: a failure here must end this watch only.
      stream.listen((ev) => {
        if (ended) return;
        try {
          emit(ev);
        } catch (err) {
          failed(err);
          finish();
          return;
        }
        if (ev.type === 'ERROR') finish();
      }, finish);
    } else {
      void (async () => {
        try {
          for await (const ev of stream) {
            if (ended) break;
            emit(ev);
            if (ev.type === 'ERROR') break;
          }
        } catch (err) {
          failed(err);
        }
        finish();
      })();
    }
  }
}
