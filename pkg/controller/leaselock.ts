// The Lease upstream's kube-controller-manager elects its leader with (kube-system/
// kube-controller-manager), held by the replica that won our etcd election. While an
// upstream kube-controller-manager holds it, no replica runs controllers, so the two
// never run the same controller at once. Expiry is judged by when this replica last saw
// the record change, not by the holder's clock, as upstream's leaderelection does.
import { StatusError } from '../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../runtime/object.js';
import type { ResourceClient } from '../client/interfaces.js';

export const leaseNamespace = 'kube-system';
export const leaseName = 'kube-controller-manager';

/** Upstream's defaults: --leader-elect-lease-duration 15s, --leader-elect-retry-period 2s. */
export const leaseDurationSeconds = 15;
export const retryPeriodMs = 2000;

const microTime = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

export class LeaseLock {
  private observed: { record: string; at: number } | undefined;

  /** `leases`: the coordination.k8s.io leases of a client acting as kube-controller-manager. */
  constructor(private readonly leases: ResourceClient, readonly identity: string) {}

  /** One try of upstream's tryAcquireOrRenew; true while this replica holds the Lease. */
  async tryAcquireOrRenew(now = Date.now()): Promise<boolean> {
    let current: KubeObject | undefined;
    try {
      current = await this.leases.get(leaseNamespace, leaseName);
    } catch (err) {
      if (!(err instanceof StatusError && err.code === 404)) throw err;
    }
    if (!current) {
      return this.leases.create(leaseNamespace, {
        apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: leaseName, namespace: leaseNamespace },
        spec: { holderIdentity: this.identity, leaseDurationSeconds, acquireTime: microTime(now), renewTime: microTime(now), leaseTransitions: 0 },
      }).then(() => true, conflictIsFalse);
    }
    const spec = isPlainObject(current.spec) ? current.spec : {};
    const record = JSON.stringify(spec);
    if (this.observed?.record !== record) this.observed = { record, at: now };
    const holder = typeof spec.holderIdentity === 'string' ? spec.holderIdentity : '';
    const duration = typeof spec.leaseDurationSeconds === 'number' ? spec.leaseDurationSeconds : leaseDurationSeconds;
    const mine = holder === this.identity;
    // Our replicas share a clock, so the holder's renewTime may end the wait sooner than
    // observing the record would (a crashed replica's Lease after its last renewal).
    const renewed = typeof spec.renewTime === 'string' ? Date.parse(spec.renewTime) : NaN;
    const expired = this.observed.at + duration * 1000 <= now || (!Number.isNaN(renewed) && renewed + duration * 1000 <= now);
    if (holder && !mine && !expired) return false;
    const transitions = typeof spec.leaseTransitions === 'number' ? spec.leaseTransitions : 0;
    const next = {
      ...spec, holderIdentity: this.identity, leaseDurationSeconds, renewTime: microTime(now),
      ...(mine ? {} : { acquireTime: microTime(now), leaseTransitions: transitions + 1 }),
    };
    try {
      await this.leases.update(leaseNamespace, { ...current, spec: next });
    } catch (err) {
      return conflictIsFalse(err);
    }
    this.observed = { record: JSON.stringify(next), at: now };
    return true;
  }

  /** Gives the Lease up on a clean stop, as upstream's ReleaseOnCancel. */
  async release(): Promise<void> {
    const current = await this.leases.get(leaseNamespace, leaseName).catch(() => undefined);
    const spec = current && isPlainObject(current.spec) ? current.spec : undefined;
    if (!current || spec?.holderIdentity !== this.identity) return;
    await this.leases.update(leaseNamespace, { ...current, spec: { ...spec, holderIdentity: '', leaseDurationSeconds: 1 } }).catch(() => undefined);
  }
}

function conflictIsFalse(err: unknown): false {
  if (err instanceof StatusError && (err.code === 409 || err.code === 404)) return false;
  throw err;
}
