// Counts a V8 .heapsnapshot's nodes by kind and name (an object's constructor, a closure's
// function, a string's type): count and self bytes of each. The snapshot is read as a
// stream into typed arrays (heap-graph.ts): a replica's at 1,000 nodes is 350-650 MB, more
// than one JavaScript string holds.
// Run: `node dist/hack/bench/heap-snapshot.js FILE [BASE] [top=30]`: FILE's counts, or with
// BASE (an earlier snapshot of the same process) what FILE holds more of than BASE.
import { fileURLToPath } from 'node:url';
import { readHeapGraph } from './heap-graph.js';

export interface NodeGroup { type: string; name: string; count: number; bytes: number }
export interface SnapshotCounts { nodes: number; bytes: number; groups: NodeGroup[] }

/** Reads the snapshot in one pass, `chunkBytes` at a time, and counts its nodes by type and name. */
export async function readSnapshotCounts(file: string, chunkBytes = 4 << 20): Promise<SnapshotCounts> {
  const g = await readHeapGraph(file, chunkBytes);
  // (type, name index) -> [count, bytes]
  const groups = new Map<number, Map<number, [number, number]>>();
  let bytes = 0;
  for (let n = 0; n < g.nodeCount; n++) {
    const type = g.nodeType[n]!, name = g.nodeName[n]!, size = g.nodeSize[n]!;
    bytes += size;
    let byName = groups.get(type);
    if (!byName) groups.set(type, (byName = new Map()));
    const c = byName.get(name);
    if (c) { c[0]++; c[1] += size; } else byName.set(name, [1, size]);
  }
  const out: NodeGroup[] = [];
  for (const [t, byName] of groups) {
    const typeName = g.nodeTypes[t] ?? String(t);
    for (const [n, [count, b]] of byName) out.push({ type: typeName, name: typeName === 'number' ? '' : g.strings[n] ?? `#${n}`, count, bytes: b });
  }
  return { nodes: g.nodeCount, bytes, groups: merged(out) };
}

/** Groups that differ only by a cut name, or numbers (unnamed), as one row. */
function merged(groups: NodeGroup[]): NodeGroup[] {
  const byKey = new Map<string, NodeGroup>();
  for (const g of groups) {
    const key = `${g.type}\u0000${g.name}`;
    const seen = byKey.get(key);
    if (seen) { seen.count += g.count; seen.bytes += g.bytes; } else byKey.set(key, { ...g });
  }
  return [...byKey.values()];
}

/** What `after` holds more of than `before`, by group (the same process later). */
export function difference(after: SnapshotCounts, before: SnapshotCounts): SnapshotCounts {
  const base = new Map(before.groups.map((g) => [`${g.type}\u0000${g.name}`, g]));
  const groups = after.groups.map((g) => {
    const b = base.get(`${g.type}\u0000${g.name}`);
    return { ...g, count: g.count - (b?.count ?? 0), bytes: g.bytes - (b?.bytes ?? 0) };
  });
  return { nodes: after.nodes - before.nodes, bytes: after.bytes - before.bytes, groups };
}

/** The `top` groups by count as printable lines, counts and bytes divided by `per` (per watch, say). */
export function formatGroups(counts: SnapshotCounts, top: number, per = 1): string[] {
  const rows = [...counts.groups].sort((a, b) => b.count - a.count).slice(0, top);
  const fmt = (x: number): string => (per === 1 ? String(x) : (x / per).toFixed(2));
  const total = per === 1 ? `${counts.nodes} objects, ${(counts.bytes / 2 ** 20).toFixed(1)} MiB`
    : `${(counts.nodes / per).toFixed(1)} objects, ${(counts.bytes / per).toFixed(0)} bytes, each of ${per}`;
  return [total, ...rows.map((g) => `${fmt(g.count).padStart(10)}  ${fmt(g.bytes).padStart(12)}  ${g.type.padEnd(14)} ${g.name.replace(/\s+/g, ' ')}`)];
}

async function main(): Promise<void> {
  const [file, base, topArg] = process.argv.slice(2);
  if (!file) throw new Error('usage: heap-snapshot.js FILE [BASE] [top=30]');
  const top = Number((base?.startsWith('top=') ? base : topArg)?.split('=')[1] ?? 30);
  const after = await readSnapshotCounts(file);
  const counts = base && !base.startsWith('top=') ? difference(after, await readSnapshotCounts(base)) : after;
  for (const line of formatGroups(counts, top)) console.log(line);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main().catch((err: unknown) => { console.error(err); process.exit(1); });
