// controller-runtime's envtest start of a kube-apiserver, step for step, as its
// pkg/internal/testing/{controlplane/apiserver.go, controlplane/auth.go, process,
// certs/tinyca.go} do it: a temp cert dir, a free port, a serving pair and a
// service-account pair from tiny CAs written into the cert dir, a client-cert CA for
// users, the `--help` probe for --insecure-port, its flags (sorted `--key=value`), the
// /healthz poll every 100 ms (TLS unverified, no credentials), and SIGTERM with a 20 s
// wait to stop. Users are client certificates signed by the client CA.
import { spawn } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateCA, issueCertificate, type CertKeyPair } from '../../pkg/util/cert/index.js';
import { freePort } from './ports.js';
import { kubeconfigYaml } from './kubeconfig.js';
import { spawnTracked, type Tracked } from './processes.js';

export interface EnvtestUser { name: string; groups: string[] }

export interface EnvtestAPIServer {
  certDir: string;
  port: number;
  pid: number;
  /** https://127.0.0.1:<port>/ as envtest's rest.Config host. */
  host: string;
  /** The flags envtest passed. */
  args: string[];
  /** Whether the --help probe found --insecure-port. */
  insecurePortFlag: boolean;
  /** PEM of the CA that signed the serving certificate (SecureServing.CA). */
  servingCA: string;
  /** Milliseconds from spawning the process to the first 200 from /healthz (or `readyPath`). */
  startToReadyMs: number;
  /** Everything the process wrote, stdout and stderr interleaved. */
  output(): string;
  /** A user of the client-cert authenticator (AddUser): a kubeconfig as KubeConfigFromREST writes it. */
  addUser(user: EnvtestUser): Promise<{ kubeconfig: string; cert: CertKeyPair }>;
  /** SIGTERM, wait for the exit (20 s at most), remove the cert dir. Resolves with the exit code. */
  stop(): Promise<number | null>;
}

export interface EnvtestOptions {
  /** The kube-apiserver executable (envtest: $KUBEBUILDER_ASSETS/kube-apiserver). */
  binary: string;
  etcdURL: string;
  startTimeoutMs?: number;
  stopTimeoutMs?: number;
  /** Extra flags given through Configure(), set after the defaults. */
  configure?: Record<string, string>;
  env?: NodeJS.ProcessEnv;
  /** Polled until 200; envtest's is /healthz (the startup benchmark polls /readyz). */
  readyPath?: string;
  /** envtest polls every 100 ms; the benchmark more often, to time the start finer. */
  pollMs?: number;
}

/** certs.NewTinyCA: an RSA-2048 CA named envtest-environment, organization envtest. */
function newTinyCA(): Promise<CertKeyPair> {
  return generateCA('envtest-environment', { keyAlgorithm: 'RSA', organizations: ['envtest'] });
}

/** TinyCA.NewServingCert(names...): CN localhost, each name a DNS SAN plus the IPs it resolves to. */
async function newServingCert(ca: CertKeyPair, names: string[]): Promise<CertKeyPair> {
  const dnsNames: string[] = [];
  const ips: string[] = [];
  for (const name of names) {
    if (/^[\d.]+$|:/.test(name)) { ips.push(name); continue; }
    dnsNames.push(name);
    for (const a of await lookup(name, { all: true })) ips.push(a.address);
  }
  return issueCertificate(ca, { cn: 'localhost', organizations: ['envtest'], dnsNames, ipAddresses: ips, usage: 'server', keyAlgorithm: 'RSA', days: 7 });
}

/** process.CheckFlag: `<binary> --help`, combined output, must exit 0; then `^\s*--<flag>\b`. */
function checkFlag(binary: string, flag: string, env?: NodeJS.ProcessEnv): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['--help'], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`unable to run command "${binary}" to check for flag "${flag}": exit status ${code}`));
      else resolve(new RegExp(`^\\s*--${flag}\\b`, 'm').test(out));
    });
  });
}

/** pollURLUntilOK: GET without verifying the certificate or presenting one, until a 200. */
function healthy(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpsRequest(url, { rejectUnauthorized: false, agent: false, timeout: 2000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

export async function startEnvtestAPIServer(opts: EnvtestOptions): Promise<EnvtestAPIServer> {
  const startTimeoutMs = opts.startTimeoutMs ?? 20_000;
  const stopTimeoutMs = opts.stopTimeoutMs ?? 20_000;
  // process.State.Init: a fresh temp dir that Stop removes.
  const certDir = mkdtempSync(join(tmpdir(), 'k8s_test_framework_'));
  // configurePorts: addr.Suggest on localhost.
  const port = await freePort();
  const address = '127.0.0.1';
  const host = `https://${address}:${port}/`;
  const healthURL = `https://${address}:${port}${opts.readyPath ?? '/healthz'}`;

  // populateAPIServerCerts: apiserver.crt/.key absent, so a serving pair from a new tiny CA,
  // then a service-account signer (the CA pair itself) in sa-signer.crt/.key.
  const servingCA = await newTinyCA();
  const serving = await newServingCert(servingCA, ['localhost', address]);
  writeFileSync(join(certDir, 'apiserver.crt'), serving.cert, { mode: 0o640 });
  writeFileSync(join(certDir, 'apiserver.key'), serving.key, { mode: 0o640 });
  const saCA = await newTinyCA();
  writeFileSync(join(certDir, 'sa-signer.crt'), saCA.cert, { mode: 0o640 });
  writeFileSync(join(certDir, 'sa-signer.key'), saCA.key, { mode: 0o640 });

  // NewCertAuthn + Configure: the client CA's file becomes --client-ca-file.
  const clientCA = await newTinyCA();
  const clientCAFile = join(certDir, 'client-cert-auth-ca.crt');

  // discoverFlags: --insecure-port is passed (as 0) only when the help lists it.
  const insecurePortFlag = await checkFlag(opts.binary, 'insecure-port', opts.env);
  const flags: Record<string, string> = {
    'service-cluster-ip-range': '10.0.0.0/24',
    'allow-privileged': 'true',
    'disable-admission-plugins': 'ServiceAccount',
    'cert-dir': certDir,
    'authorization-mode': 'RBAC',
    'secure-port': String(port),
    'bind-address': address,
    'service-account-issuer': host,
    'service-account-key-file': join(certDir, 'sa-signer.crt'),
    'service-account-signing-key-file': join(certDir, 'sa-signer.key'),
    'etcd-servers': opts.etcdURL,
    'client-ca-file': clientCAFile,
    ...opts.configure,
  };
  if (insecurePortFlag) flags['insecure-port'] = '0';
  // Arguments.AsStrings: keys sorted, one --key=value each.
  const args = Object.keys(flags).sort().map((k) => `--${k}=${flags[k]}`);

  // Authn.Start: the client CA is written just before the process starts.
  writeFileSync(clientCAFile, clientCA.cert, { mode: 0o600 });

  // process.State.Start: spawn, poll every 100 ms, fail on exit or after the start timeout.
  let output = '';
  const started = Date.now();
  const proc: Tracked = spawnTracked(opts.binary, args, { stdio: ['ignore', 'pipe', 'pipe'], env: opts.env });
  proc.child.stdout?.on('data', (d) => { output += d; });
  proc.child.stderr?.on('data', (d) => { output += d; });
  let exited = false;
  void proc.exited.then(() => { exited = true; });
  for (;;) {
    if (await healthy(healthURL)) break;
    if (exited) {
      rmSync(certDir, { recursive: true, force: true });
      throw new Error(`timeout waiting for process kube-apiserver to start successfully (it may have failed to start, or stopped unexpectedly before becoming ready)\n${output.slice(-3000)}`);
    }
    if (Date.now() - started > startTimeoutMs) {
      await proc.stop(stopTimeoutMs);
      rmSync(certDir, { recursive: true, force: true });
      throw new Error(`timeout waiting for process kube-apiserver to start\n${output.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 100));
  }
  const startToReadyMs = Date.now() - started;

  return {
    certDir, port, pid: proc.pid, host, args, insecurePortFlag, servingCA: servingCA.cert, startToReadyMs,
    output: () => output,
    async addUser(user) {
      const cert = await issueCertificate(clientCA, { cn: user.name, organizations: user.groups, usage: 'client', keyAlgorithm: 'RSA', days: 7 });
      const kubeconfig = kubeconfigYaml({ server: host, ca: servingCA.cert, user: { name: user.name, cert: cert.cert, key: cert.key }, clusterName: 'envtest' });
      return { kubeconfig, cert };
    },
    async stop() {
      proc.child.kill('SIGTERM');
      const code = await Promise.race([
        proc.exited,
        new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), stopTimeoutMs).unref()),
      ]);
      if (code === 'timeout') {
        await proc.stop(0);
        throw new Error('timeout waiting for process kube-apiserver to stop');
      }
      rmSync(certDir, { recursive: true, force: true });
      return code;
    },
  };
}
