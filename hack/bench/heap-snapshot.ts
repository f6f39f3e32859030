// Reads a V8 .heapsnapshot (node --heapsnapshot-signal, or v8.writeHeapSnapshot) as a
// stream and counts its nodes by kind and name (an object's constructor, a closure's
// function, a string's type): count and self bytes of each. A replica's snapshot at 1,000
// nodes is 500-650 MB, more than one JavaScript string holds, so the file is never read
// whole: the header and the nodes array are parsed number by number, the edges and the
// rest skipped, and of the strings table only the names the nodes use are kept.
// Run: `node dist/hack/bench/heap-snapshot.js FILE [BASE] [top=30]`: FILE's counts, or with
// BASE (an earlier snapshot of the same process) what FILE holds more of than BASE.
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { fileURLToPath } from 'node:url';

export interface NodeGroup { type: string; name: string; count: number; bytes: number }
export interface SnapshotCounts { nodes: number; bytes: number; groups: NodeGroup[] }

interface Meta { node_fields: string[]; node_types: [string[], ...unknown[]] }

/** Names longer than this are cut: a string node's name is its content. */
const maxNameLength = 60;

/**
 * Parses the snapshot in one pass, `chunkBytes` at a time. The file's layout (V8's HeapSnapshotJSONSerializer):
 * `{"snapshot":{...,"meta":{...}},"nodes":[n,n,...],"edges":[...],...,"strings":["..",..]}`;
 * only `strings` holds JSON strings after the header, so the keys before it are skipped by
 * searching for `"strings":[`.
 */
export async function readSnapshotCounts(file: string, chunkBytes = 4 << 20): Promise<SnapshotCounts> {
  const decoder = new StringDecoder('utf8');
  let phase: 'header' | 'nodes' | 'skip' | 'strings' | 'done' = 'header';
  let header = '';
  let fields = 0, typeAt = 0, nameAt = 0, sizeAt = 0;
  let typeNames: string[] = [];
  // The node being read: its field values so far.
  let field = 0, num = 0, inNum = false, type = 0, name = 0, size = 0;
  // (type, name index) -> [count, bytes]
  const groups = new Map<number, Map<number, [number, number]>>();
  let nodes = 0, bytes = 0;
  let skipped = '';
  // The strings table: index of the string being read, its raw JSON text so far.
  let index = 0, raw = '', from = 0, inString = false, escaped = false;
  const wanted = new Set<number>();
  const names = new Map<number, string>();

  const endNode = (): void => {
    nodes++;
    bytes += size;
    let byName = groups.get(type);
    if (!byName) groups.set(type, (byName = new Map()));
    const g = byName.get(name);
    if (g) { g[0]++; g[1] += size; } else byName.set(name, [1, size]);
  };
  const endNumber = (): void => {
    if (field === typeAt) type = num;
    else if (field === nameAt) name = num;
    else if (field === sizeAt) size = num;
    if (++field === fields) { endNode(); field = 0; }
    num = 0;
    inNum = false;
  };

  const feed = (text: string): void => {
    let i = 0;
    while (i < text.length && phase !== 'done') {
      if (phase === 'header') {
        header += text.slice(i);
        const at = header.indexOf('"nodes":[');
        if (at < 0) return;
        const snapshot = JSON.parse(`${header.slice(0, at).replace(/,\s*$/, '')}}`) as { snapshot: { meta: Meta } };
        const meta = snapshot.snapshot.meta;
        fields = meta.node_fields.length;
        typeAt = meta.node_fields.indexOf('type');
        nameAt = meta.node_fields.indexOf('name');
        sizeAt = meta.node_fields.indexOf('self_size');
        typeNames = meta.node_types[0];
        text = header.slice(at + '"nodes":['.length);
        header = '';
        i = 0;
        phase = 'nodes';
        continue;
      }
      if (phase === 'nodes') {
        for (; i < text.length; i++) {
          const c = text.charCodeAt(i);
          if (c >= 48 && c <= 57) { num = num * 10 + (c - 48); inNum = true; } else if (c === 44 || c === 10) { if (inNum) endNumber(); } else if (c === 93) {
            if (inNum) endNumber();
            phase = 'skip';
            for (const [t, byName] of groups) if (typeNames[t] !== 'number') for (const n of byName.keys()) wanted.add(n);
            i++;
            break;
          }
        }
        continue;
      }
      if (phase === 'skip') {
        const window = skipped + text.slice(i);
        const at = window.indexOf('"strings":[');
        if (at < 0) { skipped = window.slice(-16); return; }
        text = window.slice(at + '"strings":['.length);
        skipped = '';
        i = 0;
        phase = 'strings';
        continue;
      }
      // strings: "..." separated by commas, up to the closing bracket
      for (; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (!inString) {
          if (c === 34) { inString = true; from = i; raw = ''; } else if (c === 93) { phase = 'done'; break; }
          continue;
        }
        if (escaped) { escaped = false; continue; }
        if (c === 92) { escaped = true; continue; }
        if (c !== 34) continue;
        inString = false;
        if (wanted.has(index)) names.set(index, (JSON.parse(raw + text.slice(from, i + 1)) as string).slice(0, maxNameLength));
        index++;
      }
      // A string going on in the next chunk: what it has so far, if it is a name.
      if (inString && wanted.has(index)) raw += text.slice(from);
      from = 0;
    }
  };

  for await (const chunk of createReadStream(file, { highWaterMark: chunkBytes })) feed(decoder.write(chunk as Buffer));
  feed(decoder.end());
  if ((phase as string) !== 'done') throw new Error(`${file}: not a complete heap snapshot (stopped in ${phase})`);

  const out: NodeGroup[] = [];
  for (const [t, byName] of groups) {
    const typeName = typeNames[t] ?? String(t);
    for (const [n, [count, b]] of byName) {
      out.push({ type: typeName, name: typeName === 'number' ? '' : names.get(n) ?? `#${n}`, count, bytes: b });
    }
  }
  return { nodes, bytes, groups: merged(out) };
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
