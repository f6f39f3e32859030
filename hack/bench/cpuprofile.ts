// Reads a V8 .cpuprofile (node --cpu-prof; BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"
// profiles the benchmark's replicas) and prints where the busy time went, as shares of
// the non-idle samples: per function (self), per package or source folder (self), per
// function including callees (incl), or the call stacks leading to functions whose label
// starts with a given text (callers).
// --window=START,END (CLOCK_MONOTONIC µs, as crud-verbs.js --windows writes them) keeps
// only the samples taken in that span.
// Run: `node dist/hack/bench/cpuprofile.js FILE [self|group|incl|callers] [top=40] [text] [--window=START,END]`.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface CallFrame { functionName: string; url: string; lineNumber: number }
export interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
export interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime?: number }

export const shortUrl = (url: string): string => url.replace(/^file:\/\/.*?\/node_modules\//, 'nm/').replace(/^file:\/\/.*?\/dist\//, '');
export const label = (f: CallFrame): string => `${f.functionName || '(anon)'} ${shortUrl(f.url)}:${f.lineNumber + 1}`;

/** Where a frame's code lives: an npm package, a folder of ours, a Node internal, or V8. */
function group(f: CallFrame): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f.url);
  if (pkg) return `npm ${pkg[1]}`;
  const ours = /\/dist\/(.*)\/[^/]+$/.exec(f.url);
  if (ours) return `ours ${ours[1]}`;
  if (f.url.startsWith('node:')) return `node ${f.url.slice(5).split('/').slice(0, 2).join('/')}`;
  return f.functionName || '(anon)';
}

export function summarize(p: Profile, mode: string, top: number, text = '', window?: [number, number]): string[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const totals = new Map<string, number>();
  let busy = 0;
  let at = p.startTime ?? 0;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i] ?? 0;
    at += dt;
    if (window && (at < window[0] || at > window[1])) continue;
    const leaf = byId.get(p.samples[i]!)!;
    if (leaf.callFrame.functionName === '(idle)') continue;
    busy += dt;
    const add = (k: string) => totals.set(k, (totals.get(k) ?? 0) + dt);
    if (mode === 'group') add(group(leaf.callFrame));
    else if (mode === 'self') add(label(leaf.callFrame));
    else {
      // Walk to the root: incl counts each function once per sample; callers keeps the
      // stack above the first frame matching `text`.
      const seen = new Set<string>();
      const stack: string[] = [];
      let matched = false;
      for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
        const l = label(byId.get(id)!.callFrame);
        if (mode === 'incl') { if (!seen.has(l)) { seen.add(l); add(l); } continue; }
        if (!matched && l.startsWith(text)) matched = true;
        if (matched && stack.length < 10) stack.push(l);
      }
      if (mode === 'callers' && matched) add(stack.join(' < '));
    }
  }
  const rows = [...totals].filter(([k]) => mode === 'callers' || !text || k.includes(text)).sort((a, b) => b[1] - a[1]).slice(0, top);
  return [`busy ${(busy / 1e6).toFixed(2)} s`, ...rows.map(([k, t]) => `${((100 * t) / busy).toFixed(1).padStart(5)}%  ${k}`)];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const w = process.argv.find((x) => x.startsWith('--window='))?.slice('--window='.length).split(',').map(Number);
  const [file, mode = 'self', top = '40', text = ''] = process.argv.slice(2).filter((x) => !x.startsWith('--window='));
  if (!file) {
    console.error('usage: cpuprofile.js FILE [self|group|incl|callers] [top] [text]');
    process.exit(2);
  }
  const lines = summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile, mode, Number(top), text, w && w.length === 2 ? [w[0]!, w[1]!] : undefined);
  console.log(lines.join('\n'));
}
