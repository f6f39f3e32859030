// Every way of starting a replica runs it under bin/node-flags: the launcher's path to
// bin/kube-apiserver.js (V8 applies them: its heap is the one those flags give), npm start
// (through the launcher: V8 refuses the build's code cache under other flags), with a
// flag a user's NODE_OPTIONS names winning over its shipped value, and the test
// harness's replicas. The snapshot path is asserted by test/e2e/envtest-replay.test.ts,
// which starts from it.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { flagsNotNamedIn, nodeFlagsFile, shippedNodeFlags, shippedNodeFlagsUnder } from './node-flags.js';
import { startReplicas } from '../test/harness/index.js';

const run = promisify(execFile);
const bin = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin');

/** What V8 made of a node's flags: the heap's limit (old space plus three semi-spaces) and the young generation's size now. */
const heapProbe = `const v8 = require('node:v8');
console.log(JSON.stringify({
  heapLimit: v8.getHeapStatistics().heap_size_limit,
  newSpace: v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size,
  execArgv: process.execArgv,
}));`;

async function heapOf(flags: string[]): Promise<{ heapLimit: number; newSpace: number }> {
  const env = { ...process.env };
  delete env['NODE_OPTIONS'];
  const { heapLimit, newSpace } = JSON.parse((await run(process.execPath, [...flags, '-e', heapProbe], { env })).stdout);
  return { heapLimit, newSpace };
}

describe('node flags the server ships with (bin/node-flags)', () => {
  /** The launcher with `flags` for bin/node-flags, beside a stand-in for bin/kube-apiserver.js that reports its heap, and no build beside it, so the launcher takes its path to the .js. */
  const launcherWith = (flags: string): string => {
    const dir = mkdtempSync(join(tmpdir(), 'node-flags-'));
    dirs.push(dir);
    copyFileSync(join(bin, 'kube-apiserver'), join(dir, 'kube-apiserver'));
    writeFileSync(join(dir, 'node-flags'), `${flags}\n`);
    writeFileSync(join(dir, 'kube-apiserver.js'), heapProbe);
    return join(dir, 'kube-apiserver');
  };
  const dirs: string[] = [];
  after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

  it('bin/kube-apiserver starts bin/kube-apiserver.js under them', async () => {
    const flags = shippedNodeFlags();
    expect(flags.length, readFileSync(nodeFlagsFile, 'utf8')).to.be.greaterThan(0);
    const env = { ...process.env };
    delete env['NODE_OPTIONS'];
    const started = JSON.parse((await run(launcherWith(readFileSync(nodeFlagsFile, 'utf8').trim()), [], { env })).stdout);
    expect(started.execArgv).to.deep.equal(flags);
    const shipped = await heapOf(flags);
    expect({ heapLimit: started.heapLimit, newSpace: started.newSpace }).to.deep.equal(shipped);
    // So that the comparison above can fail: the flags change V8's heap.
    expect(shipped).to.not.deep.equal(await heapOf([]));
  });

  it('npm start runs bin/kube-apiserver, so under them', async function () {
    this.timeout(30_000);
    const dir = mkdtempSync(join(tmpdir(), 'node-flags-npm-start-'));
    dirs.push(dir);
    const { scripts } = JSON.parse(readFileSync(join(bin, '..', 'package.json'), 'utf8')) as { scripts: { start: string } };
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'npm-start-probe', version: '0.0.0', scripts: { start: scripts.start } }));
    mkdirSync(join(dir, 'bin'));
    copyFileSync(join(bin, 'kube-apiserver'), join(dir, 'bin', 'kube-apiserver'));
    copyFileSync(nodeFlagsFile, join(dir, 'bin', 'node-flags'));
    writeFileSync(join(dir, 'bin', 'kube-apiserver.js'), heapProbe);
    const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}` };
    delete env['NODE_OPTIONS'];
    const started = JSON.parse((await run('npm', ['start', '--silent'], { cwd: dir, env })).stdout);
    expect(started.execArgv).to.deep.equal(shippedNodeFlags());
  });

  it("a flag a user's NODE_OPTIONS names wins over the shipped one", async () => {
    // Flags of this test's own (node refuses --min-semi-space-size in NODE_OPTIONS).
    const flags = ['--max-semi-space-size=64', '--min-semi-space-size=4'];
    const own = '--max-semi-space-size=32';
    const started = JSON.parse((await run(launcherWith(flags.join(' ')), [], { env: { ...process.env, NODE_OPTIONS: own } })).stdout);
    expect(started.execArgv).to.deep.equal(['--min-semi-space-size=4']);
    expect(flagsNotNamedIn(flags, own)).to.deep.equal(['--min-semi-space-size=4']);
    const theirs = await heapOf(['--min-semi-space-size=4', own]);
    expect({ heapLimit: started.heapLimit, newSpace: started.newSpace }).to.deep.equal(theirs);
    expect(theirs).to.not.deep.equal(await heapOf(flags));
  });

  it('the test harness starts its replicas under them, and its nodeArgs after them', async function () {
    this.timeout(120_000);
    const cluster = await startReplicas(1, { nodeArgs: ['--no-warnings'] });
    try {
      const cmdline = readFileSync(`/proc/${cluster.replicas[0]!.pid}/cmdline`, 'utf8').split('\0');
      const entry = cmdline.findIndex((a) => a.endsWith('/cmd/apiserver.js'));
      expect(cmdline.slice(1, entry)).to.deep.equal([...shippedNodeFlagsUnder(process.env), '--no-warnings']);
    } finally {
      await cluster.stop();
    }
  });
});
