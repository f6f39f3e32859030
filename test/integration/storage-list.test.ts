// EtcdStorage.list against real etcd: every resourceVersion x resourceVersionMatch x
// pagination cell of SPEC 4.7 (the refusals are the handler's, see list-http), chunk
// consistency under concurrent writes, filtered pagination and malformed tokens.
import { expect } from 'chai';
import type { Etcd3 } from 'etcd3';
import type { KubeObject } from '../../pkg/runtime/object.js';
import { StorageError, type ListOptions, type ListResult } from '../../pkg/storage/interfaces.js';
import { storageImpls, type ContractStorage } from './storage-impls.js';
import { testEtcdClient, uniquePrefix } from '../harness/index.js';

function cm(name: string, data: Record<string, string> = {}, labels?: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns', labels }, data } as KubeObject;
}

const names = (l: ListResult) => l.items.map((i) => i.metadata.name);

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

async function listAll(s: ContractStorage, prefix: string, opts: ListOptions): Promise<{ pages: ListResult[]; items: KubeObject[] }> {
  const pages: ListResult[] = [];
  let cont: string | undefined;
  do {
    const page = await s.list(prefix, { ...opts, continue: cont });
    pages.push(page);
    cont = page.continue;
  } while (cont);
  return { pages, items: pages.flatMap((p) => p.items) };
}

for (const impl of storageImpls) {
describe(`storage: list [${impl.name}]`, function () {
  this.timeout(60_000);
  let client: Etcd3;
  let s: ContractStorage;
  let prefix: string;
  let revs: string[];

  before(async () => {
    client = await testEtcdClient();
    s = impl.make(client);
    prefix = `${uniquePrefix('storage-list')}/configmaps/ns/`;
    revs = [];
    for (let i = 0; i < 25; i++) {
      const name = `cm-${String(i).padStart(2, '0')}`;
      const created = await s.create(`${prefix}${name}`, cm(name, { i: String(i) }, { parity: i % 2 ? 'odd' : 'even', tenth: i % 10 === 0 ? 'yes' : 'no' }));
      revs.push(created.metadata.resourceVersion!);
    }
  });
  after(() => { s?.stop?.(); client?.close(); });

  it('chunks with limit/continue: same resourceVersion on every chunk, remainingItemCount until the last', async () => {
    const first = await s.list(prefix, { limit: 10 });
    expect(first.items).to.have.length(10);
    expect(first.remainingItemCount).to.equal(15);
    expect(first.continue).to.be.a('string');
    const second = await s.list(prefix, { limit: 10, continue: first.continue });
    expect(second.resourceVersion).to.equal(first.resourceVersion);
    expect(second.remainingItemCount).to.equal(5);
    const third = await s.list(prefix, { limit: 10, continue: second.continue });
    expect(third.resourceVersion).to.equal(first.resourceVersion);
    expect(third.items).to.have.length(5);
    expect(third.continue).to.equal(undefined);
    expect(third.remainingItemCount).to.equal(undefined);
    expect([...names(first), ...names(second), ...names(third)]).to.deep.equal(
      Array.from({ length: 25 }, (_, i) => `cm-${String(i).padStart(2, '0')}`));
  });

  it('continue tokens are upstream-shaped: unpadded base64url JSON {v, rv, start} relative to the prefix', async () => {
    const page = await s.list(prefix, { limit: 3 });
    const token = JSON.parse(Buffer.from(page.continue!, 'base64url').toString()) as Record<string, unknown>;
    expect(token).to.deep.equal({ v: 'meta.k8s.io/v1', rv: Number(page.resourceVersion), start: 'cm-02\u0000' });
    expect(page.continue).to.not.match(/[=+/]/);
  });

  it('limit exactly the size of the collection: no continue, no remainingItemCount', async () => {
    const page = await s.list(prefix, { limit: 25 });
    expect(page.items).to.have.length(25);
    expect(page.continue).to.equal(undefined);
    expect(page.remainingItemCount).to.equal(undefined);
  });

  describe('resourceVersion x resourceVersionMatch x pagination (SPEC 4.7)', () => {
    let pastRV: string;
    let nowRV: string;
    const key = () => `${prefix}cm-00`;

    before(async () => {
      pastRV = revs[revs.length - 1];
      await s.guaranteedUpdate(key(), undefined, async (cur) => ({ ...cur, data: { i: 'changed' } } as KubeObject));
      nowRV = await s.currentRevision();
    });

    // "The newest": etcd's revision when the list was served. Other test files write to the
    // same etcd, so that is at least nowRV and at most the revision after the answer.
    const expectNewest = async (rv: string) => {
      expect(Number(rv)).to.be.at.least(Number(nowRV));
      expect(Number(rv)).to.be.at.most(Number(await s.currentRevision()));
    };
    const dataOf = (l: ListResult) => (l.items.find((i) => i.metadata.name === 'cm-00') as { data?: Record<string, string> } | undefined)?.data?.i;

    it('unset match, no limit: rv unset is the most recent', async () => {
      const l = await s.list(prefix, {});
      await expectNewest(l.resourceVersion);
      expect(dataOf(l)).to.equal('changed');
    });
    it('unset match, no limit: rv=0 is any (here: the newest)', async () => {
      const l = await s.list(prefix, { resourceVersion: '0' });
      expect(Number(l.resourceVersion)).to.be.at.least(Number(nowRV));
    });
    it('unset match, no limit: rv=past is not older than (served at the newest)', async () => {
      const l = await s.list(prefix, { resourceVersion: pastRV });
      await expectNewest(l.resourceVersion);
      expect(dataOf(l)).to.equal('changed');
    });
    it('unset match, limit: rv unset is the most recent', async () => {
      const l = await s.list(prefix, { limit: 5 });
      await expectNewest(l.resourceVersion);
      expect(dataOf(l)).to.equal('changed');
    });
    it('unset match, limit: rv=0 is any (etcd pages it; the watch cache, as upstream\'s, answers it whole)', async () => {
      const l = await s.list(prefix, { limit: 5, resourceVersion: '0' });
      expect(l.items).to.have.length(impl.name === 'etcd' ? 5 : 25);
      expect(l.continue === undefined).to.equal(impl.name !== 'etcd');
      expect(Number(l.resourceVersion)).to.be.at.least(Number(nowRV));
    });
    it('unset match, limit: rv=past is exact (the legacy paginated read at that revision)', async () => {
      const l = await s.list(prefix, { limit: 5, resourceVersion: pastRV });
      expect(l.resourceVersion).to.equal(pastRV);
      expect(dataOf(l)).to.equal('0');
      const next = await s.list(prefix, { limit: 5, continue: l.continue });
      expect(next.resourceVersion).to.equal(pastRV);
    });
    it('unset match, limit+continue: exact from the token, also with rv=0', async () => {
      const l = await s.list(prefix, { limit: 5, resourceVersion: pastRV });
      const next = await s.list(prefix, { limit: 5, continue: l.continue, resourceVersion: '0' });
      expect(next.resourceVersion).to.equal(pastRV);
      expect(names(next)[0]).to.equal('cm-05');
    });
    it('Exact, no limit: exactly that revision', async () => {
      const l = await s.list(prefix, { resourceVersion: pastRV, resourceVersionMatch: 'Exact' });
      expect(l.resourceVersion).to.equal(pastRV);
      expect(l.items).to.have.length(25);
      expect(dataOf(l)).to.equal('0');
    });
    it('Exact, limit: exactly that revision, chunks included', async () => {
      const { pages, items } = await listAll(s, prefix, { limit: 10, resourceVersion: pastRV, resourceVersionMatch: 'Exact' });
      expect(pages.map((p) => p.resourceVersion)).to.deep.equal([pastRV, pastRV, pastRV]);
      expect(items).to.have.length(25);
    });
    it('Exact at a revision before an object existed leaves it out', async () => {
      const l = await s.list(prefix, { resourceVersion: revs[4], resourceVersionMatch: 'Exact' });
      expect(names(l)).to.deep.equal(['cm-00', 'cm-01', 'cm-02', 'cm-03', 'cm-04']);
    });
    it('NotOlderThan, no limit and limit: rv=0 is any, rv=past is served at the newest', async () => {
      const a = await s.list(prefix, { resourceVersion: '0', resourceVersionMatch: 'NotOlderThan' });
      expect(Number(a.resourceVersion)).to.be.at.least(Number(nowRV));
      const b = await s.list(prefix, { resourceVersion: pastRV, resourceVersionMatch: 'NotOlderThan' });
      await expectNewest(b.resourceVersion);
      const c = await s.list(prefix, { limit: 5, resourceVersion: pastRV, resourceVersionMatch: 'NotOlderThan' });
      await expectNewest(c.resourceVersion);
      expect(dataOf(c)).to.equal('changed');
      const d = await s.list(prefix, { limit: 5, resourceVersion: '0', resourceVersionMatch: 'NotOlderThan' });
      expect(d.items).to.have.length(impl.name === 'etcd' ? 5 : 25);
    });
    it('NotOlderThan a future revision waits for it and then answers', async () => {
      const want = Number(await s.currentRevision()) + 1;
      const pending = s.list(prefix, { resourceVersion: String(want), resourceVersionMatch: 'NotOlderThan' });
      await new Promise((r) => setTimeout(r, 300));
      const late = await s.create(`${prefix}zz-late`, cm('zz-late'));
      const l = await pending;
      expect(Number(l.resourceVersion)).to.be.at.least(want);
      // Other test files write to the shared etcd: the revision waited for may be theirs.
      if (Number(l.resourceVersion) >= Number(late.metadata.resourceVersion)) expect(names(l)).to.include('zz-late');
      else expect(names(l)).not.to.include('zz-late');
      await s.delete(`${prefix}zz-late`);
    });
    it('NotOlderThan / Exact / get at a revision that never comes: TooLargeResourceVersion after about 3 s', async () => {
      const far = String(Number(await s.currentRevision()) + 10_000_000); // beyond what the other worker writes in 3 s
      const started = Date.now();
      const errs = await Promise.all([
        s.list(prefix, { resourceVersion: far, resourceVersionMatch: 'NotOlderThan' }),
        s.list(prefix, { resourceVersion: far }),
        s.list(prefix, { resourceVersion: far, resourceVersionMatch: 'Exact' }),
        s.list(prefix, { limit: 2, resourceVersion: far }),
        s.get(key(), { resourceVersion: far }),
      ].map((p) => rejection(p).then((err) => ({ err, ms: Date.now() - started }))));
      for (const { err, ms } of errs) {
        expect(err).to.be.instanceOf(StorageError);
        expect((err as StorageError).code).to.equal('TooLargeResourceVersion');
        expect(err.message).to.match(new RegExp(`^Too large resource version: ${far}, current: \\d+$`));
        expect(ms).to.be.within(2500, 6000);
      }
    });
    it('get: unset and 0 read the newest; a past rv is "not older than" and reads the newest', async () => {
      for (const resourceVersion of [undefined, '0', pastRV]) {
        const got = await s.get(key(), { resourceVersion });
        expect((got as { data?: Record<string, string> }).data?.i).to.equal('changed');
      }
    });
  });

  it('filtered pagination reads on until limit matches: no empty page with a continue token, no remainingItemCount', async () => {
    const match = (o: KubeObject) => o.metadata.labels?.tenth === 'yes';
    const { pages, items } = await listAll(s, prefix, { limit: 2, predicate: match, filtered: true });
    expect(items.map((i) => i.metadata.name)).to.deep.equal(['cm-00', 'cm-10', 'cm-20']);
    for (const p of pages) {
      if (p.continue) expect(p.items.length).to.equal(2);
      expect(p.remainingItemCount).to.equal(undefined);
    }
    expect(new Set(pages.map((p) => p.resourceVersion)).size).to.equal(1);
    const odd = await listAll(s, prefix, { limit: 4, predicate: (o) => o.metadata.labels?.parity === 'odd', filtered: true });
    expect(odd.items).to.have.length(12);
    expect(odd.pages.every((p) => !p.continue || p.items.length === 4)).to.equal(true);
  });

  it('malformed continue tokens are InvalidContinue with upstream\'s wording', async () => {
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const cases: Array<[string, RegExp]> = [
      ['%%%not-base64', /^invalid continue token: continue key is not valid: incorrect encoded start resourceVersion \(version meta\.k8s\.io\/v1\)/],
      [enc({ v: 'meta.k8s.io/v2', rv: 5, start: 'a' }), /^invalid continue token: continue key is not valid: server does not recognize this encoded version/],
      [enc({ v: 'meta.k8s.io/v1', rv: 0, start: 'a' }), /^invalid continue token: continue key is not valid: incorrect encoded start resourceVersion/],
      [enc({ v: 'meta.k8s.io/v1', rv: 5, start: '' }), /^invalid continue token: continue key is not valid: encoded start key empty$/],
      [enc({ v: 'meta.k8s.io/v1', rv: 5, start: '../../secrets/x' }), /^invalid continue token: continue key is not valid: \.\.\/\.\.\/secrets\/x$/],
    ];
    for (const [token, msg] of cases) {
      const err = await rejection(s.list(prefix, { limit: 1, continue: token }));
      expect(err, token).to.be.instanceOf(StorageError);
      expect((err as StorageError).code).to.equal('InvalidContinue');
      expect(err.message).to.match(msg);
    }
  });

  it('a continue token from another prefix cannot escape its own prefix', async () => {
    const other = `${uniquePrefix('storage-list-other')}/configmaps/ns/`;
    await s.create(`${other}a`, cm('a'));
    await s.create(`${other}b`, cm('b'));
    const page = await s.list(other, { limit: 1 });
    const l = await s.list(prefix, { limit: 100, continue: page.continue });
    // The relative start "a\0" is applied under `prefix`: only this prefix's keys come back.
    expect(l.items.every((i) => i.metadata.name!.startsWith('cm-') || i.metadata.name!.startsWith('zz'))).to.equal(true);
  });

  it('an unlimited list of 12,000 objects (past gRPC\'s 4 MiB message limit) is read whole at one revision', async () => {
    const p = `${uniquePrefix('storage-big')}/configmaps/ns/`;
    for (let i = 0; i < 12_000; i += 120) {
      const ops = [];
      for (let j = i; j < i + 120; j++) {
        const obj = cm(`b-${String(j).padStart(5, '0')}`, { pad: 'x'.repeat(400) });
        ops.push({ request_put: { key: Buffer.from(`${p}${obj.metadata.name}`), value: Buffer.from(JSON.stringify(obj)) } });
      }
      await client.kv.txn({ compare: [], success: ops, failure: [] });
    }
    const l = await s.list(p, {});
    expect(l.items).to.have.length(12_000);
    expect(l.continue).to.equal(undefined);
    expect(l.items[11_999].metadata.name).to.equal('b-11999');
    expect(new Set(l.items.map((i) => i.metadata.name)).size).to.equal(12_000);
  });

  it('chunks stay one snapshot while objects are created and deleted: nothing lost or duplicated', async () => {
    const p = `${uniquePrefix('storage-chunks')}/configmaps/ns/`;
    for (let i = 0; i < 60; i++) await s.create(`${p}o-${String(i).padStart(3, '0')}`, cm(`o-${i}`));
    const first = await s.list(p, { limit: 7 });
    const snapshot = await s.list(p, { resourceVersion: first.resourceVersion, resourceVersionMatch: 'Exact' });
    const seen = [...first.items];
    let cont = first.continue;
    let n = 1000;
    while (cont) {
      // Churn between chunks: new keys before and after the cursor, deletions of both.
      await s.create(`${p}o-${String(n++).padStart(3, '0')}`, cm('new'));
      await s.create(`${p}a-${n++}`, cm('new-before'));
      const victim = seen.length < 59 ? `${p}o-${String(59 - seen.length).padStart(3, '0')}` : undefined;
      if (victim) await s.delete(victim).catch(() => undefined);
      const page = await s.list(p, { limit: 7, continue: cont });
      expect(page.resourceVersion).to.equal(first.resourceVersion);
      seen.push(...page.items);
      cont = page.continue;
    }
    const keyOf = (o: KubeObject) => `${o.metadata.name}@${o.metadata.resourceVersion}`;
    expect(seen.map(keyOf)).to.deep.equal(snapshot.items.map(keyOf));
    expect(new Set(seen.map(keyOf)).size).to.equal(60);
  });
});
}
