import { expect } from 'chai';
import type { Attributes } from '../interfaces.js';
import { ABACAuthorizer, parsePolicyFile, PolicyLoadError } from './index.js';

const v1 = (spec: Record<string, unknown>) => JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });
const attrs = (user: string, groups: string[], o: Partial<Attributes>): Attributes => ({ user: { name: user, groups }, verb: 'get',
  isResourceRequest: true, path: '', namespace: 'ns', apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: '', name: '', ...o });

describe('ABAC policy file', () => {
  it('skips blank and comment lines and reads v1beta1 policies', () => {
    const p = parsePolicyFile('f', ['# c', '', v1({ user: 'a', resource: 'pods' }), '  # indented comment'].join('\n'));
    expect(p).to.deep.equal([{ user: 'a', resource: 'pods' }]);
  });

  it('names the file and line of a bad policy', () => {
    expect(() => parsePolicyFile('/p.jsonl', `${v1({ user: 'a' })}\n\n{"apiVersion": 1,`)).to.throw(PolicyLoadError, /^error reading policy file \/p\.jsonl, line 3: \{"apiVersion": 1,: /);
    expect(() => parsePolicyFile('/p.jsonl', v1({ user: 7 }))).to.throw(/line 1: .*cannot unmarshal number into Go struct field PolicySpec\.spec\.user of type string/);
  });

  const table: Array<[string, Record<string, unknown>, Attributes, boolean]> = [
    ['user match', { user: 'a', namespace: '*', resource: '*', apiGroup: '*' }, attrs('a', [], {}), true],
    ['other user', { user: 'a', namespace: '*', resource: '*', apiGroup: '*' }, attrs('b', [], {}), false],
    ['user *', { user: '*', namespace: '*', resource: '*', apiGroup: '*' }, attrs('b', [], {}), true],
    ['group match', { group: 'g', namespace: '*', resource: '*', apiGroup: '*' }, attrs('b', ['g'], {}), true],
    ['user and group both required', { user: 'a', group: 'g', namespace: '*', resource: '*', apiGroup: '*' }, attrs('a', [], {}), false],
    ['no subject matches nobody', { namespace: '*', resource: '*', apiGroup: '*' }, attrs('a', [], {}), false],
    ['readonly allows reads', { user: 'a', readonly: true, namespace: '*', resource: '*', apiGroup: '*' }, attrs('a', [], { verb: 'watch' }), true],
    ['readonly refuses writes', { user: 'a', readonly: true, namespace: '*', resource: '*', apiGroup: '*' }, attrs('a', [], { verb: 'create' }), false],
    ['namespace exact', { user: 'a', namespace: 'ns', resource: 'pods', apiGroup: '' }, attrs('a', [], {}), true],
    ['namespace other', { user: 'a', namespace: 'x', resource: 'pods', apiGroup: '' }, attrs('a', [], {}), false],
    ['apiGroup other', { user: 'a', namespace: '*', resource: 'pods', apiGroup: 'apps' }, attrs('a', [], {}), false],
    ['path exact', { user: 'a', nonResourcePath: '/version' }, attrs('a', [], { isResourceRequest: false, path: '/version' }), true],
    ['path prefix *', { user: 'a', nonResourcePath: '/logs/*' }, attrs('a', [], { isResourceRequest: false, path: '/logs/x' }), true],
    ['path policy never grants resources', { user: 'a', nonResourcePath: '*' }, attrs('a', [], {}), false],
    ['resource policy never grants paths', { user: 'a', namespace: '*', resource: '*', apiGroup: '*' }, attrs('a', [], { isResourceRequest: false, path: '/x' }), false],
  ];
  for (const [name, spec, a, want] of table) {
    it(`${name} -> ${want}`, async () => {
      const d = await new ABACAuthorizer(parsePolicyFile('f', v1(spec))).authorize(a);
      expect(d).to.deep.equal(want ? { decision: 'allow', reason: '' } : { decision: 'noOpinion', reason: 'No policy matched.' });
    });
  }
});
