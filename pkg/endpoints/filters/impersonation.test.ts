import { expect } from 'chai';
import { parseImpersonation } from './impersonation.js';

describe('filters/impersonation headers', () => {
  it('a service-account user name becomes a ServiceAccount request', () => {
    expect(parseImpersonation(['Impersonate-User', 'system:serviceaccount:ns:robot', 'Impersonate-Group', 'g1', 'impersonate-group', 'g2']))
      .to.deep.equal([
        { kind: 'ServiceAccount', namespace: 'ns', name: 'robot' },
        { kind: 'Group', name: 'g1' }, { kind: 'Group', name: 'g2' },
      ]);
  });

  it('extra keys are lower-cased and percent-decoded; uid is kept', () => {
    expect(parseImpersonation(['Impersonate-User', 'jane', 'Impersonate-Extra-Acme.com%2FScopes', 'view', 'Impersonate-Uid', 'u-1'])).to.deep.equal([
      { kind: 'User', name: 'jane' },
      { kind: 'UserExtra', apiVersion: 'authentication.k8s.io/v1', name: 'view', fieldPath: 'acme.com/scopes' },
      { kind: 'UID', name: 'u-1', apiVersion: 'authentication.k8s.io/v1' },
    ]);
  });

  it('groups, extra or uid without a user: upstream message printing the references as Go does', () => {
    expect(parseImpersonation(['Impersonate-Group', 'system:masters'])).to.deep.equal({ error: 'requested [{Group  system:masters    }] without impersonating a user' });
    expect(parseImpersonation(['Impersonate-Extra-scopes', 'a', 'Impersonate-Uid', 'u'])).to.deep.equal({
      error: 'requested [{UserExtra  a  authentication.k8s.io/v1  scopes} {UID  u  authentication.k8s.io/v1  }] without impersonating a user',
    });
  });

  it('no headers, nothing to do', () => {
    expect(parseImpersonation(['Accept', 'application/json'])).to.deep.equal([]);
    // Names of any case; a value that looks like a header name is not one.
    expect(parseImpersonation(['IMPERSONATE-USER', 'jane', 'iMpErSoNaTe-GrOuP', 'g'])).to.deep.equal([{ kind: 'User', name: 'jane' }, { kind: 'Group', name: 'g' }]);
    expect(parseImpersonation(['Impersonate', 'x', 'Impersonate-', 'y', 'X-Note', 'Impersonate-User'])).to.deep.equal([]);
    expect(parseImpersonation(['Impersonate-Extra-', 'v', 'Impersonate-User', 'u'])).to.deep.equal([
      { kind: 'User', name: 'u' }, { kind: 'UserExtra', apiVersion: 'authentication.k8s.io/v1', name: 'v', fieldPath: '' },
    ]);
  });
});
