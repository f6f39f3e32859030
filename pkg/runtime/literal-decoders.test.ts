import { expect } from 'chai';
import { base64Error, canonicalBase64, quantityError, quantityFormatError, timeError } from './literal-decoders.js';

describe('literal decoders', () => {
  it('quantity: accepts upstream forms, reports the failure class', () => {
    for (const ok of ['1', '0.5', '.5', '500m', '1Gi', '2e3', '1E-3', '+1', '-2Ki', ' 3 ']) expect(quantityError(ok), ok).to.equal(undefined);
    expect(quantityError('')).to.equal(quantityFormatError);
    expect(quantityError('abc')).to.equal(quantityFormatError);
    expect(quantityError('1.2.3')).to.equal('unable to parse numeric part of quantity');
    expect(quantityError('1Kii')).to.equal("unable to parse quantity's suffix");
  });

  it('base64: reports the offset Go reports', () => {
    expect(base64Error('')).to.equal(undefined);
    expect(base64Error('YWJj')).to.equal(undefined);
    expect(base64Error('YQ==')).to.equal(undefined);
    expect(base64Error('YWI=')).to.equal(undefined);
    expect(base64Error('YW\nJj')).to.equal(undefined);
    expect(base64Error('abc')).to.equal('illegal base64 data at input byte 0');
    expect(base64Error('YWJjZ')).to.equal('illegal base64 data at input byte 4');
    expect(base64Error('YW!j')).to.equal('illegal base64 data at input byte 2');
    expect(base64Error('Y===')).to.equal('illegal base64 data at input byte 1');
    expect(base64Error('YQ==YQ==')).to.equal('illegal base64 data at input byte 4');
  });

  it('base64: the form Go encodes what it decoded in (line breaks dropped, unused bits cleared, padded)', () => {
    expect(canonicalBase64('YWJj')).to.equal('YWJj');
    expect(canonicalBase64('YW\nJj')).to.equal('YWJj');
    expect(canonicalBase64('YWJj\r\n')).to.equal('YWJj');
    expect(canonicalBase64('YWJ=')).to.equal('YWI=');
    expect(canonicalBase64('YR==')).to.equal('YQ==');
    expect(canonicalBase64('YQ=\n=')).to.equal('YQ==');
    expect(canonicalBase64('')).to.equal('');
    expect(canonicalBase64('AAEC/w==')).to.equal('AAEC/w==');
  });

  it('time: RFC 3339 for Time, six fractional digits for MicroTime', () => {
    expect(timeError('2023-01-02T03:04:05Z', false)).to.equal(undefined);
    expect(timeError('2023-01-02T03:04:05.123+02:00', false)).to.equal(undefined);
    expect(timeError('2023-13-02T03:04:05Z', false)).to.equal('parsing time "2023-13-02T03:04:05Z": month out of range');
    expect(timeError('2023-01-02 03:04:05Z', false))
      .to.equal('parsing time "2023-01-02 03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 03:04:05Z" as "T"');
    expect(timeError('2023-01-02T03:04:05.123456Z', true)).to.equal(undefined);
    expect(timeError('2023-01-02T03:04:05Z', true))
      .to.equal('parsing time "2023-01-02T03:04:05Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"');
    expect(timeError('2023-01-02T03:04:05Zjunk', false)).to.equal('parsing time "2023-01-02T03:04:05Zjunk": extra text: "junk"');
  });

  it('time: a time of the right shape with a field out of range, or one the shape check refuses, gets the step-by-step message', () => {
    expect(timeError('2023-01-02T24:00:00Z', false)).to.equal('parsing time "2023-01-02T24:00:00Z": hour out of range');
    expect(timeError('2023-01-02T03:60:00Z', false)).to.equal('parsing time "2023-01-02T03:60:00Z": minute out of range');
    expect(timeError('2023-00-02T03:04:05Z', false)).to.equal('parsing time "2023-00-02T03:04:05Z": month out of range');
    expect(timeError('2023-01-02T03:04:05.1234567Z', true))
      .to.equal('parsing time "2023-01-02T03:04:05.1234567Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "7Z" as "Z07:00"');
    expect(timeError('\u0661\u0662\u0663\u0664-01-02T03:04:05Z', false))
      .to.equal('parsing time "\u0661\u0662\u0663\u0664-01-02T03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse "\u0661\u0662\u0663\u0664-01-02T03:04:05Z" as "2006"');
    // The day is checked against its month, leap years included, after the rest matched.
    expect(timeError('2023-02-31T03:04:05Z', false)).to.equal('parsing time "2023-02-31T03:04:05Z": day out of range');
    expect(timeError('2023-02-29T03:04:05.000000Z', true)).to.equal('parsing time "2023-02-29T03:04:05.000000Z": day out of range');
    expect(timeError('2023-04-31T03:04:05,5Z', false)).to.equal('parsing time "2023-04-31T03:04:05,5Z": day out of range');
    expect(timeError('2023-04-31T03:04:05Zjunk', false)).to.equal('parsing time "2023-04-31T03:04:05Zjunk": extra text: "junk"');
    for (const ok of ['2024-02-29T00:00:00Z', '2000-02-29T00:00:00Z', '2023-04-30T00:00:00Z', '2023-12-31T23:59:59Z']) expect(timeError(ok, false), ok).to.equal(undefined);
    expect(timeError('1900-02-29T00:00:00Z', false)).to.equal('parsing time "1900-02-29T00:00:00Z": day out of range');
    // A comma fraction and an offset are fine.
    expect(timeError('2023-01-02T03:04:05,5Z', false)).to.equal(undefined);
    expect(timeError('2023-01-02T03:04:05.123456-07:00', true)).to.equal(undefined);
  });
});
