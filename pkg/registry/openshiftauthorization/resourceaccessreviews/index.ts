// authorization.openshift.io/v1 resourceaccessreviews: who may do this action?
import type { ResourceDef } from '../../rest/resource.js';
import type { SubjectLocator } from '../../../authorization/whocan/interfaces.js';
import type { AccessReviewBinding } from '../../authorization/backend.js';
import { reviewStrategy } from '../../authorization/review.js';
import { actionFieldsOf, authorizerAction, openshiftAuthorizationGroup, responseOf, validateAction } from '../action.js';

export function resourceAccessReviews(locator: AccessReviewBinding<SubjectLocator>): ResourceDef {
  return {
    group: openshiftAuthorizationGroup, version: 'v1', kind: 'ResourceAccessReview', plural: 'resourceaccessreviews',
    singular: 'resourceaccessreview', namespaced: false, verbs: ['create'], strategy: reviewStrategy(false),
    async virtual(obj) {
      const action = actionFieldsOf(obj);
      validateAction('ResourceAccessReview', action);
      return responseOf(action.namespace ?? '', await locator.get().allowedSubjects(authorizerAction(action)));
    },
  };
}
