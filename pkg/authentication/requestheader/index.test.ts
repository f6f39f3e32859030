import { expect } from 'chai';
import { userFromHeaders } from './index.js';

const opts = { usernameHeaders: ['X-Remote-User', 'X-Other-User'], groupHeaders: ['X-Remote-Group'], extraHeaderPrefixes: ['X-Remote-Extra-'] };

describe('authentication/requestheader', () => {
  it('takes the first non-empty username header, every group value, and decoded lower-case extra keys', () => {
    const rawHeaders = [
      'X-Remote-User', '', 'X-Other-User', 'jane', 'X-Remote-Group', 'a, b', 'x-remote-group', 'c',
      'X-Remote-Extra-Acme.com%2Fproject', 'p1', 'X-Remote-Extra-acme.com%2fproject', 'p2', 'X-Remote-Extra-Bad%zz', 'v',
    ];
    expect(userFromHeaders({ headers: {}, rawHeaders }, opts)).to.deep.equal({
      name: 'jane', groups: ['a, b', 'c'], extra: { 'acme.com/project': ['p1', 'p2'], 'bad%zz': ['v'] },
    });
  });

  it('no username: no identity', () => {
    expect(userFromHeaders({ headers: {}, rawHeaders: ['X-Remote-Group', 'g'] }, opts)).to.equal(undefined);
  });
});
