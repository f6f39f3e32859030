// Background controllers run in every replica but act in one: the replicas campaign
// in an etcd election (lease-backed, so a dead leader's lease expires and another
// replica takes over within the TTL) and only the leader starts them, once it also
// holds upstream's kube-controller-manager Lease (leaselock.ts).
import type { Namespace } from 'etcd3';
import type { Logger } from 'pino';
import { retryPeriodMs, type LeaseLock } from './leaselock.js';

export interface Controller {
  readonly name: string;
  /** Starts work; the returned function stops it. */
  start(): Promise<() => void> | (() => void);
}

export interface ControllerManagerOptions {
  /**
   * Where the election's keys go: etcd3 keeps them under `election/<name>/` of the client
   * it is given, so a client confined to --etcd-prefix (a namespace of it) keeps them
   * inside the prefix, where an etcd user confined to the prefix may write them.
   */
  client: Pick<Namespace, 'election'>;
  /** Election name; replicas of one cluster must share it. */
  electionName: string;
  /** Identity written as the election value (for logs and debugging). */
  identity: string;
  /** Lease TTL in seconds: how long a dead leader blocks takeover. */
  leaseTTLSeconds?: number;
  log: Logger;
  /** When set, the elected replica also holds upstream's Lease before starting controllers. */
  lease?: LeaseLock;
  /** What the log calls the loops this manager runs (default "controllers"). */
  subject?: string;
  /**
   * The controllers' own informers: they list and watch from when this replica first
   * leads, as upstream's controller manager starts its informers once elected, so a
   * replica that does not lead never holds their caches.
   */
  informers?: { start(): void };
}

/** Upstream's --leader-elect-renew-deadline: a holder that cannot renew this long stops. */
const renewDeadlineMs = 10_000;

export class ControllerManager {
  private controllers: Controller[] = [];
  private stops: Array<() => void> = [];
  private stopped = false;
  private leading = false;
  private resign: (() => Promise<void>) | undefined;
  /** Bumped per campaign, so a lease loop of an earlier term ends. */
  private term = 0;
  private holdingLease = false;

  constructor(private readonly o: ControllerManagerOptions) {}

  register(c: Controller): void {
    this.controllers.push(c);
  }

  isLeader(): boolean {
    return this.leading;
  }

  start(): void {
    void this.campaignLoop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const heldLease = this.holdingLease;
    this.stopControllers();
    if (heldLease) await this.o.lease?.release().catch(() => undefined);
    await this.resign?.().catch(() => undefined);
  }

  private async campaignLoop(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.campaignOnce();
      } catch (err) {
        this.o.log.warn({ err: (err as Error).message }, 'leader election failed; retrying');
      }
      this.term++;
      this.stopControllers();
      if (!this.stopped) await new Promise((r) => setTimeout(r, 1000));
    }
  }

  private async campaignOnce(): Promise<void> {
    const election = this.o.client.election(this.o.electionName, this.o.leaseTTLSeconds ?? 10);
    const campaign = election.campaign(this.o.identity);
    this.resign = () => campaign.resign();
    await new Promise<void>((resolve, reject) => {
      campaign.on('elected', () => {
        if (this.stopped) { void campaign.resign(); resolve(); return; }
        this.leading = true;
        this.o.log.info({ election: this.o.electionName, identity: this.o.identity }, `became leader; starting ${this.o.subject ?? 'controllers'}`);
        const term = ++this.term;
        if (this.o.lease) void this.leadWithLease(this.o.lease, () => !this.stopped && this.term === term);
        else void this.startControllers();
      });
      campaign.on('error', (err: Error) => {
        this.leading = false;
        reject(err);
      });
    });
  }

  /** Runs controllers only while this replica holds the Lease; renews it every retry period. */
  private async leadWithLease(lease: LeaseLock, current: () => boolean): Promise<void> {
    let lastRenew = 0;
    while (current()) {
      let held: boolean | undefined;
      try {
        held = await lease.tryAcquireOrRenew();
      } catch (err) {
        this.o.log.warn({ lease: 'kube-system/kube-controller-manager', err: (err as Error).message }, 'failed to renew the leader lease');
      }
      if (!current()) break;
      if (held) {
        lastRenew = Date.now();
        if (!this.holdingLease) {
          this.holdingLease = true;
          this.o.log.info({ lease: 'kube-system/kube-controller-manager', identity: lease.identity }, 'acquired the leader lease');
          await this.startControllers();
        }
      } else if (this.holdingLease && (held === false || Date.now() - lastRenew > renewDeadlineMs)) {
        this.o.log.warn({ lease: 'kube-system/kube-controller-manager' }, 'lost the leader lease; stopping controllers');
        this.holdingLease = false;
        this.stopRunning();
      }
      await new Promise((r) => setTimeout(r, retryPeriodMs));
    }
  }

  private async startControllers(): Promise<void> {
    this.o.informers?.start();
    for (const c of this.controllers) {
      try {
        this.stops.push(await c.start());
      } catch (err) {
        this.o.log.error({ controller: c.name, err: (err as Error).message }, 'controller failed to start');
      }
    }
  }

  private stopControllers(): void {
    this.leading = false;
    this.holdingLease = false;
    this.stopRunning();
  }

  private stopRunning(): void {
    for (const s of this.stops.splice(0)) {
      try { s(); } catch { /* stopping is best effort */ }
    }
  }
}
