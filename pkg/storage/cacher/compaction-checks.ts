// Whether etcd has compacted away the history after a revision, asked of etcd on behalf of
// every watch the cache serves from a revision (a compaction by anyone, etcdctl included,
// is answered as etcd would) and of continue pages while what the compactors wrote is not
// known (KnownCompaction below answers them otherwise), but one question at a time: callers that
// ask while a question is out wait for the next one, which answers for all of them. A
// question sent after a caller asked is as fresh as one of its own, and compaction only
// moves forward, so the oldest revision asked answers for the newer ones when etcd still
// holds it; when it does not, the newer ones are asked on their own (rare). A thousand
// watches opened at once cost a handful of etcd round trips instead of a thousand.

/**
 * What is known of etcd's compaction without asking it (etcd/compact-revision.ts: the
 * compactors' compact_rev_key, watched). `historyCompacted(rev)` answers as the question
 * would (whether the history after `rev` is gone), or undefined when that knowledge is not
 * current and etcd must be asked.
 */
export interface KnownCompaction {
  historyCompacted(revision: number): boolean | undefined;
}

export class CompactionChecks {
  private waiting: Array<{ rev: number; resolve: (compacted: boolean) => void; reject: (err: unknown) => void }> = [];
  private asking = false;

  /** `compactedAfter(rev)`: one etcd round trip saying whether the history after `rev` is gone. */
  constructor(private readonly compactedAfter: (rev: number) => Promise<boolean>) {}

  /** Whether the history after `rev` is compacted, as etcd answers some time after this call. */
  compacted(rev: number): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ rev, resolve, reject });
      if (!this.asking) this.ask();
    });
  }

  private ask(): void {
    const batch = this.waiting;
    this.waiting = [];
    this.asking = batch.length > 0;
    if (!this.asking) return;
    let oldest = batch[0]!.rev;
    for (const w of batch) oldest = Math.min(oldest, w.rev);
    this.compactedAfter(oldest).then((gone) => {
      for (const w of batch) {
        if (!gone) w.resolve(false);
        else if (w.rev === oldest) w.resolve(true);
        else this.compactedAfter(w.rev).then(w.resolve, w.reject);
      }
    }, (err: unknown) => {
      for (const w of batch) w.reject(err);
    }).finally(() => this.ask());
  }
}
