// A test API for JavaScript operators (what envtest is for Go):
//
//   import { startTestServer } from 'kube-apiserver-ts/testing';
//   const server = await startTestServer({ crds: ['config/crd/bases'] });
//   // server.kubeconfig (YAML text), server.kubeconfigPath (a file), server.url
//   await server.stop();
//
// Each server is its own kube-apiserver process with RBAC and a system:masters admin
// kubeconfig, under its own --etcd-prefix of one etcd shared by the whole test process,
// so servers started in parallel never see each other's objects. stop() ends the process
// and deletes the server's keys and files.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Etcd3 } from 'etcd3';
import { shippedNodeFlagsUnder } from '../../cmd/node-flags.js';
import { adminClient } from './client.js';
import { installCRDs, loadCRDs, type CRDSource } from './crds.js';
import { sharedEtcd } from './etcd.js';

export type { CRDSource };

export interface TestServerOptions {
  /** CustomResourceDefinitions to install before returning: files, directories of YAML/JSON, or objects. */
  crds?: CRDSource[];
  /** etcd client URL; default $TEST_ETCD_ENDPOINT, else one etcd started for this process. */
  etcd?: string;
  /** More kube-apiserver flags (they win over the defaults). */
  args?: string[];
  /** Default 60 s (start and CRDs each). */
  timeoutMs?: number;
}

export interface TestServer {
  /** A kubeconfig (YAML) for a system:masters user. */
  kubeconfig: string;
  /** The same kubeconfig in a file, for kubectl and KUBECONFIG. */
  kubeconfigPath: string;
  /** https://127.0.0.1:<port> */
  url: string;
  /** The etcd prefix this server keeps its objects under. */
  etcdPrefix: string;
  /** Ends the server, deletes its etcd keys and its files. Idempotent. */
  stop(): Promise<void>;
}

// The package's executable: it starts from the single-file build (cmd/launch.ts).
const command = fileURLToPath(new URL('../../../bin/kube-apiserver.js', import.meta.url));
let started = 0;
/** Servers not yet stopped: killed if the test process exits first (one listener for all of them). */
const running = new Set<ChildProcess>();
process.once('exit', () => { for (const child of running) child.kill('SIGKILL'); });

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const crds = loadCRDs(opts.crds ?? []);
  const etcd = opts.etcd ?? await sharedEtcd();
  const dir = mkdtempSync(join(tmpdir(), 'kube-apiserver-ts-'));
  const etcdPrefix = `/kube-apiserver-ts-test/${process.pid}-${++started}-${randomBytes(4).toString('hex')}`;
  const kubeconfigPath = join(dir, 'admin.kubeconfig');
  // Under the node flags the executable ships with (bin/node-flags).
  const child = spawn(process.execPath, [...shippedNodeFlagsUnder(process.env), command,
    `--etcd-servers=${etcd}`, `--etcd-prefix=${etcdPrefix}`, '--bind-address=127.0.0.1', '--secure-port=0',
    `--cert-dir=${dir}`, `--write-admin-kubeconfig=${kubeconfigPath}`, '--authorization-mode=RBAC',
    ...(opts.args ?? []),
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (d: string) => { stderr = (stderr + d).slice(-4000); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // The server must not outlive the test process.
  running.add(child);

  let stopping: Promise<void> | undefined;
  const stop = () => stopping ??= (async () => {
    running.delete(child);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
    const client = new Etcd3({ hosts: etcd });
    try {
      await client.delete().prefix(`${etcdPrefix}/`);
    } finally {
      client.close();
    }
    rmSync(dir, { recursive: true, force: true });
  })();

  try {
    const kubeconfig = await ready(child, kubeconfigPath, timeoutMs, () => stderr);
    const client = adminClient(kubeconfig);
    await installCRDs(client, crds, timeoutMs);
    return { kubeconfig, kubeconfigPath, url: client.server, etcdPrefix, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Waits for the admin kubeconfig (written once the port is known), then for /readyz. */
async function ready(child: ChildProcess, kubeconfigPath: string, timeoutMs: number, stderr: () => string): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const fail = (why: string) => new Error(`kube-apiserver ${why}\n${stderr()}`);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw fail(`exited (${child.exitCode ?? child.signalCode}) before it was ready`);
    if (Date.now() > deadline) throw fail(`not ready after ${timeoutMs}ms`);
    if (existsSync(kubeconfigPath)) {
      const kubeconfig = readFileSync(kubeconfigPath, 'utf8');
      const r = await adminClient(kubeconfig).call('GET', '/readyz').catch(() => undefined);
      if (r?.status === 200) return kubeconfig;
    }
    await new Promise((res) => setTimeout(res, 25));
  }
}
