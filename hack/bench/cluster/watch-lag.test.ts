// Watch lag matching: each write counts once, from its send to the first sighting of its
// event (before or after the write's reply), repeats and strangers' events are not lags,
// and nothing is held past two windows.
import { expect } from 'chai';
import { WatchLag } from './watch-lag.js';

describe('cluster load: WatchLag (a write matched with its first sighting)', () => {
  it('times a write to the first of many sightings of its event, once', () => {
    const w = new WatchLag(1000, 0);
    w.wrote('pods/ns/a@5', 100);
    for (const at of [130, 150, 190]) w.saw('pods/ns/a@5', at);
    expect(w.lags).to.deep.equal([30]);
  });

  it('times an event seen before its write\'s reply from the send, and ignores later sightings', () => {
    const w = new WatchLag(1000, 0);
    w.saw('nodes//n1@9', 140);
    w.saw('nodes//n1@9', 145);
    w.wrote('nodes//n1@9', 120);
    w.saw('nodes//n1@9', 160);
    expect(w.lags).to.deep.equal([20]);
  });

  it('keeps counting early sightings however many repeats came before (the old cap of 100,000 dropped them)', () => {
    const w = new WatchLag(60_000, 0);
    // A hundred kube-proxies seeing each of 2,000 events of writes this process did not make.
    for (let e = 0; e < 2000; e++) for (let p = 0; p < 100; p++) w.saw(`services/ns/s${e}@${e + 1}`, 10 + p);
    w.saw('pods/ns/x@99999', 500);
    w.wrote('pods/ns/x@99999', 480);
    expect(w.lags).to.deep.equal([20]);
    // One entry per event, not per sighting.
    expect(w.held).to.equal(2001);
  });

  it('forgets unmatched writes and sightings after two windows', () => {
    const w = new WatchLag(1000, 0);
    w.wrote('leases/kube-node-lease/n1@3', 10);
    w.saw('endpointslices/ns/e@4', 20);
    w.saw('x/ns/y@1', 1100); // one window on: both still held
    expect(w.held).to.equal(3);
    w.saw('x/ns/z@2', 2200); // two windows on: the first two are gone
    expect(w.held).to.equal(2);
    // A sighting of a forgotten write is not matched with anything.
    w.saw('leases/kube-node-lease/n1@3', 2300);
    expect(w.lags).to.deep.equal([]);
  });
});
