// Every object, list and Status that upstream v1.28 answered in protobuf decodes to the
// JSON the same server answered, and that JSON encodes back to the identical bytes.
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeObject, encodeObject } from './envelope.js';
import { decodeWatchFrames, encodeWatchFrame } from './watch.js';

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

  it('the watch stream: frames decode to the JSON stream upstream sent for the same watch, and re-encode to its bytes', function () {
    if (!existsSync(join(dir, 'watch-configmaps.stream'))) this.skip();
    const bytes = readFileSync(join(dir, 'watch-configmaps.stream'));
    const json = readFileSync(join(dir, 'watch-configmaps.json-stream.txt'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const { events, rest } = decodeWatchFrames(bytes);
    expect(rest.length).to.equal(0);
    // The protobuf capture also holds the bookmark sent as the watch timed out.
    expect(events.map((e) => e.type)).to.deep.equal(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK']);
    expect(events.slice(0, 3)).to.deep.equal(json);
    const bookmark = { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: json[2].object.metadata.resourceVersion } };
    expect(events[3].object).to.deep.equal({ ...bookmark, metadata: { ...bookmark.metadata, creationTimestamp: null } });
    const again = Buffer.concat([...json, { type: 'BOOKMARK', object: bookmark }].map((e) => encodeWatchFrame(e.type, e.object)));
    expect(again.toString('hex')).to.equal(bytes.toString('hex'));
  });
});
