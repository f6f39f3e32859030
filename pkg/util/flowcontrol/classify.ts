// Which FlowSchema a request falls under (upstream's pkg/util/flowcontrol rule
// matching): schemas in order of matchingPrecedence then name; a schema matches when one
// of its rules names the requester as a subject and covers the request by a resource
// rule (resource requests) or a non-resource rule (everything else).
import type { KubeObject } from '../../runtime/object.js';

export interface RequestDigest {
  user: { name: string; groups?: string[] };
  isResourceRequest: boolean;
  verb: string;
  apiGroup: string;
  resource: string;
  subresource: string;
  namespace: string;
  path: string;
}

type Obj = Record<string, unknown>;
const all = '*';

export function sortFlowSchemas(schemas: KubeObject[]): KubeObject[] {
  const precedence = (fs: KubeObject) => Number((fs.spec as Obj | undefined)?.matchingPrecedence ?? 1000);
  return [...schemas].sort((a, b) => precedence(a) - precedence(b) || (a.metadata.name! < b.metadata.name! ? -1 : a.metadata.name! > b.metadata.name! ? 1 : 0));
}

export function matchesFlowSchema(fs: KubeObject, d: RequestDigest): boolean {
  const rules = ((fs.spec as Obj | undefined)?.rules ?? []) as Obj[];
  return rules.some((r) => matchesSubject(r.subjects as Obj[] | undefined, d.user)
    && (d.isResourceRequest
      ? ((r.resourceRules ?? []) as Obj[]).some((rr) => matchesResourceRule(rr, d))
      : ((r.nonResourceRules ?? []) as Obj[]).some((nr) => matchesNonResourceRule(nr, d))));
}

/** The flow within a schema: by user, by namespace, or one flow for all. */
export function flowDistinguisher(fs: KubeObject, d: RequestDigest): string {
  switch (((fs.spec as Obj | undefined)?.distinguisherMethod as Obj | undefined)?.type) {
    case 'ByUser': return d.user.name;
    case 'ByNamespace': return d.namespace;
    default: return '';
  }
}

function matchesSubject(subjects: Obj[] | undefined, user: RequestDigest['user']): boolean {
  return (subjects ?? []).some((s) => {
    switch (s.kind) {
      case 'User': { const n = (s.user as Obj | undefined)?.name; return n === all || n === user.name; }
      case 'Group': { const n = (s.group as Obj | undefined)?.name; return n === all || (user.groups ?? []).includes(String(n)); }
      case 'ServiceAccount': {
        const sa = (s.serviceAccount ?? {}) as Obj;
        const m = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(user.name);
        return m !== null && sa.namespace === m[1] && (sa.name === all || sa.name === m[2]);
      }
      default: return false;
    }
  });
}

const has = (list: unknown, v: string): boolean => Array.isArray(list) && (list.includes(all) || list.includes(v));

function matchesResourceRule(r: Obj, d: RequestDigest): boolean {
  if (!has(r.verbs, d.verb) || !has(r.apiGroups, d.apiGroup)) return false;
  const resources = (r.resources ?? []) as string[];
  const wanted = d.subresource ? `${d.resource}/${d.subresource}` : d.resource;
  if (resources.length === 0 || !(resources[0] === all || resources.includes(wanted))) return false;
  if (d.namespace === '') return r.clusterScope === true;
  return has(r.namespaces, d.namespace);
}

function matchesNonResourceRule(r: Obj, d: RequestDigest): boolean {
  if (!has(r.verbs, d.verb)) return false;
  return ((r.nonResourceURLs ?? []) as string[]).some((u) => {
    if (u === all || u === d.path) return true;
    if (!u.endsWith('*')) return false;
    let prefix = u.slice(0, -1);
    if (prefix.endsWith('/')) prefix = prefix.slice(0, -1);
    return d.path.startsWith(prefix);
  });
}
