// The compactor against real etcd: replicas coordinate through the compare-and-swap on
// compact_rev_key (one compaction per interval in total), and each compaction keeps the
// last interval's history.
import { expect } from 'chai';
import { Etcd3 } from 'etcd3';
import { compactRevKey, compactTick, startCompactor, type CompactorState } from '../../pkg/storage/etcd/compactor.js';
import { startTestCluster, sleep, type TestCluster } from '../../pkg/storage/etcd/watcher/testing/etcd-cluster.js';

async function revision(client: Etcd3): Promise<number> {
  return Number((await client.kv.range({ key: Buffer.from([0]), limit: 1 })).header.revision);
}

/** The oldest revision etcd still serves, found by probing reads. */
async function oldestReadable(client: Etcd3, upTo: number): Promise<number> {
  for (let r = 1; r <= upTo; r++) {
    try {
      await client.kv.range({ key: Buffer.from('/x'), revision: String(r) });
      return r;
    } catch { /* compacted */ }
  }
  return upTo + 1;
}

describe('storage: compactor', function () {
  this.timeout(60_000);
  let cluster: TestCluster;
  let client: Etcd3;

  beforeEach(async () => {
    cluster = await startTestCluster(1);
    client = new Etcd3({ hosts: cluster.endpoints });
  });
  afterEach(async () => {
    client?.close();
    await cluster?.stop();
  });

  it('ticks: the first win only records, later wins compact to the revision of the previous win; losers adopt the clock', async () => {
    let a: CompactorState = { time: 0, revision: 0 };
    let b: CompactorState = { time: 0, revision: 0 };
    await client.put('/x').value('1');
    const r1 = await compactTick(client, a);
    expect(r1.compacted).to.equal(undefined);
    a = r1.state;
    expect(a.time).to.equal(1);
    // b is behind: its swap fails and it learns the clock.
    const rb = await compactTick(client, b);
    expect(rb.compacted).to.equal(undefined);
    b = rb.state;
    expect(b.time).to.equal(1);
    for (let i = 0; i < 5; i++) await client.put('/x').value(String(i));
    const r2 = await compactTick(client, a);
    expect(r2.compacted).to.equal(a.revision);
    const kv = await client.get(compactRevKey).string();
    expect(kv).to.equal(String(a.revision));
    expect(await oldestReadable(client, await revision(client))).to.equal(a.revision);
    // a and b both try the same tick: exactly one wins.
    a = r2.state;
    const [x, y] = await Promise.all([compactTick(client, a), compactTick(client, { ...a })]);
    expect([x, y].filter((t) => t.compacted !== undefined)).to.have.length(1);
  });

  it('three replicas with a 400 ms interval compact about once per interval in total, keeping the last interval', async () => {
    const logs: string[] = [];
    const log = { info: (o: object, m: string) => logs.push(`${m} ${JSON.stringify(o)}`), error: (o: object, m: string) => logs.push(`ERR ${m} ${JSON.stringify(o)}`) };
    const clients = [0, 1, 2].map(() => new Etcd3({ hosts: cluster.endpoints }));
    const compactors = clients.map((c) => startCompactor(c, 400, log));
    const marks: Array<{ at: number; rev: number }> = [];
    const started = Date.now();
    while (Date.now() - started < 4200) {
      await client.put('/x').value(String(Date.now()));
      marks.push({ at: Date.now(), rev: await revision(client) });
      await sleep(50);
    }
    for (const c of compactors) c.stop();
    for (const c of clients) c.close();
    expect(logs.filter((l) => l.startsWith('ERR'))).to.deep.equal([]);
    const compactions = logs.filter((l) => l.startsWith('etcd: compacted history')).length;
    // About 10 ticks in 4.2 s; the first win only records. Three uncoordinated replicas
    // would compact about three times as often.
    expect(compactions).to.be.within(6, 11);
    const version = Number((await client.kv.range({ key: Buffer.from(compactRevKey) })).kvs[0].version);
    expect(version).to.be.within(compactions + 1, compactions + 2);
    // Everything written in the last interval is still readable.
    const oldest = await oldestReadable(client, await revision(client));
    const lastInterval = marks.filter((m) => m.at >= Date.now() - 400);
    expect(oldest).to.be.at.most(lastInterval[0]?.rev ?? Infinity);
    expect(oldest).to.be.greaterThan(1);
  });

  it('an interval of 0 disables compaction', async () => {
    const c = startCompactor(client, 0, { info: () => undefined, error: () => undefined });
    await sleep(300);
    c.stop();
    const res = await client.kv.range({ key: Buffer.from(compactRevKey) });
    expect(res.kvs).to.have.length(0);
  });
});
