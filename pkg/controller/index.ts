// Every background controller, registered by name in one list. They run only in the
// replica that holds the controller-manager election.
import type { ServerDeps } from '../server/deps.js';
import type { ControllerManager } from './manager.js';
import { ClusterRoleAggregationController } from './clusterroleaggregation/index.js';

export function registerControllers(_manager: ControllerManager, _d: ServerDeps): void {
  _manager.register(new ClusterRoleAggregationController(_d.informers.informerFor('rbac.authorization.k8s.io', 'clusterroles'), _d.registry.store('rbac.authorization.k8s.io', 'clusterroles'), _d.log));
  // Controllers are added here as they land (namespace, garbage collector, ...).
}
