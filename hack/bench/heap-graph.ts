// A V8 .heapsnapshot's graph, read as a stream into typed arrays: each node's type, name,
// self size and first edge, each edge's type, name and target, and the strings table
// (names cut to 60 characters). A 1,000-node replica's snapshot (350-650 MB, 3-6M nodes,
// 10-25M edges) is more than one JavaScript string holds, but its graph fits in a few
// hundred MB of typed arrays. heap-retainers.ts asks it who holds what.
import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

export interface HeapGraph {
  nodeCount: number;
  nodeTypes: string[];
  edgeTypes: string[];
  /** Per node: type index, name (string index), self size, index of its first edge (edgeStart[nodeCount] = edge count). */
  nodeType: Uint8Array; nodeName: Uint32Array; nodeSize: Uint32Array; edgeStart: Uint32Array;
  /** Per edge: type index, name (a string index, or an element's index), target node. */
  edgeType: Uint8Array; edgeName: Uint32Array; edgeTo: Uint32Array;
  strings: string[];
}

interface Meta { node_fields: string[]; node_types: [string[], ...unknown[]]; edge_fields: string[]; edge_types: [string[], ...unknown[]]; node_count: number; edge_count: number }

const maxNameLength = 60;
/** Raw JSON characters kept of a string: enough for maxNameLength characters however escaped (\uXXXX is six). */
const maxRawLength = 6 * maxNameLength + 6;

/** Reads `file` once, `chunkBytes` at a time. */
export async function readHeapGraph(file: string, chunkBytes = 4 << 20): Promise<HeapGraph> {
  const decoder = new StringDecoder('utf8');
  let phase: 'header' | 'nodes' | 'toEdges' | 'edges' | 'toStrings' | 'strings' | 'done' = 'header';
  let header = '', window = '';
  let g: HeapGraph | undefined;
  let nodeFields = 0, edgeFields = 0, typeAt = 0, nameAt = 0, sizeAt = 0, edgeCountAt = 0;
  let eTypeAt = 0, eNameAt = 0, eToAt = 0;
  let field = 0, num = 0, inNum = false, node = 0, edge = 0, nextEdge = 0;
  let inString = false, escaped = false, from = 0, raw = '';

  const endNumber = (): void => {
    const graph = g!;
    if (phase === 'nodes') {
      if (field === typeAt) graph.nodeType[node] = num;
      else if (field === nameAt) graph.nodeName[node] = num;
      else if (field === sizeAt) graph.nodeSize[node] = num;
      else if (field === edgeCountAt) { graph.edgeStart[node] = nextEdge; nextEdge += num; }
      if (++field === nodeFields) { field = 0; node++; }
    } else {
      if (field === eTypeAt) graph.edgeType[edge] = num;
      else if (field === eNameAt) graph.edgeName[edge] = num;
      // to_node is an offset into the nodes array: the node's index times its field count.
      else if (field === eToAt) graph.edgeTo[edge] = num / nodeFields;
      if (++field === edgeFields) { field = 0; edge++; }
    }
    num = 0;
    inNum = false;
  };

  /** Numbers up to the array's closing bracket: the index after it, or -1 when the text ended first. */
  const readNumbers = (text: string, i: number): number => {
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c >= 48 && c <= 57) { num = num * 10 + (c - 48); inNum = true; } else if (c === 44 || c === 10) { if (inNum) endNumber(); } else if (c === 93) {
        if (inNum) endNumber();
        return i + 1;
      }
    }
    return -1;
  };

  const feed = (text: string): void => {
    let i = 0;
    while (i < text.length && phase !== 'done') {
      if (phase === 'header') {
        header += text.slice(i);
        const at = header.indexOf('"nodes":[');
        if (at < 0) return;
        const meta = (JSON.parse(`${header.slice(0, at).replace(/,\s*$/, '')}}`) as { snapshot: { meta: Meta; node_count: number; edge_count: number } }).snapshot;
        const m = meta.meta;
        nodeFields = m.node_fields.length;
        edgeFields = m.edge_fields.length;
        [typeAt, nameAt, sizeAt, edgeCountAt] = ['type', 'name', 'self_size', 'edge_count'].map((f) => m.node_fields.indexOf(f)) as [number, number, number, number];
        [eTypeAt, eNameAt, eToAt] = ['type', 'name_or_index', 'to_node'].map((f) => m.edge_fields.indexOf(f)) as [number, number, number];
        const n = meta.node_count, e = meta.edge_count;
        g = {
          nodeCount: n, nodeTypes: m.node_types[0], edgeTypes: m.edge_types[0],
          nodeType: new Uint8Array(n), nodeName: new Uint32Array(n), nodeSize: new Uint32Array(n), edgeStart: new Uint32Array(n + 1),
          edgeType: new Uint8Array(e), edgeName: new Uint32Array(e), edgeTo: new Uint32Array(e), strings: [],
        };
        text = header.slice(at + '"nodes":['.length);
        header = '';
        i = 0;
        phase = 'nodes';
        continue;
      }
      if (phase === 'nodes' || phase === 'edges') {
        const end = readNumbers(text, i);
        if (end < 0) return;
        i = end;
        field = 0;
        if (phase === 'nodes') g!.edgeStart[node] = nextEdge;
        phase = phase === 'nodes' ? 'toEdges' : 'toStrings';
        continue;
      }
      if (phase === 'toEdges' || phase === 'toStrings') {
        const marker = phase === 'toEdges' ? '"edges":[' : '"strings":[';
        const w = window + text.slice(i);
        const at = w.indexOf(marker);
        if (at < 0) { window = w.slice(-16); return; }
        text = w.slice(at + marker.length);
        window = '';
        i = 0;
        phase = phase === 'toEdges' ? 'edges' : 'strings';
        continue;
      }
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
        // Only the start of a long string is kept: enough to name it.
        const whole = raw.length + (i + 1 - from) <= maxRawLength;
        g!.strings.push(parseCut(raw + text.slice(from, Math.min(i + 1, from + maxRawLength - raw.length)), whole));
      }
      if (inString && raw.length < maxRawLength) raw += text.slice(from, from + maxRawLength - raw.length);
      from = 0;
    }
  };

  for await (const chunk of createReadStream(file, { highWaterMark: chunkBytes })) feed(decoder.write(chunk as Buffer));
  feed(decoder.end());
  if ((phase as string) !== 'done' || !g) throw new Error(`${file}: not a complete heap snapshot (stopped in ${phase})`);
  return g;
}

/** A JSON string's text, whole or cut anywhere (an escape included), as its value's first characters. */
export function parseCut(text: string, whole: boolean): string {
  const t = whole ? text : `${withoutCutEscape(text)}"`;
  try {
    return (JSON.parse(t) as string).slice(0, maxNameLength);
  } catch {
    return t.replace(/\\./g, '').slice(1, 1 + maxNameLength);
  }
}

/** `t` without an escape cut short at its end: an odd run of backslashes, or \u and fewer than four digits. */
function withoutCutEscape(t: string): string {
  const escapedAt = (i: number): boolean => {
    let n = 0;
    while (i - 1 - n >= 0 && t[i - 1 - n] === '\\') n++;
    return n % 2 === 1;
  };
  if (t.endsWith('\\') && !escapedAt(t.length - 1)) return t.slice(0, -1);
  const m = /\\u[0-9a-fA-F]{0,3}$/.exec(t);
  return m && !escapedAt(m.index) ? t.slice(0, m.index) : t;
}

/** A node's label as heap-snapshot.js prints it: type and name. */
export function nodeLabel(g: HeapGraph, n: number): string {
  const type = g.nodeTypes[g.nodeType[n]!] ?? '?';
  if (type === 'number') return 'number';
  return `${type} ${(g.strings[g.nodeName[n]!] ?? '').replace(/\s+/g, ' ')}`;
}

/** An edge's label: its name, or [index] for elements and hidden edges. */
export function edgeLabel(g: HeapGraph, e: number): string {
  const type = g.edgeTypes[g.edgeType[e]!];
  if (type === 'element' || type === 'hidden') return `[${g.edgeName[e]}]`;
  return `${type === 'property' ? '.' : `${type}:`}${g.strings[g.edgeName[e]!] ?? '?'}`;
}
