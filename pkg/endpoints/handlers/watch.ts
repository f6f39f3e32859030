// Streams watch events as newline-delimited JSON documents {type, object}. Selectors
// are applied per event, with objects moving in and out of the selection reported as
// ADDED and DELETED, as upstream's cache watcher does.
import { PassThrough } from 'node:stream';
import type { KubeObject } from '../../runtime/object.js';
import { matcherFor } from '../../registry/generic/predicate.js';
import type { WatchEvent } from '../../storage/interfaces.js';
import { parseListQuery } from './query.js';
import { chooseMedia, serialize } from './response.js';
import type { HandlerScope } from './scope.js';
import { selectionFor } from './selectors.js';
import { toTable } from './table.js';
import { errors } from '../../runtime/errors.js';

/** Upstream's --min-request-timeout default: watches end after 1x to 2x this. */
let minRequestTimeoutSeconds = 1800;
export function setMinRequestTimeout(seconds: number): void {
  minRequestTimeoutSeconds = seconds;
}

const bookmarkIntervalMs = 60_000;

export async function watchHandler(h: HandlerScope): Promise<void> {
  const q = parseListQuery(h.query);
  const name = h.info.name;
  const selection = selectionFor(h.def, q, name || undefined);
  const matches = matcherFor(h.def, selection);
  if (q.sendInitialEvents !== undefined) {
    if (q.resourceVersionMatch !== 'NotOlderThan') {
      throw errors.invalid('meta.k8s.io', 'ListOptions', '', [{ type: 'FieldValueForbidden', field: 'resourceVersionMatch',
        detail: "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan" }]);
    }
  }
  const media = chooseMedia(h);
  const stream = await h.store.watch(h.info.namespace, '', q.resourceVersion,
    q.sendInitialEvents === true || (q.sendInitialEvents === undefined && (!q.resourceVersion || q.resourceVersion === '0')));
  const initialEventsEnd = q.sendInitialEvents === true;

  const out = new PassThrough();
  h.ctx.status = 200;
  h.ctx.type = media.transform === 'Table' ? 'application/json' : media.contentType;
  h.ctx.set('Transfer-Encoding', 'chunked');
  h.ctx.set('Cache-Control', 'no-cache, private');
  h.ctx.body = out;

  const timeoutMs = (q.timeoutSeconds && q.timeoutSeconds > 0 ? q.timeoutSeconds
    : minRequestTimeoutSeconds * (1 + Math.random())) * 1000;
  let lastRV = q.resourceVersion ?? '';
  let firstTable = true;
  const encodeObject = (obj: KubeObject): unknown => {
    if (media.transform !== 'Table') return h.store.decorate(obj);
    const t = toTable(h.def, h.store.decorate(obj), media.transformVersion, 'Metadata', firstTable);
    firstTable = false;
    return t;
  };
  const send = (type: string, object: unknown) => {
    out.write(serialize({ ...media, format: 'json', pretty: false }, { type, object }));
  };
  const bookmark = (extra?: Record<string, string>) => {
    if (!q.allowWatchBookmarks && !extra) return;
    const meta: Record<string, unknown> = { resourceVersion: lastRV };
    if (extra) meta.annotations = extra;
    send('BOOKMARK', { kind: h.def.kind, apiVersion: h.store.decorate({ metadata: {} }).apiVersion, metadata: meta });
  };

  const done = new Promise<void>((resolve) => {
    const finish = () => { stream.stop(); clearTimeout(timer); clearInterval(ticker); resolve(); };
    const timer = setTimeout(() => { bookmark(); finish(); }, timeoutMs);
    const ticker = setInterval(() => bookmark(), bookmarkIntervalMs);
    h.ctx.req.on('close', finish);
    out.on('close', finish);
    void (async () => {
      try {
        for await (const ev of stream) {
          emit(ev);
        }
      } catch (err) {
        send('ERROR', errors.internal(err).toStatus());
      }
      finish();
    })();
  });

  function emit(ev: WatchEvent): void {
    if (ev.type === 'ERROR') { send('ERROR', ev.object); return; }
    if (ev.type === 'BOOKMARK') {
      lastRV = ev.object.metadata.resourceVersion ?? lastRV;
      if (ev.object.metadata.annotations?.['k8s.io/initial-events-end'] === 'true') {
        if (initialEventsEnd) bookmark({ 'k8s.io/initial-events-end': 'true' });
      } else bookmark();
      return;
    }
    lastRV = ev.object.metadata.resourceVersion ?? lastRV;
    const now = matches(h.store.decorate(ev.object));
    const before = ev.previous ? matches(h.store.decorate(ev.previous)) : false;
    if (ev.type === 'ADDED') { if (now) send('ADDED', encodeObject(ev.object)); return; }
    if (ev.type === 'DELETED') { if (before || now) send('DELETED', encodeObject(ev.object)); return; }
    if (now && before) send('MODIFIED', encodeObject(ev.object));
    else if (now) send('ADDED', encodeObject(ev.object));
    else if (before) {
      const prev = structuredClone(ev.previous!);
      prev.metadata.resourceVersion = ev.object.metadata.resourceVersion;
      send('DELETED', encodeObject(prev));
    }
  }

  void done.then(() => out.end());
}
