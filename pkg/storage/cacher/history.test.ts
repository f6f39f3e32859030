import { expect } from 'chai';
import type { KubeObject } from '../../runtime/object.js';
import type { WatchEvent } from '../interfaces.js';
import { encodeForStorage, decodeFromStorage } from '../etcd/codec.js';
import { ColdVersion } from './cold-version.js';
import { History, type HistoryEntry } from './history.js';
import type { Watcher } from './watchers.js';

const root = '/registry/pods/ns/';
const pod = (name: string, rv: number, node: string, phase = 'Pending'): KubeObject => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { name, namespace: 'ns', resourceVersion: String(rv), labels: { app: 'x' } },
  spec: { nodeName: node, containers: [{ name: 'c', image: 'i' }] },
  status: { phase },
});

/** A history whose one indexed field, spec.nodeName, counts its reads of decoded objects. */
function historyWithNodeField() {
  const reads = { n: 0 };
  const read = (_key: string, o: KubeObject): string => { reads.n++; return String((o.spec as { nodeName?: string }).nodeName ?? ''); };
  const history = new History({ lowerBound: 100 }, (key, o) => ['spec.nodeName', read(key, o)]);
  return { history, read, reads };
}

/** The events a cache would apply for one pod: created, moved to node b, then deleted. */
function lifecycle(history: History): WatchEvent[] {
  const v1 = pod('p', 10, 'a');
  const v2 = pod('p', 11, 'b', 'Running');
  const gone = { ...v2, metadata: { ...v2.metadata, resourceVersion: '12' } };
  const events: WatchEvent[] = [
    { type: 'ADDED', object: v1 },
    { type: 'MODIFIED', object: v2, previous: v1 },
    { type: 'DELETED', object: gone, previous: gone },
  ];
  history.record(`${root}p`, 10, events[0], undefined);
  history.record(`${root}p`, 11, events[1], v1);
  history.record(`${root}p`, 12, events[2], v2);
  return events;
}

function watcherOn(node: string, read: (key: string, o: KubeObject) => string): Watcher {
  return { key: root, exact: false, after: 0, push: () => undefined, size: 0, stop: () => undefined,
    trigger: { field: 'spec.nodeName', value: node, read } };
}

describe('pkg/storage/cacher/history', () => {
  it('keeps only the current version decoded: a superseded one and a deletion\'s last one are frozen', () => {
    const { history } = historyWithNodeField();
    const v1 = pod('p', 10, 'a');
    const v2 = pod('p', 11, 'a', 'Running');
    history.record(`${root}p`, 10, { type: 'ADDED', object: v1 }, undefined);
    let [added] = [...history.after(0)];
    expect(added.object).to.equal(v1);
    history.record(`${root}p`, 11, { type: 'MODIFIED', object: v2, previous: v1 }, v1);
    let modified: HistoryEntry;
    [added, modified] = [...history.after(0)];
    expect(added.object).to.be.instanceOf(ColdVersion);
    // The superseded version is one frozen copy, shared by the entry that made it and the next one's `before`.
    expect(modified.before).to.equal(added.object);
    expect(modified.object).to.equal(v2);
    history.record(`${root}p`, 12, { type: 'DELETED', object: { ...v2 }, previous: { ...v2 } }, v2);
    const entries = [...history.after(0)];
    expect(entries[1].object).to.be.instanceOf(ColdVersion);
    expect(entries[2].object).to.equal(undefined);
    expect(entries[2].before).to.equal(entries[1].object);
    for (const e of entries) expect(e.previous).to.equal(undefined);
  });

  it('gives back each event as it was applied, with the deletion at its own revision', () => {
    const { history } = historyWithNodeField();
    const events = lifecycle(history);
    const replayed = [...history.after(0)].map((e) => history.eventOf(e));
    expect(replayed.map((e) => e.type)).to.deep.equal(['ADDED', 'MODIFIED', 'DELETED']);
    for (let i = 0; i < events.length; i++) {
      expect(replayed[i].object, `event ${i}`).to.deep.equal(events[i].object);
      expect(replayed[i].previous, `event ${i}'s previous`).to.deep.equal(events[i].previous);
    }
    expect(replayed[2].object.metadata.resourceVersion).to.equal('12');
    // Only what came after the revision asked for.
    expect([...history.after(11)].map((e) => history.eventOf(e).type)).to.deep.equal(['DELETED']);
  });

  it('freezes a version as the value etcd sent for it when it has one, and decodes that again', () => {
    const { history } = historyWithNodeField();
    const bytes = (o: KubeObject) => encodeForStorage(o, 'application/vnd.kubernetes.protobuf');
    const v1 = decodeFromStorage(bytes(pod('p', 10, 'a')), 10);
    const v2 = decodeFromStorage(bytes(pod('p', 11, 'b', 'Running')), 11);
    history.record(`${root}p`, 10, { type: 'ADDED', object: v1 }, undefined, bytes(v1));
    history.record(`${root}p`, 11, { type: 'MODIFIED', object: v2, previous: v1 }, v1, bytes(v2));
    history.record(`${root}p`, 12, { type: 'DELETED', object: { ...v2 }, previous: { ...v2 } }, v2);
    const [added, modified, deleted] = [...history.after(0)];
    for (const [v, rev] of [[added.object, '10'], [modified.object, '11']] as const) {
      expect(v).to.be.instanceOf(ColdVersion);
      expect((v as ColdVersion).storedAt).to.equal(rev);
      expect(Buffer.from((v as ColdVersion).text, 'latin1').equals(bytes(rev === '10' ? v1 : v2))).to.equal(true);
    }
    expect(history.eventOf(added).object).to.deep.equal(v1);
    expect(history.eventOf(modified).previous).to.deep.equal(v1);
    const gone = history.eventOf(deleted).object;
    expect(gone).to.deep.equal({ ...v2, metadata: { ...v2.metadata, resourceVersion: '12' } });
    expect((modified.object as ColdVersion).field('spec.nodeName')).to.equal('b');
  });

  it('keeps an event\'s previous object read from etcd when the cache held none', () => {
    const { history } = historyWithNodeField();
    const fromEtcd = pod('q', 20, 'a');
    const now = pod('q', 21, 'a', 'Running');
    history.record(`${root}q`, 21, { type: 'MODIFIED', object: now, previous: fromEtcd }, undefined);
    const [e] = [...history.after(0)];
    expect(e.before).to.equal(undefined);
    expect(history.eventOf(e).previous).to.deep.equal(fromEtcd);
  });

  it('freezes once a deletion read from etcd whose previous object is its object', () => {
    const { history } = historyWithNodeField();
    const last = pod('r', 30, 'a');
    history.record(`${root}r`, 30, { type: 'DELETED', object: last, previous: last }, undefined);
    const [e] = [...history.after(0)];
    expect(e.object).to.be.instanceOf(ColdVersion);
    expect(e.previous).to.equal(undefined);
    const ev = history.eventOf(e);
    expect(ev.object).to.deep.equal(last);
    expect(ev.previous).to.equal(ev.object);
  });

  it('tells a field-selecting watcher its events from the frozen field values, without decoding', () => {
    const { history, read, reads } = historyWithNodeField();
    lifecycle(history);
    const onA = watcherOn('a', read);
    const onB = watcherOn('b', read);
    const onC = watcherOn('c', read);
    reads.n = 0;
    const forWatcher = (w: Watcher) => [...history.after(0)].filter((e) => history.concerns(w, e)).map((e) => e.type);
    // The move from a to b is a's last event (the pod left it) and b's first.
    expect(forWatcher(onA)).to.deep.equal(['ADDED', 'MODIFIED']);
    expect(forWatcher(onB)).to.deep.equal(['MODIFIED', 'DELETED']);
    expect(forWatcher(onC)).to.deep.equal([]);
    expect(reads.n, 'reads of decoded objects').to.equal(0);
    const elsewhere: Watcher = { ...onA, key: '/registry/pods/other/' };
    expect(forWatcher(elsewhere)).to.deep.equal([]);
  });

  it('decodes a frozen version to read a field it was not frozen with', () => {
    const history = new History({ lowerBound: 100 }, () => undefined);
    lifecycle(history);
    const byPhase: Watcher = { key: root, exact: false, after: 0, push: () => undefined, size: 0, stop: () => undefined,
      trigger: { field: 'status.phase', value: 'Pending', read: (_k, o) => String((o.status as { phase?: string }).phase) } };
    expect([...history.after(0)].filter((e) => history.concerns(byPhase, e)).map((e) => e.type)).to.deep.equal(['ADDED', 'MODIFIED']);
  });

  it('forgets a key\'s newest entry once the ring drops it, so the key\'s next event freezes its own copy', () => {
    let t = 0;
    const history = new History({ lowerBound: 2, upperBound: 2, freshMs: 1, now: () => t }, () => undefined);
    const v1 = pod('p', 1, 'a');
    history.record(`${root}p`, 1, { type: 'ADDED', object: v1 }, undefined);
    t += 10;
    history.record(`${root}x`, 2, { type: 'ADDED', object: pod('x', 2, 'a') }, undefined);
    t += 10;
    history.record(`${root}y`, 3, { type: 'ADDED', object: pod('y', 3, 'a') }, undefined);
    expect(history.lastDropped).to.equal(1);
    // Held on to, the dropped entry would keep p's decoded version for as long as p lives.
    expect([...(history as unknown as { newest: Map<string, HistoryEntry> }).newest.keys()]).to.deep.equal([`${root}x`, `${root}y`]);
    const v2 = pod('p', 4, 'b');
    history.record(`${root}p`, 4, { type: 'MODIFIED', object: v2, previous: v1 }, v1);
    const last = [...history.after(3)][0];
    expect(last.before).to.be.instanceOf(ColdVersion);
    expect(history.eventOf(last).previous).to.deep.equal(v1);
    expect([...history.after(0)].map((e) => e.rev)).to.deep.equal([3, 4]);
  });
});
