// An etcd server run as a child process, for a replica started without --etcd-servers
// and for tests. It listens on 127.0.0.1 only, on ports picked at start, and is ready
// only once a real put/get round trip succeeds. The child must never outlive us: an
// 'exit' hook covers normal exits and a watchdog process covers being killed.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, createWriteStream, mkdirSync, statSync, type WriteStream } from 'node:fs';
import type { Socket } from 'node:net';
import { delimiter, join } from 'node:path';
import { freePorts } from '../../util/net/ports.js';
import { createEtcdClient } from './client.js';
import type { EtcdTLSFiles } from './tls/files.js';

export interface EmbeddedEtcdOptions {
  dataDir: string;
  /** etcd executable; default: $ETCD_BIN, then etcd on PATH, then /usr/bin/etcd. */
  binary?: string;
  host?: '127.0.0.1';
  /** Also append etcd's own output to this file. */
  logFile?: string;
  /** How long to wait for the first successful round trip; default 30 s. */
  startTimeoutMs?: number;
  /**
   * When false, the running child does not keep this process's event loop alive (a
   * test run that started etcd lazily can still end; the exit hook then stops etcd).
   * Default true.
   */
  keepProcessAlive?: boolean;
  /** Serve clients and peers over TLS (https:// URLs); tests only. */
  tls?: EmbeddedEtcdTLS;
}

/** etcd's own TLS flags, client and peer side, and what the readiness probe presents. */
export interface EmbeddedEtcdTLS {
  certFile: string;
  keyFile: string;
  trustedCAFile: string;
  /** --client-cert-auth: refuse clients without a certificate from trustedCAFile. */
  clientCertAuth: boolean;
  peerCertFile: string;
  peerKeyFile: string;
  /** The client files the start-up round trip uses (kubeadm's healthcheck-client). */
  probe: EtcdTLSFiles;
}

/** etcd's flags for that TLS setup (peer client certificates always required, as kubeadm does). */
export function etcdTLSArgs(t: EmbeddedEtcdTLS): string[] {
  return [
    `--cert-file=${t.certFile}`, `--key-file=${t.keyFile}`, `--trusted-ca-file=${t.trustedCAFile}`,
    `--client-cert-auth=${t.clientCertAuth}`,
    `--peer-cert-file=${t.peerCertFile}`, `--peer-key-file=${t.peerKeyFile}`,
    `--peer-trusted-ca-file=${t.trustedCAFile}`, '--peer-client-cert-auth=true',
  ];
}

export interface EmbeddedEtcd {
  /** Client URL, e.g. http://127.0.0.1:40123 */
  endpoint: string;
  pid: number;
  /** Terminates the child and resolves once it has exited. Idempotent. */
  stop(): Promise<void>;
}

const tailLimit = 64 * 1024;
const startAttempts = 3;

const installHint = 'run `bash hack/install-etcd.sh`';

/** An explicit choice (argument, then $ETCD_BIN) must work; otherwise PATH, then the usual places. */
export function findEtcdBinary(explicit?: string): string {
  const chosen = explicit || process.env['ETCD_BIN'];
  if (chosen) {
    if (executable(chosen)) return chosen;
    throw new Error(`etcd binary ${chosen} is not an executable file: ${installHint}`);
  }
  const onPath = (process.env['PATH'] ?? '').split(delimiter).filter(Boolean).map((d) => join(d, 'etcd'));
  const found = [...onPath, '/usr/bin/etcd', '/usr/local/bin/etcd'].find(executable);
  if (found) return found;
  throw new Error(`etcd binary not found (looked at ETCD_BIN, PATH and /usr/bin/etcd): ${installHint}`);
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export async function startEmbeddedEtcd(opts: EmbeddedEtcdOptions): Promise<EmbeddedEtcd> {
  const binary = findEtcdBinary(opts.binary);
  const host = opts.host ?? '127.0.0.1';
  // etcd warns about (and newer versions refuse) a data dir others can read.
  mkdirSync(opts.dataDir, { recursive: true, mode: 0o700 });
  const log = opts.logFile ? createWriteStream(opts.logFile, { flags: 'a' }) : undefined;
  let lastError: Error | undefined;
  for (let attempt = 1; attempt <= startAttempts; attempt++) {
    const [clientPort, peerPort] = await freePorts(2, host);
    try {
      return await startOnce(binary, host, clientPort!, peerPort!, opts, log);
    } catch (err) {
      lastError = err as Error;
      // Another process may have taken a port between probing and binding: try new ones.
      if (!/address already in use/i.test(lastError.message)) break;
    }
  }
  log?.end();
  throw lastError ?? new Error('etcd did not start');
}

async function startOnce(
  binary: string, host: string, clientPort: number, peerPort: number,
  opts: EmbeddedEtcdOptions, log: WriteStream | undefined,
): Promise<EmbeddedEtcd> {
  const scheme = opts.tls ? 'https' : 'http';
  const endpoint = `${scheme}://${host}:${clientPort}`;
  const peer = `${scheme}://${host}:${peerPort}`;
  const args = [
    '--name=embedded',
    `--data-dir=${opts.dataDir}`,
    `--listen-client-urls=${endpoint}`,
    `--advertise-client-urls=${endpoint}`,
    `--listen-peer-urls=${peer}`,
    `--initial-advertise-peer-urls=${peer}`,
    `--initial-cluster=embedded=${peer}`,
    '--logger=zap',
    '--log-outputs=stderr',
    '--log-level=error',
    // etcd 3.4 sends watch progress every 10 minutes by default; watch bookmarks ride on
    // these notifications, so they would rarely advance without a shorter interval.
    '--experimental-watch-progress-notify-interval=5s',
    ...(opts.tls ? etcdTLSArgs(opts.tls) : []),
  ];
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], env: envWithoutEtcdVars() });
  const pid = child.pid;
  if (pid === undefined) throw await spawnError(child, binary);
  let tail = '';
  const collect = (chunk: Buffer): void => {
    tail = (tail + chunk.toString('utf8')).slice(-tailLimit);
    log?.write(chunk);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  live.add(child);
  const watchdog = startWatchdog(pid);
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      if (watchdog.pid !== undefined) killQuietly(watchdog.pid, 'SIGKILL');
      await terminate(child, exited);
      live.delete(child);
      log?.end();
    })();
    return stopping;
  };
  try {
    await waitReady(endpoint, opts.tls?.probe ?? {}, exited, opts.startTimeoutMs ?? 30_000, () => tail);
  } catch (err) {
    await stop();
    throw err;
  }
  if (opts.keepProcessAlive === false) {
    child.unref();
    (child.stdout as Socket | null)?.unref();
    (child.stderr as Socket | null)?.unref();
  }
  return { endpoint, pid, stop };
}

async function waitReady(endpoint: string, tls: EtcdTLSFiles, exited: Promise<void>, timeoutMs: number, tail: () => string): Promise<void> {
  let hasExited = false;
  void exited.then(() => { hasExited = true; });
  const deadline = Date.now() + timeoutMs;
  let lastErr = '';
  while (Date.now() < deadline) {
    if (hasExited) throw new Error(`etcd exited during startup:\n${tail()}`);
    try {
      await roundTrip(endpoint, tls);
      return;
    } catch (err) {
      lastErr = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`etcd at ${endpoint} not ready after ${timeoutMs} ms (${lastErr}):\n${tail()}`);
}

/** Put, read back and delete a key: proves etcd serves requests, not just that it listens. */
export async function roundTrip(endpoint: string, tls: EtcdTLSFiles = {}): Promise<void> {
  const quiet = { warn: () => undefined, info: () => undefined };
  const { client } = createEtcdClient({ endpoints: [endpoint], tls, options: { defaultCallOptions: () => ({ deadline: Date.now() + 2000 }) } }, quiet);
  try {
    const key = `/embedded-etcd-probe/${process.pid}`;
    await client.put(key).value('ok');
    const got = await client.get(key).string();
    if (got !== 'ok') throw new Error(`probe read back ${JSON.stringify(got)}`);
    await client.delete().key(key);
  } finally {
    client.close();
  }
}

async function terminate(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

// Children still running when this process exits are terminated by one shared hook.
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of live) c.kill('SIGTERM');
});

/**
 * A detached shell holding the read end of a pipe from us: when we die, even by
 * SIGKILL, the pipe closes, `read` returns and the shell terminates etcd.
 */
export function startWatchdog(pid: number): ChildProcess {
  const w = spawn('sh', ['-c', 'read _ || :; kill -TERM "$1" 2>/dev/null', 'etcd-watchdog', String(pid)], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
  w.on('error', () => { /* best effort: the exit hook still covers normal exits */ });
  w.unref();
  (w.stdin as Socket | null)?.unref();
  return w;
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** etcd reads every ETCD_* variable as a flag; ours (ETCD_BIN) would only confuse it. */
function envWithoutEtcdVars(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ETCD_')));
}

function spawnError(child: ChildProcess, binary: string): Promise<Error> {
  return new Promise((resolve) => {
    child.once('error', (e) => resolve(new Error(`cannot run ${binary}: ${e.message}`)));
  });
}

