import { expect } from 'chai';
import { Informer } from './informer.js';
import { AsyncQueue } from '../util/async-queue.js';
import type { KubeObject } from '../runtime/object.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { WatchEvent, WatchStream } from '../storage/interfaces.js';

const cm = (name: string, rv: number): KubeObject => ({ metadata: { name, namespace: 'ns', resourceVersion: String(rv) } });

/** A store whose lists answer `listed` and whose watches are queues the test pushes to. */
function fakeStore(listed: KubeObject[], listen: boolean) {
  const watches: AsyncQueue<WatchEvent>[] = [];
  let lists = 0;
  const store = {
    async list() { lists++; return { items: listed, metadata: { resourceVersion: '1' } }; },
    async watch(): Promise<WatchStream> {
      const q = new AsyncQueue<WatchEvent>();
      watches.push(q);
      const stream: WatchStream = { stop: () => q.close(), [Symbol.asyncIterator]: () => q[Symbol.asyncIterator]() };
      if (listen) stream.listen = (sink) => q.listen(sink);
      return stream;
    },
    decorate: (o: KubeObject) => ({ apiVersion: 'v1', kind: 'ConfigMap', ...o }),
  };
  return { store: store as unknown as GenericStore, watches, lists: () => lists };
}

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).to.equal(true);
};

for (const listen of [true, false]) {
  describe(`Informer over a watch ${listen ? 'that hands events over (listen)' : 'it iterates'}`, () => {
    it('tells handlers every change in order (a delete with the event\'s final state), a failing handler none the worse, and relists after an ERROR', async () => {
      const f = fakeStore([cm('a', 1)], listen);
      const inf = new Informer(f.store);
      const seen: string[] = [];
      inf.addHandlers({ add: () => { throw new Error('a handler bug'); } });
      inf.addHandlers({
        add: (o) => seen.push(`add ${o.metadata.name}`),
        update: (o, old) => seen.push(`update ${o.metadata.name} ${old.metadata.resourceVersion}->${o.metadata.resourceVersion}`),
        delete: (o) => seen.push(`delete ${o.metadata.name} ${o.metadata.resourceVersion}`),
      });
      inf.start();
      await until(() => f.watches.length === 1);
      const w = f.watches[0]!;
      w.push({ type: 'ADDED', object: cm('b', 2) });
      w.push({ type: 'MODIFIED', object: cm('a', 3) });
      w.push({ type: 'BOOKMARK', object: cm('', 4) });
      w.push({ type: 'DELETED', object: cm('b', 5) });
      await until(() => seen.length === 4);
      expect(seen).to.deep.equal(['add a', 'add b', 'update a 1->3', 'delete b 5']);
      expect(inf.resourceVersion).to.equal('5');
      expect(inf.get('ns', 'a')?.kind).to.equal('ConfigMap');
      w.push({ type: 'ERROR', object: cm('', 0) });
      await until(() => f.watches.length === 2);
      expect(w.isClosed).to.equal(true);
      expect(f.lists()).to.equal(2);
      inf.stop();
      expect(f.watches[1]!.isClosed).to.equal(true);
    });
  });
}
