// authorization.k8s.io/v1 localsubjectaccessreviews: a SubjectAccessReview confined to
// the namespace of the request path.
import { errors } from '../../../runtime/errors.js';
import type { ResourceDef } from '../../rest/resource.js';
import { invalid } from '../../../apis/validation/field.js';
import type { AccessReviewBinding } from '../backend.js';
import { attributesFor, authorizationGroup, metadataIsEmpty, reviewStrategy, specOf, statusOf, validateAttributesChoice } from '../review.js';

export function localSubjectAccessReviews(backend: AccessReviewBinding): ResourceDef {
  return {
    group: authorizationGroup, version: 'v1', kind: 'LocalSubjectAccessReview', plural: 'localsubjectaccessreviews',
    singular: 'localsubjectaccessreview', namespaced: true, verbs: ['create'], strategy: reviewStrategy(true),
    async virtual(obj, ctx) {
      if (!ctx.namespace) throw errors.badRequest(`namespace is required on this type: ${ctx.namespace}`);
      if (!obj.metadata.namespace) obj.metadata.namespace = ctx.namespace;
      else if (obj.metadata.namespace !== ctx.namespace) {
        throw errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
      }
      const spec = specOf(obj);
      if (spec.resourceAttributes && !spec.resourceAttributes.namespace) spec.resourceAttributes.namespace = ctx.namespace;
      const errs = validateAttributesChoice(spec);
      if (!spec.user && !(spec.groups ?? []).length) errs.push(invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
      if (!metadataIsEmpty(obj, true)) errs.push(invalid('metadata', obj.metadata, 'must be empty except for namespace'));
      if (spec.resourceAttributes && spec.resourceAttributes.namespace !== obj.metadata.namespace) {
        errs.push(invalid('spec.resourceAttributes.namespace', spec.resourceAttributes.namespace ?? '', 'must match metadata.namespace'));
      }
      if (spec.nonResourceAttributes) errs.push(invalid('spec.nonResourceAttributes', spec.nonResourceAttributes, 'disallowed on this kind of request'));
      if (errs.length) throw errors.invalid(authorizationGroup, 'LocalSubjectAccessReview', '', errs);
      const user = { name: spec.user ?? '', uid: spec.uid, groups: spec.groups ?? [], extra: spec.extra ?? undefined };
      const d = await backend.get().authorizer.authorize(attributesFor(user, spec));
      return { ...obj, status: statusOf(d) };
    },
  };
}
