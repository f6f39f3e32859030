// matchConditions of admission webhooks (and of policies): every condition must be true
// for the request to be sent on. As upstream: any false condition means no match even
// when another errored; otherwise the first error is thrown for the caller's
// failurePolicy to decide.
import type { UserInfo } from '../authentication/user.js';
import type { Authorizer } from '../authorization/interfaces.js';
import type { CelInput } from '@bufbuild/cel';
import { compile, evaluate, EvaluationError, type AuthorizerBinding, type Compiled } from './compile.js';
import { AuthzSession } from './library/authz.js';
import { toCel, toCelObject } from './value.js';

export interface MatchConditionInput {
  object: unknown;
  oldObject: unknown;
  /** The AdmissionRequest as webhooks receive it (kind, resource, userInfo, operation...). */
  request: unknown;
  /**
   * The server's Authorizer (the user and resource are then read from `request`), or
   * the Authorizer with them given explicitly.
   */
  authorizer?: Authorizer | {
    authorizer: Authorizer;
    user: UserInfo;
    /** The request's resource, for `authorizer.requestResource`. */
    resource?: { group: string; resource: string; subresource: string; namespace: string; name: string };
  };
}

export type MatchConditionEvaluator = (input: MatchConditionInput) => Promise<boolean>;

export class MatchConditionError extends Error {}

const matchConditionVariables = ['object', 'oldObject', 'request', 'authorizer'];

/** Compiles the conditions once; throws MatchConditionError for one that does not compile. */
export function compileMatchConditions(conditions: ReadonlyArray<{ name: string; expression: string }>): MatchConditionEvaluator {
  const compiled: Array<{ name: string; c: Compiled }> = conditions.map(({ name, expression }) => {
    const r = compile(expression, { variables: matchConditionVariables });
    if (r.error !== undefined) throw new MatchConditionError(`matchCondition '${name}': ${r.error}`);
    return { name, c: r.compiled };
  });
  return async (input) => {
    if (compiled.length === 0) return true;
    const kind = requestKind(input.request);
    const typed = (o: unknown): CelInput => (kind ? toCelObject(o ?? null, kind.group, kind.version, kind.kind) : toCel(o));
    const activation: Record<string, CelInput> = {
      object: typed(input.object),
      oldObject: typed(input.oldObject),
      request: toCel(input.request),
    };
    let firstError: Error | undefined;
    const authz = authorizerParts(input);
    for (const { name, c } of compiled) {
      const binding: AuthorizerBinding | undefined = authz && {
        session: new AuthzSession(authz.authorizer, authz.user),
        request: authz.resource,
      };
      try {
        const { value } = await evaluate(c, activation, { authorizer: binding });
        if (typeof value !== 'boolean') {
          firstError ??= new MatchConditionError(`matchCondition '${name}': cel expression must evaluate to a bool`);
        } else if (!value) {
          return false;
        }
      } catch (err) {
        const msg = err instanceof EvaluationError ? err.message : String(err);
        firstError ??= new MatchConditionError(`matchCondition '${name}': ${msg}`);
      }
    }
    if (firstError) throw firstError;
    return true;
  };
}

/** The request's kind, which types object and oldObject by the kind's schema. */
function requestKind(request: unknown): { group: string; version: string; kind: string } | undefined {
  const k = request && typeof request === 'object' ? (request as { kind?: unknown }).kind : undefined;
  if (!k || typeof k !== 'object') return undefined;
  const { group, version, kind } = k as Record<string, unknown>;
  return typeof version === 'string' && typeof kind === 'string' ? { group: typeof group === 'string' ? group : '', version, kind } : undefined;
}

type Resource = { group: string; resource: string; subresource: string; namespace: string; name: string };

function authorizerParts(input: MatchConditionInput): { authorizer: Authorizer; user: UserInfo; resource: Resource } | undefined {
  const a = input.authorizer;
  if (!a) return undefined;
  const req = (input.request && typeof input.request === 'object' ? input.request : {}) as Record<string, unknown>;
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  const res = (req.resource && typeof req.resource === 'object' ? req.resource : {}) as Record<string, unknown>;
  const fromRequest: Resource = {
    group: str(res.group), resource: str(res.resource), subresource: str(req.subResource), namespace: str(req.namespace), name: str(req.name),
  };
  if ('authorize' in a) {
    const ui = (req.userInfo && typeof req.userInfo === 'object' ? req.userInfo : {}) as Record<string, unknown>;
    const user: UserInfo = {
      name: str(ui.username ?? ui.name),
      ...(str(ui.uid) ? { uid: str(ui.uid) } : {}),
      groups: Array.isArray(ui.groups) ? ui.groups.map(String) : [],
      ...(ui.extra && typeof ui.extra === 'object' ? { extra: ui.extra as Record<string, string[]> } : {}),
    };
    return { authorizer: a, user, resource: fromRequest };
  }
  return { authorizer: a.authorizer, user: a.user, resource: a.resource ?? fromRequest };
}
