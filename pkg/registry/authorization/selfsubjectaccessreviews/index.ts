// authorization.k8s.io/v1 selfsubjectaccessreviews: may I do this? The subject is the
// caller (kubectl auth can-i).
import { errors } from '../../../runtime/errors.js';
import type { ResourceDef } from '../../rest/resource.js';
import { invalid } from '../../../apis/validation/field.js';
import type { AccessReviewBinding } from '../backend.js';
import { attributesFor, authorizationGroup, metadataIsEmpty, reviewStrategy, specOf, statusOf, validateAttributesChoice } from '../review.js';

export function selfSubjectAccessReviews(backend: AccessReviewBinding): ResourceDef {
  return {
    group: authorizationGroup, version: 'v1', kind: 'SelfSubjectAccessReview', plural: 'selfsubjectaccessreviews',
    singular: 'selfsubjectaccessreview', namespaced: false, verbs: ['create'], strategy: reviewStrategy(false),
    async virtual(obj, ctx) {
      const spec = specOf(obj);
      const errs = validateAttributesChoice(spec);
      if (!metadataIsEmpty(obj, false)) errs.push(invalid('metadata', obj.metadata, 'must be empty'));
      if (errs.length) throw errors.invalid(authorizationGroup, 'SelfSubjectAccessReview', '', errs);
      // The v1 spec has no user fields: whatever the body says, the caller is the subject.
      const d = await backend.get().authorizer.authorize(attributesFor(ctx.user, { resourceAttributes: spec.resourceAttributes, nonResourceAttributes: spec.nonResourceAttributes }));
      return { ...obj, status: statusOf(d) };
    },
  };
}
