// What every benchmark shares: flags, a clock, and the setting it measures in: its own
// etcd (data in /dev/shm when there is one), two replicas on 127.0.0.1 and a raw etcd3
// client beside them, all torn down at the end.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Etcd3 } from 'etcd3';
import type { KubeObject } from '../../pkg/runtime/object.js';
import { encodeForStorage } from '../../pkg/storage/etcd/codec.js';
import { startEmbeddedEtcd } from '../../pkg/storage/etcd/embedded.js';
import { makeScratchDir } from '../../pkg/storage/etcd/watcher/testing/scratch-dir.js';
import { issueCertificate } from '../../pkg/util/cert/index.js';
import { startReplicas, type Cluster, type ReplicaOptions, type TlsCredentials, type TokenUser } from '../../test/harness/index.js';

/** `--name=value` from the command line, as a number. */
export function arg(name: string, def: number): number {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`));
  return a ? Number(a.split('=')[1]) : def;
}

export const now = (): number => Number(process.hrtime.bigint()) / 1e6;

/** `--name` given on the command line. */
export const flag = (name: string): boolean => process.argv.includes(`--${name}`);

export interface BenchSetting {
  cluster: Cluster; raw: Etcd3; prefix: string; etcdEndpoint: string; etcdPid: number; dataDir: string;
  /** Replica i's etcd prefix: `prefix` for all but with clusterEach. */
  prefixes: string[];
}

export interface BenchClusterOptions {
  /** Replicas to start; default 2. */
  replicas?: number;
  /** Node flags for the replicas, e.g. ['--cpu-prof'] (BENCH_NODE_ARGS adds to them). */
  nodeArgs?: string[];
  /** Token users besides the admin certificate (--token-auth-file). */
  tokens?: TokenUser[];
  /** --authorization-mode (the harness's default: AlwaysAllow). */
  authorizationMode?: string;
  /** Server flags after the benchmark defaults, for every replica or per replica index. */
  extraArgs?: string[] | ((index: number) => string[]);
  /** Runs a replica's command through a wrapper (ReplicaOptions.wrap). */
  wrap?: ReplicaOptions['wrap'];
  /**
   * Each replica a cluster of its own (replica i > 0 under `<prefix>-r<i>`), so each is
   * the leader of its own controllers: replicas compared with each other then do the
   * same work (in one cluster only the leader's informers take every write's event).
   */
  clusterEach?: boolean;
}

export async function withBenchCluster(label: string, run: (s: BenchSetting) => Promise<void>, opts: BenchClusterOptions = {}): Promise<void> {
  const dataDir = makeScratchDir(`bench-${label}-etcd-`);
  const etcd = await startEmbeddedEtcd({ dataDir });
  const prefix = `/bench-${label}-${Date.now().toString(36)}`;
  const prefixes = Array.from({ length: opts.replicas ?? 2 }, (_x, i) => (opts.clusterEach && i > 0 ? `${prefix}-r${i}` : prefix));
  const nodeArgs = [...(opts.nodeArgs ?? []), ...(process.env['BENCH_NODE_ARGS'] ?? '').split(' ').filter(Boolean)];
  // BENCH_SERVER_ARGS: replica flags to add (later flags win), e.g. to compare a figure with and without a filter.
  // The raw etcd side ranges over exactly the seeded keys, so no controller may add objects
  // (the root CA publisher would put kube-root-ca.crt in the namespace).
  const cluster = await startReplicas(opts.replicas ?? 2, {
    etcdEndpoint: etcd.endpoint, etcdPrefix: prefix, nodeArgs, tokens: opts.tokens, authorizationMode: opts.authorizationMode, wrap: opts.wrap,
    extraArgs: (i) => ['--controllers=*,-root-ca-cert-publisher', ...(prefixes[i] !== prefix ? [`--etcd-prefix=${prefixes[i]}`] : []), ...(typeof opts.extraArgs === 'function' ? opts.extraArgs(i) : (opts.extraArgs ?? [])),
      ...(process.env['BENCH_SERVER_ARGS'] ?? '').split(' ').filter(Boolean)],
  });
  // gRPC's default 4 MiB receive limit would refuse a 10,000-object range in one message.
  const raw = new Etcd3({ hosts: etcd.endpoint, grpcOptions: { 'grpc.max_receive_message_length': 256 * 1024 * 1024 } });
  try {
    await run({ cluster, raw, prefix, prefixes, etcdEndpoint: etcd.endpoint, etcdPid: etcd.pid, dataDir });
  } finally {
    raw.close();
    await cluster.stop();
    await etcd.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Runs a benchmark's main and exits with its outcome. */
export function runMain(main: () => Promise<void>): void {
  main().then(() => process.exit(0), (err: Error) => {
    console.error(err);
    process.exit(1);
  });
}

export interface Stats { p50: number; p90: number; p99: number; mean: number; n: number }
export function stats(xs: number[]): Stats {
  const s = Float64Array.from(xs).sort();
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN;
  let sum = 0;
  for (const x of s) sum += x;
  return { p50: q(0.5), p90: q(0.9), p99: q(0.99), mean: sum / s.length, n: s.length };
}

const clockTicks = (() => {
  try { return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100; } catch { return 100; }
})();

export interface ProcStats { cpuSeconds: number; rssBytes: number }
/** A process's CPU time so far (user + system) and resident set, from /proc. */
export function procStats(pid: number): ProcStats {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuSeconds = (Number(f[11]) + Number(f[12])) / clockTicks;
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpuSeconds, rssBytes: rss ? Number(rss[1]) * 1024 : 0 };
}

/** CPU seconds used between `start()` and `stop()`, and the largest RSS sampled meanwhile. */
export function procMeter(pid: number): { stop(): { cpuSeconds: number; maxRssBytes: number } } {
  const first = procStats(pid);
  let maxRss = first.rssBytes;
  const timer = setInterval(() => { try { maxRss = Math.max(maxRss, procStats(pid).rssBytes); } catch { /* gone */ } }, 250);
  return {
    stop() {
      clearInterval(timer);
      const last = procStats(pid);
      return { cpuSeconds: last.cpuSeconds - first.cpuSeconds, maxRssBytes: Math.max(maxRss, last.rssBytes) };
    },
  };
}

export interface HttpResult { status: number; text: string }
/** A keep-alive HTTPS client with a client certificate, so figures measure the server, not TLS handshakes. */
export function httpsClient(base: string, creds: TlsCredentials, maxSockets = 4) {
  const agent = new Agent({ keepAlive: true, ca: creds.ca, cert: creds.cert, key: creds.key, maxSockets });
  const call = (method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<HttpResult> => new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const u = new URL(path, base);
    const req = httpsRequest({
      method, hostname: u.hostname, port: u.port, path: u.pathname + u.search, agent,
      headers: { Accept: 'application/json', ...(creds.token ? { Authorization: `Bearer ${creds.token}` } : {}), ...(payload ? { 'Content-Type': contentType, 'Content-Length': String(payload.length) } : {}) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
  return { call, close: () => agent.destroy() };
}

/** One figure of a scenario: ours beside raw etcd3's doing the equivalent in the same run. */
export interface Row { measure: string; unit: string; ours: number; etcd?: number }

const fmt = (n: number | undefined): string => (n === undefined || Number.isNaN(n) ? '-' : Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(2));

/**
 * Prints one table (ratio = ours / etcd3: above 1 is more time, more CPU or more
 * throughput than raw etcd) and records it in _output/bench/latest.json under `scenario`.
 */
export function report(scenario: string, title: string, rows: Row[], extra: Record<string, unknown> = {}): void {
  console.log(`\n== ${title}`);
  console.log(`${'measure'.padEnd(44)} ${'unit'.padEnd(8)} ${'ours'.padStart(10)} ${'etcd3'.padStart(10)} ${'ratio'.padStart(9)}`);
  for (const r of rows) {
    const ratio = r.etcd && r.etcd > 0 && r.ours >= 0 ? r.ours / r.etcd : undefined;
    console.log(`${r.measure.padEnd(44)} ${r.unit.padEnd(8)} ${fmt(r.ours).padStart(10)} ${fmt(r.etcd).padStart(10)} ${(ratio === undefined ? '-' : `${fmt(ratio)}x`).padStart(9)}`);
  }
  const file = join('_output', 'bench', 'latest.json');
  mkdirSync(join('_output', 'bench'), { recursive: true });
  let all: Record<string, unknown> = {};
  try { all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>; } catch { /* first */ }
  all[scenario] = {
    title, at: new Date().toISOString(), ...extra,
    rows: rows.map((r) => ({ ...r, ratio: r.etcd && r.etcd > 0 && r.ours >= 0 ? r.ours / r.etcd : null })),
  };
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
}

/** A ConfigMap of about `bytes` bytes of data, as the benchmarks create it. */
export function configMap(name: string, namespace: string, bytes = 1024, data: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { ...data, payload: 'x'.repeat(Math.max(0, bytes - 64)) } };
}

/**
 * Puts `count` ConfigMaps straight into etcd in the server's key layout and its default
 * storage encoding (protobuf), in transactions of 128 puts, a few at once: creating them
 * through the API would measure writes, not what the scenario is about. Returns the etcd
 * revision after the last put.
 */
export async function seedConfigMaps(raw: Etcd3, prefix: string, namespace: string, count: number, bytes = 1024, from = 0): Promise<number> {
  const keyRoot = `${prefix}/configmaps/${namespace}/`;
  let revision = 0;
  const batches: number[] = [];
  for (let i = from; i < from + count; i += 128) batches.push(i);
  const worker = async (): Promise<void> => {
    for (let i = batches.shift(); i !== undefined; i = batches.shift()) {
      const ops = [];
      for (let j = i; j < Math.min(from + count, i + 128); j++) {
        const name = `cm-${String(j).padStart(6, '0')}`;
        const obj = configMap(name, namespace, bytes);
        obj.metadata = { ...obj.metadata, uid: `00000000-0000-4000-8000-${String(j).padStart(12, '0')}`, creationTimestamp: '2024-01-01T00:00:00Z', labels: { app: 'bench', shard: String(j % 16) } };
        ops.push({ request_put: { key: Buffer.from(`${keyRoot}${name}`), value: encodeForStorage(obj, 'application/vnd.kubernetes.protobuf') } });
      }
      const res = await raw.kv.txn({ compare: [], success: ops, failure: [] });
      revision = Math.max(revision, Number(res.header.revision));
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return revision;
}

/**
 * A server of ours as its own process (the balancer, the floor server), from a script
 * beside this one; resolves the port it prints in its "listening on <port>" line.
 */
export async function startListeningProcess(script: string, args: string[], nodeArgs: string[] = []): Promise<{ port: number; pid: number; stop(): void }> {
  const entry = fileURLToPath(new URL(script, import.meta.url));
  const child = spawn(process.execPath, [...nodeArgs, entry, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}): ${out}`)));
  });
  child.stdout!.resume();
  return { port, pid: child.pid!, stop: () => child.kill() };
}

/**
 * A shell wrapper (ReplicaOptions.wrap: ['/bin/sh', '-c', swapEntry, ENTRY]) that runs a
 * replica's command with ENTRY as its server entry (exec: same pid), for a bench's
 * `--against=ENTRY`. Words before the entry are node flags for that replica alone (split
 * on spaces), so one build can be measured against itself with other V8 settings.
 */
const swapEntry = 'alt=$0; for a do shift; case "$a" in */cmd/apiserver.js) set -- "$@" $alt;; *) set -- "$@" "$a";; esac; done; exec "$@"';

/**
 * The cluster options of a bench's `--against=ENTRY`: a second replica running ENTRY, each
 * build a cluster of its own (clusterEach), so that both lead their controllers and do the
 * same work per write; one replica when there is no ENTRY.
 */
export function againstBuild(entry: string | undefined): Pick<BenchClusterOptions, 'replicas' | 'clusterEach' | 'wrap'> {
  return {
    replicas: entry ? 2 : 1,
    clusterEach: Boolean(entry),
    wrap: async (i) => (entry && i === 1 ? { prefix: ['/bin/sh', '-c', swapEntry, entry] } : {}),
  };
}

/** Client certificates of system:node:node-0 .. node-(count-1), signed by the cluster's client CA. */
export async function nodeIdentities(cluster: Cluster, count: number): Promise<Array<{ ca?: string; cert: string; key: string }>> {
  const signer = { cert: readFileSync(cluster.pki.ca.certFile, 'utf8'), key: readFileSync(cluster.pki.ca.keyFile, 'utf8') };
  const ca = cluster.credentialsFor().ca;
  const ids = [];
  for (let i = 0; i < count; i++) {
    const pair = await issueCertificate(signer, { cn: `system:node:node-${i}`, organizations: ['system:nodes'], usage: 'client', days: 1 });
    ids.push({ ca, cert: pair.cert, key: pair.key });
  }
  return ids;
}
