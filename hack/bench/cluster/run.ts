// One cluster-load run against any API server: identities (nodes' client certificates
// signed by the client CA when its key is given, otherwise the kubeconfig's own
// credentials for everyone), kubelets started in waves, kube-proxies on a fraction of
// nodes, the scheduler stand-in, then the workload's phases, sampled and summarised.
import { issueCertificate, type CertKeyPair } from '../../../pkg/util/cert/index.js';
import { ApiClient, clock, sleep, type Identity, type Protocol } from './client.js';
import { ledgerSink, type PodLedger } from './kubelet.js';
import { KubeletThreads } from './kubelet-threads.js';
import { startKubeProxies } from './proxy.js';
import { Recorder } from './recorder.js';
import { SchedulerStandIn } from './scheduler.js';
import { StartupStages } from './startup.js';
import { LoadDriver } from './workload.js';
import type { Credentials } from './kubeconfig.js';

export interface RunOptions {
  nodes: number;
  podsPerNode: number;
  podsPerDeployment: number;
  namespaces: number;
  qps: number;
  proxyFraction: number;
  leasePeriodMs: number;
  statusPeriodMs: number;
  podStartMs: number;
  /** Pods come from a real controller manager: only Deployments are written. */
  externalControllers: boolean;
  /** Seconds to hold the cluster steady (leases renewing) between phases. */
  steadySeconds: number;
  phaseTimeoutMs: number;
  nodePrefix: string;
  /** ConfigMap and Secret volumes per pod (2, as ClusterLoader2's load pods; each is one kubelet watch). */
  mountsPerPod: number;
  /** Run the scale phase (create and delete always run). */
  scalePhase: boolean;
  /** Seconds after which the run stops waiting, skips what is left and reports (0: none). */
  deadlineSeconds: number;
  /** h2: one connection per simulated component, as client-go; http/1.1: a connection per watch. */
  protocol: Protocol;
  /**
   * Post the Events a v1.28 cluster posts for each pod (hack/bench/cluster/events.ts):
   * off by default, so runs compare with those made before it existed.
   */
  events?: boolean;
  /**
   * Each kubelet also watches every Service, as a v1.28 kubelet does: off by default, so
   * runs compare with those made before it existed.
   */
  kubeletServiceWatch?: boolean;
  /** Each kubelet lists and watches its own Node before registering, as v1.28's node informer (default on). */
  kubeletNodeWatch?: boolean;
  /**
   * Each kube-proxy watches every Node instead of its own, the shape runs before session 48
   * used (heavier than any v1.28 component): off by default.
   */
  proxyAllNodes?: boolean;
  /** Worker threads the kubelets are split over (default: one per 250 nodes, at most 4). */
  kubeletThreads?: number;
}

export interface RunResult {
  rec: Recorder;
  seconds: number;
  pods: number;
  missedPodEvents: number;
  unstartedPods: number;
  leftoverPods: number;
  watches: number;
  bindings: number;
  /** Pod start-up by stage. */
  stages: StartupStages;
  /** Phases cut short or skipped by the deadline. */
  cut: string[];
}

export interface RunHooks {
  log(line: string): void;
  /** Called every second during the run (resource sampling). */
  tick?(): void;
  /** Called as each phase ends (nodes registered, each workload phase), for per-phase figures. */
  phaseEnded?(name: string): void;
}

async function identities(admin: Credentials, signer: CertKeyPair | undefined, names: string[], groups: (n: string) => string[]): Promise<Map<string, Identity>> {
  const out = new Map<string, Identity>();
  for (const n of names) {
    if (!signer) { out.set(n, { ca: admin.ca, cert: admin.cert, key: admin.key, token: admin.token }); continue; }
    const pair = await issueCertificate(signer, { cn: n, organizations: groups(n), usage: 'client', days: 2 });
    out.set(n, { ca: admin.ca, cert: pair.cert, key: pair.key });
  }
  return out;
}

export async function runClusterLoad(admin: Credentials, signer: CertKeyPair | undefined, o: RunOptions, hooks: RunHooks): Promise<RunResult> {
  const rec = new Recorder();
  const ledger: PodLedger = { createdAt: new Map(), ranBeforeAnswer: new Map(), startup: rec.startup, bound: new Map(), seen: new Map(), stages: new StartupStages(o.podStartMs) };
  const nodeNames = Array.from({ length: o.nodes }, (_x, i) => `${o.nodePrefix}${i}`);
  const proxies = Math.ceil(o.nodes * o.proxyFraction);
  hooks.log(`cluster load: ${o.nodes} nodes, ${o.nodes * o.podsPerNode} pods, ${proxies} kube-proxies, qps ${o.qps}, ${o.protocol}, identities ${signer ? 'client certificates (system:node:<name>)' : 'the kubeconfig\'s'}`);
  const ids = await identities(admin, signer, [...nodeNames.map((n) => `system:node:${n}`), 'system:kube-proxy', 'system:kube-scheduler'],
    (n) => (n.startsWith('system:node:') ? ['system:nodes'] : []));
  hooks.phaseEnded?.('client certificates');
  const threads = o.kubeletThreads ?? Math.min(4, Math.ceil(o.nodes / 250));
  const kubelets = new KubeletThreads(admin.server, nodeNames.map((name, index) => ({ name, index, id: ids.get(`system:node:${name}`)! })), threads,
    { leasePeriodMs: o.leasePeriodMs, statusPeriodMs: o.statusPeriodMs, podStartMs: o.podStartMs, events: o.events, serviceWatch: o.kubeletServiceWatch, nodeWatch: o.kubeletNodeWatch }, 'kubelet/v1.28.3 (linux/amd64) kubernetes/hollow', o.protocol,
    rec, ledgerSink(ledger));
  await kubelets.loaded();
  const t0 = clock();
  const clients: ApiClient[] = [];
  const client = (who: string, ua: string): ApiClient => {
    const c = new ApiClient(admin.server, ids.get(who) ?? { ca: admin.ca, cert: admin.cert, key: admin.key, token: admin.token }, rec, ua, o.protocol);
    clients.push(c);
    return c;
  };
  let peakWatches = 0;
  const ticker = setInterval(() => {
    peakWatches = Math.max(peakWatches, kubelets.watchCount + proxies * 3 + 2);
    hooks.tick?.();
  }, 1000);
  let stopProxies: (() => Promise<void>) | undefined;
  let scheduler: SchedulerStandIn | undefined;
  try {
    // Kubelets register in waves, as a cluster's nodes come up.
    await kubelets.start();
    hooks.log(`  ${o.nodes} nodes registered in ${((clock() - t0) / 1000).toFixed(1)} s (kubelets on ${threads} thread${threads === 1 ? '' : 's'})`);
    hooks.phaseEnded?.('register nodes');
    const proxyId = ids.get('system:kube-proxy') ?? { ca: admin.ca, cert: admin.cert, key: admin.key, token: admin.token };
    // Spread over the nodes, as a DaemonSet on a fraction of them.
    const proxyNodes = Array.from({ length: proxies }, (_x, i) => nodeNames[Math.floor((i * o.nodes) / proxies)]!);
    if (proxies > 0) stopProxies = startKubeProxies(admin.server, proxyId, proxyNodes, o.proxyAllNodes ?? false, 'kube-proxy/v1.28.3 (linux/amd64) kubernetes/hollow', o.protocol, rec);
    scheduler = new SchedulerStandIn(client('system:kube-scheduler', 'kube-scheduler/v1.28.3 (linux/amd64) kubernetes/hollow'), nodeNames, ledger, Math.max(o.qps, 50), 2 * Math.max(o.qps, 50), o.events);
    scheduler.start();
    const pods = o.nodes * o.podsPerNode;
    const driver = new LoadDriver(client('admin', 'clusterloader-standin/v1.28.3'), ledger, {
      namespaces: o.namespaces, deployments: Math.ceil(pods / o.podsPerDeployment), podsPerDeployment: o.podsPerDeployment,
      qps: o.qps, external: o.externalControllers, graceSeconds: 30, mounts: o.mountsPerPod, events: o.events,
    });
    const runDeadline = o.deadlineSeconds > 0 ? t0 + o.deadlineSeconds * 1000 : Infinity;
    const cut: string[] = [];
    // Past the run's deadline a phase stops waiting (its requests keep going) and the rest are skipped.
    const phase = async (name: string, f: () => Promise<void>, settled: () => Promise<boolean>) => {
      if (clock() >= runDeadline) { cut.push(`${name} (skipped)`); hooks.log(`  ${name}: skipped, past the deadline`); return; }
      const p0 = clock();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((r) => { if (runDeadline < Infinity) timer = setTimeout(() => r('late'), Math.max(0, runDeadline - clock())); });
      const sent = await Promise.race([f().then(() => 'sent' as const), late]);
      const deadline = Math.min(clock() + o.phaseTimeoutMs, runDeadline);
      while (sent === 'sent' && !(await settled()) && clock() < deadline) await sleep(500);
      clearTimeout(timer);
      if (clock() >= runDeadline) cut.push(name);
      hooks.log(`  ${name}: ${((clock() - p0) / 1000).toFixed(1)} s${clock() >= runDeadline ? ' (cut off by the deadline)' : ''}`);
      hooks.phaseEnded?.(name);
    };
    await phase('namespaces', () => driver.createNamespaces(), async () => true);
    const allRunning = async () => driver.pending() === 0;
    await phase(`create ${driver.deployments.length} deployments, ${pods} pods`, () => driver.create(), allRunning);
    if (o.steadySeconds > 0 && clock() < runDeadline) { await sleep(o.steadySeconds * 1000); hooks.log(`  steady: ${o.steadySeconds} s`); hooks.phaseEnded?.('steady'); }
    if (o.scalePhase) await phase('scale', () => driver.scale(), allRunning);
    const unstartedPods = driver.pending();
    await phase('delete', () => driver.delete(), async () => (await driver.remainingPods()) === 0);
    const leftoverPods = await driver.remainingPods();
    // The kubelets' last notes (pods seen) are in once their threads stop.
    await kubelets.stop();
    let missed = 0;
    for (const [node, keys] of ledger.bound) {
      const seen = ledger.seen.get(node) ?? new Set();
      for (const k of keys) if (!seen.has(k)) missed++;
    }
    return {
      rec, seconds: (clock() - t0) / 1000, pods, missedPodEvents: missed, unstartedPods, leftoverPods,
      watches: peakWatches, bindings: scheduler.bindings, stages: ledger.stages, cut,
    };
  } finally {
    clearInterval(ticker);
    scheduler?.stop();
    await stopProxies?.();
    await kubelets.stop();
    for (const c of clients) c.close();
  }
}
