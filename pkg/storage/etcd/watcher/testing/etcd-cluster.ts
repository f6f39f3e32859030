// etcd members for failure tests: fixed ports so a member can be killed and started
// again at the same address, one or three members, and a short progress-notify
// interval. Tests only; every member is a child of this process and dies with it.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Etcd3 } from 'etcd3';
import { createEtcdClient } from '../../client.js';
import { etcdTLSArgs, findEtcdBinary, startWatchdog, type EmbeddedEtcdTLS } from '../../embedded.js';
import type { EtcdTLSFiles } from '../../tls/files.js';
import { makeScratchDir } from './scratch-dir.js';

export interface Member {
  name: string;
  clientUrl: string;
  peerUrl: string;
  dataDir: string;
  child?: ChildProcess;
}

export interface TestCluster {
  members: Member[];
  /** Client URLs of every member. */
  endpoints: string[];
  /** SIGKILLs one member (no clean shutdown), resolving once it has exited. */
  kill(i: number): Promise<void>;
  /** Starts a killed member again with its data, at the same address. */
  start(i: number): Promise<void>;
  /** Index of the current leader among running members. */
  leader(): Promise<number>;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
// A cluster a mocha worker started for the whole run (the shared mutual-TLS etcd) is never
// stopped: the global teardown runs in mocha's main process, not in the worker. Its dirs
// are in memory, so they go at exit with the members (unlinked files of a dying etcd are
// freed when it has gone).
const liveRoots = new Set<string>();
process.once('exit', () => {
  for (const c of live) c.kill('SIGKILL');
  for (const root of liveRoots) rmSync(root, { recursive: true, force: true });
});

export interface TestClusterOptions {
  progressNotifyInterval?: string;
  /**
   * Command prefix per member that execs etcd in place (the chaos suite runs one member
   * under `ip netns exec <ns>`); asked at every start.
   */
  prefix?: (i: number) => string[];
  /** Called with the chosen ports before any member starts (to set up what the prefix needs). */
  beforeStart?: (members: Member[]) => Promise<void>;
  /** Client and peer URLs over TLS, with etcd's TLS flags (test/harness/etcd-tls.ts makes them). */
  tls?: EmbeddedEtcdTLS;
  /**
   * Raft timing; default 50 / 500 ms, so that a killed leader is replaced quickly. A
   * cluster no test kills can take etcd's own defaults or longer, so that a loaded
   * machine's scheduling delays do not start elections.
   */
  heartbeatMs?: number;
  electionMs?: number;
}

/** A client of some members; with TLS, presenting the probe's files. */
export function memberClient(endpoints: string[], tls: EtcdTLSFiles = {}, deadlineMs = 1000): Etcd3 {
  const quiet = { warn: () => undefined, info: () => undefined };
  return createEtcdClient({ endpoints, tls, options: { defaultCallOptions: () => ({ deadline: Date.now() + deadlineMs }) } }, quiet).client;
}

export async function startTestCluster(size: 1 | 3, opts: TestClusterOptions = {}): Promise<TestCluster> {
  const binary = findEtcdBinary();
  const root = makeScratchDir('etcd-cluster-');
  liveRoots.add(root);
  const ports = await freePorts(size * 2);
  const scheme = opts.tls ? 'https' : 'http';
  const probe = opts.tls?.probe ?? {};
  const members: Member[] = Array.from({ length: size }, (_, i) => ({
    name: `m${i}`,
    clientUrl: `${scheme}://127.0.0.1:${ports[2 * i]}`,
    peerUrl: `${scheme}://127.0.0.1:${ports[2 * i + 1]}`,
    dataDir: join(root, `m${i}`),
  }));
  const initialCluster = members.map((m) => `${m.name}=${m.peerUrl}`).join(',');
  const launch = (m: Member, i: number) => {
    const args = [
      `--name=${m.name}`, `--data-dir=${m.dataDir}`,
      `--listen-client-urls=${m.clientUrl}`, `--advertise-client-urls=${m.clientUrl}`,
      `--listen-peer-urls=${m.peerUrl}`, `--initial-advertise-peer-urls=${m.peerUrl}`,
      `--initial-cluster=${initialCluster}`, '--initial-cluster-state=new',
      '--initial-cluster-token=watch-test', '--log-level=error', '--logger=zap',
      `--experimental-watch-progress-notify-interval=${opts.progressNotifyInterval ?? '1s'}`,
      `--heartbeat-interval=${opts.heartbeatMs ?? 50}`, `--election-timeout=${opts.electionMs ?? 500}`,
      ...(opts.tls ? etcdTLSArgs(opts.tls) : []),
    ];
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ETCD_')));
    const [command, ...rest] = [...(opts.prefix?.(i) ?? []), binary, ...args];
    const child = spawn(command!, rest, { stdio: ['ignore', 'ignore', 'ignore'], env });
    live.add(child);
    // Also when this process is SIGKILLed (the exit hook then never runs).
    const watchdog = child.pid === undefined ? undefined : startWatchdog(child.pid);
    child.once('exit', () => {
      live.delete(child);
      if (watchdog?.pid !== undefined) try { process.kill(watchdog.pid, 'SIGKILL'); } catch { /* gone */ }
    });
    m.child = child;
  };
  await opts.beforeStart?.(members);
  members.forEach(launch);
  const cluster: TestCluster = {
    members,
    endpoints: members.map((m) => m.clientUrl),
    async kill(i) {
      const c = members[i].child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await exited;
    },
    async start(i) {
      launch(members[i], i);
      await waitHealthy([members[i].clientUrl], probe);
    },
    async leader() {
      for (let attempt = 0; attempt < 100; attempt++) {
        for (let i = 0; i < members.length; i++) {
          const c = members[i].child;
          if (!c || c.exitCode !== null || c.signalCode !== null) continue;
          const client = memberClient([members[i].clientUrl], probe);
          try {
            const st = await client.maintenance.status();
            if (st.leader === st.header.member_id) return i;
          } catch { /* not answering */ } finally { client.close(); }
        }
        await sleep(100);
      }
      throw new Error('no leader');
    },
    async stop() {
      await Promise.all(members.map((_, i) => cluster.kill(i)));
      rmSync(root, { recursive: true, force: true });
      liveRoots.delete(root);
    },
  };
  try {
    await waitHealthy(cluster.endpoints, probe);
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

async function waitHealthy(endpoints: string[], tls: EtcdTLSFiles): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (const ep of endpoints) {
    for (;;) {
      const client = memberClient([ep], tls);
      try {
        await client.get('/health-probe').string();
        break;
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`etcd ${ep} not healthy: ${(err as Error).message}`);
      } finally {
        client.close();
      }
      await sleep(100);
    }
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(Array.from({ length: n }, () => new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => resolve(s));
  })));
  const ports = servers.map((s) => (s.address() as AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}
