// Every built-in resource this server serves. Groups are registered in upstream's
// /apis order (events.k8s.io, rbac..., coordination...), resources alphabetically.
// Routing, discovery, OpenAPI and storage all start from the Scheme built here.
import type { ResourceDef } from './rest/resource.js';
import { ResourceScheme } from './rest/resource-scheme.js';
import { componentstatuses } from './core/componentstatuses/index.js';
import { configmaps } from './core/configmaps/index.js';
import { endpoints } from './core/endpoints/index.js';
import { events } from './core/events/index.js';
import { namespaces } from './core/namespaces/index.js';
import { bindings, pods } from './core/pods/index.js';
import { podtemplates } from './core/podtemplates/index.js';
import { replicationcontrollers } from './core/replicationcontrollers/index.js';
import { controllerrevisions } from './apps/controllerrevisions/index.js';
import { daemonsets } from './apps/daemonsets/index.js';
import { deployments } from './apps/deployments/index.js';
import { replicasets } from './apps/replicasets/index.js';
import { statefulsets } from './apps/statefulsets/index.js';
import { cronjobs } from './batch/cronjobs/index.js';
import { jobs } from './batch/jobs/index.js';
import { poddisruptionbudgets } from './policy/poddisruptionbudgets/index.js';
import { nodes } from './core/nodes/index.js';
import { limitranges } from './core/limitranges/index.js';
import { persistentvolumeclaims } from './core/persistentvolumeclaims/index.js';
import { persistentvolumes } from './core/persistentvolumes/index.js';
import { resourcequotas } from './core/resourcequotas/index.js';
import { secrets } from './core/secrets/index.js';
import { serviceaccounts } from './core/serviceaccounts/index.js';
import { services } from './core/services/index.js';
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
import { priorityclasses } from './scheduling/priorityclasses/index.js';
import { ingressclasses } from './networking/ingressclasses/index.js';
import { horizontalpodautoscalersV1, horizontalpodautoscalersV2 } from './autoscaling/horizontalpodautoscalers/index.js';
import { ingresses } from './networking/ingresses/index.js';
import { networkpolicies } from './networking/networkpolicies/index.js';
import { csidrivers } from './storage/csidrivers/index.js';
import { csinodes } from './storage/csinodes/index.js';
import { csistoragecapacities } from './storage/csistoragecapacities/index.js';
import { storageclasses } from './storage/storageclasses/index.js';
import { volumeattachments } from './storage/volumeattachments/index.js';
import { runtimeclasses } from './node/runtimeclasses/index.js';
import { endpointslices } from './discovery/endpointslices/index.js';
import { certificatesigningrequests } from './certificates/certificatesigningrequests/index.js';
import { clusterTrustBundleFeatureGate, clustertrustbundles } from './certificates/clustertrustbundles/index.js';
import { featureGates } from '../features/gates.js';
import { apiservices } from './apiregistration/apiservices/index.js';
import {
  flowschemasV1beta2, flowschemasV1beta3, prioritylevelconfigurationsV1beta2, prioritylevelconfigurationsV1beta3,
} from './flowcontrol/index.js';
import { mutatingwebhookconfigurations, validatingwebhookconfigurations } from './admissionregistration/webhookconfigurations/index.js';
import {
  validatingadmissionpoliciesV1alpha1, validatingadmissionpoliciesV1beta1, validatingadmissionpolicybindingsV1alpha1,
  validatingadmissionpolicybindingsV1beta1,
} from './admissionregistration/validatingadmissionpolicies/index.js';
import { customresourcedefinitions } from './apiextensions/customresourcedefinitions/index.js';
import { resourceAccessReviewDefs } from './openshiftauthorization/index.js';
import { objectHistories } from './history/index.js';

export interface SchemeOptions {
  /** --runtime-config: turns group versions that upstream serves only on request on or off. */
  runtimeConfig?: Record<string, string>;
  /** Feature gates; default: the process's --feature-gates. */
  featureEnabled?: (gate: string) => boolean;
}

/** Resources upstream serves only while a feature gate is on, besides their version's enablement. */
const featureGated = new Map<ResourceDef, string>([[clustertrustbundles, clusterTrustBundleFeatureGate]]);

export function buildScheme(opts: SchemeOptions = {}): ResourceScheme {
  const scheme = new ResourceScheme();
  for (const def of [
    bindings, componentstatuses, configmaps, endpoints, events, limitranges, namespaces, nodes, persistentvolumeclaims, persistentvolumes, pods, podtemplates,
    replicationcontrollers, resourcequotas, secrets, serviceaccounts, services,
    apiservices,
    controllerrevisions, daemonsets, deployments, replicasets, statefulsets,
    eventsV1,
    selfsubjectreviewsV1, tokenreviews, selfsubjectreviewsV1beta1, selfsubjectreviewsV1alpha1,
    ...accessReviews,
    horizontalpodautoscalersV2, horizontalpodautoscalersV1,
    cronjobs, jobs,
    certificatesigningrequests, clustertrustbundles,
    ingressclasses, ingresses, networkpolicies,
    poddisruptionbudgets,
    clusterrolebindings, clusterroles, rolebindings, roles,
    csidrivers, csinodes, csistoragecapacities, storageclasses, volumeattachments,
    mutatingwebhookconfigurations, validatingwebhookconfigurations,
    validatingadmissionpoliciesV1beta1, validatingadmissionpolicybindingsV1beta1,
    validatingadmissionpoliciesV1alpha1, validatingadmissionpolicybindingsV1alpha1,
    customresourcedefinitions,
    priorityclasses,
    leases,
    runtimeclasses,
    endpointslices,
    flowschemasV1beta3, prioritylevelconfigurationsV1beta3, flowschemasV1beta2, prioritylevelconfigurationsV1beta2,
    // Beyond upstream's surface (see beyond-upstream.ts), after every upstream group.
    ...resourceAccessReviewDefs, objectHistories,
  ]) {
    if (!versionEnabled(def.group, def.version, opts.runtimeConfig ?? {})) continue;
    const gate = featureGated.get(def);
    if (gate && !(opts.featureEnabled ?? ((g) => featureGates().enabled(g)))(gate)) continue;
    scheme.register(def);
  }
  return scheme;
}
