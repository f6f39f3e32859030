// Runs the real kubectl v1.28 (from hack/install-kubectl.sh, or $KUBECTL_BIN).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from './repo.js';

export interface KubectlOptions {
  kubeconfig: string;
  stdin?: string;
  /** Killed after this long; default 60 s. */
  timeoutMs?: number;
  env?: Record<string, string>;
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

let binary: string | undefined;

export function kubectlBinary(): string {
  if (binary) return binary;
  const fromEnv = process.env['KUBECTL_BIN'];
  if (fromEnv) return (binary = fromEnv);
  const installed = join(repoRoot(), '_output', 'bin', 'kubectl');
  if (existsSync(installed)) return (binary = installed);
  const printed = execFileSync('bash', [join(repoRoot(), 'hack', 'install-kubectl.sh')], { encoding: 'utf8' });
  return (binary = printed.trim().split('\n').pop()!);
}

/**
 * kubectl <args> --kubeconfig <file>. Discovery is cached beside the kubeconfig, so
 * servers from earlier runs on the same port never answer from a stale cache.
 */
export function kubectl(args: string[], opts: KubectlOptions): Promise<KubectlResult> {
  const argv = [`--kubeconfig=${opts.kubeconfig}`, `--cache-dir=${join(dirname(opts.kubeconfig), '.kube-cache')}`, ...args];
  const child = spawn(kubectlBinary(), argv, {
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
