// Who can (OpenShift's resource access reviews), a group beyond upstream's surface: on
// by default, off with --runtime-config=authorization.openshift.io/v1=false. Declared
// with an unbound locator (a create answers 503 until bound), bound per replica once its
// authorization modes exist, as the authorization.k8s.io reviews are.
import type { SubjectLocator } from '../../authorization/whocan/interfaces.js';
import type { ResourceDef } from '../rest/resource.js';
import type { ResourceScheme } from '../rest/resource-scheme.js';
import { AccessReviewBinding } from '../authorization/backend.js';
import { openshiftAuthorizationGroup } from './action.js';
import { localResourceAccessReviews } from './localresourceaccessreviews/index.js';
import { resourceAccessReviews } from './resourceaccessreviews/index.js';

export { openshiftAuthorizationGroup };

const makers = [localResourceAccessReviews, resourceAccessReviews];

export const resourceAccessReviewDefs: ResourceDef[] = makers.map((m) => m(new AccessReviewBinding<SubjectLocator>()));

export function bindResourceAccessReviews(scheme: ResourceScheme, locator: SubjectLocator): void {
  const binding = new AccessReviewBinding<SubjectLocator>();
  binding.bind(locator);
  for (const def of makers.map((m) => m(binding))) {
    if (!scheme.resource(def.group, def.version, def.plural)) continue; // disabled by --runtime-config
    scheme.bindOperation(def.group, def.version, def.plural, '', def.virtual!);
  }
}
