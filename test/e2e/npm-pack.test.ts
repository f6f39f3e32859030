// `npm pack` gives a tarball that installs into a clean project and provides the
// `kube-apiserver` executable and the kube-apiserver-ts/testing API, with its type
// declarations, which starts a server from the installed copy.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { testEtcdEndpoint } from '../harness/index.js';
import { repoRoot } from '../harness/repo.js';

const run = promisify(execFile);

describe('e2e: npm pack tarball', function () {
  this.timeout(600_000);
  let dir: string;
  after(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

  it('installs on a clean project and provides kube-apiserver and the testing API', async () => {
    dir = mkdtempSync(join(tmpdir(), 'npm-pack-'));
    await run('npm', ['pack', '--pack-destination', dir], { cwd: repoRoot() });
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
    expect(tarball).to.match(/^kube-apiserver-ts-.*\.tgz$/);
    const project = join(dir, 'consumer');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
    // From npm's cache when it has the dependencies (it does after the project's own install).
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(dir, tarball)], { cwd: project });

    const bin = join(project, 'node_modules', '.bin', 'kube-apiserver');
    expect((await run(bin, ['--version'])).stdout).to.match(/^Kubernetes v1\.28\.\d+\n$/);
    expect((await run(bin, ['-h'])).stdout).to.include('\nEtcd flags:\n');
    const unknown = await run(bin, ['--foo']).then(() => undefined, (e: { code: number; stderr: string }) => e);
    expect(unknown).to.deep.include({ code: 1, stderr: 'Error: unknown flag: --foo\n' });

    // A TypeScript operator's import type-checks against the declarations the package
    // ships (package.json exports types), and a misuse is caught, so they are not `any`.
    const tsc = join(repoRoot(), 'node_modules', 'typescript', 'bin', 'tsc');
    const tscFlags = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022'];
    writeFileSync(join(project, 'typed.ts'), `import { startTestServer, type TestServer } from 'kube-apiserver-ts/testing';
const s: TestServer = await startTestServer({ crds: ['config/crd/bases'], timeoutMs: 30_000 });
const path: string = s.kubeconfigPath;
await s.stop();
export { path };
`);
    await run(process.execPath, [tsc, ...tscFlags, 'typed.ts'], { cwd: project });
    writeFileSync(join(project, 'mistyped.ts'), `import { startTestServer } from 'kube-apiserver-ts/testing';
export const port: number = (await startTestServer()).url;
`);
    const mistyped = await run(process.execPath, [tsc, ...tscFlags, 'mistyped.ts'], { cwd: project }).then(() => undefined, (e: { stdout: string }) => e);
    expect(mistyped?.stdout).to.include("error TS2322: Type 'string' is not assignable to type 'number'.");

    // The test API of the installed copy, resolved by package name from the consumer.
    const script = `import { startTestServer } from 'kube-apiserver-ts/testing';
const s = await startTestServer({ etcd: process.argv[2] });
console.log(JSON.stringify({ url: s.url, hasKubeconfig: s.kubeconfig.includes('client-certificate-data') }));
await s.stop();`;
    writeFileSync(join(project, 'check.mjs'), script);
    const out = await run(process.execPath, ['check.mjs', await testEtcdEndpoint()], { cwd: project, timeout: 300_000 });
    expect(JSON.parse(out.stdout)).to.deep.include({ hasKubeconfig: true });
    expect(JSON.parse(out.stdout).url).to.match(/^https:\/\/127\.0\.0\.1:\d+$/);
  });
});
