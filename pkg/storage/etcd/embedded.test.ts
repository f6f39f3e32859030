import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { findEtcdBinary, startEmbeddedEtcd } from './embedded.js';
import { alive } from '../../../test/harness/processes.js';


async function eventually(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

describe('pkg/storage/etcd/embedded', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => { dir = await mkdtemp(join(tmpdir(), 'embedded-etcd-')); });
  afterEach(async () => { await rm(dir, { recursive: true, force: true }); });

  it('serves real reads and writes on 127.0.0.1 and stops its process', async () => {
    const etcd = await startEmbeddedEtcd({ dataDir: join(dir, 'data') });
    expect(etcd.endpoint).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(alive(etcd.pid)).to.equal(true);
    const client = new Etcd3({ hosts: etcd.endpoint });
    try {
      await client.put('/t/a').value('1');
      expect(await client.get('/t/a').string()).to.equal('1');
      expect(await client.get('/embedded-etcd-probe/' + process.pid).string()).to.equal(null);
    } finally {
      client.close();
    }
    await etcd.stop();
    expect(alive(etcd.pid)).to.equal(false);
    await etcd.stop();
  });

  it('keeps data across restarts on the same data dir', async () => {
    const dataDir = join(dir, 'data');
    const first = await startEmbeddedEtcd({ dataDir });
    const c1 = new Etcd3({ hosts: first.endpoint });
    await c1.put('/t/kept').value('yes');
    c1.close();
    await first.stop();
    const second = await startEmbeddedEtcd({ dataDir });
    const c2 = new Etcd3({ hosts: second.endpoint });
    try {
      expect(await c2.get('/t/kept').string()).to.equal('yes');
    } finally {
      c2.close();
      await second.stop();
    }
  });

  it('refuses a binary that is not there, naming the install script', async () => {
    let err: unknown;
    try {
      await startEmbeddedEtcd({ dataDir: join(dir, 'd'), binary: join(dir, 'no-etcd') });
    } catch (e) { err = e; }
    expect(String(err)).to.contain(join(dir, 'no-etcd')).and.to.contain('hack/install-etcd.sh');
  });

  it('finds etcd from $ETCD_BIN, else on PATH', () => {
    const saved = process.env['ETCD_BIN'];
    try {
      process.env['ETCD_BIN'] = dir;
      expect(() => findEtcdBinary()).to.throw(/not an executable file.*hack\/install-etcd\.sh/);
      delete process.env['ETCD_BIN'];
      expect(findEtcdBinary()).to.match(/\/etcd$/);
    } finally {
      if (saved === undefined) delete process.env['ETCD_BIN'];
      else process.env['ETCD_BIN'] = saved;
    }
  });

  it('does not outlive a parent killed with SIGKILL', async () => {
    const moduleUrl = new URL('./embedded.js', import.meta.url).href;
    const script = `import { startEmbeddedEtcd } from ${JSON.stringify(moduleUrl)};
      const e = await startEmbeddedEtcd({ dataDir: ${JSON.stringify(join(dir, 'orphan'))} });
      process.stdout.write(String(e.pid) + '\\n');
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = await new Promise<number>((resolve, reject) => {
      let out = '';
      parent.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(Number(out.trim()));
      });
      parent.once('exit', (code) => reject(new Error(`parent exited early (${code})`)));
    });
    expect(alive(pid)).to.equal(true);
    parent.kill('SIGKILL');
    expect(await eventually(() => !alive(pid), 15_000)).to.equal(true);
  });

  it('with keepProcessAlive false, lets its parent end by itself and then stops', async () => {
    const moduleUrl = new URL('./embedded.js', import.meta.url).href;
    const script = `import { startEmbeddedEtcd } from ${JSON.stringify(moduleUrl)};
      const e = await startEmbeddedEtcd({ dataDir: ${JSON.stringify(join(dir, 'unref'))}, keepProcessAlive: false });
      process.stdout.write(String(e.pid) + '\\n');`;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    parent.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
    const code = await new Promise((r) => parent.once('exit', r));
    expect(code).to.equal(0);
    const pid = Number(out.trim());
    expect(pid).to.be.greaterThan(0);
    expect(await eventually(() => !alive(pid), 15_000)).to.equal(true);
  });

  it('does not outlive a parent that exits normally', async () => {
    const moduleUrl = new URL('./embedded.js', import.meta.url).href;
    const script = `import { startEmbeddedEtcd } from ${JSON.stringify(moduleUrl)};
      const e = await startEmbeddedEtcd({ dataDir: ${JSON.stringify(join(dir, 'exit'))} });
      process.stdout.write(String(e.pid) + '\\n');
      process.exit(0);`;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    parent.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
    await new Promise((r) => parent.once('exit', r));
    const pid = Number(out.trim());
    expect(pid).to.be.greaterThan(0);
    expect(await eventually(() => !alive(pid), 15_000)).to.equal(true);
  });
});
