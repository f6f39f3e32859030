import { expect } from 'chai';
import { runChecks } from './checks.js';
import type { CallRecord, EtcdEvent, WatchRecord } from './workload.js';

let id = 0;
const call = (p: Partial<CallRecord> & Pick<CallRecord, 'kind' | 'inv' | 'cmp' | 'key'>): CallRecord =>
  ({ id: id++, outcome: 'ok', url: 'u', httpStatus: 200, ...p });
const put = (name: string, rev: string, token: string, type: EtcdEvent['type'] = 'MODIFIED'): EtcdEvent =>
  ({ key: `/registry/configmaps/chaos/${name}`, name, rev, type, value: Buffer.from(`{"data":{"w":"${token}"}}`) });

describe('chaos checks', () => {
  const history = [put('a', '10', 't1', 'ADDED'), put('b', '11', 't2', 'ADDED'), put('a', '12', 't3')];
  const calls = [
    call({ key: 'a', kind: 'create', inv: 0, cmp: 1, token: 't1', written: { rv: '10', token: 't1' } }),
    call({ key: 'b', kind: 'create', inv: 2, cmp: 3, token: 't2', written: { rv: '11', token: 't2' } }),
    call({ key: 'a', kind: 'updateUncond', inv: 4, cmp: 5, token: 't3', written: { rv: '12', token: 't3' } }),
  ];
  const watch = (events: Array<{ type: string; name: string; rv: string }>): WatchRecord =>
    ({ id: 0, expired: 0, reconnects: 0, segments: [{ from: '9', afterExpired: false, events }] });
  const all = [{ type: 'ADDED', name: 'a', rv: '10' }, { type: 'ADDED', name: 'b', rv: '11' }, { type: 'MODIFIED', name: 'a', rv: '12' }];

  it('finds nothing in a clean run', () => {
    const f = runChecks({ calls, watches: [watch(all)], history, compactedRevision: '0' });
    expect(f.violations, JSON.stringify(f)).to.equal(0);
    expect(f.operations).to.equal(3);
  });

  it('finds a lost write, a watch gap, a duplicate, a 5xx and a revision going backwards', () => {
    const lost = call({ key: 'b', kind: 'patch', inv: 6, cmp: 7, token: 't9', written: { rv: '13', token: 't9' } });
    const backwards = call({ key: 'c', kind: 'create', inv: 8, cmp: 9, token: 't8', written: { rv: '5', token: 't8' } });
    const fiveHundred = call({ key: 'c', kind: 'get', inv: 8, cmp: Infinity, outcome: 'unknown', httpStatus: 500 });
    const f = runChecks({
      calls: [...calls, lost, backwards, fiveHundred],
      watches: [watch([all[0]!, all[2]!, all[2]!])],
      history, compactedRevision: '0',
    });
    expect(f.lostWrites.join('\n')).to.match(/no write of b at revision 13 in etcd/);
    expect(f.watchGaps.join('\n')).to.match(/missed ADDED b@11/);
    expect(f.watchDuplicates.join('\n')).to.match(/MODIFIED a@12 delivered twice/);
    expect(f.unexpected5xx).to.have.length(1);
    expect(f.revisionOrder.join('\n')).to.match(/create\(t8\)/);
  });

  it('allows 503 and 504 only while etcd may have had no leader, and never a 500', () => {
    const during = call({ key: 'c', kind: 'delete', inv: 20, cmp: Infinity, outcome: 'unknown', httpStatus: 503 });
    const timeout = call({ key: 'c', kind: 'get', inv: 25, cmp: Infinity, outcome: 'unknown', httpStatus: 504 });
    const after = call({ key: 'c', kind: 'delete', inv: 40, cmp: Infinity, outcome: 'unknown', httpStatus: 503 });
    const internal = call({ key: 'c', kind: 'get', inv: 21, cmp: Infinity, outcome: 'unknown', httpStatus: 500 });
    const f = runChecks({ calls: [...calls, during, timeout, after, internal], watches: [watch(all)], history, compactedRevision: '0', noQuorum: [[15, 30]] });
    expect(f.unexpected5xx).to.have.length(2);
    expect(f.unexpected5xx.join('\n')).to.match(/HTTP 503/).and.to.match(/HTTP 500/);
  });

  it('allows a starting replica\'s 503 only while a replica restarts, and no other 5xx then', () => {
    const starting = '{"kind":"Status","message":"the server is starting: waiting for etcd and the bootstrap","reason":"ServiceUnavailable","code":503}';
    const during = call({ key: 'c', kind: 'delete', inv: 20, cmp: Infinity, outcome: 'unknown', httpStatus: 503, error: starting });
    const after = call({ key: 'c', kind: 'delete', inv: 40, cmp: Infinity, outcome: 'unknown', httpStatus: 503, error: starting });
    const other = call({ key: 'c', kind: 'get', inv: 21, cmp: Infinity, outcome: 'unknown', httpStatus: 503, error: 'etcd unreachable' });
    const f = runChecks({ calls: [...calls, during, after, other], watches: [watch(all)], history, compactedRevision: '0', starting: [[15, 30]] });
    expect(f.unexpected5xx).to.have.length(2);
    expect(f.unexpected5xx.join('\n')).to.include('etcd unreachable').and.to.match(/\[40/);
  });
});
