import { expect } from 'chai';
import { sharedRecord } from './shared-records.js';

describe('pkg/util/shared-records', () => {
  it('hands out one frozen object for equal records and keeps different ones apart', () => {
    const table = new Map<string, { verb: string; resource: string; pretty: boolean }>();
    const a = sharedRecord(table, { verb: 'WATCH', resource: 'pods', pretty: false });
    const b = sharedRecord(table, { verb: 'WATCH', resource: 'pods', pretty: false });
    const c = sharedRecord(table, { verb: 'WATCH', resource: 'pods', pretty: true });
    const d = sharedRecord(table, { verb: 'WATCH', resource: 'configmaps', pretty: false });
    expect(b).to.equal(a);
    expect(c).to.not.equal(a);
    expect(d).to.not.equal(a);
    expect(Object.isFrozen(a)).to.equal(true);
    // Same values under other names: another record.
    const other = new Map<string, Record<string, string | boolean>>([]);
    const x = sharedRecord(other, { verb: 'WATCH', resource: 'pods' });
    expect(sharedRecord(other, { verb: 'WATCH', group: 'pods' })).to.not.equal(x);
    expect(a).to.deep.equal({ verb: 'WATCH', resource: 'pods', pretty: false });
  });

  it('forgets a full table, and what it handed out stays as it was', () => {
    const table = new Map<string, { n: string }>();
    const first = sharedRecord(table, { n: '0' });
    for (let i = 1; i < 5000; i++) sharedRecord(table, { n: String(i) });
    expect(table.size).to.be.at.most(4096);
    const again = sharedRecord(table, { n: '0' });
    expect(again).to.not.equal(first);
    expect(first).to.deep.equal({ n: '0' });
  });
});
