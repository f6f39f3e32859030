// apiextensions.k8s.io/v1 CustomResourceDefinition as JSON, with the helpers that
// registry, controllers and (later) custom-resource serving share. Fields are optional
// because decoded bodies are not trusted to be complete.
import { isPlainObject, type KubeObject } from '../../runtime/object.js';

export type JSONSchemaProps = Record<string, unknown>;

export interface CRDNames {
  plural?: string;
  singular?: string;
  kind?: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

export interface CRDColumn {
  name?: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
}

export interface CRDSubresources {
  status?: Record<string, unknown>;
  scale?: { specReplicasPath?: string; statusReplicasPath?: string; labelSelectorPath?: string };
}

export interface CRDVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: CRDSubresources;
  additionalPrinterColumns?: CRDColumn[];
}

export interface ServiceReference { namespace?: string; name?: string; path?: string; port?: number }

export interface CRDConversion {
  strategy?: string;
  webhook?: {
    clientConfig?: { url?: string; service?: ServiceReference; caBundle?: string };
    conversionReviewVersions?: string[];
  };
}

export interface CRDSpec {
  group?: string;
  names?: CRDNames;
  scope?: string;
  versions?: CRDVersion[];
  conversion?: CRDConversion;
  preserveUnknownFields?: boolean;
}

export interface CRDCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CRDStatus {
  acceptedNames?: CRDNames;
  conditions?: CRDCondition[] | null;
  storedVersions?: string[];
}

/** Removed by the finalizer controller once the custom resources are gone. */
export const CustomResourceCleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

/** v when it is a JSON object, typed as the caller expects; undefined otherwise. */
export function asObject<T>(v: unknown): T | undefined {
  return isPlainObject(v) ? (v as T) : undefined;
}

export function crdSpec(obj: KubeObject): CRDSpec {
  return isPlainObject(obj.spec) ? (obj.spec as CRDSpec) : {};
}

export function crdStatus(obj: KubeObject): CRDStatus {
  return isPlainObject(obj.status) ? (obj.status as CRDStatus) : {};
}

export function crdVersions(obj: KubeObject): CRDVersion[] {
  const v = crdSpec(obj).versions;
  return Array.isArray(v) ? v.filter(isPlainObject) as CRDVersion[] : [];
}

export function storageVersion(obj: KubeObject): string | undefined {
  return crdVersions(obj).find((v) => v.storage === true)?.name;
}

export function findCondition(obj: KubeObject, type: string): CRDCondition | undefined {
  const conds = crdStatus(obj).conditions;
  return Array.isArray(conds) ? conds.find((c) => isPlainObject(c) && c.type === type) : undefined;
}

export function isConditionTrue(obj: KubeObject, type: string): boolean {
  return findCondition(obj, type)?.status === 'True';
}

/**
 * Upstream's SetCRDCondition: replaces the condition of that type, keeping its
 * lastTransitionTime unless the status changes.
 */
export function setCondition(obj: KubeObject, cond: CRDCondition, now: string): void {
  const status = isPlainObject(obj.status) ? (obj.status as CRDStatus) : (obj.status = {} as CRDStatus) as CRDStatus;
  const conds = Array.isArray(status.conditions) ? status.conditions : [];
  const existing = conds.find((c) => c.type === cond.type);
  const next: CRDCondition = { ...cond, lastTransitionTime: cond.lastTransitionTime ?? now };
  if (existing && existing.status === cond.status && existing.lastTransitionTime) next.lastTransitionTime = existing.lastTransitionTime;
  const ordered: CRDCondition = { type: next.type, status: next.status, lastTransitionTime: next.lastTransitionTime, reason: next.reason, message: next.message };
  status.conditions = existing ? conds.map((c) => (c === existing ? ordered : c)) : [...conds, ordered];
}
