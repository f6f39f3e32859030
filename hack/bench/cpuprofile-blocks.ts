// Finds the stretches of a V8 .cpuprofile (node --cpu-prof) in which the event loop never
// went back to idle for at least --min-ms (default 200), the blocks behind a replica's
// loop-delay maximum, and says what filled each one: the functions with the most samples
// (self), our and the packages' functions under which the most of it ran (incl), and the
// longest run of samples under one call from the loop (one JavaScript entry, GC and
// native samples in between not breaking it), with the frames that run had in common.
// Functions are weighed by samples, not time: a sample's time delta also holds the time
// the thread waited for a core, which on a busy machine lands on whatever cheap function
// was running when the process was descheduled.
// Run: `node dist/hack/bench/cpuprofile-blocks.js FILE [--min-ms=200] [--min-samples=0] [--top=6]`.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { label, type Profile, type ProfileNode } from './cpuprofile.js';

export interface Block {
  /** ms from the profile's start. */
  startMs: number;
  ms: number;
  /** Samples taken in it: about its on-CPU milliseconds at a 1 ms interval, where ms also counts waiting for a core. */
  samples: number;
  self: [string, number][];
  incl: [string, number][];
  /** The longest run under one call from the loop: its samples and the frames common to its samples, outermost first. */
  longestCall: { samples: number; frames: string[] };
}

const outsideJs = new Set(['(program)', '(garbage collector)', '(root)']);

export function findBlocks(p: Profile, minMs = 200, top = 6, minSamples = 0): Block[] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const path = (id: number): ProfileNode[] => {
    const out: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) out.push(byId.get(at)!);
    return out.reverse();
  };
  const idle = (i: number) => byId.get(p.samples[i]!)!.callFrame.functionName === '(idle)';
  const blocks: Block[] = [];
  let at = 0;
  const startOf: number[] = [];
  for (let i = 0; i < p.samples.length; i++) { at += p.timeDeltas[i] ?? 0; startOf.push(at); }
  for (let i = 0; i < p.samples.length;) {
    if (idle(i)) { i++; continue; }
    let j = i;
    while (j < p.samples.length && !idle(j)) j++;
    // Sample k stands for the time since sample k-1; the stretch ends at the first idle sample.
    const dur = (k: number) => p.timeDeltas[k + 1] ?? 0;
    let ms = 0;
    for (let k = i; k < j; k++) ms += dur(k) / 1000;
    if (ms >= minMs && j - i >= minSamples) blocks.push(describe(i, j, ms));
    i = j;
  }
  return blocks;

  function describe(from: number, to: number, ms: number): Block {
    const self = new Map<string, number>();
    const incl = new Map<string, number>();
    const add = (m: Map<string, number>, k: string, t: number) => m.set(k, (m.get(k) ?? 0) + t);
    let best = { samples: 0, frames: [] as string[] };
    let run = { entry: -1, ms: 0, common: [] as ProfileNode[] };
    for (let k = from; k < to; k++) {
      const t = 1;
      const stack = path(p.samples[k]!);
      add(self, label(stack[stack.length - 1]!.callFrame), t);
      const seen = new Set<string>();
      for (const n of stack) {
        const l = label(n.callFrame);
        if (/\/(dist|node_modules)\//.test(n.callFrame.url) && !seen.has(l)) { seen.add(l); add(incl, l, t); }
      }
      const entry = stack[1];
      if (!entry || outsideJs.has(entry.callFrame.functionName)) { run.ms += t; continue; }
      if (entry.id !== run.entry) run = { entry: entry.id, ms: 0, common: stack.slice(1) };
      run.ms += t;
      let c = 0;
      while (c < run.common.length && c + 1 < stack.length && run.common[c]!.id === stack[c + 1]!.id) c++;
      run.common = run.common.slice(0, c);
      if (run.ms > best.samples) best = { samples: run.ms, frames: run.common.map((n) => label(n.callFrame)) };
    }
    const topOf = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top).map(([k, v]) => [k, Math.round(v)] as [string, number]);
    return { startMs: Math.round(startOf[from]! / 1000), ms: Math.round(ms), samples: to - from, self: topOf(self), incl: topOf(incl), longestCall: best };
  }
}

export function formatBlocks(blocks: Block[]): string[] {
  const lines = [`${blocks.length} stretches without idle`];
  for (const b of blocks) {
    lines.push(`at ${(b.startMs / 1000).toFixed(1)} s: ${b.ms} ms, ${b.samples} samples`);
    lines.push(`  self: ${b.self.map(([k, v]) => `${k} ${v}`).join(' | ')}`);
    lines.push(`  incl: ${b.incl.map(([k, v]) => `${k} ${v}`).join(' | ')}`);
    lines.push(`  longest call ${b.longestCall.samples} samples: ${b.longestCall.frames.slice(-8).join(' > ')}`);
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const opt = (name: string, dflt: number) => Number(process.argv.find((x) => x.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);
  const file = process.argv.slice(2).find((x) => !x.startsWith('--'));
  if (!file) {
    console.error('usage: cpuprofile-blocks.js FILE [--min-ms=200] [--min-samples=0] [--top=6]');
    process.exit(2);
  }
  console.log(formatBlocks(findBlocks(JSON.parse(readFileSync(file, 'utf8')) as Profile, opt('min-ms', 200), opt('top', 6), opt('min-samples', 0))).join('\n'));
}
