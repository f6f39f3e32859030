// authorization.k8s.io/v1 subjectaccessreviews: may this user (or these groups) do this?
import { errors } from '../../../runtime/errors.js';
import type { ResourceDef } from '../../rest/resource.js';
import { invalid } from '../../../apis/validation/field.js';
import type { AccessReviewBinding } from '../backend.js';
import { attributesFor, authorizationGroup, metadataIsEmpty, reviewStrategy, specOf, statusOf, validateAttributesChoice } from '../review.js';

export function subjectAccessReviews(backend: AccessReviewBinding): ResourceDef {
  return {
    group: authorizationGroup, version: 'v1', kind: 'SubjectAccessReview', plural: 'subjectaccessreviews',
    singular: 'subjectaccessreview', namespaced: false, verbs: ['create'], strategy: reviewStrategy(false),
    async virtual(obj) {
      const spec = specOf(obj);
      const errs = validateAttributesChoice(spec);
      if (!spec.user && !(spec.groups ?? []).length) errs.push(invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
      if (!metadataIsEmpty(obj, false)) errs.push(invalid('metadata', obj.metadata, 'must be empty'));
      if (errs.length) throw errors.invalid(authorizationGroup, 'SubjectAccessReview', '', errs);
      const user = { name: spec.user ?? '', uid: spec.uid, groups: spec.groups ?? [], extra: spec.extra ?? undefined };
      const d = await backend.get().authorizer.authorize(attributesFor(user, spec));
      return { ...obj, status: statusOf(d) };
    },
  };
}
