// The four access reviews. The scheme declares them with an unbound backend (a create
// answers 503 until bound); each replica binds its authorizer and rule resolver through
// Scheme.bindOperation once they exist, the one mechanism every operation resource uses.
import type { ResourceDef } from '../rest/resource.js';
import type { ResourceScheme } from '../rest/resource-scheme.js';
import { AccessReviewBinding, type AccessReviewBackend } from './backend.js';
import { localSubjectAccessReviews } from './localsubjectaccessreviews/index.js';
import { selfSubjectAccessReviews } from './selfsubjectaccessreviews/index.js';
import { selfSubjectRulesReviews } from './selfsubjectrulesreviews/index.js';
import { subjectAccessReviews } from './subjectaccessreviews/index.js';

const makers = [localSubjectAccessReviews, selfSubjectAccessReviews, selfSubjectRulesReviews, subjectAccessReviews];

/** In upstream's discovery order (alphabetical within authorization.k8s.io/v1). */
export const accessReviews: ResourceDef[] = makers.map((m) => m(new AccessReviewBinding()));

export function bindAccessReviews(scheme: ResourceScheme, backend: AccessReviewBackend): void {
  const binding = new AccessReviewBinding();
  binding.bind(backend);
  for (const def of makers.map((m) => m(binding))) {
    if (!scheme.resource(def.group, def.version, def.plural)) continue; // disabled by --runtime-config
    scheme.bindOperation(def.group, def.version, def.plural, '', def.virtual!);
  }
}
