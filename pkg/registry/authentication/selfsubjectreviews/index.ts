// SelfSubjectReview: the caller's own identity as this server sees it (after
// impersonation), as `kubectl auth whoami` asks. Served in v1 and, as upstream v1.28
// does when --runtime-config enables them, v1beta1 and v1alpha1.
import { nowTimestamp } from '../../generic/names.js';
import { apiVersionOf } from '../../../runtime/scheme.js';
import type { ResourceDef, VirtualCreate } from '../../rest/resource.js';
import { authenticationGroup, reviewStrategy } from '../strategy.js';

function selfSubjectReviewCreate(version: string): VirtualCreate {
  return async (_obj, ctx) => {
    const u = ctx.user;
    const userInfo: Record<string, unknown> = { username: u.name };
    if (u.uid) userInfo.uid = u.uid;
    if (u.groups.length > 0) userInfo.groups = [...u.groups];
    if (u.extra && Object.keys(u.extra).length > 0) userInfo.extra = structuredClone(u.extra);
    return {
      apiVersion: apiVersionOf(authenticationGroup, version),
      kind: 'SelfSubjectReview',
      metadata: { creationTimestamp: nowTimestamp() },
      status: { userInfo },
    };
  };
}

function selfSubjectReviews(version: string): ResourceDef {
  return {
    group: authenticationGroup,
    version,
    kind: 'SelfSubjectReview',
    plural: 'selfsubjectreviews',
    singular: 'selfsubjectreview',
    namespaced: false,
    verbs: ['create'],
    strategy: reviewStrategy,
    virtual: selfSubjectReviewCreate(version),
  };
}

export const selfsubjectreviewsV1 = selfSubjectReviews('v1');
export const selfsubjectreviewsV1beta1 = selfSubjectReviews('v1beta1');
export const selfsubjectreviewsV1alpha1 = selfSubjectReviews('v1alpha1');
