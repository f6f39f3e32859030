// The objects a start creates on a fresh etcd (system namespaces, priority classes,
// APIServices, the RBAC bootstrap policy: some 220) as the create path stores them, made
// ahead by hack/gen-bootstrap-objects.ts from that same path (bootstrap-objects-gen.ts,
// whose test keeps pkg/generated/bootstrap-objects.json equal to what it makes). Decoding,
// defaulting, validation and managedFields cost a start a quarter of its CPU for objects
// that are always the same; admission and the write still run (createPrepared). Found by
// the request (resource, namespace, field manager, body); anything else, or a server
// with feature gates set, takes the full path.
import { createHash } from 'node:crypto';
import { featureGates } from '../features/gates.js';
import { nowTimestamp } from '../registry/generic/names.js';
import type { KubeObject } from '../runtime/object.js';
import generated from '../generated/bootstrap-objects.json' with { type: 'json' };

export interface BootstrapRequest { group: string; version: string; plural: string; namespace: string; fieldManager: string; body: KubeObject }

export function bootstrapObjectKey(r: BootstrapRequest): string {
  return createHash('sha1').update(`${r.group}/${r.version}/${r.plural}\n${r.namespace}\n${r.fieldManager}\n${JSON.stringify(r.body)}`).digest('base64url');
}

const prepared = generated as unknown as Record<string, KubeObject>;

/** What the create path would store for `r`, but for its uid and creation time; managedFields stamped now. */
export function preparedBootstrapObject(r: BootstrapRequest): KubeObject | undefined {
  if (!featureGates().atDefaults()) return undefined;
  const made = prepared[bootstrapObjectKey(r)];
  if (!made) return undefined;
  const obj = structuredClone(made);
  const now = nowTimestamp();
  for (const entry of obj.metadata.managedFields ?? []) entry.time = now;
  return obj;
}
