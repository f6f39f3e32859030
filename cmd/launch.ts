// Starts kube-apiserver from the single-file build when there is one and it is not older
// than the per-file build (dist/cmd/apiserver.js), else from the latter. Resolving and
// compiling some 800 ES modules was half a second of CPU at every start; one CommonJS
// file compiled from V8's code cache (written by the build beside it) is a tenth of
// that. A cache that does not fit this node (another version, other V8 flags) is
// rejected by V8 and the file compiles as usual, only slower. The build's cache holds
// what evaluating the modules compiles; a server that started from it writes a second
// one a second after it serves, which also holds what a start runs (requests, bootstrap
// writes): a tenth of a second less CPU at each later start. It sits beside the bundle,
// named by the bundle's build id. Started by bin/kube-apiserver, that server then also
// has the startup snapshot built from it (cmd/snapshot.ts), which later starts take.
import { isAscii } from 'node:buffer';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

export const bundleFile = fileURLToPath(new URL('../bundle/kube-apiserver.cjs', import.meta.url));
export const codeCacheFile = `${bundleFile}.cache`;

export interface Bundle {
  command(): Promise<{ serving: Promise<void> }>;
  loadServer(): Promise<unknown>;
}

/** The bundle's source. The build writes it in ASCII, which decodes as latin1 in a quarter of UTF-8's time (3 vs 12 ms). */
export function readBundleSource(): string {
  const bytes = readFileSync(bundleFile);
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

/**
 * The function CommonJS wraps a module's source in. V8 takes a code cache only for the very
 * text it was made from, so every compiler of the bundle (this file, cmd/snapshot.ts) wraps
 * it with these.
 */
export const bundleWrapper = { head: '(function (exports, require, module, __filename, __dirname) {', tail: '\n})' };

/** Compiles and evaluates the bundle as Node's CommonJS loader would, with the code cache when given. */
export function loadBundle(cachedData?: Buffer, source = readBundleSource()): { bundle: Bundle; script: Script } {
  const script = new Script(bundleWrapper.head + source + bundleWrapper.tail, { filename: bundleFile, cachedData });
  const module = { exports: {} as Bundle };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(bundleFile), module, bundleFile, dirname(bundleFile));
  return { bundle: module.exports, script };
}

/** The bundle's first line, `// build <sha256 of the rest>` (hack/bundle.ts). */
export const buildIdLine = (id: string): string => `// build ${id}\n`;

function readIfPresent(file: string): Buffer | undefined {
  try { return readFileSync(file); } catch { return undefined; }
}

/** Where a server of the build with this first line keeps its trained cache. */
export function trainedCacheFile(source: string): string | undefined {
  const id = /^\/\/ build ([0-9a-f]{16,})\n/.exec(source)?.[1];
  return id ? `${bundleFile}.${id}.trained-cache` : undefined;
}

/**
 * A bundle older than the per-file build was made from older code: `tsc` alone rebuilt
 * dist/ since (`npm run build` bundles after it). tsc rewrites every file it emits; in
 * an installed package both have the tarball's one time.
 */
function bundleIsCurrent(): boolean {
  if (!existsSync(bundleFile)) return false;
  const perFile = fileURLToPath(new URL('./apiserver.js', import.meta.url));
  return !existsSync(perFile) || statSync(bundleFile).mtimeMs >= statSync(perFile).mtimeMs;
}

export async function launch(): Promise<void> {
  if (!bundleIsCurrent()) {
    await import('./apiserver.js');
    return;
  }
  const source = readBundleSource();
  const trainedFile = trainedCacheFile(source);
  const trained = trainedFile ? readIfPresent(trainedFile) : undefined;
  const { bundle, script } = loadBundle(trained ?? readIfPresent(codeCacheFile), source);
  // bin/kube-apiserver asks for its startup snapshot when it found none that fits.
  const wantsSnapshot = process.env['KUBE_APISERVER_BUILD_SNAPSHOT'] === '1';
  delete process.env['KUBE_APISERVER_BUILD_SNAPSHOT'];
  const { serving } = await bundle.command();
  if (!trainedFile) return;
  const cacheFits = trained !== undefined && !script.cachedDataRejected;
  if (cacheFits && !wantsSnapshot) return;
  void serving.then(() => {
    setTimeout(() => {
      if (!cacheFits && !writeTrainedCache(script, trainedFile)) return;
      if (wantsSnapshot) buildSnapshotInBackground(trainedFile);
    }, 1000).unref();
  });
}

/** Through a temporary file, as servers starting together may write at once; an install this user cannot write to only goes without (the build's cache serves). */
function writeTrainedCache(script: Script, trainedFile: string): boolean {
  const tmp = `${trainedFile}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, script.createCachedData());
    renameSync(tmp, trainedFile);
    return true;
  } catch {
    rmSync(tmp, { force: true });
    return false;
  }
}

/** cmd/snapshot.ts, detached and at the lowest priority: it outlives this server if it must. */
function buildSnapshotInBackground(trainedFile: string): void {
  try {
    const child = spawn(process.execPath, [fileURLToPath(new URL('./snapshot.js', import.meta.url)), trainedFile], { detached: true, stdio: 'ignore' });
    if (child.pid) setPriority(child.pid, 19);
    child.unref();
  } catch {
    // no snapshot: starts stay on the bundle
  }
}
