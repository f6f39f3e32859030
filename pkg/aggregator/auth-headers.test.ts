import { expect } from 'chai';
import { escapeExtraKey, withAuthProxyHeaders } from './auth-headers.js';

describe('aggregator auth proxy headers', () => {
  it('escapes extra keys as client-go does', () => {
    expect(escapeExtraKey('scopes')).to.equal('scopes');
    expect(escapeExtraKey('example.com/key')).to.equal('example.com%2Fkey');
    expect(escapeExtraKey('a%b c')).to.equal('a%25b%20c');
    expect(escapeExtraKey('ü')).to.equal('%C3%BC');
  });

  it('replaces client identity headers with the authenticated user', () => {
    const out = withAuthProxyHeaders({
      accept: 'application/json', authorization: 'Bearer x', 'x-remote-user': 'mallory', 'X-Remote-Extra-foo': 'bar',
      'impersonate-user': 'root', 'x-remote-group': 'system:masters',
    }, { name: 'alice', groups: ['devs', 'system:authenticated'], extra: { 'example.com/team': ['a', 'b'] } });
    expect(out).to.deep.equal({
      accept: 'application/json',
      'X-Remote-User': 'alice',
      'X-Remote-Group': ['devs', 'system:authenticated'],
      'X-Remote-Extra-example.com%2Fteam': ['a', 'b'],
    });
  });
});
