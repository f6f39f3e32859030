import { expect } from 'chai';
import type { KubeObject } from '../../runtime/object.js';
import { CacheWatcher } from './cache-watcher.js';
import type { WatchEvent } from '../interfaces.js';
import { WatcherSet, type Watcher } from './watchers.js';

const root = '/registry/configmaps/';
const obj = (ns: string, name: string): KubeObject => ({ metadata: { name, namespace: ns } });
const modified = (ns: string, name: string): WatchEvent => ({ type: 'MODIFIED', object: obj(ns, name), previous: obj(ns, name) });

/** A watcher as WatchCache makes one; `seen` lists the names of the events it was handed. */
function watcher(set: WatcherSet, key: string, exact: boolean, after = 0, trigger?: Watcher['trigger']): CacheWatcher & { seen: string[] } {
  const w = Object.assign(new CacheWatcher(key, exact, after, trigger, set), { seen: [] as string[] });
  w.listen({ onItem: (ev) => w.seen.push(`${ev.type} ${ev.object.metadata.name}`), onEnd: () => undefined });
  set.add(w);
  return w;
}

describe('pkg/storage/cacher/watchers', () => {
  it('hands an event to the watchers of its exact key and of prefixes above it, and to no other exact watcher', () => {
    const set = new WatcherSet(100);
    const a = watcher(set, `${root}ns/a`, true);
    const a2 = watcher(set, `${root}ns/a`, true);
    const b = watcher(set, `${root}ns/b`, true);
    const ns = watcher(set, `${root}ns/`, false);
    const other = watcher(set, `${root}other/`, false);
    set.fanOut(`${root}ns/a`, 5, modified('ns', 'a'));
    set.fanOut(`${root}ns/c`, 6, modified('ns', 'c'));
    expect(a.seen).to.deep.equal(['MODIFIED a']);
    expect(a2.seen).to.deep.equal(['MODIFIED a']);
    expect(b.seen).to.deep.equal([]);
    expect(ns.seen).to.deep.equal(['MODIFIED a', 'MODIFIED c']);
    expect(other.seen).to.deep.equal([]);
  });

  it('skips events at or below a watcher\'s start, and forgets a removed exact watcher', () => {
    const set = new WatcherSet(100);
    const late = watcher(set, `${root}ns/a`, true, 7);
    const gone = watcher(set, `${root}ns/a`, true);
    gone.stop();
    set.fanOut(`${root}ns/a`, 7, modified('ns', 'a'));
    set.fanOut(`${root}ns/a`, 8, { type: 'DELETED', object: obj('ns', 'a') });
    expect(late.seen).to.deep.equal(['DELETED a']);
    expect(gone.seen).to.deep.equal([]);
    expect(set.all.size).to.equal(1);
  });

  it('ends the watchers of a key with its ERROR event, and only those', () => {
    const set = new WatcherSet(100);
    const a = watcher(set, `${root}ns/a`, true);
    const b = watcher(set, `${root}ns/b`, true);
    set.fanOut(`${root}ns/a`, 9, { type: 'ERROR', object: obj('', 'a') });
    expect(a.seen).to.deep.equal(['ERROR a']);
    expect(a.isClosed).to.equal(true);
    expect(b.isClosed).to.equal(false);
    expect([...set.all]).to.deep.equal([b]);
  });

  it('hands an event to the plain watchers of every prefix above its key, each once, and to triggered watchers only under their prefix', () => {
    const set = new WatcherSet(100);
    const all = watcher(set, root, false);
    const ns = watcher(set, `${root}ns/`, false);
    const ns2 = watcher(set, `${root}ns/`, false);
    const read = (_key: string, o: KubeObject): string => o.metadata.labels?.['node'] ?? '';
    const { seen } = watcher(set, `${root}ns/`, false, 0, { field: 'node', value: 'n1', read });
    const onN1 = (ns: string, name: string): KubeObject => ({ metadata: { name, namespace: ns, labels: { node: 'n1' } } });
    set.fanOut(`${root}ns/a`, 5, { type: 'ADDED', object: onN1('ns', 'a') });
    set.fanOut(`${root}other/b`, 6, { type: 'ADDED', object: onN1('other', 'b') });
    expect(all.seen).to.deep.equal(['ADDED a', 'ADDED b']);
    expect(ns.seen).to.deep.equal(['ADDED a']);
    expect(ns2.seen).to.deep.equal(['ADDED a']);
    expect(seen).to.deep.equal(['ADDED a']);
    ns.stop();
    set.fanOut(`${root}ns/c`, 7, modified('ns', 'c'));
    expect(ns.seen).to.deep.equal(['ADDED a']);
    expect(ns2.seen).to.deep.equal(['ADDED a', 'MODIFIED c']);
  });

  it('keeps a key\'s watchers as one, then many, then one again, each handed the key\'s events until stopped', () => {
    const set = new WatcherSet(100);
    const first = watcher(set, `${root}ns/a`, true);
    set.fanOut(`${root}ns/a`, 2, modified('ns', 'a'));
    const second = watcher(set, `${root}ns/a`, true);
    set.fanOut(`${root}ns/a`, 3, modified('ns', 'a'));
    first.stop();
    set.fanOut(`${root}ns/a`, 4, modified('ns', 'a'));
    const third = watcher(set, `${root}ns/a`, true);
    second.stop();
    set.fanOut(`${root}ns/a`, 5, modified('ns', 'a'));
    third.stop();
    set.fanOut(`${root}ns/a`, 6, modified('ns', 'a'));
    expect(first.seen).to.have.length(2);
    expect(second.seen).to.have.length(2);
    expect(third.seen).to.have.length(1);
    expect([...set.all]).to.deep.equal([]);
  });
});
