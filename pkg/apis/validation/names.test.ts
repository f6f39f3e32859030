import { expect } from 'chai';
import {
  isConfigMapKey, isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue,
  isValidPathSegmentName, nameIsDNSLabel, nameIsDNSSubdomain, validatePathSegmentName, validateRBACName,
} from './names.js';

const subdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelMsg = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const dns1035Msg = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const qnameNameMsg = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const labelValueMsg = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const cmKeyMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

describe('name formats', () => {
  const cases: Array<[string, (v: string) => string[], string, string[]]> = [
    ['subdomain ok', isDNS1123Subdomain, 'example.com', []],
    ['subdomain upper', isDNS1123Subdomain, 'Example', [subdomainMsg]],
    ['subdomain too long', isDNS1123Subdomain, 'a'.repeat(254), ['must be no more than 253 characters']],
    ['label with dot', isDNS1123Label, 'a.b', [labelMsg]],
    ['label too long and bad', isDNS1123Label, `${'a'.repeat(64)}-`, ['must be no more than 63 characters', labelMsg]],
    ['1035 leading digit', isDNS1035Label, '1abc', [dns1035Msg]],
    ['qualified ok', isQualifiedName, 'example.com/My_Name-1', []],
    ['qualified empty', isQualifiedName, '', ['name part must be non-empty', qnameNameMsg]],
    ['qualified bad prefix', isQualifiedName, 'Example/x', [`prefix part ${subdomainMsg}`]],
    ['qualified empty prefix', isQualifiedName, '/x', ['prefix part must be non-empty']],
    ['qualified long name', isQualifiedName, 'a'.repeat(64), ['name part must be no more than 63 characters']],
    ['qualified two slashes', isQualifiedName, 'a/b/c', ["a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]],
    ['label value empty ok', isValidLabelValue, '', []],
    ['label value bad', isValidLabelValue, '-x', [labelValueMsg]],
    ['config key ok', isConfigMapKey, '.env', []],
    ['config key slash', isConfigMapKey, 'a/b', [cmKeyMsg]],
    ['config key dot', isConfigMapKey, '.', ["must not be '.'"]],
    ['config key dotdot', isConfigMapKey, '..', ["must not be '..'"]],
    ['config key ..x', isConfigMapKey, '..x', ["must not start with '..'"]],
    ['path segment dot', isValidPathSegmentName, '.', ["may not be '.'"]],
    ['path segment both', isValidPathSegmentName, 'a/%b', ["may not contain '/'", "may not contain '%'"]],
    ['path segment colon ok', isValidPathSegmentName, 'system:admin', []],
  ];
  for (const [name, fn, value, want] of cases) {
    it(name, () => expect(fn(value)).to.deep.equal(want));
  }

  it('masks a trailing dash of a generateName', () => {
    expect(nameIsDNSSubdomain('foo-', true)).to.deep.equal([]);
    expect(nameIsDNSSubdomain('foo-', false)).to.deep.equal([subdomainMsg]);
    expect(nameIsDNSLabel('a.b-', true)).to.deep.equal([labelMsg]);
  });

  it('path-segment prefixes may be dots, RBAC names may not', () => {
    expect(validatePathSegmentName('..', true)).to.deep.equal([]);
    expect(validatePathSegmentName('..', false)).to.deep.equal(["may not be '..'"]);
    expect(validateRBACName('..', true)).to.deep.equal(["may not be '..'"]);
  });
});
