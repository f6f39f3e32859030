// A simulated kubelet, with the requests and rates of a real one (v1.28): lists and watches
// its own Node (fieldSelector metadata.name), registers it, renews its Lease every
// leasePeriod, patches the Node's status at start and every statusPeriod, watches its pods
// (fieldSelector spec.nodeName), watches each ConfigMap and Secret its pods mount one
// object at a time (fieldSelector metadata.name, the default Watch change-detection
// strategy), reports each pod ContainerCreating then Running by strategic-merge patches of
// pods/status with the conditions a kubelet writes, and confirms a graceful deletion with a
// zero-grace delete preconditioned on the pod's UID.
import { clock, sleep, withFieldSelector, type ApiClient, type KubeObj } from './client.js';
import { containerKillEvents, containerStartEvents, emit } from './events.js';
import type { Recorder } from './recorder.js';
import { registerNode } from './register.js';
import type { StartupStages } from './startup.js';

export interface KubeletOptions {
  leasePeriodMs: number;
  statusPeriodMs: number;
  /** From seeing a pod to its Running report (image pull and container start stand-in). */
  podStartMs: number;
  /** Post the Events a kubelet posts for its pods' containers (--events). */
  events?: boolean;
  /** Watch every Service, as a v1.28 kubelet's service informer does (--kubelet-service-watch). */
  serviceWatch?: boolean;
  /** List and watch its own Node before registering, as a v1.28 kubelet's node informer (off: --no-kubelet-node-watch). */
  nodeWatch?: boolean;
}

/** What the driver knows about pods, shared with kubelets to time start-up. */
export interface PodLedger {
  /** Pod key (ns/name) -> when its create was sent, until it is reported Running. */
  createdAt: Map<string, number>;
  /**
   * Pods reported Running before their create's answer was read (watch events can
   * outrun a slow answer): when. The driver counts their start-up when the answer comes.
   */
  ranBeforeAnswer: Map<string, number>;
  /** Start-up totals (create sent -> Running acknowledged), ms. */
  startup: number[];
  /** Pods bound to each node, and those its kubelet saw: the difference is missed events. */
  bound: Map<string, Set<string>>;
  seen: Map<string, Set<string>>;
  /** Each pod's way from create to Running, stage by stage. */
  stages: StartupStages;
}

/**
 * What a kubelet tells the run about its pods: on the run's thread straight into the
 * ledger (ledgerSink), from a kubelet thread in batches (kubelet-threads.ts).
 */
export interface PodSink {
  /** `node`'s kubelet saw pod `key` (ns/name). */
  seen(node: string, key: string): void;
  mark(key: string, mark: 'kubeletSaw' | 'creating', at: number): void;
  /** The pod is gone before it ran. */
  drop(key: string): void;
  /** Its Running report was answered at `at`. */
  ran(key: string, at: number): void;
}

export function ledgerSink(ledger: PodLedger): PodSink {
  return {
    seen(node, key) {
      let seen = ledger.seen.get(node);
      if (!seen) ledger.seen.set(node, (seen = new Set()));
      seen.add(key);
    },
    mark: (key, mark, at) => ledger.stages.mark(key, mark, at),
    drop: (key) => ledger.stages.drop(key),
    ran(key, at) {
      ledger.stages.ran(key, at);
      const created = ledger.createdAt.get(key);
      if (created !== undefined) { ledger.startup.push(at - created); ledger.createdAt.delete(key); } else ledger.ranBeforeAnswer.set(key, at);
    },
  };
}

interface PodSpecVolumes { spec?: { volumes?: Array<{ configMap?: { name: string }; secret?: { secretName: string } }>; containers?: Array<{ name: string; image: string }> } }

export class SimKubelet {
  private lease?: KubeObj;
  private readonly pods = new Map<string, { uid: string; mounts: string[]; running: boolean; deleting: boolean }>();
  private readonly mounts = new Map<string, { refs: number; stop: () => void }>();
  private timers: NodeJS.Timeout[] = [];
  private stopWatch?: () => void;
  private stopNodeWatch?: () => void;
  private stopServiceWatch?: () => void;
  private podIPs = 0;
  private nodeUid = '';
  private stopped = false;

  constructor(readonly name: string, private readonly index: number, private readonly api: ApiClient,
    private readonly rec: Pick<Recorder, 'saw'>, private readonly report: PodSink, private readonly opts: KubeletOptions) {}

  private get ip(): string { return `10.64.${(this.index >> 8) & 255}.${this.index & 255}`; }

  async start(): Promise<void> {
    // A v1.28 kubelet starts an informer on its own Node (fieldSelector metadata.name) in
    // NewMainKubelet, before Run registers the Node: that list is its first call and opens
    // the connection the rest share, so the registration's POST does not pay the handshake.
    if (this.opts.nodeWatch !== false) await this.watchOwnNode();
    // Its service informer (for pods' service environment variables), started beside the
    // node informer; v1.28 watches every Service (headless ones are left out since v1.30).
    if (this.opts.serviceWatch) this.stopServiceWatch = this.api.reflect('/api/v1/services', { resource: 'services', scope: 'cluster' }, { onEvent: () => undefined });
    // Until it is registered, as a kubelet: a lost answer is tried again (register.ts).
    const node = await registerNode(this.api, this.nodeObject(), { stopped: () => this.stopped, sleep });
    if (!node) return;
    this.nodeUid = node.metadata.uid ?? '';
    await this.renewLease();
    await this.patchNodeStatus();
    this.stopWatch = this.api.reflect(withFieldSelector('/api/v1/pods', `spec.nodeName=${this.name}`), { resource: 'pods', scope: 'cluster' }, {
      onList: (items) => { const at = clock(); for (const p of items) this.onPod('ADDED', p, at); },
      onEvent: (type, p, at) => { this.rec.saw(`pods/${p.metadata.namespace}/${p.metadata.name}`, p.metadata.resourceVersion ?? '', at); this.onPod(type, p, at); },
    });
    // Spread over the period, as kubelets started at different times are.
    const jitter = (ms: number) => Math.floor(Math.random() * ms);
    this.timers.push(setTimeout(() => this.timers.push(setInterval(() => void this.renewLease(), this.opts.leasePeriodMs)), jitter(this.opts.leasePeriodMs)));
    this.timers.push(setTimeout(() => this.timers.push(setInterval(() => void this.patchNodeStatus(), this.opts.statusPeriodMs)), jitter(this.opts.statusPeriodMs)));
  }

  private watchOwnNode(): Promise<void> {
    return new Promise<void>((listed) => {
      this.stopNodeWatch = this.api.reflect(withFieldSelector('/api/v1/nodes', `metadata.name=${this.name}`), { resource: 'nodes', scope: 'cluster' }, {
        onList: () => listed(),
        // kube-proxies time the watch lag of node writes; a second watcher's sight adds nothing.
        onEvent: () => undefined,
      });
    });
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) { clearTimeout(t); clearInterval(t); }
    this.stopWatch?.();
    this.stopNodeWatch?.();
    this.stopServiceWatch?.();
    for (const m of this.mounts.values()) m.stop();
    this.mounts.clear();
  }

  private nodeObject(): KubeObj {
    return {
      apiVersion: 'v1', kind: 'Node',
      metadata: { name: this.name, labels: { 'kubernetes.io/hostname': this.name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', 'node.kubernetes.io/instance-type': 'hollow' } },
      spec: {},
      status: {
        capacity: { cpu: '8', memory: '32Gi', pods: '110', 'ephemeral-storage': '100Gi' },
        allocatable: { cpu: '8', memory: '32Gi', pods: '110', 'ephemeral-storage': '100Gi' },
        addresses: [{ type: 'InternalIP', address: this.ip }, { type: 'Hostname', address: this.name }],
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: { machineID: '', systemUUID: '', bootID: '', kernelVersion: '6.1.0', osImage: 'hollow', containerRuntimeVersion: 'containerd://1.7.0', kubeletVersion: 'v1.28.3', kubeProxyVersion: 'v1.28.3', operatingSystem: 'linux', architecture: 'amd64' },
      },
    };
  }

  private renewing = false;

  /** One renewal at a time: a slow one is not overtaken by the next tick (which would conflict). */
  private async renewLease(): Promise<void> {
    if (this.renewing) return;
    this.renewing = true;
    try { await this.renewLeaseOnce(); } finally { this.renewing = false; }
  }

  private async renewLeaseOnce(): Promise<void> {
    const path = '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases';
    const now = new Date().toISOString().replace('Z', '000Z');
    if (!this.lease) {
      const body = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.name, namespace: 'kube-node-lease', ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: this.name, uid: this.nodeUid }] }, spec: { holderIdentity: this.name, leaseDurationSeconds: 40, renewTime: now } };
      const res = await this.api.call<KubeObj>({ resource: 'leases', verb: 'POST', scope: 'resource' }, 'POST', path, body);
      if (res.status === 201) { this.lease = res.body; return; }
      const got = await this.api.call<KubeObj>({ resource: 'leases', verb: 'GET', scope: 'resource' }, 'GET', `${path}/${this.name}`);
      if (got.status === 200) this.lease = got.body;
      return;
    }
    const next = renewedLease(this.lease, now);
    const res = await this.api.call<KubeObj>({ resource: 'leases', verb: 'PUT', scope: 'resource' }, 'PUT', `${path}/${this.name}`, next);
    if (res.status === 200) this.lease = res.body;
    else this.lease = undefined; // conflict or gone: read (or create) it afresh next time
  }

  private async patchNodeStatus(): Promise<void> {
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    await this.api.call({ resource: 'nodes', verb: 'PATCH', scope: 'resource' }, 'PATCH', `/api/v1/nodes/${this.name}/status`, nodeStatusPatch(now), 'application/strategic-merge-patch+json');
  }

  private onPod(type: string, p: KubeObj, at: number): void {
    const key = `${p.metadata.namespace}/${p.metadata.name}`;
    this.report.seen(this.name, key);
    const known = this.pods.get(key);
    if (type === 'DELETED') {
      this.report.drop(key);
      if (known) { this.pods.delete(key); for (const m of known.mounts) this.unmount(m); }
      return;
    }
    if (known && known.uid !== p.metadata.uid) { this.pods.delete(key); for (const m of known.mounts) this.unmount(m); }
    const state = this.pods.get(key);
    if (!state) {
      const mounts = ((p as PodSpecVolumes).spec?.volumes ?? []).flatMap((v) => (v.configMap ? [`configmaps/${p.metadata.namespace}/${v.configMap.name}`] : v.secret ? [`secrets/${p.metadata.namespace}/${v.secret.secretName}`] : []));
      const s = { uid: p.metadata.uid ?? '', mounts, running: ((p.status as { phase?: string } | undefined)?.phase === 'Running'), deleting: false };
      this.pods.set(key, s);
      if (!s.running) this.report.mark(key, 'kubeletSaw', at);
      for (const m of mounts) this.mount(m);
      if (!s.running && !p.metadata.deletionTimestamp) void this.runPod(key, p);
    }
    if (p.metadata.deletionTimestamp) {
      const s = this.pods.get(key)!;
      if (s.deleting) return;
      s.deleting = true;
      if (this.opts.events) for (const e of containerKillEvents(involved(p), this.name, (p as PodSpecVolumes).spec?.containers ?? [])) emit(this.api, e);
      // Containers stopped: the kubelet confirms with a zero-grace delete bound to this UID.
      void this.api.call({ resource: 'pods', verb: 'DELETE', scope: 'resource' }, 'DELETE', `/api/v1/namespaces/${p.metadata.namespace}/pods/${p.metadata.name}`,
        { apiVersion: 'v1', kind: 'DeleteOptions', gracePeriodSeconds: 0, preconditions: { uid: s.uid } });
    }
  }

  private async runPod(key: string, p: KubeObj): Promise<void> {
    const [ns, name] = key.split('/') as [string, string];
    const containers = (p as PodSpecVolumes).spec?.containers ?? [];
    const t = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const startTime = t();
    const path = `/api/v1/namespaces/${ns}/pods/${name}/status`;
    const smp = 'application/strategic-merge-patch+json';
    const label = { resource: 'pods', verb: 'PATCH', scope: 'resource' as const };
    await this.api.call(label, 'PATCH', path, podCreatingPatch(p.metadata.uid ?? '', containers, this.ip, startTime), smp);
    this.report.mark(key, 'creating', clock());
    await sleep(this.opts.podStartMs);
    const s = this.pods.get(key);
    if (!s || s.deleting || s.uid !== p.metadata.uid) return;
    const running = t();
    const podIP = `10.128.${this.index & 255}.${(this.podIPs++ % 250) + 2}`;
    // The status manager retries until the API takes the status (or the pod is gone).
    const patchRunning = () => this.api.call<KubeObj>(label, 'PATCH', path, podRunningPatch(p.metadata.uid ?? '', containers, running, podIP), smp);
    let res = await patchRunning();
    for (let attempt = 0; attempt < 10 && res.status !== 200 && res.status !== 404 && !s.deleting; attempt++) {
      await sleep(1000);
      res = await patchRunning();
    }
    if (res.status === 200) {
      s.running = true;
      if (this.opts.events) for (const e of containerStartEvents(involved(p), this.name, containers)) emit(this.api, e);
      this.report.ran(key, clock());
    }
  }

  private mount(key: string): void {
    const m = this.mounts.get(key);
    if (m) { m.refs++; return; }
    const [resource, ns, name] = key.split('/') as [string, string, string];
    const stop = this.api.reflect(withFieldSelector(`/api/v1/namespaces/${ns}/${resource}`, `metadata.name=${name}`), { resource, scope: 'namespace' }, {
      onEvent: (_type, o, at) => this.rec.saw(`${resource}/${ns}/${o.metadata.name}`, o.metadata.resourceVersion ?? '', at),
    });
    this.mounts.set(key, { refs: 1, stop });
  }

  private unmount(key: string): void {
    const m = this.mounts.get(key);
    if (!m) return;
    if (--m.refs > 0) return;
    m.stop();
    this.mounts.delete(key);
  }

  get watchCount(): number { return 1 + (this.opts.nodeWatch !== false ? 1 : 0) + (this.opts.serviceWatch ? 1 : 0) + this.mounts.size; }
}

const involved = (p: KubeObj) => ({ namespace: p.metadata.namespace ?? '', name: p.metadata.name, uid: p.metadata.uid ?? '', resourceVersion: p.metadata.resourceVersion });

/** A Lease renewal as a kubelet PUTs it: the Lease it last got back, with a new renewTime. */
export function renewedLease(lease: KubeObj, now: string): KubeObj {
  return { ...lease, spec: { ...(lease.spec as object), renewTime: now } };
}

/** The Node status patch (strategic merge) with the conditions a kubelet reports. */
export function nodeStatusPatch(now: string): object {
  const cond = (type: string, status: string, reason: string) => ({ type, status, reason, message: reason, lastHeartbeatTime: now, lastTransitionTime: now });
  return {
    status: {
      '$setElementOrder/conditions': ['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready'].map((type) => ({ type })),
      conditions: [cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory'), cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure'),
        cond('PIDPressure', 'False', 'KubeletHasSufficientPID'), cond('Ready', 'True', 'KubeletReady')],
    },
  };
}

type Containers = Array<{ name: string; image: string }>;
const podConditionOrder = { '$setElementOrder/conditions': ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({ type })) };

/** The first pods/status patch (strategic merge): containers being created. */
export function podCreatingPatch(uid: string, containers: Containers, hostIP: string, startTime: string): object {
  const notReady = `containers with unready status: [${containers.map((c) => c.name).join(' ')}]`;
  return { metadata: { uid }, status: { ...podConditionOrder,
    conditions: [
      { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: startTime },
      { type: 'Ready', status: 'False', lastProbeTime: null, lastTransitionTime: startTime, reason: 'ContainersNotReady', message: notReady },
      { type: 'ContainersReady', status: 'False', lastProbeTime: null, lastTransitionTime: startTime, reason: 'ContainersNotReady', message: notReady },
    ],
    containerStatuses: containers.map((c) => ({ name: c.name, image: c.image, imageID: '', lastState: {}, ready: false, restartCount: 0, started: false, state: { waiting: { reason: 'ContainerCreating' } } })),
    hostIP, hostIPs: [{ ip: hostIP }], startTime } };
}

/** The second pods/status patch (strategic merge): containers running, the pod Ready. */
export function podRunningPatch(uid: string, containers: Containers, running: string, podIP: string): object {
  return { metadata: { uid }, status: { ...podConditionOrder,
    conditions: [
      { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: running },
      { type: 'ContainersReady', status: 'True', lastProbeTime: null, lastTransitionTime: running },
    ],
    containerStatuses: containers.map((c) => ({ name: c.name, image: c.image, imageID: `${c.image}@sha256:${'0'.repeat(64)}`, containerID: `containerd://${'f'.repeat(64)}`, lastState: {}, ready: true, restartCount: 0, started: true, state: { running: { startedAt: running } } })),
    phase: 'Running', podIP, podIPs: [{ ip: podIP }] } };
}
