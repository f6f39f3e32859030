// The objects a start writes on a fresh etcd (system namespaces, priority classes,
// APIServices with their status, the RBAC policy: some 154) as the create path and the
// hooks' later writes store them, made ahead by hack/gen-bootstrap-objects.mjs from those
// same paths (bootstrap-objects-gen.ts, whose test keeps pkg/generated/bootstrap-objects.json
// equal to what they make). Decoding, defaulting, validation, managedFields and an
// APIService's status update cost a start a third of its CPU for objects that are always
// the same; admission and one write per object still run (createPrepared). Found by the
// create request (resource, namespace, field manager, body); anything else, or a server
// with feature gates set, takes the full path.
import { createHash } from 'node:crypto';
import { featureGates } from '../features/gates.js';
import { nowTimestamp } from '../registry/generic/names.js';
import { isPlainObject, type KubeObject } from '../runtime/object.js';
import generated from '../generated/bootstrap-objects.json' with { type: 'json' };

export interface BootstrapRequest { group: string; version: string; plural: string; namespace: string; fieldManager: string; body: KubeObject }

export function bootstrapObjectKey(r: BootstrapRequest): string {
  return createHash('sha1').update(`${r.group}/${r.version}/${r.plural}\n${r.namespace}\n${r.fieldManager}\n${JSON.stringify(r.body)}`).digest('base64url');
}

/** Sets (in place) what a write takes from the clock or makes unique: uid, creation, managedFields and condition times. */
function setClockFields(obj: KubeObject, uid: string, now: string): KubeObject {
  if ('uid' in obj.metadata) obj.metadata.uid = uid;
  if ('creationTimestamp' in obj.metadata) obj.metadata.creationTimestamp = now;
  for (const entry of obj.metadata.managedFields ?? []) entry.time = now;
  const conditions = isPlainObject(obj.status) && Array.isArray(obj.status.conditions) ? obj.status.conditions : [];
  for (const c of conditions) if (isPlainObject(c) && 'lastTransitionTime' in c) c.lastTransitionTime = now;
  return obj;
}

/** `obj` with those fields blanked where they are (a JSON-encoded object keeps its key order). */
export function blankClockFields(obj: KubeObject): KubeObject {
  return setClockFields(structuredClone(obj), '', '');
}

const prepared = generated as unknown as Record<string, KubeObject>;

/** What the create path (and the hooks' later writes) would store for `r`, stamped now; createPrepared sets its uid. */
export function preparedBootstrapObject(r: BootstrapRequest): KubeObject | undefined {
  if (!featureGates().atDefaults()) return undefined;
  const made = prepared[bootstrapObjectKey(r)];
  return made && setClockFields(structuredClone(made), '', nowTimestamp());
}
