// authorization.k8s.io/v1 selfsubjectrulesreviews: what may I do in this namespace
// (kubectl auth can-i --list)? Answered by every mode that can enumerate its rules.
import { errors } from '../../../runtime/errors.js';
import { isPlainObject } from '../../../runtime/object.js';
import type { ResourceDef } from '../../rest/resource.js';
import type { AccessReviewBinding } from '../backend.js';
import { authorizationGroup, reviewStrategy } from '../review.js';

export function selfSubjectRulesReviews(backend: AccessReviewBinding): ResourceDef {
  return {
    group: authorizationGroup, version: 'v1', kind: 'SelfSubjectRulesReview', plural: 'selfsubjectrulesreviews',
    singular: 'selfsubjectrulesreview', namespaced: false, verbs: ['create'], strategy: reviewStrategy(false),
    async virtual(obj, ctx) {
      const spec = isPlainObject(obj.spec) ? obj.spec : {};
      const namespace = typeof spec.namespace === 'string' ? spec.namespace : '';
      if (!namespace) throw errors.badRequest('no namespace on request');
      const r = await backend.get().ruleResolver.rulesFor(ctx.user, namespace);
      const status: Record<string, unknown> = {
        resourceRules: r.resourceRules.map((x) => omitEmpty({ verbs: x.verbs, apiGroups: x.apiGroups, resources: x.resources, resourceNames: x.resourceNames })),
        nonResourceRules: r.nonResourceRules.map((x) => omitEmpty({ verbs: x.verbs, nonResourceURLs: x.nonResourceURLs })),
        incomplete: r.incomplete,
      };
      if (r.error) status.evaluationError = r.error;
      // Upstream answers with a fresh object: no metadata or spec from the request.
      return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: { creationTimestamp: null }, spec: {}, status };
    },
  };
}

/** Rule lists other than verbs are omitempty upstream. */
function omitEmpty(rule: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(rule)) if (k === 'verbs' || v.length > 0) out[k] = v;
  return out;
}
