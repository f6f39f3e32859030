// Keeps the house as docs/architecture.md draws it: the import graph of pkg/ (read from
// the sources, so type-only imports count: a type names its floor as much as a value
// does) has no circle, and the lowest floors (runtime, apis, storage) import nothing
// from the serving floors above them.
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Floors that must not know the serving floors (the issue-26 rule; see docs/architecture.md). */
const lowerFloors = ['runtime', 'apis', 'storage'];
const servingFloors = ['registry', 'endpoints', 'server', 'admission', 'authentication', 'kubelet'];
/**
 * What assembles a replica (the server, its controllers, the HTTP endpoints) is known only
 * to the floors that assemble it (server, aggregator, apiextensions): a helper two floors
 * share lives below both.
 */
const assemblingFloors = ['server', 'controller', 'endpoints'];
const assembledFloors = [
  'registry', 'admission', 'authorization', 'authentication', 'kubelet', 'client', 'openapi',
  'storage', 'apis', 'runtime', 'util',
];

/** File (relative to pkg/, `.ts`) -> the pkg/ files it imports. */
type ImportGraph = Map<string, string[]>;

const importPattern = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

/** The import graph of the non-test sources under `root`. */
function readGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts')) {
        const file = path.relative(root, full);
        const deps = new Set<string>();
        for (const m of readFileSync(full, 'utf8').matchAll(importPattern)) {
          const target = path.normalize(path.join(path.dirname(file), m[1])).replace(/\.js$/, '.ts');
          if (!target.startsWith('..')) deps.add(target);
        }
        graph.set(file, [...deps]);
      }
    }
  };
  walk(root);
  return graph;
}

/** The strongly connected components of more than one file (Tarjan), each sorted. */
function circles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) out.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

const floorOf = (file: string): string => file.split(path.sep)[0];

/** Imports from a file in one of the `from` floors into one of the `to` floors, as `from -> to`. */
function upwardImports(graph: ImportGraph, from = lowerFloors, to = servingFloors): string[] {
  const out: string[] = [];
  for (const [file, deps] of graph) {
    if (!from.includes(floorOf(file))) continue;
    for (const d of deps) if (to.includes(floorOf(d))) out.push(`${file} -> ${d}`);
  }
  return out.sort();
}

describe('layering of pkg/', () => {
  const pkgRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../pkg');
  const graph = readGraph(pkgRoot);

  it('reads the whole source tree', () => {
    expect(graph.size).to.be.greaterThan(500);
    expect(graph.get(path.join('runtime', 'scheme.ts'))).to.be.an('array');
  });

  it('has no import circle', () => {
    expect(circles(graph)).to.deep.equal([]);
  });

  it('imports nothing from registry, endpoints, server, admission, authentication or kubelet into runtime, apis or storage', () => {
    expect(upwardImports(graph)).to.deep.equal([]);
  });

  it('imports nothing from server, controller or endpoints into the floors they assemble', () => {
    expect(upwardImports(graph, assembledFloors, assemblingFloors)).to.deep.equal([]);
  });

  describe('the checks themselves', () => {
    const j = (...p: string[]) => path.join(...p);
    const sample: ImportGraph = new Map([
      [j('runtime', 'a.ts'), [j('registry', 'b.ts')]],
      [j('registry', 'b.ts'), [j('registry', 'c.ts')]],
      [j('registry', 'c.ts'), [j('runtime', 'a.ts'), j('storage', 'd.ts')]],
      [j('storage', 'd.ts'), [j('runtime', 'e.ts')]],
      [j('runtime', 'e.ts'), []],
    ]);

    it('finds a circle through three files', () => {
      expect(circles(sample)).to.deep.equal([[j('registry', 'b.ts'), j('registry', 'c.ts'), j('runtime', 'a.ts')]]);
    });

    it('finds an import running up a floor, and only that one', () => {
      expect(upwardImports(sample)).to.deep.equal([`${j('runtime', 'a.ts')} -> ${j('registry', 'b.ts')}`]);
    });

    it('counts type-only, re-exporting and multi-line imports', () => {
      const dir = path.join(pkgRoot, 'registry', 'generic');
      const src = readFileSync(path.join(dir, 'store.ts'), 'utf8');
      expect(src).to.match(/import type \{/);
      expect(src).to.match(/export type \{[^}]*\} from/);
      const deps = graph.get(j('registry', 'generic', 'store.ts'))!;
      expect(deps).to.include(j('registry', 'generic', 'store-def.ts'));
      expect(deps).to.include(j('registry', 'generic', 'store-interfaces.ts'));
    });
  });
});
