// Brings the stored default policy up to date at start (upstream's rbac/bootstrap-roles
// post-start hook): missing objects are created; existing ones gain missing rules,
// labels, annotations, aggregation selectors and subjects, unless annotated
// rbac.authorization.kubernetes.io/autoupdate=false. Extra permissions are never
// removed. Replicas starting together race safely: AlreadyExists and Conflict retry.
import type { Logger } from 'pino';
import { covers } from '../authorization/rbac/covers.js';
import type { BindingObject, ClusterRoleObject, PolicyRule, Subject } from '../authorization/rbac/types.js';
import type { Client, ResourceClient } from '../client/interfaces.js';
import { listed, objectKey } from '../client/listed.js';
import { StatusError } from '../runtime/errors.js';
import type { KubeObject } from '../runtime/object.js';
import { concurrently } from '../util/concurrently.js';
import { autoUpdateAnnotation, bootstrapPolicy } from './index.js';

const rbac = 'rbac.authorization.k8s.io';
const maxAttempts = 8;
/** Objects written at once by a start-up reconciler. */
export const bootstrapConcurrency = 64;

/** Existing keys win; expected keys that are missing are added. */
function merge(expected: Record<string, string> | undefined, existing: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!expected && !existing) return undefined;
  return { ...(expected ?? {}), ...(existing ?? {}) };
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

interface Meta { metadata: { labels?: Record<string, string>; annotations?: Record<string, string> } }

/** Adds the expected labels and annotations to `out`; true when that changed anything. */
function reconcileMetadata(out: Meta, existing: Meta, expected: Meta): boolean {
  let changed = false;
  const labels = merge(expected.metadata.labels, existing.metadata.labels);
  if (!same(labels, existing.metadata.labels)) { out.metadata.labels = labels; changed = true; }
  const annotations = merge(expected.metadata.annotations, existing.metadata.annotations);
  if (!same(annotations, existing.metadata.annotations)) { out.metadata.annotations = annotations; changed = true; }
  return changed;
}

/** The reconciled role, or undefined when nothing changes. */
export function reconcileRole(existing: ClusterRoleObject, expected: ClusterRoleObject): ClusterRoleObject | undefined {
  const out = structuredClone(existing);
  let changed = reconcileMetadata(out, existing, expected);
  const { missing } = covers((existing.rules ?? []) as PolicyRule[], (expected.rules ?? []) as PolicyRule[]);
  if (missing.length > 0) { out.rules = [...(existing.rules ?? []), ...missing]; changed = true; }
  const want = expected.aggregationRule?.clusterRoleSelectors ?? [];
  if (want.length > 0) {
    const have = [...(existing.aggregationRule?.clusterRoleSelectors ?? [])];
    let added = false;
    for (const sel of want) if (!have.some((h) => same(h, sel))) { have.push(sel); added = true; }
    if (added) { out.aggregationRule = { clusterRoleSelectors: have }; changed = true; }
  }
  return changed ? out : undefined;
}

/** The reconciled binding, `recreate` when its roleRef must change, or undefined. */
export function reconcileBinding(existing: BindingObject, expected: BindingObject): { obj: BindingObject; recreate: boolean } | undefined {
  const out = structuredClone(existing);
  let changed = reconcileMetadata(out, existing, expected);
  const recreate = !same(existing.roleRef, expected.roleRef);
  if (recreate) { out.roleRef = structuredClone(expected.roleRef); changed = true; }
  const subjects: Subject[] = [...(existing.subjects ?? [])];
  for (const s of expected.subjects ?? []) {
    if (!subjects.some((h) => h.kind === s.kind && h.name === s.name && (h.namespace ?? '') === (s.namespace ?? ''))) { subjects.push(s); changed = true; }
  }
  if (subjects.length !== (existing.subjects ?? []).length) out.subjects = subjects;
  return changed ? { obj: out, recreate } : undefined;
}

const is = (err: unknown, code: number): boolean => err instanceof StatusError && err.code === code;

async function getOrUndefined(rc: ResourceClient, ns: string, name: string): Promise<KubeObject | undefined> {
  try {
    return await rc.get(ns, name);
  } catch (err) {
    if (is(err, 404)) return undefined;
    throw err;
  }
}

/** `listed`: the object as the list at the start found it (undefined: absent then); later attempts read it again. */
async function ensure(rc: ResourceClient, plural: string, expected: KubeObject, listed: KubeObject | undefined,
  reconcile: (existing: KubeObject) => { obj: KubeObject; recreate?: boolean } | undefined): Promise<string> {
  const ns = expected.metadata.namespace ?? '';
  const name = expected.metadata.name ?? '';
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const existing = attempt === 0 ? listed : await getOrUndefined(rc, ns, name);
    if (!existing) {
      try {
        await rc.create(ns, expected);
        return 'created';
      } catch (e) {
        if (is(e, 409)) continue;
        throw e;
      }
    }
    if (existing.metadata.annotations?.[autoUpdateAnnotation] === 'false') return 'protected';
    const res = reconcile(existing);
    if (!res) return 'unchanged';
    try {
      if (res.recreate) {
        await rc.delete(ns, name, { preconditions: { uid: existing.metadata.uid } });
        continue;
      }
      await rc.update(ns, res.obj);
      return 'updated';
    } catch (err) {
      if (is(err, 409) || is(err, 404)) continue;
      throw err;
    }
  }
  throw new Error(`could not reconcile ${plural} ${ns ? `${ns}/` : ''}${name} after ${maxAttempts} attempts`);
}

/** `api`: a client acting as the apiserver itself (system:masters, so escalation checks pass). */
export async function reconcileBootstrapPolicy(api: Client, log?: Logger): Promise<void> {
  const p = bootstrapPolicy();
  const counts: Record<string, number> = {};
  const note = (k: string): void => { counts[k] = (counts[k] ?? 0) + 1; };
  const roleRec = (expected: KubeObject) => (existing: KubeObject) => {
    const obj = reconcileRole(existing as ClusterRoleObject, expected as ClusterRoleObject);
    return obj ? { obj } : undefined;
  };
  const bindingRec = (expected: KubeObject) => (existing: KubeObject) => reconcileBinding(existing as BindingObject, expected as BindingObject);
  const work: Array<[string, KubeObject[], (e: KubeObject) => (x: KubeObject) => { obj: KubeObject; recreate?: boolean } | undefined]> = [
    ['clusterroles', p.clusterRoles, roleRec], ['clusterrolebindings', p.clusterRoleBindings, bindingRec],
    ['roles', p.roles, roleRec], ['rolebindings', p.roleBindings, bindingRec],
  ];
  for (const [plural, objs, rec] of work) {
    const rc = api.resource(rbac, plural, 'v1');
    // One list rather than a GET per object: on a fresh etcd that halves the requests.
    const existing = await listed(rc, '', `${rbac}/v1`, objs[0]?.kind ?? '');
    // Independent objects: reconciled concurrently, many at a time, so that the server's
    // start-up creates, which the store may coalesce, reach etcd in a few transactions.
    await concurrently(objs, bootstrapConcurrency, async (o) => note(await ensure(rc, plural, o, existing.get(objectKey(o)), rec(o))));
  }
  log?.info(counts, 'reconciled bootstrap RBAC policy');
}
