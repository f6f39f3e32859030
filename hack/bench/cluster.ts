// The cluster load generator: simulated kubelets, kube-proxies, a scheduler stand-in and
// a ClusterLoader2-`load`-shaped workload against any kube-apiserver, measured as
// upstream's scalability SLOs are (see hack/bench/cluster/). Prints the SLO table.
// Run against a cluster:  node dist/hack/bench/cluster.js --kubeconfig <file> --nodes N --pods-per-node M
//   [--client-ca-cert F --client-ca-key F]  nodes authenticate as system:node:<name> with
//   certificates signed by that CA (otherwise everyone uses the kubeconfig's credentials);
//   [--replica-pids a,b] [--etcd-endpoint URL] for per-replica CPU/RSS and etcd's db size.
// Or on its own cluster (etcd, replicas with Node,RBAC and NodeRestriction, HAProxy):
//   node dist/hack/bench/cluster.js --start-replicas 2 --nodes 100 --pods-per-node 10
// More: --pods-per-deployment (10) --namespaces (10) --qps (20) --proxy-fraction (0.1)
//   --lease-period-s (10) --status-period-s (300) --pod-start-ms (1000) --steady-s (0)
//   --phase-timeout-s (300) --mounts-per-pod (2) --no-scale --external-controllers --no-lb
//   --deadline-s (none: past it the run stops waiting, skips what is left and reports)
//   --events (the Events a v1.28 cluster posts per pod: SuccessfulCreate, Scheduled,
//   Pulled/Created/Started, Killing; put them on their own etcd with CLUSTER_EXTRA_ARGS=
//   --etcd-servers-overrides=/events#<url>)
//   --kubelet-service-watch (each kubelet also lists and watches every Service, as a v1.28
//   kubelet's service informer does; off so runs compare with earlier ones)
//   --no-kubelet-node-watch (kubelets register without first listing and watching their own
//   Node, as runs before 6e865c6 did; a v1.28 kubelet's node informer does, so on by default)
//   --proxy-all-nodes (each kube-proxy lists and watches every Node, as runs before session
//   48 did; a v1.28 kube-proxy watches only its own Node, so off by default)
//   --http1 (every simulated component over HTTP/1.1, a connection per watch, instead of
//   one HTTP/2 connection per component as client-go)
//   --kubelet-threads (one per 250 nodes, at most 4: worker threads the kubelets are split
//   over, so one event loop's delay is not in every latency; kube-proxies get one more)
import { readFileSync } from 'node:fs';
import { Etcd3 } from 'etcd3';
import { procStats, runMain } from './common.js';
import { readKubeconfig } from './cluster/kubeconfig.js';
import { withHarnessCluster } from './cluster/harness.js';
import { runClusterLoad, type RunOptions } from './cluster/run.js';
import { printReport, ResourceSampler } from './cluster/report.js';
import { serverLatency } from './cluster/server-latency.js';

function opt(name: string): string | undefined {
  const i = process.argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const a = process.argv[i]!;
  if (a.includes('=')) return a.slice(a.indexOf('=') + 1);
  const next = process.argv[i + 1];
  return next === undefined || next.startsWith('--') ? 'true' : next;
}
const num = (name: string, def: number): number => Number(opt(name) ?? def);

const options: RunOptions = {
  nodes: num('nodes', 10),
  podsPerNode: num('pods-per-node', 10),
  podsPerDeployment: num('pods-per-deployment', 10),
  namespaces: num('namespaces', 10),
  qps: num('qps', 20),
  proxyFraction: num('proxy-fraction', 0.1),
  leasePeriodMs: num('lease-period-s', 10) * 1000,
  statusPeriodMs: num('status-period-s', 300) * 1000,
  podStartMs: num('pod-start-ms', 1000),
  externalControllers: opt('external-controllers') === 'true',
  steadySeconds: num('steady-s', 0),
  phaseTimeoutMs: num('phase-timeout-s', 300) * 1000,
  nodePrefix: opt('node-prefix') ?? 'hollow-node-',
  mountsPerPod: num('mounts-per-pod', 2),
  scalePhase: opt('no-scale') !== 'true',
  deadlineSeconds: num('deadline-s', 0),
  protocol: opt('http1') === 'true' ? 'http/1.1' : 'h2',
  events: opt('events') === 'true',
  kubeletServiceWatch: opt('kubelet-service-watch') === 'true',
  kubeletNodeWatch: opt('no-kubelet-node-watch') !== 'true',
  proxyAllNodes: opt('proxy-all-nodes') === 'true',
  ...(opt('kubelet-threads') ? { kubeletThreads: num('kubelet-threads', 1) } : {}),
};

async function main(): Promise<void> {
  const replicas = opt('start-replicas');
  if (replicas) {
    await withHarnessCluster(Number(replicas), opt('no-lb') !== 'true', async (c) => {
      const sampler = new ResourceSampler(c.replicaPids, c.etcdPid, c.etcd,
        [{ name: 'generator', pid: process.pid }, ...(c.lbPid ? [{ name: 'haproxy', pid: c.lbPid }] : [])]);
      await sampler.start();
      const result = await runClusterLoad(c.admin, c.signer, options, { log: (l) => console.log(l), tick: () => sampler.sample(), phaseEnded: (n) => console.log(`    ${sampler.phase(n)}`) });
      const resources = await sampler.stop();
      await printReport(result, options, resources, await serverLatency(c.replicaUrls, c.admin));
    });
    return;
  }
  const kubeconfig = opt('kubeconfig');
  if (!kubeconfig) throw new Error('--kubeconfig <file> or --start-replicas N');
  const admin = readKubeconfig(kubeconfig);
  const caCert = opt('client-ca-cert');
  const caKey = opt('client-ca-key');
  const signer = caCert && caKey ? { cert: readFileSync(caCert, 'utf8'), key: readFileSync(caKey, 'utf8') } : undefined;
  const pids = (opt('replica-pids') ?? '').split(',').filter(Boolean).map(Number).filter((p) => { try { procStats(p); return true; } catch { return false; } });
  const endpoint = opt('etcd-endpoint');
  const etcd = endpoint ? new Etcd3({ hosts: endpoint }) : undefined;
  const sampler = new ResourceSampler(pids, undefined, etcd, [{ name: 'generator', pid: process.pid }]);
  await sampler.start();
  try {
    const result = await runClusterLoad(admin, signer, options, { log: (l) => console.log(l), tick: () => sampler.sample(), phaseEnded: (n) => console.log(`    ${sampler.phase(n)}`) });
    await printReport(result, options, await sampler.stop());
  } finally {
    etcd?.close();
  }
}

runMain(main);
