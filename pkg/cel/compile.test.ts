import { expect } from 'chai';
import type { CelInput } from '@bufbuild/cel';
import type { Attributes, Authorizer, Decision } from '../authorization/interfaces.js';
import { compile, evaluate, EvaluationError, type EvaluateOptions } from './compile.js';
import { AuthzSession } from './library/authz.js';
import { fromCel, toCel, toCelObject } from './value.js';

const vars = ['object', 'oldObject', 'request', 'params', 'authorizer', 'variables'];

async function ev(expression: string, activation: Record<string, unknown> = {}, opts: EvaluateOptions = {}): Promise<unknown> {
  const r = compile(expression, { variables: vars });
  if (r.error) throw new Error(r.error);
  const act: Record<string, CelInput> = {};
  for (const [k, v] of Object.entries(activation)) act[k] = toCel(v);
  return fromCel((await evaluate(r.compiled!, act, opts)).value);
}

async function evErr(expression: string, activation: Record<string, unknown> = {}, opts: EvaluateOptions = {}): Promise<string> {
  try {
    await ev(expression, activation, opts);
  } catch (err) {
    expect(err).to.be.instanceOf(EvaluationError);
    return (err as Error).message;
  }
  throw new Error(`expected ${expression} to fail`);
}

describe('pkg/cel: compile and evaluate', () => {
  it('reads JSON objects with integral numbers as ints', async () => {
    expect(await ev('object.spec.replicas <= 5', { object: { spec: { replicas: 3 } } })).to.equal(true);
    expect(await ev('object.spec.replicas + 1', { object: { spec: { replicas: 3 } } })).to.equal(4);
    expect(await ev('has(object.spec.paused)', { object: { spec: {} } })).to.equal(false);
  });

  it('types built-in objects by their schema: timestamps, doubles, ints', async () => {
    const c = compile("object.metadata.creationTimestamp < timestamp('2030-01-01T00:00:00Z') && object.spec.replicas + 1 == 4", { variables: vars });
    const object = toCelObject({ metadata: { name: 'd', creationTimestamp: '2024-01-02T03:04:05Z' }, spec: { replicas: 3 } }, 'apps', 'v1', 'Deployment');
    expect((await evaluate(c.compiled!, { object })).value).to.equal(true);
    const hpa = toCelObject({ spec: { metrics: [] }, status: {} }, 'autoscaling', 'v2', 'HorizontalPodAutoscaler');
    expect(hpa).to.be.an('object');
    const c2 = compile('object.metadata.creationTimestamp.getFullYear()', { variables: vars });
    expect(fromCel((await evaluate(c2.compiled!, { object })).value)).to.equal(2024);
  });

  it('reports undeclared references as cel-go does, with the caret line', () => {
    expect(compile('foo > 1', { variables: vars }).error).to.equal(
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo > 1\n | ^");
    expect(compile('object.x.nope()', { variables: vars }).error).to.match(/undeclared reference to 'nope'/);
    expect(compile('[1].all(x, x > 0) && int(1) == 1 && type(1) == int', { variables: vars }).error).to.equal(undefined);
  });

  it('reports syntax errors with the position', () => {
    const e = compile('object.a +', { variables: vars }).error!;
    expect(e).to.match(/^compilation failed: ERROR: <input>:1:\d+: Syntax error: /);
    expect(e).to.contain('\n | object.a +\n | ');
  });

  it('checks names under variables. against the declared ones', () => {
    expect(compile('variables.a + variables.b', { variables: vars, compositionVariables: ['a'] }).error)
      .to.contain("undefined field 'b'");
    expect([...compile('variables.a > 1', { variables: vars, compositionVariables: ['a'] }).compiled!.usesVariables]).to.deep.equal(['a']);
  });

  it('fails on a missing field at run time', async () => {
    expect(await evErr('object.spec.missing > 1', { object: { spec: {} } })).to.equal('no such key: missing');
  });

  it('has the strings extension', async () => {
    expect(await ev("'Hello'.lowerAscii() + 'x'.upperAscii()")).to.equal('helloX');
    expect(await ev("'a,b,c'.split(',')")).to.deep.equal(['a', 'b', 'c']);
    expect(await ev("'abc'.indexOf('c')")).to.equal(2);
    expect(await ev("['a','b'].join('-')")).to.equal('a-b');
  });

  it('has the Kubernetes list library', async () => {
    expect(await ev('[1, 2, 3].isSorted()')).to.equal(true);
    expect(await ev("['b', 'a'].isSorted()")).to.equal(false);
    expect(await ev('[1, 2, 3].sum()')).to.equal(6);
    expect(await ev('[1.5, 2.5].sum()')).to.equal(4);
    expect(await ev('[].sum()')).to.equal(0);
    expect(await ev('[3, 1, 2].min()')).to.equal(1);
    expect(await ev("['b', 'c', 'a'].max()")).to.equal('c');
    expect(await ev('[1, 2, 1].indexOf(1)')).to.equal(0);
    expect(await ev('[1, 2, 1].lastIndexOf(1)')).to.equal(2);
    expect(await ev('[1, 2].indexOf(5)')).to.equal(-1);
    expect(await evErr('[].min()')).to.contain('min called on empty list');
  });

  it('has the Kubernetes regex library', async () => {
    expect(await ev("'abc 123'.find('[0-9]+')")).to.equal('123');
    expect(await ev("'abc'.find('[0-9]+')")).to.equal('');
    expect(await ev("'123 abc 456'.findAll('[0-9]+')")).to.deep.equal(['123', '456']);
    expect(await ev("'1 2 3'.findAll('[0-9]', 2)")).to.deep.equal(['1', '2']);
    expect(await ev("'abc'.matches('^a.c$')")).to.equal(true);
  });

  it('has the Kubernetes URL library', async () => {
    expect(await ev("url('https://user@example.com:8443/a%20b?x=1&x=2&y').getScheme()")).to.equal('https');
    expect(await ev("url('https://user@example.com:8443/a%20b?x=1').getHost()")).to.equal('example.com:8443');
    expect(await ev("url('https://example.com:8443/').getHostname()")).to.equal('example.com');
    expect(await ev("url('https://[::1]:80/').getHostname()")).to.equal('::1');
    expect(await ev("url('https://[::1]:80/').getPort()")).to.equal('80');
    expect(await ev("url('https://example.com/').getPort()")).to.equal('');
    expect(await ev("url('https://example.com/a%20b').getEscapedPath()")).to.equal('/a%20b');
    expect(await ev("url('https://example.com/?x=1&x=2&y=a+b').getQuery()")).to.deep.equal({ x: ['1', '2'], y: ['a b'] });
    expect(await ev("url('/just/a/path').getHost()")).to.equal('');
    expect(await ev("isURL('https://example.com')")).to.equal(true);
    expect(await ev("isURL('not a url')")).to.equal(false);
    expect(await evErr("url('relative/path')")).to.equal(
      'URL parse error during conversion from string: parse "relative/path": invalid URI for request');
  });

  it('stops an evaluation that exceeds its cost limit', async () => {
    expect(await evErr('[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(x, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(y, true))', {}, { costLimit: 50 }))
      .to.equal('operation cancelled: actual cost limit exceeded');
    expect(await ev('[1, 2, 3].all(x, x > 0)', {}, { costLimit: 50 })).to.equal(true);
  });

  it('answers authorizer checks from the server Authorizer', async () => {
    const seen: Attributes[] = [];
    const authorizer: Authorizer = {
      name: 'test',
      async authorize(a): Promise<Decision> {
        seen.push(a);
        if (a.isResourceRequest && a.resource === 'deployments' && a.verb === 'get') return { decision: 'allow', reason: 'rbac says yes' };
        if (!a.isResourceRequest && a.path === '/healthz') return { decision: 'allow', reason: '' };
        return { decision: 'noOpinion', reason: 'no rule' };
      },
    };
    const request = { group: 'apps', resource: 'deployments', subresource: '', namespace: 'ns1', name: 'd1' };
    const session = () => ({ session: new AuthzSession(authorizer, { name: 'alice', groups: ['devs'] }), request });
    expect(await ev("authorizer.group('apps').resource('deployments').namespace('ns1').name('d1').check('get').allowed()", {},
      { authorizer: session() })).to.equal(true);
    expect(seen[0]).to.include({ verb: 'get', apiGroup: 'apps', resource: 'deployments', namespace: 'ns1', name: 'd1', isResourceRequest: true });
    expect(seen[0]!.user.name).to.equal('alice');
    expect(await ev("authorizer.group('apps').resource('deployments').check('delete').reason()", {}, { authorizer: session() }))
      .to.equal('no rule');
    expect(await ev("authorizer.path('/healthz').check('get').allowed() && !authorizer.path('/x').check('get').allowed()", {},
      { authorizer: session() })).to.equal(true);
    expect(await ev("authorizer.requestResource.check('get').allowed()", {}, { authorizer: session() })).to.equal(true);
    seen.length = 0;
    await ev("authorizer.serviceAccount('kube-system', 'sa1').group('').resource('pods').check('list').allowed()", {}, { authorizer: session() });
    expect(seen[0]!.user).to.deep.equal({ name: 'system:serviceaccount:kube-system:sa1', groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system'] });
  });
});
