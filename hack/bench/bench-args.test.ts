import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { usageOf } from './bench-args.js';
import { join } from 'node:path';

const benchDir = fileURLToPath(new URL('.', import.meta.url));

/**
 * The built bench with `args`. ETCD_BIN names no file: a bench that went on to start its
 * etcd would fail with 1 (embedded.ts refuses an explicit binary that is not there), so an
 * exit of 0 or 2 is also proof that nothing was started.
 */
function runBench(file: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(benchDir, file), ...args], {
    encoding: 'utf8', timeout: 30_000, env: { ...process.env, ETCD_BIN: '/nonexistent/etcd' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every built bench that checks its command line. */
const checkedBenches = readdirSync(benchDir)
  .filter((f) => f.endsWith('.js') && !f.endsWith('.test.js') && readFileSync(join(benchDir, f), 'utf8').includes('checkBenchArgs(import.meta.url'));

describe('hack/bench: the command line', function () {
  this.timeout(120_000);

  it('crud-verbs --help prints the usage from its header and exits 0 without starting etcd', () => {
    const r = runBench('crud-verbs.js', ['--help']);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^Benchmark: server CPU per operation, one verb at a time/);
    expect(r.stdout).to.include('Run: `node dist/hack/bench/crud-verbs.js [--concurrency=32]');
    expect(r.stdout).not.to.include('//');
    expect(r.stderr).to.equal('');
  });

  it('crud-verbs refuses an unknown flag with the usage and exit 2, known flags beside it or not', () => {
    for (const args of [['--bogus'], ['--seconds=8', '--second=8'], ['--verbs=create', '--bogus=1', '--help-me']]) {
      const r = runBench('crud-verbs.js', args);
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).to.equal(2);
      const unknown = args.filter((a) => !a.startsWith('--seconds=') && !a.startsWith('--verbs='));
      expect(r.stderr).to.include(`unknown flag${unknown.length > 1 ? 's' : ''}: ${unknown.join(' ')}\n`);
      expect(r.stderr).to.include('Run: `node dist/hack/bench/crud-verbs.js');
      expect(r.stdout).to.equal('');
    }
  });

  it('a known flag is not refused: crud-verbs goes on to start its etcd (and fails at the missing binary)', () => {
    const r = runBench('crud-verbs.js', ['--seconds=1', '--verbs=create', '--against=dist/cmd/apiserver.js', '--floor=design', '--no-controllers']);
    expect(r.status).to.equal(1);
    expect(r.stderr).to.include('etcd binary /nonexistent/etcd is not an executable file');
  });

  it('every bench that checks its command line has a header naming its own script for --help', () => {
    expect(checkedBenches.length).to.be.greaterThan(15);
    for (const file of checkedBenches) {
      const usage = usageOf(pathToFileURL(join(benchDir, file)).href);
      expect(usage.split('\n').length, file).to.be.greaterThan(2);
      expect(usage, file).to.include(`dist/hack/bench/${file}`);
    }
  });

  it('a bench the Makefile hands `make bench`\'s shared ARGS names a flag it does not read and goes on', () => {
    const r = runBench('index.js', ['--bogus', '--samples=3']);
    expect(r.stderr).to.include('not read by this bench (make bench hands ARGS to several): --bogus\n');
    expect(r.status).to.equal(1);
    expect(r.stderr).to.include('etcd binary /nonexistent/etcd is not an executable file');
    const help = runBench('index.js', ['--bogus', '--help']);
    expect(help.status).to.equal(0);
    expect(help.stdout).to.match(/^Benchmark: lists and watch latency/);
  });
});
