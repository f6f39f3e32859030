// startTestServer({ crds }): as envtest's CRDDirectoryPaths, CustomResourceDefinitions from
// files, directories of YAML/JSON files, or objects; created, then waited for until
// each is Established.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { AdminClient } from './client.js';

export type CRDSource = string | Record<string, unknown>;

const manifestExtensions = new Set(['.yaml', '.yml', '.json']);

function fromFile(path: string): Record<string, unknown>[] {
  return parseAllDocuments(readFileSync(path, 'utf8')).map((d) => d.toJS()).filter((o) => o && o.kind === 'CustomResourceDefinition');
}

export function loadCRDs(sources: CRDSource[]): Record<string, unknown>[] {
  return sources.flatMap((s) => {
    if (typeof s !== 'string') return [s];
    if (!statSync(s).isDirectory()) return fromFile(s);
    return readdirSync(s).sort().filter((f) => manifestExtensions.has(extname(f))).flatMap((f) => fromFile(join(s, f)));
  });
}

const path = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

export async function installCRDs(client: AdminClient, crds: Record<string, unknown>[], timeoutMs: number): Promise<void> {
  for (const crd of crds) {
    const r = await client.call('POST', path, crd);
    if (r.status !== 201) throw new Error(`creating CustomResourceDefinition: ${r.status} ${JSON.stringify(r.body)}`);
  }
  const deadline = Date.now() + timeoutMs;
  for (const crd of crds) {
    const name = (crd.metadata as { name: string }).name;
    for (;;) {
      const r = await client.call('GET', `${path}/${name}`);
      const conditions: Array<{ type: string; status: string }> = r.body?.status?.conditions ?? [];
      if (conditions.some((c) => c.type === 'Established' && c.status === 'True') && await served(client, crd)) break;
      if (Date.now() > deadline) throw new Error(`CustomResourceDefinition ${name} not Established and served after ${timeoutMs}ms`);
      await new Promise((res) => setTimeout(res, 50));
    }
  }
}

/** As envtest's WaitForCRDs: every served version lists the resource in discovery. */
async function served(client: AdminClient, crd: Record<string, unknown>): Promise<boolean> {
  const spec = crd.spec as { group: string; names: { plural: string }; versions: Array<{ name: string; served: boolean }> };
  for (const v of spec.versions.filter((x) => x.served)) {
    const r = await client.call('GET', `/apis/${spec.group}/${v.name}`);
    const resources: Array<{ name: string }> = r.body?.resources ?? [];
    if (!resources.some((x) => x.name === spec.names.plural)) return false;
  }
  return true;
}
