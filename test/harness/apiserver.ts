// Real server processes for e2e tests: N replicas of dist/cmd/apiserver.js sharing one
// etcd and one key prefix, with a PKI from test/harness/pki.ts, each on its own free
// port, each logging to a file under the cluster's temp dir.
import { openSync, closeSync, mkdtempSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Etcd3 } from 'etcd3';
import { shippedNodeFlagsUnder } from '../../cmd/node-flags.js';
import { testEtcdEndpoint } from './etcd.js';
import { sharedTLSEtcd, sharedTLSEtcdArgs, sharedTLSEtcdClient } from './shared-tls-etcd.js';
import { registerLog, tailOf, unregisterLog } from './failure-logs.js';
import { request, type TlsCredentials } from './http.js';
import { writeKubeconfig, type KubeconfigUser } from './kubeconfig.js';
import { createTestPki, type ClientUser, type TestPki, type TokenUser } from './pki.js';
import { freePort } from './ports.js';
import { uniquePrefix } from './prefix.js';
import { spawnTracked, type Tracked } from './processes.js';

export interface ReplicaOptions {
  /** Default: the shared test etcd. */
  etcdEndpoint?: string;
  /**
   * 'mutual-tls': the run's shared three-member etcd that requires client certificates
   * (shared-tls-etcd.ts), with kubeadm's --etcd-cafile/--etcd-certfile/--etcd-keyfile.
   * Default: the plaintext etcdEndpoint.
   */
  etcd?: 'mutual-tls';
  /** Default: a fresh uniquePrefix('cluster'); all replicas of one cluster share it. */
  etcdPrefix?: string;
  /** --authorization-mode; default AlwaysAllow. */
  authorizationMode?: string;
  /** --anonymous-auth; default: not passed (the server's default). */
  anonymousAuth?: boolean;
  /** Client-certificate users besides "admin" (CN=admin, O=system:masters). */
  clientUsers?: ClientUser[];
  /** Static token users, written to a --token-auth-file. */
  tokens?: TokenUser[];
  /** More flags for every replica, or per replica index (and the cluster's PKI). Later flags win over ours. */
  extraArgs?: string[] | ((index: number, pki: TestPki) => string[]);
  env?: Record<string, string>;
  /** Options for node itself, before the server's entry point (e.g. `--cpu-prof`), after the shipped ones (bin/node-flags). */
  nodeArgs?: string[];
  /** Per replica; default 60 s. */
  readyTimeoutMs?: number;
  /**
   * Asked before every start of a replica (restarts too), once its port is chosen: a
   * command prefix that must exec the server in place (e.g. `ip netns exec <ns>`, so the
   * pid stays the server's) and extra environment (e.g. LD_PRELOAD). The chaos suite uses
   * it for network namespaces and clock skew.
   */
  wrap?: (index: number, port: number) => Promise<{ prefix?: string[]; env?: Record<string, string> }>;
}

export interface Replica {
  index: number;
  url: string;
  port: number;
  logFile: string;
  /** PID of the running process; undefined while stopped. */
  pid: number | undefined;
}

export interface Cluster {
  /** https://127.0.0.1:<port> per replica. */
  urls: string[];
  replicas: Replica[];
  /** Temp dir holding pki/, kubeconfigs/ and logs/. */
  dir: string;
  pki: TestPki;
  etcdEndpoint: string;
  etcdPrefix: string;
  /** A raw client of the replicas' etcd, with their TLS files if any; close it yourself. */
  etcdClient(): Etcd3;
  /**
   * Path of a kubeconfig for replica `index` as `user`: "admin" (default), a name from
   * clientUsers or tokens, or "anonymous" (no credentials). Written on first request.
   */
  kubeconfigFor(index: number, user?: string): string;
  /** TLS material for http.request(): the CA plus the user's cert/key or token. */
  credentialsFor(user?: string): TlsCredentials;
  /** Stops one replica (SIGTERM, then SIGKILL after 10 s). */
  stopReplica(index: number): Promise<void>;
  /** Starts a stopped replica again on the same port and waits for /readyz. */
  startReplica(index: number): Promise<void>;
  /** Stops every replica and removes the temp dir (kept when KEEP_TEST_DIRS is set). */
  stop(): Promise<void>;
}

const serverEntry = fileURLToPath(new URL('../../cmd/apiserver.js', import.meta.url));

/**
 * node's arguments (after process.execPath) that start the server as it ships: the
 * shipped node flags but those NODE_OPTIONS in `env` names, then `nodeArgs` (which win),
 * the entry and the server's own arguments. Every start in the tests goes through here.
 */
export function serverNodeArgs(serverArgs: string[], opts: { env?: NodeJS.ProcessEnv; nodeArgs?: string[] } = {}): string[] {
  return [...shippedNodeFlagsUnder(opts.env ?? process.env), ...(opts.nodeArgs ?? []), serverEntry, ...serverArgs];
}
const startAttempts = 3;

export async function startReplicas(n: number, opts: ReplicaOptions = {}): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'test-cluster-'));
  try {
    return await startCluster(dir, n, opts);
  } catch (err) {
    if (!process.env['KEEP_TEST_DIRS']) await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

async function startCluster(dir: string, n: number, opts: ReplicaOptions): Promise<Cluster> {
  const pki = await createTestPki(join(dir, 'pki'), { clientUsers: opts.clientUsers, tokens: opts.tokens });
  await mkdir(join(dir, 'logs'));
  await mkdir(join(dir, 'kubeconfigs'));
  const tlsEtcd = opts.etcd === 'mutual-tls' ? await sharedTLSEtcd() : undefined;
  const etcdEndpoint = tlsEtcd?.endpoints.join(',') ?? opts.etcdEndpoint ?? (await testEtcdEndpoint());
  const etcdPrefix = opts.etcdPrefix ?? uniquePrefix('cluster');
  const procs: Array<Tracked | undefined> = new Array(n).fill(undefined);
  const replicas: Replica[] = Array.from({ length: n }, (_, index) => ({
    index, url: '', port: 0, logFile: join(dir, 'logs', `replica-${index}.log`), pid: undefined,
  }));
  const label = (i: number): string => `replica ${i} of ${dir}`;

  const argsFor = (r: Replica): string[] => [
    ...(tlsEtcd ? sharedTLSEtcdArgs(tlsEtcd) : [`--etcd-servers=${etcdEndpoint}`]),
    `--etcd-prefix=${etcdPrefix}`,
    `--secure-port=${r.port}`,
    '--bind-address=127.0.0.1',
    `--tls-cert-file=${pki.serving.certFile}`,
    `--tls-private-key-file=${pki.serving.keyFile}`,
    `--client-ca-file=${pki.ca.certFile}`,
    `--authorization-mode=${opts.authorizationMode ?? 'AlwaysAllow'}`,
    ...(opts.anonymousAuth === undefined ? [] : [`--anonymous-auth=${opts.anonymousAuth}`]),
    ...(pki.tokenFile ? [`--token-auth-file=${pki.tokenFile}`] : []),
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${pki.serviceAccountPublicKeyFile}`,
    `--service-account-signing-key-file=${pki.serviceAccountKeyFile}`,
    '--service-cluster-ip-range=10.0.0.0/24',
    // JSON records with every request line: what the failure dumps and log checks read.
    '--logging-format=json',
    '--v=3',
    ...(typeof opts.extraArgs === 'function' ? opts.extraArgs(r.index, pki) : (opts.extraArgs ?? [])),
  ];

  const admin = credentials(pki, 'admin');
  const launch = async (r: Replica, keepPort: boolean): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      if (!keepPort || r.port === 0) r.port = await freePort();
      r.url = `https://127.0.0.1:${r.port}`;
      const wrapped = (await opts.wrap?.(r.index, r.port)) ?? {};
      // Under the node flags the executable ships with, so that tests and benchmarks see
      // the server as shipped; nodeArgs come after them and win.
      const env = { ...process.env, ...(opts.env ?? {}), ...(wrapped.env ?? {}) };
      const [command, ...args] = [...(wrapped.prefix ?? []), process.execPath, ...serverNodeArgs(argsFor(r), { env, nodeArgs: opts.nodeArgs })];
      const fd = openSync(r.logFile, 'a');
      let p: Tracked;
      try {
        p = spawnTracked(command!, args, {
          stdio: ['ignore', fd, fd],
          env,
        });
      } finally {
        closeSync(fd);
      }
      procs[r.index] = p;
      r.pid = p.pid;
      registerLog(label(r.index), r.logFile);
      try {
        await waitReady(r, p, admin, opts.readyTimeoutMs ?? 60_000);
        return;
      } catch (err) {
        await p.stop(2000);
        procs[r.index] = undefined;
        r.pid = undefined;
        unregisterLog(label(r.index));
        // A port taken between probing and binding: retry elsewhere.
        const portRace = /EADDRINUSE/.test(tailOf(r.logFile, 20));
        if (!portRace || keepPort || attempt >= startAttempts) throw err;
      }
    }
  };

  const stopReplica = async (i: number): Promise<void> => {
    const p = procs[i];
    if (!p) return;
    await p.stop();
    procs[i] = undefined;
    replicas[i]!.pid = undefined;
    unregisterLog(label(i));
  };

  const stopAll = async (): Promise<void> => {
    await Promise.all(replicas.map((r) => stopReplica(r.index)));
  };

  try {
    await Promise.all(replicas.map((r) => launch(r, false)));
  } catch (err) {
    await stopAll();
    throw err;
  }

  const kubeconfigs = new Map<string, string>();
  return {
    urls: replicas.map((r) => r.url),
    replicas,
    dir,
    pki,
    etcdEndpoint,
    etcdPrefix,
    etcdClient: () => (tlsEtcd ? sharedTLSEtcdClient(tlsEtcd) : new Etcd3({ hosts: etcdEndpoint.split(',') })),
    credentialsFor: (user = 'admin') => credentials(pki, user),
    kubeconfigFor(index, user = 'admin') {
      const r = replicas[index];
      if (!r) throw new Error(`no replica ${index}: the cluster has ${replicas.length}`);
      const key = `${index}/${user}`;
      const existing = kubeconfigs.get(key);
      if (existing) return existing;
      const path = join(dir, 'kubeconfigs', `replica-${index}-${user.replace(/[^A-Za-z0-9._-]+/g, '_')}.kubeconfig`);
      writeKubeconfig(path, { server: r.url, ca: pki.ca.cert, user: kubeconfigUser(pki, user), clusterName: `replica-${index}` });
      kubeconfigs.set(key, path);
      return path;
    },
    stopReplica,
    async startReplica(i) {
      const r = replicas[i];
      if (!r) throw new Error(`no replica ${i}`);
      if (procs[i]) return;
      await launch(r, true);
    },
    async stop() {
      await stopAll();
      if (!process.env['KEEP_TEST_DIRS']) await rm(dir, { recursive: true, force: true });
    },
  };
}

async function waitReady(r: Replica, p: Tracked, admin: TlsCredentials, timeoutMs: number): Promise<void> {
  let exitCode: number | null | undefined;
  void p.exited.then((c) => { exitCode = c; });
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (exitCode !== undefined) {
      throw new Error(`replica ${r.index} exited (code ${exitCode}) before it was ready; log ${r.logFile}:\n${tailOf(r.logFile, 40)}`);
    }
    try {
      const res = await request(`${r.url}/readyz`, { ...admin, timeoutMs: 2000 });
      if (res.status === 200) return;
      last = `HTTP ${res.status}: ${res.text.slice(0, 500)}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`replica ${r.index} at ${r.url} not ready after ${timeoutMs} ms (${last}); log ${r.logFile}:\n${tailOf(r.logFile, 40)}`);
}

function credentials(pki: TestPki, user: string): TlsCredentials {
  const u = kubeconfigUser(pki, user);
  return {
    ca: pki.ca.cert,
    ...('cert' in u ? { cert: u.cert, key: u.key } : {}),
    ...('token' in u ? { token: u.token } : {}),
  };
}

function kubeconfigUser(pki: TestPki, user: string): KubeconfigUser {
  const cert = pki.clients.get(user);
  if (cert) return { name: user, cert: cert.cert, key: cert.key };
  const token = pki.tokens.find((t) => t.name === user);
  if (token) return { name: user, token: token.token };
  if (user === 'anonymous') return { name: user };
  throw new Error(`unknown test user "${user}": pass it in clientUsers or tokens`);
}
