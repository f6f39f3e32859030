// ABAC mode (--authorization-policy-file): upstream's JSON-lines policy file, one
// abac.authorization.kubernetes.io/v1beta1 Policy per line; blank and `#` lines skipped.
// A line that does not parse stops the server with the file and line named.
import { readFileSync } from 'node:fs';
import type { UserInfo } from '../../authentication/user.js';
import { isReadOnly, type Attributes, type Authorizer, type Decision, type RuleResolver, type RulesResult } from '../interfaces.js';

export interface PolicySpec {
  user?: string;
  group?: string;
  readonly?: boolean;
  apiGroup?: string;
  resource?: string;
  namespace?: string;
  nonResourcePath?: string;
}

const apiVersionV1beta1 = 'abac.authorization.kubernetes.io/v1beta1';

export class PolicyLoadError extends Error {}

export function parsePolicyFile(path: string, text: string): PolicySpec[] {
  const policies: PolicySpec[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].replace(/\r$/, '');
    const trimmed = raw.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const fail = (why: string): never => {
      throw new PolicyLoadError(`error reading policy file ${path}, line ${i + 1}: ${raw}: ${why}`);
    };
    let obj: unknown;
    try {
      obj = JSON.parse(trimmed);
    } catch (err) {
      fail((err as Error).message);
    }
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) fail('not a JSON object');
    const o = obj as Record<string, unknown>;
    if (o.apiVersion === undefined && o.kind === undefined) {
      // Unversioned (v0) lines: the policy fields sit at the top level.
      policies.push(fromV0(o));
      continue;
    }
    if (o.apiVersion !== apiVersionV1beta1) fail(`no kind "${String(o.kind ?? '')}" is registered for version "${String(o.apiVersion ?? '')}"`);
    if (o.kind !== 'Policy') fail(`no kind "${String(o.kind ?? '')}" is registered for version "${apiVersionV1beta1}"`);
    const spec = o.spec;
    if (spec !== undefined && (typeof spec !== 'object' || spec === null || Array.isArray(spec))) fail('spec must be an object');
    policies.push(checkSpec((spec ?? {}) as Record<string, unknown>, fail));
  }
  return policies;
}

function checkSpec(s: Record<string, unknown>, fail: (why: string) => never): PolicySpec {
  const out: PolicySpec = {};
  for (const k of ['user', 'group', 'apiGroup', 'resource', 'namespace', 'nonResourcePath'] as const) {
    if (s[k] === undefined || s[k] === null) continue;
    if (typeof s[k] !== 'string') fail(`json: cannot unmarshal ${typeof s[k]} into Go struct field PolicySpec.spec.${k} of type string`);
    out[k] = s[k] as string;
  }
  if (s.readonly !== undefined && s.readonly !== null) {
    if (typeof s.readonly !== 'boolean') fail(`json: cannot unmarshal ${typeof s.readonly} into Go struct field PolicySpec.spec.readonly of type bool`);
    out.readonly = s.readonly;
  }
  return out;
}

/** v0 policies: an empty user and group meant every authenticated user; `*` fields too. */
function fromV0(o: Record<string, unknown>): PolicySpec {
  const str = (k: string): string => (typeof o[k] === 'string' ? (o[k] as string) : '');
  const p: PolicySpec = { user: str('user'), group: str('group'), readonly: o.readonly === true,
    resource: str('resource') || '*', namespace: str('namespace') || '*', apiGroup: '*', nonResourcePath: '*' };
  if (!p.user && !p.group) p.group = 'system:authenticated';
  return p;
}

function subjectMatches(p: PolicySpec, user: UserInfo): boolean {
  let matched = false;
  if (p.user) {
    if (p.user === '*') matched = true;
    else if (p.user === user.name) matched = true;
    else return false;
  }
  if (p.group) {
    if (p.group === '*') matched = true;
    else if (user.groups.includes(p.group)) matched = true;
    else return false;
  }
  return matched;
}

function resourceMatches(p: PolicySpec, a: Attributes): boolean {
  return a.isResourceRequest && (p.namespace === '*' || (p.namespace ?? '') === a.namespace)
    && (p.resource === '*' || (p.resource ?? '') === a.resource)
    && (p.apiGroup === '*' || (p.apiGroup ?? '') === a.apiGroup);
}

function nonResourceMatches(p: PolicySpec, a: Attributes): boolean {
  if (a.isResourceRequest) return false;
  const path = p.nonResourcePath ?? '';
  return path === '*' || path === a.path || (path.endsWith('*') && a.path.startsWith(path.replace(/\*+$/, '')));
}

export class ABACAuthorizer implements Authorizer, RuleResolver {
  readonly name = 'ABAC';
  constructor(readonly policies: PolicySpec[]) {}

  static fromFile(path: string): ABACAuthorizer {
    return new ABACAuthorizer(parsePolicyFile(path, readFileSync(path, 'utf8')));
  }

  async authorize(a: Attributes): Promise<Decision> {
    for (const p of this.policies) {
      if (!subjectMatches(p, a.user)) continue;
      if (!isReadOnly(a.verb) && p.readonly) continue;
      if (resourceMatches(p, a) || nonResourceMatches(p, a)) return { decision: 'allow', reason: '' };
    }
    return { decision: 'noOpinion', reason: 'No policy matched.' };
  }

  async rulesFor(user: UserInfo, namespace: string): Promise<RulesResult> {
    const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
    for (const p of this.policies) {
      if (!subjectMatches(p, user) || !(p.namespace === '*' || p.namespace === namespace)) continue;
      const verbs = p.readonly ? ['get', 'list', 'watch'] : ['*'];
      if (p.resource) out.resourceRules.push({ verbs, apiGroups: [p.apiGroup ?? ''], resources: [p.resource], resourceNames: [] });
      if (p.nonResourcePath) out.nonResourceRules.push({ verbs, nonResourceURLs: [p.nonResourcePath] });
    }
    return out;
  }
}
