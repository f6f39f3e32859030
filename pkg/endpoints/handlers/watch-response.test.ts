import { expect } from 'chai';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EventEmitter } from 'node:events';
import type { KubeObject } from '../../runtime/object.js';
import type { GenericStore } from '../../registry/generic/store.js';
import type { ResourceDef } from '../../registry/rest/resource.js';
import type { WatchEvent, WatchStream } from '../../storage/interfaces.js';
import { AsyncQueue } from '../../util/async-queue.js';
import { SelfWrittenBody } from '../responsewriters/self-written-body.js';
import { WatchResponse, type WatchSettings } from './watch-response.js';

/** A response as far as a watch uses one: writes kept, 'close' emitted when destroyed. */
class FakeResponse extends EventEmitter {
  writableEnded = false;
  writableFinished = false;
  destroyed = false;
  writableLength = 0;
  readonly written: string[] = [];
  write(b: string | Buffer): boolean { this.written.push(b.toString()); return true; }
  end(): void { this.writableEnded = true; this.writableFinished = true; this.emit('close'); }
  destroy(): void { this.destroyed = true; this.emit('close'); }
}

function setting(over: Partial<WatchSettings> = {}): WatchSettings {
  return {
    store: { decorate: (o: KubeObject) => ({ apiVersion: 'v1', kind: 'ConfigMap', ...o }) } as unknown as GenericStore,
    def: { group: '', version: 'v1', kind: 'ConfigMap' } as ResourceDef,
    media: { contentType: 'application/json', format: 'json', transform: 'none', transformVersion: '', pretty: false },
    bookmarks: true, streamingList: false, sendInitial: false, resumedFrom: 5, timeoutMs: 60_000, bookmarkIntervalMs: 60_000, ...over,
  };
}

function queueStream(): WatchStream & { queue: AsyncQueue<WatchEvent>; stopped: boolean } {
  const queue = new AsyncQueue<WatchEvent>();
  const s = {
    queue, stopped: false,
    stop() { s.stopped = true; queue.close(); },
    listen(sink: Parameters<AsyncQueue<WatchEvent>['listen']>[0]) { queue.listen(sink); },
    [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
  };
  return s;
}

const req = { httpVersionMajor: 2 } as IncomingMessage;
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));
const cm = (name: string, rv: string): KubeObject => ({ metadata: { name, namespace: 'ns', resourceVersion: rv } });

describe('pkg/endpoints/handlers/watch-response', () => {
  it('writes the events it is handed, and ends with a bookmark at its timeout', async () => {
    const out = new FakeResponse();
    const stream = queueStream();
    new WatchResponse(req, out as unknown as ServerResponse, new SelfWrittenBody(), stream, setting({ timeoutMs: 30 })).start();
    stream.queue.push({ type: 'ADDED', object: cm('a', '7') });
    await tick();
    expect(out.written.map((w) => JSON.parse(w) as { type: string })).to.deep.equal([{ type: 'ADDED', object: { apiVersion: 'v1', kind: 'ConfigMap', ...cm('a', '7') } }]);
    await new Promise((r) => setTimeout(r, 60));
    expect(out.writableEnded).to.equal(true);
    expect(stream.stopped).to.equal(true);
    expect(JSON.parse(out.written[1]!)).to.deep.equal({ type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '7' } } });
  });

  it('ends at once when its client left while it was being set up', () => {
    const out = new FakeResponse();
    out.destroyed = true;
    const stream = queueStream();
    new WatchResponse(req, out as unknown as ServerResponse, new SelfWrittenBody(), stream, setting()).start();
    expect(stream.stopped).to.equal(true);
  });

  it('ends when its response closes, and writes nothing after', async () => {
    const out = new FakeResponse();
    const stream = queueStream();
    new WatchResponse(req, out as unknown as ServerResponse, new SelfWrittenBody(), stream, setting()).start();
    out.destroy();
    expect(stream.stopped).to.equal(true);
    stream.queue.push({ type: 'ADDED', object: cm('b', '8') });
    await tick();
    expect(out.written).to.deep.equal([]);
  });
});
