// Kubernetes' authorizer library (library/authz.go): authorizer.group(g).resource(r)
// .subresource(s).namespace(ns).name(n).check(verb).allowed(), authorizer.path(p).check(verb),
// authorizer.serviceAccount(ns, name) and authorizer.requestResource. CEL evaluation is
// synchronous and the server's Authorizer is not, so check() answers from a per-evaluation
// cache and records what it could not answer; the evaluator asks the Authorizer for those
// and evaluates again (see compile.ts). Values are maps tagged with '@authz'.
import type { CelFunc, CelMap } from '@bufbuild/cel';
import { cel } from '../runtime.js';
import type { UserInfo } from '../../authentication/user.js';
import type { Attributes, Authorizer, Decision } from '../../authorization/interfaces.js';

const TAG = '@authz';

/** One evaluation's view of the authorizer: its user, and the decisions known so far. */
export class AuthzSession {
  readonly decisions = new Map<string, Decision>();
  readonly pending = new Map<string, Attributes>();
  constructor(readonly authorizer: Authorizer, readonly user: UserInfo) {}

  /** Asks the Authorizer for every check the last evaluation could not answer. */
  async resolvePending(): Promise<void> {
    const todo = [...this.pending];
    this.pending.clear();
    await Promise.all(todo.map(async ([key, attrs]) => {
      try {
        this.decisions.set(key, await this.authorizer.authorize(attrs));
      } catch (err) {
        this.decisions.set(key, { decision: 'noOpinion', reason: '', error: (err as Error).message });
      }
    }));
  }
}

const sessions = new Map<string, AuthzSession>();
let nextSession = 0;

export function openSession(s: AuthzSession): string {
  const id = String(++nextSession);
  sessions.set(id, s);
  return id;
}
export function closeSession(id: string): void {
  sessions.delete(id);
}

type Fields = Record<string, string>;

function fields(m: CelMap): Fields {
  const out: Fields = {};
  for (const [k, v] of m) if (typeof k === 'string' && typeof v === 'string') out[k] = v;
  return out;
}

function expect(m: CelMap, ...kinds: string[]): Fields {
  const f = fields(m);
  if (!kinds.includes(f[TAG] ?? '')) throw new Error('no such overload');
  return f;
}

function serviceAccountUser(namespace: string, name: string): UserInfo {
  return { name: `system:serviceaccount:${namespace}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`] };
}

function userOf(f: Fields, s: AuthzSession): UserInfo {
  return f.saNamespace !== undefined ? serviceAccountUser(f.saNamespace, f.saName ?? '') : s.user;
}

function check(f: Fields, verb: string): Map<string, string> {
  const s = sessions.get(f.session ?? '');
  if (!s) throw new Error('authorizer is not available');
  const user = userOf(f, s);
  const attrs: Attributes = f[TAG] === 'path'
    ? { user, verb, isResourceRequest: false, path: f.path ?? '', namespace: '', apiGroup: '', apiVersion: '', resource: '', subresource: '', name: '' }
    : {
      user, verb, isResourceRequest: true, path: '', namespace: f.namespace ?? '', apiGroup: f.group ?? '', apiVersion: '*',
      resource: f.resource ?? '', subresource: f.subresource ?? '', name: f.name ?? '',
    };
  const key = JSON.stringify([user.name, user.groups, attrs.verb, attrs.isResourceRequest, attrs.path, attrs.namespace,
    attrs.apiGroup, attrs.resource, attrs.subresource, attrs.name]);
  const known = s.decisions.get(key);
  if (!known) {
    s.pending.set(key, attrs);
    return new Map([[TAG, 'decision'], ['decision', 'pending'], ['reason', '']]);
  }
  return new Map([[TAG, 'decision'], ['decision', known.decision], ['reason', known.reason ?? ''], ['error', known.error ?? '']]);
}

function withField(f: Fields, tag: string, k: string, v: string): Map<string, string> {
  return new Map(Object.entries({ ...f, [TAG]: tag, [k]: v }));
}

/** The `authorizer` variable for one request. */
export function authorizerValue(sessionId: string, request: { group: string; resource: string; subresource: string; namespace: string; name: string }): Map<string, unknown> {
  const requestResource = new Map(Object.entries({ [TAG]: 'resource', session: sessionId, ...request }));
  return new Map<string, unknown>([[TAG, 'authorizer'], ['session', sessionId], ['requestResource', requestResource]]);
}

export function authzFunctions(): CelFunc[] {
  const { celMethod, CelScalar, mapType } = cel();
  const { STRING, BOOL, DYN } = CelScalar;
  const T = mapType(STRING, DYN);
  return [
    celMethod('path', T, [STRING], T, function (p) { return withField(expect(this, 'authorizer'), 'path', 'path', p); }),
    celMethod('group', T, [STRING], T, function (g) { return withField(expect(this, 'authorizer'), 'group', 'group', g); }),
    celMethod('serviceAccount', T, [STRING, STRING], T, function (ns, name) {
      const f = expect(this, 'authorizer');
      return new Map(Object.entries({ [TAG]: 'authorizer', session: f.session ?? '', saNamespace: ns, saName: name }));
    }),
    celMethod('resource', T, [STRING], T, function (r) { return withField(expect(this, 'group'), 'resource', 'resource', r); }),
    celMethod('subresource', T, [STRING], T, function (r) { return withField(expect(this, 'resource'), 'resource', 'subresource', r); }),
    celMethod('namespace', T, [STRING], T, function (n) { return withField(expect(this, 'resource'), 'resource', 'namespace', n); }),
    celMethod('name', T, [STRING], T, function (n) { return withField(expect(this, 'resource'), 'resource', 'name', n); }),
    celMethod('check', T, [STRING], T, function (verb) { return check(expect(this, 'resource', 'path'), verb); }),
    celMethod('allowed', T, [], BOOL, function () { return expect(this, 'decision').decision === 'allow'; }),
    celMethod('reason', T, [], STRING, function () { return expect(this, 'decision').reason ?? ''; }),
  ];
}
