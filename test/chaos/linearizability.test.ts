import { expect } from 'chai';
import { checkHistory, type Op } from './linearizability.js';

let nextId = 0;
function op(p: Partial<Op> & Pick<Op, 'kind' | 'inv' | 'cmp'>): Op {
  return { id: nextId++, key: 'k', outcome: 'ok', ...p };
}
const v = (token: string, rv: string) => ({ token, rv });

describe('chaos linearizability checker', () => {
  it('accepts a sequential history', () => {
    const h = [
      op({ kind: 'create', inv: 0, cmp: 1, token: 'a', written: v('a', '10') }),
      op({ kind: 'get', inv: 2, cmp: 3, observed: v('a', '10') }),
      op({ kind: 'update', inv: 4, cmp: 5, precondition: '10', token: 'b', written: v('b', '12') }),
      op({ kind: 'update', inv: 6, cmp: 7, precondition: '10', token: 'c', outcome: 'fail', status: 409 }),
      op({ kind: 'patch', inv: 8, cmp: 9, token: 'd', written: v('d', '13') }),
      op({ kind: 'delete', inv: 10, cmp: 11, precondition: '13', observed: v('d', '13') }),
      op({ kind: 'get', inv: 12, cmp: 13, outcome: 'fail', status: 404 }),
      op({ kind: 'read', inv: 14, cmp: 15, observed: null }),
    ];
    const r = checkHistory(h);
    expect(r.ok, JSON.stringify(r)).to.equal(true);
  });

  it('rejects a stale read after an acknowledged write', () => {
    const h = [
      op({ kind: 'create', inv: 0, cmp: 1, token: 'a', written: v('a', '10') }),
      op({ kind: 'updateUncond', inv: 2, cmp: 3, token: 'b', written: v('b', '11') }),
      op({ kind: 'get', inv: 4, cmp: 5, observed: v('a', '10') }),
    ];
    const r = checkHistory(h);
    expect(r.ok).to.equal(false);
    expect(r.violations.map((x) => x.key)).to.deep.equal(['k']);
    expect(r.violations[0]!.explanation).to.match(/no linearization/);
  });

  it('accepts a read of either value while the write overlaps it', () => {
    for (const seen of [v('a', '10'), v('b', '11')]) {
      const h = [
        op({ kind: 'create', inv: 0, cmp: 1, token: 'a', written: v('a', '10') }),
        op({ kind: 'updateUncond', inv: 2, cmp: 6, token: 'b', written: v('b', '11') }),
        op({ kind: 'get', inv: 3, cmp: 5, observed: seen }),
      ];
      expect(checkHistory(h).ok, seen.token).to.equal(true);
    }
  });

  it('rejects reads that go back in time (new value, then the old one, both overlapping the write)', () => {
    const h = [
      op({ kind: 'create', inv: 0, cmp: 1, token: 'a', written: v('a', '10') }),
      op({ kind: 'updateUncond', inv: 2, cmp: 10, token: 'b', written: v('b', '11') }),
      op({ kind: 'get', inv: 3, cmp: 4, observed: v('b', '11') }),
      op({ kind: 'get', inv: 5, cmp: 6, observed: v('a', '10') }),
    ];
    expect(checkHistory(h).ok).to.equal(false);
  });

  it('lets an indeterminate write take effect, or not', () => {
    const base = [
      op({ kind: 'create', inv: 0, cmp: 1, token: 'a', written: v('a', '10') }),
      op({ kind: 'updateUncond', inv: 2, cmp: Infinity, outcome: 'unknown', token: 'x' }),
    ];
    // Took effect (seen later, with its resourceVersion bound by the read).
    expect(checkHistory([...base, op({ kind: 'get', inv: 5, cmp: 6, observed: v('x', '11') })]).ok).to.equal(true);
    // Did not (yet).
    expect(checkHistory([...base, op({ kind: 'get', inv: 5, cmp: 6, observed: v('a', '10') })]).ok).to.equal(true);
    // But not "took effect, then undone".
    expect(checkHistory([...base,
      op({ kind: 'get', inv: 5, cmp: 6, observed: v('x', '11') }),
      op({ kind: 'get', inv: 7, cmp: 8, observed: v('a', '10') }),
    ]).ok).to.equal(false);
  });

  it('rejects a value nobody wrote', () => {
    const h = [
      op({ kind: 'create', inv: 0, cmp: 1, token: 'a', written: v('a', '10') }),
      op({ kind: 'get', inv: 2, cmp: 3, observed: v('ghost', '11') }),
    ];
    expect(checkHistory(h).ok).to.equal(false);
  });

  it('rejects a precondition update that succeeded against an overwritten version', () => {
    const h = [
      op({ kind: 'create', inv: 0, cmp: 1, token: 'a', written: v('a', '10') }),
      op({ kind: 'updateUncond', inv: 2, cmp: 3, token: 'b', written: v('b', '11') }),
      op({ kind: 'update', inv: 4, cmp: 5, precondition: '10', token: 'c', written: v('c', '12') }),
    ];
    expect(checkHistory(h).ok).to.equal(false);
  });

  it('orders two concurrent precondition updates: only one may win', () => {
    const base = [op({ kind: 'create', inv: 0, cmp: 1, token: 'a', written: v('a', '10') })];
    const ok2 = checkHistory([...base,
      op({ kind: 'update', inv: 2, cmp: 5, precondition: '10', token: 'b', written: v('b', '11') }),
      op({ kind: 'update', inv: 2, cmp: 5, precondition: '10', token: 'c', outcome: 'fail', status: 409 }),
    ]);
    expect(ok2.ok).to.equal(true);
    const both = checkHistory([...base,
      op({ kind: 'update', inv: 2, cmp: 5, precondition: '10', token: 'b', written: v('b', '11') }),
      op({ kind: 'update', inv: 2, cmp: 5, precondition: '10', token: 'c', written: v('c', '12') }),
    ]);
    expect(both.ok).to.equal(false);
  });

  it('rejects a 404 for an object known to exist, and a create that succeeds twice', () => {
    expect(checkHistory([
      op({ kind: 'create', inv: 0, cmp: 1, token: 'a', written: v('a', '10') }),
      op({ kind: 'get', inv: 2, cmp: 3, outcome: 'fail', status: 404 }),
    ]).ok).to.equal(false);
    expect(checkHistory([
      op({ kind: 'create', inv: 0, cmp: 1, token: 'a', written: v('a', '10') }),
      op({ kind: 'create', inv: 2, cmp: 3, token: 'b', written: v('b', '11') }),
    ]).ok).to.equal(false);
  });

  it('reports a resourceVersion bound to two contents', () => {
    const r = checkHistory([
      op({ kind: 'create', inv: 0, cmp: 1, token: 'a', written: v('a', '10') }),
      op({ key: 'other', kind: 'create', inv: 0, cmp: 1, token: 'b', written: v('b', '10') }),
    ]);
    expect(r.ok).to.equal(false);
    expect(r.bindingErrors[0]).to.match(/resourceVersion 10 holds token a and b/);
  });

  it('partitions by key and handles many concurrent clients', () => {
    const h: Op[] = [];
    let rv = 100;
    for (let k = 0; k < 20; k++) {
      const key = `k${k}`;
      h.push(op({ key, kind: 'create', inv: 0, cmp: 1, token: `${key}-0`, written: v(`${key}-0`, String(rv++)) }));
      // Ten overlapping writes then reads of the last one.
      let last = '';
      for (let i = 1; i <= 10; i++) {
        last = `${key}-${i}`;
        h.push(op({ key, kind: 'updateUncond', inv: 2, cmp: 20, token: last, written: v(last, String(rv++)) }));
      }
      h.push(op({ key, kind: 'get', inv: 21, cmp: 22, observed: v(last, String(rv - 1)) }));
    }
    const r = checkHistory(h);
    expect(r.ok).to.equal(true);
    expect(r.keys).to.equal(20);
  });
});
