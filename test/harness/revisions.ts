/**
 * The revision of a delete seen in a watch event, checked to lie after the last write the test
 * made to the key and no later than etcd's revision once the event arrived. Tests may not
 * assume the delete is the very next revision: the other mocha worker writes to the same etcd.
 */
export function deleteRevisionWithin(change: string, afterRev: string | number | undefined, upTo: string | number): string {
  const m = /^DELETED .*@(\d+)$/.exec(change);
  if (!m) throw new Error(`expected a DELETED change with a revision, got ${JSON.stringify(change)}`);
  const rev = Number(m[1]);
  if (!(rev > Number(afterRev) && rev <= Number(upTo))) {
    throw new Error(`delete at revision ${rev} is not after ${afterRev} and at most ${upTo}`);
  }
  return m[1];
}
