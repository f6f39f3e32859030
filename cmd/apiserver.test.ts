// The kube-apiserver command as a user (or envtest) runs it: help, version, unknown flags.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flagSections } from '../pkg/server/options.js';
import { helpText } from '../pkg/server/options/help.js';
import { versionInfo } from '../pkg/version/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const command = join(here, 'apiserver.js');

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [command, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`kube-apiserver ${args.join(' ')} did not exit: it started a server?`)); }, 30_000);
    child.on('error', reject);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

describe('kube-apiserver command', () => {
  it('-h and --help print the help on stdout and exit 0 without starting a server', async () => {
    for (const flag of ['-h', '--help']) {
      const r = await run([flag]);
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout).to.equal(helpText(flagSections));
      expect(r.stdout).to.include('\nEtcd flags:\n\n      --');
      expect(r.stderr).to.equal('');
    }
  });

  it('--version prints what /version reports; --version=raw the version struct; both exit 0', async () => {
    const plain = await run(['--version']);
    expect(plain).to.deep.equal({ code: 0, stdout: `Kubernetes ${versionInfo.gitVersion}\n`, stderr: '' });
    expect(plain.stdout).to.match(/^Kubernetes v1\.28\.\d+\n$/);
    const raw = await run(['--version=raw']);
    expect(raw.code).to.equal(0);
    expect(raw.stdout).to.equal(`version.Info{Major:"1", Minor:"28", GitVersion:"${versionInfo.gitVersion}", GitCommit:"${versionInfo.gitCommit}", `
      + `GitTreeState:"clean", BuildDate:"${versionInfo.buildDate}", GoVersion:"${versionInfo.goVersion}", Compiler:"gc", Platform:"${versionInfo.platform}"}\n`);
  });

  it('an unknown flag exits 1 with upstream\'s one line on stderr', async () => {
    expect(await run(['--foo'])).to.deep.equal({ code: 1, stdout: '', stderr: 'Error: unknown flag: --foo\n' });
    expect(await run(['--secure-port=0', '--insecure-port=8080'])).to.deep.equal({ code: 1, stdout: '', stderr: 'Error: unknown flag: --insecure-port\n' });
    expect(await run(['-q'])).to.deep.equal({ code: 1, stdout: '', stderr: "Error: unknown shorthand flag: 'q' in -q\n" });
  });

  it('the README\'s test API example is test/examples/operator.test.ts, which make test runs', () => {
    const readme = readFileSync(join(here, '..', '..', 'README.md'), 'utf8');
    const example = readFileSync(join(here, '..', '..', 'test', 'examples', 'operator.test.ts'), 'utf8');
    expect(readme).to.include(example.slice(example.indexOf('\n') + 1));
  });

  it('the README lists exactly the upstream flags accepted but not implemented', () => {
    const readme = readFileSync(join(here, '..', '..', 'README.md'), 'utf8');
    const block = /<!-- not-implemented-flags:start -->([\s\S]*?)<!-- not-implemented-flags:end -->/.exec(readme)?.[1] ?? '';
    const listed = [...block.matchAll(/`--([a-z0-9-]+)`/g)].map((m) => m[1]);
    const table = flagSections.flatMap((s) => s.flags.filter((f) => f.notImplemented).map((f) => f.name));
    expect([...listed].sort()).to.deep.equal([...table].sort());
  });
});
