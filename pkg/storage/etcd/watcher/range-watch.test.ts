// The watch wrapper against real etcd: ordered delivery, progress, compaction, and no
// skipped or repeated event across a killed/restarted member and a leader change.
import { expect } from 'chai';
import { Etcd3 } from 'etcd3';
import { prefixEnd } from '../keys.js';
import { watchRange, type RangeWatch, type RangeWatchMessage } from './range-watch.js';
import { sleep, startTestCluster, type TestCluster } from './testing/etcd-cluster.js';

interface Seen { revisions: number[]; messages: RangeWatchMessage[] }

function collect(w: RangeWatch): Seen & { done: Promise<void> } {
  const seen: Seen = { revisions: [], messages: [] };
  const done = (async () => {
    for await (const m of w) {
      seen.messages.push(m);
      if (m.type === 'events') for (const ev of m.events) seen.revisions.push(Number(ev.kv.mod_revision));
    }
  })();
  return { ...seen, done };
}

async function until(cond: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Every revision that touched the range since `from`, read back from etcd's history. */
async function history(client: Etcd3, prefix: Buffer, from: number, to: number): Promise<number[]> {
  const w = watchRange(client, { key: prefix, rangeEnd: prefixEnd(prefix), startRevision: from });
  const c = collect(w);
  await until(() => w.deliveredRevision >= to, 20_000, `history up to ${to}`);
  w.close();
  await c.done;
  return c.revisions.filter((r) => r <= to);
}

async function currentRevision(client: Etcd3): Promise<number> {
  const res = await client.kv.range({ key: Buffer.from([0]), limit: 1 });
  return Number(res.header.revision);
}

describe('etcd watcher: range watch', function () {
  this.timeout(120_000);
  let cluster: TestCluster;
  let client: Etcd3;

  before(async () => {
    cluster = await startTestCluster(1, { progressNotifyInterval: '500ms' });
    client = new Etcd3({ hosts: cluster.endpoints });
  });
  after(async () => {
    client?.close();
    await cluster?.stop();
  });

  it('delivers puts and deletes in revision order from the start revision, with prev_kv', async () => {
    const p = Buffer.from('/order/');
    const start = (await currentRevision(client)) + 1;
    const w = watchRange(client, { key: p, rangeEnd: prefixEnd(p), startRevision: start, prevKv: true });
    const c = collect(w);
    await client.put('/order/a').value('1');
    await client.put('/order/a').value('2');
    await client.put('/other/x').value('ignored');
    await client.delete().key('/order/a');
    const end = await currentRevision(client);
    await until(() => w.deliveredRevision >= end - 1, 5000, 'events');
    w.close();
    await c.done;
    const events = c.messages.flatMap((m) => (m.type === 'events' ? m.events : []));
    expect(events.map((e) => e.type)).to.deep.equal(['Put', 'Put', 'Delete']);
    expect(events[1].prev_kv?.value.toString()).to.equal('1');
    expect(events[2].prev_kv?.value.toString()).to.equal('2');
    expect(c.revisions).to.deep.equal([start, start + 1, start + 3]);
  });

  it('progress notifications advance the delivered revision without events', async () => {
    const p = Buffer.from('/quiet/');
    const start = (await currentRevision(client)) + 1;
    const w = watchRange(client, { key: p, rangeEnd: prefixEnd(p), startRevision: start, progressNotify: true });
    const c = collect(w);
    await w.created;
    await client.put('/elsewhere/1').value('x');
    const rev = await currentRevision(client);
    await until(() => w.deliveredRevision >= rev, 10_000, 'progress notification');
    w.close();
    await c.done;
    expect(c.revisions).to.deep.equal([]);
    const progress = c.messages.filter((m) => m.type === 'progress');
    expect(progress.length).to.be.greaterThan(0);
  });

  it('reports a compacted start revision as compacted, with the compact revision', async () => {
    await client.put('/compact/a').value('1');
    const old = await currentRevision(client);
    await client.put('/compact/a').value('2');
    await client.put('/compact/a').value('3');
    const compactAt = await currentRevision(client);
    await client.kv.compact({ revision: String(compactAt), physical: true });
    const p = Buffer.from('/compact/');
    const w = watchRange(client, { key: p, rangeEnd: prefixEnd(p), startRevision: old });
    const c = collect(w);
    await c.done;
    expect(c.messages).to.deep.equal([{ type: 'compacted', compactRevision: compactAt, lastRevision: old - 1 }]);
  });

  it('resumes after etcd is killed and restarted, never skipping or repeating an event', async () => {
    const p = Buffer.from('/restart/');
    const start = (await currentRevision(client)) + 1;
    let reconnects = 0;
    const w = watchRange(client, {
      key: p, rangeEnd: prefixEnd(p), startRevision: start, progressNotify: true,
      onReconnect: () => { reconnects++; },
    });
    const c = collect(w);
    const writer = new Etcd3({ hosts: cluster.endpoints, defaultCallOptions: () => ({ deadline: Date.now() + 1000 }) });
    let stop = false;
    let acknowledged = 0;
    const writes = (async () => {
      for (let i = 0; !stop; i++) {
        try {
          await writer.put(`/restart/k${i % 7}`).value(String(i));
          acknowledged++;
        } catch { await sleep(50); }
      }
    })();
    await until(() => c.revisions.length > 20, 10_000, 'first events');
    await cluster.kill(0);
    await sleep(800);
    await cluster.start(0);
    await until(() => acknowledged > 60 && c.revisions.length > 60, 30_000, 'events after restart');
    stop = true;
    await writes;
    writer.close();
    const end = await currentRevision(client);
    await until(() => w.deliveredRevision >= end, 20_000, 'catch up');
    w.close();
    await c.done;
    expect(reconnects).to.be.greaterThan(0);
    const expected = await history(client, p, start, end);
    expect(c.revisions).to.deep.equal(expected);
  });
});

describe('etcd watcher: leader change', function () {
  this.timeout(180_000);
  let cluster: TestCluster;

  before(async () => {
    cluster = await startTestCluster(3, { progressNotifyInterval: '500ms' });
  });
  after(async () => { await cluster?.stop(); });

  it('keeps delivering every event exactly once while the leader is killed and restarted', async () => {
    const client = new Etcd3({ hosts: cluster.endpoints });
    const p = Buffer.from('/leader/');
    const start = (await currentRevision(client)) + 1;
    const w = watchRange(client, { key: p, rangeEnd: prefixEnd(p), startRevision: start, progressNotify: true });
    const c = collect(w);
    const writer = new Etcd3({ hosts: cluster.endpoints, defaultCallOptions: () => ({ deadline: Date.now() + 1000 }) });
    let stop = false;
    const writes = (async () => {
      for (let i = 0; !stop; i++) {
        try { await writer.put(`/leader/k${i % 5}`).value(String(i)); } catch { await sleep(50); }
      }
    })();
    await until(() => c.revisions.length > 20, 10_000, 'first events');
    for (let round = 0; round < 2; round++) {
      const leader = await cluster.leader();
      await cluster.kill(leader);
      const before = c.revisions.length;
      await until(() => c.revisions.length > before + 20, 30_000, `events after killing leader ${leader}`);
      await cluster.start(leader);
    }
    stop = true;
    await writes;
    writer.close();
    const end = await currentRevision(client);
    await until(() => w.deliveredRevision >= end, 30_000, 'catch up');
    w.close();
    await c.done;
    const expected = await history(client, p, start, end);
    expect(expected.length).to.be.greaterThan(40);
    expect(c.revisions).to.deep.equal(expected);
    client.close();
  });
});
