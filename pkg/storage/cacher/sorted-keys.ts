// A watch cache's keys in etcd's (byte) order, kept as blocks of at most a few hundred
// keys: an insert or removal moves at most one block's keys (and, when a block splits or
// empties, the list of blocks), where one sorted array moved half of every key in the
// resource. Reads reach keys by position (a list reads a slice; a continue page counts
// the keys left), so each block's starting position is kept too, settled lazily: writes
// come far more often than reads, and one pass over the blocks settles many writes.

/** Read access to keys in order, by position; valid until the next insert or removal. */
export interface KeyOrder {
  readonly size: number;
  /** The key at position `i` (0 <= i < size); cheapest when positions are read in order. */
  at(i: number): string;
  /** The position of the first key not before `key` (etcd orders keys by bytes; ours are ASCII). */
  lowerBound(key: string): number;
}

/** Past this a block splits in two; an appended key past the last block's end starts a new one. */
const maxBlock = 512;
/** A block this small after a removal joins a neighbour that has room for it. */
const minBlock = maxBlock / 4;

export class SortedKeys implements KeyOrder {
  private blocks: string[][] = [];
  /** firsts[b] = blocks[b][0], apart, so finding a key's block reads one array of keys. */
  private firsts: string[] = [];
  /** starts[b]: the position of blocks[b][0]; correct for blocks before `settledUpTo`. */
  private starts: number[] = [];
  private settledUpTo = 0;
  private count = 0;
  /** The block the last at() read, so reading in order finds each key without a search. */
  private lastBlock = 0;

  get size(): number {
    return this.count;
  }

  clear(): void {
    this.blocks = [];
    this.firsts = [];
    this.starts = [];
    this.settledUpTo = 0;
    this.count = 0;
    this.lastBlock = 0;
  }

  /** Adds `key`; false when it is there already. */
  insert(key: string): boolean {
    const blocks = this.blocks;
    if (blocks.length === 0) {
      this.appendBlock(key);
      this.count = 1;
      return true;
    }
    const b = this.blockFor(key);
    const block = blocks[b];
    const i = lowerBoundIn(block, key);
    if (block[i] === key) return false;
    if (i === block.length && block.length >= maxBlock && b === blocks.length - 1) {
      // Keys listed or created in order fill blocks rather than leave them half full.
      this.appendBlock(key);
    } else {
      block.splice(i, 0, key);
      if (i === 0) this.firsts[b] = key;
      if (block.length > maxBlock) {
        const upper = block.splice(maxBlock >>> 1);
        blocks.splice(b + 1, 0, upper);
        this.firsts.splice(b + 1, 0, upper[0]);
        this.starts.push(0);
      }
    }
    this.count++;
    this.unsettle(b + 1);
    return true;
  }

  /** Removes `key`; false when it was not there. */
  delete(key: string): boolean {
    if (this.blocks.length === 0) return false;
    const b = this.blockFor(key);
    const block = this.blocks[b];
    const i = lowerBoundIn(block, key);
    if (block[i] !== key) return false;
    block.splice(i, 1);
    this.count--;
    if (block.length === 0) {
      this.blocks.splice(b, 1);
      this.firsts.splice(b, 1);
      this.starts.pop();
    } else if (i === 0) {
      this.firsts[b] = block[0];
    }
    if (block.length > 0 && block.length < minBlock) this.joinNeighbour(b);
    this.unsettle(b);
    return true;
  }

  at(i: number): string {
    let b = this.lastBlock;
    if (b < this.settledUpTo && b < this.blocks.length) {
      const off = i - this.starts[b];
      if (off >= 0 && off < this.blocks[b].length) return this.blocks[b][off];
      // The next block: reading on in order.
      if (off === this.blocks[b].length && b + 1 < this.blocks.length) {
        this.settle(b + 1);
        this.lastBlock = b + 1;
        return this.blocks[b + 1][0];
      }
    }
    b = this.blockAt(i);
    this.lastBlock = b;
    return this.blocks[b][i - this.starts[b]];
  }

  lowerBound(key: string): number {
    if (this.blocks.length === 0) return 0;
    const b = this.blockFor(key);
    const block = this.blocks[b];
    const i = lowerBoundIn(block, key);
    this.settle(b);
    return this.starts[b] + i;
  }

  /** Every key in order (tests, and a caller that reads them all). */
  *[Symbol.iterator](): IterableIterator<string> {
    for (const block of this.blocks) yield* block;
  }

  /** A new last block holding `key` alone (its start is settled when read). */
  private appendBlock(key: string): void {
    this.blocks.push([key]);
    this.firsts.push(key);
    this.starts.push(0);
  }

  /** The block `key` belongs in: the last whose first key is not after it (the first block when none). */
  private blockFor(key: string): number {
    const firsts = this.firsts;
    let lo = 1;
    let hi = firsts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (firsts[mid] <= key) lo = mid + 1; else hi = mid;
    }
    return lo - 1;
  }

  /** The block holding position `i`. */
  private blockAt(i: number): number {
    this.settle(this.blocks.length - 1);
    const starts = this.starts;
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (starts[mid] <= i) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  /** Makes starts[0..b] correct. */
  private settle(b: number): void {
    let k = this.settledUpTo;
    if (k > b) return;
    const { blocks, starts } = this;
    if (k === 0) { starts[0] = 0; k = 1; }
    for (; k <= b; k++) starts[k] = starts[k - 1] + blocks[k - 1].length;
    this.settledUpTo = b + 1;
  }

  /** Block `b` onward may have moved: their starts are settled again when next read. */
  private unsettle(b: number): void {
    if (b < this.settledUpTo) this.settledUpTo = b;
  }

  /** Merges the small block `b` into a neighbour with room for it. */
  private joinNeighbour(b: number): void {
    const blocks = this.blocks;
    const block = blocks[b];
    if (b + 1 < blocks.length && blocks[b + 1].length + block.length <= maxBlock >>> 1) {
      blocks[b] = block.concat(blocks[b + 1]);
      blocks.splice(b + 1, 1);
      this.firsts.splice(b + 1, 1);
    } else if (b > 0 && blocks[b - 1].length + block.length <= maxBlock >>> 1) {
      blocks[b - 1] = blocks[b - 1].concat(block);
      blocks.splice(b, 1);
      this.firsts.splice(b, 1);
    } else {
      return;
    }
    this.starts.pop();
  }
}

/** The first index of sorted `keys` not before `key`. */
export function lowerBoundIn(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1; else hi = mid;
  }
  return lo;
}
