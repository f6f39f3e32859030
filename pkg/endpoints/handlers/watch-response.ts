// One watch's response while it streams: the events of its storage stream, selected and
// encoded, written as frames; bookmarks about once a minute and once more before the
// stream ends on its timeout; the stream cut off when its client stops reading.
//
// One instance with prototype methods per watch, with no closure of its own: the storage
// stream hands it events as their sink, its frame writer reports to it, the shared
// deadlines fire it, and its response's 'close' and 'error' find it through the response.
// A replica at 1,000 nodes holds about 11,000 watches for their whole lives, and each of
// their objects is marked again by every major GC: as closures over one handler scope a
// watch was about 25 functions, their contexts and two Timeouts, and it kept the request's
// handler scope (its query, parsed and raw) alive; this keeps what it reads.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeObject } from '../../runtime/object.js';
import type { WatchEvent, WatchStream } from '../../storage/interfaces.js';
import type { Sink } from '../../util/async-queue.js';
import type { GenericStore } from '../../registry/generic/store.js';
import type { ResourceDef } from '../../registry/rest/resource.js';
import type { MediaChoice } from '../negotiation/media.js';
import type { ServerLifecycle, TrackedWatch } from '../request/lifecycle.js';
import { initialEventsEndAnnotation } from '../../storage/etcd/watch.js';
import { serialize } from './response.js';
import { encodeWatchFrame } from '../../runtime/serializer/protobuf/watch.js';
import { apiserverMetrics } from '../metrics/metrics.js';
import { partialObjectMetadata, toTable } from './table.js';
import { errors, isStatusError } from '../../runtime/errors.js';
import { isHTTP2, responseOver, unsentBytes } from '../../util/net/connection.js';
import { WatchFrameWriter, type FrameWriterOwner } from '../responsewriters/watch-frames.js';
import type { SelfWrittenBody } from '../responsewriters/self-written-body.js';
import { SharedFrames, type FrameEncoder } from './watch-shared-frames.js';
import { Deadlines, type Timed } from './watch-deadlines.js';
import { sharedRecord } from '../../util/shared-records.js';

/**
 * Upstream's cacher closes a watcher that cannot keep up ("Forcing watch close due to
 * unresponsiveness") instead of queueing for it without end: here, a stream whose unread
 * output stays above this many bytes for this long is cut off. A client that reads, even a
 * big initial burst, stays under it or drains it well within the grace period.
 */
const maxUnreadWatchBytes = 16 * 1024 * 1024;
const unresponsiveWatcherMs = 5_000;

/** The media watches negotiated, one object per distinct choice (sharedRecord). */
const sharedMedia = new Map<string, MediaChoice>();
/** Every watch's next bookmark or end, on one timer. */
const deadlines = new Deadlines();

/** A resource's watch metric labels and its bound event-size observer, shared by its watches. */
interface ResourceMetrics { labels: { group: string; version: string; kind: string }; observeSize: (bytes: number) => void }
const metricsByDef = new WeakMap<ResourceDef, ResourceMetrics>();
function resourceMetrics(def: ResourceDef): ResourceMetrics {
  let m = metricsByDef.get(def);
  if (!m) {
    const labels = { group: def.group, version: def.version, kind: def.kind };
    m = { labels, observeSize: apiserverMetrics().watchEventSizes.bound(labels) };
    metricsByDef.set(def, m);
  }
  return m;
}

/** The response's watch, for the listeners every watched response shares. */
const watchOf = Symbol('watch');
type WatchedResponse = ServerResponse & { [watchOf]?: WatchResponse };
// `this` is the response: one pair of functions for every watch, not a closure each.
function responseGone(this: WatchedResponse): void { this[watchOf]?.finish(); }

export interface WatchSettings {
  store: GenericStore;
  def: ResourceDef;
  media: MediaChoice;
  /** undefined: every object is selected (no typed view made per event). */
  matches?: (obj: KubeObject) => boolean;
  bookmarks: boolean;
  /** The client asked for sendInitialEvents=true (a streaming list): it gets the end marker. */
  streamingList: boolean;
  /** Initial events come first: no bookmark before their end marker. */
  sendInitial: boolean;
  /** Resuming from this revision: a bookmark may carry it before any event arrives (0: none). */
  resumedFrom: number;
  timeoutMs: number;
  bookmarkIntervalMs: number;
  lifecycle?: ServerLifecycle;
}

export class WatchResponse implements Sink<WatchEvent>, FrameWriterOwner, FrameEncoder<KubeObject>, Timed, TrackedWatch {
  private readonly store: GenericStore;
  private readonly def: ResourceDef;
  private readonly media: MediaChoice;
  private readonly matches?: (obj: KubeObject) => boolean;
  private readonly bookmarks: boolean;
  private readonly streamingList: boolean;
  private readonly lifecycle?: ServerLifecycle;
  private readonly metrics: ResourceMetrics;
  private readonly apiVersion: string;
  private readonly writer: WatchFrameWriter;
  private readonly shared: SharedFrames;
  private readonly http1: boolean;
  private lastRV: number;
  private initialDone: boolean;
  private firstTable = true;
  private ended = false;
  private overSince: number | undefined;
  private readonly endsAt: number;
  private readonly bookmarkIntervalMs: number;
  private nextBookmarkAt: number;
  due: number;
  heapIndex = -1;

  constructor(private readonly req: IncomingMessage, private readonly out: ServerResponse, private readonly body: SelfWrittenBody,
    private readonly stream: WatchStream, s: WatchSettings) {
    this.store = s.store;
    this.def = s.def;
    this.media = sharedRecord(sharedMedia, s.media);
    this.matches = s.matches;
    this.bookmarks = s.bookmarks;
    this.streamingList = s.streamingList;
    this.lifecycle = s.lifecycle;
    this.metrics = resourceMetrics(s.def);
    this.apiVersion = s.store.decorate({ metadata: {} }).apiVersion as string;
    this.http1 = !isHTTP2(req);
    this.writer = new WatchFrameWriter(out, this.http1, this);
    // Watchers of one resource share the cache's event objects: a frame encoded for one is
    // reused by every other watcher of the same version and format (upstream's cacher
    // encodes each event once per format too).
    this.shared = SharedFrames.of(`${s.media.format}|${this.apiVersion}`);
    this.lastRV = s.resumedFrom;
    this.initialDone = !s.sendInitial;
    // Whole milliseconds: a field that only ever holds small integers stores them in the
    // object, where fractions would make each a heap number of its own (three objects a
    // watch, marked at every major GC). Past 24 days of uptime they are boxed again.
    const now = Math.ceil(performance.now());
    this.endsAt = now + Math.ceil(s.timeoutMs);
    this.bookmarkIntervalMs = Math.ceil(s.bookmarkIntervalMs);
    this.nextBookmarkAt = now + this.bookmarkIntervalMs;
    this.due = Math.min(this.endsAt, this.nextBookmarkAt);
  }

  /** Streams until the client leaves, the stream ends, its timeout or the replica's shutdown. */
  start(): void {
    apiserverMetrics().registeredWatchers.inc(this.metrics.labels);
    deadlines.add(this);
    this.lifecycle?.trackWatch(this);
    // The response closes when the client goes away (IncomingMessage 'close' fires as
    // soon as the request is read, so it cannot tell); an unhandled 'error' on a response
    // would take the whole process down.
    (this.out as WatchedResponse)[watchOf] = this;
    this.out.on('close', responseGone);
    this.out.on('error', responseGone);
    if (this.stream.listen) this.stream.listen(this);
    else void this.iterate();
    // A client gone while the watch was being set up: its 'close' came before the listener.
    if (responseOver(this.out)) this.finish();
  }

  /** The shared timer's call: a bookmark now and then, a last one and the end at the timeout. */
  fire(now: number): void {
    if (this.ended) return;
    if (now >= this.endsAt) { this.endCleanly(); return; }
    this.periodicBookmark();
    while (this.nextBookmarkAt <= now) this.nextBookmarkAt += this.bookmarkIntervalMs;
    this.due = Math.min(this.endsAt, this.nextBookmarkAt);
    deadlines.add(this);
  }

  /** As at its timeout (a replica shutting down ends its watches so): a last bookmark, then the end. */
  endCleanly(): void {
    this.periodicBookmark();
    this.finish();
  }

  // Sink: called in the watch cache's fan-out, so a failure here must end this watch only.
  onItem(ev: WatchEvent): void {
    if (this.ended) return;
    try {
      this.emit(ev);
    } catch (err) {
      this.failed(err);
      this.finish();
      return;
    }
    if (ev.type === 'ERROR') this.finish();
  }

  onEnd(): void { this.finish(); }

  private async iterate(): Promise<void> {
    try {
      for await (const ev of this.stream) {
        if (this.ended) break;
        this.emit(ev);
        if (ev.type === 'ERROR') break;
      }
    } catch (err) {
      this.failed(err);
    }
    this.finish();
  }

  finish(): void {
    if (this.ended) return;
    // First: stopping the stream ends a listened one, which calls back here.
    this.ended = true;
    this.lifecycle?.untrackWatch(this);
    apiserverMetrics().registeredWatchers.dec(this.metrics.labels);
    this.stream.stop();
    deadlines.remove(this);
    // What this burst queued goes before the end (the last bookmark, an ERROR).
    this.writer.flush();
    this.body.end(this.out);
  }

  /** A typed failure (a custom resource's conversion webhook) keeps its own Status. */
  private failed(err: unknown): void {
    this.send('ERROR', (isStatusError(err) ? err : errors.internal(err)).toStatus());
  }

  // FrameWriterOwner
  framesWritten(n: number): void {
    apiserverMetrics().watchEvents.inc(this.metrics.labels, n);
    if (this.unread() <= maxUnreadWatchBytes) this.overSince = undefined;
    else if (this.overSince === undefined) {
      this.overSince = Date.now();
      setTimeout(() => this.stillStalled(), unresponsiveWatcherMs).unref();
    } else if (Date.now() - this.overSince >= unresponsiveWatcherMs) this.cutOff();
  }

  writeStopped(): void { this.finish(); }

  private unread(): number { return unsentBytes(this.req, this.out); }

  /** Checked again after the grace period even if no event comes, so the queue is dropped in time. */
  private stillStalled(): void {
    if (this.overSince === undefined || this.ended) return;
    if (this.unread() <= maxUnreadWatchBytes) this.overSince = undefined;
    else if (Date.now() - this.overSince >= unresponsiveWatcherMs) this.cutOff();
    else setTimeout(() => this.stillStalled(), unresponsiveWatcherMs).unref();
  }

  private cutOff(): void {
    this.finish();
    // What is queued for the client is dropped with its connection.
    this.out.destroy();
  }

  private emit(ev: WatchEvent): void {
    if (ev.type === 'ERROR') { this.send('ERROR', ev.object); return; }
    if (ev.type === 'BOOKMARK') {
      this.advance(ev.object.metadata.resourceVersion);
      if (ev.object.metadata.annotations?.[initialEventsEndAnnotation] === 'true') {
        this.initialDone = true;
        // Only streaming-list clients asked for the end marker of the initial state.
        if (this.streamingList) this.send('BOOKMARK', this.bookmarkObject({ [initialEventsEndAnnotation]: 'true' }));
      }
      return;
    }
    if (this.initialDone) this.advance(ev.object.metadata.resourceVersion);
    const matches = this.matches;
    const now = matches ? matches(this.store.decorate(ev.object)) : true;
    const before = ev.previous ? !matches || matches(this.store.decorate(ev.previous)) : false;
    if (ev.type === 'ADDED') { if (now) this.sendObject('ADDED', ev.object); return; }
    if (ev.type === 'DELETED') { if (before || now) this.sendObject('DELETED', ev.object); return; }
    if (now && before) this.sendObject('MODIFIED', ev.object);
    else if (now) this.sendObject('ADDED', ev.object);
    else if (before) {
      // Leaving the selection: the previous content, at the revision of the change.
      const prev = structuredClone(ev.previous!);
      prev.metadata.resourceVersion = ev.object.metadata.resourceVersion;
      this.send('DELETED', this.encodeObject(prev));
    }
  }

  private advance(rvString: string | undefined): void {
    const n = Number(rvString);
    if (Number.isFinite(n) && n > this.lastRV) this.lastRV = n;
  }

  private periodicBookmark(): void {
    if (this.bookmarks && this.initialDone && this.lastRV > 0) this.send('BOOKMARK', this.bookmarkObject());
  }

  /**
   * `chunk`: `f` framed as an HTTP/1.1 chunk already (shared by every watcher of the event).
   * A response ended by anything but finish() (its 'close' comes later) is found by the
   * writer when the burst is due, which then drops the frames and ends the watch.
   */
  private write(f: string | Buffer, chunk?: Buffer): void {
    this.metrics.observeSize(typeof f === 'string' ? Buffer.byteLength(f) : f.length);
    this.writer.add(f, chunk);
  }

  private send(type: string, object: unknown): void {
    if (!this.ended) this.write(this.frame(type, object));
  }

  private sendObject(type: string, object: KubeObject): void {
    if (this.ended) return;
    if (this.media.transform !== 'none') { this.write(this.encodeFrame(type, object)); return; }
    const f = this.shared.frame(type, object, this);
    this.write(f, this.http1 ? this.shared.chunk(type, object) : undefined);
  }

  // FrameEncoder: the frame of `object` as an event of `type`, for this watch's media.
  encodeFrame(type: string, object: KubeObject): string | Buffer {
    return this.frame(type, this.encodeObject(object));
  }

  private frame(type: string, object: unknown): string | Buffer {
    return this.media.format === 'protobuf'
      ? encodeWatchFrame(type, object as Record<string, unknown>)
      : serialize({ ...this.media, format: 'json', pretty: false }, { type, object });
  }

  private encodeObject(obj: KubeObject): unknown {
    const decorated = this.store.decorate(obj);
    switch (this.media.transform) {
      case 'Table': {
        const t = toTable(this.def, decorated, this.media.transformVersion, 'Metadata', this.firstTable);
        this.firstTable = false;
        return t;
      }
      case 'PartialObjectMetadata':
      case 'PartialObjectMetadataList':
        return partialObjectMetadata(decorated, this.media.transformVersion);
      default:
        return decorated;
    }
  }

  private bookmarkObject(annotations?: Record<string, string>): unknown {
    const metadata: Record<string, unknown> = { resourceVersion: String(this.lastRV) };
    if (annotations) metadata.annotations = annotations;
    switch (this.media.transform) {
      case 'Table':
        return { kind: 'Table', apiVersion: `meta.k8s.io/${this.media.transformVersion}`, metadata, rows: [] };
      case 'PartialObjectMetadata':
      case 'PartialObjectMetadataList':
        return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${this.media.transformVersion}`, metadata };
      default:
        return { kind: this.def.kind, apiVersion: this.apiVersion, metadata };
    }
  }
}
