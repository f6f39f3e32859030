// The `kubernetes` Service and its endpoints, kept by every replica (upstream's
// default-service controller and endpoint reconciler run in each kube-apiserver, not
// under leader election): each tick creates the Service if it is missing, renews this
// replica's master lease and reconciles the Endpoints and EndpointSlice `kubernetes`.
// On a clean stop the replica removes its lease and itself from the endpoints at once.
import type { Etcd3 } from 'etcd3';
import type { Logger } from 'pino';
import type { Client } from '../../client/interfaces.js';
import { StatusError } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import type { StorageMediaType } from '../../storage/etcd/codec.js';
import { endpointSliceFor, sliceUpToDate } from './endpointslice.js';
import { MasterLeases } from './masterleases.js';
import { endpointPorts, reconcileLease, reconcileMasterCount, type Reconciled } from './reconciler.js';
import { appearsWithin, firstServiceIP, kubernetesService, kubernetesServiceName as name, kubernetesServiceNamespace as ns } from './service.js';

/** --endpoint-reconciler-type. */
export type EndpointReconcilerType = 'lease' | 'master-count' | 'none';

export interface KubernetesServiceOptions {
  /** The apiserver's own loopback client. */
  api: Client;
  /** Master leases are kept in etcd directly, as upstream's lease reconciler keeps them in storage. */
  client: Etcd3;
  log: Logger;
  etcdPrefix: string;
  storageMediaType: StorageMediaType;
  serviceClusterIPRange?: string;
  /** This replica's published address. */
  advertiseAddress: string;
  reconcilerType: EndpointReconcilerType;
  apiserverCount: number;
  leaseTTLMs: number;
  intervalMs: number;
}

const isStatus = (err: unknown, ...codes: number[]): boolean => err instanceof StatusError && codes.includes(err.code);

export class KubernetesServiceController {
  private readonly serviceIP: string;
  private readonly leases: MasterLeases;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  private lastError = '';
  private securePort = 0;

  constructor(private readonly o: KubernetesServiceOptions) {
    this.serviceIP = firstServiceIP(o.serviceClusterIPRange);
    if (o.reconcilerType !== 'none' && this.serviceIP.includes(':') !== o.advertiseAddress.includes(':')) {
      throw new Error(`service IP family "${this.serviceIP}" must match endpoint (apiserver) address family "${o.advertiseAddress}"`);
    }
    this.leases = new MasterLeases(o.client, o.etcdPrefix, Math.max(1, Math.ceil(o.leaseTTLMs / 1000)), o.storageMediaType);
  }

  /** `securePort`: the port this replica listens on (known once it does). */
  async start(securePort: number): Promise<void> {
    this.securePort = securePort;
    // A lease left by an earlier run of this address that did not stop cleanly goes first.
    if (this.o.reconcilerType === 'lease') {
      await this.leases.remove(this.o.advertiseAddress).catch((err: Error) => this.o.log.warn({ err: err.message }, 'removing a stale master lease failed'));
    }
    const tick = (): void => {
      if (this.stopped) return;
      this.running = this.sync().catch((err: Error) => this.report(err)).finally(() => {
        if (!this.stopped) this.timer = setTimeout(tick, this.o.intervalMs);
      });
    };
    tick();
    await this.running;
  }

  /** Removes this replica's lease and address; bounded so an unreachable etcd cannot hold up shutdown. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    if (this.o.reconcilerType !== 'lease') return;
    const remove = (async () => {
      await this.leases.remove(this.o.advertiseAddress);
      await this.reconcileEndpoints();
    })().catch((err: Error) => this.o.log.warn({ err: err.message }, 'unable to remove this replica from the kubernetes endpoints'));
    await Promise.race([remove, new Promise((r) => setTimeout(r, 2 * this.o.intervalMs).unref())]);
  }

  private report(err: Error): void {
    // The same failure every tick (say, a loopback advertise address) is logged once.
    if (err.message === this.lastError) return;
    this.lastError = err.message;
    this.o.log.error({ err: err.message }, 'unable to sync kubernetes service');
  }

  private async sync(): Promise<void> {
    await this.ensureService();
    if (this.o.reconcilerType === 'none') return;
    if (this.o.reconcilerType === 'lease') await this.leases.update(this.o.advertiseAddress);
    await this.reconcileEndpoints();
    this.lastError = '';
  }

  private async ensureService(): Promise<void> {
    const services = this.o.api.resource('', 'services');
    try {
      await services.get(ns, name);
      return;
    } catch (err) {
      if (!isStatus(err, 404)) throw err;
    }
    try {
      await services.create(ns, kubernetesService(this.serviceIP, this.securePort));
      this.o.log.info({ clusterIP: this.serviceIP }, 'created the kubernetes service');
    } catch (err) {
      // Another replica creating it at the same moment holds the IP first: its create
      // fails here with AlreadyExists, or with "provided IP is already allocated" while
      // that replica's object is still on its way to etcd (seen when two start at once).
      if (isStatus(err, 409)) return;
      if (isStatus(err, 422) && await appearsWithin(() => services.get(ns, name), 2000, () => this.stopped)) return;
      throw err;
    }
  }

  private async reconcileEndpoints(): Promise<void> {
    const ports = endpointPorts(this.securePort);
    let desired: (current: KubeObject | null) => Reconciled;
    if (this.o.reconcilerType === 'lease') {
      const leased = await this.leases.list();
      // Our own key was just renewed: none at all means storage is not telling the truth,
      // unless this is the last replica removing itself on the way out (upstream 1.26+).
      if (leased.length === 0 && !this.stopped) throw new Error('no API server IP addresses were listed in storage, refusing to erase all endpoints for the kubernetes Service');
      desired = (current) => reconcileLease(current, leased, ports, false);
    } else {
      desired = (current) => reconcileMasterCount(current, this.o.advertiseAddress, ports, this.o.apiserverCount, false);
    }
    const endpoints = this.o.api.resource('', 'endpoints');
    let current: KubeObject | null = null;
    try {
      current = await endpoints.get(ns, name);
    } catch (err) {
      if (!isStatus(err, 404)) throw err;
    }
    const want = desired(current);
    // Unconditional: the reconciler's view is the truth, whatever another replica wrote.
    if (want) delete want.metadata.resourceVersion;
    const object = want ? await endpoints.update(ns, want) : current;
    if (object) await this.ensureSlice(object);
  }

  private async ensureSlice(endpoints: KubeObject): Promise<void> {
    const want = endpointSliceFor(endpoints);
    const slices = this.o.api.resource('discovery.k8s.io', 'endpointslices');
    let current: KubeObject | undefined;
    try {
      current = await slices.get(ns, name);
    } catch (err) {
      if (!isStatus(err, 404)) throw err;
    }
    if (!current) {
      await slices.create(ns, want).catch((err) => { if (!isStatus(err, 409)) throw err; });
      return;
    }
    if (current.addressType !== want.addressType) {
      // addressType is immutable: the slice is made anew.
      await slices.delete(ns, name);
      await slices.create(ns, want);
      return;
    }
    if (sliceUpToDate(current, want)) return;
    await slices.update(ns, want);
  }
}
