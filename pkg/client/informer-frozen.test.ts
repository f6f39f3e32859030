import { expect } from 'chai';
import { Informer } from './informer.js';
import { AsyncQueue } from '../util/async-queue.js';
import type { KubeObject } from '../runtime/object.js';
import type { GenericStore } from '../registry/generic/store.js';
import type { WatchEvent, WatchStream } from '../storage/interfaces.js';
import { markShared, recordView } from '../runtime/serializer/shared-encodings.js';
import { ColdVersion } from '../storage/cacher/cold-version.js';
import { frozeAs } from '../storage/cacher/rewarm.js';

/** A shared stored object, as the watch cache holds one. */
const stored = (name: string, rv: number, v: string): KubeObject =>
  markShared({ metadata: { name, namespace: 'ns', resourceVersion: String(rv) }, data: { v } });

/** A store over shared objects whose views link to them, as GenericStore's decorate does. */
function storeOf(listed: KubeObject[]) {
  const watches: AsyncQueue<WatchEvent>[] = [];
  const decorate = (o: KubeObject) => { const view = { apiVersion: 'v1', kind: 'ConfigMap', ...o }; recordView(view, o); return view; };
  const store = {
    async list() { return { items: listed.map(decorate), metadata: { resourceVersion: '1' } }; },
    async watch(): Promise<WatchStream> {
      const q = new AsyncQueue<WatchEvent>();
      watches.push(q);
      return { stop: () => q.close(), listen: (sink) => q.listen(sink), [Symbol.asyncIterator]: () => q[Symbol.asyncIterator]() };
    },
    decorate,
  };
  return { store: store as unknown as GenericStore, watches };
}

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).to.equal(true);
};

describe('Informer: objects the watch cache froze', () => {
  it('holds their frozen form, answers reads and handlers with them decoded, and keeps what a read decoded for a while', async () => {
    const a = stored('a', 1, 'one');
    const f = storeOf([a]);
    const inf = new Informer(f.store, '', { followFrozenEveryMs: 20, rewarmedForMs: 100 });
    const held = () => (inf as unknown as { cache: Map<string, unknown> }).cache.get('ns/a');
    const updates: string[] = [];
    inf.addHandlers({ update: (o, old) => updates.push(`${(old.data as { v: string }).v}@${old.metadata.resourceVersion} -> ${(o.data as { v: string }).v}@${o.metadata.resourceVersion}`) });
    inf.start();
    await until(() => f.watches.length === 1);
    const view = inf.get('ns', 'a');
    expect(held()).to.equal(view);

    // The watch cache froze it (from etcd's bytes or JSON): the informer lets go of its decoded copy.
    frozeAs(a, new ColdVersion(JSON.stringify(a), undefined, undefined));
    await until(() => held() instanceof ColdVersion);
    const read = inf.get('ns', 'a');
    expect(read).to.deep.equal(view);
    expect(read).to.not.equal(view);
    expect(held()).to.equal(read);
    expect(inf.list('ns')).to.deep.equal([view]);
    // Frozen again once what the read decoded has aged.
    await until(() => held() instanceof ColdVersion);

    // A change: the handler's old object is the frozen one decoded.
    f.watches[0]!.push({ type: 'MODIFIED', object: stored('a', 5, 'two') });
    await until(() => updates.length === 1);
    expect(updates).to.deep.equal(['one@1 -> two@5']);
    expect((inf.get('ns', 'a')!.data as { v: string }).v).to.equal('two');
    inf.stop();
  });
});
