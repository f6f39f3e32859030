// authorization.openshift.io/v1 localresourceaccessreviews: who may do this action in
// the namespace of the request path (the action's namespace is forced to it).
import { invalid } from '../../../apis/validation/field.js';
import type { SubjectLocator } from '../../../authorization/whocan/interfaces.js';
import { errors } from '../../../runtime/errors.js';
import type { ResourceDef } from '../../rest/resource.js';
import type { AccessReviewBinding } from '../../authorization/backend.js';
import { reviewStrategy } from '../../authorization/review.js';
import { actionFieldsOf, authorizerAction, openshiftAuthorizationGroup, responseOf, validateAction } from '../action.js';

export function localResourceAccessReviews(locator: AccessReviewBinding<SubjectLocator>): ResourceDef {
  return {
    group: openshiftAuthorizationGroup, version: 'v1', kind: 'LocalResourceAccessReview', plural: 'localresourceaccessreviews',
    singular: 'localresourceaccessreview', namespaced: true, verbs: ['create'], strategy: reviewStrategy(true),
    async virtual(obj, ctx) {
      if (!ctx.namespace) throw errors.badRequest('namespace is required on this type');
      const action = actionFieldsOf(obj);
      if (action.namespace && action.namespace !== ctx.namespace) {
        throw errors.invalid(openshiftAuthorizationGroup, 'LocalResourceAccessReview', '',
          [invalid('namespace', action.namespace, `namespace must be: ${ctx.namespace}`)]);
      }
      action.namespace = ctx.namespace;
      validateAction('LocalResourceAccessReview', action);
      return responseOf(ctx.namespace, await locator.get().allowedSubjects(authorizerAction(action)));
    },
  };
}
