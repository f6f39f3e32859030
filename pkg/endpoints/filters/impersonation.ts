// Impersonation (SPEC 5.12, upstream's WithImpersonation): a caller acts as another
// identity through Impersonate-* headers. Each requested user, group, extra value and
// uid needs the `impersonate` verb for the caller; then the request continues as the
// impersonated user, whom authorization judges from here on.
import type Koa from 'koa';
import type { UserInfo } from '../../authentication/user.js';
import { allAuthenticated, allUnauthenticated, anonymousUserName } from '../../authentication/user.js';
import { forbiddenError } from '../../authorization/forbidden.js';
import type { Attributes, Authorizer } from '../../authorization/interfaces.js';
import { makeGroupNames, makeUsername, splitUsername } from '../../serviceaccount/names.js';

export const impersonateUserHeader = 'impersonate-user';
export const impersonateGroupHeader = 'impersonate-group';
export const impersonateUidHeader = 'impersonate-uid';
export const impersonateExtraPrefix = 'impersonate-extra-';

/** One thing to impersonate, shaped like upstream's ObjectReference (its %v prints it). */
export interface ImpersonationRequest {
  kind: 'User' | 'ServiceAccount' | 'Group' | 'UserExtra' | 'UID';
  namespace?: string;
  name: string;
  apiVersion?: string;
  /** The extra key, for UserExtra. */
  fieldPath?: string;
}

/**
 * Whether any header's name starts with Impersonate- (any case): nearly every request has
 * none, and the scans below lower-case each name four times.
 */
function namesImpersonation(rawHeaders: string[]): boolean {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const h = rawHeaders[i]!;
    if (h.length > impersonatePrefixLength && (h.charCodeAt(0) | 0x20) === 0x69
      && h.slice(0, impersonatePrefixLength).toLowerCase() === impersonatePrefix) return true;
  }
  return false;
}
const impersonatePrefix = 'impersonate-';
const impersonatePrefixLength = impersonatePrefix.length;

/** Header name/value pairs as received (Node's rawHeaders). */
export function parseImpersonation(rawHeaders: string[]): ImpersonationRequest[] | { error: string } {
  if (!namesImpersonation(rawHeaders)) return [];
  const values = (name: string): string[] => {
    const out: string[] = [];
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name) out.push(rawHeaders[i + 1]!);
    return out;
  };
  const reqs: ImpersonationRequest[] = [];
  const requestedUser = values(impersonateUserHeader)[0] ?? '';
  const hasUser = requestedUser.length > 0;
  if (hasUser) {
    const sa = splitUsername(requestedUser);
    reqs.push(sa ? { kind: 'ServiceAccount', namespace: sa.namespace, name: sa.name } : { kind: 'User', name: requestedUser });
  }
  const groups = values(impersonateGroupHeader);
  for (const g of groups) reqs.push({ kind: 'Group', name: g });
  let hasExtra = false;
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const h = rawHeaders[i]!.toLowerCase();
    if (!h.startsWith(impersonateExtraPrefix)) continue;
    hasExtra = true;
    reqs.push({ kind: 'UserExtra', apiVersion: 'authentication.k8s.io/v1', name: rawHeaders[i + 1]!, fieldPath: unescapeKey(h.slice(impersonateExtraPrefix.length)) });
  }
  const uid = values(impersonateUidHeader)[0] ?? '';
  if (uid) reqs.push({ kind: 'UID', name: uid, apiVersion: 'authentication.k8s.io/v1' });
  if ((groups.length > 0 || hasExtra || uid) && !hasUser) {
    return { error: `requested ${formatRequests(reqs)} without impersonating a user` };
  }
  return reqs;
}

/** Go's %v of []v1.ObjectReference: {Kind Namespace Name UID APIVersion ResourceVersion FieldPath}. */
export function formatRequests(reqs: ImpersonationRequest[]): string {
  return `[${reqs.map((r) => `{${[r.kind, r.namespace ?? '', r.name, '', r.apiVersion ?? '', '', r.fieldPath ?? ''].join(' ')}}`).join(' ')}]`;
}

function unescapeKey(k: string): string {
  try {
    return decodeURIComponent(k);
  } catch {
    return k;
  }
}

export function impersonationFilter(authorizer: Authorizer): Koa.Middleware {
  // A plain function for the request without Impersonate-* headers: it only hands on.
  return (ctx, next) => {
    const parsed = parseImpersonation(ctx.req.rawHeaders);
    return !('error' in parsed) && parsed.length === 0 ? next() : impersonate(authorizer, ctx, next, parsed);
  };
}

async function impersonate(authorizer: Authorizer, ctx: Koa.Context, next: Koa.Next, parsed: ImpersonationRequest[] | { error: string }): Promise<void> {
  if ('error' in parsed) {
    // Upstream answers this with its plain-text internal error, not a Status.
    ctx.status = 500;
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = `${sanitize(`Internal Server Error: ${JSON.stringify(ctx.originalUrl)}: ${parsed.error}`)}\n`;
    return;
  }
  const requestor = ctx.state.user as UserInfo;
  const groupsSpecified = parsed.some((r) => r.kind === 'Group');
  let username = '';
  let uid = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const r of parsed) {
    const attrs: Attributes = {
      user: requestor, verb: 'impersonate', isResourceRequest: true, path: '',
      apiGroup: r.apiVersion ? 'authentication.k8s.io' : '', apiVersion: r.apiVersion ? 'v1' : '',
      namespace: r.namespace ?? '', name: r.name, resource: '', subresource: '',
    };
    switch (r.kind) {
      case 'ServiceAccount':
        attrs.resource = 'serviceaccounts';
        username = makeUsername(r.namespace!, r.name);
        if (!groupsSpecified) groups = makeGroupNames(r.namespace!);
        break;
      case 'User':
        attrs.resource = 'users';
        username = r.name;
        break;
      case 'Group':
        attrs.resource = 'groups';
        groups.push(r.name);
        break;
      case 'UserExtra':
        attrs.resource = 'userextras';
        attrs.subresource = r.fieldPath!;
        (extra[r.fieldPath!] ??= []).push(r.name);
        break;
      case 'UID':
        attrs.resource = 'uids';
        uid = r.name;
        break;
    }
    const d = await authorizer.authorize(attrs);
    if (d.decision !== 'allow') throw forbiddenError(attrs, d.reason);
  }
  if (username !== anonymousUserName) {
    if (!groups.some((g) => g === allAuthenticated || g === allUnauthenticated)) groups.push(allAuthenticated);
  } else if (!groups.includes(allUnauthenticated)) {
    groups.push(allUnauthenticated);
  }
  const user: UserInfo = { name: username, groups };
  if (uid) user.uid = uid;
  if (Object.keys(extra).length > 0) user.extra = extra;
  ctx.state.impersonatedBy = requestor;
  ctx.state.user = user;
  for (const h of Object.keys(ctx.req.headers)) {
    if (h === impersonateUserHeader || h === impersonateGroupHeader || h === impersonateUidHeader || h.startsWith(impersonateExtraPrefix)) {
      delete ctx.req.headers[h];
    }
  }
  await next();
}

/** Upstream's sanitizer for text written into error bodies. */
function sanitize(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
