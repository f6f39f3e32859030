import { expect } from 'chai';
import { requestQuery } from './query.js';

describe('requestQuery', () => {
  it('parses as URLSearchParams does: repeated keys, empty values, decoding', () => {
    const ctx = { querystring: 'a=1&a=2&b=&c&d=x%20y+z', state: {} };
    const q = requestQuery(ctx);
    expect(q.getAll('a')).to.deep.equal(['1', '2']);
    expect(q.get('b')).to.equal('');
    expect(q.get('c')).to.equal('');
    expect(q.get('d')).to.equal('x y z');
    expect([...q]).to.deep.equal([...new URLSearchParams(ctx.querystring)]);
  });

  it('parses once per request, and again once the query is rewritten', () => {
    const ctx = { querystring: 'timeout=5s', state: {} as Record<string, unknown> };
    const first = requestQuery(ctx);
    expect(requestQuery(ctx)).to.equal(first);
    ctx.querystring = 'timeout=7s';
    expect(requestQuery(ctx).get('timeout')).to.equal('7s');
    expect(requestQuery({ querystring: 'timeout=5s', state: {} })).to.not.equal(first);
  });
});
