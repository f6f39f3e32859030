// A linearizability checker for the chaos harness (Wing & Gong search with Lowe's
// memoization, as Porcupine does), partitioned by object key.
//
// Model: per key, a register holding the object's current version or "absent". Every
// write in the workload puts a unique token in the object's content, so a version is named
// by its token; resourceVersions are bound to tokens from every observation (a token seen
// with two resourceVersions, or a resourceVersion with two tokens, is itself a violation).
//
// Operations carry an invocation and a completion time. An indeterminate operation (timeout,
// connection reset, 5xx) has completion +Infinity: it may take effect at any point after its
// invocation, or never. A list is checked per key as one read of each key it covers
// (a necessary condition of the list's atomic snapshot, not the whole of it).

export type OpKind =
  | 'create' // ok: absent -> token; 409: present
  | 'get' // ok: observes token; 404: absent
  | 'update' // with precondition rv. ok: present & rv==P -> token; 409: present & rv!=P; 404: absent
  | 'updateUncond' // ok: present -> token; 404: absent
  | 'patch' // ok: present -> token; 404: absent
  | 'delete' // with precondition rv (optional). ok: present & rv==P -> absent; 409: rv!=P; 404: absent
  | 'read'; // one key's entry in a list: observed token or absent

export type Outcome = 'ok' | 'fail' | 'unknown';

export interface Version {
  rv: string;
  token: string;
}

export interface Op {
  id: number;
  key: string;
  kind: OpKind;
  /** Invocation time (ms, monotonic). */
  inv: number;
  /** Completion time; Infinity for an indeterminate outcome. */
  cmp: number;
  outcome: Outcome;
  /** HTTP status of a definite failure. */
  status?: number;
  /** resourceVersion precondition (update, delete). */
  precondition?: string;
  /** Token a write tries to store. */
  token?: string;
  /** ok write: the version written. */
  written?: Version;
  /** ok get/read/delete: what was observed (null: absent). Delete reports the object it removed. */
  observed?: Version | null;
  client?: string;
}

export interface KeyResult {
  key: string;
  ok: boolean;
  /** True when the search budget ran out (neither proven nor refuted). */
  unknown?: boolean;
  ops: number;
  explanation?: string;
}

export interface CheckResult {
  ok: boolean;
  violations: KeyResult[];
  unknown: KeyResult[];
  keys: number;
  /** Inconsistent token/resourceVersion bindings (each a violation). */
  bindingErrors: string[];
}

/** Absent, or the token of the current version. */
type State = string | null;

interface Bindings {
  rvOfToken: Map<string, string>;
  errors: string[];
}

function bind(history: Op[]): Bindings {
  const rvOfToken = new Map<string, string>();
  const tokenOfRv = new Map<string, string>();
  const errors: string[] = [];
  const see = (v: Version | null | undefined, op: Op): void => {
    if (!v) return;
    const rv = rvOfToken.get(v.token);
    if (rv !== undefined && rv !== v.rv) errors.push(`op ${op.id} (${op.kind} ${op.key}): token ${v.token} seen at resourceVersion ${rv} and ${v.rv}`);
    const t = tokenOfRv.get(v.rv);
    if (t !== undefined && t !== v.token) errors.push(`op ${op.id} (${op.kind} ${op.key}): resourceVersion ${v.rv} holds token ${t} and ${v.token}`);
    rvOfToken.set(v.token, v.rv);
    tokenOfRv.set(v.rv, v.token);
  };
  for (const op of history) {
    if (op.outcome !== 'ok') continue;
    see(op.written, op);
    if (op.kind !== 'delete') see(op.observed, op); // a delete answers the removed object; its resourceVersion is not bound here
    if (op.written && op.token !== undefined && op.written.token !== op.token) {
      errors.push(`op ${op.id} (${op.kind} ${op.key}): wrote token ${op.token} but the answer holds ${op.written.token}`);
    }
  }
  return { rvOfToken, errors };
}

/**
 * One step of the model: the next state, or undefined when the operation cannot take
 * effect here with its recorded outcome. `applied` says whether an indeterminate op is being
 * applied (taking effect) — indeterminate ops are only linearized when they take effect.
 */
function step(op: Op, s: State, b: Bindings): State | undefined {
  const rvOf = (t: string): string | undefined => b.rvOfToken.get(t);
  const matches = (): boolean => s !== null && (op.precondition === undefined || rvOf(s) === op.precondition);
  if (op.outcome === 'unknown') {
    // Took effect: the same transition as success, whatever the answer would have been.
    switch (op.kind) {
      case 'create': return s === null ? op.token! : undefined;
      case 'update': case 'updateUncond': case 'patch': return matches() ? op.token! : undefined;
      case 'delete': return matches() ? null : undefined;
      default: return s; // reads have no effect
    }
  }
  if (op.outcome === 'ok') {
    switch (op.kind) {
      case 'create': return s === null ? op.written!.token : undefined;
      case 'update': case 'updateUncond': case 'patch': return matches() ? op.written!.token : undefined;
      case 'delete': {
        if (!matches()) return undefined;
        if (op.observed && op.observed.token !== s) return undefined;
        return null;
      }
      case 'get': case 'read': {
        const o = op.observed ?? null;
        return (o === null ? s === null : s === o.token) ? s : undefined;
      }
    }
  }
  // Definite failure: no effect; the status constrains the state.
  switch (op.status) {
    case 404: return s === null ? s : undefined;
    case 409:
      if (op.kind === 'create') return s !== null ? s : undefined;
      if (op.kind === 'update' || op.kind === 'delete') {
        if (op.precondition === undefined) return s;
        return s !== null && rvOf(s) !== op.precondition ? s : undefined;
      }
      return s;
    default: return s;
  }
}

/** Ops that cannot constrain anything (definite failures with no state meaning) are dropped. */
function relevant(op: Op): boolean {
  if (op.outcome === 'unknown') return op.kind !== 'get' && op.kind !== 'read';
  if (op.outcome === 'fail') return op.status === 404 || op.status === 409;
  return true;
}

export function checkKey(key: string, ops: Op[], b: Bindings, budget = 2_000_000): KeyResult {
  const hist = ops.filter(relevant).sort((x, y) => x.inv - y.inv);
  const n = hist.length;
  const finite = hist.filter((o) => o.cmp !== Infinity).length;
  if (finite === 0) return { key, ok: true, ops: n };
  // Iterative DFS over (linearized set, state) with memoization.
  const done = new Uint8Array(n);
  const seen = new Set<string>();
  let explored = 0;
  let best = 0;
  let bestPrefix: number[] = [];
  const order: number[] = [];
  const frames: Array<{ cands: number[]; i: number; s: State }> = [];
  let linearizedFinite = 0;
  const candidates = (): number[] => {
    let minCmp = Infinity;
    for (let i = 0; i < n; i++) if (!done[i] && hist[i]!.cmp < minCmp) minCmp = hist[i]!.cmp;
    const out: number[] = [];
    for (let i = 0; i < n; i++) {
      if (done[i]) continue;
      if (hist[i]!.inv > minCmp) break; // sorted by invocation
      out.push(i);
    }
    return out;
  };
  frames.push({ cands: candidates(), i: 0, s: null });
  while (frames.length > 0) {
    if (++explored > budget) return { key, ok: false, unknown: true, ops: n, explanation: `search budget of ${budget} steps exhausted` };
    const f = frames[frames.length - 1]!;
    if (f.i >= f.cands.length) {
      frames.pop();
      const last = order.pop();
      if (last !== undefined) {
        done[last] = 0;
        if (hist[last]!.cmp !== Infinity) linearizedFinite--;
      }
      continue;
    }
    const c = f.cands[f.i++]!;
    const next = step(hist[c]!, f.s, b);
    if (next === undefined) continue;
    done[c] = 1;
    if (hist[c]!.cmp !== Infinity) linearizedFinite++;
    if (linearizedFinite === finite) return { key, ok: true, ops: n };
    const memo = `${next ?? '\u0000'}|${Buffer.from(done).toString('base64')}`;
    if (seen.has(memo)) {
      done[c] = 0;
      if (hist[c]!.cmp !== Infinity) linearizedFinite--;
      continue;
    }
    seen.add(memo);
    order.push(c);
    if (order.length > best) { best = order.length; bestPrefix = [...order]; }
    frames.push({ cands: candidates(), i: 0, s: next });
  }
  const stuck = hist.filter((_, i) => !bestPrefix.includes(i) && hist[i]!.cmp !== Infinity).slice(0, 3);
  return {
    key, ok: false, ops: n,
    explanation: `no linearization; longest linearizable prefix ${best} of ${n} ops; first ops left: ${stuck.map(describe).join('; ')}`,
  };
}

export function describe(op: Op): string {
  const v = (x: Version | null | undefined): string => (x === null ? 'absent' : x ? `${x.token}@${x.rv}` : '-');
  const res = op.outcome === 'ok' ? `ok ${op.written ? v(op.written) : v(op.observed)}` : op.outcome === 'fail' ? `fail ${op.status}` : 'indeterminate';
  return `#${op.id} ${op.client ?? ''} ${op.kind}${op.precondition ? `[rv=${op.precondition}]` : ''}${op.token ? `(${op.token})` : ''} [${op.inv.toFixed(1)}, ${op.cmp === Infinity ? 'inf' : op.cmp.toFixed(1)}] -> ${res}`;
}

export function checkHistory(history: Op[], opts: { budget?: number } = {}): CheckResult {
  const b = bind(history);
  const byKey = new Map<string, Op[]>();
  for (const op of history) {
    let l = byKey.get(op.key);
    if (!l) byKey.set(op.key, (l = []));
    l.push(op);
  }
  const violations: KeyResult[] = [];
  const unknown: KeyResult[] = [];
  for (const [key, ops] of byKey) {
    const r = checkKey(key, ops, b, opts.budget);
    if (r.unknown) unknown.push(r);
    else if (!r.ok) violations.push(r);
  }
  return { ok: violations.length === 0 && b.errors.length === 0, violations, unknown, keys: byKey.size, bindingErrors: b.errors };
}
