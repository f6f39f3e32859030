import { expect } from 'chai';
import { parseTokenFile, TokenFileAuthenticator } from './index.js';

describe('authentication/tokenfile', () => {
  it('reads token,user,uid and a quoted group list, as Go CSV does', () => {
    const { tokens, warnings } = parseTokenFile('t1,alice,uid-a,"devs,qa"\n\nt2,bob,uid-b\r\nt3,carol,uid-c,ops,ignored\n', 'f.csv');
    expect(warnings).to.deep.equal([]);
    expect(tokens.get('t1')).to.deep.equal({ name: 'alice', uid: 'uid-a', groups: ['devs', 'qa'] });
    expect(tokens.get('t2')).to.deep.equal({ name: 'bob', uid: 'uid-b', groups: [] });
    expect(tokens.get('t3')).to.deep.equal({ name: 'carol', uid: 'uid-c', groups: ['ops'] });
  });

  it('keeps quotes doubled inside quoted fields and a line break inside quotes', () => {
    const { tokens } = parseTokenFile('t1,"al""ice",u,"a,\nb"\n');
    expect(tokens.get('t1')).to.deep.equal({ name: 'al"ice', uid: 'u', groups: ['a', '\nb'] });
  });

  it('refuses a record with fewer than three columns, naming the line', () => {
    expect(() => parseTokenFile('t1,alice,u1\n\nt2,bob\n', '/etc/tokens.csv'))
      .to.throw("token file '/etc/tokens.csv' must have at least 3 columns (token, user name, user uid), found 2 (line 3)");
  });

  it('refuses malformed quoting with Go csv wording and position', () => {
    expect(() => parseTokenFile('t1,alice,u1\nt2,b"ob,u2\n', 'f')).to.throw("token file 'f': parse error on line 2, column 5: bare \" in non-quoted-field");
    expect(() => parseTokenFile('t1,"alice,u1\n', 'f')).to.throw(/extraneous or missing " in quoted-field/);
  });

  it('skips an empty token and lets a repeated token win, with upstream warnings', () => {
    const { tokens, warnings } = parseTokenFile(',nobody,u0\nt1,alice,u1\nt1,bob,u2\n', 'f');
    expect(tokens.size).to.equal(1);
    expect(tokens.get('t1')?.name).to.equal('bob');
    expect(warnings).to.deep.equal([
      "empty token has been found in token file 'f', record number '1'",
      "duplicate token has been found in token file 'f', record number '3'",
    ]);
  });

  it('authenticates known tokens only', async () => {
    const a = new TokenFileAuthenticator(parseTokenFile('t1,alice,u1,g\n').tokens);
    expect(await a.authenticateToken('t1')).to.deep.equal({ decision: 'authenticated', user: { name: 'alice', uid: 'u1', groups: ['g'] } });
    expect(await a.authenticateToken('t2')).to.deep.equal({ decision: 'noOpinion' });
  });
});
