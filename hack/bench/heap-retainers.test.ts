import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { parseCut, readHeapGraph } from './heap-graph.js';
import { retainerChains, retainersOf } from './heap-retainers.js';

class RetainedProbe { constructor(readonly n: number) {} }
class ProbeShelf { constructor(readonly items: RetainedProbe[]) {} }
class ProbeOwner { constructor(readonly shelf: ProbeShelf) {} }

describe('heap graph and retainers (hack/bench)', function () {
  this.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'heap-retainers-test-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the graph as a whole parse does, whatever the chunk size', async () => {
    const file = writeHeapSnapshot(join(dir, 'a.heapsnapshot'));
    const whole = JSON.parse(readFileSync(file, 'utf8')) as {
      snapshot: { meta: { node_fields: string[]; edge_fields: string[] } }; nodes: number[]; edges: number[]; strings: string[];
    };
    const nf = whole.snapshot.meta.node_fields.length, ef = whole.snapshot.meta.edge_fields.length;
    for (const chunk of [4 << 20, 1013]) {
      const g = await readHeapGraph(file, chunk);
      expect(g.nodeCount).to.equal(whole.nodes.length / nf);
      expect(g.edgeTo.length).to.equal(whole.edges.length / ef);
      expect(g.edgeStart[g.nodeCount]).to.equal(g.edgeTo.length);
      expect(g.strings.length).to.equal(whole.strings.length);
      // Every edge's target, and every node's name as far as it is kept.
      const toAt = whole.snapshot.meta.edge_fields.indexOf('to_node');
      for (let e = 0; e < g.edgeTo.length; e += 97) expect(g.edgeTo[e]).to.equal(whole.edges[e * ef + toAt]! / nf);
      for (let i = 0; i < whole.strings.length; i += 31) expect(g.strings[i]).to.equal(whole.strings[i]!.slice(0, 60));
    }
  });

  it('names a string cut anywhere, an escape included, by its value\'s first characters', () => {
    const whole = JSON.stringify('ab\\cd\u0001\u00e9"x');
    for (let cut = 1; cut < whole.length; cut++) {
      const value = parseCut(whole.slice(0, cut), false);
      expect(JSON.parse(whole) as string, `cut at ${cut}: ${whole.slice(0, cut)}`).to.satisfy((v: string) => v.startsWith(value));
    }
    expect(parseCut(whole, true)).to.equal('ab\\cd\u0001\u00e9"x');
  });

  it('counts the chains that hold the matching objects', async () => {
    const owner = new ProbeOwner(new ProbeShelf(Array.from({ length: 321 }, (_x, i) => new RetainedProbe(i))));
    const g = await readHeapGraph(writeHeapSnapshot(join(dir, 'b.heapsnapshot')));
    const chains = retainerChains(g, retainersOf(g), 'object RetainedProbe', 2);
    expect([...chains].map(([chain, c]) => [chain, c.count])).to.deep.equal([
      ['[] of object Array  <-  .items of object ProbeShelf', 321],
    ]);
    expect(owner.shelf.items.length).to.equal(321);
  });
});
