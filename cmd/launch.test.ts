// The executable starts from the single-file build, and V8 takes the code cache the
// build wrote beside it (a rejected cache would only make every start slower, silently).
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { isAscii } from 'node:buffer';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { bundleFile, codeCacheFile, trainedCacheFile } from './launch.js';
import { shippedNodeFlags } from './node-flags.js';
import { flagSections } from '../pkg/server/options.js';
import { helpText } from '../pkg/server/options/help.js';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, '..', '..', 'bin', 'kube-apiserver.js');

describe('kube-apiserver executable (single-file build)', () => {
  it('the build wrote the bundle and its code cache, and this node accepts the cache', async () => {
    expect(existsSync(bundleFile), bundleFile).to.equal(true);
    expect(existsSync(codeCacheFile), codeCacheFile).to.equal(true);
    // Else the executable runs the per-file build (tsc alone since the bundle: npm run build).
    expect(statSync(bundleFile).mtimeMs, 'the bundle is older than dist/cmd/apiserver.js').to.be.at.least(statSync(join(here, 'apiserver.js')).mtimeMs);
    // A fresh node under the flags the executable starts it with (bin/node-flags); mocha's
    // own would change V8's flag hash.
    const probe = `import { readFileSync } from 'node:fs';
import { codeCacheFile, loadBundle } from ${JSON.stringify(join(here, 'launch.js'))};
const { script, bundle } = loadBundle(readFileSync(codeCacheFile));
console.log(JSON.stringify({ rejected: script.cachedDataRejected, exports: Object.keys(bundle).sort() }));`;
    const env = { ...process.env };
    delete env['NODE_OPTIONS'];
    const { stdout } = await run(process.execPath, [...shippedNodeFlags(), '--input-type=module', '-e', probe], { env });
    expect(JSON.parse(stdout)).to.deep.equal({ rejected: false, exports: ['command', 'loadServer'] });
    // launch.ts decodes an ASCII bundle as latin1, a quarter of UTF-8's time.
    expect(isAscii(readFileSync(bundleFile)), 'a non-ASCII character in the bundle').to.equal(true);
  });

  it('the bundle names its build, and a trained cache by it, so a rebuilt bundle never takes an old one', () => {
    const source = readFileSync(bundleFile, 'utf8');
    const id = /^\/\/ build ([0-9a-f]{32})\n/.exec(source)?.[1];
    expect(id, source.slice(0, 80)).to.be.a('string');
    expect(trainedCacheFile(source)).to.equal(`${bundleFile}.${id}.trained-cache`);
    expect(trainedCacheFile(source.slice(source.indexOf('\n') + 1))).to.equal(undefined);
  });

  it('answers --help, --version and an unknown flag from the bundle as the per-file build does', async () => {
    expect((await run(bin, ['--help'])).stdout).to.equal(helpText(flagSections));
    expect((await run(bin, ['--version'])).stdout).to.match(/^Kubernetes v1\.28\.\d+\n$/);
    const unknown = await run(bin, ['--foo']).then(() => undefined, (e: { code: number; stderr: string }) => e);
    expect(unknown).to.deep.include({ code: 1, stderr: 'Error: unknown flag: --foo\n' });
  });
});
