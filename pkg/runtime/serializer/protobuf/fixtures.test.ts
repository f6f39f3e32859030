// Every object, list and Status that upstream v1.28 answered in protobuf decodes to the
// JSON the same server answered, and that JSON encodes back to the identical bytes.
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeObject, encodeObject } from './envelope.js';

const dir = join(process.cwd(), '../shared/fixtures/protobuf');
/**
 * RawExtension fields hold the client's JSON text verbatim upstream (`{"a": 1}` with its
 * space); we keep parsed JSON, so these re-encode compactly and are compared by meaning.
 */
const verbatimRawText = new Set(['apps_v1.ControllerRevision.cr']);
const cases = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.pb')).map((f) => f.slice(0, -3)) : [];

describe('protobuf codec against upstream fixtures', () => {
  it('finds the fixtures', () => {
    expect(cases.length).to.be.greaterThan(40);
  });

  for (const name of cases) {
    it(`${name}: decodes to upstream's JSON and encodes back to the same bytes`, () => {
      const bytes = readFileSync(join(dir, `${name}.pb`));
      const json = JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8'));
      expect(decodeObject(bytes)).to.deep.equal(json);
      if (verbatimRawText.has(name)) expect(decodeObject(encodeObject(json))).to.deep.equal(json);
      else expect(encodeObject(json).toString('hex')).to.equal(bytes.toString('hex'));
    });
  }
});
