// Splits a V8 .cpuprofile's busy samples over a write's steps (decode, admission,
// validation, managed fields, the storage encoding, the etcd client, the watch cache's
// event, the answer, the filters, ...): each sample goes to the innermost frame of its
// stack that names a step, so a step counts what it calls unless what it calls is a step
// of its own (the etcd client under the storage call, managed fields under the store).
// Samples are counted, not weighed by their time deltas: on a loaded machine a delta also
// holds the time the thread waited for a core, which cpuprofile.js's shares then charge to
// whatever ran when it came back (one run put 10% of a patch window on mapToHeaders).
// A machine-wide stall leaves a run of samples on whatever frame the thread stopped in
// (86 in a row on one cheap comparison in one run here, 7% of that phase's samples): a
// run of one leaf longer than --max-run samples (default 20, i.e. 20 ms on one frame in a
// server answering each request in about a millisecond) counts its first max-run only;
// garbage collection is exempt (a major collection's pause is one frame for 100 ms and more).
// --us-per-op=N scales the shares to N microseconds (crud-verbs.js's CPU per operation of
// the same run; the profile sees the main thread only, so V8's helper threads' GC and
// compiling are in N but not in the shares).
// Run: `node dist/hack/bench/cpuprofile-steps.js FILE --window=START,END [--us-per-op=N] [--detail=STEP] [--max-run=20]`.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { label, type Profile } from './cpuprofile.js';

/** Steps in the order they are tried on one frame (the first that matches names it). */
const steps: Array<[string, RegExp]> = [
  ['managed fields', /managedfields\//],
  ['admission', /pkg\/admission\/|\/plugin\//],
  ['body read and decode', /handlers\/(strict-decode|decode|patched-decode)\.js|negotiation\/body|fieldvalidation|http2-body|openapi\//],
  ['validation', /validation\/|\bvalidate/i],
  ['store: create/update steps, copies', /registry\/generic\/|registry\/core\/|strategy|runtime\/object\.js/],
  ['protobuf encoding for etcd', /serializer\/protobuf\/(encode|special-types|differ|envelope)|encodeForStorage/],
  ['watch cache: event decode and apply', /storage\/cacher\/|decodeFromStorage|serializer\/protobuf\/(decode|wire)|client\/informer|pkg\/controller\//],
  ['storage (etcd store, retries)', /storage\/etcd\//],
  ['etcd client (etcd3, grpc-js, its HTTP/2)', /etcd3\/|@grpc\/|protobufjs|\$(encode|decode|fromObject|toObject)|\/long\/|long-to-string|internal\/http2/],
  ['answer encoding', /serializer\/json\/|handlers\/response\.js|responsewriters\/|negotiation\//],
  ['audit', /audit/],
  ['metrics', /filters\/metrics|endpoints\/metrics\/|metric-series|storage-metrics/],
  ['authentication, authorization', /authentication\/|authorization|impersonation/],
  ['APF', /flowcontrol\/|priority-and-fairness/],
  ['request line', /request-record|filters\/logging|pino|klog/],
  ['other filters, request info', /endpoints\/filters\/|endpoints\/request\/|endpoints\/chain|request-deadline/],
  ['handler, Koa, respond', /handlers\/\w+\.js|respond\.js|\/koa\/|installer|pkg\/server\/|delegates|accepts|negotiator/],
  ['HTTPS server (Node http, TLS, net, streams)', /node:_http|node:_tls|node:tls|node:net|node:internal\/streams|node:internal\/stream_base/],
];

const outside = new Map([['(garbage collector)', 'garbage collection (main thread)'], ['(program)', '(program): V8 and native outside JavaScript']]);

/** Busy samples per step in `window` (CLOCK_MONOTONIC us); `detail` also counts that step's leaf functions. */
export function stepsOf(p: Profile, window?: [number, number], detail?: string, maxRun = 20): {
  busy: number; dropped: number; steps: Map<string, number>; leaves: Map<string, number>;
} {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stepOfNode = new Map<number, string>();
  const stepOf = (id: number): string => {
    const known = stepOfNode.get(id);
    if (known !== undefined) return known;
    const f = byId.get(id)!.callFrame;
    const text = `${f.functionName} ${f.url}`;
    let step = outside.get(f.functionName) ?? steps.find(([, re]) => re.test(text))?.[0];
    if (step === undefined) {
      const up = parent.get(id);
      step = up === undefined ? 'other' : stepOf(up);
    }
    stepOfNode.set(id, step);
    return step;
  };
  const counts = new Map<string, number>();
  const leaves = new Map<string, number>();
  let busy = 0;
  let dropped = 0;
  let run = 0;
  let at = p.startTime ?? 0;
  for (let i = 0; i < p.samples.length; i++) {
    at += p.timeDeltas[i] ?? 0;
    run = i > 0 && p.samples[i] === p.samples[i - 1] ? run + 1 : 1;
    if (window && (at < window[0] || at > window[1])) continue;
    const leaf = byId.get(p.samples[i]!)!;
    if (leaf.callFrame.functionName === '(idle)') continue;
    if (run > maxRun && leaf.callFrame.functionName !== '(garbage collector)') { dropped++; continue; }
    busy++;
    const step = stepOf(leaf.id);
    counts.set(step, (counts.get(step) ?? 0) + 1);
    if (step === detail) leaves.set(label(leaf.callFrame), (leaves.get(label(leaf.callFrame)) ?? 0) + 1);
  }
  return { busy, dropped, steps: counts, leaves };
}

/** The table: per step its share of the busy samples, and microseconds when `usPerOp` is given. */
export function stepsTable(p: Profile, window?: [number, number], usPerOp?: number, detail?: string, maxRun?: number): string[] {
  const { busy, dropped, steps: counts, leaves } = stepsOf(p, window, detail, maxRun);
  const row = (n: number, name: string) => `${usPerOp ? `${((n * usPerOp) / busy).toFixed(1).padStart(7)} us ` : ''}${((100 * n) / busy).toFixed(1).padStart(5)}%  ${name}`;
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return [`busy samples ${busy} (${dropped} left out: runs of one leaf over max-run)`, ...sorted(counts).map(([k, n]) => row(n, k)),
    ...(detail ? [`${detail}, by leaf function:`, ...sorted(leaves).slice(0, 20).map(([k, n]) => `  ${row(n, k)}`)] : [])];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const opt = (name: string) => process.argv.find((x) => x.startsWith(`--${name}=`))?.slice(name.length + 3);
  const file = process.argv.slice(2).find((x) => !x.startsWith('--'));
  if (!file) {
    console.error('usage: cpuprofile-steps.js FILE [--window=START,END] [--us-per-op=N] [--detail=STEP]');
    process.exit(2);
  }
  const w = opt('window')?.split(',').map(Number);
  const us = opt('us-per-op');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const maxRun = opt('max-run');
  console.log(stepsTable(profile, w?.length === 2 ? [w[0]!, w[1]!] : undefined, us ? Number(us) : undefined, opt('detail'), maxRun ? Number(maxRun) : undefined).join('\n'));
}
