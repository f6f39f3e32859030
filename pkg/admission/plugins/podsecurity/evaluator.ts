// Which checks a level and version runs, in upstream's order (baseline IDs sorted, then
// restricted IDs sorted), and how their results read as one message.
import type { LevelVersion } from './api.js';
import { hostChecks } from './checks/host.js';
import { privilegeChecks } from './checks/privileges.js';
import { profileChecks } from './checks/profiles.js';
import { userChecks } from './checks/users.js';
import { volumeChecks } from './checks/volumes.js';
import type { Check, CheckFn, CheckResult, Json, PodMeta, VersionedCheck } from './checks/types.js';

export const defaultChecks: Check[] = [...hostChecks, ...privilegeChecks, ...profileChecks, ...userChecks, ...volumeChecks];

export interface Aggregate { allowed: boolean; reasons: string[]; details: string[] }

export class Evaluator {
  /** Newer versions evaluate like the newest check implementation. */
  readonly maxVersion: number;
  private readonly baseline: CheckFn[][] = [];
  private readonly restricted: CheckFn[][] = [];

  constructor(checks: Check[] = defaultChecks) {
    this.maxVersion = Math.max(...checks.map((c) => c.versions[c.versions.length - 1].minimumVersion));
    const byID = (level: Check['level']) => checks.filter((c) => c.level === level).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const baselineChecks = byID('baseline');
    const restrictedChecks = byID('restricted');
    for (let v = 0; v <= this.maxVersion; v++) {
      const baselineAt = baselineChecks.map((c) => [c.id, at(c, v)] as const).filter((e): e is readonly [string, VersionedCheck] => !!e[1]);
      const restrictedAt = restrictedChecks.map((c) => at(c, v)).filter((e): e is VersionedCheck => !!e);
      const overridden = new Set(restrictedAt.flatMap((c) => c.overrides ?? []));
      this.baseline[v] = baselineAt.map(([, c]) => c.check);
      this.restricted[v] = [...baselineAt.filter(([id]) => !overridden.has(id)).map(([, c]) => c.check), ...restrictedAt.map((c) => c.check)];
    }
  }

  evaluate(lv: LevelVersion, meta: PodMeta, spec: Json): Aggregate {
    const out: Aggregate = { allowed: true, reasons: [], details: [] };
    if (lv.level === 'privileged') return out;
    const v = Math.min(lv.version, this.maxVersion);
    for (const check of (lv.level === 'baseline' ? this.baseline : this.restricted)[v]) {
      const r: CheckResult | undefined = check(meta, spec);
      if (!r) continue;
      out.allowed = false;
      out.reasons.push(r.reason);
      out.details.push(r.detail);
    }
    return out;
  }
}

function at(c: Check, v: number): VersionedCheck | undefined {
  let found: VersionedCheck | undefined;
  for (const vc of c.versions) if (vc.minimumVersion <= v) found = vc;
  return found;
}

/** `reason (detail), reason (detail)`: the text of denials, warnings and audit annotations. */
export function forbiddenDetail(a: Aggregate): string {
  return a.reasons.map((r, i) => (a.details[i] ? `${r} (${a.details[i]})` : r)).join(', ');
}

/** Reasons only: the per-pod summary of a namespace label change. */
export function forbiddenReason(a: Aggregate): string {
  return a.reasons.join(', ');
}
