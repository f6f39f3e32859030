// hack/local-up-cluster.sh with LB_PORT: the balancer spreads connections over the
// replicas round robin, and once a replica is killed, requests (retried on a new
// connection when theirs was cut) all land on the survivor while the cluster stays up.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { createServer, type Server } from 'node:net';
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
  /** Whether both ports can be listened on now. */
  const bothFree = async (...ports: number[]): Promise<boolean> => {
    const servers: Server[] = [];
    try {
      for (const port of ports) {
        servers.push(await new Promise<Server>((resolve, reject) => {
          const srv = createServer();
          srv.once('error', reject);
          srv.listen(port, '127.0.0.1', () => resolve(srv));
        }));
      }
      return true;
    } catch {
      return false;
    } finally {
      await Promise.all(servers.map((srv) => new Promise((r) => srv.close(r))));
    }
  };
  after(async () => {
    await script?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('spreads connections over both replicas and routes around a killed one', async () => {
    // The script takes consecutive replica ports from BASE_PORT. A free port from the kernel
    // is odd, so BASE_PORT + 1 is even: the parity connect() gives outgoing connections,
    // which on a busy machine (CI's other worker) may hold it or take it before the replica
    // binds it. So both are checked free first, and a start that lost that race (the
    // replica's EADDRINUSE) is retried on other ports.
    let base = 0;
    let lbPort = 0;
    let stdout = '';
    for (let attempt = 1; ; attempt++) {
      dir = mkdtempSync(join(tmpdir(), 'local-up-lb-'));
      const [etcdClient, etcdPeer, b, lb] = await freePorts(4);
      [base, lbPort] = [b!, lb!];
      if (!(await bothFree(base, base + 1)) && attempt < 20) { rmSync(dir, { recursive: true, force: true }); continue; }
      stdout = '';
      stderr = '';
      script = spawnTracked('bash', ['hack/local-up-cluster.sh'], {
        cwd: repoRoot(),
        env: { ...process.env, SKIP_BUILD: '1', REPLICAS: '2', BASE_PORT: String(base), LB_PORT: String(lbPort),
          ETCD_CLIENT_PORT: String(etcdClient), ETCD_PEER_PORT: String(etcdPeer), LOCAL_UP_DIR: dir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      script.child.stdout!.on('data', (c: Buffer) => { stdout += c.toString(); });
      script.child.stderr!.on('data', (c: Buffer) => { stderr += c.toString(); });
      const deadline = Date.now() + 120_000;
      const lostPortRace = () => ['replica-0.log', 'replica-1.log'].some((f) => {
        try { return readFileSync(join(dir, 'logs', f), 'utf8').includes('EADDRINUSE'); } catch { return false; }
      });
      while (!stdout.includes('replica(s) ready') && !lostPortRace()) {
        if (Date.now() > deadline || script.child.exitCode !== null) throw new Error(`local-up did not start:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      if (stdout.includes('replica(s) ready')) break;
      await script.stop();
      rmSync(dir, { recursive: true, force: true });
      if (attempt >= 3) throw new Error(`local-up lost the race for its ports three times:\n${stderr}`);
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
    assert.deepEqual(spread, [base, base + 1, base, base + 1], 'one connection per request, round robin');

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
    assert.ok(after.every((p) => p === base + 1), `connections after the kill went to ${after.join(',')}`);
    assert.equal(script.child.exitCode, null, 'the cluster stays up with one replica');
    assert.match(stderr, new RegExp(`replica pid ${replicaPid(0)} exited .*skips it`));
  });
});
