// The difference appended to "pod updates may not change fields other than ...":
// upstream prints cmp.Diff (github.com/google/go-cmp) of its internal core.PodSpec
// values; we build the same Go values from the JSON specs and print them the same way.
import { goType } from './gotype.js';
import { fromJSON } from './gocmp-value.js';
import { compare } from './gocmp-compare.js';
import { reportDiff } from './gocmp-report.js';
import { isPlainObject } from '../../runtime/object.js';

/** The v1 host namespace switches, which the internal type keeps in its security context. */
const hostFields = ['hostNetwork', 'hostPID', 'hostIPC', 'shareProcessNamespace', 'hostUsers'];

/** v1 PodSpec JSON in the internal type's shape (Convert_v1_PodSpec_To_core_PodSpec). */
function internalPodSpec(spec: unknown): Record<string, unknown> {
  const s = { ...(isPlainObject(spec) ? spec as Record<string, unknown> : {}) };
  const sc = { ...(isPlainObject(s.securityContext) ? s.securityContext as Record<string, unknown> : {}) };
  for (const f of hostFields) {
    if (s[f] !== undefined) sc[f] = s[f];
    delete s[f];
  }
  delete s.serviceAccount;
  s.securityContext = sc; // conversion always allocates it
  return s;
}

/** cmp.Diff(old, cur) over core.PodSpec: "" when they are equal. */
export function podSpecDiff(old: unknown, cur: unknown): string {
  const t = goType('PodSpec');
  return reportDiff(compare(t, fromJSON(t, internalPodSpec(old)), fromJSON(t, internalPodSpec(cur))));
}
