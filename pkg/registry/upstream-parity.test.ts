// The served surface measured against upstream's published OpenAPI (v1.28): for every
// resource and subresource, the verbs its operations declare (x-kubernetes-action), the
// scope, and which resources of a served group version exist. Discovery, routing and
// RBAC all read the scheme, so this pins the verbs kubectl api-resources shows.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildScheme } from './index.js';
import { beyondUpstreamGroups } from './beyond-upstream.js';
import { repoRoot } from '../../test/harness/repo.js';

interface Operation { 'x-kubernetes-action'?: string }
type PathItem = Record<string, Operation | unknown>;

const actionVerb: Record<string, string> = {
  get: 'get', list: 'list', watch: 'watch', watchlist: 'watch', post: 'create', put: 'update', patch: 'patch',
  delete: 'delete', deletecollection: 'deletecollection',
};

const connectVerb: Record<string, string> = { get: 'get', post: 'create', put: 'update', patch: 'patch', delete: 'delete' };

interface UpstreamResource { namespaced: boolean; verbs: Set<string> }

/** `group/version/resource[/subresource]` -> scope and verbs, from the OpenAPI v2 paths. */
function upstreamSurface(): Map<string, UpstreamResource> {
  const file = join(repoRoot(), '..', 'shared', 'upstream-openapi', 'swagger.json');
  const paths = (JSON.parse(readFileSync(file, 'utf8')) as { paths: Record<string, PathItem> }).paths;
  const out = new Map<string, UpstreamResource>();
  for (const [path, item] of Object.entries(paths)) {
    const m = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))\/(.*)$/.exec(path);
    if (!m) continue;
    const group = m[2] ?? '';
    const version = m[1] ?? m[3];
    let segs = m[4].split('/');
    if (segs[0] === 'watch') segs = segs.slice(1);
    let namespaced = false;
    if (segs[0] === 'namespaces' && segs[1] === '{namespace}' && segs.length > 2) {
      namespaced = true;
      segs = segs.slice(2);
    }
    const [resource, name, subresource] = segs;
    if (!resource || resource.startsWith('{') || (name !== undefined && !name.startsWith('{'))) continue;
    const key = `${group}/${version}/${resource}${subresource ? `/${subresource}` : ''}`;
    const entry = out.get(key) ?? { namespaced, verbs: new Set<string>() };
    entry.namespaced ||= namespaced;
    for (const [method, op] of Object.entries(item)) {
      if (method === 'parameters') continue;
      const action = (op as Operation)['x-kubernetes-action'] ?? '';
      // Connect subresources (pods/exec, services/proxy) show the HTTP methods they take as verbs.
      const verb = action === 'connect' ? connectVerb[method] : actionVerb[action];
      if (verb) entry.verbs.add(verb);
    }
    out.set(key, entry);
  }
  return out;
}

describe('served surface against upstream v1.28 OpenAPI', () => {
  const upstream = upstreamSurface();
  const scheme = buildScheme();

  it('every resource and subresource has upstream\'s scope and verbs', () => {
    const diffs: string[] = [];
    for (const def of scheme.resources()) {
      if (beyondUpstreamGroups.has(def.group)) continue;
      const key = `${def.group}/${def.version}/${def.plural}`;
      const up = upstream.get(key);
      if (!up) { diffs.push(`${key}: not in upstream`); continue; }
      if (up.namespaced !== def.namespaced) diffs.push(`${key}: namespaced ${def.namespaced}, upstream ${up.namespaced}`);
      const ours = [...def.verbs].sort().join(',');
      const theirs = [...up.verbs].sort().join(',');
      if (ours !== theirs) diffs.push(`${key}: verbs ${ours}, upstream ${theirs}`);
      for (const sub of def.subresources ?? []) {
        const subUp = upstream.get(`${key}/${sub.name}`);
        const subOurs = [...sub.verbs].sort().join(',');
        const subTheirs = [...(subUp?.verbs ?? [])].sort().join(',');
        if (subOurs !== subTheirs) diffs.push(`${key}/${sub.name}: verbs ${subOurs}, upstream ${subTheirs}`);
      }
    }
    expect(diffs).to.deep.equal([]);
  });

  it('every resource and subresource upstream serves in a served group version is served', () => {
    const servedVersions = new Set(scheme.resources().map((d) => `${d.group}/${d.version}`));
    const served = new Set(scheme.resources().map((d) => `${d.group}/${d.version}/${d.plural}`));
    for (const d of scheme.resources()) for (const sub of d.subresources ?? []) served.add(`${d.group}/${d.version}/${d.plural}/${sub.name}`);
    const missing = [...upstream.keys()]
      .filter((k) => servedVersions.has(k.split('/').slice(0, 2).join('/')) && !served.has(k))
      .sort();
    expect(missing).to.deep.equal([]);
  });
});
