// A cluster to load when none is given: its own etcd, N replicas started by the test
// harness with the Node authorizer, RBAC and NodeRestriction, and HAProxy in front of
// them. HAProxy runs in TCP mode: TLS passes through, so ALPN (h2) and the nodes' client
// certificates reach the replica itself, as with a layer-4 balancer in front of
// kube-apiserver; terminating TLS there would need the balancer to hold the client CA and
// forward identities, which the Node authorizer could not tell from a node's own.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withBenchCluster, type BenchSetting } from '../common.js';
import { freePort } from '../../../test/harness/ports.js';
import { readKubeconfig, type Credentials } from './kubeconfig.js';
import type { CertKeyPair } from '../../../pkg/util/cert/index.js';

export interface HarnessCluster { admin: Credentials; signer: CertKeyPair; replicaPids: number[]; replicaUrls: string[]; etcd: BenchSetting['raw']; etcdPid: number; lbPid?: number }

/**
 * HAProxy holds two descriptors per connection, and the hard limit it inherits bounds
 * them (1,000 nodes over HTTP/1.1, --http1, are over 20,000 watch connections: the
 * balancer is then the first thing that refuses; over HTTP/2 each component holds one).
 */
function maxConnections(): number {
  const hard = /^Max open files\s+\S+\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
  return Math.max(1000, Math.floor((Number(hard ?? 20_000) - 200) / 2));
}

async function startLb(ports: number[]): Promise<{ port: number; proc: ChildProcess; dir: string }> {
  const bin = process.env.HAPROXY_BIN ?? execFileSync('bash', ['hack/install-haproxy.sh']).toString().trim();
  const dir = mkdtempSync(join(tmpdir(), 'cluster-lb-'));
  const port = await freePort();
  writeFileSync(join(dir, 'haproxy.cfg'), `global
  maxconn ${maxConnections()}
defaults
  mode tcp
  timeout connect 5s
  timeout client 900s
  timeout server 900s
frontend api
  bind 127.0.0.1:${port}
  default_backend replicas
backend replicas
  balance roundrobin
${ports.map((p, i) => `  server replica-${i} 127.0.0.1:${p}`).join('\n')}
`);
  const proc = spawn(bin, ['-f', join(dir, 'haproxy.cfg')], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 500));
  if (proc.exitCode !== null) throw new Error(`haproxy exited (${proc.exitCode}); its configuration: ${join(dir, 'haproxy.cfg')}`);
  return { port, proc, dir };
}

export async function withHarnessCluster(replicas: number, lb: boolean, run: (c: HarnessCluster) => Promise<void>): Promise<void> {
  await withBenchCluster('cluster', async (s) => {
    const kubeconfig = s.cluster.kubeconfigFor(0);
    const admin = readKubeconfig(kubeconfig);
    const signer = { cert: readFileSync(s.cluster.pki.ca.certFile, 'utf8'), key: readFileSync(s.cluster.pki.ca.keyFile, 'utf8') };
    const balancer = lb ? await startLb(s.cluster.replicas.map((r) => r.port)) : undefined;
    try {
      if (balancer) admin.server = `https://127.0.0.1:${balancer.port}`;
      await run({ admin, signer, replicaPids: s.cluster.replicas.map((r) => r.pid!), replicaUrls: s.cluster.urls, etcd: s.raw, etcdPid: s.etcdPid, lbPid: balancer?.proc.pid });
    } finally {
      balancer?.proc.kill();
      if (balancer) rmSync(balancer.dir, { recursive: true, force: true });
    }
  }, {
    replicas,
    // The test harness's /24 holds 254 ClusterIPs, fewer than a Service per Deployment at
    // 500 nodes (Service creates then spent a minute probing a nearly full range and ran
    // into the request timeout); a /16, as clusters of this size are given.
    extraArgs: ['--authorization-mode=Node,RBAC', '--enable-admission-plugins=NodeRestriction', '--service-cluster-ip-range=10.96.0.0/16',
      ...(process.env.CLUSTER_EXTRA_ARGS ?? '').split(' ').filter(Boolean)],
  });
}
