import { expect } from 'chai';
import { StatusError } from '../../runtime/errors.js';
import {
  isQualifiedName, isValidLabelValue, labelSelectorFromObject, labelSelectorFromSet, parseLabelSelector,
} from './labels.js';

function parseError(s: string): StatusError {
  try {
    parseLabelSelector(s);
  } catch (e) {
    expect(e).to.be.instanceOf(StatusError);
    return e as StatusError;
  }
  throw new Error(`expected ${JSON.stringify(s)} to fail`);
}

const keyRegexHelp = "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const valueRegexHelp = "(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('labels: parseLabelSelector', () => {
  const canonical: Array<[string, string]> = [
    ['', ''],
    ['x=a,y=b,z=c', 'x=a,y=b,z=c'],
    ['z=c,x=a', 'x=a,z=c'],
    ['x!=a,y=b', 'x!=a,y=b'],
    ['x=', 'x='],
    ['x= ', 'x='],
    ['x=,z= ', 'x=,z='],
    ['x==a', 'x==a'],
    ['!x', '!x'],
    ['  x  ', 'x'],
    ['x>1', 'x>1'],
    ['x>1,z<5', 'x>1,z<5'],
    ['x in (b,a)', 'x in (a,b)'],
    ['x in (a,a,b)', 'x in (a,b)'],
    ['x notin ( b , a )', 'x notin (a,b)'],
    ['x in ()', 'x in ()'],
    ['x in (,a)', 'x in (,a)'],
    ['x in (a,)', 'x in (,a)'],
    ['in in (in)', 'in in (in)'],
    ['example.com/app=web,\tenv\n!= prod', 'env!=prod,example.com/app=web'],
    ['x in (foo,,baz),y,z notin ()', 'x in (,baz,foo),y,z notin ()'],
  ];
  for (const [input, want] of canonical) {
    it(`parses ${JSON.stringify(input)} as ${JSON.stringify(want)}`, () => {
      expect(parseLabelSelector(input).toString()).to.equal(want);
    });
  }

  const bad: Array<[string, string]> = [
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    ['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
    [',a', "found ',', expected: !, identifier, or 'end of string'"],
    ['a,', "found '', expected: identifier after ','"],
    ['x in a', "unable to parse requirement: found 'a' expected: '('"],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
    ['x in =', "unable to parse requirement: found '=' expected: '('"],
    ['x=(', "unable to parse requirement: found '(', expected: identifier"],
    ['x<a', 'unable to parse requirement: values[0]: Invalid value: "a": for \'Gt\', \'Lt\' operators, the value must be an integer'],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['a+b=c', `unable to parse requirement: <nil>: Invalid value: "a+b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ${keyRegexHelp}`],
    ['x=a||y=b', `unable to parse requirement: values[0][x]: Invalid value: "a||y": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ${valueRegexHelp}`],
    ['x<-1', `unable to parse requirement: values[0][x]: Invalid value: "-1": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ${valueRegexHelp}`],
    ['/a', `unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty`],
  ];
  for (const [input, message] of bad) {
    it(`rejects ${JSON.stringify(input)} with upstream's message`, () => {
      const err = parseError(input);
      expect(err.code).to.equal(400);
      expect(err.reason).to.equal('BadRequest');
      expect(err.message).to.equal(message);
    });
  }

  it('rejects a value longer than 63 characters with both problems listed', () => {
    const long = 'a'.repeat(64);
    expect(parseError(`x=${long}`).message).to.equal(`unable to parse requirement: values[0][x]: Invalid value: "${long}": must be no more than 63 characters`);
    const longBad = `${'a'.repeat(63)}-`;
    expect(parseError(`x=${longBad}`).message).to.contain('must be no more than 63 characters; a valid label must be');
  });

  const matching: Array<[string, Record<string, string> | undefined, boolean]> = [
    ['', undefined, true],
    ['', { a: 'b' }, true],
    ['x=a', { x: 'a' }, true],
    ['x=a', { x: 'b' }, false],
    ['x=a', {}, false],
    ['x==a', { x: 'a' }, true],
    ['x!=a', { x: 'b' }, true],
    ['x!=a', {}, true],
    ['x!=a', { x: 'a' }, false],
    ['x in (a,b)', { x: 'b' }, true],
    ['x in (a,b)', { x: 'c' }, false],
    ['x in (a,b)', undefined, false],
    ['x notin (a,b)', { x: 'c' }, true],
    ['x notin (a,b)', {}, true],
    ['x notin (a,b)', { x: 'a' }, false],
    ['x', { x: '' }, true],
    ['x', { y: 'x' }, false],
    ['!x', { y: 'x' }, true],
    ['!x', { x: 'y' }, false],
    ['x=', { x: '' }, true],
    ['x=', {}, false],
    ['x>1', { x: '2' }, true],
    ['x>1', { x: '1' }, false],
    ['x>1', { x: 'abc' }, false],
    ['x>1', {}, false],
    ['x<5', { x: '-5' }, true],
    ['x<5', { x: '+5' }, false],
    ['x=a,y=b', { x: 'a', y: 'b' }, true],
    ['x=a,y=b', { x: 'a', y: 'c' }, false],
    ['toString', {}, false],
  ];
  for (const [sel, labels, want] of matching) {
    it(`${JSON.stringify(sel)} ${want ? 'matches' : 'does not match'} ${JSON.stringify(labels)}`, () => {
      expect(parseLabelSelector(sel).matches(labels)).to.equal(want);
    });
  }

  it('reports emptiness and exact-match requirements', () => {
    expect(parseLabelSelector('').empty()).to.equal(true);
    expect(parseLabelSelector('a').empty()).to.equal(false);
    const sel = parseLabelSelector('a=1,b in (2),c in (3,4),d!=5');
    expect(sel.requiresExactMatch('a')).to.equal('1');
    expect(sel.requiresExactMatch('b')).to.equal('2');
    expect(sel.requiresExactMatch('c')).to.equal(undefined);
    expect(sel.requiresExactMatch('d')).to.equal(undefined);
    expect(sel.requirements().map((r) => r.key)).to.deep.equal(['a', 'b', 'c', 'd']);
  });
});

describe('labels: labelSelectorFromObject', () => {
  it('selects nothing for a missing selector and everything for an empty one', () => {
    const nothing = labelSelectorFromObject(null);
    expect(nothing.matches({})).to.equal(false);
    expect(nothing.empty()).to.equal(false);
    expect(labelSelectorFromObject(undefined).matches({ a: 'b' })).to.equal(false);
    const all = labelSelectorFromObject({});
    expect(all.empty()).to.equal(true);
    expect(all.matches(undefined)).to.equal(true);
    expect(labelSelectorFromObject({ matchLabels: {}, matchExpressions: [] }).empty()).to.equal(true);
  });

  it('combines matchLabels and matchExpressions', () => {
    const sel = labelSelectorFromObject({
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['front', 'edge'] },
        { key: 'env', operator: 'NotIn', values: ['prod'] },
        { key: 'owner', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    });
    expect(sel.toString()).to.equal('app=web,env notin (prod),!legacy,owner,tier in (edge,front)');
    expect(sel.matches({ app: 'web', tier: 'edge', owner: 'x' })).to.equal(true);
    expect(sel.matches({ app: 'web', tier: 'edge', owner: 'x', env: 'prod' })).to.equal(false);
    expect(sel.matches({ app: 'web', tier: 'edge', owner: 'x', legacy: '' })).to.equal(false);
    expect(sel.matches({ app: 'web', tier: 'back', owner: 'x' })).to.equal(false);
    expect(sel.matches({ app: 'web', tier: 'edge' })).to.equal(false);
  });

  const bad: Array<[Parameters<typeof labelSelectorFromObject>[0], string]> = [
    [{ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }, '"Gt" is not a valid label selector operator'],
    [{ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty"],
    [{ matchExpressions: [{ key: 'a', operator: 'NotIn' }] }, "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty"],
    [{ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x', 'y'] }] }, 'values: Invalid value: []string{"x", "y"}: values set must be empty for exists and does not exist'],
    [{ matchLabels: { 'a b': 'c' } }, `key: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ${keyRegexHelp}`],
    [{ matchExpressions: [{ key: '', operator: 'In', values: ['-x'] }] }, `[key: Invalid value: "": name part must be non-empty; name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ${keyRegexHelp}, values[0][]: Invalid value: "-x": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ${valueRegexHelp}]`],
  ];
  for (const [sel, message] of bad) {
    it(`rejects ${JSON.stringify(sel)}`, () => {
      let err: unknown;
      try {
        labelSelectorFromObject(sel);
      } catch (e) {
        err = e;
      }
      expect(err).to.be.instanceOf(StatusError);
      expect((err as StatusError).code).to.equal(400);
      expect((err as StatusError).message).to.equal(message);
    });
  }

  it('builds exact-match selectors from sets', () => {
    const sel = labelSelectorFromSet({ b: '2', a: '1' });
    expect(sel.toString()).to.equal('a=1,b=2');
    expect(sel.matches({ a: '1', b: '2', c: '3' })).to.equal(true);
    expect(sel.matches({ a: '1' })).to.equal(false);
    expect(labelSelectorFromSet(undefined).empty()).to.equal(true);
  });
});

describe('labels: key and value validation', () => {
  it('accepts prefixed keys and rejects bad prefixes and too many slashes', () => {
    expect(isQualifiedName('example.com/my-app_1.x')).to.deep.equal([]);
    expect(isQualifiedName('Example.com/x')[0]).to.match(/^prefix part a lowercase RFC 1123 subdomain must consist of lower case/);
    expect(isQualifiedName('a/b/c')[0]).to.match(/^a qualified name must consist of .* with an optional DNS subdomain prefix and '\/' \(e\.g\. 'example\.com\/MyName'\)$/);
    expect(isQualifiedName('x'.repeat(64))).to.deep.equal(['name part must be no more than 63 characters']);
  });

  it('accepts the empty value', () => {
    expect(isValidLabelValue('')).to.deep.equal([]);
    expect(isValidLabelValue('-a')).to.have.length(1);
  });
});
