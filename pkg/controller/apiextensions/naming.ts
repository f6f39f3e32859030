// Which of its requested names a CRD may have (upstream: apiextensions-apiserver
// controller/status NamingConditionController). Names already accepted by another CRD
// of the same group are refused; each name a CRD already holds stays its own.
import type { KubeObject } from '../../runtime/object.js';
import { deepEqual } from '../../util/deep-equal.js';
import { crdSpec, crdStatus, findCondition, type CRDCondition, type CRDNames } from '../../apis/apiextensions/types.js';

export interface NamingResult {
  acceptedNames: CRDNames;
  namesAccepted: CRDCondition;
  established: CRDCondition;
}

/** Names compare as upstream's semantic equality does: an absent list equals an empty one. */
export function sameNames(a: CRDNames, b: CRDNames): boolean {
  const norm = (n: CRDNames) => ({
    plural: n.plural ?? '', singular: n.singular ?? '', kind: n.kind ?? '', listKind: n.listKind ?? '',
    shortNames: n.shortNames ?? [], categories: n.categories ?? [],
  });
  return deepEqual(norm(a), norm(b));
}

/** Resource names (plural, singular, short names) and kinds accepted by the CRDs of a group. */
function usedNames(group: string, all: KubeObject[]): { resources: Set<string>; kinds: Set<string> } {
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const crd of all) {
    if (crdSpec(crd).group !== group) continue;
    const n = crdStatus(crd).acceptedNames ?? {};
    resources.add(n.plural ?? '');
    resources.add(n.singular ?? '');
    for (const s of n.shortNames ?? []) resources.add(s);
    kinds.add(n.kind ?? '');
    kinds.add(n.listKind ?? '');
  }
  return { resources, kinds };
}

/** `all` holds every CRD (this one included, with its current status). */
export function calculateNames(crd: KubeObject, all: KubeObject[]): NamingResult {
  const { resources, kinds } = usedNames(crdSpec(crd).group ?? '', all);
  const requested = crdSpec(crd).names ?? {};
  const accepted = crdStatus(crd).acceptedNames ?? {};
  const next: CRDNames = { ...accepted };
  let conflict: { reason: string; message: string } | undefined;
  const fresh = (want: string, have: string, used: Set<string>) => want === have || !used.has(want);
  const take = (field: 'plural' | 'singular' | 'kind' | 'listKind', used: Set<string>, reason: string) => {
    const want = requested[field] ?? '';
    if (fresh(want, accepted[field] ?? '', used)) next[field] = want;
    else conflict = { reason, message: `"${want}" is already in use` };
  };
  take('plural', resources, 'PluralConflict');
  take('singular', resources, 'SingularConflict');
  if (!deepEqual(requested.shortNames ?? [], accepted.shortNames ?? [])) {
    const own = new Set(accepted.shortNames ?? []);
    const errs = (requested.shortNames ?? []).filter((s) => !own.has(s) && !fresh(s, '', resources)).map((s) => `"${s}" is already in use`);
    if (errs.length > 0) conflict = { reason: 'ShortNamesConflict', message: errs.length === 1 ? errs[0] : `[${errs.join(', ')}]` };
    else next.shortNames = requested.shortNames;
  }
  take('kind', kinds, 'KindConflict');
  take('listKind', kinds, 'ListKindConflict');
  next.categories = requested.categories;
  for (const k of Object.keys(next) as Array<keyof CRDNames>) {
    const v = next[k];
    if (v === undefined || (k !== 'plural' && k !== 'kind' && (v === '' || (Array.isArray(v) && v.length === 0)))) delete next[k];
  }
  const namesAccepted: CRDCondition = conflict
    ? { type: 'NamesAccepted', status: 'False', ...conflict }
    : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
  // Established turns true in a second step, once the accepted names are visible.
  let established: CRDCondition = findCondition(crd, 'Established')
    ?? { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
  if (established.status !== 'True' && namesAccepted.status === 'True') {
    established = { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' };
  }
  return { acceptedNames: orderNames(next), namesAccepted, established };
}

/** Go's field order, so stored JSON reads as upstream's. */
function orderNames(n: CRDNames): CRDNames {
  const out: CRDNames = { plural: n.plural ?? '' };
  if (n.singular) out.singular = n.singular;
  if (n.shortNames?.length) out.shortNames = n.shortNames;
  out.kind = n.kind ?? '';
  if (n.listKind) out.listKind = n.listKind;
  if (n.categories?.length) out.categories = n.categories;
  return out;
}

/** Same condition apart from its transition time (upstream: IsCRDConditionEquivalent). */
export function equivalentCondition(a: CRDCondition | undefined, b: CRDCondition | undefined): boolean {
  if (!a || !b) return a === b;
  return a.type === b.type && a.status === b.status && a.reason === b.reason && a.message === b.message;
}
