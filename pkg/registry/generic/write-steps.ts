// Steps every write path of the generic store shares: namespace binding, the strategy's
// context and warnings, admission attributes, validation errors, the create hook.
import type { AdmissionAttributes, Operation } from '../../admission/interfaces.js';
import { errors, type FieldError } from '../../runtime/errors.js';
import type { KubeObject } from '../../runtime/object.js';
import { deepEqual, membersEqual } from '../../util/deep-equal.js';
import type { StoreDef } from './store-def.js';
import type { FinishFunc } from './hooks.js';
import type { StrategyContext } from './strategy.js';
import type { RequestScope } from './store-interfaces.js';

export function bindNamespace(def: StoreDef, obj: KubeObject, namespace: string): void {
  obj.metadata ??= {};
  if (!def.namespaced) {
    // Cluster-scoped objects carry no namespace; upstream clears it silently.
    delete obj.metadata.namespace;
    return;
  }
  if (!obj.metadata.namespace) obj.metadata.namespace = namespace;
  else if (namespace && obj.metadata.namespace !== namespace) {
    throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
}

/** What a create with no hook finishes: nothing, and its caller need not await it (a microtask turn). */
export const nothingToFinish: FinishFunc = async () => undefined;

/** The create hook's work for this object, or nothingToFinish, without a promise, when there is none. */
export function beginCreate(def: StoreDef, obj: KubeObject, scope: RequestScope): FinishFunc | Promise<FinishFunc> {
  const begin = def.hooks?.beginCreate;
  if (!begin || scope.subresource) return nothingToFinish;
  return begin(obj, scope.dryRun);
}

export function strategyContext(scope: RequestScope, namespace?: string): StrategyContext {
  return { user: scope.user, namespace, subresource: scope.subresource };
}

export function collectWarnings(def: StoreDef, scope: RequestScope, obj: KubeObject, old?: KubeObject): void {
  if (!scope.warnings || !def.strategy.warnings) return;
  scope.warnings.push(...def.strategy.warnings(obj, old));
}

export function admissionAttrs(def: StoreDef, operation: Operation, obj: KubeObject | undefined,
  old: KubeObject | undefined, scope: RequestScope): AdmissionAttributes {
  const meta = (obj ?? old)!.metadata;
  return {
    operation, group: def.group, version: def.version, kind: def.kind, resource: def.plural,
    subresource: scope.subresource ?? '', namespace: meta.namespace ?? '', name: meta.name ?? '',
    object: obj, oldObject: old, user: scope.user, dryRun: scope.dryRun,
    warnings: scope.warnings, auditAnnotations: scope.auditAnnotations, options: scope.admissionOptions,
  };
}

export function assertValid(def: StoreDef, obj: KubeObject, fieldErrors: FieldError[]): void {
  if (fieldErrors.length > 0) {
    throw errors.invalid(def.group, def.kind, obj.metadata.name ?? obj.metadata.generateName ?? '', fieldErrors);
  }
}

/**
 * An update that changes nothing is not written (upstream skips no-op writes). deepEqual of
 * the two, with metadata compared last: an update's change is nearly always outside it,
 * and its managed fields are most of a small object.
 */
export function sameContent(a: KubeObject, b: KubeObject, nullIsAbsent = false): boolean {
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  return membersEqual(ao, bo, nullIsAbsent, 'metadata') && deepEqual(ao.metadata, bo.metadata, nullIsAbsent);
}
