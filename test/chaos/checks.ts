// Checks after a chaos run: linearizability per key, no lost acknowledged write (against
// etcd's own history), watch completeness (against the same history), no unexpected 5xx.
import { checkHistory, describe, type CheckResult } from './linearizability.js';
import type { CallRecord, EtcdEvent, WatchRecord } from './workload.js';

export interface Findings {
  operations: number;
  acknowledged: number;
  indeterminate: number;
  linearizability: CheckResult;
  lostWrites: string[];
  watchGaps: string[];
  watchDuplicates: string[];
  watchOther: string[];
  unexpected5xx: string[];
  /** Acknowledged writes whose resourceVersion is not above one acknowledged before they began. */
  revisionOrder: string[];
  /** Total count of violations of every kind. */
  violations: number;
}

export interface CheckInput {
  calls: CallRecord[];
  watches: WatchRecord[];
  history: EtcdEvent[];
  /** Highest revision compacted during the run ('0' when none). */
  compactedRevision: string;
  /** Time windows (performance.now) in which etcd had no quorum: 503/504 are allowed there. */
  noQuorum?: Array<[number, number]>;
  /**
   * Windows from a replica's kill (or restart) until its /readyz answers: a replica listens
   * before etcd and its bootstrap answer, as upstream's does, and says so with a 503
   * ("the server is starting"), which is allowed there and nowhere else.
   */
  starting?: Array<[number, number]>;
}

const startingMessage = 'the server is starting';
/**
 * A no-quorum window also covers calls already on their way to etcd when the fault began:
 * a write in flight when the leader was killed has an unknown outcome (a 504: etcd timed
 * it out, or its connection was reset), though it was sent a moment before the kill.
 */
const inFlightMs = 2000;

const big = (s: string): bigint => BigInt(s);

export function runChecks(input: CheckInput): Findings {
  const { calls, watches, history } = input;
  const lin = checkHistory(calls.filter((c) => c.key !== '(list)'));

  // Lost writes: every acknowledged write is in etcd's history.
  const byKeyRev = new Map<string, EtcdEvent>();
  for (const e of history) byKeyRev.set(`${e.name}@${e.rev}`, e);
  const lostWrites: string[] = [];
  for (const c of calls) {
    if (c.outcome !== 'ok') continue;
    if (c.kind === 'create' || c.kind === 'update' || c.kind === 'updateUncond' || c.kind === 'patch') {
      if (!c.written) { lostWrites.push(`${describe(c)}: acknowledged without a resourceVersion and token`); continue; }
      const e = byKeyRev.get(`${c.key}@${c.written.rv}`);
      if (!e || e.type === 'DELETED') lostWrites.push(`${describe(c)}: no write of ${c.key} at revision ${c.written.rv} in etcd`);
      else if (!e.value.includes(Buffer.from(c.written.token))) lostWrites.push(`${describe(c)}: etcd's value at revision ${c.written.rv} does not hold ${c.written.token}`);
    } else if (c.kind === 'delete') {
      const pre = c.precondition ? big(c.precondition) : 0n;
      const found = history.some((e) => e.name === c.key && e.type === 'DELETED' && big(e.rev) > pre);
      if (!found) lostWrites.push(`${describe(c)}: no delete of ${c.key} after revision ${c.precondition} in etcd`);
    }
  }

  // Watch completeness.
  const watchGaps: string[] = [];
  const watchDuplicates: string[] = [];
  const watchOther: string[] = [];
  const compacted = big(input.compactedRevision);
  for (const w of watches) {
    for (const [si, seg] of w.segments.entries()) {
      if (seg.afterExpired && (compacted === 0n || big(seg.expiredAt ?? '0') >= compacted)) {
        watchOther.push(`watch ${w.id}: 410 Expired resuming from ${seg.expiredAt} although etcd was compacted only up to ${input.compactedRevision}`);
      }
      const from = big(seg.from);
      // A segment is checked up to its last delivered event; the last one up to the end of
      // etcd's history (the workload lets the watches catch up before stopping them).
      const last = si === w.segments.length - 1;
      let to = seg.events.length > 0 ? big(seg.events[seg.events.length - 1]!.rv) : from;
      if (last && history.length > 0 && big(history[history.length - 1]!.rev) > to) to = big(history[history.length - 1]!.rev);
      const expected = history.filter((e) => big(e.rev) > from && big(e.rev) <= to);
      const seen = new Set<string>();
      let prev = from;
      for (const d of seg.events) {
        const id = `${d.name}@${d.rv}`;
        if (seen.has(id)) watchDuplicates.push(`watch ${w.id} segment ${si}: ${d.type} ${id} delivered twice`);
        seen.add(id);
        if (big(d.rv) <= prev && !seen.has(`${id}#ooo`)) watchOther.push(`watch ${w.id} segment ${si}: ${d.type} ${id} out of order (after ${prev})`);
        if (big(d.rv) > prev) prev = big(d.rv);
        const e = byKeyRev.get(id);
        if (!e) watchOther.push(`watch ${w.id} segment ${si}: ${d.type} ${id} is not in etcd's history`);
        else if (e.type !== d.type) watchOther.push(`watch ${w.id} segment ${si}: ${id} delivered as ${d.type}, etcd's event is ${e.type}`);
      }
      for (const e of expected) {
        if (!seen.has(`${e.name}@${e.rev}`)) watchGaps.push(`watch ${w.id} segment ${si} (from ${seg.from}): missed ${e.type} ${e.name}@${e.rev}`);
      }
    }
  }

  const revisionOrder = checkRevisionOrder(calls);

  // 5xx outside a no-quorum window.
  const unexpected5xx: string[] = [];
  for (const c of calls) {
    if (c.httpStatus < 500) continue;
    const within = (ws: Array<[number, number]> | undefined, lead = 0): boolean => (ws ?? []).some(([a, b]) => c.inv >= a - lead && c.inv <= b);
    const allowed = ((c.httpStatus === 503 || c.httpStatus === 504) && within(input.noQuorum, inFlightMs))
      || (c.httpStatus === 503 && (c.error ?? '').includes(startingMessage) && within(input.starting));
    if (!allowed) unexpected5xx.push(`${describe(c)} via ${c.url}: HTTP ${c.httpStatus} ${c.error ?? ''}`);
  }

  const ops = calls.filter((c) => c.kind !== 'read');
  const violations = lin.violations.length + lin.bindingErrors.length + lostWrites.length + watchGaps.length
    + watchDuplicates.length + watchOther.length + unexpected5xx.length + revisionOrder.length;
  const lists = calls.filter((c) => c.kind === 'read');
  const listCalls = new Set(lists.map((c) => `${c.client}@${c.inv}`));
  const listOk = new Set(lists.filter((c) => c.outcome === 'ok').map((c) => `${c.client}@${c.inv}`));
  return {
    operations: ops.length + listCalls.size,
    acknowledged: ops.filter((c) => c.outcome === 'ok').length + listOk.size,
    indeterminate: ops.filter((c) => c.outcome === 'unknown').length + (listCalls.size - listOk.size),
    linearizability: lin,
    lostWrites, watchGaps, watchDuplicates, watchOther, unexpected5xx, revisionOrder,
    violations,
  };
}

/**
 * etcd revisions are global and increase with commit order: a write acknowledged before
 * another write began (on any key) has a lower resourceVersion.
 */
export function checkRevisionOrder(calls: CallRecord[]): string[] {
  const writes = calls.filter((c) => c.outcome === 'ok' && c.written && c.kind !== 'read' && c.kind !== 'get' && c.kind !== 'delete');
  const byCmp = [...writes].sort((a, b) => a.cmp - b.cmp);
  const byInv = [...writes].sort((a, b) => a.inv - b.inv);
  const out: string[] = [];
  let j = 0;
  let maxRv = -1n;
  let maxOp: CallRecord | undefined;
  for (const b of byInv) {
    while (j < byCmp.length && byCmp[j]!.cmp < b.inv) {
      const rv = big(byCmp[j]!.written!.rv);
      if (rv > maxRv) { maxRv = rv; maxOp = byCmp[j]; }
      j++;
    }
    if (maxOp && big(b.written!.rv) <= maxRv) out.push(`${describe(b)} began after ${describe(maxOp)} was acknowledged, with a resourceVersion not above it`);
  }
  return out;
}
