// authentication.k8s.io/v1 TokenReview: "who is this token?" answered by the server's
// own authenticator, as it would judge the token on a request (SPEC 2.4).
import type { Authenticator } from '../../../authentication/interfaces.js';
import { intersectAudiences } from '../../../authentication/audiences.js';
import { errors } from '../../../runtime/errors.js';
import { isPlainObject, type KubeObject } from '../../../runtime/object.js';
import type { ResourceDef, VirtualCreate } from '../../rest/resource.js';
import { authenticationGroup, reviewStrategy } from '../strategy.js';

/** TokenReview create: without an authenticator (none configured) the review comes back unanswered. */
export function tokenReviewCreate(authenticator?: Authenticator, apiAudiences: string[] = []): VirtualCreate {
  return async (obj, ctx) => {
    if (ctx.namespace) throw errors.badRequest(`namespace is not allowed on this type: ${ctx.namespace}`);
    const spec = isPlainObject(obj.spec) ? obj.spec : {};
    const token = typeof spec.token === 'string' ? spec.token : '';
    if (!token) throw errors.badRequest('token is required for TokenReview in authentication');
    const { apiVersion, kind, metadata, ...rest } = obj;
    const review: KubeObject = { apiVersion, kind, metadata: { creationTimestamp: null, ...metadata }, ...rest };
    if (!authenticator) return review;

    const requested = Array.isArray(spec.audiences) ? spec.audiences.filter((a): a is string => typeof a === 'string') : [];
    const auds = requested.length > 0 ? requested : apiAudiences;
    const r = await authenticator.authenticate({ headers: { authorization: `Bearer ${token}` }, audiences: auds.length > 0 ? auds : undefined });
    const status: Record<string, unknown> = {};
    if (r.decision === 'authenticated') {
      if (auds.length > 0 && intersectAudiences(auds, r.audiences ?? []).length === 0) {
        throw errors.internal(new Error('error validating audiences'));
      }
      status.authenticated = true;
      const u = r.user;
      const user: Record<string, unknown> = {};
      if (u.name) user.username = u.name;
      if (u.uid) user.uid = u.uid;
      if (u.groups.length > 0) user.groups = u.groups;
      if (u.extra && Object.keys(u.extra).length > 0) user.extra = u.extra;
      status.user = user;
      if (r.audiences && r.audiences.length > 0) status.audiences = r.audiences;
    } else {
      status.user = {};
      if (r.decision === 'error') status.error = r.message;
    }
    return { ...review, status };
  };
}

export const tokenreviews: ResourceDef = {
  group: authenticationGroup,
  version: 'v1',
  kind: 'TokenReview',
  plural: 'tokenreviews',
  singular: 'tokenreview',
  namespaced: false,
  verbs: ['create'],
  strategy: reviewStrategy,
  virtual: tokenReviewCreate(),
};
