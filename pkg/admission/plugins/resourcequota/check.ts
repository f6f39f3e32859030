// One request against the namespace's quotas (upstream's CheckRequest): the quotas
// with what they would record as used if the request is admitted, or the refusal.
import type { Evaluator, ScopeSelector } from '../../../quota/evaluator/interfaces.js';
import { quotaMatches, type QuotaView } from '../../../quota/quota.js';
import {
  add, isNegative, lessThanOrEqual, mask, prettyPrint, prettyPrintNames, removeZeros, subtractWithNonNegativeResult, type ResourceList,
} from '../../../quota/resources.js';
import { errors } from '../../../runtime/errors.js';
import { admissionForbidden } from '../../forbidden.js';
import type { AdmissionAttributes } from '../../interfaces.js';
import type { LimitedResource } from './config.js';

export function checkRequest(quotas: QuotaView[], a: AdmissionAttributes, e: Evaluator,
  limited: LimitedResource[] = [], now = Date.now()): QuotaView[] {
  if (!e.handles(a.operation, a.subresource) || !a.object) return quotas;
  const obj = a.object;
  obj.metadata.namespace ||= a.namespace;

  const limitedScopes = limited.flatMap((l) => (l.matchScopes ?? []).filter((s) => e.matchesScope(s, obj)));
  const limitedHere = limited.filter((l) => l.apiGroup === e.group && l.resource === e.resource);
  const limitedNames = new Set<string>();
  if (limitedHere.length > 0) {
    for (const [name, q] of e.usage(obj, now)) {
      if (q.sign() > 0 && limitedHere.some((l) => (l.matchContains ?? []).some((c) => name.includes(c)))) limitedNames.add(name);
    }
  }

  const interesting: number[] = [];
  const restricted = new Set<string>();
  const restrictedScopes: ScopeSelector[] = [];
  quotas.forEach((q, i) => {
    restrictedScopes.push(...q.selectors.filter((s) => e.matchesScope(s, obj)));
    if (!quotaMatches(q, e, obj)) return;
    const names = e.matchingResources([...q.hard.keys()]);
    const why = e.constraints(names, obj);
    if (why) throw admissionForbidden(a, `failed quota: ${q.name}: ${why}`);
    if (names.some((n) => !q.used.has(n))) {
      throw admissionForbidden(a, `status unknown for quota: ${q.name}, resources: ${prettyPrintNames(names)}`);
    }
    interesting.push(i);
    for (const n of names) restricted.add(n);
  });

  const input = e.usage(obj, now);
  const negative = isNegative(input);
  if (negative.length > 0) throw admissionForbidden(a, `quota usage is negative for resource(s): ${prettyPrintNames(negative)}`);

  const deltas = new Map<number, ResourceList>(interesting.map((i) => [i, input]));
  let deltaWithoutQuota: ResourceList = a.operation === 'CREATE' && interesting.length === 0 ? input : new Map();
  if (a.operation === 'UPDATE') {
    const prev = a.oldObject;
    if (!prev) throw admissionForbidden(a, 'unable to get previous usage since prior version of object was not found');
    // Charge the growth only when this is a real update, not a create through update.
    if (prev.metadata.resourceVersion) {
      const delta = subtractWithNonNegativeResult(input, e.usage(prev, now));
      if (interesting.length === 0) deltaWithoutQuota = delta;
      for (const i of interesting) if (quotaMatches(quotas[i], e, prev)) deltas.set(i, delta);
    } else if (interesting.length === 0) {
      deltaWithoutQuota = input;
    }
  }
  for (const [i, d] of deltas) {
    const nonZero = removeZeros(d);
    if (nonZero.size === 0) deltas.delete(i);
    else deltas.set(i, nonZero);
  }
  if (interesting.length > 0 ? deltas.size === 0 : removeZeros(deltaWithoutQuota).size === 0) return quotas;

  const uncovered = [...limitedNames].filter((n) => !restricted.has(n)).sort();
  if (uncovered.length > 0) throw admissionForbidden(a, `insufficient quota to consume: ${uncovered.join(',')}`);
  const uncoveredScopes = limitedScopes.filter((s) => !restrictedScopes.some((r) => r.scopeName === s.scopeName));
  if (uncoveredScopes.length > 0) {
    // Upstream returns this one as a plain error, which the server reports as internal.
    throw errors.internal(`insufficient quota to match these scopes: [${uncoveredScopes.map(formatScope).join(' ')}]`);
  }
  if (interesting.length === 0) return quotas;

  const out = [...quotas];
  for (const i of interesting) {
    const q = quotas[i];
    const delta = deltas.get(i);
    if (!delta) continue;
    const requested = mask(delta, q.hard.keys());
    const used = add(q.used, requested);
    if (a.subresource !== 'status') {
      const { ok, exceeded } = lessThanOrEqual(mask(used, requested.keys()), q.hard);
      if (!ok) {
        throw admissionForbidden(a, `exceeded quota: ${q.name}, requested: ${prettyPrint(mask(requested, exceeded))}, `
          + `used: ${prettyPrint(mask(q.used, exceeded))}, limited: ${prettyPrint(mask(q.hard, exceeded))}`);
      }
    }
    out[i] = { ...q, used };
  }
  return out;
}

/** Go's %v of a ScopedResourceSelectorRequirement. */
function formatScope(s: ScopeSelector): string {
  return `{${s.scopeName} ${s.operator} [${(s.values ?? []).join(' ')}]}`;
}
