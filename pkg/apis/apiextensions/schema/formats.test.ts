import { expect } from 'chai';
import { effectiveFormat, validatesFormat } from './formats.js';
import { goFloat, goSharpV } from './gofmt.js';

const valid: Array<[string, string[], string[]]> = [
  ['date-time', ['2023-01-02T03:04:05Z', '2023-01-02t03:04:05.123+02:00'], ['2023-01-02', '2023-01-02T25:00:00Z', '2023-02-30T00:00:00Z', 'x']],
  ['date', ['2024-02-29'], ['2023-02-29', '2023-1-02', '2023-13-01']],
  ['uuid', ['123e4567-e89b-12d3-a456-426614174000', '123E4567E89B12D3A456426614174000'], ['123e4567-e89b-12d3-a456']],
  ['uuid4', ['123e4567-e89b-42d3-a456-426614174000'], ['123e4567-e89b-12d3-a456-426614174000']],
  ['byte', ['aGVsbG8=', 'YWJj'], ['', 'abc', 'a$bc']],
  ['ipv4', ['10.0.0.1', '::ffff:1.2.3.4'], ['10.0.0.256', '010.0.0.1', '::1']],
  ['ipv6', ['::1', '2001:db8::1'], ['10.0.0.1', 'fe80::1%eth0']],
  ['cidr', ['10.0.0.0/8', '2001:db8::/32'], ['10.0.0.0/33', '10.0.0.0']],
  ['mac', ['01:23:45:67:89:ab', '01-23-45-67-89-ab', '0123.4567.89ab'], ['01:23:45:67:89', '01:23-45:67:89:ab']],
  ['hostname', ['example.com', 'a'], ['-bad.com', 'a_b.com']],
  ['email', ['a@example.com', 'Name <a.b@example.com>'], ['a', 'a@', '@b']],
  ['uri', ['https://example.com/x?y=1', '/just/a/path', 'mailto:a@b'], ['relative/path', 'http://host:port/', '%zz']],
  ['duration', ['1h30m', '1.5s', '0', '3 days', '10 min'], ['', '1', 'forever']],
  ['isbn10', ['0321751043', '0-321-75104-3'], ['0321751044']],
  ['isbn13', ['978-0321751041'], ['9780321751042']],
  ['creditcard', ['4111 1111 1111 1111'], ['4111 1111 1111 1112']],
  ['ssn', ['123-45-6789'], ['123456789']],
  ['hexcolor', ['#fff', 'A0B1C2'], ['#ffff']],
  ['rgbcolor', ['rgb(0, 128,255)'], ['rgb(256,0,0)']],
  ['bsonobjectid', ['507f1f77bcf86cd799439011'], ['507f1f77bcf86cd79943901']],
  ['password', ['anything'], []],
];

describe('apiextensions/schema formats', () => {
  for (const [format, good, bad] of valid) {
    it(`checks ${format}`, () => {
      for (const v of good) expect(validatesFormat(format, v), `${format} ${JSON.stringify(v)}`).to.equal(true);
      for (const v of bad) expect(validatesFormat(format, v), `${format} ${JSON.stringify(v)}`).to.equal(false);
    });
  }

  it('keeps only the formats upstream keeps for the type', () => {
    expect(effectiveFormat('date-time', 'string')).to.equal('date-time');
    expect(effectiveFormat('my-format', 'string')).to.equal('');
    expect(effectiveFormat('int32', 'integer')).to.equal('int32');
    expect(effectiveFormat('date', 'integer')).to.equal('');
    expect(effectiveFormat('double', 'number')).to.equal('double');
    expect(effectiveFormat('int32', 'number')).to.equal('');
    expect(effectiveFormat('date', 'object')).to.equal('');
  });
});

describe('apiextensions/schema Go value printing', () => {
  it('prints floats as Go %v does', () => {
    expect([0.5, 2, 123456, 1234567, 1e-5, 0.0001, 1e21].map(goFloat))
      .to.deep.equal(['0.5', '2', '123456', '1.234567e+06', '1e-05', '0.0001', '1e+21']);
  });

  it('prints decoded JSON as Go %#v does, map keys sorted', () => {
    expect(goSharpV({ b: [1, 'x', null], a: true })).to.equal('map[string]interface {}{"a":true, "b":[]interface {}{1, "x", interface {}(nil)}}');
  });
});
