// Reads upstream's captured surface fixtures (../shared/fixtures/surface, relative to the
// worktree the tests run from).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject } from '../../pkg/runtime/object.js';

export const surfaceDir = join(process.cwd(), '..', 'shared', 'fixtures', 'surface');

export function fixtureObject(gv: string, kind: string, name: string, which: 'request' | 'response'): KubeObject {
  return JSON.parse(readFileSync(join(surfaceDir, 'objects', `${gv}.${kind}.${name}.${which}.json`), 'utf8')) as KubeObject;
}

export interface FixtureTable {
  columnDefinitions: { name: string; type: string; format: string; priority: number }[];
  rows: unknown[][];
}

export function fixtureTable(gv: string, kind: string): FixtureTable {
  return JSON.parse(readFileSync(join(surfaceDir, 'tables', `${gv}.${kind}.json`), 'utf8')) as FixtureTable;
}

/** The response without what differs on every run (uid, timestamps, resourceVersion, managedFields). */
export function withoutRunValues(obj: KubeObject): KubeObject {
  const o = structuredClone(obj);
  for (const k of ['uid', 'creationTimestamp', 'resourceVersion', 'managedFields'] as const) delete o.metadata[k];
  return o;
}
