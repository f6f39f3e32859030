import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { difference, readSnapshotCounts } from './heap-snapshot.js';

class HeapSnapshotProbe { constructor(readonly n: number, readonly label: string) {} }

/** The same counts from the whole file parsed at once (possible for a test process's snapshot). */
function countsByParsing(file: string): Map<string, number> {
  const s = JSON.parse(readFileSync(file, 'utf8')) as { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[]; strings: string[] };
  const f = s.snapshot.meta.node_fields;
  const [typeAt, nameAt] = [f.indexOf('type'), f.indexOf('name')];
  const out = new Map<string, number>();
  for (let i = 0; i < s.nodes.length; i += f.length) {
    const type = s.snapshot.meta.node_types[0][s.nodes[i + typeAt]!]!;
    const key = `${type}/${type === 'number' ? '' : s.strings[s.nodes[i + nameAt]!]!.slice(0, 60)}`;
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

describe('heap-snapshot reader (hack/bench)', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'heap-snapshot-test-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  let held: HeapSnapshotProbe[] = [];

  it('counts every node by type and name as a whole parse does, whatever the chunk size', async () => {
    held = Array.from({ length: 1234 }, (_x, i) => new HeapSnapshotProbe(i, `probe "quoted" \\ ${i} \u00e9\u4e2d`));
    const file = writeHeapSnapshot(join(dir, 'a.heapsnapshot'));
    const expected = countsByParsing(file);
    for (const chunk of [4 << 20, 977]) {
      const counts = await readSnapshotCounts(file, chunk);
      const got = new Map(counts.groups.map((g) => [`${g.type}/${g.name}`, g.count]));
      expect(counts.nodes).to.equal([...expected.values()].reduce((a, b) => a + b, 0));
      expect(got.get('object/HeapSnapshotProbe')).to.equal(1234);
      expect(got).to.deep.equal(expected);
    }
  });

  it('tells what a later snapshot holds more of', async () => {
    const before = await readSnapshotCounts(writeHeapSnapshot(join(dir, 'b.heapsnapshot')));
    held.push(...Array.from({ length: 500 }, (_x, i) => new HeapSnapshotProbe(i, 'more')));
    const after = await readSnapshotCounts(writeHeapSnapshot(join(dir, 'c.heapsnapshot')));
    const more = difference(after, before).groups.find((g) => g.type === 'object' && g.name === 'HeapSnapshotProbe');
    expect(more?.count).to.equal(500);
    expect(held.length).to.equal(1734);
  });
});
