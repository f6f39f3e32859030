// Upstream's recorded answers (../shared/fixtures/surface) replayed through a resource's
// strategy, for unit tests: the create path's defaulting, preparation and validation.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { errors, type Status } from '../../pkg/runtime/errors.js';
import type { KubeObject } from '../../pkg/runtime/object.js';
import type { ResourceDef } from '../../pkg/registry/rest/resource.js';

const root = resolve(process.env.SURFACE_FIXTURES ?? resolve(process.cwd(), '../shared/fixtures/surface'));

function read<T>(rel: string): T {
  return JSON.parse(readFileSync(resolve(root, rel), 'utf8')) as T;
}

/** objects/<gv>.<Kind>.<name>.{request,response}.json */
export function objectFixture(gv: string, kind: string, name: string): { request: KubeObject; response: KubeObject } {
  const base = `objects/${gv}.${kind}.${name}`;
  return { request: read(`${base}.request.json`), response: read(`${base}.response.json`) };
}

export interface InvalidFixture {
  request: { body: KubeObject; method: string; path: string };
  response: Status;
  status: number;
}

export function invalidFixture(name: string): InvalidFixture {
  return read(`invalid/${name}.json`);
}

export interface TableFixture {
  columnDefinitions: { name: string; type: string; format: string; priority: number }[];
  rows: unknown[][];
}

export function tableFixture(gv: string, kind: string): TableFixture {
  return read(`tables/${gv}.${kind}.json`);
}

/**
 * A POST as the generic store handles it before storage: defaults, prepareForCreate,
 * validation (an Invalid error when it fails), canonicalize. Returns the object to store.
 */
export function createThrough(def: ResourceDef, body: KubeObject, namespace = ''): KubeObject {
  const obj = structuredClone(body);
  obj.metadata = obj.metadata ?? {};
  if (def.namespaced && !obj.metadata.namespace) obj.metadata.namespace = namespace;
  def.strategy.applyDefaults(obj);
  def.strategy.prepareForCreate(obj, {});
  const errs = def.strategy.validate(obj, {});
  if (errs.length > 0) throw errors.invalid(def.group, def.kind, obj.metadata.name ?? '', errs);
  def.strategy.canonicalize(obj);
  return obj;
}

/** The fixture response without what differs on every run (README of the fixtures). */
export function withoutVolatile(obj: KubeObject): KubeObject {
  const o = structuredClone(obj);
  for (const k of ['uid', 'creationTimestamp', 'resourceVersion', 'managedFields'] as const) delete o.metadata[k];
  return o;
}
