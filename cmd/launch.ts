// Starts kube-apiserver from the single-file build when there is one, else from the
// per-file build (dist/cmd/apiserver.js). Resolving and compiling some 800 ES modules
// was half a second of CPU at every start; one CommonJS file compiled from V8's code
// cache (written by the build beside it) is a tenth of that. A cache that does not fit
// this node (another version, other V8 flags) is rejected by V8 and the file compiles
// as usual, only slower.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

export const bundleFile = fileURLToPath(new URL('../bundle/kube-apiserver.cjs', import.meta.url));
export const codeCacheFile = `${bundleFile}.cache`;

export interface Bundle {
  command(): Promise<unknown>;
  loadServer(): Promise<unknown>;
}

/** Compiles and evaluates the bundle as Node's CommonJS loader would, with the code cache when given. */
export function loadBundle(cachedData?: Buffer): { bundle: Bundle; script: Script } {
  const source = readFileSync(bundleFile, 'utf8');
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: bundleFile, cachedData });
  const module = { exports: {} as Bundle };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(bundleFile), module, bundleFile, dirname(bundleFile));
  return { bundle: module.exports, script };
}

export async function launch(): Promise<void> {
  if (!existsSync(bundleFile)) {
    await import('./apiserver.js');
    return;
  }
  let cachedData: Buffer | undefined;
  try { cachedData = readFileSync(codeCacheFile); } catch { /* built without one: compile */ }
  await loadBundle(cachedData).bundle.command();
}
