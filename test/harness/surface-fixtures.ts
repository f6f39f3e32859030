// Upstream's captured answers (../shared/fixtures/surface) replayed against a resource's
// declaration, for unit tests: an object fixture goes through defaulting, prepare,
// validation and canonicalize as a create would; an invalid one must fail with
// upstream's exact Status.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errors, StatusError } from '../../pkg/runtime/errors.js';
import type { KubeObject } from '../../pkg/runtime/object.js';
import type { ResourceDef } from '../../pkg/registry/rest/resource.js';
import { repoRoot } from './repo.js';
import { arr, type Obj } from '../../pkg/apis/core/types.js';

export function surfaceDir(): string {
  return process.env.SURFACE_FIXTURES ?? join(repoRoot(), '..', 'shared', 'fixtures', 'surface');
}

export function readSurface(...parts: string[]): Record<string, unknown> {
  return JSON.parse(readFileSync(join(surfaceDir(), ...parts), 'utf8')) as Record<string, unknown>;
}

export interface ObjectFixture { request: KubeObject; response: KubeObject }

export function objectFixture(name: string): ObjectFixture {
  return {
    request: readSurface('objects', `${name}.request.json`) as KubeObject,
    response: readSurface('objects', `${name}.response.json`) as KubeObject,
  };
}

export interface InvalidFixture {
  request: { method: string; path: string; contentType: string; body: KubeObject };
  status: number;
  response: Record<string, unknown>;
}

export function invalidFixture(name: string): InvalidFixture {
  return readSurface('invalid', `${name}.json`) as unknown as InvalidFixture;
}

/** What a create through the strategy stores (uid and timestamps as the store sets them). */
export function createThrough(def: ResourceDef, body: KubeObject, namespace = 'fixtures', uid = 'uid-1'): KubeObject {
  const obj = structuredClone(body);
  obj.metadata ??= {};
  if (def.namespaced) obj.metadata.namespace = namespace;
  def.strategy.applyDefaults(obj);
  obj.metadata.uid = uid;
  obj.metadata.creationTimestamp = '2026-01-01T00:00:00Z';
  def.strategy.prepareForCreate(obj, { namespace });
  const errs = def.strategy.validate(obj, { namespace });
  if (errs.length > 0) throw errors.invalid(def.group, def.kind, obj.metadata.name ?? '', errs);
  def.strategy.canonicalize(obj);
  obj.metadata.resourceVersion = '1';
  return obj;
}

/** The Status a failing create answers with (undefined when it succeeds). */
export function createStatus(def: ResourceDef, body: KubeObject, namespace = 'fixtures'): Record<string, unknown> | undefined {
  try {
    createThrough(def, body, namespace);
    return undefined;
  } catch (err) {
    if (err instanceof StatusError) return err.toStatus() as unknown as Record<string, unknown>;
    throw err;
  }
}

/** A response without what differs on every run (uid, timestamps, resourceVersion, managedFields). */
export function stripVolatile(o: KubeObject): KubeObject {
  const c = structuredClone(o);
  delete c.metadata.uid;
  delete c.metadata.creationTimestamp;
  delete c.metadata.resourceVersion;
  delete c.metadata.managedFields;
  return c;
}

export interface TableFixture { columnDefinitions: Array<Record<string, unknown>>; rows: unknown[][] }

export function tableFixture(name: string): TableFixture {
  return readSurface('tables', `${name}.json`) as unknown as TableFixture;
}

/** Columns without descriptions (the fixtures do not hold them). */
export function columnsOf(def: ResourceDef): Array<Record<string, unknown>> {
  return (def.table?.columns ?? []).map(({ name, type, format, priority }) => ({ name, type, format, priority }));
}

/** A row's cells with the Age column (and any other named volatile column) taken from `cells`. */
export function withVolatileCells(def: ResourceDef, want: unknown[], cells: unknown[], volatile: string[] = []): unknown[] {
  const out = [...want];
  (def.table?.columns ?? []).forEach((c, i) => {
    if (c.name === 'Age' || volatile.includes(c.name)) out[i] = cells[i];
  });
  return out;
}

/**
 * Fields upstream's admission plugins added to the fixture responses, which this
 * server's strategy does not (admission plugins are a separate piece):
 * ServiceAccount: spec.serviceAccount(Name), the kube-api-access-* volume and its mounts;
 * Priority: spec.priority, spec.preemptionPolicy;
 * DefaultTolerationSeconds: the not-ready/unreachable NoExecute tolerations.
 */
export function withoutPodAdmissionFields(spec: Obj): void {
  delete spec.serviceAccount;
  delete spec.serviceAccountName;
  delete spec.priority;
  delete spec.preemptionPolicy;
  const isToken = (name: unknown) => typeof name === 'string' && name.startsWith('kube-api-access-');
  if (Array.isArray(spec.volumes)) {
    spec.volumes = arr(spec.volumes).filter((v) => !isToken(v.name));
    if ((spec.volumes as unknown[]).length === 0) delete spec.volumes;
  }
  for (const list of ['containers', 'initContainers']) {
    for (const c of arr(spec[list])) {
      if (!Array.isArray(c.volumeMounts)) continue;
      c.volumeMounts = arr(c.volumeMounts).filter((m) => !isToken(m.name));
      if ((c.volumeMounts as unknown[]).length === 0) delete c.volumeMounts;
    }
  }
  if (Array.isArray(spec.tolerations)) {
    spec.tolerations = arr(spec.tolerations).filter((t) => !(t.effect === 'NoExecute' && t.tolerationSeconds === 300
      && ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'].includes(String(t.key))));
    if ((spec.tolerations as unknown[]).length === 0) delete spec.tolerations;
  }
}

