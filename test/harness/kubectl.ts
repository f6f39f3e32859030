// Runs the real kubectl: v1.28 (hack/install-kubectl.sh, or $KUBECTL_BIN) by default,
// v1.34 (hack/install-kubectl.sh 34, or $KUBECTL_134_BIN), which sends protobuf, on request.
import { execFileSync, spawn } from 'node:child_process';
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from './repo.js';

export interface KubectlOptions {
  kubeconfig: string;
  stdin?: string;
  /** Killed after this long; default 60 s. */
  timeoutMs?: number;
  env?: Record<string, string>;
  /** Which kubectl: '1.28' (default) or '1.34'. */
  version?: KubectlVersion;
}

export type KubectlVersion = '1.28' | '1.34';
export const kubectlVersions: KubectlVersion[] = ['1.28', '1.34'];

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

const binaries = new Map<KubectlVersion, string>();

export function kubectlBinary(version: KubectlVersion = '1.28'): string {
  const known = binaries.get(version);
  if (known) return known;
  const minor = version.split('.')[1];
  const fromEnv = process.env[version === '1.28' ? 'KUBECTL_BIN' : `KUBECTL_1${minor}_BIN`];
  const installed = join(repoRoot(), '_output', 'bin', version === '1.28' ? 'kubectl' : `kubectl-${version}`);
  const path = fromEnv || (existsSync(installed) ? installed
    : execFileSync('bash', [join(repoRoot(), 'hack', 'install-kubectl.sh'), minor], { encoding: 'utf8' }).trim().split('\n').pop()!);
  binaries.set(version, path);
  return path;
}

/**
 * kubectl <args> --kubeconfig <file>. Discovery is cached beside the kubeconfig, so
 * servers from earlier runs on the same port never answer from a stale cache.
 */
export function kubectl(args: string[], opts: KubectlOptions): Promise<KubectlResult> {
  const argv = [`--kubeconfig=${opts.kubeconfig}`, `--cache-dir=${join(dirname(opts.kubeconfig), '.kube-cache')}`, ...args];
  const child = spawn(kubectlBinary(opts.version), argv, {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, KUBECONFIG: opts.kubeconfig, ...(opts.env ?? {}) },
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (d: Buffer) => out.push(d));
  child.stderr.on('data', (d: Buffer) => err.push(d));
  child.stdin.on('error', () => { /* kubectl may exit before reading stdin */ });
  child.stdin.end(opts.stdin ?? '');
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve, reject) => {
    child.once('error', (e) => { clearTimeout(timer); reject(e); });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString('utf8');
      resolve({
        code: code ?? 128,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: signal ? `${stderr}\n(kubectl killed by ${signal}${signal === 'SIGKILL' ? ` after ${timeoutMs} ms` : ''})` : stderr,
      });
    });
  });
}

/** A long-running kubectl (e.g. `get -w`) whose output is read while it runs. */
export interface KubectlProcess {
  /** Resolves once stdout matches; rejects after timeoutMs or if kubectl exits first. */
  waitFor(re: RegExp, timeoutMs?: number): Promise<void>;
  stdout(): string;
  stderr(): string;
  stop(): void;
}

export function kubectlStream(args: string[], opts: KubectlOptions): KubectlProcess {
  const cacheDir = join(dirname(opts.kubeconfig), `.kube-cache-${opts.version ?? '1.28'}`);
  const child = spawn(kubectlBinary(opts.version), [`--kubeconfig=${opts.kubeconfig}`, `--cache-dir=${cacheDir}`, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KUBECONFIG: opts.kubeconfig, ...(opts.env ?? {}) },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => { out += c.toString(); });
  child.stderr.on('data', (c: Buffer) => { err += c.toString(); });
  return {
    async waitFor(re, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!re.test(out)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no ${re} in kubectl output:\n${out}\nstderr:\n${err}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    stdout: () => out,
    stderr: () => err,
    stop: () => { child.kill('SIGTERM'); },
  };
}

/**
 * kubectl against one replica of a cluster started later (hence the getter), in
 * `namespace` when given: `k` runs it, `ok` also asserts exit code 0 (naming the command
 * and its stderr) and answers stdout.
 */
export function kubectlOn(cluster: () => { kubeconfigFor(index: number): string }, namespace?: string): {
  k(args: string[], stdin?: string, replica?: number): Promise<KubectlResult>;
  ok(args: string[], stdin?: string, replica?: number): Promise<string>;
} {
  const k = (args: string[], stdin?: string, replica = 0): Promise<KubectlResult> =>
    kubectl(namespace ? ['-n', namespace, ...args] : args, { kubeconfig: cluster().kubeconfigFor(replica), stdin });
  return {
    k,
    async ok(args, stdin, replica = 0) {
      const r = await k(args, stdin, replica);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).to.equal(0);
      return r.stdout;
    },
  };
}
