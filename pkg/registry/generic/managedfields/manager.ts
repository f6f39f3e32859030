// The field manager: records who owns which fields on every write and performs
// server-side apply. Update operations take ownership of what they change; Apply
// operations merge a partial configuration, own exactly what it names, drop what they
// stopped naming (unless someone else owns it) and fail on fields others own unless
// forced. The layering follows upstream's fieldmanager (strip system metadata, skip
// tracking for objects that stopped being tracked, cap update entries, last-applied
// annotation for kubectl's migration from client-side apply).
import type { PatchSchema } from '../../../apis/meta/patch-schema.js';
import { deepEqual } from '../../../util/deep-equal.js';
import { patchSchemaFor } from '../../../openapi/patch-schema.js';
import { errors, type StatusError } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject, type ManagedFieldsEntry } from '../../../runtime/object.js';
import { apiVersionOf } from '../../../runtime/scheme.js';
import { nowTimestamp } from '../names.js';
import { conflictError, ConflictList, toConflictError, type Conflict } from './conflict.js';
import { CreateMemo, zeroHasNoScalars } from './create-memo.js';
import { equalOutsideStrip, isOwnUpdateEntry, updateEntry, UpdateMemo, type Learned } from './update-memo.js';
import { reportManagedFieldsFailure } from './failure-log.js';
import {
  capUpdateManagers, decodeManagedFields, encodeManagedFields, managerId, type Managed, type ManagerState,
} from './entries.js';
import { buildLastApplied, lastAppliedAnnotation } from './last-applied.js';
import { field, type Path } from './path.js';
import { FieldSet } from './set.js';
import {
  compare, ensureNamedFieldsAreMembers, merge, removeItems, toFieldSet, TypedValueError, validateTyped, type Comparison,
} from './typed.js';
import { zeroValueOf } from './zero-value.js';

/** kubectl's server-side apply manager; only it migrates from client-side apply. */
const kubectlManager = 'kubectl';

/** System metadata nobody owns (upstream's stripMeta set). */
const stripSet = FieldSet.of(
  [field('apiVersion')], [field('kind')], [field('metadata')],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion']
    .map((n) => [field('metadata'), field(n)]),
);

export interface FieldManagerScope {
  group: string;
  version: string;
  kind: string;
  /** '' for the main resource. */
  subresource: string;
  /** Fields the strategy resets on this endpoint (status on the main resource, ...). */
  ignored: Path[];
  /** The kind's structure when it is not a built-in one (a custom resource's schema). */
  schema?: PatchSchema;
}

type Obj = Record<string, unknown>;

export class FieldManager {
  private readonly schema: PatchSchema | undefined;
  private readonly apiVersion: string;
  private readonly ignored: FieldSet;
  private readonly ignoredTopLevel: string[];
  /** Creates of a built-in kind whose zero value has no scalar (see create-memo.ts); made on the first. */
  private creates: CreateMemo | null | undefined;
  /** Updates of a built-in kind's main resource by its only manager (see update-memo.ts). */
  private readonly updates: UpdateMemo | undefined;

  constructor(private readonly scope: FieldManagerScope) {
    this.schema = scope.schema ?? patchSchemaFor(scope.group, scope.version, scope.kind);
    this.apiVersion = apiVersionOf(scope.group, scope.version);
    this.ignored = FieldSet.of(...scope.ignored);
    this.ignoredTopLevel = scope.ignored.filter((p) => p.length === 1 && p[0].kind === 'field').map((p) => (p[0] as { name: string }).name);
    this.updates = !scope.schema && !scope.subresource && this.ignored.isEmpty() ? new UpdateMemo() : undefined;
  }

  /**
   * update() for a client's write, which it never fails: when ownership cannot be
   * computed (a list whose items do not fit its keys, say), the failure is logged and
   * the object goes on without managedFields, as upstream's UpdateNoErrors does. An
   * object without them stays untracked by later updates, until someone applies.
   */
  updateNoErrors(live: KubeObject | null, obj: KubeObject, manager: string): KubeObject {
    try {
      return this.update(live, obj, manager);
    } catch (err) {
      reportManagedFieldsFailure({
        apiVersion: this.apiVersion, kind: this.scope.kind, namespace: obj.metadata?.namespace ?? '',
        name: obj.metadata?.name ?? '', error: (err as Error).message,
      });
      return withoutManagedFields(obj);
    }
  }

  /**
   * Records an Update by `manager` turning `live` (null on create) into `obj`, and
   * returns `obj` with its managedFields set. Managed fields sent in `obj` replace the
   * live ones (a single empty entry resets them); subresources never take them from the request.
   */
  update(live: KubeObject | null, obj: KubeObject, manager: string): KubeObject {
    if (live !== null && this.updates) return this.updateByShape(live, obj, manager);
    const memo = live === null && obj.metadata.managedFields === undefined && !this.scope.subresource ? this.createMemo() : undefined;
    const key = memo?.keyOf(obj, manager);
    if (key === undefined) return this.updateComputed(live, obj, manager);
    const recalled = memo!.recall(key, obj, nowTimestamp);
    if (recalled) return recalled;
    const computed = this.updateComputed(live, obj, manager);
    memo!.remember(key, computed);
    return computed;
  }

  /**
   * An update of an object whose one entry is this manager's Update: from what its pair of
   * shapes is remembered to give (update-memo.ts), or computed, and the pair learned.
   */
  private updateByShape(live: KubeObject, obj: KubeObject, manager: string): KubeObject {
    const entries = live.metadata.managedFields;
    const sent = obj.metadata.managedFields;
    const entry = entries?.length === 1 ? entries[0]! : undefined;
    if (!entry || !isOwnUpdateEntry(entry, manager, this.apiVersion) || (sent !== undefined && !deepEqual(sent, entries))) {
      return this.updateComputed(live, obj, manager);
    }
    const key = this.updates!.keyOf(live, obj, entry);
    if (key === undefined) return this.updateComputed(live, obj, manager);
    const learned = this.updates!.recall(key.key);
    if (learned === undefined) {
      const computed = this.updateComputed(live, obj, manager);
      this.updates!.remember(key.key, this.learn(live, obj, entry, key.same, computed));
      return computed;
    }
    if (learned.k === 'no') return this.updateComputed(live, obj, manager);
    const next = shallowWithoutManagedFields(obj);
    if (learned.k === 'doc') {
      next.metadata.managedFields = [updateEntry(manager, this.apiVersion, nowTimestamp(), JSON.parse(learned.doc) as Record<string, unknown>)];
      return next;
    }
    // The same shape: the manager's set stays; its time is new if a value it owns changed.
    const changed = !equalOutsideStrip(shallowWithoutManagedFields(live), next);
    next.metadata.managedFields = [updateEntry(manager, this.apiVersion, changed ? nowTimestamp() : entry.time, entry.fieldsV1!)];
    return next;
  }

  /** What a pair of shapes gives, from the pair that `computed` came from (see update-memo.ts). */
  private learn(live: KubeObject, obj: KubeObject, entry: ManagedFieldsEntry, same: boolean, computed: KubeObject): Learned {
    let before: FieldSet;
    try {
      before = FieldSet.fromFieldsV1(entry.fieldsV1);
    } catch {
      return { k: 'no' };
    }
    const liveValue = shallowWithoutManagedFields(live);
    if (before.overlaps(stripSet) || !before.covers(toFieldSet(liveValue, this.schema).difference(stripSet))) return { k: 'no' };
    if (same) return { k: 'same' };
    const out = computed.metadata.managedFields;
    if (this.compare(liveValue, shallowWithoutManagedFields(obj)).added.difference(stripSet).isEmpty() || out?.length !== 1) return { k: 'no' };
    return { k: 'doc', doc: JSON.stringify(out[0]!.fieldsV1) };
  }

  private createMemo(): CreateMemo | undefined {
    if (this.creates === undefined) {
      // A custom resource's schema may change under this manager; a built-in kind's does not.
      const usable = !this.scope.schema && zeroHasNoScalars(zeroValueOf(this.apiVersion, this.scope.kind, { metadata: {} }));
      this.creates = usable ? new CreateMemo() : null;
    }
    return this.creates ?? undefined;
  }

  private updateComputed(live: KubeObject | null, obj: KubeObject, manager: string): KubeObject {
    const sent = obj.metadata.managedFields;
    let managed: Managed;
    let reset = false;
    if (this.scope.subresource) {
      managed = decodeOrEmpty(live?.metadata.managedFields);
    } else if (isReset(sent)) {
      managed = new Map();
      reset = true;
    } else if (live && sent !== undefined && deepEqual(sent, live.metadata.managedFields)) {
      // Sent back as read (a patch that left them, a read-modify-write): the same entries,
      // read as the live object's, whose documents an owner the write leaves alone keeps.
      managed = decodeOrEmpty(live.metadata.managedFields);
    } else {
      let fromRequest: Managed | undefined;
      try {
        fromRequest = decodeManagedFields(sent);
      } catch {
        fromRequest = undefined;
      }
      managed = fromRequest && fromRequest.size > 0 ? fromRequest : decodeOrEmpty(live?.metadata.managedFields);
    }
    // Shallow copies: the comparison only reads, and what changes on `next` below (and in
    // the write path after it) is its top level and metadata, which are its own.
    const next = shallowWithoutManagedFields(obj);
    // An existing object nobody tracks stays untracked until someone applies.
    if (managed.size === 0 && live?.metadata.uid && !reset) return next;
    const liveValue = live ? shallowWithoutManagedFields(live) : zeroValueOf(this.apiVersion, this.scope.kind, next);
    // On a subresource the live object's ownership is the only one kept, and the fields it
    // resets cannot change there, so they need not be compared.
    const cmp = this.compare(liveValue, next, this.scope.subresource !== '');
    const changed = cmp.modified.union(cmp.added);
    const id = managerId({ manager, operation: 'Update', apiVersion: this.apiVersion, subresource: this.scope.subresource });
    const before = managed.get(id)?.set;
    for (const [otherId, s] of managed) {
      const rest = s.set.difference(changed).difference(cmp.removed);
      if (rest.isEmpty()) managed.delete(otherId);
      else managed.set(otherId, { ...s, set: rest });
    }
    const own = changed.difference(stripSet);
    if (!own.isEmpty()) {
      const prev = managed.get(id);
      managed.set(id, {
        manager, operation: 'Update', apiVersion: this.apiVersion, subresource: this.scope.subresource,
        time: nowTimestamp(), set: before && ownsTheSame(before, own, changed, cmp.removed) ? before : prev ? own.union(prev.set) : own,
      });
    }
    capUpdateManagers(managed);
    return withManagedFields(next, managed);
  }

  /**
   * Server-side apply of `config` by `manager` onto `live` (null when the object does not
   * exist yet). Returns the merged object with managedFields; throws 409 on conflicts.
   */
  apply(live: KubeObject | null, config: Obj, manager: string, force: boolean): KubeObject {
    const meta = isPlainObject(config.metadata) ? config.metadata : {};
    const gv = typeof config.apiVersion === 'string' ? config.apiVersion : '';
    const kind = typeof config.kind === 'string' ? config.kind : '';
    if (gv !== this.apiVersion || kind !== this.scope.kind) {
      const slash = gv.indexOf('/');
      const group = slash < 0 ? '' : gv.slice(0, slash);
      const version = slash < 0 ? gv : gv.slice(slash + 1);
      throw errors.badRequest(`invalid object type: ${group}/${version}, Kind=${kind}`);
    }
    if (meta.managedFields !== undefined && meta.managedFields !== null) {
      throw errors.badRequest('metadata.managedFields must be nil');
    }
    let managed: Managed;
    try {
      managed = decodeManagedFields(live?.metadata.managedFields);
    } catch (err) {
      throw errors.internal(new Error(`failed to decode managed fields: ${(err as Error).message}`));
    }
    const typeErrors = validateTyped(config, this.schema);
    if (typeErrors.length > 0) {
      const name = typeof meta.name === 'string' ? meta.name : '';
      const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
      const detail = typeErrors.length === 1 ? typeErrors[0] : ['errors:', ...typeErrors.map((e) => `  ${e}`)].join('\n');
      // Upstream answers this with a bare 500; it is the client's bad input, so we keep the
      // message and answer 400 BadRequest (bad input never gets a 500 here).
      throw errors.badRequest(`failed to create typed patch object (${ns}/${name}; ${this.scope.group}/${this.scope.version}, Kind=${this.scope.kind}): ${detail}`);
    }
    const liveValue = live ? withoutManagedFields(live) : ({ metadata: {} } as KubeObject);
    const attempt = (forced: boolean): { merged: Obj; managed: Managed } => this.applyOnce(liveValue, config, clone(managed), manager, forced);
    let result: { merged: Obj; managed: Managed };
    try {
      result = attempt(force);
    } catch (err) {
      if (err instanceof TypedValueError) throw this.untypedLive(meta, err);
      if (!(err instanceof ConflictList) || manager !== kubectlManager) throw toConflictError(err);
      // kubectl moving from client-side apply: conflicts on fields its last-applied
      // annotation still describes are its own and are forced.
      const allowed = this.allowedFromLastApplied(liveValue);
      const remaining = allowed ? err.conflicts.filter((c) => !allowed.has(c.path)) : err.conflicts;
      if (remaining.length > 0) throw conflictError(remaining);
      result = attempt(true);
    }
    const merged = result.merged;
    const annotations = isPlainObject(merged.metadata) && isPlainObject((merged.metadata as Obj).annotations)
      ? (merged.metadata as Obj).annotations as Record<string, string> : undefined;
    if (manager === kubectlManager && annotations && annotations[lastAppliedAnnotation] !== undefined) {
      annotations[lastAppliedAnnotation] = buildLastApplied(config);
    }
    return withManagedFields(merged as KubeObject, result.managed);
  }

  /**
   * The live object does not fit the schema (a write whose managed fields could not be
   * computed stored it). Upstream answers a bare 500; the object is the clients' doing,
   * so this is a 400 naming the offending field, and an update can repair it.
   */
  private untypedLive(meta: Obj, err: TypedValueError): StatusError {
    const name = typeof meta.name === 'string' ? meta.name : '';
    const ns = typeof meta.namespace === 'string' ? meta.namespace : '';
    return errors.badRequest(`failed to create typed live object (${ns}/${name}; ${this.scope.group}/${this.scope.version}, Kind=${this.scope.kind}): ${err.message}`);
  }

  private applyOnce(liveValue: KubeObject, config: Obj, managed: Managed, manager: string, force: boolean): { merged: Obj; managed: Managed } {
    const id = managerId({ manager, operation: 'Apply', subresource: this.scope.subresource });
    let merged = merge(liveValue, config, this.schema) as Obj;
    const lastSet = managed.get(id)?.set;
    const applied = toFieldSet(config, this.schema).recursiveDifference(this.ignored);
    managed.set(id, {
      manager, operation: 'Apply', apiVersion: this.apiVersion, subresource: this.scope.subresource,
      time: managed.get(id)?.time, set: applied,
    });
    merged = dropNulls(this.prune(merged, managed, lastSet)) as Obj;
    const cmp = this.compare(liveValue, merged);
    const changed = cmp.modified.union(cmp.added);
    const conflicts: Conflict[] = [];
    for (const [otherId, s] of managed) {
      if (otherId === id) continue;
      const overlap = s.set.intersection(changed);
      for (const p of overlap.paths()) conflicts.push({ managerId: otherId, path: p });
    }
    if (conflicts.length > 0 && !force) throw new ConflictList(conflicts);
    for (const [otherId, s] of managed) {
      if (otherId === id) continue;
      const rest = s.set.difference(changed).difference(cmp.removed);
      if (rest.isEmpty()) managed.delete(otherId);
      else managed.set(otherId, { ...s, set: rest });
    }
    const own = managed.get(id)!;
    const stripped = own.set.difference(stripSet);
    if (stripped.isEmpty()) managed.delete(id);
    else managed.set(id, { ...own, set: stripped, time: deepEqual(merged, liveValue) ? own.time : nowTimestamp() });
    return { merged, managed };
  }

  /** Removes what the applier owned last time and dropped now, unless someone else owns it. */
  private prune(merged: Obj, managed: Managed, lastSet: FieldSet | undefined): unknown {
    if (!lastSet || lastSet.isEmpty()) return merged;
    const s = this.schema;
    const ensure = (set: FieldSet): FieldSet => ensureNamedFieldsAreMembers(set, s);
    const last = ensure(lastSet);
    const pruned = removeItems(merged, last, s);
    let owned = new FieldSet();
    for (const m of managed.values()) owned = owned.union(m.set);
    const mergedSet = ensure(toFieldSet(merged, s));
    const ownedBack = removeItems(merged, mergedSet.difference(ensure(toFieldSet(pruned, s)).union(ensure(owned))), s);
    return removeItems(merged, mergedSet.difference(ensure(toFieldSet(ownedBack, s))).intersection(last), s);
  }

  private compare(lhs: unknown, rhs: unknown, skipEqualIgnored = false): Comparison {
    const [l, r] = skipEqualIgnored ? this.withoutEqualIgnored(lhs as Obj, rhs as Obj) : [lhs, rhs];
    const c = compare(l, r, this.schema);
    if (this.ignored.isEmpty()) return c;
    return {
      added: c.added.recursiveDifference(this.ignored),
      modified: c.modified.recursiveDifference(this.ignored),
      removed: c.removed.recursiveDifference(this.ignored),
    };
  }

  /**
   * Both sides without the top-level fields this endpoint resets (a pod's spec on
   * pods/status) where they are equal: the comparison's result drops what is below them
   * anyway, and on a large object walking them is most of its cost.
   */
  private withoutEqualIgnored(lhs: Obj, rhs: Obj): [Obj, Obj] {
    let l = lhs;
    let r = rhs;
    for (const k of this.ignoredTopLevel) {
      if (!(k in l) || !(k in r) || !deepEqual(l[k], r[k])) continue;
      if (l === lhs) { l = { ...lhs }; r = { ...rhs }; }
      delete l[k];
      delete r[k];
    }
    return [l, r];
  }

  /** Fields the last-applied annotation describes and the live object still has as described. */
  private allowedFromLastApplied(liveValue: KubeObject): FieldSet | undefined {
    const raw = liveValue.metadata.annotations?.[lastAppliedAnnotation];
    if (!raw) return undefined;
    let last: unknown;
    try {
      last = JSON.parse(raw);
    } catch {
      return undefined;
    }
    if (!isPlainObject(last) || last.apiVersion !== this.apiVersion) return undefined;
    try {
      const set = toFieldSet(last, this.schema);
      const c = compare(last, liveValue, this.schema);
      return set.difference(c.modified).difference(c.added).difference(c.removed);
    } catch {
      return undefined;
    }
  }
}

/**
 * Whether a manager that owned `before` and writes `own` (of the `changed` fields, while
 * `removed` went) ends up owning exactly `before` again, as a heartbeat rewriting the same
 * fields does: its set (and the document it was read from) then stays as it was.
 */
function ownsTheSame(before: FieldSet, own: FieldSet, changed: FieldSet, removed: FieldSet): boolean {
  return before.covers(own) && !before.overlaps(removed) && !before.overlaps(changed.difference(own));
}

/** A list with one empty entry (or, as the SPEC reads, only that) asks to forget all ownership. */
function isReset(entries: ManagedFieldsEntry[] | undefined): boolean {
  return Array.isArray(entries) && entries.length === 1 && isPlainObject(entries[0]) && Object.keys(entries[0]).length === 0;
}

function decodeOrEmpty(entries: ManagedFieldsEntry[] | undefined): Managed {
  try {
    return decodeManagedFields(entries, true);
  } catch {
    return new Map();
  }
}

function clone(managed: Managed): Managed {
  return new Map([...managed].map(([id, s]): [string, ManagerState] => [id, { ...s, set: s.set.clone() }]));
}

function withoutManagedFields(obj: KubeObject): KubeObject {
  const out = structuredClone(obj);
  out.metadata ??= {};
  delete out.metadata.managedFields;
  return out;
}

function shallowWithoutManagedFields(obj: KubeObject): KubeObject {
  const { managedFields: _dropped, ...metadata } = obj.metadata ?? {};
  return { ...obj, metadata };
}

function withManagedFields(obj: KubeObject, managed: Managed): KubeObject {
  obj.metadata ??= {};
  const entries = encodeManagedFields(managed);
  if (entries.length > 0) obj.metadata.managedFields = entries;
  else delete obj.metadata.managedFields;
  return obj;
}

/** Nulls in an applied configuration mean "unset" once decoded into the typed object. */
function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (!isPlainObject(v)) return v;
  const out: Obj = {};
  for (const [k, c] of Object.entries(v)) if (c !== null) out[k] = dropNulls(c);
  return out;
}
