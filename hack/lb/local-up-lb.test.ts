// hack/local-up-cluster.sh with LB_PORT: the balancer spreads connections over the
// replicas round robin, and once a replica is killed, requests (retried on a new
// connection when theirs was cut) all land on the survivor while the cluster stays up.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, spawnTracked, type Tracked } from '../../test/harness/index.js';
import { repoRoot } from '../../test/harness/repo.js';

describe('hack/local-up-cluster.sh load balancer', function () {
  // Starting etcd and two replicas dominates; on a loaded machine that alone can take a minute.
  this.timeout(150_000);
  let dir = '';
  let script: Tracked | undefined;
  let stderr = '';
  after(async () => {
    await script?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('spreads connections over both replicas and routes around a killed one', async () => {
    dir = mkdtempSync(join(tmpdir(), 'local-up-lb-'));
    // The script takes consecutive replica ports from BASE_PORT; the next one is very likely free too.
    const [base, etcdClient, etcdPeer, lbPort] = await freePorts(4);
    script = spawnTracked('bash', ['hack/local-up-cluster.sh'], {
      cwd: repoRoot(),
      env: { ...process.env, SKIP_BUILD: '1', REPLICAS: '2', BASE_PORT: String(base), LB_PORT: String(lbPort),
        ETCD_CLIENT_PORT: String(etcdClient), ETCD_PEER_PORT: String(etcdPeer), LOCAL_UP_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    script.child.stdout!.on('data', (c: Buffer) => { stdout += c.toString(); });
    script.child.stderr!.on('data', (c: Buffer) => { stderr += c.toString(); });
    const deadline = Date.now() + 120_000;
    while (!stdout.includes('replica(s) ready')) {
      if (Date.now() > deadline || script.child.exitCode !== null) throw new Error(`local-up did not start:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const replicaPid = (i: number): number => Number(new RegExp(`replica ${i} pid (\\d+)`).exec(stderr)![1]);
    const pki = (f: string): string => readFileSync(join(dir, 'pki', f), 'utf8');
    const creds = { ca: pki('ca.crt'), cert: pki('client-admin.crt'), key: pki('client-admin.key') };
    const get = (agent: Agent | false): Promise<number> => new Promise((resolve, reject) => {
      const req = httpsRequest({ hostname: '127.0.0.1', port: lbPort, path: '/api/v1/namespaces/default', agent, ...creds }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
    const lbLines = (): string[] => readFileSync(join(dir, 'logs', 'lb.log'), 'utf8').split('\n').filter((l) => l.includes('connection ->'));

    for (let i = 0; i < 4; i++) assert.equal(await get(false), 200);
    const spread = lbLines().map((l) => Number(l.split(':').pop()));
    assert.deepEqual(spread, [base, base! + 1, base, base! + 1], 'one connection per request, round robin');

    // Two keep-alive connections, one on each replica; then replica 0 dies under one of them.
    const agent = new Agent({ keepAlive: true, maxSockets: 2, ...creds });
    assert.deepEqual(await Promise.all([get(agent), get(agent)]), [200, 200]);
    process.kill(replicaPid(0), 'SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    const before = lbLines().length;
    let retried = 0;
    for (let i = 0; i < 10; i++) {
      // A request on a connection the dead replica cut is retried once on a new connection.
      const status = await get(agent).catch(() => { retried++; return get(agent); });
      assert.equal(status, 200);
    }
    for (let i = 0; i < 4; i++) assert.equal(await get(false), 200);
    agent.destroy();
    const after = lbLines().slice(before).map((l) => Number(l.split(':').pop()));
    assert.ok(after.length >= 4, `new connections after the kill: ${after.length}, retried ${retried}`);
    assert.ok(after.every((p) => p === base! + 1), `connections after the kill went to ${after.join(',')}`);
    assert.equal(script.child.exitCode, null, 'the cluster stays up with one replica');
    assert.match(stderr, new RegExp(`replica pid ${replicaPid(0)} exited .*skips it`));
  });
});
