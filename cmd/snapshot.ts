// Writes the V8 startup snapshot bin/kube-apiserver starts from: `node --build-snapshot`
// evaluates the bundle's server modules once, compiled from the trained code cache
// (cmd/launch.ts) under the node flags every start takes (bin/node-flags; V8 tags a
// snapshot and a code cache with its flags and refuses them under others), so the heap
// it writes holds the evaluated modules and the bytecode of what a start runs. A start
// then deserializes that heap (`node --snapshot-blob`) instead of reading, compiling and
// evaluating the bundle. Run as
// `node dist/cmd/snapshot.js <trained cache>` by a server that served from the bundle
// (launch.ts), in the background; the blob only fits the node binary that wrote it,
// whose path and the flags it was built under go beside it (kube-apiserver.blob.node,
// read by bin/kube-apiserver).
//
// Node 20 cannot put every built-in module in a snapshot: http and http2 keep their
// binding data in objects it cannot serialize, and tls loads js_stream, whose functions
// it does not know. The bundle gets stand-ins for these that load the module at first
// use after deserialization; while building, a stand-in answers only the module's plain
// data (http2.constants, http.METHODS, ...: copied from this same node), and any other
// read as the bundle evaluates fails the build, naming the module and the key.
// A module that reads the clock, the environment or random bytes as it evaluates keeps
// what it read at build time; docs/scaling.md ("Start to ready") lists those in the
// bundle and why each is harmless; ours (audit's clock origin) and prom-client's
// process start time (hack/bundle.ts) read theirs at first use.
import { execFileSync } from 'node:child_process';
import { closeSync, openSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleFile, bundleWrapper } from './launch.js';
import { shippedNodeFlags } from './node-flags.js';

export const snapshotBlob = bundleFile.replace(/\.cjs$/, '.blob');

/** Built-in modules the snapshot cannot hold (see above). */
const deferredModules = ['http', 'https', 'http2', 'tls'];

/** Each deferred module's own keys, and those of its values that are plain data. */
function deferredData(): Record<string, { keys: string[]; data: Record<string, unknown> }> {
  const require = createRequire(import.meta.url);
  const plain = (v: unknown): boolean => typeof v !== 'function' && (typeof v !== 'object' || v === null
    || Object.getPrototypeOf(v) === Object.prototype || Array.isArray(v));
  return Object.fromEntries(deferredModules.map((id) => {
    const mod = require(id) as Record<string, unknown>;
    const keys = Object.keys(mod);
    return [id, { keys, data: Object.fromEntries(keys.filter((k) => plain(mod[k])).map((k) => [k, mod[k]])) }];
  }));
}

/**
 * The script `node --build-snapshot` runs: the bundle compiled with the trained cache as
 * launch.ts compiles it (same wrapper, so V8 takes the cache), evaluated with the
 * deferred modules' stand-ins, then its server modules, then the main function a start
 * runs: the command.
 */
function snapshotEntry(trainedCache: string): string {
  const dir = bundleFile.replace(/[\\/][^\\/]*$/, '');
  return `// Node's snapshot builder deletes Error.stackTraceLimit (restored after deserialization);
// depd reads its caller from a stack trace as it loads.
Error.stackTraceLimit = 10;
// Node 20's builder context lacks ES2023's array methods (http calls toSorted as it
// loads); they are removed again before the heap is written, as V8 installs its own
// when it deserializes and fails on a property already there.
const polyfilled = [];
for (const [name, fn] of [['toSorted', function (c) { return [...this].sort(c); }], ['toReversed', function () { return [...this].reverse(); }]]) {
  if (!Array.prototype[name]) { polyfilled.push(name); Object.defineProperty(Array.prototype, name, { value: fn, writable: true, configurable: true }); }
}
const builtin = require;
const deferred = ${JSON.stringify(deferredData())};
let building = true;
function standIn(id) {
  const { keys, data } = deferred[id];
  let real;
  const mod = (key) => {
    if (building) throw new Error(\`the startup snapshot cannot hold node:\${id}, and \${id}.\${String(key)} was read as the bundle evaluated\`);
    return real ??= builtin(id);
  };
  return new Proxy({}, {
    get: (_, k) => (building && Object.hasOwn(data, k) ? data[k] : Reflect.get(mod(k), k)),
    set: (_, k, v) => Reflect.set(mod(k), k, v),
    has: (_, k) => (building ? keys.includes(k) : k in mod(k)),
    ownKeys: () => (building ? [...keys] : Reflect.ownKeys(mod('ownKeys'))),
    getOwnPropertyDescriptor: (_, k) => {
      if (building) return keys.includes(k) ? { value: data[k], writable: true, enumerable: true, configurable: true } : undefined;
      const d = Reflect.getOwnPropertyDescriptor(mod(k), k);
      return d && { ...d, configurable: true };
    },
  });
}
const standIns = new Map();
const bundleRequire = (id) => {
  const name = id.startsWith('node:') ? id.slice(5) : id;
  if (!Object.hasOwn(deferred, name)) return builtin(id);
  if (!standIns.has(name)) standIns.set(name, standIn(name));
  return standIns.get(name);
};
const module = { exports: {} };
{
  const fs = builtin('fs');
  const source = fs.readFileSync(${JSON.stringify(bundleFile)}, 'latin1');
  const script = new (builtin('vm').Script)(${JSON.stringify(bundleWrapper.head)} + source + ${JSON.stringify(bundleWrapper.tail)}, {
    filename: ${JSON.stringify(bundleFile)},
    cachedData: fs.readFileSync(${JSON.stringify(trainedCache)}),
  });
  if (script.cachedDataRejected) throw new Error('this node rejects the trained code cache');
  script.runInThisContext()(module.exports, bundleRequire, module, ${JSON.stringify(bundleFile)}, ${JSON.stringify(dir)});
}
module.exports.loadServer().then(() => {
  for (const name of polyfilled) delete Array.prototype[name];
  builtin('v8').startupSnapshot.setDeserializeMainFunction(() => {
    building = false;
    void module.exports.command();
  });
});
`;
}

/**
 * Writes the blob from the trained cache, then the node path beside it; concurrent
 * builders (servers trained at once) leave it to the first. A failure leaves no blob:
 * bin/kube-apiserver starts from the bundle.
 */
export function buildSnapshot(trainedCache: string): boolean {
  const lock = `${snapshotBlob}.lock`;
  try {
    closeSync(openSync(lock, 'wx'));
  } catch {
    if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0) < 120_000) return false;
  }
  const tmp = `${snapshotBlob}.${process.pid}.tmp`;
  const entry = `${tmp}.cjs`;
  try {
    writeFileSync(entry, snapshotEntry(trainedCache));
    // V8 takes a snapshot only with the flags it was built with (else node exits 14,
    // "built ... with different V8 configurations"): the shipped ones alone, as
    // bin/kube-apiserver uses it only when NODE_OPTIONS is empty.
    const flags = shippedNodeFlags();
    const env = { ...process.env };
    delete env['NODE_OPTIONS'];
    execFileSync(process.execPath, [...flags, '--snapshot-blob', tmp, '--build-snapshot', entry], { stdio: ['ignore', 'ignore', 'pipe'], env });
    renameSync(tmp, snapshotBlob);
    writeFileSync(`${snapshotBlob}.node`, `${process.execPath}\n${flags.join(' ')}\n`);
    return true;
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    console.error(`no startup snapshot: ${stderr ? stderr.split('\n').slice(0, 12).join('\n') : String(err)}`);
    process.exitCode = 1;
    return false;
  } finally {
    for (const f of [tmp, entry, lock]) rmSync(f, { force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) buildSnapshot(process.argv[2]!);
