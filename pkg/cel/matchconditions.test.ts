import { expect } from 'chai';
import { compileMatchConditions, MatchConditionError } from './matchconditions.js';

const req = { operation: 'CREATE', userInfo: { username: 'alice' } };

describe('pkg/cel: compileMatchConditions', () => {
  it('matches only when every condition is true', async () => {
    const m = compileMatchConditions([
      { name: 'is-create', expression: "request.operation == 'CREATE'" },
      { name: 'labelled', expression: "has(object.metadata.labels) && object.metadata.labels.env == 'prod'" },
    ]);
    expect(await m({ object: { metadata: { labels: { env: 'prod' } } }, oldObject: null, request: req })).to.equal(true);
    expect(await m({ object: { metadata: {} }, oldObject: null, request: req })).to.equal(false);
  });

  it('prefers a false condition over an error, and throws the error otherwise', async () => {
    const m = compileMatchConditions([
      { name: 'boom', expression: 'object.nope == 1' },
      { name: 'never', expression: 'false' },
    ]);
    expect(await m({ object: {}, oldObject: null, request: req })).to.equal(false);
    const e = compileMatchConditions([{ name: 'boom', expression: 'object.nope == 1' }]);
    let err: unknown;
    try { await e({ object: {}, oldObject: null, request: req }); } catch (x) { err = x; }
    expect(err).to.be.instanceOf(MatchConditionError);
    expect((err as Error).message).to.contain("matchCondition 'boom'");
  });

  it('rejects a condition that does not compile', () => {
    expect(() => compileMatchConditions([{ name: 'bad', expression: 'params.x' }])).to.throw(/undeclared reference to 'params'/);
  });

  it('lets conditions ask the authorizer', async () => {
    const m = compileMatchConditions([{ name: 'admin', expression: "!authorizer.group('').resource('secrets').check('get').allowed()" }]);
    const authorizer = { name: 't', authorize: async () => ({ decision: 'allow' as const, reason: '' }) };
    expect(await m({ object: {}, oldObject: null, request: req, authorizer: { authorizer, user: { name: 'bob', groups: [] } } })).to.equal(false);
  });

  it('takes the user and resource from the request when given the bare Authorizer', async () => {
    const seen: Array<{ user: string; resource: string; verb: string }> = [];
    const authorizer = {
      name: 't',
      authorize: async (a: { user: { name: string }; resource: string; verb: string }) => {
        seen.push({ user: a.user.name, resource: a.resource, verb: a.verb });
        return { decision: 'allow' as const, reason: '' };
      },
    };
    const m = compileMatchConditions([{ name: 'own', expression: "authorizer.requestResource.check('update').allowed()" }]);
    const request = { ...req, resource: { group: 'apps', version: 'v1', resource: 'deployments' }, namespace: 'ns', name: 'd' };
    expect(await m({ object: {}, oldObject: null, request, authorizer: authorizer as never })).to.equal(true);
    expect(seen).to.deep.equal([{ user: 'alice', resource: 'deployments', verb: 'update' }]);
  });
});
