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
import { accessReviews } from './authorization/index.js';
import { clusterrolebindings } from './rbac/clusterrolebindings/index.js';
import { clusterroles } from './rbac/clusterroles/index.js';
import { rolebindings } from './rbac/rolebindings/index.js';
import { roles } from './rbac/roles/index.js';

export function buildScheme(): Scheme {
  const scheme = new Scheme();
  for (const def of [
    configmaps, events, namespaces, secrets, serviceaccounts,
    eventsV1,
    ...accessReviews,
    clusterrolebindings, clusterroles, rolebindings, roles,
    leases,
  ]) {
    scheme.register(def);
  }
  return scheme;
}
