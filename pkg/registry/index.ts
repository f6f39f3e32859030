// Every built-in resource this server serves. Groups are registered in upstream's
// /apis order (events.k8s.io, rbac..., coordination...), resources alphabetically.
// Routing, discovery, OpenAPI and storage all start from the Scheme built here.
import { Scheme } from '../runtime/scheme.js';
import { configmaps } from './core/configmaps/index.js';
import { events } from './core/events/index.js';
import { namespaces } from './core/namespaces/index.js';
import { secrets } from './core/secrets/index.js';
import { serviceaccounts } from './core/serviceaccounts/index.js';
import { leases } from './coordination/leases/index.js';
import { eventsV1 } from './events/events/index.js';
import { selfsubjectreviewsV1, selfsubjectreviewsV1alpha1, selfsubjectreviewsV1beta1 } from './authentication/selfsubjectreviews/index.js';
import { tokenreviews } from './authentication/tokenreviews/index.js';
import { versionEnabled } from './authentication/enablement.js';
import { accessReviews } from './authorization/index.js';
import { clusterrolebindings } from './rbac/clusterrolebindings/index.js';
import { clusterroles } from './rbac/clusterroles/index.js';
import { rolebindings } from './rbac/rolebindings/index.js';
import { roles } from './rbac/roles/index.js';
import { certificatesigningrequests } from './certificates/certificatesigningrequests/index.js';
import { apiservices } from './apiregistration/apiservices/index.js';
import { mutatingwebhookconfigurations, validatingwebhookconfigurations } from './admissionregistration/webhookconfigurations/index.js';

export interface SchemeOptions {
  /** --runtime-config: turns group versions that upstream serves only on request on or off. */
  runtimeConfig?: Record<string, string>;
}

export function buildScheme(opts: SchemeOptions = {}): Scheme {
  const scheme = new Scheme();
  for (const def of [
    configmaps, events, namespaces, secrets, serviceaccounts,
    apiservices,
    eventsV1,
    selfsubjectreviewsV1, tokenreviews, selfsubjectreviewsV1beta1, selfsubjectreviewsV1alpha1,
    ...accessReviews,
    certificatesigningrequests,
    clusterrolebindings, clusterroles, rolebindings, roles,
    mutatingwebhookconfigurations, validatingwebhookconfigurations,
    leases,
  ]) {
    if (!versionEnabled(def.group, def.version, opts.runtimeConfig ?? {})) continue;
    scheme.register(def);
  }
  return scheme;
}
