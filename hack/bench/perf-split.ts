// Where two servers' CPU goes, by kind of work, from `perf record` of each process: garbage
// collection, V8's compilers, inline caches that missed (megamorphic property access),
// promise and async machinery, other builtins, V8's runtime, JIT-compiled JavaScript (by
// package or folder), TLS, kernel and libc. perf counts every thread (V8's compiler and GC
// helpers too) by CPU time and is not fooled by a descheduled thread, where V8's
// --cpu-prof charges the time a loaded machine takes the CPU away to whatever ran when it
// came back (the TLS writev, mostly). JavaScript frames are named through the processes'
// perf maps (node --perf-basic-prof-only-functions): V8 moves and reuses code space and
// the map keeps every name an address ever had, so a sample's JavaScript name can be a
// stale one; the kinds that are not JIT code do not depend on the map.
import { spawn, execFileSync } from 'node:child_process';

/**
 * Starts `perf record` of `pid` into `file` (CLOCK_MONOTONIC, as the bench's windows); stop() ends it.
 * PERF_CALLGRAPH=1 records call chains too (-g), for `perf script`: which JavaScript calls a
 * runtime function (the perf map keeps stale names for reused code addresses: take the last).
 */
export function recordPerf(pid: number, file: string, hz = 999): { stop(): Promise<void> } {
  const child = spawn('perf', ['record', ...(process.env['PERF_CALLGRAPH'] ? ['-g'] : []), '-F', String(hz), '-k', 'CLOCK_MONOTONIC', '-p', String(pid), '-o', file], { stdio: 'ignore' });
  // No perf on this machine: the bench's figures still come; the report then says why perf's do not.
  child.once('error', (err) => { console.error(`perf record: ${err.message}`); });
  return {
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null || child.pid === undefined) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGINT');
    }),
  };
}

const kinds: Array<[string, RegExp]> = [
  ['garbage collection', /Scaveng|Marking|Sweep|Heap::|MarkCompact|Evacuat|IteratePointers|SlotSet|RememberedSet|FreeList|RecordWrite|ConcurrentMarking/],
  ['compiling (V8 tiers)', /compiler::|Compile|Maglev|Turbofan|Parser|Scanner|BytecodeGenerator|Zone::/],
  ['inline cache misses (megamorphic)', /^Builtins_.*Megamorphic/],
  ['inline caches, other', /^Builtins_(Keyed)?(Load|Store|DefineNamedOwn|DefineKeyedOwn|LoadGlobal)IC/],
  ['promises, async, microtasks', /^Builtins_.*(Promise|Microtask|Await|Async|Generator)/],
  ['calls and constructors', /^Builtins_(Call|Construct|JSConstruct|JSBuiltinsConstruct)/],
  ['TLS and crypto', /aes|gcm|GCM|AES|sha256|sha512|SHA|ssl|SSL|EVP_|BIO_|TLS|ossl|OPENSSL|x25519|poly1305|chacha|CRYPTO/],
  ['other builtins', /^Builtins_/],
  ['V8 runtime', /^v8::/],
  ['Node native (HTTP parser, HTTP/2, streams)', /^node::|llhttp|nghttp2|uv_|uv__/],
];

/** The kind of work a sample's function is, given its shared object and symbol. */
function kindOf(dso: string, sym: string): string {
  if (dso.includes('kernel')) return 'kernel';
  if (dso.startsWith('[JIT]') || sym.startsWith('JS:')) {
    const where = /dist\/(pkg\/[^/]+)|node_modules\/((?:@[^/]+\/)?[^/]+)|(node):/.exec(sym);
    if (where?.[1]) return `JavaScript: ours (${where[1]})`;
    if (where?.[2]) return `JavaScript: npm ${where[2]}`;
    return where?.[3] ? 'JavaScript: Node\'s own' : 'JavaScript: other';
  }
  for (const [name, re] of kinds) if (re.test(sym)) return name;
  if (dso.startsWith('libc') || dso.startsWith('libstdc')) return 'libc (malloc, memcpy)';
  return 'other native';
}

/** Samples per kind of work in `file` between two CLOCK_MONOTONIC instants (µs). */
export function perfKinds(file: string, window: [number, number]): Map<string, number> {
  const span = `${(window[0] / 1e6).toFixed(6)},${(window[1] / 1e6).toFixed(6)}`;
  const text = execFileSync('perf', ['report', '-i', file, '--time', span, '--no-children', '--sort', 'dso,sym', '-n', '--stdio'],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^\s+[\d.]+%\s+(\d+)\s+(\[JIT\] tid \d+|\S+)\s+\[.\]\s+(.*)$/.exec(line);
    if (!m) continue;
    const kind = kindOf(m[2]!, m[3]!);
    out.set(kind, (out.get(kind) ?? 0) + Number(m[1]));
  }
  return out;
}

/** Lines of a table: µs of CPU per operation by kind, two servers side by side, largest difference first. */
export function perfTable(a: Map<string, number>, aOps: number, b: Map<string, number>, bOps: number, hz = 999): string[] {
  const us = (samples: number, ops: number): number => (samples * 1e6) / hz / Math.max(1, ops);
  const rows = [...new Set([...a.keys(), ...b.keys()])]
    .map((k) => ({ k, x: us(a.get(k) ?? 0, aOps), y: us(b.get(k) ?? 0, bOps) }))
    .sort((p, q) => (q.x - q.y) - (p.x - p.y));
  const total = (m: Map<string, number>, ops: number): number => us([...m.values()].reduce((s, v) => s + v, 0), ops);
  return [
    ...rows.filter((r) => r.x >= 1 || r.y >= 1).map((r) => `  ${r.k.padEnd(46)} ${r.x.toFixed(0).padStart(7)} ${r.y.toFixed(0).padStart(7)}`),
    `  ${'total'.padEnd(46)} ${total(a, aOps).toFixed(0).padStart(7)} ${total(b, bOps).toFixed(0).padStart(7)}`,
  ];
}
