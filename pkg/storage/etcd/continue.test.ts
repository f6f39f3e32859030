import { expect } from 'chai';
import { decodeContinue, encodeContinue } from './continue.js';
import { StorageError } from '../interfaces.js';

const token = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('pkg/storage/etcd/continue', () => {
  it('decodes what it encodes', () => {
    expect(decodeContinue(encodeContinue(42, 'ns/b\u0000'), '/registry/configmaps')).to.deep.equal({ rv: 42, start: 'ns/b\u0000' });
  });

  it('refuses a revision no int64 holds (1e+30) as an invalid token, not a read of a revision to wait for', () => {
    for (const rv of [1e30, 2 ** 60, 1.5, 0, -2]) {
      const err = (() => { try { decodeContinue(token({ v: 'meta.k8s.io/v1', rv, start: 'a' }), '/p'); } catch (e) { return e; } })();
      expect(err, String(rv)).to.be.instanceOf(StorageError);
      expect((err as StorageError).code).to.equal('InvalidContinue');
    }
  });
});
