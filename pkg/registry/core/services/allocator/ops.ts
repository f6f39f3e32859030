// One service write's claims and releases (upstream: the service REST's transactions and
// PortAllocationOperation). Claims happen at once so that no other write can take the
// same item; releases wait for the commit, so a failed write gives nothing away.
// A dry run claims nothing: it checks requested items and picks free ones.
import { AllocatedError, RangeFullError, type EtcdRangeAllocator } from './etcd.js';

interface Claim { allocator: EtcdRangeAllocator; index: number }

export class AllocationOp {
  private readonly claimed: Claim[] = [];
  private readonly deferred: Claim[] = [];
  /** Items this dry run already picked, so one dry-run object never gets one item twice. */
  private readonly picked = new Set<string>();

  constructor(readonly dryRun: boolean, private readonly owner: string) {}

  async allocate(allocator: EtcdRangeAllocator, index: number): Promise<void> {
    if (this.dryRun) {
      const k = this.pickKey(allocator, index);
      if (this.picked.has(k) || await allocator.isAllocated(index)) throw new AllocatedError(allocator.allocatedMessage);
      this.picked.add(k);
      return;
    }
    await allocator.allocate(index, this.owner);
    this.claimed.push({ allocator, index });
  }

  async allocateNext(allocator: EtcdRangeAllocator): Promise<number> {
    if (this.dryRun) {
      const index = await allocator.nextFree();
      if (index === undefined) throw new RangeFullError();
      this.picked.add(this.pickKey(allocator, index));
      return index;
    }
    const index = await allocator.allocateNext(this.owner);
    this.claimed.push({ allocator, index });
    return index;
  }

  releaseDeferred(allocator: EtcdRangeAllocator, index: number): void {
    this.deferred.push({ allocator, index });
  }

  /** The write happened: what the old object held and the new one does not is given back. */
  async commit(): Promise<void> {
    if (this.dryRun) return;
    await releaseAll(this.deferred.splice(0));
    this.claimed.length = 0;
  }

  /** The write failed: this operation's claims are given back; deferred releases are dropped. */
  async revert(): Promise<void> {
    this.deferred.length = 0;
    if (this.dryRun) return;
    await releaseAll(this.claimed.splice(0));
  }

  private pickKey(allocator: EtcdRangeAllocator, index: number): string {
    return `${allocator.range.toString()}#${index}`;
  }
}

async function releaseAll(claims: Claim[]): Promise<void> {
  // A release that fails leaves a leak the repair loop reclaims; it must not fail the request.
  await Promise.all(claims.map((c) => c.allocator.release(c.index).catch(() => undefined)));
}
