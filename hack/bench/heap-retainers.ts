// Who holds what in a V8 heap snapshot: for the nodes whose label (heap-snapshot.js's
// "type name", e.g. `object Url` or `array (object properties)`) starts with MATCH, the
// chains of retainers that reach them, counted. Each step up takes a node's first strong
// retainer (weak edges and V8's own bookkeeping skipped), so a chain reads as "held by
// .prop of X, held by .prop of Y", which is what a cut has to change.
// Run: `node dist/hack/bench/heap-retainers.js FILE MATCH [depth=3] [top=30]`.
import { fileURLToPath } from 'node:url';
import { edgeLabel, nodeLabel, readHeapGraph, type HeapGraph } from './heap-graph.js';

/** For each node, the edges that point at it (indices into the edge arrays). */
export interface Retainers { start: Uint32Array; edges: Uint32Array; from: Uint32Array }

export function retainersOf(g: HeapGraph): Retainers {
  const n = g.nodeCount, e = g.edgeTo.length;
  const start = new Uint32Array(n + 1);
  for (let i = 0; i < e; i++) start[g.edgeTo[i]! + 1]!++;
  for (let i = 0; i < n; i++) start[i + 1]! += start[i]!;
  const fill = start.slice(0, n);
  const edges = new Uint32Array(e), from = new Uint32Array(e);
  for (let node = 0; node < n; node++) {
    for (let i = g.edgeStart[node]!; i < g.edgeStart[node + 1]!; i++) {
      const at = fill[g.edgeTo[i]!]!++;
      edges[at] = i;
      from[at] = node;
    }
  }
  return { start, edges, from };
}

/** The edge and node that hold `node` first, skipping weak edges and V8's own lists; undefined at a root. */
function firstRetainer(g: HeapGraph, r: Retainers, node: number, seen: Set<number>): [number, number] | undefined {
  for (let i = r.start[node]!; i < r.start[node + 1]!; i++) {
    const edge = r.edges[i]!, parent = r.from[i]!;
    const type = g.edgeTypes[g.edgeType[edge]!];
    if (type === 'weak' || type === 'shortcut' || seen.has(parent)) continue;
    const label = nodeLabel(g, parent);
    if (label.startsWith('synthetic') || (label.includes('system / ') && !label.includes('Context') && !backingStores.has(label))) continue;
    return [edge, parent];
  }
  return undefined;
}

/** V8's stores of an object's elements and properties, shown as nodes of their own. */
const backingStores = new Set(['array (object elements)', 'array (object properties)', 'hidden system / PropertyArray']);

/** The retainer chains of every node matching `match`, `depth` steps up, by count. */
export function retainerChains(g: HeapGraph, r: Retainers, match: string, depth: number): Map<string, { count: number; bytes: number }> {
  const chains = new Map<string, { count: number; bytes: number }>();
  for (let node = 0; node < g.nodeCount; node++) {
    if (!nodeLabel(g, node).startsWith(match)) continue;
    const steps: string[] = [];
    const seen = new Set([node]);
    let at = node;
    for (let d = 0; d < depth; d++) {
      const up = firstRetainer(g, r, at, seen);
      if (!up) { steps.push('(root)'); break; }
      let [edge, parent] = up;
      let name = edgeLabel(g, edge);
      // An object's elements or out-of-object properties may be a node of their own: counted as their owner's.
      if (backingStores.has(nodeLabel(g, parent))) {
        seen.add(parent);
        const owner = firstRetainer(g, r, parent, seen);
        if (owner) { [edge, parent] = owner; name = '[]'; }
      }
      steps.push(`${/^\[\d+\]$|^internal:\d+$/.test(name) ? '[]' : name} of ${nodeLabel(g, parent)}`);
      seen.add(parent);
      at = parent;
    }
    const key = steps.join('  <-  ');
    const c = chains.get(key);
    if (c) { c.count++; c.bytes += g.nodeSize[node]!; } else chains.set(key, { count: 1, bytes: g.nodeSize[node]! });
  }
  return chains;
}

async function main(): Promise<void> {
  const [file, match, ...rest] = process.argv.slice(2);
  if (!file || !match) throw new Error('usage: heap-retainers.js FILE MATCH [depth=3] [top=30]');
  const opt = (k: string, d: number): number => Number(rest.find((a) => a.startsWith(`${k}=`))?.split('=')[1] ?? d);
  const g = await readHeapGraph(file);
  const chains = retainerChains(g, retainersOf(g), match, opt('depth', 3));
  const rows = [...chains].sort((a, b) => b[1].count - a[1].count);
  const total = rows.reduce((s, [, c]) => s + c.count, 0);
  console.log(`${total} nodes match "${match}" of ${g.nodeCount}; held by:`);
  for (const [chain, c] of rows.slice(0, opt('top', 30))) console.log(`${String(c.count).padStart(9)} ${String(c.bytes).padStart(11)}  ${chain}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main().catch((err: unknown) => { console.error(err); process.exit(1); });
