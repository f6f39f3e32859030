// A range allocator kept in etcd as one key per allocated item
// (<prefix>/ranges/serviceips/<ip>, <prefix>/ranges/servicenodeports/<port>). An
// allocation is a create-if-absent transaction, so replicas allocating at once can never
// hand out one item twice, and nothing contends on a shared bitmap key.
import type { Etcd3 } from 'etcd3';
import { prefixEnd } from '../../../../storage/etcd/keys.js';
import type { Range } from './ranges.js';

export class RangeFullError extends Error {
  constructor() { super('range is full'); }
}

export class AllocatedError extends Error {
  constructor(message: string) { super(message); }
}

/** Random probes before reading the whole allocation to find a free item. */
const randomProbes = 8;
const maxScans = 16;

export interface Allocation {
  /** The etcd revision the entries were read at. */
  revision: string;
  /** label -> create revision of its key (tells one allocation from a later re-allocation). */
  entries: Map<string, string>;
}

export class EtcdRangeAllocator {
  private readonly prefix: Buffer;

  /** `allocatedMessage`: upstream's ErrAllocated text for this kind of item. */
  constructor(private readonly client: Etcd3, keyPrefix: string, readonly range: Range,
    readonly allocatedMessage: string) {
    this.prefix = Buffer.from(keyPrefix.endsWith('/') ? keyPrefix : `${keyPrefix}/`);
  }

  private key(index: number): Buffer {
    return Buffer.concat([this.prefix, Buffer.from(this.range.label(index))]);
  }

  /** Claims one index; AllocatedError when someone holds it. `owner` is kept for debugging. */
  async allocate(index: number, owner: string): Promise<void> {
    if (!(await this.tryClaim(index, owner))) throw new AllocatedError(this.allocatedMessage);
  }

  /** Claims any free index, preferring those above the range's offset; RangeFullError if none. */
  async allocateNext(owner: string): Promise<number> {
    const { size, offset } = this.range;
    if (size === 0) throw new RangeFullError();
    for (let i = 0; i < randomProbes; i++) {
      const index = pickBand(offset, size);
      if (await this.tryClaim(index, owner)) return index;
    }
    for (let scan = 0; scan < maxScans; scan++) {
      const index = await this.nextFree();
      if (index === undefined) throw new RangeFullError();
      if (await this.tryClaim(index, owner)) return index;
    }
    throw new RangeFullError();
  }

  /** A free index (random within the preferred band first) without claiming it; for dry runs too. */
  async nextFree(): Promise<number | undefined> {
    const taken = new Set((await this.read()).entries.keys());
    const { size, offset } = this.range;
    const free = (lo: number, hi: number): number | undefined => {
      if (hi <= lo) return undefined;
      const start = lo + Math.floor(Math.random() * (hi - lo));
      for (let k = 0; k < hi - lo; k++) {
        const i = lo + ((start - lo + k) % (hi - lo));
        if (!taken.has(this.range.label(i))) return i;
      }
      return undefined;
    };
    return free(offset, size) ?? free(0, Math.min(offset, size));
  }

  async isAllocated(index: number): Promise<boolean> {
    const res = await this.client.kv.range({ key: this.key(index), count_only: true });
    return Number(res.count) > 0;
  }

  async release(index: number): Promise<void> {
    await this.client.kv.deleteRange({ key: this.key(index) });
  }

  /** Releases a label only if its key is still the allocation seen at `createRevision`. */
  async releaseIfUnchanged(label: string, createRevision: string): Promise<boolean> {
    const key = Buffer.concat([this.prefix, Buffer.from(label)]);
    const res = await this.client.kv.txn({
      compare: [{ key, target: 'Create', result: 'Equal', create_revision: createRevision }],
      success: [{ request_delete_range: { key } }],
      failure: [],
    });
    return res.succeeded;
  }

  /** Every allocated label, read at `revision` (the newest when unset). */
  async read(revision?: string): Promise<Allocation> {
    const entries = new Map<string, string>();
    let start = this.prefix;
    const end = prefixEnd(this.prefix);
    let readRevision = revision;
    for (;;) {
      const res = await this.client.kv.range({ key: start, range_end: end, keys_only: true, limit: 5000, revision: readRevision });
      readRevision ??= res.header.revision;
      for (const kv of res.kvs) entries.set(kv.key.subarray(this.prefix.length).toString(), kv.create_revision);
      if (!res.more || res.kvs.length === 0) break;
      start = Buffer.concat([res.kvs[res.kvs.length - 1].key, Buffer.from([0])]);
    }
    return { revision: readRevision ?? '0', entries };
  }

  private async tryClaim(index: number, owner: string): Promise<boolean> {
    const key = this.key(index);
    const res = await this.client.kv.txn({
      compare: [{ key, target: 'Create', result: 'Equal', create_revision: 0 }],
      success: [{ request_put: { key, value: Buffer.from(owner) } }],
      failure: [],
    });
    return res.succeeded;
  }
}

/** A random index of the preferred band [offset, size), or of the whole range when that is empty. */
function pickBand(offset: number, size: number): number {
  const lo = offset < size ? offset : 0;
  return lo + Math.floor(Math.random() * (size - lo));
}
